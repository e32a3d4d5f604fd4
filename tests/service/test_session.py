"""The live game loop with simulated controllers turned and pressed like a player would."""

from __future__ import annotations

import json

import pytest

from controller.dials.state import LedMode
from controller.engines import load_game
from controller.games.pixoid.wheels import PixoidWheels
from controller.games.wheels import TURNING
from controller.i18n import said
from controller.service.config import PlayerConfig, ServiceConfig
from controller.service.session import Session, SessionError
from controller.service.store import GameStore
from .conftest import CONTROLLERS, wait_for

REFUSALS = PixoidWheels.REFUSALS


def test_placement_uses_the_number_wheel_among_free_start_pix(table_factory):
    table = table_factory()
    placement = table.state["placement"]
    assert placement["piece"] == 0 and len(placement["candidates"]) >= 4
    table.set_wheels("red", number=2)
    wait_for(lambda: table.state["placement"]["selected"] == 2, what="the chosen start Pix shown")
    chosen = table.state["placement"]["candidates"][2]
    table.press("red")
    game = table.game()
    assert list(game.board.pix(game.pos[0])) == chosen
    # Someone else pressing out of turn is refused with the reason, nothing placed.
    table.press("green")
    wait_for(lambda: table.seat("green")["refused"], what="green's refusal on its own channel")
    assert "turn to place" in said(table.seat("green")["reason"])
    assert table.controller("green")["refused"] and table.controller("green")["message"] == ""
    assert table.game().pos[2] == -1


def test_a_number_beyond_the_free_start_pix_is_refused(table_factory):
    table = table_factory()
    count = len(table.state["placement"]["candidates"])
    if count > 9:
        pytest.skip("this board has 10 start Pix or more")
    table.set_wheels("red", number=9)
    table.press("red")
    wait_for(lambda: table.seat("red")["refused"], what="red's refusal on its own channel")
    assert f"there are {count} free start Pix" in said(table.seat("red")["reason"])
    assert table.game().pos[0] == -1


def test_lock_reveal_and_resolve_a_turn(table_factory):
    table = table_factory()
    table.place_all()
    game = table.game()
    for piece, cid in enumerate(CONTROLLERS):
        direction, distance = table.legal_program(piece)
        table.set_wheels(cid, direction, distance)
        table.press(cid)
        if piece < 3:
            assert table.controller(cid)["locked"]
            assert table.backend.state(cid).led is LedMode.ON
            assert table.state["turns_resolved"] == 0
    wait_for(lambda: table.state["turns_resolved"] == 1, what="the turn to resolve")
    kinds = [e["kind"] for e in table.state["log"]]
    assert "revealed" in kinds and "moved" in kinds
    assert not any(c["locked"] for c in table.state["controllers"])
    wait_for(lambda: all(table.backend.state(c).led is LedMode.OFF for c in CONTROLLERS), what="LEDs off")
    # What was stored is what was played.
    saved = table.store.save_data(table.session.game_id)
    assert load_game(saved).state_dict() == table.game().state_dict()
    assert len(saved["actions"]) == len(game.history) + 4


@pytest.mark.parametrize("fault", ["zero", "diagonal", "wall", "turning"])
def test_illegal_programs_are_refused_at_lock_time(table_factory, fault):
    table = table_factory()
    table.place_all()
    direction, _ = table.legal_program(0)
    if fault == "zero":
        table.set_wheels("red", direction, 0)
        reason = REFUSALS["distance-range"]
    elif fault == "diagonal":
        table.set_wheels("red", "up-right", 3)
        reason = REFUSALS["no-diagonal"]
    elif fault == "wall":
        wall = table.wall_direction(0)
        if wall is None:
            pytest.skip("piece 0 has no wall beside it on this board")
        table.set_wheels("red", wall, 2)
        reason = REFUSALS["wall-ahead"]
    else:
        table.set_wheels("red", direction, 2)
        table.backend.turn("red", "number", None)  # left between two digits
        wait_for(lambda: table.backend.state("red").number is None, what="the wheel between positions")
        reason = said(TURNING)
    table.press("red")
    red = table.controller("red")
    assert red["refused"] and not red["locked"] and "message" in red and red["message"] == ""
    wait_for(lambda: said(table.seat("red")["reason"]) == reason, what="the reason on red's own channel")
    heard = any(reason in json.dumps(m) for m in table.messages)
    if fault == "turning":
        assert heard, "a wheel still turning narrows no program: everybody is told"
    else:
        assert not heard, "a refused program's reason reached the public channel"
        assert any(PixoidWheels.SECRET_REFUSAL_HINT in json.dumps(m) for m in table.messages)
    wait_for(lambda: table.backend.state("red").led is LedMode.BLINK, what="the LED to blink")
    assert not table.game().secret_pending(0)
    # Fixing the wheel clears the refusal and the lock then goes through.
    table.set_wheels("red", direction, 1)
    assert not table.controller("red")["refused"]
    table.press("red")
    assert table.controller("red")["locked"]
    assert table.game().secret_pending(0)


def test_everyone_sees_who_has_not_locked(table_factory):
    table = table_factory()
    table.place_all()
    for piece in (0, 2):
        direction, distance = table.legal_program(piece)
        table.set_wheels(CONTROLLERS[piece], direction, distance)
        table.press(CONTROLLERS[piece])
    waiting = {w["name"]: w["pieces"] for w in table.state["waiting_for"]}
    assert waiting == {"P1": [1], "P3": [3]}


def test_unplugging_pauses_and_replugging_resumes(table_factory):
    table = table_factory()
    table.place_all()
    table.backend.unplug("blue")
    wait_for(lambda: "blue" in said(table.state["paused"]), what="the pause")
    assert "unplugged" in said(table.state["paused"])
    direction, distance = table.legal_program(0)
    table.set_wheels("red", direction, distance)
    table.press("red")
    assert not table.controller("red")["locked"]
    wait_for(lambda: "paused" in said(table.seat("red")["reason"]), what="the refusal's reason")
    table.backend.replug("blue")
    wait_for(lambda: not table.state["paused"], what="play to resume")
    assert any(e["kind"] == "resumed" for e in table.state["log"])
    table.press("red")
    assert table.controller("red")["locked"]


def test_three_players_share_the_spare_bug_controller(table_factory):
    table = table_factory(players=3)
    table.place_all()
    owners = []
    for _ in range(2):
        game = table.game()
        owner = game.controller_owner(3)
        owners.append(owner)
        assert table.controller("yellow")["owner"] == owner
        turns = table.state["turns_resolved"]
        for piece, cid in enumerate(CONTROLLERS):
            direction, distance = table.legal_program(piece)
            table.set_wheels(cid, direction, distance)
            table.press(cid)
            if table.game().is_over():
                return
        wait_for(lambda: table.state["turns_resolved"] == turns + 1 or table.game().is_over(), what="the turn")
        if table.game().phase != "programming":
            return
    assert owners[0] != owners[1], "the spare Bug changes hands every turn"


def test_a_bot_seat_plays_through_its_controller(table_factory):
    table = table_factory(bots=(1, 2, 3))
    table.place_all()
    direction, distance = table.legal_program(0)
    table.set_wheels("red", direction, distance)
    table.press("red")
    wait_for(lambda: table.state["turns_resolved"] >= 1, timeout=8, what="the bots to lock and the turn to resolve")
    # The bots' programs were dialled on their controllers: a distance is 1 to 9, the wheels started on 0.
    assert all(table.backend.wheel_target(cid, "number") >= 1 for cid in ("blue", "green", "yellow"))


def test_a_whole_bot_game_ends_and_is_stored(tmp_path):
    config = ServiceConfig(options={"players": 4, "short_game": True}, seed=5,
                           players=[PlayerConfig(f"B{i}", bot=True) for i in range(4)], bot_delay=0, turn_pause=0)
    with GameStore(tmp_path / "g.db") as store:
        session = Session(config, None, store)
        session.start_new()
        session.run(until_over=True)
        assert session.game.is_over()
        stored = store.game(session.game_id)
        assert stored.status == "over"
        assert load_game(json.dumps(store.save_data(stored.id))) == session.game


def test_unknown_controller_ids_are_refused(tmp_path):
    from controller.dials.factory import open_backend

    backend = open_backend("sim", controllers=["a", "b", "c", "d"])
    backend.start()
    try:
        config = ServiceConfig(options={"players": 4}, pieces=["a", "b", "c", "zz"])
        with GameStore(tmp_path / "g.db") as store:
            with pytest.raises(SessionError, match="unknown controller id.*zz.*known controllers: a, b, c, d"):
                Session(config, backend, store).start_new()
            assert store.games() == []
    finally:
        backend.close()
