#!/usr/bin/env python3
"""python-shop: a small merchant backend integrating Mollie, PlacetoPay and khipu, for PayCheck to test as a black box.

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

This file starts the shop; its code is the `merchant` package beside it: `config` (the environment), `orders`,
`amounts`, `http_client`, `providers/` (one module per provider: `mollie`, `placetopay`, `khipu`) and `server` (the
routes and main).
"""

import sys

sys.dont_write_bytecode = True  # the shop runs from its source folder and leaves nothing beside it

from merchant.server import main  # noqa: E402 - after the line above, so no __pycache__ is written

if __name__ == "__main__":
    main()
