"""A Mosquitto of our own on a free loopback port: for the demo, the tests and the bench.

:class:`LocalBroker` writes a configuration file into a folder of its own (listener on 127.0.0.1,
persistence in that folder, optionally a password file made with ``mosquitto_passwd`` and an ACL
that lets each table write only under its own topic) and runs ``mosquitto -c`` on it. It never
touches the system's Mosquitto service. :meth:`LocalBroker.restart` stops it (SIGTERM, so it saves
its persistent sessions) and starts it again on the same port.

    broker = LocalBroker(folder, users={"organiser": "secret", "table-1": "pw1"}, tournament="cafe")
    broker.start()
    ... BrokerAddress("127.0.0.1", broker.port, "cafe") ...
    broker.stop()
"""

from __future__ import annotations

import getpass
import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Mapping
from pathlib import Path

from controller.i18n import _

#: Where Debian and Raspberry Pi OS put the broker, when it is not on the PATH.
MOSQUITTO_PATHS = ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto")


class BrokerError(RuntimeError):
    """The broker could not be started; the message says how to install or fix it."""


def mosquitto_binary() -> str | None:
    """The ``mosquitto`` program, or ``None`` when it is not installed."""
    found = shutil.which("mosquitto")
    if found:
        return found
    return next((path for path in MOSQUITTO_PATHS if os.access(path, os.X_OK)), None)


def install_hint() -> str:
    return _("Mosquitto is not installed: `sudo apt-get install mosquitto` installs it (Debian, Raspberry Pi OS), "
             "or give a broker's address with --broker mqtt://HOST/NAME")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def table_acl(tournament: str, tables: int, organiser: str = "organiser") -> str:
    """An ACL for Mosquitto: the organiser reads and writes the whole tournament, table N (user
    ``table-N``) writes only its own status and results and reads only its own pairing and acks."""
    lines = [f"user {organiser}", f"topic readwrite bitbox/{tournament}/#", ""]
    for table in range(1, tables + 1):
        root = f"bitbox/{tournament}/tables/{table}"
        lines += [f"user table-{table}", f"topic write {root}/status", f"topic write {root}/result",
                  f"topic read {root}/pairing", f"topic read {root}/ack", ""]
    return "\n".join(lines)


def _die_with_parent() -> None:
    """In the broker's process before it runs: on Linux, end when whoever started it ends (even
    killed), so a demo or a test stopped with SIGKILL leaves no broker behind."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class LocalBroker:
    """``mosquitto`` on 127.0.0.1, a free port, a folder of its own (see the module's docstring)."""

    def __init__(self, folder: str | os.PathLike[str], users: Mapping[str, str] | None = None,
                 acl: str | None = None, port: int | None = None, verbose: bool = False) -> None:
        self.folder = Path(folder)
        self.users = dict(users or {})
        self.acl = acl
        self.port = port or free_port()
        self.verbose = verbose
        self.process: subprocess.Popen[bytes] | None = None
        self.log_path = self.folder / "mosquitto.log"

    def _configure(self) -> Path:
        self.folder.mkdir(parents=True, exist_ok=True)
        lines = [f"listener {self.port} 127.0.0.1", "persistence true", f"persistence_location {self.folder}/",
                 "autosave_interval 5", "max_queued_messages 100000", "log_dest stderr", "log_type error",
                 "log_type warning", "log_type notice", "log_type information", "connection_messages true"]
        if self.verbose:
            lines.append("log_type debug")
        if os.geteuid() == 0:
            lines.append(f"user {getpass.getuser()}")  # as root it would switch to the user 'mosquitto'
        if self.users:
            passwords = self.folder / "passwords"
            passwords.write_text("", encoding="utf-8")
            passwords.chmod(0o600)
            tool = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
            for user, password in self.users.items():
                subprocess.run([tool, "-b", str(passwords), user, password], check=True, capture_output=True)
            lines += ["allow_anonymous false", f"password_file {passwords}"]
        else:
            lines.append("allow_anonymous true")
        if self.acl is not None:
            acl = self.folder / "acl"
            acl.write_text(self.acl, encoding="utf-8")
            acl.chmod(0o600)
            lines.append(f"acl_file {acl}")
        conf = self.folder / "mosquitto.conf"
        conf.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return conf

    def start(self, timeout: float = 10.0) -> LocalBroker:
        """Start the broker; returns once it accepts connections."""
        binary = mosquitto_binary()
        if binary is None:
            raise BrokerError(install_hint())
        conf = self._configure()
        log = self.log_path.open("ab")
        self.process = subprocess.Popen([binary, "-c", str(conf)], stdout=log, stderr=log,
                                        stdin=subprocess.DEVNULL, preexec_fn=_die_with_parent)
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise BrokerError(_("mosquitto stopped at start-up (exit code {code}); its log: {path}").format(
                    code=self.process.returncode, path=self.log_path))
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.02)
        self.stop()
        raise BrokerError(_("mosquitto did not accept connections within {seconds} s; its log: {path}").format(
            seconds=timeout, path=self.log_path))

    def stop(self) -> None:
        """Stop the broker (SIGTERM: it saves its sessions and queued messages); idempotent."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self.process = None

    def restart(self) -> None:
        """Stop and start again on the same port, with the same sessions."""
        self.stop()
        self.start()

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def log(self) -> str:
        """What the broker logged so far."""
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""

    def __enter__(self) -> LocalBroker:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
