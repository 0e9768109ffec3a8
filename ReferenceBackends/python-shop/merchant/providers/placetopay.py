"""PlacetoPay (providers.md §1): every request carries a fresh `auth` (new nonce, current seed,
tranKey = Base64(SHA-256(rawNonce + seed + secretKey))); notifications are checked against their signature (SHA-1 hex,
or `sha256:` + SHA-256 hex, of requestId + status + date + secretKey) and then the session is re-queried; the body's
status is never trusted."""

import base64
import datetime
import hashlib
import hmac
import json
import secrets
import urllib.parse

from .. import config
from ..amounts import ZERO_DECIMAL_ISO, provider_amount
from ..config import user_agent
from ..http_client import ProviderError, http_call

_REUSED_RAW_NONCE = secrets.token_hex(16).encode("ascii")  # only used with SHOP_BUG=reuse-nonce


def auth():
    """A fresh `auth` object (providers.md §1.2): new raw nonce, current seed, SHA-256 tranKey."""
    if config.CONFIG.bug == "reuse-nonce":
        raw_nonce = _REUSED_RAW_NONCE
    else:
        raw_nonce = secrets.token_hex(16).encode("ascii")  # like the PHP SDK: 32 hex characters
    seed = datetime.datetime.now(datetime.timezone.utc).astimezone().isoformat(timespec="seconds")
    digest = hashlib.sha256(raw_nonce + seed.encode("utf-8") + config.CONFIG.placetopay_secret.encode("utf-8")).digest()
    return {
        "login": config.CONFIG.placetopay_login,
        "tranKey": base64.b64encode(digest).decode("ascii"),
        "nonce": base64.b64encode(raw_nonce).decode("ascii"),
        "seed": seed,
    }


def _post(path, payload):
    body = json.dumps(payload).encode("utf-8")
    headers = {"Content-Type": "application/json", "Accept": "application/json", "User-Agent": user_agent()}
    return http_call("POST", f"{config.CONFIG.placetopay_url}{path}", headers, body)


def _error(status, body):
    if isinstance(body, dict) and isinstance(body.get("status"), dict):
        s = body["status"]
        return f"PlacetoPay answered {status}: {s.get('status')}/{s.get('reason')} {s.get('message')}"
    return f"PlacetoPay answered {status}"


def create(order, client_ip):
    value = provider_amount(order.amount, order.currency, ZERO_DECIMAL_ISO)
    total = int(value) if value == value.to_integral_value() else float(value)
    payload = {
        "auth": auth(),
        "locale": "en_US",
        "payment": {
            "reference": order.id,
            "description": order.description,
            "amount": {"currency": order.currency, "total": total},
        },
        "returnUrl": f"{config.CONFIG.public_url}/return/{order.id}",
        "ipAddress": client_ip or "127.0.0.1",
        "userAgent": "python-shop/1.0",
    }
    minutes = 2 if config.CONFIG.bug == "short-expiration" else config.CONFIG.placetopay_expiration_minutes  # 2: wrong on purpose
    if minutes:
        expires = datetime.datetime.now(datetime.timezone.utc).astimezone() + datetime.timedelta(minutes=minutes)
        payload["expiration"] = expires.isoformat(timespec="seconds")
    if config.CONFIG.bug == "no-client-info":
        del payload["ipAddress"], payload["userAgent"]  # wrong on purpose: both are required
    status, answer = _post("/api/session", payload)
    ok = (status == 200 and isinstance(answer, dict) and isinstance(answer.get("status"), dict)
          and answer["status"].get("status") == "OK")
    if not ok:
        raise ProviderError(_error(status, answer), status, answer)
    request_id = answer.get("requestId")
    if isinstance(request_id, bool) or not isinstance(request_id, (int, str)) or str(request_id) == "":
        raise ProviderError("PlacetoPay answered a session without a requestId")
    return str(request_id), answer.get("processUrl"), "open"


def map_session(session):
    """The order status for a query-session answer (providers.md §1.5, the mock's PlacetoPayStatus+Catalog.swift).

    APPROVED -> paid; PENDING -> pending when a transaction is in progress (PENDING at the bank or
    PENDING_CONFIRMATION), else open; APPROVED_PARTIAL -> pending; REJECTED/EX -> expired; REJECTED/?C (payer)
    and REJECTED/MC (merchant) -> canceled; other REJECTED (XN attempt limit, ...) -> failed;
    PARTIAL_EXPIRED -> expired. Anything else (FAILED is a request-level error) -> None.
    """
    status = session.get("status") or {}
    name, reason = status.get("status"), str(status.get("reason"))
    if name == "APPROVED":
        return "paid"
    if name == "PENDING":
        for transaction in session.get("payment") or []:
            t_status = ((transaction or {}).get("status") or {}).get("status")
            if t_status in ("PENDING", "PENDING_CONFIRMATION"):
                return "pending"
        return "open"
    if name == "APPROVED_PARTIAL":
        return "pending"
    if name == "REJECTED":
        if reason == "EX":
            return "expired"
        if reason in ("?C", "MC"):
            return "canceled"
        return "failed"
    if name == "PARTIAL_EXPIRED":
        return "expired"
    return None


def fetch_status(request_id):
    """The order status for session `request_id`, from a query with fresh auth; None when the session is unknown."""
    status, answer = _post(f"/api/session/{urllib.parse.quote(str(request_id), safe='')}", {"auth": auth()})
    if status == 404:
        return None
    if status != 200 or not isinstance(answer, dict):
        raise ProviderError(_error(status, answer), status, answer)
    if str(answer.get("requestId")) != str(request_id):
        raise ProviderError("PlacetoPay answered another session")
    mapped = map_session(answer)
    if mapped is None:
        raise ProviderError(_error(status, answer), status, answer)
    return mapped


def signature_valid(notification):
    """Checks a notification's `signature` (providers.md §1.9): `sha256:` + SHA-256 hex, or bare SHA-1 hex, of
    requestId + status.status + status.date + secretKey over the values exactly as received."""
    signature = notification.get("signature")
    status = notification.get("status")
    request_id = notification.get("requestId")
    if not isinstance(signature, str) or not isinstance(status, dict):
        return False
    if isinstance(request_id, bool) or not isinstance(request_id, (int, str)):
        return False
    state, date = status.get("status"), status.get("date")
    if not isinstance(state, str) or not isinstance(date, str):
        return False
    message = (str(request_id) + state + date + config.CONFIG.placetopay_secret).encode("utf-8")
    if signature.startswith("sha256:"):
        expected = hashlib.sha256(message).hexdigest()
        received = signature[len("sha256:"):]
    else:
        expected = hashlib.sha1(message).hexdigest()
        received = signature
    return hmac.compare_digest(expected.encode("ascii"), received.lower().encode("utf-8", "replace"))
