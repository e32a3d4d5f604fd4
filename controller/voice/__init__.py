"""The referee speaks: every call a game declares, said aloud in French or English.

Players look at the dice and at each other, not at a screen; the voice says what the dashboard
shows. Each game declares the calls it announces in the registry
(:attr:`~controller.games.spec.GameSpec.voice`: event kind → :class:`~controller.games.spec.VoiceCall`);
nothing here names a game. The parts:

* :mod:`.calls` — a published message's announcements turned into calls, in the table's language;
* :mod:`.queue` — one call at a time, in turn; urgent ones first and cutting, stale ones dropped;
* :mod:`.espeak` — speech from espeak-ng, streamed; :mod:`.output` — ``aplay``, or WAV files;
* :mod:`.speaker` — the thread that speaks; :mod:`.voice` — all of it, attached to a loop's hub;
* :mod:`.settings` — the ``[voice]`` table; :mod:`.web` — the dashboard's controls; :mod:`.cli` —
  ``bitbox say``.

    >>> from controller.voice import Voice, VoiceSettings
    >>> voice = Voice(VoiceSettings(lang="fr")).listen(hub)      # doctest: +SKIP

docs/voice.md says how to set it up on a Pi.
"""

from controller.voice.queue import Tally, Utterance
from controller.voice.settings import VoiceSettings, VoiceSettingsError
from controller.voice.voice import Voice, attach

__all__ = ["Tally", "Utterance", "Voice", "VoiceSettings", "VoiceSettingsError", "attach"]
