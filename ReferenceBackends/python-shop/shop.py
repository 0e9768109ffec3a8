#!/usr/bin/env python3
"""python-shop: a small merchant backend integrating Mollie and PlacetoPay, for PayCheck to test as a black box.

Standard library only. Configuration comes from environment variables (see README.md next to this file).
A deliberately wrong variant can be selected with SHOP_BUG (mutation tests); without it the shop is meant to
be a correct integration. SHOP_DESIGN picks one of three correct designs, which differ only in when the shop asks
the provider about a payment:

- `notify`: only when the provider notifies it (webhook or notification);
- `return`: also when the payer comes back to the return URL;
- `read` (the default): also on every read of an order that is not final.

- Mollie (providers.md §4): payments are created server side with an Idempotency-Key; the webhook carries only
  `id=tr_...`, so the shop always re-fetches the payment and acts on the fetched status.
- PlacetoPay (providers.md §1): every request carries a fresh `auth` (new nonce, current seed,
  tranKey = Base64(SHA-256(rawNonce + seed + secretKey))); notifications are checked against their signature
  (SHA-1 hex, or `sha256:` + SHA-256 hex, of requestId + status + date + secretKey) and then the session is
  re-queried; the body's status is never trusted.
- The shopper's return never decides anything: the provider is asked.
- Fulfilment happens once, on the first transition to `paid`, under a lock.
"""

import base64
import datetime
import decimal
import hashlib
import hmac
import json
import os
import re
import secrets
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# ---------------------------------------------------------------------------------------------------------------
# Configuration
# ---------------------------------------------------------------------------------------------------------------

KNOWN_BUGS = ("reuse-nonce", "trust-return", "no-signature-check", "double-fulfil", "decline-paid", "pending-paid",
              "ignore-expiry", "other-amount", "no-idempotency-key", "drop-cents", "authorized-paid",
              "ignore-status-detail", "no-notifications", "app-calls-provider", "new-idempotency-key", "no-redirect-url",
              "no-client-info", "short-expiration")
# SHOP_BUG=app-calls-provider: every provider call carries a mobile app's User-Agent, as when the app calls the
# provider itself with keys it should not hold.
MOBILE_USER_AGENT = "PayCheckShop/1.0 CFNetwork/1490.0.4 Darwin/23.2.0"


def user_agent():
    return MOBILE_USER_AGENT if CONFIG.bug == "app-calls-provider" else "python-shop/1.0"
DESIGNS = ("notify", "return", "read")


def _env(name, default=None, required=False):
    value = os.environ.get(name, default)
    if required and not value:
        sys.exit(f"python-shop: environment variable {name} is required")
    return value


class Config:
    def __init__(self):
        self.port = int(_env("SHOP_PORT", "8099"))
        self.public_url = _env("SHOP_PUBLIC_URL", f"http://127.0.0.1:{self.port}").rstrip("/")
        self.mollie_api_url = (_env("MOLLIE_API_URL", "") or "").rstrip("/")
        self.mollie_api_key = _env("MOLLIE_API_KEY", "") or ""
        self.placetopay_url = (_env("PLACETOPAY_URL", "") or "").rstrip("/")
        self.placetopay_login = _env("PLACETOPAY_LOGIN", "") or ""
        self.placetopay_secret = _env("PLACETOPAY_SECRET_KEY", "") or ""
        minutes = _env("PLACETOPAY_EXPIRATION_MINUTES", "") or ""
        self.placetopay_expiration_minutes = None
        if minutes:
            try:
                self.placetopay_expiration_minutes = int(minutes)
            except ValueError:
                sys.exit("python-shop: PLACETOPAY_EXPIRATION_MINUTES must be an integer")
            if self.placetopay_expiration_minutes < 5:
                sys.exit("python-shop: PLACETOPAY_EXPIRATION_MINUTES must be at least 5 (providers.md §1.4)")
        self.khipu_url = (_env("KHIPU_API_URL", "") or "").rstrip("/")
        self.khipu_api_key = _env("KHIPU_API_KEY", "") or ""
        self.khipu_secret = _env("KHIPU_SECRET", "") or ""
        self.timeout = float(_env("SHOP_PROVIDER_TIMEOUT", "10"))
        bug = (_env("SHOP_BUG", "") or "").strip()
        if bug in ("", "none"):
            bug = None
        elif bug not in KNOWN_BUGS:
            sys.exit(f"python-shop: unknown SHOP_BUG {bug!r}; expected one of: none, {', '.join(KNOWN_BUGS)}")
        self.bug = bug
        design = (_env("SHOP_DESIGN", "") or "read").strip()
        if design not in DESIGNS:
            sys.exit(f"python-shop: unknown SHOP_DESIGN {design!r}; expected one of: {', '.join(DESIGNS)}")
        self.design = design

    def providers(self):
        enabled = []
        if self.mollie_api_url and self.mollie_api_key:
            enabled.append("mollie")
        if self.placetopay_url and self.placetopay_login and self.placetopay_secret:
            enabled.append("placetopay")
        if self.khipu_url and self.khipu_api_key and self.khipu_secret:
            enabled.append("khipu")
        return enabled


CONFIG = None  # set in main()


def log(message):
    sys.stderr.write(f"{datetime.datetime.now().isoformat(timespec='seconds')} python-shop {message}\n")
    sys.stderr.flush()


# ---------------------------------------------------------------------------------------------------------------
# Orders (in memory)
# ---------------------------------------------------------------------------------------------------------------

FINAL_STATUSES = {"paid", "failed", "canceled", "expired"}
STATUSES = {"open", "pending"} | FINAL_STATUSES


class Order:
    def __init__(self, order_id, provider, amount, currency, description):
        self.id = order_id
        self.provider = provider
        self.amount = amount
        self.currency = currency
        self.description = description
        self.payment_id = None  # Mollie tr_..., or the PlacetoPay requestId as a string
        self.checkout_url = None
        self.status = "open"
        self.fulfilments = 0

    @property
    def is_final(self):
        return self.status in FINAL_STATUSES

    def json(self):
        return {
            "id": self.id,
            "provider": self.provider,
            "paymentId": self.payment_id,
            "status": self.status,
            "fulfilments": self.fulfilments,
        }


class OrderStore:
    def __init__(self):
        self.lock = threading.Lock()
        self.orders = {}
        self.by_payment = {}  # (provider, payment id) -> order id
        self.counter = 0

    def new_id(self):
        with self.lock:
            self.counter += 1
            return f"ord_{self.counter}"

    def add(self, order):
        with self.lock:
            self.orders[order.id] = order
            self.by_payment[(order.provider, order.payment_id)] = order.id

    def get(self, order_id):
        with self.lock:
            return self.orders.get(order_id)

    def find_by_payment(self, provider, payment_id):
        with self.lock:
            order_id = self.by_payment.get((provider, payment_id))
            return self.orders.get(order_id) if order_id else None

    def apply(self, order, status, source):
        """Moves `order` to `status` (under the lock) and fulfils it on its first transition to `paid`.

        A final order never changes again. `source` is "query", "return" or "notification".
        """
        if status not in STATUSES:
            return
        if CONFIG.bug == "decline-paid" and status == "failed":
            status = "paid"  # wrong on purpose: a failed payment is mapped to paid
        if CONFIG.bug == "pending-paid" and status == "pending":
            status = "paid"  # wrong on purpose: a pending payment is mapped to paid
        if CONFIG.bug == "ignore-expiry" and status == "expired":
            return  # wrong on purpose: an expired payment is never noticed
        with self.lock:
            previous = order.status
            if status == "paid" and previous == "paid":
                # SHOP_BUG=double-fulfil: every paid notification fulfils again.
                if CONFIG.bug == "double-fulfil" and source == "notification":
                    order.fulfilments += 1
                    log(f"order {order.id} fulfilled again (fulfilments={order.fulfilments}) [bug]")
                return
            if previous in FINAL_STATUSES or previous == status:
                return
            order.status = status
            if status == "paid":
                order.fulfilments += 1
                log(f"order {order.id} paid; fulfilled (fulfilments={order.fulfilments})")
            else:
                log(f"order {order.id}: {previous} -> {status} ({source})")


STORE = OrderStore()

# ---------------------------------------------------------------------------------------------------------------
# HTTP client
# ---------------------------------------------------------------------------------------------------------------


class ProviderError(Exception):
    """A provider call that failed: no answer, an unreadable answer, or an error status."""

    def __init__(self, message, http_status=None, body=None):
        super().__init__(message)
        self.http_status = http_status
        self.body = body


def http_call(method, url, headers=None, body=None):
    """Returns (status, parsed JSON or None). Raises ProviderError when the provider cannot be reached."""
    request = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=CONFIG.timeout) as response:
            status, raw = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, raw = error.code, error.read()
    except (urllib.error.URLError, OSError, ValueError) as error:
        reason = getattr(error, "reason", error)
        raise ProviderError(f"cannot reach the provider: {reason}") from None
    try:
        parsed = json.loads(raw.decode("utf-8")) if raw else None
    except (UnicodeDecodeError, json.JSONDecodeError):
        parsed = None
    return status, parsed


# ---------------------------------------------------------------------------------------------------------------
# Amounts
# ---------------------------------------------------------------------------------------------------------------

AMOUNT_PATTERN = re.compile(r"^\d{1,12}(\.\d{1,4})?$")
# ISO 4217 currencies without minor units (the ones a shop is likely to see).
ZERO_DECIMAL_ISO = {"BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND",
                    "VUV", "XAF", "XOF", "XPF"}
# Mollie writes these without decimals (the mock's MollieFormat.decimals).
ZERO_DECIMAL_MOLLIE = {"JPY", "ISK", "HUF"}


def provider_amount(text, currency, zero_decimal):
    """The amount the provider is asked for: the order's, or (SHOP_BUG=drop-cents, wrong on purpose) its major
    units only, as a backend that stores amounts as integers of major units would."""
    value = parse_amount(text, currency, zero_decimal)
    if CONFIG.bug == "drop-cents":
        value = value.to_integral_value(rounding=decimal.ROUND_DOWN).quantize(value)
    return value


def parse_amount(text, currency, zero_decimal):
    """The amount as a Decimal with the currency's decimals; ValueError when it does not fit."""
    value = decimal.Decimal(text)
    if value <= 0:
        raise ValueError("amount must be greater than 0")
    decimals = 0 if currency in zero_decimal else 2
    quantum = decimal.Decimal(1).scaleb(-decimals)
    rounded = value.quantize(quantum)
    if rounded != value:
        raise ValueError(f"amount has more than {decimals} decimals for {currency}")
    return rounded


# ---------------------------------------------------------------------------------------------------------------
# Mollie (providers.md §4)
# ---------------------------------------------------------------------------------------------------------------

MOLLIE_STATUS = {
    "open": "open",
    "pending": "pending",
    "authorized": "pending",  # reserved, not captured: not paid yet (providers.md §4.4)
    "paid": "paid",
    "failed": "failed",
    "canceled": "canceled",
    "expired": "expired",
}


def mollie_headers(extra=None):
    headers = {
        "Authorization": f"Bearer {CONFIG.mollie_api_key}",
        "Accept": "application/hal+json",
        "User-Agent": user_agent(),
    }
    headers.update(extra or {})
    return headers


def mollie_error(status, body):
    if isinstance(body, dict) and body.get("detail"):
        field = f" (field {body['field']})" if body.get("field") else ""
        return f"Mollie answered {status}: {body['detail']}{field}"
    return f"Mollie answered {status}"


def mollie_create(order):
    value = provider_amount(order.amount, order.currency, ZERO_DECIMAL_MOLLIE)
    payload = {
        "amount": {"currency": order.currency, "value": str(value)},
        "description": order.description,
        "redirectUrl": f"{CONFIG.public_url}/return/{order.id}",
        "webhookUrl": f"{CONFIG.public_url}/webhooks/mollie",
        "metadata": {"order_id": order.id},
    }
    if CONFIG.bug == "no-notifications":
        del payload["webhookUrl"]  # wrong on purpose: Mollie is never told where to call
    if CONFIG.bug == "no-redirect-url":
        del payload["redirectUrl"]  # wrong on purpose: Mollie refuses it, the shopper has nowhere to come back to
    body = json.dumps(payload).encode("utf-8")
    headers = mollie_headers({"Content-Type": "application/json"})
    if CONFIG.bug != "no-idempotency-key":  # wrong on purpose with the bug: the retry below then makes a second payment
        headers["Idempotency-Key"] = str(uuid.uuid4())
    url = f"{CONFIG.mollie_api_url}/payments"
    # One retry with the same Idempotency-Key when Mollie did not answer or answered 5xx: the key makes it safe.
    for attempt in (1, 2):
        try:
            status, answer = http_call("POST", url, headers, body)
        except ProviderError:
            if attempt == 2:
                raise
            time.sleep(0.5)
            if CONFIG.bug == "new-idempotency-key" and "Idempotency-Key" in headers:
                headers["Idempotency-Key"] = str(uuid.uuid4())  # wrong on purpose: the retry must keep its key
            continue
        if status >= 500 and attempt == 1:
            time.sleep(0.5)
            if CONFIG.bug == "new-idempotency-key" and "Idempotency-Key" in headers:
                headers["Idempotency-Key"] = str(uuid.uuid4())  # wrong on purpose: the retry must keep its key
            continue
        break
    if status != 201 or not isinstance(answer, dict):
        raise ProviderError(mollie_error(status, answer), status, answer)
    payment_id = answer.get("id")
    checkout = ((answer.get("_links") or {}).get("checkout") or {}).get("href")
    if not isinstance(payment_id, str) or not payment_id.startswith("tr_"):
        raise ProviderError("Mollie answered a payment without an id")
    return payment_id, checkout, MOLLIE_STATUS.get(answer.get("status"), "open")


def mollie_fetch_status(payment_id):
    """The order status for Mollie payment `payment_id`; None when Mollie does not know it (404)."""
    url = f"{CONFIG.mollie_api_url}/payments/{urllib.parse.quote(payment_id, safe='')}"
    status, answer = http_call("GET", url, mollie_headers())
    if status == 404:
        return None
    if status != 200 or not isinstance(answer, dict):
        raise ProviderError(mollie_error(status, answer), status, answer)
    if answer.get("id") != payment_id:
        raise ProviderError("Mollie answered another payment")
    mapped = MOLLIE_STATUS.get(answer.get("status"))
    if CONFIG.bug == "authorized-paid" and answer.get("status") == "authorized":
        mapped = "paid"  # wrong on purpose: an authorization is taken as the payment
    if mapped is None:
        raise ProviderError(f"Mollie answered an unknown status {answer.get('status')!r}")
    return mapped


# ---------------------------------------------------------------------------------------------------------------
# PlacetoPay (providers.md §1)
# ---------------------------------------------------------------------------------------------------------------

_REUSED_RAW_NONCE = secrets.token_hex(16).encode("ascii")  # only used with SHOP_BUG=reuse-nonce


def placetopay_auth():
    """A fresh `auth` object (providers.md §1.2): new raw nonce, current seed, SHA-256 tranKey."""
    if CONFIG.bug == "reuse-nonce":
        raw_nonce = _REUSED_RAW_NONCE
    else:
        raw_nonce = secrets.token_hex(16).encode("ascii")  # like the PHP SDK: 32 hex characters
    seed = datetime.datetime.now(datetime.timezone.utc).astimezone().isoformat(timespec="seconds")
    digest = hashlib.sha256(raw_nonce + seed.encode("utf-8") + CONFIG.placetopay_secret.encode("utf-8")).digest()
    return {
        "login": CONFIG.placetopay_login,
        "tranKey": base64.b64encode(digest).decode("ascii"),
        "nonce": base64.b64encode(raw_nonce).decode("ascii"),
        "seed": seed,
    }


def placetopay_post(path, payload):
    body = json.dumps(payload).encode("utf-8")
    headers = {"Content-Type": "application/json", "Accept": "application/json", "User-Agent": user_agent()}
    return http_call("POST", f"{CONFIG.placetopay_url}{path}", headers, body)


def placetopay_error(status, body):
    if isinstance(body, dict) and isinstance(body.get("status"), dict):
        s = body["status"]
        return f"PlacetoPay answered {status}: {s.get('status')}/{s.get('reason')} {s.get('message')}"
    return f"PlacetoPay answered {status}"


def placetopay_create(order, client_ip):
    value = provider_amount(order.amount, order.currency, ZERO_DECIMAL_ISO)
    total = int(value) if value == value.to_integral_value() else float(value)
    payload = {
        "auth": placetopay_auth(),
        "locale": "en_US",
        "payment": {
            "reference": order.id,
            "description": order.description,
            "amount": {"currency": order.currency, "total": total},
        },
        "returnUrl": f"{CONFIG.public_url}/return/{order.id}",
        "ipAddress": client_ip or "127.0.0.1",
        "userAgent": "python-shop/1.0",
    }
    minutes = 2 if CONFIG.bug == "short-expiration" else CONFIG.placetopay_expiration_minutes  # 2: wrong on purpose
    if minutes:
        expires = datetime.datetime.now(datetime.timezone.utc).astimezone() + datetime.timedelta(minutes=minutes)
        payload["expiration"] = expires.isoformat(timespec="seconds")
    if CONFIG.bug == "no-client-info":
        del payload["ipAddress"], payload["userAgent"]  # wrong on purpose: both are required
    status, answer = placetopay_post("/api/session", payload)
    ok = (status == 200 and isinstance(answer, dict) and isinstance(answer.get("status"), dict)
          and answer["status"].get("status") == "OK")
    if not ok:
        raise ProviderError(placetopay_error(status, answer), status, answer)
    request_id = answer.get("requestId")
    if isinstance(request_id, bool) or not isinstance(request_id, (int, str)) or str(request_id) == "":
        raise ProviderError("PlacetoPay answered a session without a requestId")
    return str(request_id), answer.get("processUrl"), "open"


def placetopay_map(session):
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


def placetopay_fetch_status(request_id):
    """The order status for session `request_id`, from a query with fresh auth; None when the session is unknown."""
    status, answer = placetopay_post(f"/api/session/{urllib.parse.quote(str(request_id), safe='')}",
                                     {"auth": placetopay_auth()})
    if status == 404:
        return None
    if status != 200 or not isinstance(answer, dict):
        raise ProviderError(placetopay_error(status, answer), status, answer)
    if str(answer.get("requestId")) != str(request_id):
        raise ProviderError("PlacetoPay answered another session")
    mapped = placetopay_map(answer)
    if mapped is None:
        raise ProviderError(placetopay_error(status, answer), status, answer)
    return mapped


def placetopay_signature_valid(notification):
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
    message = (str(request_id) + state + date + CONFIG.placetopay_secret).encode("utf-8")
    if signature.startswith("sha256:"):
        expected = hashlib.sha256(message).hexdigest()
        received = signature[len("sha256:"):]
    else:
        expected = hashlib.sha1(message).hexdigest()
        received = signature
    return hmac.compare_digest(expected.encode("ascii"), received.lower().encode("utf-8", "replace"))


# ---------------------------------------------------------------------------------------------------------------
# Provider-independent operations
# ---------------------------------------------------------------------------------------------------------------


# ---------------------------------------------------------------------------------------------------------------
# khipu, Instant Payments API 3.0 (providers.md §2)
# ---------------------------------------------------------------------------------------------------------------


def khipu_headers(extra=None):
    headers = {"x-api-key": CONFIG.khipu_api_key, "Accept": "application/json", "User-Agent": user_agent()}
    headers.update(extra or {})
    return headers


def khipu_error(status, body):
    if isinstance(body, dict) and body.get("message"):
        fields = [e.get("field") for e in body.get("errors") or [] if isinstance(e, dict) and e.get("field")]
        return f"khipu answered {status}: {body['message']}" + (f" ({', '.join(fields)})" if fields else "")
    return f"khipu answered {status}"


def khipu_map(status, detail):
    """done → paid, except a payer's rejection or abuse (failed) and a full refund or reversal (canceled);
    verifying → pending (transferred, not reconciled); pending → open (providers.md §2.9, §2.12 B3)."""
    if status == "done" and CONFIG.bug == "ignore-status-detail":
        return "paid"  # wrong on purpose: `done` taken as paid whatever its status_detail says
    if status == "done":
        if detail in ("rejected-by-payer", "marked-as-abuse"):
            return "failed"
        if detail in ("fully-refunded", "reversed"):
            return "canceled"
        return "paid"
    return {"verifying": "pending", "pending": "open"}.get(status)


def khipu_create(order):
    amount = provider_amount(order.amount, order.currency, ZERO_DECIMAL_ISO)
    payload = {
        "subject": order.description, "currency": order.currency,
        "amount": int(amount) if amount == amount.to_integral_value() else float(amount),
        "transaction_id": order.id,
        "return_url": f"{CONFIG.public_url}/return/{order.id}",
        "cancel_url": f"{CONFIG.public_url}/return/{order.id}",
        "notify_url": f"{CONFIG.public_url}/webhooks/khipu", "notify_api_version": "3.0",
    }
    if CONFIG.bug == "no-notifications":
        del payload["notify_url"], payload["notify_api_version"]  # wrong on purpose: khipu is never told where to notify
    status, answer = http_call("POST", f"{CONFIG.khipu_url}/v3/payments",
                               khipu_headers({"Content-Type": "application/json"}), json.dumps(payload).encode("utf-8"))
    if status not in (200, 201) or not isinstance(answer, dict) or not answer.get("payment_id"):
        raise ProviderError(khipu_error(status, answer), status, answer)
    return answer["payment_id"], answer.get("payment_url"), "open"


def khipu_fetch_status(payment_id):
    status, answer = http_call("GET", f"{CONFIG.khipu_url}/v3/payments/{urllib.parse.quote(payment_id, safe='')}",
                               khipu_headers())
    if status == 404:
        return None
    if status != 200 or not isinstance(answer, dict) or answer.get("payment_id") != payment_id:
        raise ProviderError(khipu_error(status, answer), status, answer)
    mapped = khipu_map(answer.get("status"), answer.get("status_detail"))
    if mapped is None:
        raise ProviderError(f"khipu answered an unknown status {answer.get('status')!r}", status, answer)
    return mapped


def khipu_signature_valid(header, raw):
    """x-khipu-signature: t=<ms>,s=<base64 HMAC-SHA256(secret, t + "." + raw body)> (providers.md §2.7)."""
    parts = dict(part.strip().split("=", 1) for part in (header or "").split(",") if "=" in part)
    if "t" not in parts or "s" not in parts:
        return False
    digest = hmac.new(CONFIG.khipu_secret.encode("utf-8"), parts["t"].encode("utf-8") + b"." + raw, hashlib.sha256).digest()
    return hmac.compare_digest(base64.b64encode(digest).decode("ascii"), parts["s"])


def fetch_status(order):
    if order.provider == "mollie":
        return mollie_fetch_status(order.payment_id)
    if order.provider == "khipu":
        return khipu_fetch_status(order.payment_id)
    return placetopay_fetch_status(order.payment_id)


def refresh(order, source):
    """Re-queries the provider for a non-final order and applies the answer. Returns an error text or None."""
    if order.is_final:
        return None
    try:
        status = fetch_status(order)
    except ProviderError as error:
        log(f"order {order.id}: re-query failed: {error}")
        return str(error)
    if status is not None:
        STORE.apply(order, status, source)
    return None


# ---------------------------------------------------------------------------------------------------------------
# HTTP server
# ---------------------------------------------------------------------------------------------------------------

MAX_BODY = 1 << 20
ORDER_PATH = re.compile(r"^/orders/([A-Za-z0-9_\-]{1,64})$")
RETURN_PATH = re.compile(r"^/return/([A-Za-z0-9_\-]{1,64})$")
CURRENCY = re.compile(r"^[A-Z]{3}$")


class Handler(BaseHTTPRequestHandler):
    server_version = "python-shop/1.0"
    sys_version = ""
    # HTTP/1.0: one request per connection, so an unread request body can never leak into the next request.

    # -- plumbing ---------------------------------------------------------------------------------------------

    def log_message(self, format, *args):  # noqa: A002 - signature of the base class
        pass  # one line per request is written by respond()

    def respond(self, status, payload):
        body = json.dumps(payload).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        path = urllib.parse.urlsplit(self.path).path
        log(f"{self.command} {path} {status}")

    def read_body(self):
        length = self.headers.get("Content-Length")
        if length is None:
            return b""
        try:
            length = int(length)
        except ValueError:
            raise ValueError("bad Content-Length") from None
        if length < 0 or length > MAX_BODY:
            raise ValueError("body too large")
        return self.rfile.read(length)

    def read_json(self):
        raw = self.read_body()
        try:
            value = json.loads(raw.decode("utf-8")) if raw else None
        except (UnicodeDecodeError, json.JSONDecodeError):
            return None
        return value

    def route(self):
        path = urllib.parse.urlsplit(self.path).path
        if len(path) > 1 and path.endswith("/"):
            path = path[:-1]
        return path

    # -- dispatch ---------------------------------------------------------------------------------------------

    def do_GET(self):
        try:
            path = self.route()
            if path == "/health":
                return self.respond(200, {"ok": True})
            match = ORDER_PATH.match(path)
            if match:
                return self.get_order(match.group(1))
            match = RETURN_PATH.match(path)
            if match:
                return self.shopper_return(match.group(1))
            if path in ("/orders", "/webhooks/mollie", "/webhooks/placetopay", "/webhooks/khipu"):
                return self.respond(405, {"error": "method not allowed"})
            return self.respond(404, {"error": "not found"})
        except Exception as error:  # never leak a traceback to the client
            log(f"internal error: {type(error).__name__}: {error}")
            return self.respond(500, {"error": "internal error"})

    def do_POST(self):
        try:
            path = self.route()
            if path == "/orders":
                return self.create_order()
            if path == "/webhooks/mollie":
                return self.mollie_webhook()
            if path == "/webhooks/placetopay":
                return self.placetopay_notification()
            if path == "/webhooks/khipu":
                return self.khipu_notification()
            if path == "/health" or ORDER_PATH.match(path) or RETURN_PATH.match(path):
                return self.respond(405, {"error": "method not allowed"})
            return self.respond(404, {"error": "not found"})
        except ValueError as error:
            return self.respond(400, {"error": str(error)})
        except Exception as error:
            log(f"internal error: {type(error).__name__}: {error}")
            return self.respond(500, {"error": "internal error"})

    def do_PUT(self):
        self.respond(405, {"error": "method not allowed"})

    do_DELETE = do_PATCH = do_PUT

    # -- routes -----------------------------------------------------------------------------------------------

    def create_order(self):
        data = self.read_json()
        if not isinstance(data, dict):
            return self.respond(400, {"error": "the body must be a JSON object"})
        provider = data.get("provider")
        amount = data.get("amount")
        currency = data.get("currency")
        description = data.get("description")
        if provider not in ("mollie", "placetopay", "khipu"):
            return self.respond(400, {"error": "provider must be 'mollie', 'placetopay' or 'khipu'"})
        if provider not in CONFIG.providers():
            return self.respond(400, {"error": f"provider {provider} is not configured"})
        if not isinstance(amount, str) or not AMOUNT_PATTERN.match(amount):
            return self.respond(400, {"error": "amount must be a string of major units, e.g. \"10.00\""})
        if not isinstance(currency, str) or not CURRENCY.match(currency):
            return self.respond(400, {"error": "currency must be an ISO 4217 code, e.g. \"EUR\""})
        if not isinstance(description, str) or not description.strip() or len(description) > 255:
            return self.respond(400, {"error": "description must be a non-empty string of at most 255 characters"})
        zero_decimal = ZERO_DECIMAL_MOLLIE if provider == "mollie" else ZERO_DECIMAL_ISO
        try:
            parse_amount(amount, currency, zero_decimal)
        except (ValueError, decimal.InvalidOperation) as error:
            return self.respond(400, {"error": str(error)})

        order = Order(STORE.new_id(), provider, amount, currency, description.strip())
        charged = order
        if CONFIG.bug == "other-amount":
            # Wrong on purpose: the provider is asked for one major unit more than the order's amount.
            units, _, cents = amount.partition(".")
            charged = Order(order.id, provider, f"{int(units) + 1}" + (f".{cents}" if cents else ""), currency, order.description)
        try:
            if provider == "mollie":
                payment_id, checkout, status = mollie_create(charged)
            elif provider == "khipu":
                payment_id, checkout, status = khipu_create(charged)
            else:
                payment_id, checkout, status = placetopay_create(charged, "127.0.0.1")
        except ProviderError as error:
            log(f"order {order.id}: creating the payment failed: {error}")
            return self.respond(502, {"error": str(error)})
        order.payment_id = payment_id
        order.checkout_url = checkout
        order.status = status if status in ("open", "pending") else "open"
        STORE.add(order)
        log(f"order {order.id} created at {provider} as {payment_id}")
        return self.respond(201, {
            "id": order.id,
            "provider": provider,
            "paymentId": payment_id,
            "checkoutUrl": checkout,
            "status": order.status,
        })

    def get_order(self, order_id):
        order = STORE.get(order_id)
        if order is None:
            return self.respond(404, {"error": "order not found"})
        if CONFIG.design == "read":
            refresh(order, "query")  # on a provider error the stored status is shown
        return self.respond(200, order.json())

    def shopper_return(self, order_id):
        order = STORE.get(order_id)
        if order is None:
            return self.respond(404, {"error": "order not found"})
        if CONFIG.bug == "trust-return":
            STORE.apply(order, "paid", "return")
        elif CONFIG.design in ("return", "read"):
            refresh(order, "return")
        return self.respond(200, {"id": order.id, "status": order.status})

    def mollie_webhook(self):
        raw = self.read_body()
        try:
            fields = urllib.parse.parse_qs(raw.decode("utf-8"), keep_blank_values=True)
        except UnicodeDecodeError:
            fields = {}
        payment_id = (fields.get("id") or [""])[0]
        if not payment_id:
            return self.respond(400, {"error": "missing id"})
        order = STORE.find_by_payment("mollie", payment_id)
        if order is None:
            # Mollie's advice: answer 200 for unknown ids, so the endpoint tells nothing about which ids exist.
            return self.respond(200, {})
        if CONFIG.bug == "no-signature-check":
            STORE.apply(order, "paid", "notification")  # the webhook alone decides (wrong)
            return self.respond(200, {})
        try:
            status = mollie_fetch_status(payment_id)
        except ProviderError as error:
            log(f"order {order.id}: webhook re-query failed: {error}")
            return self.respond(503, {"error": "try again later"})  # Mollie retries on its schedule
        if status is not None:
            STORE.apply(order, status, "notification")
        return self.respond(200, {})

    def placetopay_notification(self):
        data = self.read_json()
        if not isinstance(data, dict):
            return self.respond(400, {"error": "the body must be a JSON object"})
        if CONFIG.bug == "no-signature-check":
            # Wrong on purpose: no signature check, and the body's status is taken as the truth.
            order = STORE.find_by_payment("placetopay", str(data.get("requestId")))
            if order is not None:
                status = placetopay_map({"status": data.get("status") or {}, "payment": None})
                if status is not None:
                    STORE.apply(order, status, "notification")
            return self.respond(200, {})
        if not placetopay_signature_valid(data):
            log(f"PlacetoPay notification for requestId {data.get('requestId')!r} ignored: invalid signature")
            return self.respond(400, {"error": "invalid signature"})
        request_id = str(data.get("requestId"))
        order = STORE.find_by_payment("placetopay", request_id)
        if order is None or (data.get("reference") is not None and data.get("reference") != order.id):
            return self.respond(200, {})
        try:
            status = placetopay_fetch_status(request_id)  # never the body's status
        except ProviderError as error:
            log(f"order {order.id}: notification re-query failed: {error}")
            return self.respond(503, {"error": "try again later"})
        if status is not None:
            STORE.apply(order, status, "notification")
        return self.respond(200, {})


    def khipu_notification(self):
        raw = self.read_body()
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            data = None
        if not isinstance(data, dict) or not isinstance(data.get("payment_id"), str):
            return self.respond(400, {"error": "the body must be a khipu payment"})
        order = STORE.find_by_payment("khipu", data["payment_id"])
        if CONFIG.bug == "no-signature-check":
            # Wrong on purpose: no signature check, and the body's status is taken as the truth.
            status = khipu_map(data.get("status"), data.get("status_detail"))
            if order is not None and status is not None:
                STORE.apply(order, status, "notification")
            return self.respond(200, {})
        if not khipu_signature_valid(self.headers.get("x-khipu-signature"), raw):
            log(f"khipu notification for payment {data['payment_id']!r} ignored: invalid signature")
            return self.respond(400, {"error": "invalid signature"})
        if order is None:
            return self.respond(200, {})
        try:
            status = khipu_fetch_status(order.payment_id)  # the fetched payment, not the body, decides
        except ProviderError as error:
            log(f"order {order.id}: notification re-query failed: {error}")
            return self.respond(503, {"error": "try again later"})  # khipu retries
        if status is not None:
            STORE.apply(order, status, "notification")
        return self.respond(200, {})


def main():
    global CONFIG
    CONFIG = Config()
    providers = CONFIG.providers()
    if not providers:
        sys.exit("python-shop: configure MOLLIE_API_URL/MOLLIE_API_KEY, "
                 "PLACETOPAY_URL/PLACETOPAY_LOGIN/PLACETOPAY_SECRET_KEY and/or KHIPU_API_URL/KHIPU_API_KEY/KHIPU_SECRET")
    server = ThreadingHTTPServer(("127.0.0.1", CONFIG.port), Handler)
    server.daemon_threads = True
    log(f"listening on http://127.0.0.1:{CONFIG.port} (public {CONFIG.public_url}); "
        f"providers: {', '.join(providers)}; design: {CONFIG.design}; bug: {CONFIG.bug or 'none'}")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
