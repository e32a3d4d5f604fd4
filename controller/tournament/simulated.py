"""Simulated tables: bots in every seat and a referee who taps *New game* as soon as a pairing comes.

Each :class:`SimulatedTable` is a real table without its hardware: the game loop of a game played
on phones (or on the wheels, bots acting without controllers), its own event log, and the real
:class:`~controller.tournament.table.TableLink` to the broker, in a thread of its own. The demo,
the tests and the bench run tournaments on them.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from controller.games import GameSpec, games
from controller.service.config import PlayerConfig, ServiceConfig
from controller.service.hub import Hub
from controller.service.store import GameStore
from controller.tournament.table import TableLink, join


def bot_games() -> list[GameSpec]:
    """The registered games bots can play at a simulated table (on phones first, then on the wheels)."""
    phones = [s for s in games() if s.bot and s.plays_on("phones")]
    wheels = [s for s in games() if s.bot and s.plays_on("wheels") and s not in phones]
    return phones + wheels


class SimulatedTable:
    """One table played by bots (see the module's docstring)."""

    def __init__(self, folder: str | Path, spec: GameSpec, table: int, tournament: dict[str, Any],
                 bot_delay: float = 0.0, auto_start: bool = True) -> None:
        self.spec = spec
        self.table = table
        self.mode = "phones" if spec.plays_on("phones") else "wheels"
        seats = spec.players[1]
        self.config = ServiceConfig(game=spec.name, options=spec.options_from({}, None, {}), web=False,
                                    players=[PlayerConfig(f"Bot {seat + 1}", True) for seat in range(seats)],
                                    db=Path(folder) / f"table-{table}.db", bot_delay=bot_delay,
                                    turn_pause=bot_delay, tournament={**tournament, "table": table})
        self.auto_start = auto_start
        self.store: GameStore | None = None
        self.session: Any = None
        self.link: TableLink | None = None
        self._thread: threading.Thread | None = None
        self.error: BaseException | None = None

    def start(self) -> SimulatedTable:
        self.store = GameStore(self.config.db_path())
        hub = Hub()
        if self.mode == "phones":
            from controller.service.choices import ChoiceSession

            self.session = ChoiceSession(self.config, self.store, hub)
        else:
            from controller.service.session import Session

            self.session = Session(self.config, None, self.store, hub)
        stored = self.store.unfinished()
        if stored is not None:
            self.session.resume(stored)
        self.session.publish()
        self.link = join(self.session, self.config)
        if self.auto_start:
            self.link.on_pairing.append(self.tap_start)
        self._thread = threading.Thread(target=self._run, name=f"table-{self.table}", daemon=True)
        self._thread.start()
        return self

    def tap_start(self, pairing: dict[str, Any] | None = None) -> None:
        """The referee taps *New game* (the pairing was handed to the loop just before)."""
        self.session.command("start", {"replace": True})

    def _run(self) -> None:
        try:
            self.session.run(until_over=False, tick=0.02)
        except BaseException as exc:  # noqa: BLE001 - reported to whoever runs the table
            self.error = exc

    def stop(self) -> None:
        """Stop the loop, say the table is offline, close the log; idempotent."""
        if self.session is not None:
            self.session.stop()
        if self._thread is not None:
            self._thread.join(10)
        if self.link is not None:
            self.link.close()
        if self.store is not None:
            self.store.close()
        self.store, self.link, self._thread = None, None, None
