"""Where the spoken samples go: the Pi's audio output, or WAV files standing in for a speaker.

An :class:`Output` opens one :class:`Stream` per utterance. A stream takes 16-bit samples as a
device does (a write waits while the device's buffer is full), :meth:`Stream.finish` returns once
the last sample has been played, and :meth:`Stream.cut` silences it at once from any thread.

* :class:`AlsaOutput` plays through ``aplay`` (alsa-utils, on every Raspberry Pi OS): the system's
  default output, or a named one (``hw:1``, ``bluealsa``, ``null``; ``aplay -L`` lists them).
* :class:`WavOutput` is a simulated speaker for machines without one (CI, tests, benches): it plays
  in real time, or faster, and keeps what it played, where it played it: one WAV file per utterance,
  a manifest, and the whole timeline. Two utterances played at once would be mixed in the timeline
  exactly as on a speaker, which is what the tests look for.
"""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import threading
import time
import wave
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from controller import i18n
from controller.i18n import N_, message

Message = dict[str, Any]


class OutputError(RuntimeError):
    """The output could not play; ``words`` says why in the players' words."""

    def __init__(self, words: Message) -> None:
        self.words = words
        super().__init__(i18n.said(words, i18n.SOURCE_LANGUAGE))


class Stream(ABC):
    """One utterance on its way to the speaker."""

    @abstractmethod
    def write(self, pcm: bytes) -> None:
        """Queue 16-bit samples; waits while the device holds as much as it buffers."""

    @abstractmethod
    def finish(self) -> None:
        """Return once every sample written has been played."""

    @abstractmethod
    def cut(self) -> None:
        """Stop playing now and drop what is not played yet (safe from any thread, idempotent)."""


class Output(ABC):
    """A place utterances are played, one after the other."""

    #: How the output is named in the voice's status ("default", "hw:1", "wav:/tmp/calls").
    name: str = ""

    def problem(self) -> Message | None:
        """What is missing for anything to be heard here, with what to do; ``None`` when nothing is."""
        return None

    @abstractmethod
    def open(self, rate: int, channels: int, about: Mapping[str, Any]) -> Stream:
        """A stream for one utterance of 16-bit samples at ``rate``; ``about`` names it (kind, text, lang)."""

    def close(self) -> None:  # noqa: B027 - most outputs hold nothing between utterances
        """Release what the output holds; idempotent."""


# ---- the Pi's audio output -------------------------------------------------------------------------


class AlsaOutput(Output):
    """Plays through ``aplay`` on ``device`` (``None``: the system's default output), one ``aplay`` per
    utterance: the next one starts only once the last has played to its end."""

    def __init__(self, device: str | None = None, program: str = "aplay") -> None:
        self.device = device
        self.program = program
        self.name = device or "default"

    def problem(self) -> Message | None:
        path = shutil.which(self.program)
        if path is None:
            return message(N_("aplay is not installed, so the table's calls cannot be played; install it with "
                              "`sudo apt install alsa-utils`, then restart"))
        if self.device is not None:
            return None
        try:
            cards = subprocess.run([path, "-l"], capture_output=True, text=True, timeout=10)
            names = subprocess.run([path, "-L"], capture_output=True, text=True, timeout=10)
        except (OSError, subprocess.SubprocessError) as exc:
            return message(N_("the audio outputs could not be listed ({reason}); check `aplay -l`"), reason=str(exc))
        servers = [line for line in names.stdout.splitlines() if line.startswith(("pulse", "pipewire"))]
        if "card " not in cards.stdout and not servers:
            return message(N_("no audio output was found (no sound card), so the table's calls are shown but not "
                              "spoken; plug in a speaker (HDMI, the headphone jack, USB or Bluetooth) and restart, "
                              "or name one with [voice] device (`aplay -L` lists them)"))
        return None

    def command(self, rate: int, channels: int) -> list[str]:
        command = [shutil.which(self.program) or self.program, "-q", "-t", "raw", "-f", "S16_LE", "-c",
                   str(channels), "-r", str(rate)]
        if self.device is not None:
            command += ["-D", self.device]
        return [*command, "-"]

    def open(self, rate: int, channels: int, about: Mapping[str, Any]) -> Stream:
        try:
            process = subprocess.Popen(self.command(rate, channels), stdin=subprocess.PIPE,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, bufsize=0)
        except OSError as exc:
            raise OutputError(message(N_("aplay could not be started ({reason}); install it with `sudo apt install "
                                         "alsa-utils`"), reason=exc.strerror or str(exc))) from None
        return _AplayStream(process, self.name)


class _AplayStream(Stream):
    def __init__(self, process: subprocess.Popen[bytes], name: str) -> None:
        self.process = process
        self.name = name
        self._cut = False

    def _failed(self) -> OutputError:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        text = self.process.stderr.read().decode("utf-8", "replace") if self.process.stderr else ""
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        return OutputError(message(N_("the audio output {device} cannot play ({reason}); check that the speaker is "
                                      "plugged in and on, or name another output with [voice] device (`aplay -L` "
                                      "lists them)"), device=self.name, reason=lines[-1] if lines else "aplay failed"))

    def write(self, pcm: bytes) -> None:
        view = memoryview(pcm)
        stdin = self.process.stdin
        assert stdin is not None
        while view and not self._cut:
            try:
                done = stdin.write(view)
            except (BrokenPipeError, OSError, ValueError):
                if self._cut:
                    return
                raise self._failed() from None
            view = view[done or 0:]

    def finish(self) -> None:
        try:
            if self.process.stdin is not None:
                self.process.stdin.close()
        except OSError:
            pass
        code = self.process.wait()
        if code != 0 and not self._cut:
            raise self._failed()
        if self.process.stderr is not None:
            self.process.stderr.close()

    def cut(self) -> None:
        self._cut = True
        if self.process.poll() is None:
            self.process.kill()


# ---- a simulated speaker that keeps what it played ---------------------------------------------------


class WavOutput(Output):
    """A speaker that plays in real time, or ``speed`` times faster (``math.inf``: at once, each
    utterance right after the last), and keeps what it played.

    ``folder`` receives one WAV file per utterance (``0001.wav``, ...) and ``manifest.jsonl``, a line
    per utterance: what was said, in which language, where it began and ended on the speaker's
    clock (seconds), and whether it was cut. ``timeline`` (a WAV file, written by :meth:`close`) and
    :meth:`played` give everything the speaker played, silences included. ``lead`` is how far ahead
    of the playing the device buffers (seconds of its own time)."""

    def __init__(self, folder: Path | str | None = None, timeline: Path | str | None = None, speed: float = 1.0,
                 lead: float = 0.2, clock: Callable[[], float] = time.monotonic, keep: bool = False) -> None:
        if not speed > 0:
            raise ValueError(f"the simulated speaker's speed must be above 0, not {speed!r}")
        self.folder = Path(folder) if folder is not None else None
        self.timeline_path = Path(timeline) if timeline is not None else None
        self.speed = float(speed)
        self.lead = lead
        self.clock = clock
        self.keep = keep or self.timeline_path is not None
        self.name = f"wav:{self.folder}" if self.folder is not None else "wav"
        self.rate: int | None = None
        self.entries: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._t0 = clock()
        self._cursor = 0
        self._mix = np.zeros(0, dtype=np.int32)
        self._length = 0
        if self.folder is not None:
            self.folder.mkdir(parents=True, exist_ok=True)

    @property
    def paced(self) -> bool:
        return math.isfinite(self.speed)

    def position(self) -> int:
        """The sample the speaker is playing now (its clock, counted from when it was made)."""
        assert self.rate is not None
        return int((self.clock() - self._t0) * self.speed * self.rate)

    def open(self, rate: int, channels: int, about: Mapping[str, Any]) -> Stream:
        with self._lock:
            if channels != 1:
                raise OutputError(message(N_("the simulated speaker plays one channel, not {channels}"),
                                          channels=channels))
            if self.rate is None:
                self.rate = rate
            elif rate != self.rate:
                raise OutputError(message(N_("the simulated speaker plays at {rate} Hz, not {other} Hz"),
                                          rate=self.rate, other=rate))
            index = len(self.entries) + 1
            entry = {"index": index, **{k: about.get(k) for k in ("kind", "lang", "text")}, "start": None,
                     "end": None, "cut": False}
            self.entries.append(entry)
        return _WavStream(self, entry)

    # -- the timeline (under the lock) --

    def _place(self, at: int, samples: np.ndarray) -> None:
        if not self.keep:
            return
        end = at + len(samples)
        if end > len(self._mix):
            grown = np.zeros(max(end, 2 * len(self._mix), 1 << 16), dtype=np.int32)
            grown[:len(self._mix)] = self._mix
            self._mix = grown
        self._mix[at:end] += samples
        self._length = max(self._length, end)

    def _unplace(self, at: int, samples: np.ndarray) -> None:
        if self.keep and len(samples):
            self._mix[at:at + len(samples)] -= samples

    def played(self) -> np.ndarray:
        """Everything the speaker played so far, as 16-bit samples (kept with ``keep`` or ``timeline``)."""
        with self._lock:
            return np.clip(self._mix[:self._length], -32768, 32767).astype(np.int16)

    def _done(self, entry: dict[str, Any], samples: np.ndarray) -> None:
        if self.folder is None:
            return
        name = f"{entry['index']:04d}.wav"
        write_wav(self.folder / name, samples, self.rate or 22050)
        entry["file"] = name
        with (self.folder / "manifest.jsonl").open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(entry, ensure_ascii=False) + "\n")

    def close(self) -> None:
        if self.timeline_path is not None and self.rate is not None:
            write_wav(self.timeline_path, self.played(), self.rate)


class _WavStream(Stream):
    def __init__(self, output: WavOutput, entry: dict[str, Any]) -> None:
        self.output = output
        self.entry = entry
        self.start: int | None = None
        self.parts: list[np.ndarray] = []
        self.written = 0
        self._cut = threading.Event()
        self._closed = False

    def _seconds(self, samples: int) -> float:
        return samples / (self.output.rate or 22050) / self.output.speed

    def write(self, pcm: bytes) -> None:
        out = self.output
        samples = np.frombuffer(pcm, dtype="<i2").astype(np.int32)
        with out._lock:
            if self._cut.is_set() or self._closed:
                return
            if self.start is None:
                self.start = out.position() if out.paced else out._cursor
                self.entry["start"] = self.start / (out.rate or 1)
            out._place(self.start + self.written, samples)
            self.parts.append(samples)
            self.written += len(samples)
        if out.paced:
            ahead = self.start + self.written - out.position() - int(out.lead * (out.rate or 0))
            if ahead > 0:
                self._cut.wait(self._seconds(ahead))

    def finish(self) -> None:
        out = self.output
        if out.paced and self.start is not None:
            left = self.start + self.written - out.position()
            if left > 0:
                self._cut.wait(self._seconds(left))
        self._close(cut=False)

    def cut(self) -> None:
        self._cut.set()
        self._close(cut=True)

    def _close(self, cut: bool) -> None:
        out = self.output
        with out._lock:
            if self._closed:
                return
            self._closed = True
            samples = np.concatenate(self.parts) if self.parts else np.zeros(0, dtype=np.int32)
            if self.start is None:
                self.start = out.position() if out.paced else out._cursor
                self.entry["start"] = self.start / (out.rate or 1)
            played = len(samples)
            if cut and out.paced:
                played = min(played, max(0, out.position() - self.start))
                out._unplace(self.start + played, samples[played:])
            end = self.start + played
            out._cursor = max(out._cursor, end)
            self.entry.update(end=end / (out.rate or 1), cut=cut, samples=played)
            out._done(self.entry, np.clip(samples[:played], -32768, 32767).astype(np.int16))


def write_wav(path: Path, samples: np.ndarray, rate: int) -> None:
    """16-bit mono samples as a WAV file."""
    with wave.open(str(path), "wb") as handle:
        handle.setnchannels(1)
        handle.setsampwidth(2)
        handle.setframerate(rate)
        handle.writeframes(np.asarray(samples, dtype="<i2").tobytes())


def read_wav(path: Path) -> tuple[np.ndarray, int]:
    """A 16-bit mono WAV file's samples and rate."""
    with wave.open(str(path), "rb") as handle:
        frames = handle.readframes(handle.getnframes())
        return np.frombuffer(frames, dtype="<i2").copy(), handle.getframerate()


def output_for(name: str | None) -> Output:
    """The output a setting names: ``None`` or an ALSA name plays, ``wav:FOLDER`` writes WAV files
    at table pace."""
    from controller.voice.settings import WAV_PREFIX

    if name is not None and name.startswith(WAV_PREFIX):
        return WavOutput(Path(name[len(WAV_PREFIX):]).expanduser())
    return AlsaOutput(None if name in (None, "default") else name)
