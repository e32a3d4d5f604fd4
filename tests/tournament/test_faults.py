"""Faults, each against a real Mosquitto started by the test on a free loopback port: a table that
loses the broker mid-game, a broker restarted and an organiser killed with SIGKILL mid-round, a
table that never comes back, and messages that must be refused."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from controller.cli import main
from controller.tournament.store import TournamentStore
from controller.tournament.topics import BrokerAddress, Topics
from tests.tournament.conftest import (USERS, Cable, OrganiserProcess, OrganiserThread, new_tournament, pairings,
                                       receipts, recorded, wait_for)


def _playing(table) -> bool:
    current = table.link.current()
    return current is not None and current["state"] == "playing"


def test_a_table_that_loses_the_broker_mid_game_plays_on_and_its_result_arrives_once(
        tmp_path: Path, broker, tables, organisers, cables) -> None:
    address = BrokerAddress("127.0.0.1", broker.port, "cafe")
    cable = Cable(broker.port)
    cables.append(cable)
    path = tmp_path / "cafe.db"
    new_tournament(path, address, players=2, rounds=1)
    table = tables.start(1, f"mqtt://127.0.0.1:{cable.port}/cafe", auto_start=False)
    organisers.append(OrganiserThread(path, address))
    wait_for(lambda: table.link.current() is not None, what="the pairing at the table")
    table.tap_start()
    wait_for(lambda: _playing(table) and table.session.game.history, what="the game under way")
    table.session.bots_held = True
    cable.cut()
    wait_for(lambda: not table.link.connected.is_set(), what="the table to notice the broker is gone")
    table.session.bots_held = False
    wait_for(lambda: table.link.outbox(), what="the game played to its end without the broker")
    assert table.session.game.is_over()
    assert recorded(path) == [] and len(table.link.outbox()) == 1, "the result waits in the table's outbox"

    cable.mend()
    wait_for(lambda: recorded(path), what="the result at the organiser")
    wait_for(lambda: not table.link.outbox(), what="the organiser's acknowledgement at the table")
    table.link._send_outbox()  # a table may well send it again: it changes nothing
    ((number, board, digest),) = recorded(path)
    outbox = table.link._query("SELECT digest FROM outbox")
    assert (number, board) == (1, 1) and outbox == [(digest,)]
    wait_for(lambda: organisers[0].organiser.tournament.over, what="the tournament's end")
    assert [r["outcome"] for r in receipts(path)].count("recorded") == 1


def test_a_restarted_broker_and_a_killed_organiser_lose_no_result_and_count_none_twice(
        tmp_path: Path, broker, tables) -> None:
    address = BrokerAddress("127.0.0.1", broker.port, "cafe")
    path = tmp_path / "cafe.db"
    new_tournament(path, address, players=8, rounds=2)
    playing = {n: tables.start(n, address.url, bot_delay=0.01) for n in (1, 2, 3, 4)}
    for n in (1, 2):
        playing[n].session.bots_held = True
    organiser = OrganiserProcess(path, tmp_path / "organiser.log")
    try:
        wait_for(lambda: len(recorded(path)) == 2, 30, "the results of tables 3 and 4")
        first_round = pairings(path)[1]
        organiser.kill()                                           # kill -9: mid-round, nothing said
        for n in (1, 2):
            playing[n].session.bots_held = False
        wait_for(lambda: all(playing[n].link.published == 1 for n in (1, 2)), 30, "tables 1 and 2 to finish")
        broker.restart()                                           # the broker goes and comes back meanwhile
        organiser = OrganiserProcess(path, tmp_path / "organiser.log")
        with TournamentStore(path) as store:
            wait_for(lambda: store.current_round() == 2 and store.round_done(2), 60, "the second round's end")
        assert pairings(path)[1] == first_round, "the first round's pairings are unchanged"
        played = sum(table.link.published for table in playing.values())
        results = recorded(path)
        assert played == len(results) == 8 and len(set(results)) == 8
        outcomes = [r["outcome"] for r in receipts(path)]
        assert outcomes.count("recorded") == 8 and "refused" not in outcomes
    finally:
        organiser.stop()


def test_a_table_that_never_comes_back_is_replaced_or_its_result_recorded_by_hand(
        tmp_path: Path, broker, tables, organisers, capsys) -> None:
    address = BrokerAddress("127.0.0.1", broker.port, "cafe")
    path = tmp_path / "cafe.db"
    new_tournament(path, address, players=4, rounds=2)
    tables.start(1, address.url)
    gone = tables.start(2, address.url, auto_start=False)
    organisers.append(OrganiserThread(path, address))
    wait_for(lambda: gone.link.current() is not None, what="table 2's pairing")
    tables.stop(2)                                                # it never comes back
    with TournamentStore(path) as store:
        wait_for(lambda: len([b for b in store.boards(1) if b.done]) == 1, what="table 1's result")
        board = next(b for b in store.boards(1) if not b.done)
    assert board.table == 2
    assert main(["tournament", "move", "--db", str(path), "--round", "1", "--table", str(board.board),
                 "--to", "3"]) == 0
    assert "table 3" in capsys.readouterr().out
    tables.start(3, address.url)
    with TournamentStore(path) as store:
        wait_for(lambda: store.round_done(1), what="the moved game played at table 3")
        assert store.board(1, board.board).table == 3 and store.board(1, board.board).tables == (2, 3)
        wait_for(lambda: store.current_round() == 2 and any(b.table for b in store.boards(2)),
                 what="the second round given to the tables")
    retained: list[bytes] = []
    _subscribe_once(address, Topics("cafe").pairing(2), retained)
    assert retained in ([], [b""]), "table 2's old pairing is withdrawn"

    tables.stop(3)                                                # the second round: a table is lost again
    with TournamentStore(path) as store:
        wait_for(lambda: any(b.done for b in store.boards(2)) or not tables.running, what="round 2 under way")
        wait_for(lambda: sum(b.done for b in store.boards(2)) >= 1, what="table 1's result in round 2")
        left = [b for b in store.boards(2) if not b.done]
    for b in left:
        assert main(["tournament", "record", "--db", str(path), "--round", "2", "--table", str(b.board),
                     "--scores", "2,5"]) == 0
    wait_for(lambda: organisers[0].organiser.tournament.over, what="the tournament's end")
    with TournamentStore(path) as store:
        sources = sorted(b.source for b in store.boards())
        hand = [b for b in store.boards() if b.source == "hand"]
    assert sources.count("hand") == len(left) and hand[0].result.winners == (1,)


def _subscribe_once(address: BrokerAddress, topic: str, into: list[bytes]) -> None:
    """What the broker keeps retained on ``topic`` (nothing, or one payload)."""
    done = []
    client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
    client.on_connect = lambda c, u, f, rc, p: c.subscribe(topic, qos=1)
    client.on_subscribe = lambda c, u, mid, rc, p: c.publish("probe/done", b"", qos=1)
    client.on_message = lambda c, u, m: into.append(m.payload)
    client.on_publish = lambda c, u, mid, rc, p: done.append(True)
    client.connect(address.host, address.port)
    client.loop_start()
    wait_for(lambda: done, what="the broker's retained messages")
    client.disconnect()
    client.loop_stop()


def _client(broker, user: str | None, password: str | None, results: list) -> mqtt.Client:
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"probe-{user}", protocol=mqtt.MQTTv5)
    if user:
        client.username_pw_set(user, password)
    client.on_connect = lambda c, u, f, rc, p: results.append(("connect", str(rc)))
    client.on_publish = lambda c, u, mid, rc, p: results.append(("puback", str(rc)))
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    wait_for(lambda: any(kind == "connect" for kind, _ in results), what="the broker's answer")
    return client


def test_bad_messages_are_refused_with_a_log_line_and_change_nothing(tmp_path: Path, secure_broker, tables,
                                                                     organisers, caplog) -> None:
    caplog.set_level(logging.INFO)
    topics = Topics("club")
    address = BrokerAddress("127.0.0.1", secure_broker.port, "club", username="organiser",
                            password=USERS["organiser"])
    path = tmp_path / "club.db"
    new_tournament(path, address, players=4, rounds=1)
    for n in (1, 2):
        (tmp_path / f"pw{n}").write_text(USERS[f"table-{n}"], encoding="utf-8")
        tables.start(n, address.url, auto_start=False, username=f"table-{n}", password_file=str(tmp_path / f"pw{n}"))
    organisers.append(OrganiserThread(path, address))
    wait_for(lambda: all(t.link.current() for t in tables.running.values()), what="the pairings at both tables")
    before = organisers[0].organiser.tournament.state()

    said: list = []
    table1 = _client(secure_broker, "table-1", USERS["table-1"], said)
    table1.publish(topics.result(1), b"{not json", qos=1)
    wait_for(lambda: "not valid JSON" in caplog.text, what="the refusal of a message that is not JSON")
    good = {"tournament": "club", "table": 1, "round": 99, "board": 1, "digest": "sha256:0", "save": {},
            "result": {"ranks": [1, 2], "scores": [1, 0], "winners": [0]}, "players": [1, 2]}
    table1.publish(topics.result(1), json.dumps(good).encode(), qos=1)
    wait_for(lambda: "round 99 is unknown" in caplog.text, what="the refusal of an unknown round")
    table1.publish(topics.result(2), json.dumps({**good, "round": 1}).encode(), qos=1)
    wait_for(lambda: ("puback", "Not authorized") in said, what="the broker's refusal of another table's topic")
    assert "Denied PUBLISH from probe-table-1" in secure_broker.log()
    table1.disconnect()
    table1.loop_stop()

    organiser_said: list = []
    impostor = _client(secure_broker, "organiser", USERS["organiser"], organiser_said)
    impostor.publish(topics.result(2), json.dumps({**good, "round": 1}).encode(), qos=1)
    wait_for(lambda: "published under table 2's topic but names table 1" in caplog.text,
             what="the organiser's own check of the topic")
    impostor.disconnect()
    impostor.loop_stop()

    stranger: list = []
    nobody = _client(secure_broker, "table-1", "wrong password", stranger)
    assert stranger[0] == ("connect", "Not authorized")
    nobody.loop_stop()
    wait_for(lambda: "disconnected, not authorised" in secure_broker.log(), what="the broker's log line")

    after = organisers[0].organiser.tournament.state()
    assert recorded(path) == []
    assert after["standings"] == before["standings"] and after["pairings"] == before["pairings"]
    assert all(r["outcome"] == "refused" for r in receipts(path))
