"""What every request to the dashboard passes through: the hosts it answers, cross-site requests,
the referee's link, wrong-token guesses, and the headers that keep pages from being framed or sniffed.

* **Host allowlist.** The service answers any IP address and only the names it is reached by
  (``localhost``, the machine's name and ``.local`` name), so a web page on another site cannot read
  the dashboard by pointing one of its own names at this machine (DNS rebinding needs a name).
  ``BITBOX_ALLOWED_HOSTS`` adds names (comma-separated), for a reverse proxy.
* **Cross-site requests.** A request that changes anything (POST) whose ``Origin`` is not the
  dashboard's own is refused, so a page elsewhere cannot make a referee's browser act.
* **The referee's link.** ``?token=...`` in an address is exchanged once for an HttpOnly,
  SameSite=Strict cookie, and the browser is sent on to the same address without it, so the token
  stays out of the history and of what a page could leak; control requests take the token only from
  that cookie or an ``Authorization`` header.
* **Wrong tokens** are counted per client: after :data:`MAX_FAILURES` within :data:`FAILURE_WINDOW`
  seconds, that client is refused for the rest of the window.
* **Headers.** A strict Content-Security-Policy, ``X-Frame-Options: DENY``, ``nosniff``, no referrer.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

from controller.service.auth import token_matches

#: The cookie holding the referee's token once a link carrying it was opened.
REFEREE_COOKIE = "bitbox_referee"
#: Environment variable adding host names the dashboard answers (a reverse proxy's name).
HOSTS_ENV = "BITBOX_ALLOWED_HOSTS"
MAX_FAILURES = 10
FAILURE_WINDOW = 60.0

SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; script-src 'self'; style-src 'self'; "
     b"img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
     b"form-action 'self'"),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


def machine_hosts(listen: str | None = None) -> set[str]:
    """The names and addresses this machine is reached by, lower case, without ports."""
    names = {"127.0.0.1", "localhost", "::1"}
    if listen and listen not in ("0.0.0.0", "::", ""):
        names.add(listen.lower())
    hostname = socket.gethostname().lower()
    names.update({hostname, f"{hostname}.local"})
    try:
        for info in socket.getaddrinfo(hostname, None):
            names.add(str(info[4][0]).lower())
    except OSError:
        pass
    names.update(h.strip().lower() for h in os.environ.get(HOSTS_ENV, "").split(",") if h.strip())
    return names


def lan_address() -> str:
    """This machine's address for the other devices on its network: a non-loopback address of its
    name, else its ``.local`` name (which Raspberry Pi OS announces)."""
    name = socket.gethostname()
    try:
        infos = socket.getaddrinfo(name, None, socket.AF_INET)
    except OSError:
        infos = []
    for info in infos:
        address = str(info[4][0])
        if not address.startswith("127."):
            return address
    return f"{name}.local"


def is_address(host: str) -> bool:
    """Whether ``host`` is an IP address rather than a name (a name is what DNS rebinding needs)."""
    import ipaddress

    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def host_name(header: str) -> str:
    """``example:8080`` -> ``example``; ``[::1]:8080`` -> ``::1``."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].split("]", 1)[0]
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


class Failures:
    """Wrong-token attempts per client, in a sliding window."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._seen: dict[str, list[float]] = {}
        self._lock = threading.Lock()

    def blocked(self, client: str) -> bool:
        with self._lock:
            recent = [t for t in self._seen.get(client, []) if self.clock() - t < FAILURE_WINDOW]
            self._seen[client] = recent
            return len(recent) >= MAX_FAILURES

    def failed(self, client: str) -> None:
        with self._lock:
            self._seen.setdefault(client, []).append(self.clock())


class Guard:
    """ASGI middleware doing what the module's docstring says, in front of the dashboard's app."""

    def __init__(self, app: Any, token: str, hosts: Iterable[str], failures: Failures) -> None:
        self.app = app
        self.token = token
        self.hosts = {h.lower() for h in hosts}
        self.failures = failures

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        host = headers.get("host", "")
        if host_name(host) not in self.hosts and not is_address(host_name(host)):
            await _json(send, 400, "this dashboard is not served under that name; open it by the address "
                                   "the service printed")
            return
        if scope["method"] not in ("GET", "HEAD", "OPTIONS"):
            origin = headers.get("origin")
            # The scheme is left out: behind an HTTPS proxy the page's origin is https, the Host the same.
            if origin is not None and urlsplit(origin).netloc.lower() != host.lower():
                await _json(send, 403, "a request from another site is refused; use the dashboard itself")
                return
        query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True))
        if scope["method"] == "GET" and "token" in query:
            await self._exchange(scope, send, query)
            return

        async def secured(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await send(message)

        await self.app(scope, receive, secured)

    async def _exchange(self, scope: Scope, send: Send, query: dict[str, str]) -> None:
        """A link carrying the token: a cookie instead, and on to the same address without it."""
        client = (scope.get("client") or ("?", 0))[0]
        if self.failures.blocked(client):
            await _json(send, 429, "too many wrong tokens from this device; wait a minute, then use the "
                                   "token printed when the service started")
            return
        if not token_matches(self.token, query.pop("token")):
            self.failures.failed(client)
            await _json(send, 403, "wrong token in the address; use the link printed when the service started")
            return
        rest = urlencode(query)
        location = scope["path"] + (f"?{rest}" if rest else "")
        cookie = f"{REFEREE_COOKIE}={self.token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=43200"
        await send({"type": "http.response.start", "status": 303,
                    "headers": [(b"location", location.encode("latin-1")), (b"set-cookie", cookie.encode("latin-1")),
                                (b"cache-control", b"no-store"), *SECURITY_HEADERS]})
        await send({"type": "http.response.body", "body": b""})


async def _json(send: Send, status: int, message: str) -> None:
    import json

    body = json.dumps({"error": message}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            *SECURITY_HEADERS]})
    await send({"type": "http.response.body", "body": body})
