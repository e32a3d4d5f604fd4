"""The table's voice: how soon a call is heard, and what the queue does with a burst of calls.

1. Call to sound: a game's announcement is published on the hub (as a loop publishes it) while the
   voice is idle; the figure is the time from the publication to the first sample handed to the audio
   output (``aplay`` on the system's output, or on ALSA's ``null`` output where there is no sound
   card), over many calls. The same run times espeak-ng alone (started, to its first sample) on the
   same sentences as the reference: the voice's own share is the difference.
2. A burst: 20 calls published in 3 seconds (a flurry of events, the countdown's seconds, and at the
   end the countdown's end, urgent) to a speaker that plays in real time; how many were spoken, dropped
   (stale or crowded out) and cut, and whether any two sounded together.

    python bench/voice.py [--calls 200] [--lang fr]

The last line is ``voice_call_to_audio_p99_ms: X`` (goal: 150 ms or less on this machine).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from controller.engines import Event  # noqa: E402
from controller.i18n import N_, message  # noqa: E402
from controller.service.hub import Hub  # noqa: E402
from controller.voice import Voice, VoiceSettings  # noqa: E402
from controller.voice.espeak import Espeak  # noqa: E402
from controller.voice.output import AlsaOutput, Output, Stream, WavOutput  # noqa: E402

GOAL_MS = 150.0
#: The burst's pace: 20 calls in 3 seconds, a busy table.
GAP = 0.15
NAMES = ["Ada", "Brice", "Chloé", "Dinesh"]
#: What the calls say: announcements MémoDiXe declares, with their real sentences and arguments.
NO_EFFECT = message(N_("No effect this turn."))
SENTENCES = [
    ("effect", N_("{who} draws \"{title}\": {effect}"), {"title": "Joue !", "effect": NO_EFFECT}),
    ("dixe", N_("{who} cries DiXe !: every die is turned up ({faces})"),
     {"faces": {"list": ["a1 bomb", "b1 sun", "c1 pi"]}}),
    ("effect", N_("{who} draws \"{title}\": {effect}"), {"title": "Oni !", "effect": NO_EFFECT}),
    ("dixe-wrong", N_("{who} is wrong, a pair is left: {who} discards their die and the square is rolled again"), {}),
]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


class Timed(Output):
    """An output that notes when each utterance's first sample reaches it."""

    def __init__(self, inner: Output) -> None:
        self.inner = inner
        self.name = inner.name
        self.first: list[float] = []

    def problem(self) -> Any:
        return self.inner.problem()

    def open(self, rate: int, channels: int, about: Any) -> Stream:
        stream = self.inner.open(rate, channels, about)
        first = self.first

        class Noted(Stream):
            seen = False

            def write(self, pcm: bytes) -> None:
                if not self.seen:
                    self.seen = True
                    first.append(time.perf_counter())
                stream.write(pcm)

            def finish(self) -> None:
                stream.finish()

            def cut(self) -> None:
                stream.cut()

        return Noted()

    def close(self) -> None:
        self.inner.close()


def state(countdown: int | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"ui": {"game": "memodixe"}, "players": [{"name": n} for n in NAMES],
                           "game": {"id": 1, "actions": 1, "over": False}}
    if countdown is not None:
        out["countdown"] = {"remaining": countdown, "total": 400}
    return out


def event(index: int) -> dict[str, Any]:
    """The ``index``-th announcement of the bench, as a loop publishes it."""
    kind, msgid, args = SENTENCES[index % len(SENTENCES)]
    return Event.said(kind, msgid, {}, who={"seat": index % len(NAMES)}, **args).to_json()


def output_for_bench() -> tuple[Output, str]:
    """The system's audio output when it has one, else ALSA's null output (still through aplay)."""
    default = AlsaOutput()
    if default.problem() is None:
        return default, "the system's default audio output (aplay)"
    if shutil.which("aplay"):
        return AlsaOutput("null"), "aplay on ALSA's null output (no sound card on this machine)"
    return WavOutput(speed=float("inf")), "a simulated speaker (aplay is not installed)"


def call_to_sound(calls: int, lang: str) -> tuple[list[float], str]:
    """Delays (ms) from a publication to the first sample at the output, the voice idle each time."""
    inner, where = output_for_bench()
    output = Timed(inner)
    hub = Hub()
    voice = Voice(VoiceSettings(lang=lang), output=output).listen(hub)
    delays: list[float] = []
    try:
        for index in range(calls):
            before = len(output.first)
            start = time.perf_counter()
            hub.publish({"type": "state", "state": state(), "events": [event(index)]})
            if not voice.wait_idle(30) or len(output.first) != before + 1:
                raise SystemExit(f"call {index} was not played: {voice.status()}")
            delays.append(1000.0 * (output.first[-1] - start))
    finally:
        voice.close()
    return delays, where


def espeak_alone(calls: int, lang: str) -> list[float]:
    """The reference: espeak-ng started on the same sentences, to its first sample (ms)."""
    from controller.voice.calls import spoken
    from controller.games.spec import VoiceCall

    espeak = Espeak()
    delays = []
    for index in range(calls):
        text = spoken(VoiceCall(), event(index)["message"], lang, NAMES)
        start = time.perf_counter()
        process = subprocess.Popen(espeak.command(text, lang), stdout=subprocess.PIPE, bufsize=0)
        assert process.stdout is not None
        header = b""
        while len(header) < 46:
            part = process.stdout.read(46 - len(header))
            if not part:
                break
            header += part
        delays.append(1000.0 * (time.perf_counter() - start))
        process.stdout.read()
        process.wait()
    return delays


def burst(lang: str, folder: Path) -> dict[str, Any]:
    """20 calls published in 3 s to a speaker playing in real time; what became of them."""
    output = WavOutput(folder, speed=1.0, keep=True)
    hub = Hub()
    voice = Voice(VoiceSettings(lang=lang), output=output).listen(hub)
    start = time.perf_counter()
    try:
        for index in range(12):
            hub.publish({"type": "state", "state": state(), "events": [event(index)]})
            time.sleep(GAP)
        for left in (7, 6, 5, 4, 3, 2, 1):
            hub.publish({"type": "state", "state": state(countdown=left), "events": []})
            time.sleep(GAP)
        hub.publish({"type": "state", "state": state(countdown=0), "events": [
            Event.said("time-up", N_("the countdown rings"), {}).to_json()]})
        if not voice.wait_idle(120):
            raise SystemExit("the burst was not over within two minutes")
    finally:
        voice.close()
    took = time.perf_counter() - start
    said = sorted(output.entries, key=lambda e: e["index"])
    overlap = any(a["end"] > b["start"] for a, b in zip(said, said[1:]))
    return {"tally": voice.queue.tally.as_dict(), "seconds": took, "overlap": overlap,
            "urgent_said": any(e["kind"] == "time-up" and not e["cut"] for e in said),
            "kinds": [e["kind"] + ("(cut)" if e["cut"] else "") for e in said]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=200, help="calls timed (default 200)")
    parser.add_argument("--lang", choices=("en", "fr"), default="fr", help="the language spoken (default fr)")
    args = parser.parse_args()
    if shutil.which("espeak-ng") is None:
        raise SystemExit("espeak-ng is not installed: sudo apt install espeak-ng")
    version = subprocess.run(["espeak-ng", "--version"], capture_output=True, text=True).stdout.split("Data")[0]
    delays, where = call_to_sound(args.calls, args.lang)
    reference = espeak_alone(args.calls, args.lang)
    p50, p99 = percentile(delays, 50), percentile(delays, 99)
    r50, r99 = percentile(reference, 50), percentile(reference, 99)
    print(f"{version.strip()}; output: {where}")
    print(f"call -> first audio sample, {args.calls} calls in {args.lang}: p50 {p50:.1f} ms, p99 {p99:.1f} ms, "
          f"max {max(delays):.1f} ms (goal: p99 <= {GOAL_MS:.0f} ms)")
    print(f"espeak-ng alone, started -> first sample, same sentences: p50 {r50:.1f} ms, p99 {r99:.1f} ms; "
          f"the voice's p99 is {p99 / r99:.2f}x espeak-ng's own (mean share of the voice: "
          f"{statistics.mean(delays) - statistics.mean(reference):.1f} ms)")
    with tempfile.TemporaryDirectory() as folder:
        result = burst(args.lang, Path(folder))
    tally = result["tally"]
    print(f"burst of 20 calls in {19 * GAP:.0f} s (12 announcements, 7 countdown seconds, then the countdown's end, "
          f"urgent) to a speaker playing in real time: spoken {tally['spoken']}, dropped {tally['dropped']}, "
          f"cut {tally['cut']}, unheard {tally['unheard']}; over in {result['seconds']:.1f} s; urgent end said: "
          f"{'yes' if result['urgent_said'] else 'NO'}; two calls at once: {'YES' if result['overlap'] else 'never'}")
    print(f"  heard, in order: {', '.join(result['kinds'])}")
    print(f"voice_call_to_audio_p99_ms: {p99:.1f}")


if __name__ == "__main__":
    main()
