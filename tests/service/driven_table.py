"""The demo PuXes table played moment by moment through a real table session and a real SQLite
file, for tests that look at the session between moments."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from controller import i18n
from controller.referee.demo.camera import FPS
from controller.referee.puxes_demo import differences
from controller.service.hub import Hub
from controller.service.store import GameStore
from controller.service.table import TableSession
from controller.games.puxes.demo import DemoTable
from controller.referee.common import RefereeConfig


class Driven:
    """The demo table played moment by moment through a real session, the players answering the
    referee's questions themselves, so a test can look (or break the log) between moments."""

    def __init__(self, tmp: Path, seed: int = 3, names: list[str] | None = None, hub: Hub | None = None,
                 referee: RefereeConfig | None = None) -> None:
        self.db = tmp / "table.db"
        self.demo = DemoTable(seed=seed, max_turns=1, referee=referee)
        self.store = GameStore(self.db)
        self.session = TableSession(self.demo.setup(names), self.store, self.demo.layout, self.demo.watcher, hub)
        self.session.start_new()
        self.clock = 0.0
        self.moments = iter(self.demo.table.play(1))

    def show(self) -> tuple[Any, Any]:
        """The next moment: the players' told choices, then frames until the table is still (the
        session referees that snapshot). Returns the moment and its still snapshot."""
        tr = next(self.moments)
        for player, action in tr.told:
            self.session.player_action(player, action)
        snap = None
        for frame in self.demo.camera.frames(tr.before, tr.after, tr.player, tr.reach_over):
            self.clock += 1.0 / FPS
            snap = self.session.feed(frame, self.clock)
            if snap is not None:
                break
        assert snap is not None, f"the table never came to rest at {i18n.said(tr.label, 'en')}"
        return tr, snap

    def answer(self, snap: Any, tr: Any) -> None:
        referee = self.session.referee
        for _ in range(60):
            if not referee.questions:
                return
            question = next(iter(referee.questions.values()))
            self.session.answer(question.question_id, self.demo.people.answer(question, referee, snap, tr)[0])

    def agrees(self) -> list[Any]:
        return differences(self.session.referee.game, self.demo.table.game)

    def finish(self) -> None:
        """Play the rest of the turn; the referee must follow the table all the way."""
        while True:
            try:
                tr, snap = self.show()
            except StopIteration:
                return
            self.answer(snap, tr)
            assert self.agrees() == [], i18n.said(tr.label, "en")

    def close(self) -> None:
        self.store.close()
