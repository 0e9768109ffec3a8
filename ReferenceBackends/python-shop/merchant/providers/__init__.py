"""The providers the shop integrates, each in its own module, and what the shop asks of whichever an order uses."""

from ..config import log
from ..http_client import ProviderError
from ..orders import STORE
from . import khipu, mollie, placetopay


def fetch_status(order):
    if order.provider == "mollie":
        return mollie.fetch_status(order.payment_id)
    if order.provider == "khipu":
        return khipu.fetch_status(order.payment_id)
    return placetopay.fetch_status(order.payment_id)


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
