"""The shop's orders, kept in memory: each order's status, and its fulfilment on the first transition to `paid`."""

import threading

from . import config
from .config import log

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
        if config.CONFIG.bug == "decline-paid" and status == "failed":
            status = "paid"  # wrong on purpose: a failed payment is mapped to paid
        if config.CONFIG.bug == "pending-paid" and status == "pending":
            status = "paid"  # wrong on purpose: a pending payment is mapped to paid
        if config.CONFIG.bug == "ignore-expiry" and status == "expired":
            return  # wrong on purpose: an expired payment is never noticed
        with self.lock:
            previous = order.status
            if status == "paid" and previous == "paid":
                # SHOP_BUG=double-fulfil: every paid notification fulfils again.
                if config.CONFIG.bug == "double-fulfil" and source == "notification":
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
