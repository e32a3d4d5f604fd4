"""``bitbox demo puxes``: a PuXes game played by bots on a simulated table, refereed through the
real table service.

Frames rendered from a seeded game that bots play on a simulated table are the camera: they go
through the same path as a real table (the camera pipeline, the referee, the event log, the
dashboard's Table page), and the players at that simulated table answer the referee's questions
from what is really there.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from controller import i18n
from controller.games.spec import DemoRequest, SpecError
from controller.i18n import N_, _
from controller.referee.common import RefereeConfig
from controller.service.table import TableSession, TableSetup
from controller.service.table_runner import TableRun, run_table_service

#: The demo's players, by seat.
DEMO_NAMES = ("Ada", "Brice")


class DemoTable:
    """A seeded PuXes game played by bots on a simulated table, shown to the session as camera frames.

    Built on the demo table of :mod:`controller.referee.puxes_demo`: the same scripted table, the
    same rendered camera (its calibrated mat profile and taught faces), and the same players, who
    answer the referee's questions with what is really on the table. What changes is the path:
    every frame goes through :meth:`TableSession.feed`, every answer and player's choice through
    the session's commands, so the event log, the dashboard and the terminal see a real game.
    """

    def __init__(self, seed: int = 1, max_turns: int | None = None, pace: float = 0.0,
                 image_size: tuple[int, int] = (1280, 720), players_answer: bool = True,
                 referee: RefereeConfig | None = None) -> None:
        from controller.referee.demo.camera import TableCamera
        from controller.referee.demo.table import ScriptedTable
        from controller.referee.puxes_demo import Players

        self.seed = seed
        self.max_turns = max_turns
        self.pace = pace
        self.table = ScriptedTable({"players": 2}, seed=seed)
        truth = self.table.game
        self.camera = TableCamera(truth.collection, {d.name for d in truth.dice.values()},
                                  image_size=image_size, seed=seed)
        self.people = Players(self.table)
        self.layout = self.camera.layout
        self.watcher = self.camera.watcher
        self.moments = 0
        self.differences: list[Mapping[str, Any]] = []
        #: Where the referee's game first differed from the table, as a message (``None``: never).
        self.first_difference: Mapping[str, Any] | None = None
        self._session: TableSession | None = None
        self.answers = 0
        #: False: questions wait for an answer from the dashboard (or the API) instead of the players'.
        self.players_answer = players_answer
        #: How cautious the referee is (the table's default settings unless given).
        self.referee = referee or RefereeConfig()
        self._moment: tuple[Any, Any] = (None, None)

    def suggested_answer(self, question: Any) -> str:
        """What the players at the simulated table would answer to ``question`` now."""
        snap, tr = self._moment
        referee = self._session.referee if self._session is not None else None
        return self.people.answer(question, referee, snap, tr)[0]

    def setup(self, names: list[str] | None = None) -> TableSetup:
        from controller.service.config import PlayerConfig

        names = names or list(DEMO_NAMES)
        self.table.game.name_seats(names[: self.table.game.num_players])
        return TableSetup([PlayerConfig(n, bot=True) for n in names], {"players": 2}, self.seed, self.referee,
                          game="puxes")

    def __call__(self, session: TableSession) -> None:
        from controller.referee.demo.camera import FPS
        from controller.referee.puxes_demo import differences, divergence_words

        clock = 0.0
        self._session = session
        for tr in self.table.play(self.max_turns):
            if session.stopping or session.status != "playing":
                break
            session.step()
            for player, action in tr.told:
                session.player_action(player, action)
            snap = None
            for frame in self.camera.frames(tr.before, tr.after, tr.player, tr.reach_over):
                clock += 1.0 / FPS
                snap = session.feed(frame, clock)
                if snap is not None:
                    break
            referee = session.referee
            assert referee is not None
            self._moment = (snap, tr)
            while not self.players_answer and referee.questions and session.status == "playing" \
                    and not session.stopping:
                session.step()
                time.sleep(0.01)
            for _ in range(60):
                open_questions = list(referee.questions.values())
                if not open_questions or session.status != "playing":
                    break
                question = open_questions[0]
                choice, _kind = self.people.answer(question, referee, snap, tr)
                if self.pace:
                    session.step()
                    time.sleep(self.pace)
                answered = session.command("answer", {"question_id": question.question_id, "choice": choice})
                session.step()
                answered.result(timeout=0)
                self.answers += 1
            self.moments += 1
            self.differences = differences(referee.game, self.table.game)
            if self.differences and self.first_difference is None:
                self.first_difference = divergence_words(tr.turn, tr.label, self.differences)
            session.step()
            if self.pace:
                time.sleep(self.pace)


def run_demo(request: DemoRequest) -> int:
    """Play the rendered game through the table service and print how the referee did."""
    config = request.config
    if request.players not in (None, 2) or request.options:
        raise SpecError(_("the PuXes demo is a 2-player game on the printed mat: leave out --players and game options"))
    print(_("Setting up the simulated table (calibrating the rendered mat, teaching the faces)..."), flush=True)
    demo = DemoTable(seed=request.seed, max_turns=request.max_turns, pace=0.6 * request.pace)
    run = TableRun(start="new", keep_serving=request.keep_serving, token=request.token,
                   port_fallback=request.port_fallback)
    names = list(request.names or DEMO_NAMES)[:2]
    session = run_table_service(config, demo.setup(names), demo.layout, demo.watcher, demo, run)
    game = session.game
    turns = game.turn_number if game is not None else 0
    ms = 1000.0 * session.frame_s / max(1, session.frames)
    print(_("{frames} frames, {moments} still moments, {ms} ms per frame through the live loop; {questions} questions "
            "({per_turn} per turn).").format(frames=session.frames, moments=session.snapshots, ms=f"{ms:.1f}",
                                             questions=session.questions_asked,
                                             per_turn=f"{session.questions_asked / max(1, turns):.2f}"))
    if demo.first_difference is None:
        print(_("The referee's game matches what happened on the table."))
    else:
        print(i18n.say(N_("The referee's game first differed from the table at {difference}."),
                       difference=demo.first_difference))
    return 0
