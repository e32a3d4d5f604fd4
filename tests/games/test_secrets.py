"""Noninterference: nothing anybody else receives before a reveal depends on a player's secret.

For every registered game played on the wheels, the same game is played twice through the real
console loop (simulated controllers, the real event log), the same public moves both times; at the
first secret choice one player dials one option in the first run and another in the second, locks
it, then fidgets with the locked wheels, while another seat turns its own wheels without locking.
Then the referee aborts the game, exports it and takes back a move. Everything the other channels
received from the secret choice on (every public message, in order, the published-message counter,
the stored games' listing, the export, the other seats' own channels) must be identical in both runs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from controller.dials.sim_backend import ManualClock, SimBackend
from controller.games import games
from controller.service.config import PlayerConfig, ServiceConfig
from controller.service.hub import Hub
from controller.service.session import Session
from controller.service.store import GameStore

WHEELS_GAMES = [spec for spec in games() if spec.plays_on("wheels")]


class Table:
    """A session on simulated controllers moved by hand, on a clock that moves only when told."""

    def __init__(self, spec: Any, folder: Path) -> None:
        self.spec = spec
        self.clock = ManualClock()
        engine = spec.load_engine()
        seats = spec.seats_default
        options = spec.options_from({}, seats if spec.players_option else None, {})
        probe = spec.load_wheels()(engine(options, seed=5), None)
        self.pieces = [probe.piece_name(p) for p in range(probe.pieces())]
        config = ServiceConfig(game=spec.name, options=options, seed=5, bot_salt=5,
                               players=[PlayerConfig(f"P{i}") for i in range(seats)], backend="sim",
                               pieces=list(self.pieces), bot_delay=0.0, turn_pause=0.0, db=folder / "g.db")
        self.backend = SimBackend(self.pieces, clock=self.clock, poll_thread=False)
        self.backend.start()
        self.backend.advance(0.6)
        self.store = GameStore(config.db_path())
        self.hub = Hub()
        self.public: list[str] = []
        self.hub.add_listener(lambda message: self.public.append(json.dumps(message, sort_keys=True)))
        self.session = Session(config, self.backend, self.store, self.hub, clock=self.clock)
        self.session.start_new()
        self.session.publish()
        self.settle()

    def settle(self, seconds: float = 0.3) -> None:
        for _ in range(int(seconds / 0.05)):
            self.backend.advance(0.05)
            self.session.step(0)

    def turn(self, cid: str, targets: dict[str, int]) -> None:
        for wheel, position in targets.items():
            self.backend.turn(cid, wheel, position)
        self.settle()

    def press(self, cid: str) -> None:
        self.backend.press(cid)
        self.settle(0.15)
        self.backend.release(cid)
        self.settle(0.15)

    def act(self, seat: int, action: Any) -> None:
        play = self.session.play
        cid = self.pieces[play.piece_of(seat, action)]
        self.turn(cid, play.wheel_targets(action))
        self.press(cid)

    def command(self, name: str, payload: dict[str, Any]) -> str:
        future = self.session.command(name, payload)
        self.session.step(0)
        try:
            result = future.result(timeout=5)
            for row in result.get("games", []) if isinstance(result, dict) else []:
                row["created"] = row["finished"] = "(wall clock)"   # when it ran, not what was chosen
            return json.dumps(result, sort_keys=True)
        except Exception as exc:  # noqa: BLE001 - the error text is what a client would read
            return f"{type(exc).__name__}: {exc}"

    def close(self) -> None:
        self.backend.close()
        self.store.close()


def secret_moment(table: Table) -> tuple[int, list[Any]] | None:
    """Play the first legal public moves until a seat must choose in secret while another still has to:
    that seat and its secret options (those the wheels tell apart)."""
    for _ in range(200):
        game, play = table.session.game, table.session.play
        if game.is_over():
            return None
        players = game.current_players()
        for seat in players:
            options = [a for a in game.legal_actions(seat) if play.locks(seat, a) is not None]
            distinct = {json.dumps(play.wheel_targets(a), sort_keys=True): a for a in options}
            if len(players) >= 2 and len(distinct) >= 2:
                return seat, list(distinct.values())
        seat = players[0]
        before = len(game.history)
        table.act(seat, game.legal_actions(seat)[0])
        assert len(table.session.game.history) > before, f"{table.spec.name}: a public move did not go through"
    return None


@pytest.mark.parametrize("spec", WHEELS_GAMES, ids=[s.name for s in WHEELS_GAMES])
def test_a_game_whose_players_choose_in_secret_declares_it(spec: Any, tmp_path: Path) -> None:
    """Its declaration says what the secret is (the test below holds the service to it)."""
    table = Table(spec, tmp_path)
    try:
        chooses_in_secret = secret_moment(table) is not None
    finally:
        table.close()
    assert chooses_in_secret == bool(spec.secrets), (
        f"{spec.name}: its players {'do' if chooses_in_secret else 'do not'} choose in secret, "
        f"but its declaration lists {'no' if not spec.secrets else 'these'} secrets {spec.secrets}")


def observe(spec: Any, folder: Path, pick: int) -> dict[str, Any]:
    table = Table(spec, folder)
    try:
        found = secret_moment(table)
        if found is None:
            pytest.skip(f"{spec.name} has no secret choice with two options its wheels tell apart")
        seat, options = found
        start = len(table.public)
        action = options[pick]
        play = table.session.play
        cid = table.pieces[play.piece_of(seat, action)]
        table.act(seat, action)
        assert play.locks(seat, action) in table.session.locked, "the secret choice was not locked"
        # the locked seat fidgets; another seat still choosing turns its wheels without locking
        table.turn(cid, {wheel: 0 for wheel in play.wheel_targets(action)})
        others = [s for s in table.session.game.current_players() if s != seat]
        other_cid = None
        if others:
            other_action = table.session.game.legal_actions(others[0])[-1]
            other_cid = table.pieces[play.piece_of(others[0], other_action)]
            table.turn(other_cid, play.wheel_targets(other_action))
        seen = {
            "public": table.public[start:],
            "published": table.hub.seq,
            "games": table.command("games", {}),
            "others": {c: table.session.seat_hubs[c].latest["seat"] for c in table.pieces if c != cid},
        }
        seen["abort"] = table.command("abort", {})
        seen["export"] = table.command("export", {"game_id": table.session.game_id})
        seen["undo"] = table.command("undo", {"count": 1})
        seen["after"] = table.public[start:]
        seen["export_after_undo"] = table.command("export", {"game_id": table.session.game_id})
        return seen
    finally:
        table.close()


@pytest.mark.parametrize("spec", WHEELS_GAMES, ids=[s.name for s in WHEELS_GAMES])
def test_nothing_others_receive_depends_on_a_secret_before_its_reveal(spec: Any, tmp_path: Path) -> None:
    first = observe(spec, tmp_path / "first", 0)
    second = observe(spec, tmp_path / "second", -1)
    for channel in first:
        assert first[channel] == second[channel], f"{spec.name}: the {channel} channel tells the two secrets apart"
    assert first["public"], "the runs published nothing at all: the test saw no channel"
