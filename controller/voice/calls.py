"""What the table says aloud: each published message's events, turned into calls as the game declares.

Every loop publishes the public state with the announcements made since the last message (see
:mod:`controller.service.hub`). An announcement is spoken when its game declares its kind in
:attr:`~controller.games.spec.GameSpec.voice` (or when it is one of :data:`SERVICE_CALLS`, which
every table says): the announcement's sentence, or the shorter form the game gives, said in the
table's language with the players' names, then cleaned of what a voice should not read out
(quotes, brackets, ``#``). A table referee's call is spoken by the events it decided (a temple
toppled, an oracle asleep), or, when none of them is declared, by its decision (a move refused).
A game's countdown (``state["countdown"]["remaining"]``) is counted aloud over its last
:data:`COUNTDOWN_SPOKEN` seconds when the game declares ``"countdown"``.

Only the public channel is listened to, so nothing is said that everyone could not already see;
an announcement meant for some seats only (``data["audience"]``) is never spoken. A correction
that replays the game (an undo) is not spoken again.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from controller import i18n
from controller.games import UnknownGameError
from controller.games import game as game_spec
from controller.games.spec import VoiceCall
from controller.i18n import N_
from controller.voice.queue import Utterance

#: What every table announces, whatever its game (what the loops say themselves); a game's own
#: declaration adds to these and may change them.
SERVICE_CALLS: Mapping[str, VoiceCall] = {
    "paused": VoiceCall(VoiceCall.IMPORTANT),
    "question": VoiceCall(VoiceCall.CALL, words=N_("A question for the players: {text}")),
}
#: The last seconds of a countdown that are counted aloud.
COUNTDOWN_SPOKEN = 10
#: The longest text spoken for one call (characters); a longer one ends at a sentence before it.
MAX_CHARS = 400

Message = Mapping[str, Any]


class Announcer:
    """Turns published messages into calls in ``lang`` (changeable); keeps what it needs between
    messages (which game, how far it went, the last second counted)."""

    def __init__(self, lang: str, clock: Callable[[], float] = time.monotonic,
                 declared: Callable[[str], Mapping[str, VoiceCall]] | None = None) -> None:
        self.lang = lang
        self.clock = clock
        self._declared = declared or declared_calls
        self._game: tuple[Any, ...] | None = None
        self._actions: int | None = None
        self._second: int | None = None

    def calls(self, published: Mapping[str, Any]) -> list[Utterance]:
        """The calls one published message makes, in the order they are to be said."""
        perf = time.perf_counter()
        state = published.get("state")
        if not isinstance(state, Mapping):
            return []
        ui = state.get("ui") if isinstance(state.get("ui"), Mapping) else {}
        name = str(ui.get("game") or "")
        table = {**SERVICE_CALLS, **self._declared(name)} if name else dict(SERVICE_CALLS)
        game = state.get("game") if isinstance(state.get("game"), Mapping) else {}
        key = (name, game.get("id", state.get("game_id")))
        actions = game.get("actions") if isinstance(game.get("actions"), int) else None
        replayed = key == self._game and actions is not None and self._actions is not None and actions < self._actions
        if key != self._game:
            self._second = None
        self._game, self._actions = key, actions
        names = [str(p.get("name", "")) if isinstance(p, Mapping) else str(p) for p in state.get("players") or []]
        out: list[Utterance] = []
        said_once: set[str] = set()
        if not replayed:
            for kind, declared, words in self._announced(published.get("events") or [], state, table):
                if declared.once:
                    if kind in said_once:
                        continue
                    said_once.add(kind)
                out.append(self._utterance(kind, declared, spoken(declared, words, self.lang, names), perf))
        countdown = self._countdown(state, table, perf, bool(game.get("over") or state.get("over")))
        if countdown is not None:
            out.append(countdown)
        return out

    def _announced(self, events: Sequence[Any], state: Mapping[str, Any],
                   table: Mapping[str, VoiceCall]) -> Iterator[tuple[str, VoiceCall, Any]]:
        """``(kind, declaration, words)`` for each announcement to speak; ``words`` is a message or text."""
        calls = {c.get("call_id"): c for c in state.get("calls") or [] if isinstance(c, Mapping)}
        for event in events:
            if not isinstance(event, Mapping) or _private(event):
                continue
            kind = str(event.get("kind", ""))
            data = event.get("data") if isinstance(event.get("data"), Mapping) else {}
            call = calls.get(data.get("call_id")) if kind == "call" else None
            if call is not None:
                inner = [e for e in call.get("events") or [] if isinstance(e, Mapping) and not _private(e)
                         and str(e.get("kind", "")) in table]
                for sub in inner:
                    yield str(sub["kind"]), table[str(sub["kind"])], sub.get("message") or sub.get("text", "")
                decision = str(data.get("decision") or call.get("decision") or "")
                if not inner and decision in table:
                    yield decision, table[decision], event.get("message") or event.get("text", "")
                continue
            if kind in table:
                yield kind, table[kind], event.get("message") or event.get("text", "")

    def _countdown(self, state: Mapping[str, Any], table: Mapping[str, VoiceCall], perf: float,
                   over: bool) -> Utterance | None:
        declared = table.get("countdown")
        countdown = state.get("countdown")
        if declared is None or not isinstance(countdown, Mapping) or over:
            return None
        left = countdown.get("remaining")
        if not isinstance(left, int) or isinstance(left, bool) or not 1 <= left <= COUNTDOWN_SPOKEN \
                or left == self._second:
            return None
        self._second = left
        text = i18n.gettext(declared.words, self.lang).format(seconds=left) if declared.words else str(left)
        return self._utterance("countdown", declared, text, perf)

    def _utterance(self, kind: str, declared: VoiceCall, text: str, perf: float) -> Utterance:
        return Utterance(text, self.lang, kind, declared.priority, declared.max_age, declared.replaces,
                         made=self.clock(), perf=perf)


def declared_calls(name: str) -> Mapping[str, VoiceCall]:
    """What the registered game ``name`` announces (nothing for a game the registry does not know)."""
    try:
        return game_spec(name).voice
    except UnknownGameError:
        return {}


def _private(event: Mapping[str, Any]) -> bool:
    data = event.get("data")
    return isinstance(data, Mapping) and data.get("audience") is not None


def spoken(declared: VoiceCall, words: Any, lang: str, names: Sequence[str]) -> str:
    """The text a call speaks: the game's shorter form filled with the announcement's arguments when
    it declares one (and they are all there), else the announcement's own sentence."""
    if declared.words and isinstance(words, Mapping) and "msg" in words:
        args = words.get("args") if isinstance(words.get("args"), Mapping) else {}
        wanted = i18n.placeholders(declared.words)
        if wanted <= set(args) | {"said"}:
            values = {key: i18n.said(args[key], lang, names) for key in wanted if key != "said"}
            if "said" in wanted:
                values["said"] = i18n.said(words, lang, names)
            try:
                return speakable(i18n.gettext(declared.words, lang).format(**values))
            except (KeyError, IndexError, ValueError):
                pass
    return speakable(i18n.said(words, lang, names))


#: A place given in millimetres, "at (202, 352) mm": for a screen to point at, not for ears.
_POSITION = re.compile(r"(?:\s+(?:at|à|en|on|sur))?\s*\(\s*-?\d+(?:[.,]\d+)?\s*,\s*-?\d+(?:[.,]\d+)?\s*\)\s*mm\b")
_QUOTES = re.compile(r"[«»“”„\"]")
_BRACKETS = re.compile(r"\s*[()\[\]]\s*")
_HASH = re.compile(r"#\s*(?=\d)")
_ARROWS = re.compile(r"\s*(?:->|→|=>)\s*")
_WHOLE = re.compile(r"\b(\d+)\.0\b")
_PLURAL = re.compile(r"(?<=\w)\((s|x|es|nt)\)")
_SPACES = re.compile(r"\s+")
_COMMAS = re.compile(r"\s*,(?:\s*,)+\s*|\s+,")
_BEFORE_COLON = re.compile(r",\s*([:;])")
_TRAILING = re.compile(r"[,;:]\s*([.!?])|([.!?])\s*,")


def speakable(text: str) -> str:
    """``text`` as a voice should read it: no quotes, brackets, ``#`` or places in millimetres read
    out, ``point(s)`` said ``points``, ``12.0`` said ``12``, one line, and no longer than
    :data:`MAX_CHARS` (cut after a sentence or a comma)."""
    text = _POSITION.sub("", str(text))
    text = _PLURAL.sub(r"\1", text)
    text = _QUOTES.sub("", text)
    text = _HASH.sub("", text)
    text = _ARROWS.sub(", ", text)
    text = _BRACKETS.sub(", ", text)
    text = _WHOLE.sub(r"\1", text).replace("_", " ")
    text = _SPACES.sub(" ", text)
    text = _COMMAS.sub(", ", text)
    text = _BEFORE_COLON.sub(r" \1", text)
    text = _TRAILING.sub(lambda m: m.group(1) or m.group(2), text).strip(" ,;:")
    if len(text) > MAX_CHARS:
        head = text[:MAX_CHARS]
        end = max(head.rfind(". "), head.rfind("! "), head.rfind("? "))
        if end < MAX_CHARS // 3:
            end = head.rfind(", ")
        text = head[:end + 1].rstrip(" ,") if end > 0 else head.rsplit(" ", 1)[0]
    return text
