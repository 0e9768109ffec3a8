"""The shop's calls to a provider over HTTP, and the error a failed call raises."""

import json
import urllib.error
import urllib.request

from . import config


class ProviderError(Exception):
    """A provider call that failed: no answer, an unreadable answer, or an error status."""

    def __init__(self, message, http_status=None, body=None):
        super().__init__(message)
        self.http_status = http_status
        self.body = body


def http_call(method, url, headers=None, body=None):
    """Returns (status, parsed JSON or None). Raises ProviderError when the provider cannot be reached."""
    request = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=config.CONFIG.timeout) as response:
            status, raw = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, raw = error.code, error.read()
    except (urllib.error.URLError, OSError, ValueError) as error:
        reason = getattr(error, "reason", error)
        raise ProviderError(f"cannot reach the provider: {reason}") from None
    try:
        parsed = json.loads(raw.decode("utf-8")) if raw else None
    except (UnicodeDecodeError, json.JSONDecodeError):
        parsed = None
    return status, parsed
