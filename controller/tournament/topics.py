"""Where a tournament lives on the broker: its address (``mqtt://HOST[:PORT]/NAME``) and its topics.

Every topic of tournament ``NAME`` starts with ``bitbox/NAME/``, and everything a table publishes is
under its own ``tables/N/``, so a broker's ACL can let table N write there and nowhere else, and a
league can shard its broker by tournament (docs/tournaments.md)::

    bitbox/NAME/tables/N/status    table -> all        retained; last will: offline
    bitbox/NAME/tables/N/result    table -> organiser  QoS 1, until acknowledged
    bitbox/NAME/tables/N/pairing   organiser -> table  retained: the game table N is to play
    bitbox/NAME/tables/N/ack       organiser -> table  retained: the last result recorded (or refused)
    bitbox/NAME/round              organiser -> all    retained: the round's pairings
    bitbox/NAME/standings          organiser -> all    retained: the standings

    >>> address = BrokerAddress.parse("mqtt://broker.local/cafe")
    >>> address.host, address.port, address.name, address.tls
    ('broker.local', 1883, 'cafe', False)
    >>> Topics("cafe").result(3)
    'bitbox/cafe/tables/3/result'
"""

from __future__ import annotations

import dataclasses
import os
import re
import ssl
import urllib.parse
from pathlib import Path
from typing import Any

from controller.i18n import _

#: What a tournament's name and a user's name may hold: no MQTT wildcard or separator.
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
#: The environment variable holding the broker password when no file names it.
PASSWORD_ENV = "BITBOX_MQTT_PASSWORD"
#: The most tables a tournament numbers (1 to this).
MAX_TABLE = 9999


class AddressError(ValueError):
    """A tournament address or a broker setting that cannot be used; the message says what to write."""


@dataclasses.dataclass(frozen=True)
class BrokerAddress:
    """A broker and a tournament on it, with how to log in."""

    host: str
    port: int
    name: str
    tls: bool = False
    username: str | None = None
    password: str | None = dataclasses.field(default=None, repr=False)
    #: A CA certificate file for TLS (default: the system's certificates).
    ca_file: Path | None = None

    @classmethod
    def parse(cls, url: str) -> BrokerAddress:
        """``mqtt://[USER@]HOST[:PORT]/NAME`` (``mqtts://`` for TLS, port 8883 by default)."""
        parts = urllib.parse.urlsplit(url.strip())
        example = "mqtt://broker.local/cafe"
        if parts.scheme not in ("mqtt", "mqtts") or not parts.hostname:
            raise AddressError(_("{url!r} is not a tournament address: write mqtt://HOST[:PORT]/NAME, such as "
                                 "{example} (mqtts:// for TLS)").format(url=url, example=example))
        if parts.password:
            raise AddressError(_("{url!r} holds a password: keep it out of the command line (where every user of "
                                 "the machine can read it) and give it with password_file in the [tournament] "
                                 "section or ${env}").format(url=f"{parts.scheme}://{parts.hostname}/...",
                                                              env=PASSWORD_ENV))
        name = parts.path.strip("/")
        if not NAME.match(name):
            raise AddressError(_("{url!r}: the tournament's name comes after the host, one word of letters, digits, "
                                 "'-', '_' or '.', such as {example}").format(url=url, example=example))
        try:
            port = parts.port or (8883 if parts.scheme == "mqtts" else 1883)
        except ValueError:
            raise AddressError(_("{url!r}: the port is a number from 1 to 65535, such as {example}").format(
                url=url, example="mqtt://broker.local:1883/cafe")) from None
        return cls(parts.hostname, port, name, parts.scheme == "mqtts", parts.username or None)

    @property
    def url(self) -> str:
        user = f"{self.username}@" if self.username else ""
        return f"{'mqtts' if self.tls else 'mqtt'}://{user}{self.host}:{self.port}/{self.name}"

    def with_login(self, username: str | None = None, password: str | None = None,
                   password_file: str | Path | None = None, ca_file: str | Path | None = None) -> BrokerAddress:
        """This address with a user name and a password (given, read from ``password_file``, else
        ``$BITBOX_MQTT_PASSWORD``) and a CA file for TLS."""
        if password is None and password_file:
            try:
                password = Path(password_file).read_text(encoding="utf-8").strip()
            except OSError as exc:
                raise AddressError(_("cannot read the broker's password from {path}: {reason}; check password_file "
                                     "in the [tournament] section").format(path=password_file,
                                                                           reason=exc.strerror or exc)) from None
        if password is None:
            password = os.environ.get(PASSWORD_ENV) or None
        return dataclasses.replace(self, username=username or self.username, password=password,
                                   ca_file=Path(ca_file) if ca_file else self.ca_file)


@dataclasses.dataclass(frozen=True)
class Topics:
    """The topics of tournament ``name`` (see the module's docstring)."""

    name: str

    @property
    def root(self) -> str:
        return f"bitbox/{self.name}"

    def table(self, table: int) -> str:
        return f"{self.root}/tables/{table}"

    def status(self, table: int | str) -> str:
        return f"{self.root}/tables/{table}/status"

    def result(self, table: int | str) -> str:
        return f"{self.root}/tables/{table}/result"

    def pairing(self, table: int) -> str:
        return f"{self.root}/tables/{table}/pairing"

    def ack(self, table: int) -> str:
        return f"{self.root}/tables/{table}/ack"

    @property
    def round(self) -> str:
        return f"{self.root}/round"

    @property
    def standings(self) -> str:
        return f"{self.root}/standings"

    def table_of(self, topic: str) -> tuple[str, str] | None:
        """``(table, kind)`` of a topic under ``tables/``, the table as it is written there; else ``None``."""
        parts = topic.split("/")
        if len(parts) != 5 or parts[:3] != ["bitbox", self.name, "tables"]:
            return None
        return parts[3], parts[4]


def table_number(text: Any) -> int | None:
    """A table number from its text (``"3"``), or ``None`` when it is not one."""
    if isinstance(text, bool):
        return None
    if isinstance(text, int):
        return text if 1 <= text <= MAX_TABLE else None
    if isinstance(text, str) and text.isdigit() and text.isascii() and len(text) <= 4 and not text.startswith("0"):
        return table_number(int(text))
    return None


def mqtt_client(address: BrokerAddress, client_id: str, will: tuple[str, bytes] | None = None,
                manual_ack: bool = False, session_hours: float = 72.0) -> Any:
    """A paho MQTT 5 client for ``address`` with a persistent session (the broker keeps what it
    owes the client for ``session_hours`` while it is away), reconnecting on its own once started
    with ``connect_async`` and ``loop_start``; ``will`` is a retained last will (topic, payload)."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5,
                         manual_ack=manual_ack)
    if address.username:
        client.username_pw_set(address.username, address.password)
    if address.tls:
        context = ssl.create_default_context(cafile=str(address.ca_file) if address.ca_file else None)
        client.tls_set_context(context)
    if will is not None:
        client.will_set(will[0], will[1], qos=1, retain=True)
    client.reconnect_delay_set(min_delay=0.2, max_delay=5)  # type: ignore[arg-type]
    client.max_queued_messages_set(0)
    client._bitbox_session = int(session_hours * 3600)  # type: ignore[attr-defined]
    return client


def connect_async(client: Any, address: BrokerAddress) -> None:
    """Start connecting ``client`` (made by :func:`mqtt_client`) with its persistent session, in the
    background; paho reconnects on its own whenever the broker goes away."""
    from paho.mqtt.packettypes import PacketTypes
    from paho.mqtt.properties import Properties

    properties = Properties(PacketTypes.CONNECT)
    properties.SessionExpiryInterval = client._bitbox_session
    client.connect_async(address.host, address.port, keepalive=15, clean_start=False, properties=properties)
    client.loop_start()
