"""Bad input refused clearly, sentences said from the catalogue, hidden information, saves and the drawing."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from controller import i18n
from controller.engines import CHANCE, RandomBot, RuleError, load_game, play_out
from controller.engines.praxis import Discard, Keep, Move, PraxisGame, Put, Roll, TakeOff
from controller.engines.praxis import words
from controller.engines.praxis.game import STEP_NAMES
from praxis_scenarios import arrange, c

ENGINE = Path(__file__).resolve().parents[3] / "controller" / "engines" / "praxis"
ALONE = {(0, 0): ("3.5", 1), (1, 0): ("2.3", 1)}


def random_game(seed: int, steps: int = 10_000, players: int = 2, layout: str = "rectangle") -> tuple[PraxisGame, list]:
    """A game played at random through the checked path; the events it made."""
    game = PraxisGame({"players": players, "layout": layout}, seed=seed)
    rng = random.Random(seed)
    events = []
    for _ in range(steps):
        if game.is_over():
            break
        player = game.current_players()[0]
        events += game.apply(player, rng.choice(game.legal_actions(player)))
    return game, events


# --------------------------------------------------------------------------------------------
# Bad input
# --------------------------------------------------------------------------------------------


def test_an_unknown_artefact_is_refused_naming_the_rule_and_quoting_the_state() -> None:
    """Only the catalogue's artefacts ("Catalogue des artefacts collectionnables") exist."""
    game = arrange(ships=ALONE)
    before = game.dumps()
    with pytest.raises(RuleError) as info:
        game.apply(0, Put("hyperdrive", c("3.6")))
    error = info.value
    assert isinstance(error, ValueError) and error.rule == "unknown-artefact"
    assert "there is no artefact called 'hyperdrive'; the artefacts are plus-one" in error.reason
    assert error.state == game.render() and game.render() in str(error)
    assert error.words["msg"].startswith("there is no artefact called") and error.words["args"]["artefact"] == "'hyperdrive'"
    with pytest.raises(RuleError) as portal:
        game.apply(0, Put("portal", c("3.6")))
    assert portal.value.rule == "unknown-artefact", "a portal is never in a hand"
    game.apply(0, Move(0, c("3.4")))
    game.apply(0, Put("plus-one", c("3.1")))
    assert game.dumps() != before


def test_an_artefact_not_in_hand_is_refused() -> None:
    """"pose un artefact de sa main\""""
    game = arrange(ships=ALONE)
    with pytest.raises(RuleError) as info:
        game.apply(0, Put("black-star", c("3.6")))
    assert info.value.rule == "not-in-hand" and "hand: Plus one, Plus one and Plus one" in str(info.value)


def test_malformed_actions_are_refused_without_changing_anything() -> None:
    game = arrange(ships=ALONE)
    before = game.dumps()
    for action, rule in [
        (Move(2, c("3.4")), "no-such-ship"),
        (Move(True, c("3.4")), "no-such-ship"),
        (Move(0, 99), "no-such-cell"),
        (Move(1, c("3.4")), "ship-in-spaceport"),
        (Put("plus-one", -1), "no-such-cell"),
        (Roll(3), "step"),
        (Discard("plus-one"), "step"),
        (Keep(("plus-one", "virus")), "step"),
        ("move 3.5 3.4", "legal-action"),
    ]:
        with pytest.raises(RuleError) as info:
            game.apply(0, action)
        assert info.value.rule == rule, action
    assert game.dumps() == before


def test_a_wrong_step_says_what_is_awaited() -> None:
    game = arrange(ships=ALONE)
    game.apply(0, Move(0, c("3.4")))
    with pytest.raises(RuleError) as info:
        game.apply(0, TakeOff())
    assert info.value.reason == "seat 0 must now put an artefact next to the ship that arrived; take off is not that"


def test_actions_round_trip_through_json() -> None:
    game, _ = random_game(3)
    for _player, action in game.history:
        assert PraxisGame.decode_action(json.loads(json.dumps(PraxisGame.encode_action(action)))) == action
    with pytest.raises(ValueError, match="grid.cell"):
        PraxisGame.decode_action({"type": "move", "ship": 0, "to": 14})
    with pytest.raises(ValueError, match="unknown Praxis action type"):
        PraxisGame.decode_action({"type": "warp"})


# --------------------------------------------------------------------------------------------
# Words
# --------------------------------------------------------------------------------------------


def test_every_event_text_is_the_english_of_its_message() -> None:
    """Event.text is Event.message said in English, a sentence of the praxis catalogue, so a phone
    can say the same event in its own language; the data keeps the plain details."""
    catalogue = {m.id for m in i18n.template("praxis") if m.id}
    seen = set()
    for seed in range(6):
        _, events = random_game(seed, players=2 + seed % 3)
        for e in events:
            assert e.message is not None and e.message["msg"] in catalogue
            assert e.text == i18n.said(e.message, "en")
            assert "msg" not in e.data and "args" not in e.data
            json.dumps(e.to_json())
            seen.add(e.kind)
    assert {"put", "moved", "activated", "portal-sucked", "game-over", "turn"} <= seen


def test_no_module_writes_a_sentence_of_its_own() -> None:
    """Events are made by Event.said and refusals by RuleError.said, from sentences marked for the
    catalogue: no module builds an Event or a refusal from text it formats itself."""
    for path in ENGINE.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"\bEvent\(", text), f"{path.name} builds an Event without a message"
        assert not re.search(r"Error\(\s*\"[a-z-]+\",\s*f?\"", text), f"{path.name} refuses with a sentence of its own"
        assert not re.search(r'N_\(f"', text), f"{path.name} marks a formatted string"
    assert set(words.EXPECTED) == set(STEP_NAMES)


def test_refusals_carry_their_message() -> None:
    game = arrange(ships=ALONE, cells={"3.6": "minus-one"})
    with pytest.raises(RuleError) as info:
        game.apply(0, Move(0, c("3.6")))
    error = info.value
    assert error.rule == "not-applicable" and error.words["args"]["why"] == {"msg": "the face is already 1", "args": {}}
    assert error.reason == error.in_language("en") == i18n.said(error.words, "en")
    assert "ne doit pas se poser" not in error.reason and "may not land" in error.reason
    assert "ne doit pas se poser" in error.in_language("fr") and "la face est déjà 1" in error.in_language("fr")


# --------------------------------------------------------------------------------------------
# Hidden information
# --------------------------------------------------------------------------------------------


def _shuffled_secrets(game: PraxisGame, observer: int | None, rng: random.Random) -> PraxisGame:
    """A twin that differs only in what ``observer`` may not know: the other hands and the pile's
    order (sizes kept), what others scanned."""
    twin = game.clone()
    hidden = list(twin.pile)
    others = [s for s in range(twin.players) if s != observer]
    for s in others:
        hidden += twin.hands[s]
    if twin.scanned and twin.queue[0][1] != observer:
        hidden += twin.scanned
    rng.shuffle(hidden)
    for s in others:
        n = len(twin.hands[s])
        twin.hands[s], hidden = sorted(hidden[:n]), hidden[n:]
    if twin.scanned and twin.queue[0][1] != observer:
        n = len(twin.scanned)
        twin.scanned, hidden = hidden[:n], hidden[n:]
    twin.pile = hidden
    return twin


def test_a_view_never_shows_another_hand_or_the_pile_order() -> None:
    """"3 artefacts gardés cachés": what a seat sees does not change when the hands it may not see
    and the pile's order change; a spectator sees no hand at all."""
    rng = random.Random(1)
    checked = 0
    for seed in range(4):
        game = PraxisGame({"players": 3}, seed=seed)
        policy = random.Random(seed)
        while not game.is_over() and len(game.history) < 400:
            if len(game.history) % 7 == 0:
                for observer in (0, 1, 2, None):
                    twin = _shuffled_secrets(game, observer, rng)
                    assert json.dumps(twin.view(observer), sort_keys=True) == json.dumps(game.view(observer), sort_keys=True)
                    checked += 1
                assert "hand" not in game.view(None)
            player = game.current_players()[0]
            game.apply(player, policy.choice(game.legal_actions(player)))
    assert checked > 100
    # and the test can fail: a seat's own hand does show
    game = arrange(ships=ALONE)
    twin = game.clone()
    twin.hands[0] = [14, 14, 14]
    assert twin.view(0) != game.view(0)


def test_events_do_not_name_drawn_artefacts() -> None:
    """A draw is announced to the table, so its event says how many, never which."""
    _, events = random_game(5)
    for e in events:
        if e.kind in ("drew", "scanned", "kept"):
            assert "artefact" not in e.data and "artefacts" not in e.data


# --------------------------------------------------------------------------------------------
# Saves and replays
# --------------------------------------------------------------------------------------------


def test_options_seed_and_actions_replay_the_game_exactly() -> None:
    """The same seed and the same actions, the table's rolls among them, give the same game."""
    for seed in range(3):
        game = play_out(PraxisGame({"players": 2 + seed}, seed=seed), RandomBot(seed), checked=True)
        again = load_game(game.dumps())
        assert again == game and again.render() == game.render() and again.scores() == game.scores()
        assert any(player == CHANCE for player, _ in game.history)


def test_every_test_the_rulings_cite_exists() -> None:
    """docs/rulings/praxis.md names, for each ruling, the test that holds the engine to it."""
    doc = (ENGINE.parents[2] / "docs" / "rulings" / "praxis.md").read_text(encoding="utf-8")
    cited = set(re.findall(r"`(test_[a-z0-9_]+)`", doc))
    here = Path(__file__).resolve().parent
    defined = set()
    for path in here.glob("test_*.py"):
        defined |= set(re.findall(r"^def (test_[a-z0-9_]+)", path.read_text(encoding="utf-8"), re.M))
    assert cited and cited <= defined, cited - defined


def test_render_draws_the_universe_deterministically_and_hides_hands() -> None:
    game = arrange(ships=ALONE, cells={"3.6": "torpedo"}, hands=[["black-star"] * 2 + ["virus"], ["plus-one"] * 3])
    text = game.render()
    assert text == game.clone().render()
    lines = text.splitlines()
    assert lines[0] == "Praxis (2 players, rectangle universe) - turn 1 - seat 0: main"
    assert lines[1] == "  +--------+--------+    +--------+--------+"
    assert lines[8] == "  |.. A1 Tq|.. .. ..|    |34 35 36|44 45 46|"
    assert "Bk" not in text and "Vi" not in text, "hands are secret"
    assert "A seat 0   0 pts  hand 3" in text
