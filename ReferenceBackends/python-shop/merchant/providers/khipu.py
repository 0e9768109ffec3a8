"""khipu, Instant Payments API 3.0 (providers.md §2): payments with `x-api-key`, notifications in the 3.0 shape,
checked against `x-khipu-signature` (Base64(HMAC-SHA256(secret, t + "." + body))) and then the payment is re-fetched."""

import base64
import hashlib
import hmac
import json
import urllib.parse

from .. import config
from ..amounts import ZERO_DECIMAL_ISO, provider_amount
from ..config import user_agent
from ..http_client import ProviderError, http_call


def _headers(extra=None):
    headers = {"x-api-key": config.CONFIG.khipu_api_key, "Accept": "application/json", "User-Agent": user_agent()}
    headers.update(extra or {})
    return headers


def _error(status, body):
    if isinstance(body, dict) and body.get("message"):
        fields = [e.get("field") for e in body.get("errors") or [] if isinstance(e, dict) and e.get("field")]
        return f"khipu answered {status}: {body['message']}" + (f" ({', '.join(fields)})" if fields else "")
    return f"khipu answered {status}"


def map_status(status, detail):
    """done → paid, except a payer's rejection or abuse (failed) and a full refund or reversal (canceled);
    verifying → pending (transferred, not reconciled); pending → open (providers.md §2.9, §2.12 B3)."""
    if status == "done" and config.CONFIG.bug == "ignore-status-detail":
        return "paid"  # wrong on purpose: `done` taken as paid whatever its status_detail says
    if status == "done":
        if detail in ("rejected-by-payer", "marked-as-abuse"):
            return "failed"
        if detail in ("fully-refunded", "reversed"):
            return "canceled"
        return "paid"
    return {"verifying": "pending", "pending": "open"}.get(status)


def create(order):
    amount = provider_amount(order.amount, order.currency, ZERO_DECIMAL_ISO)
    payload = {
        "subject": order.description, "currency": order.currency,
        "amount": int(amount) if amount == amount.to_integral_value() else float(amount),
        "transaction_id": order.id,
        "return_url": f"{config.CONFIG.public_url}/return/{order.id}",
        "cancel_url": f"{config.CONFIG.public_url}/return/{order.id}",
        "notify_url": f"{config.CONFIG.public_url}/webhooks/khipu", "notify_api_version": "3.0",
    }
    if config.CONFIG.bug == "no-notifications":
        del payload["notify_url"], payload["notify_api_version"]  # wrong on purpose: khipu is never told where to notify
    status, answer = http_call("POST", f"{config.CONFIG.khipu_url}/v3/payments",
                               _headers({"Content-Type": "application/json"}), json.dumps(payload).encode("utf-8"))
    if status not in (200, 201) or not isinstance(answer, dict) or not answer.get("payment_id"):
        raise ProviderError(_error(status, answer), status, answer)
    return answer["payment_id"], answer.get("payment_url"), "open"


def fetch_status(payment_id):
    status, answer = http_call("GET", f"{config.CONFIG.khipu_url}/v3/payments/{urllib.parse.quote(payment_id, safe='')}",
                               _headers())
    if status == 404:
        return None
    if status != 200 or not isinstance(answer, dict) or answer.get("payment_id") != payment_id:
        raise ProviderError(_error(status, answer), status, answer)
    mapped = map_status(answer.get("status"), answer.get("status_detail"))
    if mapped is None:
        raise ProviderError(f"khipu answered an unknown status {answer.get('status')!r}", status, answer)
    return mapped


def signature_valid(header, raw):
    """x-khipu-signature: t=<ms>,s=<base64 HMAC-SHA256(secret, t + "." + raw body)> (providers.md §2.7)."""
    parts = dict(part.strip().split("=", 1) for part in (header or "").split(",") if "=" in part)
    if "t" not in parts or "s" not in parts:
        return False
    digest = hmac.new(config.CONFIG.khipu_secret.encode("utf-8"), parts["t"].encode("utf-8") + b"." + raw, hashlib.sha256).digest()
    return hmac.compare_digest(base64.b64encode(digest).decode("ascii"), parts["s"])
