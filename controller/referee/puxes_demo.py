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
import re
import sys
import time
from collections.abc import Callable
from typing import Any

from controller.engines.puxes import PuxesGame
from controller.engines.puxes.actions import Outcome
from controller.referee.common import Call, Question, RefereeConfig
from controller.referee.demo.camera import TableCamera
from controller.referee.demo.table import Body, ScriptedTable, Transition
from controller.referee.puxes import PuxesReferee, face_slug, headline
from controller.vision.snapshot import TableSnapshot

#: How far (mm) the referee's idea of an oracle's place may be from the truth.
POSITION_TOLERANCE_MM = 6.0


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
    label: str
    calls: list[Call]
    asked: list[Asked]
    truth_decision: str | None
    differences: list[str]
    frames: int

    def lines(self) -> list[str]:
        """The step as text: the change, each call with its reason, each question and answer."""
        out = [f"[turn {self.turn}] {self.label}"]
        for a in self.asked:
            out.append(f"    ? {a.question.text} ({a.question.reason}) -> {a.answer}")
        for c in self.calls:
            out.append(f"    = {c.decision}: {c.reason}")
        if self.truth_decision and not any(c.decision == self.truth_decision for c in self.calls):
            out.append(f"    ! the true game says {self.truth_decision}")
        for d in self.differences:
            out.append(f"    ! differs from the truth: {d}")
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
    divergence: str | None           # the first difference from the truth, or None

    @property
    def agreed(self) -> bool:
        return self.divergence is None

    @property
    def ms_per_frame(self) -> float:
        return 1000.0 * self.wall_s / max(1, self.frames)

    @property
    def agreement(self) -> float:
        return self.calls_matched / self.calls if self.calls else 1.0

    def summary(self) -> list[str]:
        kinds = ", ".join(f"{k} {v}" for k, v in sorted(self.questions_by_kind.items())) or "none"
        outcome = f"player(s) {', '.join(map(str, self.truth_winners))} won" if self.truth_over else "stopped before the end"
        return [
            f"seed {self.seed}, {self.players} players: {self.turns} turns, {outcome}",
            f"referee: {len(self.steps)} still moments, {self.calls} calls, {self.calls_matched} matched the truth "
            f"({100 * self.agreement:.1f}%)",
            f"questions asked: {self.questions} ({self.questions / max(1, self.turns):.2f} per turn: {kinds})",
            f"frames: {self.frames} ({self.snapshots} still snapshots), {self.ms_per_frame:.1f} ms per frame "
            f"(rendering {1000 * self.render_s / max(1, self.frames):.1f}, vision {1000 * self.vision_s / max(1, self.frames):.1f})",
            "the referee's game matches the true game" if self.agreed else f"first difference: {self.divergence}",
        ]


# ---- comparing the referee's game with the truth ------------------------------------------------

def differences(referee: PuxesGame, truth: PuxesGame, tolerance_mm: float = POSITION_TOLERANCE_MM) -> list[str]:
    """What differs between two games in what the rules care about: the end and the winners, the
    temples, each oracle's state, place and face, the players, the heroes' faces and whose turn it is."""
    out = []
    if referee.is_over() != truth.is_over() or referee.winners() != truth.winners():
        out.append(f"game over {referee.is_over()} winners {referee.winners()} (truth: {truth.is_over()} {truth.winners()})")
    for a, b in zip(referee.temples, truth.temples):
        if (a.status, a.lives) != (b.status, b.lives):
            out.append(f"temple {a.index} is {a.status} (truth: {b.status})")
    for d in sorted(truth.dice):
        t, r = truth.dice[d], referee.dice[d]
        if t.role != r.role or t.owner != r.owner:
            out.append(f"die {d} is a {r.role} of player {r.owner} (truth: {t.role} of player {t.owner})")
            continue
        if t.role == "oracle":
            if t.status != r.status:
                out.append(f"oracle {d} is {r.status} (truth: {t.status})")
            elif t.status == "play" and t.x is not None and r.x is not None and \
                    math.hypot(t.x - r.x, t.y - r.y) > tolerance_mm:
                out.append(f"oracle {d} at ({r.x:.0f}, {r.y:.0f}) (truth: ({t.x:.0f}, {t.y:.0f}))")
            if t.status == "play" and t.face != r.face:
                out.append(f"oracle {d} shows {r.face} (truth: {t.face})")
    for p, (a, b) in enumerate(zip(referee.players, truth.players)):
        if a.out != b.out:
            out.append(f"player {p} out: {a.out} (truth: {b.out})")
        fa = sorted(str(referee.dice[h].face) for h in a.heroes)
        fb = sorted(str(truth.dice[h].face) for h in b.heroes)
        if fa != fb:
            out.append(f"player {p}'s heroes show {fa} (truth: {fb})")
    if referee.turn_number != truth.turn_number:
        out.append(f"turn {referee.turn_number} (truth: {truth.turn_number})")
    named = copy.copy(truth)                # the step waited for is compared, not how seats are named
    named.name_seats(referee.seat_names)
    if referee.waiting_for() != named.waiting_for():
        out.append(f"waiting for {referee.waiting_for()} (truth: {named.waiting_for()})")
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
        """(the players' answer, the kind of question) for question ``q``."""
        text = q.text
        m = re.search(r"hero die (\d+)", text)
        if m:
            body = self._body_of_camera(snap, int(m.group(1)))
            return self._face_choice(q, body), "hero face"
        m = re.search(r"oracle (\d+) \(die (\d+)\)", text)
        if m:
            body = self._body_of_camera(snap, int(m.group(2)))
            return self._face_choice(q, body), "oracle face"
        m = re.search(r"face does oracle (\d+) show|face did .+ turn up on oracle (\d+)", text)
        if m:
            oracle = int(m.group(1) or m.group(2))
            body = self._body_of_camera(snap, referee.camera_id(oracle))
            return self._face_choice(q, body), "oracle face"
        outcome = next((a for _, a in (last.truth if last else []) if isinstance(a, Outcome)), None)
        m = re.search(r"Did oracle (\d+) leave the play area", text)
        if m:
            body = self._body_of_camera(snap, referee.camera_id(int(m.group(1))))
            left = outcome is not None and body is not None and body.die in outcome.left
            return ("yes" if left else "no"), "edge of the area"
        m = re.search(r"Is oracle (\d+) in the sacred garden of temple (\d+)", text)
        if m:
            body = self._body_of_camera(snap, referee.camera_id(int(m.group(1))))
            inside = outcome is not None and body is not None and (body.die, int(m.group(2))) in outcome.sacred
            return ("yes" if inside else "no"), "sacred garden"
        m = re.search(r"fallen die of temple (\d+) touch", text)
        if m:
            return ("yes" if outcome is not None and outcome.toppled_touches else "no"), "fallen temple"
        m = re.search(r"Is oracle (\d+) in the fortress", text)
        if m:
            return "no", "fortress"
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
    table = ScriptedTable(opts, seed=seed)
    truth = table.game
    dice_used = {d.name for d in truth.dice.values()}
    camera = TableCamera(truth.collection, dice_used, image_size=image_size, seed=seed)
    referee = PuxesReferee(PuxesGame(opts, seed=seed), config or RefereeConfig())
    people = Players(table)
    steps: list[DemoStep] = []
    by_kind: collections.Counter[str] = collections.Counter()
    calls = matched = questions = 0
    divergence: str | None = None
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
            diffs.insert(0, "the table never became still for the camera")
        truth_decision = headline(tr.events) if tr.truth else None
        calls += len(made)
        if not diffs:
            matched += len(made)
        elif divergence is None:
            divergence = f"turn {tr.turn}, {tr.label}: {'; '.join(diffs)}"
        step = DemoStep(index, tr.turn, tr.label, made, asked, truth_decision, diffs, camera.stats.frames - frames_before)
        steps.append(step)
        if progress is not None:
            progress(step)
        if diffs and stop_on_divergence:
            break
    wall = time.perf_counter() - start
    return DemoResult(seed, players, truth.turn_number, steps, calls, matched, questions, dict(by_kind),
                      camera.stats.frames, camera.stats.snapshots, wall, camera.stats.render_s, camera.stats.vision_s,
                      truth.is_over(), truth.winners(), referee.game.winners(), divergence)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m controller.referee.puxes_demo",
        description="Watch a refereed PuXes game without a table: two bots play a seeded game on a simulated "
        "table, rendered frames of it go through the camera pipeline, and the referee calls what it sees. "
        "Prints each call with its reason and each question the players answered, then a summary.")
    parser.add_argument("--seed", type=int, default=1, help="which game to play (default 1)")
    parser.add_argument("--max-turns", type=int, default=None, help="stop after this many turns (default: the whole game)")
    parser.add_argument("--quiet", action="store_true", help="print only the summary")
    parser.add_argument("--stop-on-divergence", action="store_true",
                        help="stop at the first moment the referee's game differs from the true game")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.max_turns is not None and args.max_turns < 1:
        print("--max-turns must be at least 1", file=sys.stderr)
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
