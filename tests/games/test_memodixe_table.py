"""MémoDiXe played with real DiXes on the printed mat: rendered camera frames of the square, read by
the real vision pipeline and face library, judged by the referee (rolls, flips, pairs, dice put back,
dice touched, « DiXe ! » checked at once), through the table session and the real command line."""

from __future__ import annotations

import dataclasses
import json
import random
import zlib

import numpy as np
import pytest

from controller import i18n
from controller.engines.core import CHANCE
from controller.engines.memodixe import (
    CallDixe,
    Flip,
    MemodixeGame,
    Roll,
    Take,
    place_label,
)
from controller.games import game as game_spec
from controller.games.memodixe.layouts import LEARNT_FILE
from controller.games.memodixe.referee import NOT_ROLLED, ROLLED, MemodixeReferee
from controller.games.memodixe.render import Placed, place_centre
from controller.paths import state_dir
from controller.referee.common import Call, Question, RefereeConfig, RefereeError
from controller.vision.render import Hand
from tests.games.memodixe_table import SquareTable


@pytest.fixture(scope="module")
def camera() -> SquareTable:
    """The calibrated camera and taught faces (the costly part), shared; each test resets the dice."""
    return SquareTable(seed=1)


@pytest.fixture
def table(camera: SquareTable, request: pytest.FixtureRequest) -> SquareTable:
    """The shared camera with an empty mat; where the dice lie is drawn from the test's own name, so
    a test lays the same table whatever ran before it."""
    camera.reset(seed=zlib.crc32(request.node.name.encode()) & 0xFFFF)
    return camera


def new_game(seed: int, table: SquareTable, players: int = 2) -> tuple[MemodixeGame, MemodixeReferee]:
    game = MemodixeGame({"players": players}, seed=seed)
    return game, MemodixeReferee(game, RefereeConfig(), table.layouts)


def set_up(table: SquareTable, game: MemodixeGame, referee: MemodixeReferee) -> None:
    table.play_rolls(game)
    results = referee.observe(table.read())
    assert [r.decision for r in results if isinstance(r, Call)] == ["rolled"], referee.prompt()
    assert game.queue[0][0] == "turn"


def calls(results: list) -> list[Call]:
    return [r for r in results if isinstance(r, Call)]


def pair_and_other(game: MemodixeGame) -> tuple[tuple[int, int] | None, tuple[int, int]]:
    """Two places hiding faces that pair (if any), and two that do not."""
    kinds = [game.book.kind(game.bottom[p]) for p in range(9)]
    pair = next(((a, b) for a in range(9) for b in range(a + 1, 9) if kinds[a] == kinds[b]), None)
    other = next((a, b) for a in range(9) for b in range(a + 1, 9) if kinds[a] != kinds[b])
    return pair, other


def test_the_setup_rolls_are_read_from_the_square_and_named_by_place(table):
    game, referee = new_game(5, table)
    assert "a1 Oni" in referee.prompt() and "c3 Arkan Sonney" in referee.prompt()
    set_up(table, game, referee)
    rolls = [a for p, a in game.history if p == CHANCE]
    assert [r.face for r in rolls] == [table.square[p].top for p in range(9)]
    assert "turn over a die" in referee.prompt()


def test_two_different_faces_go_back_and_a_die_put_back_on_the_others_place_is_named(table):
    game, referee = new_game(5, table)
    set_up(table, game, referee)
    _pair, (a, b) = pair_and_other(game)
    table.turn_over(a)
    assert [c.decision for c in calls(referee.observe(table.read()))] == ["flipped"]
    table.turn_over(b)
    second = calls(referee.observe(table.read()))
    assert second and "two different symbols" in second[0].reason and game.current_players() == (1,)
    assert referee.observe(table.read()) == [] and "turn the die at" in referee.prompt()
    # Turned back, but each on the other's place.
    table.turn_over(a)
    table.turn_over(b)
    right = dict(table.square)
    table.square[a] = dataclasses.replace(right[b], x_mm=right[a].x_mm, y_mm=right[a].y_mm)
    table.square[b] = dataclasses.replace(right[a], x_mm=right[b].x_mm, y_mm=right[b].y_mm)
    if game.book.kind(game.top[a]) != game.book.kind(game.top[b]):
        assert referee.observe(table.read()) == []
        assert "on each other's places" in referee.prompt()
    table.square = right
    assert referee.observe(table.read()) == [] and referee.prompt().startswith("player 1: turn over a die")
    assert len(game.history) == 11


def test_a_die_touched_and_not_turned_over_is_said_and_nothing_is_called(table):
    game, referee = new_game(5, table)
    set_up(table, game, referee)
    table.nudge(4)
    assert referee.observe(table.read()) == []
    assert "touched but not turned over" in referee.prompt()
    before = len(game.history)
    table.turn_over(4)      # the touched die is turned over: that is the flip
    assert [c.decision for c in calls(referee.observe(table.read()))] == ["flipped"]
    assert game.history[before:] == [(0, Flip(4))]


def test_a_pair_wins_the_die_taken_and_the_other_must_be_rolled(table):
    seed = next(s for s in range(1, 60) if pair_and_other(_rolled(MemodixeGame({"players": 2}, seed=s)))[0])
    game, referee = new_game(seed, table)
    table.fill_reserve([(game.die_names[d], game.book.dice[game.die_names[d]][k]) for k, d in enumerate(game.reserve)])
    set_up(table, game, referee)
    (a, b), _ = pair_and_other(game)
    table.turn_over(a)
    table.turn_over(b)
    both = calls(referee.observe(table.read()))
    assert [a for c in both for a in c.actions][:2] == [(0, Flip(a)), (0, Flip(b))]
    if game.queue[0][0] != "take":
        pytest.skip("this pair's power does not let the player win a die")
    kept = table.square[b]
    del table.square[a]
    result = calls(referee.observe(table.read()))
    assert result and game.history[-1] == (0, Take(a)), referee.prompt()
    assert "roll the die of" in referee.prompt()
    # Put back exactly as it lay, face and turn: not rolled, asked.
    asked = referee.observe(table.read())
    assert asked == [] or isinstance(asked[0], Question)
    table.square[b] = dataclasses.replace(kept, x_mm=kept.x_mm + 1.0)
    asked = referee.observe(table.read())
    assert len(asked) == 1 and isinstance(asked[0], Question) and asked[0].choices == (ROLLED, NOT_ROLLED)
    assert referee.answer(asked[0].question_id, NOT_ROLLED) == [] and "roll the die at" in referee.prompt()
    face = game.queue[0][5]
    table.lay(b, kept.die, face, angle=(kept.angle_deg + 40.0) % 90)
    rolled = calls(referee.observe(table.read()))
    assert rolled and (CHANCE, Roll(face)) in rolled[0].actions
    # The refill: a reserve die laid on the free place as it lay in the reserve was not rolled.
    step = game.queue[0]
    assert step[0] == "roll" and step[4] == "refill" and step[2] == a
    assert f"draw die {game.die_names[step[3]]} from the reserve" in referee.prompt()
    drawn = table.reserve.pop(0)
    table.square[a] = dataclasses.replace(drawn, x_mm=place_centre(table.layout, a)[0],
                                          y_mm=place_centre(table.layout, a)[1])
    asked = referee.observe(table.read())
    assert len(asked) == 1 and isinstance(asked[0], Question) and "rolled" in asked[0].text
    answered = calls(referee.answer(asked[0].question_id, ROLLED))
    assert answered and (CHANCE, Roll(drawn.top)) in answered[0].actions


def _rolled(game: MemodixeGame) -> MemodixeGame:
    while game.queue[0][0] == "roll":
        game.apply(CHANCE, game.seeded_roll())
    return game


def _caller_state(seed: int) -> MemodixeGame | None:
    """A game of 2 where player 0, holding a die, starts a turn (played with its seeded rolls)."""
    rng = random.Random(seed)
    game = _rolled(MemodixeGame({"players": 2}, seed=seed))
    for _ in range(400):
        if game.is_over():
            return None
        step = game.queue[0]
        if step[0] == "turn" and game.can_call(step[1]) and step[1] == 0 and not game.up:
            return game
        player = game.current_players()[0]
        if player == CHANCE:
            game.apply(CHANCE, game.seeded_roll())
            continue
        legal = [a for a in game.legal_actions(player) if not isinstance(a, CallDixe)]
        game.apply(player, rng.choice(legal))
    return None


@pytest.mark.parametrize("want_pair", [True, False])
def test_dixe_is_checked_at_once_from_the_still_square_and_says_why(table, want_pair):
    found = None
    for seed in range(1, 400):
        game = _caller_state(seed)
        if game is not None and game.pair_left() == want_pair:
            found = game
            break
    assert found is not None
    game = found
    referee = MemodixeReferee(game, RefereeConfig(), table.layouts)
    table.lay_game(game)
    assert calls(referee.observe(table.read())) == []
    verdict, pair, _why = referee.dixe_check()
    assert verdict == ("wrong" if want_pair else "right")
    if want_pair:
        a, b = pair
        assert game.book.kind(game.bottom[a]) == game.book.kind(game.bottom[b])
    call = referee.player_action(0, CallDixe())
    assert call.decision == "dixe" and call.confidence == 1.0
    assert "checked by the camera without turning anything over" in call.reason
    assert ("a pair is left" in call.reason) == want_pair and ("no pair is left" in call.reason) != want_pair


def test_dixe_is_not_judged_on_a_square_the_camera_doubts(table):
    game = next(g for g in (_caller_state(s) for s in range(1, 200)) if g is not None)
    referee = MemodixeReferee(game, RefereeConfig(), table.layouts)
    table.lay_game(game)
    hand = Hand(*place_centre(table.layout, 4), arm_angle_deg=90.0, height_mm=60.0)
    referee.observe(table.read(hands=(hand,)))
    with pytest.raises(RefereeError, match="cannot check"):
        referee.player_action(0, CallDixe())
    assert not any(isinstance(a, CallDixe) for _p, a in game.history)


@pytest.mark.parametrize("trouble", ["hand", "stacked", "between", "unknown"])
def test_bad_input_gets_a_wait_or_a_question_never_a_call(table, trouble):
    game, referee = new_game(7, table)
    set_up(table, game, referee)
    before = len(game.history)
    hands: tuple = ()
    extra: tuple = ()
    if trouble == "hand":
        hands = (Hand(*place_centre(table.layout, 4), arm_angle_deg=0.0, height_mm=60.0),)
    elif trouble == "stacked":
        # A die on another, where the camera sees it two dice high (right above the camera, one die and
        # two stacked look alike: docs/table-camera.md).
        p = table.square[8]
        extra = (Placed(p.die, game.book.opposite(p.die, p.top), p.x_mm, p.y_mm, p.angle_deg, level=2),)
    elif trouble == "between":
        x, y = place_centre(table.layout, 0)
        table.square[0] = dataclasses.replace(table.square[0], x_mm=x + 40.0, y_mm=y)
    else:
        p = table.square[2]
        table.square[2] = Placed("plain", 5, p.x_mm, p.y_mm, p.angle_deg)
    results = referee.observe(table.read(hands, extra))
    assert not calls(results) and len(game.history) == before
    assert all(isinstance(r, Question) for r in results)
    assert results or referee.prompt() != "player 0: turn over a die, or cry « DiXe ! » on the page"


@pytest.mark.parametrize("lay", [119, 555, 560])
def test_a_die_on_another_measured_half_way_up_is_no_flip(camera, lay):
    """Laid so, a die on another at c3 is measured some 1.5 dice high, give or take 3 mm: no surer one
    die than two, so the game waits rather than call the upper die's face a flip."""
    camera.reset(seed=lay)
    game, referee = new_game(7, camera)
    set_up(camera, game, referee)
    before = len(game.history)
    p = camera.square[8]
    on_top = Placed(p.die, game.book.opposite(p.die, p.top), p.x_mm, p.y_mm, p.angle_deg, level=2)
    reading = camera.read((), (on_top,))
    assert reading.places[8] is not None and not reading.places[8].flat
    assert not calls(referee.observe(reading)) and len(game.history) == before
    assert "does not lie flat" in referee.prompt()


def test_the_registry_declares_the_camera_game_on_its_mat():
    spec = game_spec("memodixe")
    assert spec.plays_on("camera") and spec.plays_on("phones") and spec.mat == "memodixe"
    assert spec.mode_options["camera"] == {"mode": "chacun-pour-soi"}
    assert spec.load_table().ANNOUNCED >= {"dixe", "take", "peek", "skip"}


def test_the_table_session_stores_calls_and_its_public_state_holds_no_hidden_face(table, tmp_path):
    from controller.service.config import PlayerConfig
    from controller.service.store import GameStore
    from controller.service.table import TableSession, TableSetup

    store = GameStore(tmp_path / "table.db")
    setup = TableSetup([PlayerConfig("Ada"), PlayerConfig("Brice")], {"players": 2}, 5, game="memodixe")
    session = TableSession(setup, store, table.layout, table.watcher)
    session.start_new()
    game = session.game
    table.play_rolls(game)
    table.settle(session.feed)
    assert len(game.history) == 9
    table.turn_over(3)
    table.settle(session.feed)
    assert game.history[-1] == (0, Flip(3))
    state = json.loads(json.dumps(session.public_state()))
    text = json.dumps(state)
    assert "bottom" not in text and "opposite" not in text
    seen = state["seen"]["places"]
    for place in range(9):
        shows = game.bottom[place] if place in game.up else game.top[place]
        assert seen[place]["kind"] == game.book.kind(shows)
    with store:
        stored = store.games()[-1]
        assert len(store.actions(stored.id)) == 10
    store.close()


def test_bitbox_play_referees_a_recorded_table(tmp_path, monkeypatch, capsys):
    """`bitbox play memodixe --source FOLDER`: the registry's own camera reader, the taught faces and the
    calibrated mat from the state folder, a recording's frames through the table service into its log."""
    import cv2

    from controller.cli import main
    from controller.service.store import GameStore

    monkeypatch.setenv("BITBOX_STATE_DIR", str(tmp_path / "state"))
    table = SquareTable(seed=3)
    table.profile.save()
    table.library.save()
    shadow = MemodixeGame({"players": 2, "mode": "chacun-pour-soi"}, seed=9)
    frames: list[np.ndarray] = []

    def record(image: np.ndarray, _t: float) -> None:
        frames.append(image)

    table.play_rolls(shadow)
    _rolled(shadow)
    table.settle(lambda f, t: record(f, t) or (True if len(frames) > 12 else None))
    _pair, (a, _b) = pair_and_other(shadow)
    table.turn_over(a)
    shadow.apply(0, Flip(a))
    table.settle(lambda f, t: record(f, t) or (True if len(frames) > 26 else None), hand_at=place_centre(table.layout, a))
    folder = tmp_path / "recording"
    folder.mkdir()
    for i, image in enumerate(frames):
        cv2.imwrite(str(folder / f"{i:04d}.png"), image)
    db = tmp_path / "service.db"
    code = main(["play", "memodixe", "--source", str(folder), "--no-web", "--new", "--db", str(db), "--seed", "9",
                 "--players", "2", "--name", "Ada", "--name", "Brice"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "Ada flips the die at" in out
    with GameStore(db) as store:
        stored = store.games()[-1]
        assert stored.options["mode"] == "chacun-pour-soi"
        assert [tuple(x) for x in store.actions(stored.id)] == [
            (player, MemodixeGame.encode_action(action)) for player, action in shadow.history]


def test_bitbox_mat_prints_the_square_the_reserve_and_the_markers(tmp_path):
    import subprocess
    import sys

    from controller.paths import PROJECT_ROOT
    from controller.vision.mat import load_layout
    from controller.vision.matprint import marker_positions_in_png

    result = subprocess.run([sys.executable, "-m", "controller", "mat", "memodixe", "--out", str(tmp_path),
                             "--dpi", "100"], check=False, capture_output=True, text=True, cwd=PROJECT_ROOT, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "MémoDiXe mat, 360 x 440 mm" in result.stdout
    layout = load_layout("memodixe")
    assert {z.kind for z in layout.zones} == {"grid", "reserve"}
    found = marker_positions_in_png(tmp_path / "memodixe-mat.png", layout)
    assert sorted(found) == [m.marker_id for m in layout.markers]


def test_oni_contre_tous_is_not_refereed_by_the_camera_and_overruling_says_what_to_do_instead(table):
    game = MemodixeGame({"players": 4, "mode": "oni-contre-tous"}, seed=3)
    referee = MemodixeReferee(game, RefereeConfig(), table.layouts)
    table.play_rolls(game)
    assert referee.observe(table.read()) == [] and game.history == []
    assert "play « Oni contre tous » on the phones" in referee.prompt()
    with pytest.raises(RefereeError, match="put the dice as the game has them"):
        referee.overrule(1, "anything")


def test_a_secret_peek_reaches_no_public_call_and_the_die_peeked_at_may_be_lifted(table):
    from controller.engines.memodixe import Peek
    from controller.games.memodixe.table import MemodixeTable

    seed = next(s for s in range(1, 60) if pair_and_other(_rolled(MemodixeGame({"players": 2}, seed=s)))[0])
    probe = _rolled(MemodixeGame({"players": 2}, seed=seed))
    (a, b), _ = pair_and_other(probe)
    kind = probe.book.kind(probe.bottom[a])
    game = MemodixeGame({"players": 2, "powers": [[kind, "peek"]]}, seed=seed)
    referee = MemodixeReferee(game, RefereeConfig(), table.layouts)
    set_up(table, game, referee)
    table.turn_over(a)
    table.turn_over(b)
    referee.observe(table.read())
    assert game.queue[0][0] == "peek"
    peeked = next(p for p in range(9) if p not in (a, b))
    call = referee.player_action(0, Peek(peeked))
    stored = MemodixeTable().call_json(call, MemodixeGame)
    assert stored["events"] and all("audience" not in e["data"] for e in stored["events"])
    assert any(e.data.get("audience") == [0] for e in call.events)     # the engine told seat 0 alone
    table.nudge(peeked)                                                   # lifted, looked at, put back
    referee.observe(table.read())
    assert "touched" not in referee.prompt()


def _pair_before_last(game: MemodixeGame) -> bool:
    """Whether two of the usable places before the last hide faces that pair."""
    kinds = [game.book.kind(game.bottom[p]) for p in game.usable()[:-1]]
    return len(set(kinds)) < len(kinds)


@pytest.mark.parametrize("pair_before", [True, False])
def test_an_unsure_dixe_check_tells_nothing_of_where_a_pair_lies(table, pair_before):
    """The last die is tipped onto a side, a face the game does not have there: the check is unsure and
    names that die, the same words whether or not a pair hides among the dice before it."""
    game = next(g for g in (_caller_state(s) for s in range(1, 400))
                if g is not None and _pair_before_last(g) == pair_before)
    referee = MemodixeReferee(game, RefereeConfig(), table.layouts)
    table.lay_game(game)
    last = game.usable()[-1]
    lying = table.square[last]
    side = next(f for f in game.book.dice[lying.die] if f not in (lying.top, game.book.opposite(lying.die, lying.top)))
    table.square[last] = dataclasses.replace(lying, top=side)       # tipped onto a side: not what the game has
    assert calls(referee.observe(table.read())) == []
    verdict, pair, why = referee.dixe_check()
    assert (verdict, pair) == ("unsure", None)
    assert i18n.said(why, i18n.SOURCE_LANGUAGE) == (f"the die at {place_label(last)} does not show what the game "
                                                     "has there")
    with pytest.raises(RefereeError, match=f"cannot check .*{place_label(last)}"):
        referee.player_action(0, CallDixe())
    assert not any(isinstance(a, CallDixe) for _p, a in game.history)


@pytest.mark.parametrize("step", ["turn", "second"])
def test_a_die_tipped_onto_a_side_was_touched_and_teaches_the_camera_nothing(table, step):
    game = MemodixeGame({"players": 2}, seed=5)
    referee = MemodixeReferee(game, RefereeConfig(), table.layouts, save=True)
    set_up(table, game, referee)
    if step == "second":
        table.turn_over(0)
        assert [c.decision for c in calls(referee.observe(table.read()))] == ["flipped"]
        (state_dir() / LEARNT_FILE).unlink()
    assert game.queue[0][0] == step
    place = 4
    lying = table.square[place]
    under = game.book.opposite(lying.die, lying.top)
    others = {game.book.kind(game.top[q]) for q in range(9) if q != place}
    side = next(f for f in game.book.dice[lying.die]
                if f not in (lying.top, under) and game.book.kind(f) not in others)
    known = {die: dict(pairs) for die, pairs in table.layouts.opposites.items()}
    seen = dict(table.layouts.seen)
    before = len(game.history)
    table.square[place] = dataclasses.replace(lying, top=side)
    for _ in range(2):      # the same still square, read again: still no flip
        assert calls(referee.observe(table.read())) == []
        assert f"the die at {place_label(place)} was tipped onto a side: it was touched but not turned over" in (
            referee.prompt())
    assert len(game.history) == before
    assert table.layouts.opposites == known and table.layouts.seen == seen and table.layouts.disagreements == []
    assert not (state_dir() / LEARNT_FILE).exists()
    table.square[place] = lying
    table.turn_over(place)
    assert [c.decision for c in calls(referee.observe(table.read()))] == ["flipped"]
    assert game.history[before:] == [(0, Flip(place))]
    assert table.layouts.seen[(lying.die, lying.top)] == under and table.layouts.disagreements == []
    kept = json.loads((state_dir() / LEARNT_FILE).read_text(encoding="utf-8"))["seen"]
    assert [lying.die, lying.top, under] in kept and [lying.die, lying.top, side] not in kept


def test_a_flip_the_layout_cannot_place_is_called_then_learnt(table):
    """A die whose layout does not know what hides under its top: the face a flip shows is taken as
    turned over, and learnt with the call."""
    game = MemodixeGame({"players": 2}, seed=5)
    referee = MemodixeReferee(game, RefereeConfig(), table.layouts)
    set_up(table, game, referee)
    place = 4
    lying = table.square[place]
    under = game.book.opposite(lying.die, lying.top)
    for face in (lying.top, under):
        del table.layouts.opposites[lying.die][face]
    table.turn_over(place)
    assert [c.decision for c in calls(referee.observe(table.read()))] == ["flipped"]
    assert game.history[-1] == (0, Flip(place))
    assert table.layouts.opposite(lying.die, lying.top) == under
    assert table.layouts.opposite(lying.die, under) == lying.top
