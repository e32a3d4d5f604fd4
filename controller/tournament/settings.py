"""A table's tournament settings: the ``[tournament]`` section of its configuration file, or
``bitbox play GAME --tournament mqtt://HOST[:PORT]/NAME --table N``.

    [tournament]
    url = "mqtt://broker.local/cafe"          # mqtts:// for TLS
    table = 3                                 # this table's number in the café
    username = "table-3"                      # the broker's user for this table (see docs/tournaments.md)
    password_file = "/etc/bitbox/mqtt-password"
    ca_file = "/etc/bitbox/broker-ca.crt"     # TLS: the broker's CA (default: the system's)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from controller.i18n import _
from controller.tournament.topics import MAX_TABLE, AddressError, BrokerAddress

KEYS = ("url", "table", "username", "password_file", "ca_file")


class SettingsError(ValueError):
    """A ``[tournament]`` setting that cannot be used; the message names the key and what to write."""


@dataclasses.dataclass(frozen=True)
class TableSettings:
    """Where this table plays: the broker and tournament, and its table number."""

    address: BrokerAddress
    table: int

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], where: str = "[tournament]") -> TableSettings:
        unknown = sorted(set(data) - set(KEYS))
        if unknown:
            raise SettingsError(_("{where}: unknown key(s) {keys}; the known keys are {known} (docs/tournaments.md "
                                  "explains each)").format(where=where, keys=", ".join(unknown), known=", ".join(KEYS)))
        url, table = data.get("url"), data.get("table")
        if not isinstance(url, str):
            raise SettingsError(_("{where}: url: give the tournament's address as text, such as url = "
                                  "\"mqtt://broker.local/cafe\"").format(where=where))
        if type(table) is not int or not 1 <= table <= MAX_TABLE:
            raise SettingsError(_("{where}: table: give this table's number, from 1 to {most}, such as table = 3 (or "
                                  "--table 3)").format(where=where, most=MAX_TABLE))
        for key in ("username", "password_file", "ca_file"):
            if key in data and not isinstance(data[key], str):
                raise SettingsError(_("{where}: {key}: expected text, got {value!r}").format(
                    where=where, key=key, value=data[key]))
        try:
            address = BrokerAddress.parse(url).with_login(data.get("username"), None, data.get("password_file"),
                                                          data.get("ca_file"))
        except AddressError as exc:
            raise SettingsError(f"{where}: {exc}") from None
        return cls(address, table)
