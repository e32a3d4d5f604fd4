"""The console's live game loop: controllers in, engine decisions stored, then shown.

One :class:`Session` owns a game, the controllers' backend and the event store, and plays any game
declared as played on the wheels (see :mod:`controller.games`). The game's
:class:`~controller.games.wheels.WheelPlay` says what the ready button of each controller means
given its wheels; the session does the rest, the same for every game:

* a press the game reads as an action is checked by the engine; a refused one (a rule broken, a
  wheel still turning) blinks the controller's LED and tells that seat why, and nothing changes;
* a secret action locks its controller (LED on) until the engine reveals it with the others;
* bots act through their piece's simulated controller (turning wheels, pressing ready) when the
  backend can be driven that way, so a demo exercises the same path as people.

Every action the engine accepts is first committed to the event store, then applied, then
published; a restart replays the store and carries on exactly where the game was. The actions
decided in one pass of the loop (six players pressing ready at the same moment) are committed
together, in one transaction, and nothing of them (LEDs, the dashboard, what a seat is told) is
shown before that commit; if the store refuses it, the game goes back to what the store holds. A
controller that is unplugged pauses the game (locks are refused, bots wait) until it comes back.

The loop runs in one thread (:meth:`Session.run`); the web server talks to it through
:meth:`Session.command`, which queues a request and returns a future.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import logging
import secrets
import time
from collections.abc import Callable, Mapping
from typing import Any

from controller import i18n
from controller.dials.backend import ControllerBackend, ControllerError
from controller.dials.state import ControllerEvent, ControllerState, EventKind, LedMode
from controller.engines import Event, Game, RuleError
from controller.games import SpecError, UnknownGameError, game as game_spec
from controller.games.wheels import TURNING, Message, Refused, WheelPlay
from controller.i18n import N_, listing, message
from controller.service.config import PlayerConfig, ServiceConfig
from controller.service.hub import Hub
from controller.service.loop import GameLoop, SessionError
from controller.service.store import GameStore, StoredGame, StoreError

log = logging.getLogger(__name__)

#: How long a bot holds a simulated ready button down, and waits after a press before the next one (s).
BOT_PRESS_HOLD = 0.08
BOT_PRESS_GAP = 0.25
#: When a bot looks again whether its press was taken (and presses again if not) (s).
BOT_PRESS_CHECK = 0.8


@dataclasses.dataclass
class ControllerStatus:
    """What the table may know about one controller (never its wheels before the reveal)."""

    controller_id: str
    piece: int
    connected: bool = False
    turning: bool = True
    led: LedMode | None = None
    #: A problem with the controller itself, for everyone to see (a board's error, an LED that failed).
    message: str = ""
    refused: bool = False
    #: Why its last press was refused: for its seat alone (it narrows down the seat's secret).
    reason: Message | None = None


@dataclasses.dataclass(frozen=True)
class _Committed:
    """What the session showed and the store held when a pass of the loop began: where a pass whose
    actions the store refused goes back to."""

    actions: int
    log: list[dict[str, Any]]
    pending: list[dict[str, Any]]
    seq: int
    turns_resolved: int
    status: str
    notice: str


def _bot_seed(*parts: object) -> int:
    """A stable seed from the session's bot salt and the decision point, so a resumed game plays on
    identically."""
    digest = hashlib.sha256(repr(parts).encode()).digest()
    return int.from_bytes(digest[:8], "big")


class Session(GameLoop):
    """A live game between controllers (or bots) and an engine, stored and published.

    ``backend`` must be started by the caller. ``drive_controllers`` makes bots act through
    their piece's simulated controller (turning wheels, pressing ready) when the backend can be
    driven that way, so a demo exercises the same path as people.
    """

    def __init__(
        self,
        config: ServiceConfig,
        backend: ControllerBackend | None,
        store: GameStore,
        hub: Hub | None = None,
        clock: Callable[[], float] = time.monotonic,
        drive_controllers: bool = True,
    ) -> None:
        super().__init__()
        self.config = config
        self.backend = backend
        self.store = store
        self.hub = hub or Hub()
        self.clock = clock
        self.drive_controllers = drive_controllers
        self.game: Game[Any] | None = None
        #: The game's rules for the wheels, made afresh for each game installed.
        self.play: WheelPlay | None = None
        self.game_id: int | None = None
        self.players: list[PlayerConfig] = []
        self.pieces: list[str] = []
        self.controllers: dict[str, ControllerStatus] = {}
        self.locked: set[int] = set()
        self.turns_resolved = 0
        self.status = "idle"
        self.notice: Message | str = ""
        self._bot_plan: list[tuple[float, int, Callable[[], None]]] = []
        self._bot_keys: set[tuple[Any, ...]] = set()
        self._bot_key_of_piece: dict[int, tuple[Any, ...]] = {}
        self._bot_order = 0
        self._bot_pressed: dict[str, float] = {}
        self._hold_until = 0.0
        self.turn_listeners: list[Callable[[Session], None]] = []
        #: Bots wait while this is set (a stopped demo's dashboard kept up shows where it stopped).
        self.bots_held = False
        #: What the bots' choices are drawn from (see :meth:`start_new`); never published.
        self.bot_salt = 0
        #: Whether the game's seed was chosen by whoever started it (a demo), so may be shown.
        self.seed_public = False
        #: Each controller's private channel: what its seat's page alone may see (see :meth:`seat_state`).
        self.seat_hubs: dict[str, Hub] = {}
        #: Page-held controllers plugged in for bots (no phone holds them).
        self._bot_attached: set[str] = set()
        #: While a pass's actions are not yet committed: what it will show once they are (see :meth:`_show`).
        self._held: list[Callable[[], None]] | None = None
        #: The notice saying the store refused a pass's actions, until it takes some again.
        self._unwritten: Message | None = None

    # ---- starting ----------------------------------------------------------------------------

    def start_new(self) -> None:
        """Begin a new game from the configuration (recorded in the store first)."""
        config = self.config
        seed = config.seed if config.seed is not None else secrets.randbits(31)
        try:
            engine = game_spec(config.game).load_engine()
            game = engine(config.options, seed=seed)
        except (UnknownGameError, ValueError) as exc:
            raise SessionError(f"cannot start {config.game}: {exc.args[0] if exc.args else exc}") from None
        play = self._wheels(game)
        players = self._check_players(config.players, game)
        pieces = self._check_pieces(config.pieces, play, players)
        self._abort_unfinished()
        # Bots draw from the system's random source, unless the configuration fixes what they draw
        # from (a demo replays the same game); it is kept in the private event log for a resume.
        salt = config.bot_salt if config.bot_salt is not None else secrets.randbits(63)
        self.game_id = self.store.new_game(game.NAME, game.options.to_dict(), game.seed,
                                           {**config.setup_dict(), "players": [dataclasses.asdict(p) for p in players],
                                            "pieces": pieces, "bot_salt": salt, "seed_public": config.seed is not None})
        self.bot_salt = salt
        self.seed_public = config.seed is not None
        self.bots_held = False
        self._install(game, play, players, pieces)
        if self.seed_public:
            self._note(N_("game #{number} started: {title}, {players}, seed {seed}"), number=self.game_id,
                       title=game.TITLE, players=listing(p.name for p in players), seed=game.seed)
        else:
            self._note(N_("game #{number} started: {title}, {players}"), number=self.game_id, title=game.TITLE,
                       players=listing(p.name for p in players))
        self._after_change()

    def resume(self, stored: StoredGame) -> None:
        """Rebuild ``stored`` from its committed actions and carry on from there."""
        game = self._reinstall(stored)
        self._note(N_("game #{number} resumed after {actions} stored actions"), number=stored.id,
                   actions=len(game.history))
        if game.is_over():
            self.store.set_status(stored.id, "over")
            self.status = "over"
        self._after_change()

    def _reinstall(self, stored: StoredGame) -> Game[Any]:
        """Install ``stored`` afresh, its committed actions replayed; the game."""
        game = self._rebuilt(stored)
        play = self._wheels(game)
        players = [PlayerConfig(**p) for p in stored.setup.get("players", [])] or self._default_players(game)
        pieces = list(stored.setup.get("pieces", [])) or list(self.config.pieces)
        self._check_pieces(pieces, play, players)
        self.game_id = stored.id
        self.bot_salt = int(stored.setup.get("bot_salt", stored.seed))
        self.seed_public = bool(stored.setup.get("seed_public", True))
        self._install(game, play, players, pieces)
        for player, action in self._stored_actions(game, stored):
            self._apply_known(player, action)
        return game

    @staticmethod
    def _wheels(game: Game[Any]) -> WheelPlay:
        """The wheel rules the registry declares for ``game``."""
        spec = game_spec(game.NAME)
        try:
            rules = spec.load_wheels()
            bot = spec.load_bot()
        except (ImportError, AttributeError, SpecError) as exc:
            raise SessionError(f"{spec.title}'s wheel rules cannot be loaded: {exc}") from None
        if rules is None:
            raise SessionError(f"{spec.title} is not played on the wheels (it is played with: "
                               f"{', '.join(spec.play)}); see `bitbox play {spec.name} --help`")
        return rules(game, bot)

    def _check_pieces(self, pieces: list[str], play: WheelPlay, players: list[PlayerConfig]) -> list[str]:
        """Every piece a person may have to program needs a controller the backend knows."""
        count = play.pieces()
        everyone_bot = all(p.bot for p in players)
        if everyone_bot and not pieces:
            return []
        if len(pieces) != count:
            raise SessionError(
                f"{len(pieces)} controllers are given but the game has {count} pieces (colours); "
                f"list one controller id per piece, in colour order"
            )
        if self.backend is not None:
            # Controllers that announce themselves (USB boards) are not refused at start-up:
            # they show as unplugged until they come.
            known = self.backend.known_controllers()
            unknown = [cid for cid in pieces if known is not None and cid not in known]
            if unknown:
                raise SessionError(
                    f"unknown controller id(s) {', '.join(unknown)} for the {self.backend.NAME or 'chosen'} backend; "
                    f"known controllers: {', '.join(sorted(known or ())) or 'none'}"
                )
        return list(pieces)

    def _install(self, game: Game[Any], play: WheelPlay, players: list[PlayerConfig], pieces: list[str]) -> None:
        game.name_seats([p.name for p in players][: game.num_players])
        self.game = game
        self.play = play
        self.players = players
        self.pieces = pieces
        self.locked = set()
        self.turns_resolved = 0
        self.log = []
        self._pending = []
        self._bot_plan = []
        self._bot_keys = set()
        self._bot_key_of_piece = {}
        self.status = "playing"
        self.controllers = {cid: ControllerStatus(cid, piece) for piece, cid in enumerate(pieces)}
        self.seat_hubs = {cid: self.seat_hubs.get(cid) or Hub() for cid in pieces}
        held = set(self.backend.page_held()) if self.backend is not None else set()
        if self.backend is not None:
            self.backend.played_by_bots({cid for cid in pieces if self.bot_held(cid)})
        for cid in pieces:
            # A controller held by a page (a phone): a bot holds its own, no page needed; one a bot
            # held in the last game and a person plays now waits for that person's phone.
            if cid in held and self.bot_held(cid):
                self.backend.attach(cid)  # type: ignore[union-attr]
                self._bot_attached.add(cid)
            elif cid in self._bot_attached:
                self.backend.detach(cid)  # type: ignore[union-attr]
                self._bot_attached.discard(cid)
        if self.backend is not None:
            for cid, state in self.backend.states().items():
                if cid in self.controllers:
                    self._update_status(state)

    # ---- the loop ----------------------------------------------------------------------------

    def step(self, timeout: float = 0.05) -> None:
        """Handle queued commands, controller events that arrive within ``timeout``, and due bot steps."""
        self._run_commands()
        wait = min(timeout, max(0.0, self._next_bot_due() - self.clock())) if self._bot_plan else timeout
        events: list[ControllerEvent] = []
        if self.backend is not None:
            first = self.backend.get_event(wait)
            events = [] if first is None else [first, *self.backend.events(0)]
        elif wait > 0:
            time.sleep(wait)
        self._handle(events)
        self._flush()

    def _handle(self, events: list[ControllerEvent]) -> None:
        """Handle ``events`` and the due bot steps, their actions committed in one transaction (one
        flush to the disk however many players locked at once), then show what they changed.

        If the store refuses that transaction (a full disk, a damaged file), none of those actions
        is kept: the game goes back to what the store holds, as a restart would, and the table is
        told why. Nothing of them was shown, so nobody saw a move the store does not hold."""
        before = self._committed()
        self._held = []
        try:
            with self.store.batch():
                for event in events:
                    self._on_controller_event(event)
                self._run_bots()
        except Exception as exc:
            self._held = None
            self._go_back(before, exc)
            if not isinstance(exc, StoreError):
                raise
            return
        held, self._held = self._held, None
        if self._unwritten is not None and self.game is not None and len(self.game.history) > before.actions:
            if self.notice == self._unwritten:
                self.notice = ""   # the store takes actions again
            self._unwritten = None
        for effect in held:
            effect()
        self._refresh_leds()

    def _show(self, effect: Callable[[], None]) -> None:
        """Run ``effect`` (something a player sees or hears) now, or once the pass's actions are committed."""
        if self._held is None:
            effect()
        else:
            self._held.append(effect)

    def _committed(self) -> _Committed:
        game = self.game
        return _Committed(len(game.history) if game is not None else 0, list(self.log), list(self._pending),
                          self._seq, self.turns_resolved, self.status, self.notice)

    def _go_back(self, before: _Committed, exc: Exception) -> None:
        """The game as the store holds it after it refused a pass's actions (see :meth:`_handle`); the
        announcements, as shown before that pass; a notice saying what happened and what to do."""
        game = self.game
        if game is None or self.game_id is None:
            return
        self._held = []   # the replay's turn listeners: those turns were heard already
        try:
            try:
                self._reinstall(self.store.game(self.game_id))
            except (StoreError, SessionError) as unread:
                # The store cannot be read back either: it holds what it held when the pass began.
                log.warning("game #%s: the event log could not be read back (%s); going back to the %d "
                            "actions it held", self.game_id, unread, before.actions)
                fresh = type(game)(type(game).OPTIONS.from_dict(game.options.to_dict()), seed=game.seed)
                self._install(fresh, self._wheels(fresh), self.players, self.pieces)
                for player, action in game.history[:before.actions]:
                    self._apply_known(player, action)
        finally:
            self._held = None
        assert self.game is not None
        self.log, self._pending, self._seq = before.log, before.pending, before.seq
        self.turns_resolved, self.notice = before.turns_resolved, before.notice
        if before.status == "playing" and self.game.is_over():
            self.status = "over"
        else:
            self.status = before.status
        if isinstance(exc, StoreError):
            log.error("game #%s: the event log refused a pass's actions: %s", self.game_id, exc)
            self._note(N_("the event log could not be written, so nothing of the last presses was kept: the game "
                          "is back at its {count} stored actions; press ready again once the disk is fixed "
                          "({reason})"), "store-error", count=len(self.game.history), reason=str(exc))
            self.notice = self._unwritten = self.log[-1]["message"]
        self._after_change()

    def inputs_alive(self) -> bool:
        """Whether the controllers can still be read (the watchdog's condition)."""
        if self.backend is None:
            return True
        return not self.backend.closed

    # ---- controllers -------------------------------------------------------------------------

    def _on_controller_event(self, event: ControllerEvent) -> None:
        status = self.controllers.get(event.controller_id)
        if status is None:
            if event.kind is EventKind.ERROR:
                self._note(N_("controller {controller}: {detail}"), "controller-error",
                           controller=event.controller_id, detail=event.detail)
            return
        was_paused = self.paused_message()
        self._update_status(event.state)
        if event.kind is EventKind.WHEEL and status.refused:
            status.refused, status.reason = False, None
        if event.kind is EventKind.ERROR:
            status.message = event.detail
        elif event.kind is EventKind.PRESSED:
            self._on_press(status, event.state)
            if status.refused:
                self._plan_bots()
        now_paused = self.paused_message()
        if now_paused != was_paused:
            if now_paused:
                self._record(self._said("paused", now_paused))
            else:
                self._note(N_("every controller is back: play resumes"), "resumed")
        self._refresh_leds()
        self._publish_soon()

    def _update_status(self, state: ControllerState) -> None:
        status = self.controllers[state.controller_id]
        status.connected = state.connected
        status.turning = state.turning
        if not state.connected:
            status.led = None  # unknown again: set it afresh when it comes back

    def paused_message(self) -> Message | None:
        """Why the game is paused (an unplugged controller), or ``None``."""
        if self.game is None or self.game.is_over() or self.status != "playing":
            return None
        missing = [cid for cid, s in self.controllers.items() if not s.connected and self._piece_needed(s.piece)]
        if not missing:
            return None
        hint = self.backend.UNPLUGGED_HINT if self.backend is not None else N_("plug it back in to go on")
        return message(N_("paused: controller {controllers} is unplugged; {hint}"),
                       controllers=listing(self._controller_label(cid) for cid in missing), hint=message(hint))

    def _controller_label(self, cid: str) -> Message:
        """``red``, or ``1 (red)`` for a controller whose id is not its colour, in the reader's words."""
        colour = self.piece_name(self.controllers[cid].piece)
        if cid == colour:
            return message(colour)
        return message(N_("{controller} ({colour})"), controller=cid, colour=message(colour))

    def _piece_needed(self, piece: int) -> bool:
        """A controller matters when a person may have to use it (bots play without one)."""
        return any(not p.bot for p in self.players) or self._driven(piece)

    def _on_press(self, status: ControllerStatus, state: ControllerState) -> None:
        game, play = self.game, self.play
        if game is None or play is None or game.is_over() or self.status != "playing":
            return
        paused = self.paused_message()
        if paused:
            self._refuse(status, paused)
            return
        if status.piece in self.locked:
            return
        try:
            press = play.press(status.piece, state, self)
        except Refused as exc:
            self._refuse(status, exc.words)
            return
        if press is not None:
            self._submit(press.seat, press.action, status)

    def bot_held(self, cid: str) -> bool:
        """Whether a bot holds controller ``cid`` itself (every seat that may use it is a bot's)."""
        status, play = self.controllers.get(cid), self.play
        if status is None or play is None or not self._driven(status.piece):
            return False
        return all(self.players[s].bot for s in play.seats_of(status.piece) if s < len(self.players))

    def bot_holds(self, seat: int, piece: int) -> bool:
        """Whether a bot plays ``piece`` for ``seat`` without its controller (a person's press is refused)."""
        return self.players[seat].bot and not self._driven(piece)

    def _refuse(self, status: ControllerStatus, reason: Message) -> None:
        key = self._bot_key_of_piece.pop(status.piece, None)
        if key is not None:
            self._bot_keys.discard(key)  # a bot whose press was refused tries again
        status.refused = True
        status.reason = reason
        label = self._controller_label(status.controller_id)
        data = {"controller": status.controller_id, "piece": status.piece}
        if not self._choosing_in_secret(status.piece) or reason in (TURNING, self.paused_message()):
            self._note(N_("{controller} refused: {reason}"), "refused", data, controller=label, reason=reason)
            return
        # Why a secret choice was refused narrows it down: that seat alone is told.
        if self.backend is not None:
            self._show(functools.partial(self.backend.tell, status.controller_id, i18n.said(reason)))
        hint = self.play.SECRET_REFUSAL_HINT if self.play is not None else ""
        self._note(N_("{controller} is not locked: its press was refused ({hint})"), "refused", data,
                   controller=label, hint=message(hint or N_("the reason is shown to that seat only")))

    def _choosing_in_secret(self, piece: int) -> bool:
        """Whether the seat of ``piece`` is choosing an action that stays secret until a reveal."""
        game, play = self.game, self.play
        if game is None or play is None:
            return False
        seats = [s for s in game.current_players() if s >= 0 and piece in
                 {play.piece_of(s, a) for a in game.legal_actions(s)[:64]}]
        return any(play.locks(s, a) is not None for s in seats for a in game.legal_actions(s)[:1])

    # ---- deciding ----------------------------------------------------------------------------

    def _submit(self, player: int, action: Any, status: ControllerStatus | None = None) -> bool:
        """Check, store, apply and announce one action; refuse it (with the reason) if illegal."""
        game = self.game
        assert game is not None and self.game_id is not None
        try:
            game.check(player, action)
        except RuleError as exc:
            reason = (self.play.refusal(exc.rule, exc.reason, exc.words) if self.play is not None
                      else exc.words or message(exc.reason))
            if status is not None:
                self._refuse(status, reason)
            else:
                log.warning("bot action refused: %s", exc.reason)
            return False
        self.store.append(self.game_id, len(game.history), player, game.encode_action(action))
        self._apply_known(player, action)
        if status is not None:
            status.refused, status.reason = False, None
        if game.is_over():
            self.store.set_status(self.game_id, "over")
            self.status = "over"
        self._after_change()
        return True

    def _apply_known(self, player: int, action: Any) -> list[Event]:
        """Apply an action already checked (and stored); keep the lock set and the log in step."""
        game, play = self.game, self.play
        assert game is not None and play is not None
        stage_before = play.stage()
        events = game.apply_unchecked(player, action)
        note = play.note(player, action, self)
        if note is not None:
            kind, words, data = note
            self._record(self._said(kind, words, data))
        locked = play.locks(player, action)
        resolved = False
        if locked is not None:
            self.locked.add(locked)
            if not any(game.secret_pending(seat) for seat in range(game.num_players)):
                self.locked.clear()
                self.turns_resolved += 1
                self._hold_until = self.clock() + self.config.turn_pause
                resolved = True
        if play.stage() != stage_before:
            self.locked.clear()
        names = [p.name for p in self.players]
        for event in events:
            said = event.to_json()
            if said["data"].get("audience") is not None:
                continue  # shown to some seats only: never on the public channel
            if event.message is not None:
                said["text"] = event.in_language(i18n.SOURCE_LANGUAGE, names)
            self._record(play.announce(said, self))
        if resolved:
            for listener in self.turn_listeners:
                self._show(functools.partial(listener, self))
        return events

    def _after_change(self) -> None:
        for status in self.controllers.values():
            if not status.refused:
                status.message = ""
        self._refresh_leds()
        self._plan_bots()
        self._publish_soon()

    # ---- LEDs --------------------------------------------------------------------------------

    def _refresh_leds(self) -> None:
        """Set each LED to what its controller's status says; while a pass's actions are not yet
        committed, once they are (a lock is never lit before it is stored)."""
        if self.backend is None or self._held is not None:
            return
        for cid, status in self.controllers.items():
            if status.refused:
                mode = LedMode.BLINK
            elif status.piece in self.locked:
                mode = LedMode.ON
            else:
                mode = LedMode.OFF
            if mode != status.led and status.connected:
                try:
                    self.backend.set_led(cid, mode)
                    status.led = mode
                except ControllerError as exc:
                    status.message = str(exc)

    # ---- bots --------------------------------------------------------------------------------

    def _driven(self, piece: int) -> bool:
        """Whether bots act through this piece's controller (a backend that can be driven)."""
        if not self.drive_controllers or self.backend is None or piece >= len(self.pieces):
            return False
        return self.backend.drivable(self.pieces[piece])

    def _plan_bots(self) -> None:
        """Schedule the bot seats' next actions (once per decision point)."""
        game, play = self.game, self.play
        if game is None or play is None or game.is_over() or self.status != "playing":
            return
        base = (self.bot_salt, *play.decision_point())
        delay = self.config.bot_delay
        self._bot_keys = {k for k in self._bot_keys if k[:len(base)] == base}  # only this decision point's
        for seat in game.current_players():
            if not (0 <= seat < len(self.players)) or not self.players[seat].bot:
                continue
            key = (*base, *play.bot_key(seat))
            if key in self._bot_keys:
                continue
            self._bot_keys.add(key)
            actions = play.bot_actions(seat, lambda index: _bot_seed(*key, index))
            for action in actions:
                self._bot_key_of_piece[play.piece_of(seat, action)] = key
            offset = self._hold_until - self.clock() if self._hold_until > self.clock() else 0.0
            rng_seed = _bot_seed(*key, "timing")
            for action in actions:
                steps = self._bot_steps(seat, action)
                for index, fn in enumerate(steps):
                    offset += delay * (0.5 + ((rng_seed >> (index % 48)) & 7) / 8)
                    self._schedule(offset, fn)

    def _bot_steps(self, seat: int, action: Any) -> list[Callable[[], bool | None]]:
        """A bot's hand on a simulated controller: turn the wheels, wait until they settle, press ready."""
        play = self.play
        assert play is not None
        piece = play.piece_of(seat, action)
        if not self._driven(piece):
            return [lambda: self._bot_direct(seat, action)]
        cid = self.pieces[piece]
        backend: Any = self.backend
        targets = lambda: play.wheel_targets(action)  # noqa: E731 - asked again at each step: the board moves on
        turns = [functools.partial(self._bot_wheel, cid, wheel, targets) for wheel in targets()]

        def press() -> bool:
            state = backend.state(cid)
            if state.button or self.clock() - self._bot_pressed.get(cid, float("-inf")) < BOT_PRESS_GAP:
                return False  # the last press is not over yet
            if not state.connected or any(
                state.wheel(w) != v or backend.wheel_target(cid, w) != v for w, v in targets().items()
            ):
                return False  # a player waits for the wheels to settle before pressing
            backend.press(cid)
            backend.release(cid, after=BOT_PRESS_HOLD)
            self._bot_pressed[cid] = self.clock()
            self._schedule(BOT_PRESS_CHECK, confirm)
            return True

        game = self.game
        assert game is not None
        moment = (play.decision_point(), len(game.history))

        def confirm() -> None:
            """A press too short for a busy poller is never seen: a player would press again."""
            now = self.game
            if now is None or now.is_over() or self.status != "playing" or self.play is not play:
                return
            if play.still_owed(seat, action, moment, self.locked) and not self.controllers[cid].refused:
                self._schedule(0.0, press)

        return [*turns, press]

    def _bot_wheel(self, cid: str, wheel: str, targets: Callable[[], dict[str, int]]) -> None:
        self._bot_turn(cid, wheel, targets()[wheel])

    def _bot_turn(self, cid: str, wheel: str, position: int) -> None:
        """Turn a simulated wheel, unless it already shows ``position`` (nobody touches a wheel that is right)."""
        backend: Any = self.backend
        if backend.wheel_target(cid, wheel) != position:
            backend.turn(cid, wheel, position)

    def _bot_direct(self, seat: int, action: Any) -> None:
        game = self.game
        if game is None or seat not in game.current_players():
            return
        assert self.play is not None
        if self.play.locks(seat, action) in self.locked:
            return
        self._submit(seat, action)

    def _schedule(self, offset: float, fn: Callable[[], None]) -> None:
        self._bot_order += 1
        self._bot_plan.append((self.clock() + offset, self._bot_order, fn))
        self._bot_plan.sort(key=lambda item: (item[0], item[1]))

    def _next_bot_due(self) -> float:
        return self._bot_plan[0][0] if self._bot_plan else float("inf")

    def _run_bots(self) -> None:
        if self.paused_message() or self.bots_held:
            return
        now = self.clock()
        while self._bot_plan and self._bot_plan[0][0] <= now:
            due, order, fn = self._bot_plan.pop(0)
            if fn() is False:
                self._bot_plan.append((now + 0.02, order, fn))
                self._bot_plan.sort(key=lambda item: (item[0], item[1]))
                break
            if self.backend is not None:
                for event in self.backend.events(0):
                    self._on_controller_event(event)
            if self.paused_message():
                break

    # ---- commands from the web ---------------------------------------------------------------

    def _cmd_abort(self, payload: dict[str, Any]) -> dict[str, Any]:
        if self.game is None or self.game_id is None or self.status != "playing":
            raise SessionError("there is no game being played to abort")
        self._discard_secrets(self.game_id)
        self.store.set_status(self.game_id, "aborted")
        self.status = "aborted"
        self._bot_plan.clear()
        self._note(N_("game #{number} aborted"), number=self.game_id)
        self._after_change()
        return {"aborted": self.game_id}

    def _cmd_start(self, payload: dict[str, Any]) -> dict[str, Any]:
        if self.status == "playing" and self.game is not None and not self.game.is_over() and not payload.get("replace"):
            raise SessionError(f"game #{self.game_id} is still being played; abort it first or send \"replace\": true")
        config = dataclasses.replace(self.config)
        if "options" in payload:
            if not isinstance(payload["options"], dict):
                raise ValueError("\"options\" must be an object of game options")
            config.options = payload["options"]
        if "seed" in payload:
            if type(payload["seed"]) is not int or not -(2**63) <= payload["seed"] < 2**63:
                raise ValueError("\"seed\" must be a whole number that fits in 64 bits")
            config.seed = payload["seed"]
        if "players" in payload:
            players = payload["players"]
            if not isinstance(players, list) or not all(
                isinstance(p, dict) and isinstance(p.get("name", ""), str) and isinstance(p.get("bot", False), bool)
                and set(p) <= {"name", "bot"} for p in players
            ):
                raise ValueError("\"players\" must be a list of {\"name\": text, \"bot\": true/false}")
            config.players = [PlayerConfig(p.get("name", f"Player {i + 1}"), p.get("bot", False))
                              for i, p in enumerate(players)]
        unknown = sorted(set(payload) - {"options", "seed", "players", "replace"})
        if unknown:
            raise ValueError(f"unknown field(s) {', '.join(unknown)}; known: options, seed, players, replace")
        previous = self.config
        self.config = config
        try:
            self.start_new()
        except Exception:
            self.config = previous
            raise
        return {"started": self.game_id}

    def _cmd_undo(self, payload: dict[str, Any]) -> dict[str, Any]:
        """Take back the last ``count`` actions (a correction): drop them from the log and replay."""
        count = payload.get("count", 1)
        if type(count) is not int or count < 1:
            raise ValueError("\"count\" must be a whole number of actions, 1 or more")
        unknown = sorted(set(payload) - {"count"})
        if unknown:
            raise ValueError(f"unknown field(s) {', '.join(unknown)}; known: count")
        if self.game is None or self.game_id is None:
            raise SessionError("there is no game to correct")
        have = self.store.game(self.game_id).actions
        if count > have:
            raise SessionError(f"the game has only {have} actions; cannot take back {count}")
        self.store.truncate(self.game_id, have - count)
        self.resume(self.store.game(self.game_id))
        self._note(N_("correction: the last {count} action(s) were taken back"), count=count)
        return {"actions": have - count}

    # ---- what the table sees -----------------------------------------------------------------

    def piece_name(self, piece: int | None) -> str:
        if piece is None:
            return "?"
        return self.play.piece_name(piece) if self.play is not None else f"piece {piece}"

    def seat_name(self, seat: int) -> str:
        return self.players[seat].name if 0 <= seat < len(self.players) else f"seat {seat}"

    def waiting_for(self) -> list[dict[str, Any]]:
        """Who the table is waiting for: seat names and the pieces they have not locked."""
        game, play = self.game, self.play
        if game is None or play is None or game.is_over() or self.status != "playing":
            return []
        return [{"seat": seat, "name": self.seat_name(seat), "pieces": pieces}
                for seat, pieces in play.waiting_for(self.locked)]

    def _pieces_in_game(self) -> list[int]:
        return list(range(self.play.pieces())) if self.play is not None else []

    def public_state(self) -> dict[str, Any]:
        """The spectator's state: the engine's public view and the controllers' status, no secrets."""
        game, play = self.game, self.play
        state: dict[str, Any] = {
            "ui": self._ui(),
            "status": self.status,
            "notice": self.notice,
            "paused": self.paused_message(),
            "turns_resolved": self.turns_resolved,
            "log": list(self.log),
            "join": bool(self.backend is not None and self.backend.page_held()),
        }
        if game is None or play is None:
            return {**state, "game": None}
        controllers = [self._controller_public(status) for status in self.controllers.values()]
        wheels: dict[int, ControllerState] = {}
        if self.backend is not None:
            states = self.backend.states()
            wheels = {piece: states[cid] for piece, cid in enumerate(self.pieces) if cid in states}
        winners = list(game.winners()) if game.is_over() else []
        state.update(
            game={
                "id": self.game_id,
                "name": game.NAME,
                "title": game.TITLE,
                "seed": game.seed if self.seed_public else None,
                "options": game.options.to_dict(),
                "over": game.is_over(),
                "winners": winners,
                "actions": len(game.history),
            },
            view=game.view(None),
            phase=play.stage(),
            scores=list(game.scores()),
            players=[{"seat": seat, "name": p.name, "bot": p.bot} for seat, p in enumerate(self.players)],
            piece_names=[self.piece_name(p) for p in self._pieces_in_game()],
            controllers=controllers,
            waiting_for=self.waiting_for(),
            **play.public(wheels),
        )
        return state

    def _ui(self) -> dict[str, Any] | None:
        name = self.game.NAME if self.game is not None else self.config.game
        try:
            return game_spec(name).ui("wheels")
        except UnknownGameError:
            return None

    def _controller_public(self, status: ControllerStatus) -> dict[str, Any]:
        """What everybody may know of a controller: whose it is, plugged in, locked, refused."""
        owner = self.play.owner(status.piece) if self.play is not None else None
        return {
            "id": status.controller_id,
            "piece": status.piece,
            "colour": self.piece_name(status.piece),
            "owner": owner,
            "owner_name": self.seat_name(owner) if owner is not None else None,
            "connected": status.connected,
            "locked": status.piece in self.locked,
            "refused": status.refused,
            "message": status.message,
        }

    def seat_state(self, cid: str) -> dict[str, Any]:
        """What the page holding controller ``cid`` alone may see: its wheels, its lock, why a press
        of its was refused, and whose it is now."""
        status = self.controllers[cid]
        wheels: dict[str, int | None] = {"direction": None, "number": None, "symbol": None}
        if self.backend is not None and cid in self.backend.states():
            state = self.backend.state(cid)
            wheels = {"direction": state.direction, "number": state.number, "symbol": state.symbol}
        return {
            **self._controller_public(status),
            "reason": status.reason if status.refused else None,
            "led": status.led.value if status.led is not None else None,
            "wheels": wheels,
            "waiting": any(status.piece in w["pieces"] for w in self.waiting_for()),
        }

    def publish(self) -> dict[str, Any]:
        """The public state to everyone, then to each seat's page what changed of its own."""
        message = super().publish()
        for cid, hub in self.seat_hubs.items():
            if cid in self.controllers:
                seat = self.seat_state(cid)
                if hub.latest is None or hub.latest["seat"] != seat:
                    hub.publish({"type": "seat", "seat": seat})
        return message

    # ---- publishing --------------------------------------------------------------------------

    def _note(self, msgid: str, kind: str = "service", data: dict[str, Any] | None = None, **args: Any) -> None:
        """Announce ``msgid`` (marked with ``N_``) filled with ``args``, said in each reader's language."""
        self._record(self._said(kind, message(msgid, **args), data))

    @staticmethod
    def _said(kind: str, words: Message | str, data: dict[str, Any] | None = None) -> dict[str, Any]:
        words = words if isinstance(words, Mapping) else message(words)
        return {"kind": kind, "text": i18n.said(words, i18n.SOURCE_LANGUAGE), "message": words, "data": data or {}}

    def _record(self, event: dict[str, Any]) -> dict[str, Any]:
        event = super()._record(event)
        if event["kind"] in ("paused", "resumed", "game-over"):
            self.notice = event.get("message") or event["text"]
        return event

    def _publish_soon(self) -> None:
        self._dirty = True

