"""How the table's voice is set up: on or off, its language, volume, mute, output and pace.

The settings come from the configuration file's ``[voice]`` table (checked here, so that a mistake
names the key and what to write), from ``bitbox demo --voice``, and later from the dashboard::

    [voice]
    lang = "fr"            # the language calls are spoken in (default: the service's)
    volume = 80            # 0 to 100
    mute = false           # the dashboard mutes and unmutes too
    device = "default"     # an ALSA output (`aplay -L` lists them), or "wav:FOLDER" to write WAV files
    speed = 160            # words per minute

A ``[voice]`` table turns the voice on; ``enabled = false`` keeps the settings and turns it off.
``BITBOX_VOICE_DEVICE`` names the output when the settings do not (a demo run without a file).
"""

from __future__ import annotations

import dataclasses
import math
import os
from collections.abc import Mapping
from typing import Any

from controller import i18n
from controller.i18n import _

#: The environment variable naming the output when the settings name none.
DEVICE_ENV = "BITBOX_VOICE_DEVICE"
#: The prefix of an output that writes WAV files instead of playing them.
WAV_PREFIX = "wav:"
SPEEDS = range(80, 451)
DEFAULT_VOLUME = 80
DEFAULT_SPEED = 160


class VoiceSettingsError(ValueError):
    """A ``[voice]`` setting that cannot be used; the message names the key and what to write."""


@dataclasses.dataclass
class VoiceSettings:
    """What the voice is asked to do; see the module's docstring."""

    enabled: bool = True
    #: ``None``: the language the service speaks.
    lang: str | None = None
    volume: int = DEFAULT_VOLUME
    mute: bool = False
    #: ``None``: ``BITBOX_VOICE_DEVICE``, else the system's default output.
    device: str | None = None
    speed: int = DEFAULT_SPEED

    KEYS = ("enabled", "lang", "volume", "mute", "device", "speed")

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], where: str = "[voice]") -> VoiceSettings:
        """Settings from a ``[voice]`` table; :class:`VoiceSettingsError` names the wrong key."""
        unknown = sorted(set(data) - set(cls.KEYS))
        if unknown:
            raise VoiceSettingsError(_("{where}: unknown key(s) {keys}; the known keys are {known} (docs/voice.md "
                                       "explains each)").format(where=where, keys=", ".join(unknown),
                                                                known=", ".join(cls.KEYS)))
        settings = cls()
        if "enabled" in data:
            settings.enabled = _flag(data["enabled"], where, "enabled")
        if "mute" in data:
            settings.mute = _flag(data["mute"], where, "mute")
        if "lang" in data:
            settings.lang = check_lang(data["lang"], f"{where} lang")
        if "volume" in data:
            settings.volume = check_volume(data["volume"], f"{where} volume")
        if "speed" in data:
            speed = data["speed"]
            if isinstance(speed, bool) or not isinstance(speed, int) or speed not in SPEEDS:
                raise VoiceSettingsError(_("{where} speed: expected words per minute from {low} to {high}, got "
                                           "{value!r}; write for example speed = {default}").format(
                    where=where, low=SPEEDS.start, high=SPEEDS.stop - 1, value=speed, default=DEFAULT_SPEED))
            settings.speed = speed
        if "device" in data:
            device = data["device"]
            if not isinstance(device, str) or not device.strip() or device.strip() == WAV_PREFIX:
                raise VoiceSettingsError(_("{where} device: expected an output's name such as \"default\" or "
                                           "\"hw:1\" (`aplay -L` lists them), or \"wav:FOLDER\", got {value!r}")
                                         .format(where=where, value=device))
            settings.device = device.strip()
        return settings

    def output_name(self) -> str | None:
        """The output asked for: the settings', else ``BITBOX_VOICE_DEVICE``'s, else ``None`` (the default)."""
        return self.device or os.environ.get(DEVICE_ENV, "").strip() or None


def from_config(data: Mapping[str, Any] | None) -> VoiceSettings | None:
    """The voice a service's configuration asks for (its ``[voice]`` table), or ``None`` when it asks
    for none (no table, or ``enabled = false``)."""
    if not data:
        return None
    settings = VoiceSettings.from_mapping(data)
    return settings if settings.enabled else None


def check_lang(value: Any, where: str) -> str:
    """A language the voice can speak (one with a catalogue), normalised."""
    if not isinstance(value, str):
        raise VoiceSettingsError(_("{where}: expected a language, one of {choices}, got {value!r}").format(
            where=where, choices=", ".join(i18n.LANGUAGES), value=value))
    try:
        return i18n.check_language(value)
    except i18n.LanguageError:
        raise VoiceSettingsError(_("{where}: the voice speaks {choices}, not {value!r}").format(
            where=where, choices=", ".join(i18n.LANGUAGES), value=value)) from None


def check_volume(value: Any, where: str) -> int:
    """A volume from 0 to 100 (a whole number; 62.5 is taken as 62)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or not 0 <= value <= 100:
        raise VoiceSettingsError(_("{where}: expected a volume from 0 to 100, got {value!r}; write for example "
                                   "volume = {default}").format(where=where, value=value, default=DEFAULT_VOLUME))
    return int(value)


def _flag(value: Any, where: str, key: str) -> bool:
    if not isinstance(value, bool):
        raise VoiceSettingsError(_("{where} {key}: expected true or false, got {value!r}").format(
            where=where, key=key, value=value))
    return value
