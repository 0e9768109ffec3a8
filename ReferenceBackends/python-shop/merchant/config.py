"""The shop's configuration, read once from the environment (README.md lists the variables), and its log."""

import datetime
import os
import sys

KNOWN_BUGS = ("reuse-nonce", "trust-return", "no-signature-check", "double-fulfil", "decline-paid", "pending-paid",
              "ignore-expiry", "other-amount", "no-idempotency-key", "drop-cents", "authorized-paid",
              "ignore-status-detail", "no-notifications", "app-calls-provider", "new-idempotency-key", "no-redirect-url",
              "no-client-info", "short-expiration")
# SHOP_BUG=app-calls-provider: every provider call carries a mobile app's User-Agent, as when the app calls the
# provider itself with keys it should not hold.
MOBILE_USER_AGENT = "PayCheckShop/1.0 CFNetwork/1490.0.4 Darwin/23.2.0"

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


CONFIG = None  # set by load(), from main()


def load():
    """Reads the configuration from the environment into CONFIG; exits with a message when it is not usable."""
    global CONFIG
    CONFIG = Config()
    return CONFIG


def user_agent():
    return MOBILE_USER_AGENT if CONFIG.bug == "app-calls-provider" else "python-shop/1.0"


def log(message):
    sys.stderr.write(f"{datetime.datetime.now().isoformat(timespec='seconds')} python-shop {message}\n")
    sys.stderr.flush()
