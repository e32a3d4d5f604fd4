"""Running the dashboard app with uvicorn in a background thread, beside the game loop."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from typing import Any

import uvicorn


class WebServerError(Exception):
    """The dashboard could not start (the port is taken, the address is wrong)."""


class WebServer:
    """uvicorn serving ``app`` on ``host:port`` from a daemon thread; port 0 picks a free port.

    Example::

        server = WebServer(app, "127.0.0.1", 0)
        server.start()
        print(server.url)
        server.stop()
    """

    def __init__(self, app: Any, host: str = "127.0.0.1", port: int = 8080) -> None:
        self.app = app
        self.host = host
        self.port = port
        try:
            self._socket = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
            self._socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            self._socket.bind((host, port))
        except OSError as exc:
            self._socket.close()
            raise WebServerError(
                f"cannot listen on {host}:{port}: {exc.strerror}; choose another --port (or stop what uses it)"
            ) from None
        self.port = self._socket.getsockname()[1]
        config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off",
                                timeout_graceful_shutdown=1)
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._run, name="bitbox-web", daemon=True)
        self._loop: asyncio.AbstractEventLoop | None = None
        self.error: BaseException | None = None

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        host = f"[{host}]" if ":" in host else host
        return f"http://{host}:{self.port}/"

    def _run(self) -> None:
        try:
            self._loop = asyncio.new_event_loop()
            asyncio.set_event_loop(self._loop)
            self._loop.run_until_complete(self._server.serve(sockets=[self._socket]))
        except BaseException as exc:  # noqa: BLE001 - reported by start()
            self.error = exc
        finally:
            if self._loop is not None:
                self._loop.close()

    def start(self, timeout: float = 10.0) -> None:
        """Start serving; returns once the server accepts connections."""
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self._server.started:
            if self.error is not None or not self._thread.is_alive():
                raise WebServerError(f"the dashboard server stopped at start-up: {self.error}")
            if time.monotonic() > deadline:
                raise WebServerError("the dashboard server did not start in time")
            time.sleep(0.01)

    def stop(self) -> None:
        """Close event streams and stop the server (idempotent)."""
        closing = getattr(getattr(self.app, "state", None), "closing", None)
        if self._loop is not None and closing is not None and not self._loop.is_closed():
            try:
                self._loop.call_soon_threadsafe(closing.set)
            except RuntimeError:
                pass
        self._server.should_exit = True
        if self._thread.is_alive():
            self._thread.join(5)
        self._socket.close()
