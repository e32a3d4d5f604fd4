"""systemd notifications on a real datagram socket: READY=1, then WATCHDOG=1 only while inputs live."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

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


def test_the_table_service_pets_the_watchdog_while_its_loop_runs(notify_socket, tmp_path, monkeypatch):
    """The table's driver runs the loop; every pass of it may ping, not only the idle dashboard loop."""
    import io

    from controller.service.config import PlayerConfig, ServiceConfig
    from controller.service.table import TableSetup
    from controller.service.table_runner import TableRun, run_table_service
    from controller.vision.mat import load_layout

    path, sock = notify_socket
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    monkeypatch.setenv("WATCHDOG_USEC", "20000")
    monkeypatch.delenv("WATCHDOG_PID", raising=False)

    def driver(session):
        for _ in range(5):
            session.step()
            time.sleep(0.03)

    config = ServiceConfig(game="puxes", seed=1, db=tmp_path / "table.db", web=False)
    setup = TableSetup([PlayerConfig("Ada"), PlayerConfig("Brice")], {"players": 2}, 1, game="puxes")
    run_table_service(config, setup, load_layout("puxes"), None, driver, TableRun(start="new", out=io.StringIO()))
    received = _received(sock)
    assert received[0].startswith("READY=1")
    assert received.count("WATCHDOG=1") >= 4, received
    assert received[-1] == "STOPPING=1"
