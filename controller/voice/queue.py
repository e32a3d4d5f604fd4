"""The order calls are spoken in: one at a time, in turn, the urgent first, the stale never.

Calls wait in the order they were made. An urgent one goes before every call that is not, cuts the
call being spoken unless that one is urgent too, and makes the everyday calls still waiting stale
(the important ones, a result, are still said after it). A call that has waited longer than its
``max_age`` is dropped when its turn comes rather than said late, and when more calls wait than
the queue holds, the least important (the oldest of them first) is dropped. A call that
``replaces`` drops a waiting one of its kind (a countdown's next second drops the last).

The queue decides and counts; :class:`~controller.voice.speaker.Speaker` speaks. Its clock is given,
so the rules are tested without waiting.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable

from controller.games.spec import VoiceCall

#: How long a call may wait before it is stale, by priority (seconds).
MAX_AGE = {VoiceCall.CHATTER: 4.0, VoiceCall.CALL: 8.0, VoiceCall.IMPORTANT: 20.0, VoiceCall.URGENT: 3.0}
#: How many calls may wait at once.
CAPACITY = 6


@dataclasses.dataclass(eq=False)
class Utterance:
    """One call to speak: its words (already in its language) and how it gives way to others."""

    text: str
    lang: str
    kind: str = "say"
    priority: int = VoiceCall.CALL
    max_age: float | None = None
    replaces: bool = False
    #: When the call was made, on the queue's clock (for staleness).
    made: float = 0.0
    #: When the call was made, on ``time.perf_counter`` (for the call-to-sound delay).
    perf: float = dataclasses.field(default_factory=time.perf_counter)
    #: Set when it is cut (by an urgent call, or by muting).
    cut: bool = False

    @property
    def urgent(self) -> bool:
        return self.priority >= VoiceCall.URGENT

    def age_limit(self) -> float:
        return self.max_age if self.max_age is not None else MAX_AGE.get(self.priority, MAX_AGE[VoiceCall.CALL])

    def about(self) -> dict[str, str]:
        return {"kind": self.kind, "lang": self.lang, "text": self.text}


@dataclasses.dataclass
class Tally:
    """What became of the calls: spoken to the end, dropped unspoken (stale, crowded out or replaced),
    cut while spoken, silenced by the mute, or unheard (nothing to speak them with)."""

    spoken: int = 0
    dropped: int = 0
    cut: int = 0
    muted: int = 0
    unheard: int = 0

    def as_dict(self) -> dict[str, int]:
        return dataclasses.asdict(self)


class CallQueue:
    """Calls waiting to be spoken (thread-safe); see the module's docstring."""

    def __init__(self, capacity: int = CAPACITY, clock: Callable[[], float] = time.monotonic) -> None:
        self.capacity = capacity
        self.clock = clock
        self.tally = Tally()
        self.waiting: list[Utterance] = []
        #: The call being spoken, from :meth:`take` to :meth:`done`.
        self.current: Utterance | None = None
        self._ready = threading.Condition()
        self._closed = False

    def put(self, call: Utterance) -> bool:
        """Queue ``call``; returns whether the call being spoken must be cut for it."""
        with self._ready:
            if self._closed:
                return False
            if call.replaces:
                before = len(self.waiting)
                self.waiting = [w for w in self.waiting if w.kind != call.kind]
                self.tally.dropped += before - len(self.waiting)
            if call.urgent:
                before = len(self.waiting)
                self.waiting = [w for w in self.waiting if w.priority >= VoiceCall.IMPORTANT]
                self.tally.dropped += before - len(self.waiting)
                at = next((i for i, w in enumerate(self.waiting) if not w.urgent), len(self.waiting))
                self.waiting.insert(at, call)
            else:
                self.waiting.append(call)
            while len(self.waiting) > self.capacity:
                victim = min(self.waiting, key=lambda w: (w.priority, w.made))
                self.waiting.remove(victim)
                self.tally.dropped += 1
            cut = call.urgent and self.current is not None and not self.current.urgent and not self.current.cut
            if cut:
                self.current.cut = True  # type: ignore[union-attr]
            self._ready.notify_all()
            return cut

    def take(self, timeout: float | None = None) -> Utterance | None:
        """The next call to speak (dropping the stale ones), waiting for one up to ``timeout``
        seconds; ``None`` when there is none or the queue is closed. It is :attr:`current` until
        :meth:`done`."""
        with self._ready:
            deadline = None if timeout is None else time.monotonic() + timeout
            while True:
                if self._closed:
                    return None
                now = self.clock()
                while self.waiting:
                    call = self.waiting.pop(0)
                    if now - call.made <= call.age_limit():
                        self.current = call
                        return call
                    self.tally.dropped += 1
                self._ready.notify_all()
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return None
                self._ready.wait(left)

    def done(self, call: Utterance, outcome: str) -> None:
        """``call`` is over: ``"spoken"``, ``"cut"``, ``"muted"`` or ``"unheard"`` (counted so)."""
        with self._ready:
            setattr(self.tally, outcome, getattr(self.tally, outcome) + 1)
            if self.current is call:
                self.current = None
            self._ready.notify_all()

    def count(self, outcome: str, number: int = 1) -> None:
        """Count calls that never waited (made while muted, or with nothing to speak them)."""
        with self._ready:
            setattr(self.tally, outcome, getattr(self.tally, outcome) + number)

    def clear(self, outcome: str = "muted") -> list[Utterance]:
        """Drop every waiting call (counted as ``outcome``) and cut the one being spoken."""
        with self._ready:
            gone, self.waiting = self.waiting, []
            setattr(self.tally, outcome, getattr(self.tally, outcome) + len(gone))
            if self.current is not None:
                self.current.cut = True
            self._ready.notify_all()
            return gone

    def idle(self) -> bool:
        with self._ready:
            return not self.waiting and self.current is None

    def wait_idle(self, timeout: float) -> bool:
        """Wait until nothing waits and nothing is spoken; whether that happened within ``timeout``."""
        with self._ready:
            return self._ready.wait_for(lambda: not self.waiting and self.current is None, timeout)

    def snapshot(self) -> tuple[Tally, int, Utterance | None]:
        """The tally (a copy), how many calls wait, and the call being spoken."""
        with self._ready:
            return dataclasses.replace(self.tally), len(self.waiting), self.current

    def close(self) -> None:
        with self._ready:
            self._closed = True
            self._ready.notify_all()
