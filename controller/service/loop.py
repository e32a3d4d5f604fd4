"""What the console's and the table's game loops share: commands from the web, stopping, players.

Both loops run in one thread and own the event store; the web server's thread never touches
the game. It calls :meth:`GameLoop.command`, which queues the request with a future; the loop's
thread runs it (a ``_cmd_<name>`` method) the next time it handles its queue, then publishes.
"""

from __future__ import annotations

import concurrent.futures
import json
import logging
import queue
from collections.abc import Iterator
from typing import Any

from controller.service.config import PlayerConfig
from controller.service.hub import Hub
from controller.service.store import GameStore, StoreError

log = logging.getLogger(__name__)


class SessionError(Exception):
    """The session cannot start or go on (bad set-up, unknown controllers, a damaged log)."""


def revealed_length(name: str, options: dict[str, Any], seed: int, actions: list[tuple[int, Any]]) -> int:
    """How many of a stored game's first ``actions`` are revealed: the longest beginning after which
    no seat has a secret action pending (a locked program not yet revealed).

    An aborted game keeps only those, so that neither an export nor an undo ever brings a secret out."""
    from controller.games import game as game_spec

    engine = game_spec(name).load_engine()
    game = engine(engine.OPTIONS.from_dict(options), seed=seed)
    revealed = 0
    for index, (player, encoded) in enumerate(actions, start=1):
        game.apply_unchecked(player, game.decode_action(encoded))
        if not any(game.secret_pending(seat) for seat in range(game.num_players)):
            revealed = index
    return revealed


def public_save(store: GameStore, game_id: int) -> dict[str, Any]:
    """A stored game as a save file without any action still secret (see :func:`revealed_length`)."""
    from controller.games import EXTRA_GAMES_ENV, UnknownGameError

    stored = store.game(game_id)
    data = store.save_data(game_id)
    try:
        keep = revealed_length(stored.game, stored.options, stored.seed, [tuple(a) for a in data["actions"]])
    except UnknownGameError:
        raise SessionError(f"game #{game_id} is a game of {stored.game!r}, which this installation does not know; "
                           f"add its module to {EXTRA_GAMES_ENV} to export it") from None
    data["actions"] = data["actions"][:keep]
    return data


class GameLoop:
    """The command queue, the stop flag, the announcement log and the publishing of a live game's loop."""

    store: GameStore
    hub: Hub
    #: How many announcements the dashboard's log keeps.
    log_length = 60

    def __init__(self) -> None:
        self._commands: queue.Queue[tuple[str, dict[str, Any], concurrent.futures.Future[Any]]] = queue.Queue()
        self._stopping = False
        self.log: list[dict[str, Any]] = []
        self._pending: list[dict[str, Any]] = []
        self._seq = 0
        self._dirty = False
        self._published_text: str | None = None

    # ---- stopping ----------------------------------------------------------------------------

    @property
    def stopping(self) -> bool:
        return self._stopping

    def stop(self) -> None:
        """Ask the loop to return (from any thread)."""
        self._stopping = True

    # ---- running -----------------------------------------------------------------------------

    #: The game being played, and how many turns this loop has resolved (set by each loop).
    game: Any = None
    turns_resolved = 0

    def step(self, timeout: float = 0.05) -> None:
        """One pass of the loop: commands, inputs and due bot actions, waiting at most ``timeout``."""
        raise NotImplementedError

    def run(self, until_over: bool = True, max_turns: int | None = None, watchdog: Any = None,
            tick: float = 0.05) -> None:
        """Play until the game is over (``until_over``), ``max_turns`` turns are resolved (what a turn
        is, each loop says), or :meth:`stop`."""
        while not self._stopping:
            self.step(tick)
            if watchdog is not None:
                watchdog.tick()
            if self.game is not None and until_over and self.game.is_over():
                break
            if max_turns is not None and self.turns_resolved >= max_turns:
                break

    # ---- commands from the web ---------------------------------------------------------------

    def command(self, name: str, payload: dict[str, Any] | None = None) -> concurrent.futures.Future[Any]:
        """Queue command ``name`` for the loop's thread; the future gets its result or its error."""
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        self._commands.put((name, dict(payload or {}), future))
        return future

    def has_command(self, name: str) -> bool:
        return callable(getattr(self, f"_cmd_{name.replace('-', '_')}", None))

    def _run_commands(self) -> None:
        """Run every queued command, publishing what each one changed."""
        while True:
            try:
                name, payload, future = self._commands.get_nowait()
            except queue.Empty:
                return
            handler = getattr(self, f"_cmd_{name.replace('-', '_')}", None)
            try:
                if handler is None:
                    raise ValueError(f"this service does not know the command {name!r}")
                result = handler(payload)
            except (SessionError, StoreError, ValueError, LookupError) as exc:
                future.set_exception(exc)
            except Exception as exc:  # noqa: BLE001 - the web reports it; the loop goes on
                log.exception("command %s failed", name)
                future.set_exception(exc)
            else:
                future.set_result(result)
            self._flush()

    # ---- publishing --------------------------------------------------------------------------

    def public_state(self) -> dict[str, Any]:
        """What every spectator may see now."""
        raise NotImplementedError

    def _record(self, event: dict[str, Any]) -> dict[str, Any]:
        """Number an announcement, keep it in the log and queue it for the next message."""
        self._seq += 1
        event = {**event, "n": self._seq}
        self.log.append(event)
        del self.log[:-self.log_length]
        self._pending.append(event)
        return event

    def _flush(self) -> None:
        """Publish if anything changed since the last message."""
        if self._dirty or self._pending:
            self.publish()

    def publish(self) -> dict[str, Any]:
        """Send the public state and the announcements since the last message to every listener.

        Nothing is sent when neither changed: what happens out of sight (a wheel turned during a
        secret phase) must not show even as a message, its timing or the count of messages."""
        self._dirty = False
        events, self._pending = self._pending, []
        state = self.public_state()
        text = json.dumps(state, separators=(",", ":"))
        if not events and text == self._published_text and self.hub.latest is not None:
            return self.hub.latest
        self._published_text = text
        return self.hub.publish({"type": "state", "state": state, "events": events}, state_text=text)

    def _discard_secrets(self, game_id: int) -> None:
        """Drop the stored actions still secret (locked, not revealed) of a game that stops here: an
        aborted game is never exported, corrected or resumed with anyone's secret in it."""
        from controller.games import UnknownGameError

        stored = self.store.game(game_id)
        actions = self.store.actions(game_id)
        try:
            keep = revealed_length(stored.game, stored.options, stored.seed, actions)
        except UnknownGameError:
            return     # a game this service does not know: left as it is (it cannot be exported either)
        if keep < len(actions):
            self.store.truncate(game_id, keep)

    def _abort_unfinished(self) -> None:
        """Before a new game: the one left unfinished in the log is aborted, its secrets dropped."""
        old = self.store.unfinished()
        if old is not None:
            self._discard_secrets(old.id)
            self.store.set_status(old.id, "aborted")

    def _cmd_games(self, payload: dict[str, Any]) -> dict[str, Any]:
        return {"games": [
            {"id": g.id, "game": g.game, "seed": None if g.status == "playing" else g.seed, "status": g.status,
             "actions": g.actions,
             "created": g.created, "finished": g.finished, "players": g.setup.get("players", [])}
            for g in self.store.games()
        ]}

    def _cmd_export(self, payload: dict[str, Any]) -> dict[str, Any]:
        """A stored game as a save file; a game still being played is not exported (its secrets are kept)."""
        stored = self.store.game(int(payload["game_id"]))
        if stored.status == "playing":
            raise SessionError(f"game #{stored.id} is still being played; it can be exported once it is over or aborted")
        return public_save(self.store, stored.id)

    # ---- resuming ----------------------------------------------------------------------------

    @staticmethod
    def _rebuilt(stored: Any) -> Any:
        """A fresh game of ``stored``'s kind, options and seed (its actions not yet replayed)."""
        from controller.games import UnknownGameError
        from controller.games import game as game_spec

        try:
            cls = game_spec(stored.game).load_engine()
            return cls(cls.OPTIONS.from_dict(stored.options), seed=stored.seed)
        except (UnknownGameError, ValueError) as exc:
            raise SessionError(f"stored game #{stored.id} cannot be rebuilt: {exc}") from None

    def _stored_actions(self, game: Any, stored: Any) -> Iterator[tuple[int, Any]]:
        """``stored``'s actions, each decoded and checked against ``game`` as it stands when it comes
        (the caller applies it); a damaged one stops the resume with the log left as it is."""
        for index, (player, encoded) in enumerate(self.store.actions(stored.id)):
            try:
                action = game.decode_action(encoded)
                game.check(player, action)
            except (ValueError, TypeError, KeyError) as exc:
                raise SessionError(f"stored action #{index} of game #{stored.id} ({encoded!r}) is refused: {exc}; "
                                   "the database was left as it is") from None
            yield player, action

    # ---- players -----------------------------------------------------------------------------

    @staticmethod
    def _default_players(game: Any) -> list[PlayerConfig]:
        return [PlayerConfig(f"Player {seat + 1}") for seat in range(game.num_players)]

    def _check_players(self, players: list[PlayerConfig], game: Any) -> list[PlayerConfig]:
        """The named players, or default names when none are given; one per seat of ``game``."""
        if not players:
            return self._default_players(game)
        if len(players) != game.num_players:
            raise SessionError(
                f"{len(players)} players are named but this game has {game.num_players} seats; "
                f"name {game.num_players} players (or change the players option)"
            )
        return list(players)
