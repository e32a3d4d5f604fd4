"""What every table referee hands to the service: calls, questions, and the rules for doubt.

A :class:`Call` is a decision the referee took and applied to the engine, with the reason (citing
the rulebook) and how sure it is. A :class:`Question` is asked instead of deciding when the call
would rest on a low-confidence reading or on a distance within the measurement error of a line, or
when the table no longer fits the game; the service shows it, the players answer with one of its
choices (one tap). Its words name the die as the players see it; how sure the camera was and how far
from a line stay in its ``data``, for the log. Any call can be overruled: the
referee rewinds the engine to just before it and applies the chosen alternative.

What the players read is kept as messages (:func:`controller.i18n.message`) beside the English
texts: a call's ``message`` is its reason, a question's ``message`` its text, ``reason_message`` why
it is asked and ``choice_messages`` its choices, so that each phone says them in its own language.
"""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Protocol

if TYPE_CHECKING:
    from controller.vision.snapshot import TableSnapshot

from controller import i18n
from controller.engines.core import Event, Game, jsonable


class RefereeError(ValueError):
    """A request the referee cannot honour (an unknown call, an answer that is not a choice).

    ``words`` is the same reason as a message (:func:`controller.i18n.message`), when the referee
    gives one, to say it in the reader's language.
    """

    def __init__(self, text: str, words: Mapping[str, Any] | None = None) -> None:
        super().__init__(text)
        self.words = words

    @classmethod
    def said(cls, msgid: str, **args: Any) -> RefereeError:
        """The error whose reason is ``msgid`` (marked with ``N_``) filled with ``args``."""
        words = i18n.message(msgid, **args)
        return cls(i18n.said(words, i18n.SOURCE_LANGUAGE), words)


@dataclasses.dataclass(frozen=True)
class RefereeConfig:
    """How cautious a referee is. Read from a TOML table with :meth:`from_toml` (all keys optional).

    ``min_confidence``  face readings below it are confirmed by the players
    ``line_margin_mm``  a distance within this of a line (area edge, garden, touching) is asked
    ``still_mm``        a die displaced less than this did not move (tracking noise)
    ``touch_mm``        gap under which two dice count as touching
    ``area_origin_mm``  the play area's corner in the mat frame (the area's axes follow the mat's)
    """

    min_confidence: float = 0.8
    line_margin_mm: float = 3.0
    still_mm: float = 4.0
    touch_mm: float = 2.0
    area_origin_mm: tuple[float, float] = (0.0, 0.0)

    @classmethod
    def from_toml(cls, path: Path, table: str = "referee") -> RefereeConfig:
        """The ``[table]`` of a TOML file; ``RefereeError`` naming an unknown key or a bad value."""
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8")).get(table, {})
        except OSError as exc:
            raise RefereeError(f"cannot read the referee settings {path}: {exc.strerror or exc}") from None
        except tomllib.TOMLDecodeError as exc:
            raise RefereeError(f"{path} is not valid TOML ({exc}); fix the line it names") from None
        if not isinstance(data, dict):
            raise RefereeError(f"{path}: [{table}] must be a table of settings, not {data!r}")
        return cls.from_mapping(data, source=f"{path} [{table}]")

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], source: str = "referee settings") -> RefereeConfig:
        fields = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - fields)
        if unknown:
            raise RefereeError(f"{source}: unknown key(s) {', '.join(unknown)}; known: {', '.join(sorted(fields))}")
        values = dict(data)
        if "area_origin_mm" in values:
            origin = values["area_origin_mm"]
            if not isinstance(origin, (list, tuple)) or len(origin) != 2 or any(
                    isinstance(v, bool) or not isinstance(v, (int, float)) for v in origin):
                raise RefereeError(f"{source}: area_origin_mm must be two numbers [x, y] in millimetres, not {origin!r}")
            values["area_origin_mm"] = tuple(float(v) for v in origin)
        for name, value in values.items():
            if name != "area_origin_mm" and (isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0):
                raise RefereeError(f"{source}: {name} must be a non-negative number, not {value!r}")
        return cls(**values)


@dataclasses.dataclass(frozen=True)
class Call:
    """A decision applied to the engine.

    ``decision`` is a short slug (``"shot"``, ``"dixe"``, ``"asleep"``...), ``reason`` the sentence
    to announce with the rule it rests on (in English; ``message`` is the same, to be said in any
    language), ``confidence`` in 0..1, ``actions`` the engine actions it applied as ``(player,
    action)``, ``alternatives`` the decisions :meth:`overrule` accepts.
    """

    call_id: int
    decision: str
    reason: str
    confidence: float
    actions: tuple[tuple[int, Any], ...] = ()
    events: tuple[Event, ...] = ()
    alternatives: tuple[str, ...] = ()
    overrules: int | None = None          # the call this one replaced
    message: Mapping[str, Any] | None = None
    alternative_messages: tuple[Mapping[str, Any], ...] = ()   # each alternative in words, in order

    def to_json(self, game: type[Game[Any]] | None = None) -> dict[str, Any]:
        data = {
            "call_id": self.call_id, "decision": self.decision, "reason": self.reason,
            "confidence": round(self.confidence, 3),
            "actions": [[p, game.encode_action(a) if game else repr(a)] for p, a in self.actions],
            "events": [e.to_json() for e in self.events],
            "alternatives": list(self.alternatives), "overrules": self.overrules,
        }
        if self.message is not None:
            data["message"] = jsonable(self.message)
        if self.alternative_messages:
            data["alternative_messages"] = jsonable(self.alternative_messages)
        return data


@dataclasses.dataclass(frozen=True)
class Question:
    """A question to the players; answer it with one of ``choices``.

    ``text`` and ``reason`` are English; ``message``, ``reason_message`` and ``choice_messages`` (one
    per choice, in order) are the same to be said in any language; ``data`` says what the question is
    about (the die, where it lies) for a page to point at it. A choice itself is the answer's key.
    """

    question_id: int
    text: str
    choices: tuple[str, ...]
    reason: str = ""
    message: Mapping[str, Any] | None = None
    reason_message: Mapping[str, Any] | None = None
    choice_messages: tuple[Any, ...] = ()
    data: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out = {"question_id": self.question_id, "text": self.text, "choices": list(self.choices), "reason": self.reason}
        if self.message is not None:
            out["message"] = jsonable(self.message)
        if self.reason_message is not None:
            out["reason_message"] = jsonable(self.reason_message)
        if self.choice_messages:
            out["choice_messages"] = jsonable(self.choice_messages)
        if self.data:
            out["data"] = jsonable(self.data)
        return out


class TableReferee(Protocol):
    """What the table service asks of a game's referee (one referee per game being refereed).

    The referee decides in memory; the service stores each call and question before announcing it,
    and puts the referee back with :meth:`restore` when the log cannot be written.
    """

    game: Game[Any]
    config: RefereeConfig
    calls: list[Call]
    questions: dict[int, Question]

    def observe(self, snapshot: TableSnapshot) -> list[Call | Question]:
        """The table came to rest: the calls made and the questions asked."""
        ...

    def answer(self, question_id: int, choice: str) -> list[Call | Question]:
        """The players' answer to a question: the calls it completes (and any new question)."""
        ...

    def overrule(self, call_id: int, decision: str) -> Call:
        """Replace call ``call_id`` with one of its alternatives; raises :class:`RefereeError`."""
        ...

    def player_action(self, player: int, action: Any) -> Call:
        """A choice a camera cannot see (announced on the page), checked by the engine."""
        ...

    def checkpoint(self) -> Any:
        """Everything :meth:`restore` needs to undo the decisions taken after it."""
        ...

    def restore(self, checkpoint: Any) -> None:
        ...

    def prompt(self) -> str:
        """What the table waits for, in a sentence (English)."""
        ...

    def prompt_message(self) -> Mapping[str, Any]:
        """What the table waits for, as a message to say in any language."""
        ...
