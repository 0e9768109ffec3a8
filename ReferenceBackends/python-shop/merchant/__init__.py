"""python-shop's code: its configuration, orders, amounts, provider clients and HTTP server (shop.py starts it)."""
