"""Mollie's official Python clients from PyPI, unchanged, against a standalone `paycheck mock` (providers.md §4.12):
`mollie-api-python` (legacy) or `mollie-api-py` (generated from the OpenAPI file), whichever this interpreter has —
the two install the same `mollie` package, so each runs in its own virtual environment. Only the API endpoint is
pointed at the mock: `Client.set_api_endpoint(base + "/mollie")` and `ClientSDK(server_url=base + "/mollie")`.

Usage: python mollie_clients.py legacy|generated http://127.0.0.1:PORT
"""
import sys

import requests

flavour, base = sys.argv[1], sys.argv[2].rstrip("/")
endpoint = f"{base}/mollie"
KEY = "test_PayCheckMollieMockKey0123456789ab"
failures = 0


def check(name, ok, detail=""):
    global failures
    print(("ok   " if ok else "FAIL ") + name + (f" ({detail})" if detail else ""))
    if not ok:
        failures += 1


def choose(payment_id, status):
    """The payer's choice on the test-mode checkout page: the mock's control API, as a browser would."""
    requests.post(f"{base}/__paycheck/mollie/payer/choose", json={"id": payment_id, "status": status}, timeout=10).raise_for_status()


if flavour == "legacy":
    from mollie.api.client import Client

    client = Client()
    client.set_api_key(KEY)
    client.set_api_endpoint(endpoint)
    created = [client.payments.create({"amount": {"currency": "EUR", "value": f"{n}.00"}, "description": f"Order {n}",
                                       "redirectUrl": "https://merchant.test/return"}) for n in (1, 2, 3)]
    check("mollie-api-python: create payments", all(p.id.startswith("tr_") and p.status == "open" for p in created), created[0].id)
    check("mollie-api-python: checkout URL on the mock", created[0].checkout_url.startswith(endpoint))
    got = client.payments.get(created[0].id)
    check("mollie-api-python: get payment", got.is_open() and got.amount["value"] == "1.00")
    page = client.payments.list(limit=2)
    check("mollie-api-python: list, first page of 2", len(list(page)) == 2 and page.has_next())
    rest = page.get_next()
    check("mollie-api-python: list, next page through _links.next", len(list(rest)) >= 1)
    transfer = client.payments.create({"amount": {"currency": "EUR", "value": "7.00"}, "description": "Transfer",
                                       "redirectUrl": "https://merchant.test/return", "method": "banktransfer"})
    canceled = client.payments.delete(transfer.id)
    check("mollie-api-python: cancel a cancelable payment", canceled.is_canceled())
    choose(created[1].id, "paid")
    paid = client.payments.get(created[1].id)
    refund = paid.refunds.create({"amount": {"currency": "EUR", "value": "1.00"}})
    check("mollie-api-python: refund a paid payment", refund.id.startswith("re_") and refund.payment_id == paid.id)
    methods = client.methods.list(include="issuers")
    check("mollie-api-python: list methods with iDEAL issuers", any(m.id == "ideal" and m.issuers for m in methods))
    from mollie.api.error import NotFoundError, UnauthorizedError
    try:
        client.payments.get("tr_unknown0000")
        check("mollie-api-python: unknown payment is its NotFoundError", False)
    except NotFoundError:
        check("mollie-api-python: unknown payment is its NotFoundError", True)
    wrong = Client()
    wrong.set_api_key("test_WrongWrongWrongWrongWrongWrong00")
    wrong.set_api_endpoint(endpoint)
    try:
        wrong.payments.list()
        check("mollie-api-python: wrong key is its UnauthorizedError", False)
    except UnauthorizedError:
        check("mollie-api-python: wrong key is its UnauthorizedError", True)
else:
    from mollie import ClientSDK, Security

    with ClientSDK(security=Security(api_key=KEY), server_url=endpoint) as client:
        created = client.payments.create(payment_request={
            "description": "Generated client", "amount": {"currency": "EUR", "value": "5.00"},
            "redirect_url": "https://merchant.test/return"}, idempotency_key="paycheck-generated-1")
        check("mollie-api-py: create payment (201, hal+json, required keys)", created.id.startswith("tr_"), created.id)
        again = client.payments.create(payment_request={
            "description": "Generated client", "amount": {"currency": "EUR", "value": "5.00"},
            "redirect_url": "https://merchant.test/return"}, idempotency_key="paycheck-generated-1")
        check("mollie-api-py: the same idempotency key answers the same payment", again.id == created.id)
        got = client.payments.get(payment_id=created.id)
        check("mollie-api-py: get payment", got.status == "open")
        listed = client.payments.list(limit=1)
        check("mollie-api-py: list with previous/next links", listed.result.count == 1)
        following = listed.next()
        check("mollie-api-py: next page through _links.next", following is not None and following.result.count >= 0)
        transfer = client.payments.create(payment_request={
            "description": "Transfer", "amount": {"currency": "EUR", "value": "7.00"},
            "redirect_url": "https://merchant.test/return", "method": "banktransfer"})
        canceled = client.payments.cancel(payment_id=transfer.id)
        check("mollie-api-py: cancel", canceled.status == "canceled")
        choose(created.id, "paid")
        refund = client.refunds.create(payment_id=created.id, refund_request={"amount": {"currency": "EUR", "value": "2.00"}})
        check("mollie-api-py: refund (201, required keys)", refund.id.startswith("re_"))
        methods = client.methods.list(include="issuers")
        check("mollie-api-py: list methods", methods.count >= 1)

if failures:
    sys.exit(f"{failures} Mollie client check(s) failed")
print(f"{'mollie-api-python' if flavour == 'legacy' else 'mollie-api-py'} works against the PayCheck mock with only the API endpoint changed")
