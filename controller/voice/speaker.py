"""The speaker: one thread that takes calls from the queue and speaks them, one at a time.

For each call it starts espeak-ng, opens a stream on the output as soon as the first samples come,
scales them to the volume and writes them, then waits until the last one has been played before
it takes the next call, so that two calls never sound together. A call cut (by an urgent one, or
by the mute) stops its synthesis and its stream at once.

Where espeak-ng or the audio output is missing the speaker says so once, in the log and in its
status (the dashboard shows it), counts the calls as unheard and lets the game go on; it looks
again now and then, so a speaker plugged in later is used.
"""

from __future__ import annotations

import collections
import logging
import threading
import time
from typing import Any

import numpy as np

from controller import i18n
from controller.voice.espeak import Espeak, Synthesis, SynthesisError
from controller.voice.output import Output, OutputError, Stream
from controller.voice.queue import CallQueue, Utterance

log = logging.getLogger(__name__)

#: How often a missing program or output is looked for again (seconds).
RECHECK = 30.0
#: How many call-to-sound delays are kept for the status and the bench.
KEPT_DELAYS = 2000


class Speaker:
    """Speaks what :meth:`say` is given, through ``espeak`` and ``output``; see the module's docstring."""

    def __init__(self, espeak: Espeak, output: Output, queue: CallQueue | None = None, volume: int = 80,
                 mute: bool = False) -> None:
        self.espeak = espeak
        self.output = output
        self.queue = queue or CallQueue()
        self.volume = volume
        self.mute = mute
        #: Call-to-first-sample delays of the calls spoken (ms), newest last.
        self.delays: collections.deque[float] = collections.deque(maxlen=KEPT_DELAYS)
        self._lock = threading.Lock()
        self._stream: Stream | None = None
        self._synthesis: Synthesis | None = None
        self._problem: dict[str, Any] | None = None
        self._reported: str | None = None
        self._checked = float("-inf")
        self.problem()
        self._thread = threading.Thread(target=self._run, name="voice", daemon=True)
        self._thread.start()

    # ---- what the rest of the service asks ----------------------------------------------------

    def problem(self) -> dict[str, Any] | None:
        """What keeps the calls from being heard (a message), looked for at the start, then again now
        and then while something is missing."""
        if self._problem is None and self._checked > float("-inf"):
            return None
        now = time.monotonic()
        if now - self._checked >= RECHECK:
            self._checked = now
            self._set_problem(self.espeak.problem() or self.output.problem())
        return self._problem

    def say(self, call: Utterance) -> None:
        """Speak ``call`` in its turn (nothing while muted)."""
        if self.mute:
            self.queue.count("muted")
            return
        if self.queue.put(call):
            self._cut_current()

    def set_mute(self, mute: bool) -> None:
        """Mute (the call being spoken stops, the waiting ones are dropped) or unmute."""
        self.mute = mute
        if mute:
            self.queue.clear("muted")
            self._cut_current()

    def set_volume(self, volume: int) -> None:
        self.volume = max(0, min(100, int(volume)))

    def wait_idle(self, timeout: float) -> bool:
        """Wait until every call given has been spoken, dropped or cut."""
        return self.queue.wait_idle(timeout)

    def close(self) -> None:
        """Stop speaking and end the thread; idempotent."""
        self.queue.close()
        self.queue.clear("dropped")
        self._cut_current()
        self._thread.join(5)
        self.output.close()

    # ---- the thread ---------------------------------------------------------------------------

    def _run(self) -> None:
        while True:
            call = self.queue.take()
            if call is None:
                return
            try:
                outcome = self._speak(call)
            except Exception:  # noqa: BLE001 - the voice must never stop the table; the log says what broke
                log.exception("the voice could not speak %r", call.text)
                outcome = "unheard"
            self.queue.done(call, outcome)

    def _speak(self, call: Utterance) -> str:
        if call.cut:
            return "cut"
        if self.problem() is not None:
            return "unheard"
        try:
            synthesis = self.espeak.start(call.text, call.lang)
        except SynthesisError as exc:
            self._set_problem(exc.words)
            return "unheard"
        stream: Stream | None = None
        with self._lock:
            self._synthesis = synthesis
        try:
            for pcm in synthesis.chunks():
                if call.cut:
                    break
                if stream is None:
                    stream = self.output.open(synthesis.rate, synthesis.channels, call.about())
                    with self._lock:
                        self._stream = stream
                        if call.cut:
                            break
                    self.delays.append(1000.0 * (time.perf_counter() - call.perf))
                stream.write(self._scaled(pcm))
            if stream is not None and not call.cut:
                stream.finish()
        except OutputError as exc:
            if call.cut:
                return "cut"
            self._set_problem(exc.words)
            self._checked = time.monotonic()
            return "unheard"
        finally:
            with self._lock:
                self._stream, self._synthesis = None, None
            synthesis.stop()
            if stream is not None and call.cut:
                stream.cut()
        if call.cut:
            return "cut"
        if stream is None:
            return "unheard"
        self._set_problem(None)
        return "spoken"

    def _scaled(self, pcm: bytes) -> bytes:
        volume = self.volume
        if volume >= 100:
            return pcm
        samples = np.frombuffer(pcm, dtype="<i2").astype(np.int32)
        return (samples * volume // 100).astype("<i2").tobytes()

    def _cut_current(self) -> None:
        with self._lock:
            stream, synthesis = self._stream, self._synthesis
        current = self.queue.current
        if current is not None and not current.cut:
            return
        if stream is not None:
            stream.cut()
        if synthesis is not None and synthesis.process.poll() is None:
            synthesis.process.kill()

    def _set_problem(self, words: dict[str, Any] | None) -> None:
        """Keep what is wrong; log it once when it appears, and once when it is gone."""
        self._problem = words
        text = i18n.said(words, i18n.SOURCE_LANGUAGE) if words is not None else None
        if text == self._reported:
            return
        if text is not None:
            log.warning("voice: %s", text)
        elif self._reported is not None:
            log.warning("voice: the calls are spoken again")
        self._reported = text
