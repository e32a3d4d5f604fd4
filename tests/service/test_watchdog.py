"""systemd notifications on a real datagram socket: READY=1, then WATCHDOG=1 only while inputs live."""

from __future__ import annotations

import os
import socket
import subprocess
import sys

import pytest

from controller.service.watchdog import Watchdog, notify


@pytest.fixture
def notify_socket(tmp_path):
    path = str(tmp_path / "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(5)
    yield path, sock
    sock.close()


def _received(sock, limit=200):
    sock.settimeout(0.05)
    out = []
    try:
        for _ in range(limit):
            out.append(sock.recv(4096).decode())
    except (socket.timeout, BlockingIOError):
        pass
    return out


def test_nothing_is_sent_outside_systemd():
    assert notify("READY=1", env={}) is False
    assert Watchdog(lambda: True, env={}).tick() is False


def test_ready_and_pings_every_half_interval_while_alive(notify_socket):
    path, sock = notify_socket
    now = [100.0]
    alive = [True]
    env = {"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "2000000"}
    dog = Watchdog(lambda: alive[0], env=env, clock=lambda: now[0])
    assert dog.interval == 1.0
    assert dog.ready("serving")
    assert sock.recv(100) == b"READY=1\nSTATUS=serving"
    assert dog.tick() and sock.recv(100) == b"WATCHDOG=1"
    now[0] += 0.5
    assert not dog.tick(), "not before half the interval"
    now[0] += 0.6
    alive[0] = False
    assert not dog.tick(), "no ping while the inputs are dead: systemd will restart the service"
    alive[0] = True
    assert dog.tick() and sock.recv(100) == b"WATCHDOG=1"


def test_abstract_socket_names(tmp_path):
    name = f"bitbox-test-{os.getpid()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    sock.settimeout(5)
    try:
        assert notify("READY=1", env={"NOTIFY_SOCKET": "@" + name})
        assert sock.recv(100) == b"READY=1"
    finally:
        sock.close()


def test_the_demo_notifies_systemd(notify_socket, tmp_path):
    path, sock = notify_socket
    env = {**os.environ, "NOTIFY_SOCKET": path, "WATCHDOG_USEC": "200000"}
    result = subprocess.run(
        [sys.executable, "-m", "controller", "demo", "--no-web", "--speed", "0", "--turns", "2",
         "--db", str(tmp_path / "demo.db")],
        capture_output=True, text=True, timeout=60, env=env,
    )
    assert result.returncode == 0, result.stderr
    messages = _received(sock)
    assert messages[0].startswith("READY=1")
    assert messages.count("WATCHDOG=1") >= 2
    assert messages[-1] == "STOPPING=1"
