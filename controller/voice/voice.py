"""The table's voice put together: what a game announces, the queue, espeak-ng and the speaker.

:class:`Voice` listens to a loop's :class:`~controller.service.hub.Hub` (the public channel only)
and speaks each call the game declares (see :mod:`controller.voice.calls`); the dashboard changes
its language, volume and mute while it runs. :func:`attach` is what the service's runners call when
the configuration or ``--voice`` asks for a voice.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable, Mapping
from typing import Any, TextIO

from controller import i18n
from controller.games.spec import VoiceCall
from controller.i18n import N_, _
from controller.voice.calls import Announcer, speakable
from controller.voice.espeak import Espeak
from controller.voice.output import Output, output_for
from controller.voice.queue import CAPACITY, CallQueue, Utterance
from controller.voice.settings import VoiceSettings, check_lang, check_volume, from_config
from controller.voice.speaker import Speaker

log = logging.getLogger(__name__)

#: What the dashboard's "Test the voice" button has the table say.
TEST_SENTENCE = N_("This is the table's voice: every call is said aloud.")


class Voice:
    """Speaks the calls of the games published on a hub; see the module's docstring.

    ``output`` defaults to what the settings name (the system's audio output), ``espeak`` to the
    ``espeak-ng`` on the ``PATH``; ``clock`` times how long calls wait (tests give their own)."""

    def __init__(self, settings: VoiceSettings | None = None, output: Output | None = None,
                 espeak: Espeak | None = None, clock: Callable[[], float] = time.monotonic,
                 capacity: int = CAPACITY) -> None:
        settings = dataclasses.replace(settings or VoiceSettings())
        settings.lang = settings.lang or i18n.language()
        self.settings = settings
        self.clock = clock
        self.espeak = espeak or Espeak(speed=settings.speed)
        self.output = output or output_for(settings.output_name())
        self.queue = CallQueue(capacity, clock)
        self.speaker = Speaker(self.espeak, self.output, self.queue, settings.volume, settings.mute)
        self.announcer = Announcer(settings.lang, clock)
        self._hubs: list[Any] = []

    # ---- listening -----------------------------------------------------------------------------

    def __call__(self, published: dict[str, Any]) -> None:
        """A hub listener: speak the calls of one published message (never raises into the loop)."""
        try:
            for call in self.announcer.calls(published):
                self.speaker.say(call)
        except Exception:  # noqa: BLE001 - the game goes on whatever the voice makes of a message
            log.exception("the voice could not read a published message")

    def listen(self, hub: Any) -> Voice:
        """Speak what ``hub`` publishes from now on; returns the voice."""
        hub.add_listener(self)
        self._hubs.append(hub)
        return self

    def say(self, text: str, lang: str | None = None, kind: str = "say", priority: int = VoiceCall.CALL,
            max_age: float | None = None) -> Utterance:
        """Speak ``text`` (already in ``lang``, the voice's language by default) in its turn."""
        call = Utterance(speakable(text), lang or self.lang, kind, priority, max_age, made=self.clock())
        self.speaker.say(call)
        return call

    # ---- settings ------------------------------------------------------------------------------

    @property
    def lang(self) -> str:
        return self.announcer.lang

    def change(self, mute: bool | None = None, volume: Any = None, lang: Any = None) -> dict[str, Any]:
        """Change what the dashboard may change; a wrong value raises ``ValueError`` saying what to send."""
        if lang is not None:
            self.announcer.lang = self.settings.lang = check_lang(lang, "lang")
        if volume is not None:
            self.settings.volume = check_volume(volume, "volume")
            self.speaker.set_volume(self.settings.volume)
        if mute is not None:
            if not isinstance(mute, bool):
                raise ValueError(_("mute: expected true or false, got {value!r}").format(value=mute))
            self.settings.mute = mute
            self.speaker.set_mute(mute)
        return self.status()

    def status(self) -> dict[str, Any]:
        """What the dashboard shows: the settings, what is missing, what is being said, the tally."""
        tally, waiting, current = self.queue.snapshot()
        return {
            "enabled": True, "lang": self.lang, "languages": dict(i18n.LANGUAGE_NAMES),
            "volume": self.settings.volume, "mute": self.settings.mute, "output": self.output.name,
            "problem": self.speaker.problem(), "speaking": current.text if current is not None else None,
            "waiting": waiting, "tally": tally.as_dict(),
        }

    def describe(self, lang: str | None = None) -> str:
        """One line for the terminal: how the voice speaks, or what keeps it silent."""
        problem = self.speaker.problem()
        if problem is not None:
            return i18n.say(N_("The voice is silent: {problem}."), lang, problem=problem)
        if self.settings.mute:
            return i18n.say(N_("The voice is muted (the dashboard's Referee panel unmutes it)."), lang)
        return i18n.say(N_("The voice speaks {language} at volume {volume} on the output {output}."), lang,
                        language=i18n.LANGUAGE_NAMES.get(self.lang, self.lang), volume=self.settings.volume,
                        output=self.output.name)

    # ---- waiting and stopping ------------------------------------------------------------------

    def wait_idle(self, timeout: float) -> bool:
        """Wait until every call made so far is spoken, dropped or cut."""
        return self.speaker.wait_idle(timeout)

    def close(self, finish: float = 0.0) -> None:
        """Stop listening, let the calls already made be said for up to ``finish`` seconds (the end of
        a game is heard), then stop speaking; idempotent."""
        for hub in self._hubs:
            hub.remove_listener(self)
        self._hubs.clear()
        if finish > 0:
            self.wait_idle(finish)
        self.speaker.close()


def attach(session: Any, hub: Any, wanted: Mapping[str, Any] | None, out: TextIO | None = None) -> Voice | None:
    """A voice for ``session``'s table when its configuration asks for one (``wanted``: the
    ``[voice]`` table), listening to ``hub``; ``None`` otherwise. The dashboard finds it as
    ``session.voice``; ``out`` is told once how it speaks or what keeps it silent."""
    settings = from_config(wanted)
    if settings is None:
        return None
    voice = Voice(settings).listen(hub)
    session.voice = voice
    if out is not None:
        print(voice.describe(), file=out, flush=True)
    return voice
