"""Amounts as the shop accepts them (strings of major units) and as it asks a provider for them."""

import decimal
import re

from . import config

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
    if config.CONFIG.bug == "drop-cents":
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
