"""The live table loop: camera frames in, the referee's calls stored, then shown.

One :class:`TableSession` owns a camera game (any game the registry declares as played with the
camera), its referee (made by the game's :class:`~controller.games.table.TablePlay`), the camera's
:class:`~controller.vision.pipeline.TableWatcher` and the event store. Each frame goes to the
watcher; when the table has come to rest the still snapshot goes to the referee, and what the
referee decides is handled in this order:

1. the engine actions of each call and the call itself (its decision and the reason citing the
   rule) are committed to the event log in one transaction;
2. only then is the call announced (dashboard, terminal).

Questions are logged and shown with their choices; answers, overrules and players' choices come
in through :meth:`TableSession.command` (the dashboard's token-guarded POST endpoints) and are
logged in the same way. An overrule rewinds the engine, so the stored actions are rewritten from
the first one that changed. A restart replays the stored actions through the engine and carries on.

The log is the truth. The referee decides in memory first, so before each decision the session
takes a checkpoint of it (``referee.checkpoint()``, a few microseconds); if writing the log then
fails (a full disk, a read-only card, a locked database), the referee is put back as it was,
nothing is announced as decided, and the caller is told what failed (:class:`LogWriteError`); a
camera snapshot is refused the same way in the terminal and on the page, and the next still
snapshot is judged again. Should the log have taken part of a decision before failing, the session
carries on from what the log holds, as a restart would.

The loop runs in one thread (:meth:`TableSession.run` or :meth:`TableSession.feed`); the web server
talks to it through :meth:`TableSession.command`, which queues a request and returns a future.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

import numpy as np

from controller import i18n
from controller.engines import Game, RuleError
from controller.games import UnknownGameError, game as game_spec
from controller.games.spec import GameSpec
from controller.games.table import TablePlay
from controller.i18n import N_, listing, message
from controller.referee.common import Call, Question, RefereeConfig, RefereeError, TableReferee
from controller.service.config import PlayerConfig
from controller.service.hub import Hub
from controller.service.loop import GameLoop, SessionError
from controller.service.store import GameStore, StoredGame
from controller.vision.mat import MatLayout
from controller.vision.pipeline import TableWatcher
from controller.vision.snapshot import TableSnapshot

log = logging.getLogger(__name__)

#: The most choices offered at once on the page.
MAX_CHOICES = 16

#: The players' colours on the table page, by seat.
SEAT_COLOURS = ("#e53935", "#1e88e5", "#43a047", "#fdd835")


R = TypeVar("R")


class NotFound(LookupError):
    """A request names a question or a call the referee does not have open (HTTP 404)."""


class LogWriteError(SessionError):
    """The event log could not be written, so the decision was not made: the referee is as it was
    before the request. The dashboard shows the message (the web app answers 409 with it)."""


class _Unwritten(Exception):
    """Raised inside a decision when the store refuses a write; carries the store's exception."""

    def __init__(self, cause: Exception) -> None:
        super().__init__(str(cause))
        self.cause = cause


@dataclasses.dataclass
class TableSetup:
    """Which game, who plays and how the referee judges: what a table game needs beyond the mat."""

    players: list[PlayerConfig]
    options: dict[str, Any] = dataclasses.field(default_factory=dict)
    seed: int = 0
    referee: RefereeConfig = dataclasses.field(default_factory=RefereeConfig)
    #: The registered game's name (see :mod:`controller.games`).
    game: str = dataclasses.field(kw_only=True)


class TableSession(GameLoop):
    """A live camera game between a camera, the referee and the people at the table, stored and published."""

    log_length = 80

    def __init__(self, setup: TableSetup, store: GameStore, layout: MatLayout, watcher: TableWatcher | None,
                 hub: Hub | None = None) -> None:
        super().__init__()
        self.setup = setup
        self.store = store
        self.layout = layout
        self.watcher = watcher
        self.hub = hub or Hub()
        self.spec: GameSpec = self._spec(setup.game)
        self.play: TablePlay = self.spec.load_table()()
        self.engine: type[Game[Any]] = self.spec.load_engine()
        self.referee: TableReferee | None = None
        self.game_id: int | None = None
        self.players: list[PlayerConfig] = []
        self.status = "idle"
        self.calls: dict[int, dict[str, Any]] = {}
        self.last_shot: dict[str, Any] | None = None
        self.last_snapshot: TableSnapshot | None = None
        self.frames = 0
        self.snapshots = 0
        self.frame_s = 0.0
        self.questions_asked = 0
        self._resumed = False
        #: systemd's watchdog (:class:`~controller.service.watchdog.Watchdog`), ticked as the loop goes.
        self.watchdog: Any = None
        #: Called with each announcement (dict) once it is stored; the terminal prints them.
        self.listeners: list[Callable[[dict[str, Any]], None]] = []
        #: With a game's hand pages (:attr:`TablePlay.HAND_PAGES`): one hub per seat, carrying what
        #: that seat alone may see (see :meth:`seat_state`); made again when a game of another number
        #: of players is installed.
        self.seat_hubs: dict[str, Hub] = {sid: Hub() for sid in self.seat_ids()} if self.hand_pages else {}
        #: Called with the seats' ids each time they change (the web app's seat registry follows them).
        self.seat_listeners: list[Callable[[list[str]], None]] = []

    # ---- starting ----------------------------------------------------------------------------

    @staticmethod
    def _spec(name: str) -> GameSpec:
        """The registered camera game ``name``; :class:`SessionError` saying what to play otherwise."""
        try:
            spec = game_spec(name)
        except UnknownGameError as exc:
            raise SessionError(str(exc)) from None
        if spec.table is None:
            raise SessionError(f"{spec.title} is not refereed by the table camera (it is played with: "
                               f"{', '.join(spec.play)}); see `bitbox play {spec.name} --help`")
        return spec

    @property
    def game(self) -> Any:
        """The game being refereed (the referee's), or ``None`` before one is started."""
        return self.referee.game if self.referee is not None else None

    def _new_referee(self, game: Game[Any]) -> TableReferee:
        return self.play.referee(game, self.setup.referee)

    def start_new(self) -> None:
        """Begin a new game (recorded in the store first); an unfinished one is marked aborted."""
        try:
            game = self.engine(self.setup.options, seed=self.setup.seed)
        except (KeyError, ValueError) as exc:
            raise SessionError(f"cannot start {self.spec.name}: {exc.args[0] if exc.args else exc}") from None
        players = self._check_players(self.setup.players, game)
        self._abort_unfinished()
        self.game_id = self.store.new_game(game.NAME, game.options.to_dict(), game.seed,
                                           {"players": [dataclasses.asdict(p) for p in players], "table": self.layout.name})
        self._install(game, players)
        self._announce("service", message(N_("game #{number} started: {title}, {players}, seed {seed}"),
                                          number=self.game_id, title=game.TITLE,
                                          players=listing(p.name for p in players), seed=game.seed))

    def resume(self, stored: StoredGame) -> None:
        """Rebuild ``stored`` by replaying its actions through the engine, and carry on from there."""
        game = self._replay(stored)
        players = [PlayerConfig(**p) for p in stored.setup.get("players", [])] or self._default_players(game)
        self.game_id = stored.id
        self._install(game, players)
        for note in self.store.notes(stored.id)[-self.log_length // 2:]:
            if note["kind"] in ("call", "overrule"):
                self._announce("earlier", note.get("message") or message(N_("{decision}: {reason}"),
                                                                         decision=note["decision"],
                                                                         reason=note["reason"]))
        self._resumed = True
        self._announce("service", message(N_("game #{number} resumed after {actions} stored actions"),
                                          number=stored.id, actions=len(game.history)))
        if game.is_over():
            self.store.set_status(stored.id, "over")
            self.status = "over"

    def _replay(self, stored: StoredGame) -> Game[Any]:
        """The game ``stored`` rebuilt by replaying its stored actions through the engine."""
        if stored.game != self.spec.name:
            raise SessionError(f"stored game #{stored.id} is a game of {stored.game}, not of {self.spec.name}")
        try:
            game = self.engine(self.engine.OPTIONS.from_dict(stored.options), seed=stored.seed)
        except (KeyError, ValueError) as exc:
            raise SessionError(f"stored game #{stored.id} cannot be rebuilt: {exc}") from None
        for index, (player, encoded) in enumerate(self.store.actions(stored.id)):
            try:
                game.apply(player, game.decode_action(encoded))
            except (ValueError, TypeError, KeyError) as exc:
                raise SessionError(f"stored action #{index} of game #{stored.id} ({encoded!r}) is refused: {exc}; "
                                   "the database was left as it is") from None
        return game

    def _install(self, game: Game[Any], players: list[PlayerConfig]) -> None:
        """Make ``game`` the one being refereed, its seats named after ``players``. The names are
        display only: they are not in the game's options, seed or actions, so a resumed game gets
        them again from the stored setup."""
        game.name_seats([p.name for p in players][: game.num_players])
        self.referee = self._new_referee(game)
        self.players = players
        self.status = "playing"
        self.log = []
        self.calls = {}
        self.last_shot = None
        self._reseat()

    def _reseat(self) -> None:
        """Give each seat of the game just installed its page's hub, a seat kept keeping its hub (and
        the pages streaming from it), and tell the seat listeners: a tournament's pairing may seat
        another number of players than the table started with."""
        if not self.hand_pages:
            return
        ids = self.seat_ids()
        if list(self.seat_hubs) == ids:
            return
        self.seat_hubs = {sid: self.seat_hubs.get(sid) or Hub() for sid in ids}
        for listener in self.seat_listeners:
            listener(ids)

    # ---- the loop ----------------------------------------------------------------------------

    def inputs_alive(self) -> bool:
        """Whether the loop goes on (the watchdog's condition). The watchdog is ticked by
        :meth:`feed` and :meth:`step`, so a camera that stops delivering frames stops the pings."""
        return not self._stopping

    def run(self, frames: Iterable[np.ndarray], clock: Callable[[], float] = time.monotonic,
            until_over: bool = True) -> None:
        """Feed ``frames`` (a camera source) until they end, the game is over or :meth:`stop`."""
        for frame in frames:
            self.feed(frame, clock())
            if self._stopping or (until_over and self.game is not None and self.game.is_over()):
                break
        self.step()

    def step(self) -> None:
        """Handle queued commands and publish what changed."""
        self._run_commands()
        self._flush()
        self._tick()

    def _tick(self) -> None:
        if self.watchdog is not None:
            self.watchdog.tick()

    def feed(self, frame: np.ndarray, t: float) -> TableSnapshot | None:
        """One camera frame; the still snapshot it completed (already refereed), if any."""
        if self.watcher is None:
            raise SessionError("no camera is attached to this table")
        self._run_commands()
        start = time.perf_counter()
        snap = self.watcher.feed(frame, t)
        for text in self.watcher.take_notices():
            self._announce("camera", text)
        self.frames += 1
        if snap is not None:
            self.observe(snap)
        self.frame_s += time.perf_counter() - start
        self._flush()
        self._tick()
        return snap

    def observe(self, snap: TableSnapshot) -> list[Call | Question]:
        """A still snapshot to the referee; its calls and questions stored, then announced."""
        referee = self.referee
        if referee is None or self.status != "playing":
            return []
        self.snapshots += 1
        self.last_snapshot = snap
        self._dirty = True

        def judge() -> list[Call | Question]:
            if self._resumed:
                self._rebind(snap)
                self._resumed = False
            before = self._positions()
            try:
                results = referee.observe(snap)
            except RefereeError as exc:
                self._announce("refused", message(N_("the referee could not judge the table: {problem}"),
                                                  problem=str(exc)))
                return []
            self._handle(results, before)
            return results

        try:
            return self._decide(judge)
        except LogWriteError as exc:
            self._announce("refused", message(N_("{problem}; the next still table is judged again"),
                                              problem=str(exc)))
            return []

    def _rebind(self, snap: TableSnapshot) -> None:
        """After a restart the camera's dice have new ids: the game ties them to its pieces again."""
        assert self.referee is not None
        self.play.rebind(self.referee, snap)

    # ---- storing, then showing ---------------------------------------------------------------

    def _positions(self) -> Any:
        """What the table holds before a decision, to draw what the decision moved."""
        return self.play.before(self.game) if self.game is not None else None

    def _handle(self, results: list[Call | Question], before: Any) -> None:
        for result in results:
            if isinstance(result, Call):
                self._store_call(result, before)
            else:
                self._store_question(result)

    def _public_call(self, call: Call, secret: Iterable[tuple[int, Any]] = ()) -> dict[str, Any]:
        """The call as stored in the notes and shown, each action chosen in secret (``secret``, or of a
        kind the game declares in :attr:`TablePlay.SECRET`) replaced by ``{"type": "secret"}``: the
        page and the notes are everyone's, the actions' own log replays the game."""
        data = self.play.call_json(call, self.engine)
        secret = list(secret)
        shown = data.get("actions")
        if isinstance(shown, list) and len(shown) == len(call.actions):
            for index, (player, action) in enumerate(call.actions):
                encoded = self.engine.encode_action(action)
                kind = encoded.get("type") if isinstance(encoded, dict) else None
                if (player, action) in secret or kind in self.play.SECRET:
                    shown[index] = [player, {"type": "secret"}]
        return data

    def _store_call(self, call: Call, before: Any, secret: Iterable[tuple[int, Any]] = ()) -> None:
        """Commit the call's actions and the call, then announce it; ``secret``: the actions a player
        chose on their own page, never shown."""
        game = self.game
        assert game is not None and self.game_id is not None
        stored = self._stored_count()
        history = game.history
        new = [(p, game.encode_action(a)) for p, a in history[stored:]]
        data = self._public_call(call, secret)
        self._write(self.store.record, self.game_id, stored, new, "call", data)
        self.calls[call.call_id] = {**data, "kind": "call", "actions": len(history)}
        shot = self.play.shot(call, before, game)
        if shot is not None:
            self.last_shot = shot
        if game.is_over():
            self._mark_over()
        self._announce("call", call.message or message(N_("{decision}: {reason}"), decision=call.decision,
                                                       reason=call.reason),
                       {"call_id": call.call_id, "decision": call.decision})

    def _store_question(self, question: Question) -> None:
        assert self.game_id is not None and self.game is not None
        self._write(self.store.record, self.game_id, len(self.game.history), [], "question", question.to_json())
        self.questions_asked += 1
        self._announce("question", message(N_("question {number}: {text} ({reason})"), number=question.question_id,
                                           text=question.message or question.text,
                                           reason=question.reason_message or question.reason),
                       {"question_id": question.question_id})

    def _stored_count(self) -> int:
        assert self.game_id is not None
        return self._write(self.store.action_count, self.game_id)

    def _mark_over(self) -> None:
        """The game has ended: say so in the log's game row. Its actions are stored already, so a
        failure here loses nothing (a restart sees the end in them); it is only reported."""
        assert self.game_id is not None
        self.status = "over"
        try:
            self.store.set_status(self.game_id, "over")
        except Exception as exc:  # noqa: BLE001 - any store failure; the game itself is stored
            log.warning("game #%s: the end of the game could not be marked in the log: %s", self.game_id, exc)

    # ---- keeping the referee in step with the log --------------------------------------------

    def _write(self, write: Callable[..., R], *args: Any, **kwargs: Any) -> R:
        """A call to the store inside a decision; its failure, whatever the exception, becomes
        :class:`_Unwritten` so that :meth:`_decide` can tell it from a fault of the referee."""
        try:
            return write(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - sqlite3, OSError, StoreError: all mean "not stored"
            raise _Unwritten(exc) from exc

    def _decide(self, decision: Callable[[], R]) -> R:
        """Run ``decision`` (the referee decides, the log is written, the result announced) so that
        the referee never runs ahead of the log: if anything in it fails, the referee is put back as
        it was before; a failed write is raised as :class:`LogWriteError` saying what to do."""
        referee = self.referee
        assert referee is not None
        saved = referee.checkpoint()
        resumed = self._resumed
        try:
            return decision()
        except _Unwritten as exc:
            partly = self._roll_back(saved, resumed)
            raise LogWriteError(self._unwritten(exc.cause, partly)) from exc.cause
        except Exception:
            self._roll_back(saved, resumed)
            raise

    def _roll_back(self, saved: Any, resumed: bool) -> bool:
        """Put the referee back to ``saved``. If the log took part of the decision before failing,
        carry on from what it holds instead, as a restart would; returns whether that happened."""
        referee = self.referee
        assert referee is not None and self.game_id is not None
        referee.restore(saved)
        self._resumed = resumed
        try:
            stored = self.store.game(self.game_id)
            if stored.actions == len(referee.game.history):
                return False
            game = self._replay(stored)
        except Exception as exc:  # noqa: BLE001 - the log cannot be read either: keep the checkpoint
            log.warning("game #%s: the log could not be read back after a failed write: %s", self.game_id, exc)
            return False
        game.name_seats(referee.game.seat_names)
        referee.restore(self._new_referee(game).checkpoint())   # the same object: holders see the log's game
        self.calls = {}
        self.last_shot = None
        self._resumed = True
        self.status = "over" if game.is_over() else "playing"
        return True

    def _unwritten(self, cause: Exception, partly: bool) -> str:
        """What failed and what to do about it, for the people at the table."""
        what = f"{type(cause).__name__}: {cause}"
        where = self.store.path.parent
        if partly:
            done = ("only part of it was stored: the game carries on from what the log holds, as after a restart, "
                    "and earlier calls can no longer be overruled")
        else:
            done = "nothing was changed"
        return (f"the game log {self.store.path} could not be written ({what}): {done}; "
                f"free space on the disk holding {where} or make it writable, then try again")

    # ---- commands from the dashboard ---------------------------------------------------------

    def _playing(self) -> TableReferee:
        if self.referee is None or self.game_id is None:
            raise SessionError("there is no game being played")
        if self.status != "playing":
            raise SessionError(f"game #{self.game_id} is {self.status}; nothing more can be decided in it")
        return self.referee

    def _cmd_answer(self, payload: dict[str, Any]) -> dict[str, Any]:
        _fields(payload, {"question_id": int, "choice": str})
        results = self.answer(payload["question_id"], payload["choice"])
        return {"calls": [r.call_id for r in results if isinstance(r, Call)],
                "questions": [r.question_id for r in results if isinstance(r, Question)]}

    def answer(self, qid: int, choice: str) -> list[Call | Question]:
        """The players' answer to a question: logged, then the call it completes stored and shown."""
        referee = self._playing()
        question = referee.questions.get(qid)
        if question is None:
            raise NotFound(f"there is no open question {qid}; open: {sorted(referee.questions) or 'none'}")
        if choice not in question.choices:
            raise ValueError(f"{choice!r} is not a choice of question {qid}: {', '.join(question.choices)}")
        assert self.game_id is not None
        game_id = self.game_id

        def decide() -> list[Call | Question]:
            self._write(self.store.record, game_id, self._stored_count(), [], "answer",
                        {"question_id": qid, "choice": choice})
            self._announce("answer", message(N_("answer to question {number}: {choice}"), number=qid, choice=choice),
                           {"question_id": qid, "choice": choice})
            before = self._positions()
            results = referee.answer(qid, choice)
            self._handle(results, before)
            return results

        return self._decide(decide)

    def _cmd_overrule(self, payload: dict[str, Any]) -> dict[str, Any]:
        _fields(payload, {"call_id": int, "decision": str})
        referee = self._playing()
        call_id, decision = payload["call_id"], payload["decision"]
        assert self.game_id is not None
        game_id = self.game_id
        if call_id not in {c.call_id for c in referee.calls}:
            raise NotFound(f"there is no call {call_id} to overrule (calls made since the service started: "
                           f"{', '.join(str(c.call_id) for c in referee.calls) or 'none'})")

        def decide() -> dict[str, Any]:
            stored = self._write(self.store.actions, game_id)
            try:
                call = referee.overrule(call_id, decision)
            except RefereeError as exc:
                raise ValueError(str(exc)) from None
            game = referee.game
            encoded = [(p, game.encode_action(a)) for p, a in game.history]
            keep = 0
            while keep < min(len(stored), len(encoded)) and [stored[keep][0], stored[keep][1]] == list(encoded[keep]):
                keep += 1
            data = self._public_call(call)
            data["overruled"] = {"call_id": call_id, "decision": decision}
            self._write(self.store.record, game_id, keep, encoded[keep:], "overrule", data, keep=keep)
            self.calls[call.call_id] = {**data, "kind": "call", "actions": len(game.history)}
            if call_id in self.calls:
                self.calls[call_id] = {**self.calls[call_id], "overruled_by": call.call_id}
            self.last_shot = None if self.last_shot and self.last_shot["call_id"] == call_id else self.last_shot
            if game.is_over():
                self._mark_over()
            elif self.status == "over":
                self.status = "playing"
            self._announce("overrule", message(N_("call {number} overruled with {decision}: {reason}"), number=call_id,
                                               decision=decision, reason=call.message or call.reason),
                           {"call_id": call.call_id, "overrules": call_id, "decision": decision})
            return {"call_id": call.call_id, "reason": call.reason, "actions": len(game.history)}

        return self._decide(decide)

    def player_action(self, player: int, action: Any, secret: bool = False) -> Call:
        """A choice a player makes at the table (a power, a wake, the end of a turn): checked by the
        engine, stored, then shown; ``secret``: made on the player's own page, so the action itself is
        never shown. What the referee held back waiting for it is judged then
        (``referee.after_choice()``, for a referee that has it)."""
        referee = self._playing()

        def decide() -> Call:
            before = self._positions()
            try:
                call = referee.player_action(player, action)
            except RuleError as exc:
                raise ValueError(f"the rules refuse it: {exc.reason}") from None
            self._store_call(call, before, [(player, action)] if secret else ())
            held = getattr(referee, "after_choice", None)
            if callable(held):
                self._handle(held(), self._positions())
            return call

        return self._decide(decide)

    def _cmd_action(self, payload: dict[str, Any]) -> dict[str, Any]:
        _fields(payload, {"player": int, "action": object})
        game = self._playing().game
        player = payload["player"]
        if not 0 <= player < game.num_players:
            raise ValueError(f"player {player} is not a seat of this game (0 to {game.num_players - 1})")
        try:
            action = game.decode_action(payload["action"])
        except (ValueError, TypeError, KeyError) as exc:
            raise ValueError(f"not a {self.spec.title} action: {exc}") from None
        call = self.player_action(player, action)
        return {"call_id": call.call_id, "reason": call.reason}

    def _cmd_abort(self, payload: dict[str, Any]) -> dict[str, Any]:
        _fields(payload, {})
        self._playing()
        assert self.game_id is not None
        try:
            self.store.set_status(self.game_id, "aborted")
        except Exception as exc:  # noqa: BLE001 - any store failure: the game goes on as it was
            raise LogWriteError(self._unwritten(exc, partly=False)) from exc
        self.status = "aborted"
        self._announce("service", message(N_("game #{number} aborted"), number=self.game_id))
        return {"aborted": self.game_id}

    # ---- each player's own page (a game's hand pages) -------------------------------------------

    @property
    def hand_pages(self) -> bool:
        """Whether each player has a page of their own for a hidden hand (``/hand/N``)."""
        return bool(self.play.HAND_PAGES)

    def seat_ids(self) -> list[str]:
        """The seats' ids in their pages' addresses: ``"1"`` to ``"N"``, one for each seat of the game
        being refereed (before one is, of the players set up)."""
        game = self.game
        count = game.num_players if game is not None else len(self.setup.players)
        return [str(seat + 1) for seat in range(count)]

    def seat_of(self, seat_id: str) -> int:
        if seat_id not in self.seat_ids():
            raise LookupError(seat_id)
        return self.seat_ids().index(seat_id)

    def bot_held(self, seat_id: str) -> bool:
        """No bot plays at a table: every seat's page may be joined."""
        return False

    def _secret_actions(self, seat: int) -> list[Any]:
        game = self.game
        if game is None or self.status != "playing" or game.is_over() or seat not in game.current_players():
            return []
        return list(self.play.secret_choices(game, seat))[:MAX_CHOICES]

    def seat_state(self, seat_id: str) -> dict[str, Any]:
        """What the page of seat ``seat_id`` alone may see, and the choices it alone may make."""
        seat = self.seat_of(seat_id)
        game = self.game
        out: dict[str, Any] = {"id": seat_id, "seat": seat, "name": self.seat_name(seat), "bot": False}
        if game is None:
            return {**out, "view": None, "choices": [], "step": 0, "waiting": False, "told": []}
        describe = getattr(game, "describe_message", None)
        choices = [{"index": i, "words": describe(a) if callable(describe) else message(game.describe_action(a))}
                   for i, a in enumerate(self._secret_actions(seat))]
        return {**out, "view": self.play.private(game, seat), "choices": choices, "step": len(game.history),
                "waiting": bool(choices), "told": []}

    def _cmd_choose(self, payload: dict[str, Any]) -> dict[str, Any]:
        """A choice made on a seat's own page: ``{"seat", "index", "step"}``; checked, stored, shown."""
        seat, index, step = payload.get("seat"), payload.get("index"), payload.get("step")
        if type(seat) is not int or type(index) is not int or (step is not None and type(step) is not int):
            raise ValueError('send {"index": the number of a choice, "step": the "step" it was offered at}')
        game = self._playing().game
        if step is not None and step != len(game.history):
            raise ValueError("the game has moved on since this list was shown: choose again")
        actions = self._secret_actions(seat)
        if not 0 <= index < len(actions):
            raise ValueError("that choice is no longer offered: choose again from the list")
        call = self.player_action(seat, actions[index], secret=True)
        return {"call_id": call.call_id, "actions": len(self.game.history)}

    def publish(self) -> dict[str, Any]:
        """The public state to everyone, then to each seat's own page what changed of its own."""
        published = super().publish()
        ids = self.seat_ids()
        for sid, hub in list(self.seat_hubs.items()):
            if sid not in ids:
                continue
            seat = self.seat_state(sid)
            if hub.latest is None or hub.latest["seat"] != seat:
                hub.publish({"type": "seat", "seat": seat})
        return published

    # ---- what the table shows ----------------------------------------------------------------

    def seat_name(self, seat: int) -> str:
        """How the table names ``seat``: as the game's calls and prompts do."""
        if self.game is not None:
            return self.game.seat_label(seat)
        return self.players[seat].name if 0 <= seat < len(self.players) else f"player {seat}"

    @functools.cached_property
    def mat_state(self) -> dict[str, Any]:
        """The mat as the table page draws it (its zones as polygons); drawn once, the mat does not change."""
        layout = self.layout
        return {
            "name": layout.name, "width_mm": layout.width_mm, "height_mm": layout.height_mm,
            "zones": [{"name": z.name, "kind": z.kind, "owner": z.owner, "shape": z.shape,
                       "center": list(z.params.get("center", z.center)), "radius_mm": z.params.get("radius_mm"),
                       "polygon": [list(map(float, p)) for p in z.polygon(32)]} for z in layout.zones],
        }

    def public_state(self) -> dict[str, Any]:
        """Everything the table page draws; a camera game's table is public, so is all of it."""
        referee, game = self.referee, self.game
        state: dict[str, Any] = {"table": True, "ui": self.spec.ui("camera"), "status": self.status,
                                 "game_id": self.game_id, "mat": self.mat_state,
                                 "players": [{"name": p.name, "colour": SEAT_COLOURS[i % len(SEAT_COLOURS)]}
                                             for i, p in enumerate(self.players)],
                                 "log": list(self.log), "frames": self.frames, "snapshots": self.snapshots}
        if referee is None or game is None:
            return state
        state.update(self.play.public(referee, self.last_snapshot, self.last_shot))
        state.update({
            "prompt": referee.prompt(),
            "prompt_message": self._prompt_message(referee),
            "over": game.is_over(),
            "winners": [self.seat_name(w) for w in game.winners()] if game.is_over() else [],
            "questions": [q.to_json() for q in referee.questions.values()],
            "choices": self._choices(),
            "calls": [c for c in list(self.calls.values())[-12:]],
        })
        return state

    @staticmethod
    def _prompt_message(referee: TableReferee) -> Any:
        """What the table waits for as a message (a referee that words it only in English: that)."""
        words = getattr(referee, "prompt_message", None)
        said = words() if callable(words) else None
        return said if said is not None else message(referee.prompt())

    def _choices(self) -> list[dict[str, Any]]:
        """What the players may announce now (a power, a wake, the end of the turn), as encoded actions."""
        game = self.game
        if game is None or game.is_over() or self.status != "playing" or (self.referee and self.referee.questions):
            return []
        out = []
        for player in game.current_players():
            if player < 0:
                continue
            for action in game.legal_actions(player):
                encoded = game.encode_action(action)
                if isinstance(encoded, dict) and encoded.get("type") in self.play.ANNOUNCED:
                    out.append({"player": player, "action": encoded, "text": game.describe_action(action)})
        return out[:MAX_CHOICES]

    def _announce(self, kind: str, words: Any, data: dict[str, Any] | None = None) -> None:
        """Announce ``words`` (a message, or a camera's notice as it is) to the table and the listeners."""
        words = words if isinstance(words, Mapping) else message(str(words))
        event = self._record({"kind": kind, "text": i18n.said(words, i18n.SOURCE_LANGUAGE), "message": words,
                              "data": data or {}})
        self._dirty = True
        for listener in self.listeners:
            listener(event)


def _fields(payload: dict[str, Any], wanted: dict[str, type]) -> None:
    """Refuse a request body with a missing, unknown or mistyped field, saying which."""
    unknown = sorted(set(payload) - set(wanted))
    if unknown:
        raise ValueError(f"unknown field(s) {', '.join(unknown)}; known: {', '.join(wanted) or 'none'}")
    for name, kind in wanted.items():
        if name not in payload:
            raise ValueError(f"missing field {name!r}; send {', '.join(wanted)}")
        value = payload[name]
        if kind is int and (type(value) is not int):
            raise ValueError(f"{name!r} must be a whole number, not {value!r}")
        if kind is str and not isinstance(value, str):
            raise ValueError(f"{name!r} must be text, not {value!r}")


__all__ = ["SEAT_COLOURS", "LogWriteError", "NotFound", "TableSession", "TableSetup"]
