"""The terminal view: the board and the table's status, for play over SSH or a demo in a shell.

Two modes: ``redraw`` clears the screen and draws the current state on every change (a live view
with ``--terminal``), ``log`` prints the board once per resolved turn and one line per event (a
demo's transcript, readable when piped to a file). Only public information is printed: the
board drawing, who has locked in, the revealed programs. Every sentence is said in the view's
language (the one chosen when it was made, whichever thread publishes).
"""

from __future__ import annotations

import sys
import threading
from typing import Any, TextIO

from controller import i18n
from controller.i18n import N_

CLEAR = "\x1b[H\x1b[2J"

#: A controller's state as the status lines say it.
STATE_WORDS = {"unplugged": N_("unplugged"), "locked": N_("locked"), "refused": N_("not ready"),
               "ready": N_("ready")}


def event_text(event: dict[str, Any], lang: str | None = None, names: list[str] | None = None) -> str:
    """An event of the public state in ``lang``, players named by ``names``: its message when it
    has one, else its text."""
    words = event.get("message")
    return i18n.said(words, lang, names) if words else str(event.get("text", ""))


class TerminalView:
    """Prints a :class:`~controller.service.session.Session`'s state; attach with :meth:`attach`."""

    def __init__(self, session: Any, stream: TextIO | None = None, mode: str = "log", colour: bool | None = None,
                 lang: str | None = None) -> None:
        if mode not in ("log", "redraw"):
            raise ValueError(f"terminal mode must be 'log' or 'redraw', not {mode!r}")
        self.session = session
        self.stream = stream or sys.stdout
        self.mode = mode
        self.colour = self.stream.isatty() if colour is None else colour
        self.lang = i18n.check_language(lang) if lang else i18n.language()
        self._lock = threading.Lock()

    def _names(self) -> list[str]:
        """The players' names by seat, for the events that name a seat."""
        return [p.name for p in getattr(self.session, "players", [])]

    def attach(self) -> None:
        self.session.hub.add_listener(self.on_message)

    def detach(self) -> None:
        self.session.hub.remove_listener(self.on_message)

    def board_text(self) -> str:
        game = self.session.game
        if game is None:
            return i18n.say(N_("(no game)"), self.lang) + "\n"
        if self.colour:
            from controller.games import UnknownGameError, game as game_spec

            try:
                return game_spec(game.NAME).render_ansi(game)
            except UnknownGameError:
                pass
        return game.render()

    def on_message(self, message: dict[str, Any]) -> None:
        with self._lock:
            if self.mode == "redraw":
                self._redraw(message)
            else:
                self._log(message)
            self.stream.flush()

    def _status_lines(self, state: dict[str, Any]) -> list[str]:
        lines = []
        if state.get("paused"):
            lines.append(f"!! {i18n.said(state['paused'], self.lang)}")
        for c in state.get("controllers", []):
            word = ("unplugged" if not c["connected"] else "locked" if c["locked"]
                    else "refused" if c["refused"] else "ready")
            owner = f" {c['owner_name']}" if c.get("owner_name") else ""
            said = f"  - {i18n.said(c['message'], self.lang)}" if c.get("message") else ""
            colour = i18n.said(c["colour"], self.lang)
            lines.append(f"  {c['id']:<10} {colour:<7}{owner:<12} {i18n.gettext(STATE_WORDS[word], self.lang)}{said}")
        waiting = state.get("waiting_for") or []
        if waiting:
            lines.append("  " + i18n.say(N_("waiting for: {players}"), self.lang,
                                         players=i18n.listing(w["name"] for w in waiting)))
        return lines

    def _redraw(self, message: dict[str, Any]) -> None:
        state = message["state"]
        out = [CLEAR, self.board_text()]
        out.extend(line + "\n" for line in self._status_lines(state))
        out.append("\n")
        for event in state.get("log", [])[-8:]:
            out.append(f"  {event_text(event, self.lang, self._names())}\n")
        self.stream.write("".join(out))

    def _log(self, message: dict[str, Any]) -> None:
        state = message["state"]
        for event in message.get("events", []):
            if event["kind"] in ("moved", "locked", "programmed"):
                continue
            self.stream.write(f"- {event_text(event, self.lang, self._names())}\n")
        kinds = {e["kind"] for e in message.get("events", [])}
        if kinds & {"revealed", "game-over"} or ("placed" in kinds and state.get("phase") == "programming"):
            self.stream.write("\n" + self.board_text() + "\n")
