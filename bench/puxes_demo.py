"""Whole PuXes games refereed from rendered frames: how often the referee follows the true game.

Plays seeded games on the scripted table (bots, simulated dice), renders every change, runs the
frames through the camera pipeline into the referee, and prints per game and overall: turns,
calls, calls that matched the truth, questions per turn, frames and milliseconds per frame, and
where a game first went wrong. Also measures how well faces taught with ``bitbox calibrate faces``
(on a plain sheet, and on the calibrated mat) read on the table, symbol and character faces apart.

    python bench/puxes_demo.py --skip-capture             # seeds 0-5
    python bench/puxes_demo.py --skip-capture --unseen    # seeds 100-105, never tuned on

Every game is played to its end. Once the referee's game differs from the true one, every call it
makes and every call of the true game it does not make counts as a mismatch; ``games_followed``
says how many games it followed to the end without a difference. Questions are counted by kind and
by why they were asked: the face reader's doubts (a face unreadable, unsure, or not on its die)
apart from the referee's own (a line too close to call, a die the camera lost, a table that no
longer fits the game).

The last lines are ``games_followed: N/M``, ``questions_per_turn: <questions per turn>`` and
``puxes_demo_agreement: <share of calls matching the truth>``.
"""

from __future__ import annotations

import argparse
import collections
import math
import sys
import time

import numpy as np


def _seeds(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        if "-" in part:
            a, b = part.split("-")
            out.extend(range(int(a), int(b) + 1))
        else:
            out.append(int(part))
    return out


def calibrate_faces_capture_accuracy(trials: int = 3, on_mat: bool = False) -> dict[str, tuple[int, int]]:
    """Faces taught through ``bitbox calibrate faces``' capture, then read by the table pipeline on
    rendered tables: (right, read) for the symbol faces and for the character faces. Taught on a plain
    sheet in the middle of the table camera's view, or ``on_mat``, on the calibrated mat."""
    from calibration.faces import calibrate
    from controller.engines.puxes.collection import default_collection
    from controller.referee.puxes import face_slug
    from controller.vision.faces import FaceLibrary
    from controller.vision.mat import load_layout
    from controller.vision.pipeline import FrameAnalyser
    from controller.vision.profile import calibrate_mat
    from controller.vision.render import Die, Lighting, Scene, fitting_camera, render, render_empty

    coll = default_collection()
    layout = load_layout("puxes")
    spec = fitting_camera(layout, fill=0.85)
    heroes = ("Oni", "Crâne Yorick", "Mr Blaireau", "Arkan Sonney", "Hanuman")
    characters = {face_slug(h) for h in heroes}
    faces = sorted({face_slug(f) for d in heroes for f in coll.candidate_faces(d)})
    profile = calibrate_mat(render_empty(Scene(layout, camera=spec, lighting=Lighting())), layout)
    library = FaceLibrary()
    for i, face in enumerate(faces):
        shots = iter(range(10))

        def grab(face: str = face, i: int = i) -> np.ndarray:
            k = next(shots)
            turn = (17.0 + 11 * i + 23 * k) % 90
            if on_mat:
                return render(Scene(layout, dice=(Die(450, 300, face, turn),), camera=spec, lighting=Lighting(),
                                    seed=i * 10 + k)).image
            return render(Scene(None, dice=(Die(800, 500, face, turn, edge_mm=layout.die.edge_mm),), camera=spec,
                                lighting=Lighting(), plain_size_mm=(1600, 1000), plain_bgr=(205, 165, 120),
                                seed=i * 10 + k)).image
        calibrate("dixe", [face], grab, lambda prompt: "", library=library, say=lambda s: None,
                  analyser=FrameAnalyser(layout, profile) if on_mat else None)
    analyser = FrameAnalyser(layout, profile, faces=library)
    rng = np.random.default_rng(0)
    counts = {"symbols": [0, 0], "characters": [0, 0]}
    for trial in range(trials):
        dice, truth = [], []
        for k in range(16):
            x, y = 80 + (k % 8) * 100, 150 + (k // 8) * 300 + rng.uniform(-40, 40)
            face = faces[int(rng.integers(len(faces)))]
            dice.append(Die(x, y, face, float(rng.uniform(0, 90))))
            truth.append((x, y, face))
        image = render(Scene(layout, dice=tuple(dice), camera=spec, lighting=Lighting(), seed=trial)).image
        for d in analyser.analyse(image).dice:
            face = min(truth, key=lambda t: math.hypot(t[0] - d.x_mm, t[1] - d.y_mm))[2]
            tally = counts["characters" if face in characters else "symbols"]
            tally[0] += d.face.symbol == face
            tally[1] += 1
    return {kind: (right, read) for kind, (right, read) in counts.items()}


#: Seeds the referee was never tuned on (``--unseen``).
UNSEEN_SEEDS = "100-105"

#: Why a question was asked, as the referee writes it in the question's data (``why``): the face
#: reader's doubts apart from the referee's own (a line too close to call, a die the camera lost,
#: a table that no longer fits the game).
READER_DOUBTS = frozenset({"unreadable", "unsure", "not-on-die"})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default=None, help="seeds to play, e.g. 0-9 or 1,4,7 (default 0-5)")
    parser.add_argument("--unseen", action="store_true",
                        help=f"play the seeds the referee was never tuned on ({UNSEEN_SEEDS}) instead of the default")
    parser.add_argument("--max-turns", type=int, default=None, help="stop each game after this many turns")
    parser.add_argument("--skip-capture", action="store_true", help="skip the calibrate-faces capture measurement")
    args = parser.parse_args(argv)
    if args.seeds and args.unseen:
        parser.error("give --seeds or --unseen, not both")
    seeds = _seeds(args.seeds or (UNSEEN_SEEDS if args.unseen else "0-5"))
    from controller import i18n
    from controller.referee.puxes_demo import run_demo

    if not args.skip_capture:
        for on_mat, where in ((False, "a plain sheet"), (True, "the calibrated mat")):
            t0 = time.perf_counter()
            found = calibrate_faces_capture_accuracy(on_mat=on_mat)
            shares = ", ".join(f"{kind} {right}/{read}" for kind, (right, read) in found.items())
            print(f"faces taught by 'bitbox calibrate faces' on {where}, read on the table: {shares} right "
                  f"({time.perf_counter() - t0:.1f} s)")
    calls = matched = missed = questions = turns = frames = followed = 0
    wall = 0.0
    census: collections.Counter[tuple[str, str]] = collections.Counter()
    for seed in seeds:
        r = run_demo(seed=seed, max_turns=args.max_turns)
        calls += r.calls
        matched += r.calls_matched
        missed += r.missed
        questions += r.questions
        turns += r.turns
        frames += r.frames
        wall += r.wall_s
        followed += r.agreed
        for step in r.steps:
            for asked in step.asked:
                data = asked.question.data
                census[asked.kind, str(data.get("why", "?"))] += 1
                measured = {k: data[k] for k in ("reading", "distance_mm") if k in data}
                print(f"  ? seed {seed}, turn {step.turn}: {asked.question.text} ({asked.question.reason}) "
                      f"answer {asked.answer!r}; {asked.kind}/{data.get('why', '?')} {measured}")
        end = "won by " + ",".join(map(str, r.truth_winners)) if r.truth_over else "unfinished"
        print(f"seed {seed}: {r.turns} turns ({end}), {r.calls} calls, {r.calls_matched} matched, "
              f"{r.questions} questions ({r.questions / max(1, r.turns):.2f} per turn), {r.frames} frames, "
              f"{r.ms_per_frame:.1f} ms/frame"
              + ("" if r.agreed else f"; diverged at {i18n.said(r.divergence, 'en')} then missed {r.missed} calls"),
              flush=True)
    print("questions by kind and why: " + (", ".join(f"{kind}/{why} {n}" for (kind, why), n in sorted(census.items()))
                                           or "none"))
    reader = sum(n for (_, why), n in census.items() if why in READER_DOUBTS)
    print(f"questions from the face reader: {reader} ({reader / max(1, turns):.2f} per turn); "
          f"from the referee's own rules and lines: {questions - reader} ({(questions - reader) / max(1, turns):.2f} "
          f"per turn)")
    print(f"turns: {turns}, calls: {calls}, matched: {matched}, missed after a divergence: {missed}")
    print(f"frames: {frames}, ms per frame: {1000 * wall / max(1, frames):.1f}")
    print(f"games_followed: {followed}/{len(seeds)}")
    print(f"questions_per_turn: {questions / max(1, turns):.3f}")
    print(f"puxes_demo_agreement: {matched / max(1, calls + missed):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
