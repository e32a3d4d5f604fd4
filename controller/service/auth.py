"""Who may change a game: spectators read freely; starting, aborting or correcting needs the token.

The token is printed when the service starts (or set with ``BITBOX_TOKEN`` / ``--token``) and is
sent as ``Authorization: Bearer TOKEN``, or held in a cookie once a link carrying it was opened
(see :mod:`controller.service.web.guard`).
"""

from __future__ import annotations

import hmac
import os
import secrets

#: Environment variable that fixes the token (for a service restarted by systemd).
TOKEN_ENV = "BITBOX_TOKEN"
#: The shortest token accepted (22 characters of base64 hold 128 bits); a generated one has 192 random bits.
MIN_LENGTH = 22


def make_token(given: str | None = None) -> str:
    """The given token, else ``$BITBOX_TOKEN``, else a fresh random one."""
    token = given or os.environ.get(TOKEN_ENV) or secrets.token_urlsafe(24)
    if len(token) < MIN_LENGTH:
        raise ValueError(f"a token must be at least {MIN_LENGTH} characters long (it guards the referee's "
                         "commands); leave --token out for a random one")
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
