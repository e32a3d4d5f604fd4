"""Watch a refereed PuXes game without a table: bots play on a simulated table, the real camera
pipeline watches rendered frames of it, and the real referee judges what it sees.

The scripted table (:mod:`controller.referee.demo.table`) plays a seeded game and knows the truth.
Every change of the table is drawn as frames (:mod:`controller.referee.demo.camera`): a hand moving
dice, then the still table. The frames go through :class:`~controller.vision.pipeline.TableWatcher`
(stillness, dice, faces, tracking, temples) into :class:`~controller.referee.puxes.PuxesReferee`.
The players at the table answer the referee's questions with what they see, and tell it the
choices a camera cannot see (a power, ending a turn). After every still moment the referee's game
is compared with the true one.

    >>> result = run_demo(seed=3, max_turns=2)            # doctest: +SKIP
    >>> result.agreed, result.questions                   # doctest: +SKIP

From a shell: ``python -m controller.referee.puxes_demo --seed 3``.
"""

from __future__ import annotations

import argparse
import collections
import copy
import dataclasses
import math
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from controller import i18n
from controller.engines.puxes import PuxesGame, words
from controller.engines.puxes.actions import Outcome, Wake
from controller.i18n import N_, _, message
from controller.referee.common import Call, Question, RefereeConfig
from controller.referee.demo.camera import TableCamera
from controller.referee.demo.table import Body, ScriptedTable, Transition
from controller.referee.puxes import PuxesReferee, face_slug, headline
from controller.vision.snapshot import TableSnapshot

#: How far (mm) the referee's idea of an oracle's place may be from the truth.
POSITION_TOLERANCE_MM = 6.0

#: The players at the demo's table, by seat.
NAMES = ("Ada", "Brice")


@dataclasses.dataclass
class Asked:
    """A question the referee asked and what the players answered."""

    question: Question
    answer: str
    kind: str


@dataclasses.dataclass
class DemoStep:
    """One still moment of the table: what happened, what the referee called and asked, and
    whether its game still matched the truth afterwards."""

    index: int
    turn: int
    label: Mapping[str, Any]
    calls: list[Call]
    asked: list[Asked]
    truth_decision: str | None
    differences: list[Mapping[str, Any]]
    frames: int

    def lines(self, lang: str | None = None) -> list[str]:
        """The step as text in ``lang`` (default: the process's): the change, each call with its
        reason, each question and the players' answer."""
        def say(value: Any) -> str:
            return i18n.said(value, lang)

        out = [say(message(N_("[turn {turn}] {what}"), turn=self.turn, what=self.label))]
        for a in self.asked:
            answer = a.question.choice_messages[a.question.choices.index(a.answer)] \
                if a.answer in a.question.choices and a.question.choice_messages else a.answer
            out.append("    ? " + say(message(N_("{question} ({why}) Answer: {answer}."), question=_said(a.question),
                                              why=a.question.reason_message or a.question.reason, answer=answer)))
        for c in self.calls:
            out.append("    = " + say(c.message if c.message is not None else c.reason))
        if self.truth_decision and not any(c.decision == self.truth_decision for c in self.calls):
            out.append("    ! " + say(message(N_("The true game decided otherwise ({decision})."),
                                              decision=self.truth_decision)))
        for d in self.differences:
            out.append("    ! " + say(message(N_("The referee's game differs from the truth: {difference}."),
                                              difference=d)))
        return out


@dataclasses.dataclass
class DemoResult:
    """The figures of one demo game."""

    seed: int
    players: int
    turns: int
    steps: list[DemoStep]
    calls: int
    calls_matched: int
    questions: int
    questions_by_kind: dict[str, int]
    frames: int
    snapshots: int
    wall_s: float
    render_s: float
    vision_s: float
    truth_over: bool
    truth_winners: tuple[int, ...]
    referee_winners: tuple[int, ...]
    divergence: Mapping[str, Any] | None     # the first difference from the truth, or None
    names: tuple[str, ...] = NAMES
    missed: int = 0                          # calls of the true game after the divergence the referee did not make

    @property
    def agreed(self) -> bool:
        """Whether the referee's game matched the true game at every still moment to the end."""
        return self.divergence is None

    @property
    def ms_per_frame(self) -> float:
        return 1000.0 * self.wall_s / max(1, self.frames)

    @property
    def agreement(self) -> float:
        """The share of calls that match the true game: once the games differ, every call the referee
        makes and every call of the true game it does not make counts as a mismatch."""
        counted = self.calls + self.missed
        return self.calls_matched / counted if counted else 1.0

    def summary(self, lang: str | None = None) -> list[str]:
        """The figures as sentences, in ``lang`` (default: the process's)."""
        def say(value: Any) -> str:
            return i18n.said(value, lang)

        kinds = i18n.listing(message(N_("{kind}: {count}"), kind=message(QUESTION_KINDS.get(k, k)), count=v)
                             for k, v in sorted(self.questions_by_kind.items())) \
            if self.questions_by_kind else message(N_("none"))
        if self.truth_over:
            template = N_("Seed {seed}, {players} players: {turns} turns, won by {winners}.")
        else:
            template = N_("Seed {seed}, {players} players: {turns} turns, stopped before the end.")
        frames = max(1, self.frames)
        return [
            say(message(template, seed=self.seed, players=self.players, turns=self.turns,
                        winners=words.players(self.truth_winners, self.names))),
            say(message(N_("Referee: {moments} still moments, {calls} calls, {matched} matching the true game "
                           "({percent}%)."), moments=len(self.steps), calls=self.calls, matched=self.calls_matched,
                        percent=f"{100 * self.agreement:.1f}")),
            say(message(N_("Questions asked: {count} ({per_turn} per turn; {kinds})."), count=self.questions,
                        per_turn=f"{self.questions / max(1, self.turns):.2f}", kinds=kinds)),
            say(message(N_("Frames: {frames} ({snapshots} still moments), {ms} ms per frame (drawing {render} ms, "
                           "vision {vision} ms)."), frames=self.frames, snapshots=self.snapshots,
                        ms=f"{self.ms_per_frame:.1f}", render=f"{1000 * self.render_s / frames:.1f}",
                        vision=f"{1000 * self.vision_s / frames:.1f}")),
            say(message(N_("The referee's game matches the true game.")) if self.agreed else
                message(N_("First difference: {difference} After it, {missed} calls of the true game were not made "
                           "by the referee."), difference=self.divergence, missed=self.missed)),
        ]


def _said(question: Question) -> Any:
    """A question's words: its message, else its English text."""
    return question.message if question.message is not None else question.text


#: The kinds of questions the summary counts, in the players' words.
QUESTION_KINDS: Mapping[str, str] = {
    "hero-face": N_("a hero's face"), "oracle-face": N_("an oracle's face"), "left": N_("the edge of the area"),
    "sacred": N_("a sacred garden"), "fallen-temple": N_("a fallen temple"), "fortress": N_("the fortress"),
    "woke": N_("which oracle was woken"), "misfit": N_("a die not where the game has it"),
    "other": N_("something else"),
}


#: A die's role and state, as a difference names them.
_STATES: Mapping[str, str] = {
    "play": N_("in play"), "asleep": N_("asleep"), "lost": N_("lost"), "out": N_("out of the game"),
    "standing": N_("standing"), "dixe": N_("DiXé"), "removed": N_("removed"), "oracle": N_("an oracle"),
    "hero": N_("a hero"), "temple": N_("a temple die"),
}


def _state(value: str) -> Any:
    return message(_STATES[value]) if value in _STATES else value


# ---- comparing the referee's game with the truth ------------------------------------------------

def differences(referee: PuxesGame, truth: PuxesGame, tolerance_mm: float = POSITION_TOLERANCE_MM) -> list[Mapping[str, Any]]:
    """What differs between two games in what the rules care about, as messages: the end and the
    winners, the temples, each oracle's state, place and face, the players, the heroes' faces and
    whose turn it is. The dice are named as the referee's game names them."""
    out: list[Mapping[str, Any]] = []
    if referee.is_over() != truth.is_over() or referee.winners() != truth.winners():
        out.append(message(N_("the game is over: {over}, won by {winners} (truth: {truth_over}, won by {truth_winners})"),
                           over=referee.is_over(), winners=words.players(referee.winners(), referee.seat_names),
                           truth_over=truth.is_over(), truth_winners=words.players(truth.winners(), referee.seat_names)))
    for a, b in zip(referee.temples, truth.temples):
        if (a.status, a.lives) != (b.status, b.lives):
            out.append(message(N_("{temple} is {status} (truth: {truth})"), temple=words.temple(referee, a.index),
                               status=_state(a.status), truth=_state(b.status)))
    for d in sorted(truth.dice):
        t, r = truth.dice[d], referee.dice[d]
        if t.role != r.role or t.owner != r.owner:
            out.append(message(N_("the {die} die is {role} of {player} (truth: {truth_role} of {truth_player})"),
                               die=r.name, role=_state(r.role), player=referee.named(r.owner),
                               truth_role=_state(t.role), truth_player=referee.named(t.owner)))
            continue
        if t.role == "oracle":
            if t.status != r.status:
                out.append(message(N_("{oracle} is {status} (truth: {truth})"), oracle=words.oracle(referee, d),
                                   status=_state(r.status), truth=_state(t.status)))
            elif t.status == "play" and t.x is not None and r.x is not None and \
                    math.hypot(t.x - r.x, t.y - r.y) > tolerance_mm:
                out.append(message(N_("{oracle} is at {where} (truth: {truth})"), oracle=words.oracle(referee, d),
                                   where=words.position(r.x, r.y), truth=words.position(t.x, t.y)))
            if t.status == "play" and t.face != r.face:
                out.append(message(N_("{oracle} shows {face} (truth: {truth})"), oracle=words.oracle(referee, d),
                                   face=words.face(r.face), truth=words.face(t.face)))
    for p, (a, b) in enumerate(zip(referee.players, truth.players)):
        if a.out != b.out:
            out.append(message(N_("{player} is out: {out} (truth: {truth})"), player=referee.named(p), out=a.out,
                               truth=b.out))
        fa = sorted(str(referee.dice[h].face) for h in a.heroes)
        fb = sorted(str(truth.dice[h].face) for h in b.heroes)
        if fa != fb:
            out.append(message(N_("the heroes of {player} show {faces} (truth: {truth})"), player=referee.named(p),
                               faces=words.faces(referee.dice[h].face for h in a.heroes),
                               truth=words.faces(truth.dice[h].face for h in b.heroes)))
    if referee.turn_number != truth.turn_number:
        out.append(message(N_("it is turn {turn} (truth: {truth})"), turn=referee.turn_number, truth=truth.turn_number))
    named = copy.copy(truth)                # the step waited for is compared, not how seats are named
    named.name_seats(referee.seat_names)
    if referee.waiting_for() != named.waiting_for():
        out.append(message(N_("waiting for: {waiting} (truth: {truth})"), waiting=referee.waiting_words(),
                           truth=named.waiting_words()))
    return out


# ---- the players answering ------------------------------------------------------------------------

class Players:
    """The people at the table: they answer the referee's questions with what they see."""

    def __init__(self, table: ScriptedTable) -> None:
        self.table = table

    def _body_of_camera(self, snap: TableSnapshot | None, cam: int | None) -> Body | None:
        if snap is None or cam is None:
            return None
        try:
            obs = snap.die(cam)
        except KeyError:
            return None
        return min(self.table.bodies.values(), key=lambda b: (math.hypot(b.x - obs.x_mm, b.y - obs.y_mm), -b.level))

    def answer(self, q: Question, referee: PuxesReferee, snap: TableSnapshot | None,
               last: Transition | None) -> tuple[str, str]:
        """(the players' answer, the kind of question) for question ``q``, read from what the question
        is about (its ``data``: the die and where it lies) and from what is really on the table."""
        about = dict(q.data)
        kind = str(about.get("about", "other"))
        cam = about.get("camera")
        if cam is None and "oracle" in about and referee is not None:
            cam = referee.camera_id(about["oracle"])
        if kind in ("hero-face", "placed-face", "oracle-face"):
            return self._face_choice(q, self._body_of_camera(snap, cam)), \
                "hero-face" if kind == "hero-face" else "oracle-face"
        outcome = next((a for _, a in (last.truth if last else []) if isinstance(a, Outcome)), None)
        body = self._body_of_camera(snap, cam)
        if kind == "left":
            left = outcome is not None and body is not None and body.die in outcome.left
            return ("yes" if left else "no"), kind
        if kind == "sacred":
            inside = outcome is not None and body is not None and (body.die, about.get("temple")) in outcome.sacred
            return ("yes" if inside else "no"), kind
        if kind == "fallen-temple":
            return ("yes" if outcome is not None and outcome.toppled_touches else "no"), kind
        if kind == "fortress":
            return "no", kind
        if kind == "woke":
            woken = next((a.oracle for _, a in (last.truth if last else []) if isinstance(a, Wake)), None)
            return next((c for c in q.choices if c == f"oracle-{woken}"), q.choices[0]), kind
        if kind == "misfit":
            return q.choices[0], kind
        return q.choices[0], "other"

    def _face_choice(self, q: Question, body: Body | None) -> str:
        if body is None:
            return q.choices[0]
        for choice in q.choices:
            if choice == body.face or face_slug(choice) == face_slug(body.face):
                return choice
        return q.choices[0]


# ---- the run --------------------------------------------------------------------------------------

def run_demo(seed: int = 1, players: int = 2, max_turns: int | None = None,
             progress: Callable[[DemoStep], None] | None = None, options: dict[str, Any] | None = None,
             config: RefereeConfig | None = None, image_size: tuple[int, int] = (1280, 720),
             stop_on_divergence: bool = False) -> DemoResult:
    """Play a seeded PuXes game on the scripted table and referee it from rendered frames.

    ``max_turns`` stops after that many turns (the whole game by default); ``progress`` is called
    with each :class:`DemoStep` as it is judged; ``stop_on_divergence`` ends the run at the first
    still moment where the referee's game differs from the truth.
    """
    start = time.perf_counter()
    opts = {"players": players, **(options or {})}
    table = ScriptedTable(opts, seed=seed, names=NAMES)
    truth = table.game
    dice_used = {d.name for d in truth.dice.values()}
    camera = TableCamera(truth.collection, dice_used, image_size=image_size, seed=seed)
    game = PuxesGame(opts, seed=seed)
    game.name_seats(NAMES)
    referee = PuxesReferee(game, config or RefereeConfig())
    people = Players(table)
    steps: list[DemoStep] = []
    by_kind: collections.Counter[str] = collections.Counter()
    calls = matched = questions = missed = 0
    divergence: Mapping[str, Any] | None = None
    for index, tr in enumerate(table.play(max_turns)):
        frames_before = camera.stats.frames
        made: list[Call] = []
        asked: list[Asked] = []
        for player, action in tr.told:
            made.append(referee.player_action(player, action))
        snap = camera.show(tr.before, tr.after, tr.player, tr.reach_over)
        results: list[Call | Question] = referee.observe(snap) if snap is not None else []
        for _ in range(60):
            made.extend(r for r in results if isinstance(r, Call))
            open_questions = [r for r in results if isinstance(r, Question) and r.question_id in referee.questions]
            if not open_questions:
                break
            q = open_questions[0]
            answer, kind = people.answer(q, referee, snap, tr)
            asked.append(Asked(q, answer, kind))
            by_kind[kind] += 1
            questions += 1
            rest = [r for r in results if isinstance(r, Question) and r is not q and r.question_id in referee.questions]
            results = rest + referee.answer(q.question_id, answer)
        diffs = differences(referee.game, truth)
        if snap is None:
            diffs.insert(0, message(N_("the table never became still for the camera")))
        truth_decision = headline(tr.events) if tr.truth else None
        calls += len(made)
        if diffs and divergence is None:
            divergence = divergence_words(tr.turn, tr.label, diffs)
        if divergence is None:
            matched += len(made)
        else:
            missed += max(0, len(tr.told) + (1 if tr.truth else 0) - len(made))
        step = DemoStep(index, tr.turn, tr.label, made, asked, truth_decision, diffs, camera.stats.frames - frames_before)
        steps.append(step)
        if progress is not None:
            progress(step)
        if diffs and stop_on_divergence:
            break
    wall = time.perf_counter() - start
    return DemoResult(seed, players, truth.turn_number, steps, calls, matched, questions, dict(by_kind),
                      camera.stats.frames, camera.stats.snapshots, wall, camera.stats.render_s, camera.stats.vision_s,
                      truth.is_over(), truth.winners(), referee.game.winners(), divergence, NAMES, missed)


def divergence_words(turn: int, label: Mapping[str, Any], diffs: Sequence[Mapping[str, Any]]) -> Mapping[str, Any]:
    """Where the referee's game first differed from the truth, and how, as a message."""
    return message(N_("turn {turn}, {what} {differences}"), turn=turn, what=label, differences=i18n.listing(diffs))


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m controller.referee.puxes_demo",
        description=_("Watch a refereed PuXes game without a table: two bots play a seeded game on a simulated "
                      "table, rendered frames of it go through the camera pipeline, and the referee calls what it "
                      "sees. Prints each call with its reason and each question the players answered, then a "
                      "summary."))
    parser.add_argument("--seed", type=int, default=1, help=_("which game to play (default 1)"))
    parser.add_argument("--max-turns", type=int, default=None,
                        help=_("stop after this many turns (default: the whole game)"))
    parser.add_argument("--quiet", action="store_true", help=_("print only the summary"))
    parser.add_argument("--stop-on-divergence", action="store_true",
                        help=_("stop at the first moment the referee's game differs from the true game"))
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.max_turns is not None and args.max_turns < 1:
        print(_("--max-turns must be at least 1"), file=sys.stderr)
        return 2

    def show(step: DemoStep) -> None:
        if not args.quiet:
            print("\n".join(step.lines()), flush=True)

    result = run_demo(seed=args.seed, max_turns=args.max_turns, progress=show,
                      stop_on_divergence=args.stop_on_divergence)
    print()
    print("\n".join(result.summary()))
    return 0 if result.agreed else 1


if __name__ == "__main__":
    sys.exit(main())
