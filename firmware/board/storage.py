"""The board's own files: its configuration and its calibration profile.

``config.json`` is written by ``bitbox firmware flash`` from the project's hardware data files
(pins, nominal ladders, timings). ``profile.json`` is written by the board itself when the host
stores a calibration (command STORE_PROFILE): its first line is the CRC-32 of the rest in hex,
the rest is the profile exactly as the host sent it::

    {"format": 1, "ladders": {"direction": [...], "number": [...], "symbol": [...]}}

where each ladder is :meth:`ladder.Ladder.to_list`. A profile is written to a temporary file
and renamed over the old one, so a power cut leaves the old profile or the new one. At start
a missing profile means the nominal ladders; one that fails its check or does not parse also
means the nominal ladders, and the board reports it (HELLO ``profile``, STATE flags).

Runs unchanged under MicroPython and CPython (``root`` points the files elsewhere in tests).
"""

import json
import os
import sys

try:
    from binascii import crc32
except ImportError:  # pragma: no cover - every supported port has it
    from zlib import crc32

try:
    from .ladder import Ladder, LadderError
    from . import protocol
except (ImportError, ValueError):
    from ladder import Ladder, LadderError
    import protocol

CONFIG_NAME = "config.json"
PROFILE_NAME = "profile.json"

#: Version of the profile format (the ``format`` key).
PROFILE_FORMAT = 1

#: Keys config.json must hold.
CONFIG_KEYS = ("schema", "wheels", "button", "led", "scan_hz", "average", "wheel_settle_ms",
               "button_press_ms", "button_release_ms", "heartbeat_ms", "blink_ms", "between_ms", "ladders")

#: Version of the config.json format.
CONFIG_SCHEMA = 1


class ConfigError(ValueError):
    """config.json is missing or malformed; the message says which key and what to do."""


class ProfileError(ValueError):
    """A calibration profile that cannot be used; ``status`` is the protocol's ACK status code."""

    def __init__(self, message, status):
        super().__init__(message)
        self.status = status


def checksum(data):
    """CRC-32 of ``data``, as an unsigned integer (the profile checksum)."""
    return crc32(data) & 0xFFFFFFFF


def _join(root, name):
    if not root:
        return name
    return root.rstrip("/") + "/" + name


def parse_config(data):
    """Check a decoded config.json; returns it, or raises :class:`ConfigError`."""
    if not isinstance(data, dict):
        raise ConfigError("config.json must hold a JSON object; flash the firmware again")
    for key in CONFIG_KEYS:
        if key not in data:
            raise ConfigError("config.json has no %r; flash the firmware again with `bitbox firmware flash`" % key)
    if data["schema"] != CONFIG_SCHEMA:
        raise ConfigError("config.json schema %r, this firmware reads schema %d; flash again"
                          % (data["schema"], CONFIG_SCHEMA))
    wheels = data["wheels"]
    if not isinstance(wheels, list) or len(wheels) != 3:
        raise ConfigError("config.json 'wheels' must list the 3 wheels")
    for wheel in wheels:
        if not isinstance(wheel, dict) or "name" not in wheel or "pin" not in wheel or "positions" not in wheel:
            raise ConfigError("config.json: each wheel needs name, pin and positions")
        if wheel["name"] not in data["ladders"]:
            raise ConfigError("config.json: no nominal ladder for wheel %r" % wheel["name"])
        try:
            ladder = Ladder.from_list(data["ladders"][wheel["name"]])
        except LadderError as exc:
            raise ConfigError("config.json: the %s wheel's nominal ladder is unusable (%s); flash again"
                              % (wheel["name"], exc))
        if len(ladder) != wheel["positions"]:
            raise ConfigError("config.json: the %s wheel has %d positions but its ladder %d; flash again"
                              % (wheel["name"], wheel["positions"], len(ladder)))
    if data["scan_hz"] < 1 or data["heartbeat_ms"] < 1 or data["average"] < 1:
        raise ConfigError("config.json: scan_hz, heartbeat_ms and average must be positive")
    return data


def parse_profile(data, wheels):
    """The ladders (by wheel name) in profile bytes ``data``; :class:`ProfileError` if unusable.

    ``wheels`` is config.json's wheel list: every wheel must be there with its number of positions.
    """
    try:
        obj = json.loads(data)
    except ValueError:
        raise ProfileError("the profile is not valid JSON", protocol.BAD_PROFILE)
    if not isinstance(obj, dict) or obj.get("format") != PROFILE_FORMAT or not isinstance(obj.get("ladders"), dict):
        raise ProfileError("not a profile of format %d" % PROFILE_FORMAT, protocol.BAD_PROFILE)
    ladders = {}
    for wheel in wheels:
        name = wheel["name"]
        stored = obj["ladders"].get(name)
        if stored is None:
            raise ProfileError("the profile has no ladder for the %s wheel" % name, protocol.BAD_PROFILE)
        try:
            ladder = Ladder.from_list(stored)
        except LadderError as exc:
            raise ProfileError("%s wheel: %s" % (name, exc), protocol.BAD_PROFILE)
        if len(ladder) != wheel["positions"]:
            raise ProfileError("%s wheel: %d positions in the profile, %d on the wheel"
                               % (name, len(ladder), wheel["positions"]), protocol.BAD_PROFILE)
        ladders[name] = ladder
    return ladders


class Storage:
    """Reads config.json and reads/writes profile.json in the folder ``root`` ("" = the board's root)."""

    def __init__(self, root=""):
        self.root = root
        self.config_path = _join(root, CONFIG_NAME)
        self.profile_path = _join(root, PROFILE_NAME)

    def load_config(self):
        """The checked configuration; :class:`ConfigError` if it is missing or malformed."""
        try:
            with open(self.config_path) as fh:
                text = fh.read()
        except OSError:
            raise ConfigError("no config.json on the board; run `bitbox firmware flash`")
        try:
            data = json.loads(text)
        except ValueError:
            raise ConfigError("config.json is not valid JSON; run `bitbox firmware flash` again")
        return parse_config(data)

    def nominal_ladders(self, config):
        """The nominal ladders from config.json, by wheel name."""
        return dict((w["name"], Ladder.from_list(config["ladders"][w["name"]])) for w in config["wheels"])

    def load_profile(self, config):
        """``(ladders, status)``: the stored profile's ladders and PROFILE_STORED, or the nominal
        ladders and PROFILE_DEFAULT (nothing stored) or PROFILE_CORRUPT (failed its check)."""
        try:
            with open(self.profile_path, "rb") as fh:
                raw = fh.read()
        except OSError:
            return self.nominal_ladders(config), protocol.PROFILE_DEFAULT
        try:
            newline = raw.index(b"\n")
            want = int(raw[:newline].decode(), 16)
            body = raw[newline + 1:]
            if checksum(body) != want:
                raise ValueError("checksum")
            return parse_profile(body, config["wheels"]), protocol.PROFILE_STORED
        except (ValueError, ProfileError):
            return self.nominal_ladders(config), protocol.PROFILE_CORRUPT

    def save_profile(self, body, crc, wheels):
        """Check ``body`` against ``crc`` and the wheels, then store it atomically; returns its ladders.

        Raises :class:`ProfileError` (status BAD_CHECKSUM, BAD_PROFILE or STORAGE_FAILED); on any
        error the stored profile is left as it was.
        """
        if checksum(body) != crc:
            raise ProfileError("checksum 0x%08x does not match the profile (0x%08x)" % (crc, checksum(body)),
                               protocol.BAD_CHECKSUM)
        ladders = parse_profile(body, wheels)
        tmp = self.profile_path + ".tmp"
        try:
            with open(tmp, "wb") as fh:
                fh.write(("%08x\n" % crc).encode())
                fh.write(body)
            try:
                os.rename(tmp, self.profile_path)
            except OSError:
                os.remove(self.profile_path)
                os.rename(tmp, self.profile_path)
            if sys.implementation.name == "micropython" and hasattr(os, "sync"):
                os.sync()
        except OSError as exc:
            raise ProfileError("could not write the profile (%s)" % exc, protocol.STORAGE_FAILED)
        return ladders
