"""Mollie (providers.md §4): payments are created server side with an Idempotency-Key; the webhook carries only
`id=tr_...`, so the shop always re-fetches the payment and acts on the fetched status."""

import json
import time
import urllib.parse
import uuid

from .. import config
from ..amounts import ZERO_DECIMAL_MOLLIE, provider_amount
from ..config import user_agent
from ..http_client import ProviderError, http_call

STATUS = {
    "open": "open",
    "pending": "pending",
    "authorized": "pending",  # reserved, not captured: not paid yet (providers.md §4.4)
    "paid": "paid",
    "failed": "failed",
    "canceled": "canceled",
    "expired": "expired",
}


def _headers(extra=None):
    headers = {
        "Authorization": f"Bearer {config.CONFIG.mollie_api_key}",
        "Accept": "application/hal+json",
        "User-Agent": user_agent(),
    }
    headers.update(extra or {})
    return headers


def _error(status, body):
    if isinstance(body, dict) and body.get("detail"):
        field = f" (field {body['field']})" if body.get("field") else ""
        return f"Mollie answered {status}: {body['detail']}{field}"
    return f"Mollie answered {status}"


def create(order):
    value = provider_amount(order.amount, order.currency, ZERO_DECIMAL_MOLLIE)
    payload = {
        "amount": {"currency": order.currency, "value": str(value)},
        "description": order.description,
        "redirectUrl": f"{config.CONFIG.public_url}/return/{order.id}",
        "webhookUrl": f"{config.CONFIG.public_url}/webhooks/mollie",
        "metadata": {"order_id": order.id},
    }
    if config.CONFIG.bug == "no-notifications":
        del payload["webhookUrl"]  # wrong on purpose: Mollie is never told where to call
    if config.CONFIG.bug == "no-redirect-url":
        del payload["redirectUrl"]  # wrong on purpose: Mollie refuses it, the shopper has nowhere to come back to
    body = json.dumps(payload).encode("utf-8")
    headers = _headers({"Content-Type": "application/json"})
    if config.CONFIG.bug != "no-idempotency-key":  # wrong on purpose with the bug: the retry below then makes a second payment
        headers["Idempotency-Key"] = str(uuid.uuid4())
    url = f"{config.CONFIG.mollie_api_url}/payments"
    # One retry with the same Idempotency-Key when Mollie did not answer or answered 5xx: the key makes it safe.
    for attempt in (1, 2):
        try:
            status, answer = http_call("POST", url, headers, body)
        except ProviderError:
            if attempt == 2:
                raise
            time.sleep(0.5)
            if config.CONFIG.bug == "new-idempotency-key" and "Idempotency-Key" in headers:
                headers["Idempotency-Key"] = str(uuid.uuid4())  # wrong on purpose: the retry must keep its key
            continue
        if status >= 500 and attempt == 1:
            time.sleep(0.5)
            if config.CONFIG.bug == "new-idempotency-key" and "Idempotency-Key" in headers:
                headers["Idempotency-Key"] = str(uuid.uuid4())  # wrong on purpose: the retry must keep its key
            continue
        break
    if status != 201 or not isinstance(answer, dict):
        raise ProviderError(_error(status, answer), status, answer)
    payment_id = answer.get("id")
    checkout = ((answer.get("_links") or {}).get("checkout") or {}).get("href")
    if not isinstance(payment_id, str) or not payment_id.startswith("tr_"):
        raise ProviderError("Mollie answered a payment without an id")
    return payment_id, checkout, STATUS.get(answer.get("status"), "open")


def fetch_status(payment_id):
    """The order status for Mollie payment `payment_id`; None when Mollie does not know it (404)."""
    url = f"{config.CONFIG.mollie_api_url}/payments/{urllib.parse.quote(payment_id, safe='')}"
    status, answer = http_call("GET", url, _headers())
    if status == 404:
        return None
    if status != 200 or not isinstance(answer, dict):
        raise ProviderError(_error(status, answer), status, answer)
    if answer.get("id") != payment_id:
        raise ProviderError("Mollie answered another payment")
    mapped = STATUS.get(answer.get("status"))
    if config.CONFIG.bug == "authorized-paid" and answer.get("status") == "authorized":
        mapped = "paid"  # wrong on purpose: an authorization is taken as the payment
    if mapped is None:
        raise ProviderError(f"Mollie answered an unknown status {answer.get('status')!r}")
    return mapped
