"""The shop's HTTP server: its routes (README.md describes them) and main()."""

import decimal
import json
import re
import sys
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from . import config
from .amounts import AMOUNT_PATTERN, ZERO_DECIMAL_ISO, ZERO_DECIMAL_MOLLIE, parse_amount
from .config import log
from .http_client import ProviderError
from .orders import STORE, Order
from .providers import khipu, mollie, placetopay, refresh

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
        if provider not in config.CONFIG.providers():
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
        if config.CONFIG.bug == "other-amount":
            # Wrong on purpose: the provider is asked for one major unit more than the order's amount.
            units, _, cents = amount.partition(".")
            charged = Order(order.id, provider, f"{int(units) + 1}" + (f".{cents}" if cents else ""), currency, order.description)
        try:
            if provider == "mollie":
                payment_id, checkout, status = mollie.create(charged)
            elif provider == "khipu":
                payment_id, checkout, status = khipu.create(charged)
            else:
                payment_id, checkout, status = placetopay.create(charged, "127.0.0.1")
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
        if config.CONFIG.design == "read":
            refresh(order, "query")  # on a provider error the stored status is shown
        return self.respond(200, order.json())

    def shopper_return(self, order_id):
        order = STORE.get(order_id)
        if order is None:
            return self.respond(404, {"error": "order not found"})
        if config.CONFIG.bug == "trust-return":
            STORE.apply(order, "paid", "return")
        elif config.CONFIG.design in ("return", "read"):
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
        if config.CONFIG.bug == "no-signature-check":
            STORE.apply(order, "paid", "notification")  # the webhook alone decides (wrong)
            return self.respond(200, {})
        try:
            status = mollie.fetch_status(payment_id)
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
        if config.CONFIG.bug == "no-signature-check":
            # Wrong on purpose: no signature check, and the body's status is taken as the truth.
            order = STORE.find_by_payment("placetopay", str(data.get("requestId")))
            if order is not None:
                status = placetopay.map_session({"status": data.get("status") or {}, "payment": None})
                if status is not None:
                    STORE.apply(order, status, "notification")
            return self.respond(200, {})
        if not placetopay.signature_valid(data):
            log(f"PlacetoPay notification for requestId {data.get('requestId')!r} ignored: invalid signature")
            return self.respond(400, {"error": "invalid signature"})
        request_id = str(data.get("requestId"))
        order = STORE.find_by_payment("placetopay", request_id)
        if order is None or (data.get("reference") is not None and data.get("reference") != order.id):
            return self.respond(200, {})
        try:
            status = placetopay.fetch_status(request_id)  # never the body's status
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
        if config.CONFIG.bug == "no-signature-check":
            # Wrong on purpose: no signature check, and the body's status is taken as the truth.
            status = khipu.map_status(data.get("status"), data.get("status_detail"))
            if order is not None and status is not None:
                STORE.apply(order, status, "notification")
            return self.respond(200, {})
        if not khipu.signature_valid(self.headers.get("x-khipu-signature"), raw):
            log(f"khipu notification for payment {data['payment_id']!r} ignored: invalid signature")
            return self.respond(400, {"error": "invalid signature"})
        if order is None:
            return self.respond(200, {})
        try:
            status = khipu.fetch_status(order.payment_id)  # the fetched payment, not the body, decides
        except ProviderError as error:
            log(f"order {order.id}: notification re-query failed: {error}")
            return self.respond(503, {"error": "try again later"})  # khipu retries
        if status is not None:
            STORE.apply(order, status, "notification")
        return self.respond(200, {})


def main():
    settings = config.load()
    providers = settings.providers()
    if not providers:
        sys.exit("python-shop: configure MOLLIE_API_URL/MOLLIE_API_KEY, "
                 "PLACETOPAY_URL/PLACETOPAY_LOGIN/PLACETOPAY_SECRET_KEY and/or KHIPU_API_URL/KHIPU_API_KEY/KHIPU_SECRET")
    server = ThreadingHTTPServer(("127.0.0.1", settings.port), Handler)
    server.daemon_threads = True
    log(f"listening on http://127.0.0.1:{settings.port} (public {settings.public_url}); "
        f"providers: {', '.join(providers)}; design: {settings.design}; bug: {settings.bug or 'none'}")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
