"""Who may change a game: spectators read freely; starting, aborting or correcting needs the token.

The token is printed when the service starts (or set with ``BITBOX_TOKEN`` / ``--token``) and is
sent as ``Authorization: Bearer TOKEN`` or ``?token=TOKEN``.
"""

from __future__ import annotations

import hmac
import os
import secrets

#: Environment variable that fixes the token (for a service restarted by systemd).
TOKEN_ENV = "BITBOX_TOKEN"


def make_token(given: str | None = None) -> str:
    """The given token, else ``$BITBOX_TOKEN``, else a fresh random one."""
    token = given or os.environ.get(TOKEN_ENV) or secrets.token_urlsafe(18)
    if len(token) < 8:
        raise ValueError("a token must be at least 8 characters long")
    return token


def bearer(header: str | None) -> str | None:
    """The token of an ``Authorization: Bearer ...`` header, or ``None``."""
    if not header:
        return None
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()


def token_matches(expected: str, given: str | None) -> bool:
    """Constant-time comparison, so the token cannot be guessed from response times."""
    return given is not None and hmac.compare_digest(expected.encode(), given.encode())
