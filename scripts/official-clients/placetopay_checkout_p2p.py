"""Drives PlacetoPay's official Python client (checkout-p2p, PyPI) against a running `paycheck mock`,
with only the base URL changed. Exits non-zero on the first step that does not behave as the
real service would. Usage: python placetopay_checkout_p2p.py http://127.0.0.1:PORT"""
import json
import logging
import sys
import urllib.request

from checkout import Checkout, RedirectRequest
from checkout.exceptions.http_exceptions import ClientErrorException

logging.disable(logging.CRITICAL)  # the client logs every request, credentials included, at DEBUG
mock = sys.argv[1].rstrip("/")
base = mock + "/placetopay"
client = Checkout({"base_url": base, "login": "paycheck-test", "tranKey": "paycheck-test-secret-key", "timeout": 10})


def control(path, body):
    request = urllib.request.Request(mock + "/__paycheck/placetopay" + path, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def check(label, condition, detail=""):
    print(("ok   " if condition else "FAIL ") + label + (f" ({detail})" if detail else ""))
    if not condition:
        sys.exit(1)


created = client.request(RedirectRequest(
    return_url="https://merchant.example/return", ip_address="127.0.0.1", user_agent="PayCheck/checkout-p2p",
    payment={"reference": "P2P-1", "description": "official client", "amount": {"currency": "COP", "total": 10000}}))
check("create session", created.status.status.value == "OK" and created.request_id, f"requestId {created.request_id}")
check("processUrl shape", f"/session/{created.request_id}/" in created.process_url)

info = client.query(created.request_id)
check("query pending", info.status.status.value == "PENDING" and info.status.reason == "PT")

control("/payer/pay", {"requestId": created.request_id, "card": "4110760000000081"})
info = client.query(created.request_id)
check("query approved", info.status.status.value == "APPROVED" and len(info.payment or []) == 1)
transaction = info.payment[0]
check("transaction parsed", transaction.status.status.value == "APPROVED" and transaction.authorization != "000000",
      f"internalReference {transaction.internal_reference}")

reversed_ = client.reverse(str(transaction.internal_reference))
# OpenAPI /api/transaction `Reverse` example: the refund transaction, APPROVED/00, with its own internalReference.
check("reverse", reversed_.status.status.value == "APPROVED" and reversed_.payment
      and reversed_.payment.internal_reference != transaction.internal_reference)
check("refunded after reverse", client.query(created.request_id).payment[0].refunded)

try:
    client.query(999999)
    check("unknown session is an HTTP error", False)
except ClientErrorException as error:
    check("unknown session is an HTTP error", "request_not_valid" in str(error))

wrong = Checkout({"base_url": base, "login": "paycheck-test", "tranKey": "not-the-secret", "timeout": 10})
try:
    wrong.query(created.request_id)
    check("wrong secret refused", False)
except ClientErrorException as error:
    check("wrong secret refused with 401 / auth 102", "401" in str(error) and "102" in str(error))

print("checkout-p2p works against the PayCheck mock with only the base URL changed")
