"""khipu's independent clients from PyPI, unchanged, against a standalone `paycheck mock` (providers.md §2.12):
pykhipu (API 2.0, signed form requests), khipu-python-sdk and khipu-tools (API 3.0, x-api-key). Only the base URL
is pointed at the mock: pykhipu's module attribute API_BASE, khipu-python-sdk's KhipuConfig(base_url=…), and
khipu-tools' module attribute api_base.

Usage: python khipu_clients.py http://127.0.0.1:PORT
"""
import sys
from decimal import Decimal

import requests

base = sys.argv[1].rstrip("/")
RECEIVER, SECRET, API_KEY = "985101", "paycheck-khipu-secret", "paycheck-khipu-api-key"
failures = 0


def check(name, ok, detail=""):
    global failures
    print(("ok   " if ok else "FAIL ") + name + (f" ({detail})" if detail else ""))
    if not ok:
        failures += 1


def pay(payment_id):
    """The payer pays through DemoBank and khipu reconciles it: the mock's control API, as a browser would."""
    requests.post(f"{base}/__paycheck/khipu/payer/pay", json={"payment_id": payment_id}, timeout=10).raise_for_status()
    requests.post(f"{base}/__paycheck/khipu/mock/conciliate", json={"payment_id": payment_id}, timeout=10).raise_for_status()


# pykhipu 0.1.9 — API 2.0
import pykhipu.client
from pykhipu.client import Client

pykhipu.client.API_BASE = f"{base}/khipu/api/2.0"
client = Client(receiver_id=RECEIVER, secret=SECRET)
banks = client.banks.get()
check("pykhipu: banks (signed GET)", bool(banks.banks) and banks.banks[0].name == "DemoBank")
created = client.payments.post("Café con leche ñandú", "CLP", 1000, transaction_id="orden 42/á", payer_email="a+b@ejemplo.cl")
check("pykhipu: create payment (signed form POST, non-ASCII values)", len(created.payment_id) == 12, created.payment_id)
got = client.payments.get_id(created.payment_id)
check("pykhipu: get payment (trailing slash, expires_date parsed)", got.status == "pending" and got.expires_date is not None)
deleted = client.payments.delete(created.payment_id)
check("pykhipu: delete a pending payment", deleted is not None)
paid = client.payments.post("Paid order", "CLP", 2500)
pay(paid.payment_id)
token = client.payments.get_id(paid.payment_id).notification_token
by_token = client.payments.get(token)
check("pykhipu: payment by notification token (API 1.3)", by_token.status == "done" and by_token.payment_id == paid.payment_id)
from pykhipu.errors import AuthorizationError

try:
    Client(receiver_id=RECEIVER, secret="not-the-secret").banks.get()
    check("pykhipu: wrong secret is refused with its typed AuthorizationError (403)", False)
except AuthorizationError as error:
    check("pykhipu: wrong secret is refused with its typed AuthorizationError (403)", True, str(error))

# khipu-python-sdk 0.4.0 — API 3.0
from khipu_sdk.client import KhipuClient
from khipu_sdk.config import KhipuConfig

with KhipuClient(KhipuConfig(api_key=API_KEY, base_url=f"{base}/khipu")) as sdk:
    result = sdk.create_instant_payment(amount=Decimal("4200"), currency="CLP", subject="SDK order", transaction_id="sdk-1")
    check("khipu-python-sdk: create payment", result.payment_id and result.app_url.startswith("khipu:///pos/"), result.payment_id)
    status = sdk.get_instant_payment(payment_id=result.payment_id)
    check("khipu-python-sdk: get payment (every required field parses)", str(status.status).endswith("pending"), str(status.status))
    pay(result.payment_id)
    status = sdk.get_instant_payment(payment_id=result.payment_id)
    check("khipu-python-sdk: paid payment is done/normal", str(status.status).endswith("done") and str(status.status_detail).endswith("normal"))
    # The refund wallet (providers.md §2.12 B4) through the SDK's own generated operations and its configured client.
    from khipu_sdk._generated.instant_payments.api.default import get_refund_wallet_balance, post_refund
    from khipu_sdk._generated.instant_payments.models.refund_post_refund import RefundPostRefund
    from khipu_sdk._generated.instant_payments.models.refund_post_refund_type import RefundPostRefundType

    before = get_refund_wallet_balance.sync(client=sdk._instant)
    check("khipu-python-sdk: refund wallet balance", before is not None and before.currency == "CLP", getattr(before, "balance", None))
    refund = post_refund.sync(client=sdk._instant, body=RefundPostRefund(type_=RefundPostRefundType.PARTIAL, payment_id=result.payment_id, amount="1000"))
    check("khipu-python-sdk: partial refund", refund is not None and refund.refunded_amount == "1000.0000" and refund.remaining == "3200.0000")
    first = refund.id if refund is not None else None
    refund = post_refund.sync(client=sdk._instant, body=RefundPostRefund(type_=RefundPostRefundType.FULL, payment_id=result.payment_id))
    check("khipu-python-sdk: full refund of the rest", refund is not None and refund.remaining == "0.0000")
    status = sdk.get_instant_payment(payment_id=result.payment_id)
    check("khipu-python-sdk: refunded payment parses as fully-refunded", str(status.status_detail).endswith("fully-refunded"))
    from khipu_sdk._generated.instant_payments.api.default import get_payment_by_id

    full = get_payment_by_id.sync(id=result.payment_id, client=sdk._instant)
    check("khipu-python-sdk: the generated GET parses the refund rows and total_refunded",
          full is not None and len(full.refunds) == 2 and full.refunds[0].id == first and full.total_refunded == "4200.0000")

# khipu-tools 2025.1.0 — API 3.0
import khipu_tools

khipu_tools.api_key = API_KEY
khipu_tools.api_base = f"{base}/khipu"
banks = khipu_tools.Banks.get()
check("khipu-tools: banks", len(banks["banks"]) >= 1)
made = khipu_tools.Payments.create(amount=1500, currency="CLP", subject="Tools order")
check("khipu-tools: create payment", len(made["payment_id"]) == 12, made["payment_id"])
info = khipu_tools.Payments.get(payment_id=made["payment_id"])
check("khipu-tools: get payment", info["status"] == "pending")
khipu_tools.Payments.delete(payment_id=made["payment_id"])
gone = requests.get(f"{base}/khipu/v3/payments/{made['payment_id']}", headers={"x-api-key": API_KEY}, timeout=10)
check("khipu-tools: delete payment", gone.status_code == 404)

if failures:
    sys.exit(f"{failures} khipu client check(s) failed")
print("pykhipu, khipu-python-sdk and khipu-tools work against the PayCheck mock with only the base URL changed")
