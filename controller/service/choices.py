"""The phones' loop: a game whose players choose each action on their own phone.

One thread owns the game and the event log, like the console's loop
(:class:`~controller.service.session.Session`): the web server queues commands (a seat's choice,
a new game, an abort) and the loop runs them, lets the bots choose for their seats, makes the
program's rolls and draws, stores every action before applying it, and publishes. Two kinds of
channel leave it: the public one (``game.view(None)``, the players, the engine's events) that every
dashboard reads, and one per seat (:attr:`ChoiceSession.seat_hubs`) carrying what that seat alone
may see and the actions it may choose now. Nothing secret ever goes to the public one.
"""

from __future__ import annotations

import dataclasses
import logging
import random
import secrets
import time
from collections.abc import Callable
from typing import Any

from controller import i18n
from controller.engines import CHANCE, Game, RuleError
from controller.games import SpecError, UnknownGameError
from controller.games import game as game_spec
from controller.games.choices import ChoicePlay
from controller.i18n import N_, listing, message
from controller.service.config import PlayerConfig, ServiceConfig
from controller.service.hub import Hub
from controller.service.loop import GameLoop, SessionError
from controller.service.store import GameStore, StoredGame

log = logging.getLogger(__name__)

#: How many of the events shown to one seat alone its page keeps.
TOLD_KEPT = 12


class ChoiceError(SessionError):
    """A seat's choice refused; ``words`` is the reason as a message the phone says in its language."""

    def __init__(self, words: dict[str, Any]) -> None:
        self.words = words
        super().__init__(i18n.said(words, i18n.SOURCE_LANGUAGE))


class ChoiceSession(GameLoop):
    """Plays one game at a time from the players' phones, with bots in the seats nobody takes."""

    #: How players give their moves here (the web app serves the hands' pages for it).
    play_mode = "phones"

    def __init__(self, config: ServiceConfig, store: GameStore, hub: Hub,
                 clock: Callable[[], float] = time.monotonic, wall: Callable[[], float] = time.time) -> None:
        super().__init__()
        self.config = config
        self.store = store
        self.hub = hub
        self.clock = clock
        #: The wall clock a countdown runs on: it goes on while the service is stopped, as the app's would.
        self.wall = wall
        #: When the game's countdown rings (wall-clock seconds), for a game that has one.
        self.ends_at: float | None = None
        self._shown_remaining: int | None = None
        self.game: Game[Any] | None = None
        self.play: ChoicePlay | None = None
        self.game_id: int | None = None
        self.players: list[PlayerConfig] = []
        self.status = "idle"
        self.notice: Any = ""
        #: Players' actions taken since this loop started (the rolls and draws not counted).
        self.turns_resolved = 0
        self.bot_salt = 0
        self.seed_public = False
        #: Bots wait while this is set (a stopped demo's dashboard kept up shows where it stopped).
        self.bots_held = False
        #: Each seat's private channel, by seat id (``"1"``...): what its page alone may see.
        self.seat_hubs: dict[str, Hub] = {}
        self._due = 0.0
        #: What was shown to some seats only, by seat (each seat's page shows its own).
        self._told: dict[int, list[dict[str, Any]]] = {}
        self._system_rng: random.Random = random.SystemRandom()
        #: Called after every action applied (a demo prints, a test waits).
        self.listeners: list[Callable[[ChoiceSession], None]] = []

    # ---- starting ----------------------------------------------------------------------------

    def _choice_play(self, game: Game[Any]) -> ChoicePlay:
        spec = game_spec(game.NAME)
        if not spec.plays_on("phones"):
            raise SessionError(f"{spec.title} is not played by choosing on phones (it is played with: "
                               f"{', '.join(spec.play)}); see `bitbox play {spec.name} --help`")
        try:
            return spec.load_choices()(game, spec.load_bot())
        except (ImportError, AttributeError, SpecError) as exc:
            raise SessionError(f"{spec.title}'s phone rules cannot be loaded: {exc}") from None

    def start_new(self) -> None:
        """Begin a new game from the configuration (recorded in the store first)."""
        config = self.config
        seed = config.seed if config.seed is not None else secrets.randbits(31)
        try:
            engine = game_spec(config.game).load_engine()
            game = engine(config.options, seed=seed)
        except (UnknownGameError, ValueError) as exc:
            raise SessionError(f"cannot start {config.game}: {exc.args[0] if exc.args else exc}") from None
        play = self._choice_play(game)
        players = self._check_players(config.players, game)
        self._abort_unfinished()
        salt = config.bot_salt if config.bot_salt is not None else secrets.randbits(63)
        self.game_id = self.store.new_game(game.NAME, game.options.to_dict(), game.seed,
                                           {**config.setup_dict(), "players": [dataclasses.asdict(p) for p in players],
                                            "bot_salt": salt, "seed_public": config.seed is not None,
                                            "started_at": self.wall()})
        self.bot_salt, self.seed_public = salt, config.seed is not None
        self._install(game, play, players, self.wall())
        self._note(N_("game #{number} started: {title}, {players}"), number=self.game_id, title=game.TITLE,
                   players=listing(p.name for p in players))
        self._after_change()

    def resume(self, stored: StoredGame) -> None:
        """Rebuild ``stored`` from its stored actions (rolls and draws included) and carry on."""
        game = self._rebuilt(stored)
        play = self._choice_play(game)
        players = [PlayerConfig(**p) for p in stored.setup.get("players", [])] or self._default_players(game)
        self.game_id = stored.id
        self.bot_salt = int(stored.setup.get("bot_salt", stored.seed))
        self.seed_public = bool(stored.setup.get("seed_public", True))
        self._install(game, play, players, float(stored.setup.get("started_at", self.wall())))
        for player, action in self._stored_actions(game, stored):
            self._record_events(game.apply_unchecked(player, action))
        self._note(N_("game #{number} resumed after {actions} stored actions"), number=stored.id,
                   actions=len(game.history))
        if game.is_over():
            self._mark_over()
        self._after_change()

    def _install(self, game: Game[Any], play: ChoicePlay, players: list[PlayerConfig], started_at: float) -> None:
        seconds = play.countdown()
        self.ends_at = started_at + seconds if seconds is not None else None
        game.name_seats([p.name for p in players][: game.num_players])
        self.game, self.play, self.players = game, play, players
        self.log, self._pending = [], []
        self._told = {}
        self.status = "playing"
        self.seat_hubs = {sid: self.seat_hubs.get(sid) or Hub() for sid in play.seat_ids()}

    # ---- the loop ----------------------------------------------------------------------------

    def step(self, timeout: float = 0.05) -> None:
        """Handle queued commands, then the countdown, the program's roll or a bot's choice when one is due."""
        self._run_commands()
        self._run_clock()
        self._act_for_table()
        self._flush()
        wait = timeout
        if self._table_waiting():
            wait = min(timeout, max(0.0, self._due - self.clock()))
        if wait > 0:
            time.sleep(wait)

    def inputs_alive(self) -> bool:
        return True

    def remaining(self) -> float | None:
        """Seconds left on the game's countdown (``None`` without one)."""
        return None if self.ends_at is None else max(0.0, self.ends_at - self.wall())

    def _run_clock(self) -> None:
        """The countdown: each second shown to every page, and the table's action when it rings."""
        game, play, left = self.game, self.play, self.remaining()
        if game is None or play is None or left is None or game.is_over() or self.status != "playing":
            return
        if left <= 0:
            try:
                self._commit(CHANCE, play.time_up())
            except ChoiceError as exc:
                log.error("the countdown's end was refused: %s", exc)
                self.ends_at = None
            return
        if int(left) != self._shown_remaining:
            self._dirty = True

    def _table_waiting(self) -> bool:
        """Whether the program or a bot has something to do (a roll, a bot seat to act)."""
        game, play = self.game, self.play
        if game is None or play is None or game.is_over() or self.status != "playing" or self.bots_held:
            return False
        return play.chance_due() or any(self.players[seat].bot for seat in play.to_act())

    def _chance_source(self) -> random.Random:
        """What the next roll is drawn from: the system in live play; in a demo (its seed given) a draw
        fixed by the salt and the actions so far, so a demo resumed after a stop rolls what it would have.
        Every roll is stored either way, so a resume replays the rolls already made."""
        if not self.seed_public or self.game is None:
            return self._system_rng
        return random.Random(self.bot_salt * 1_000_003 + len(self.game.history))

    def _act_for_table(self) -> None:
        """The program's roll, or one bot's choice, once its moment has come."""
        if not self._table_waiting() or self.clock() < self._due:
            return
        game, play = self.game, self.play
        assert game is not None and play is not None
        try:
            if play.chance_due():
                self._commit(CHANCE, play.chance(self._chance_source()))
                return
            seat = next(seat for seat in play.to_act() if self.players[seat].bot)
            seed = (self.bot_salt * 1_000_003 + len(game.history) * 31 + seat) % 2**63
            self._commit(seat, play.bot_action(seat, seed))
        except ChoiceError as exc:
            # An engine refusing its own bot's or roll's action is a bug: the bots wait, the game is kept.
            log.error("the table's own action was refused: %s", exc)
            self.bots_held = True

    # ---- choosing ----------------------------------------------------------------------------

    def choose(self, seat: int, index: int, step: int | None = None) -> dict[str, Any]:
        """Seat ``seat`` chooses its ``index``-th offered action, offered when ``step`` actions were played."""
        game, play = self.game, self.play
        if game is None or play is None or self.status != "playing" or game.is_over():
            raise ChoiceError(message(N_("no game is being played: wait for the next one")))
        if not 0 <= seat < len(self.players) or self.players[seat].bot:
            raise ChoiceError(message(N_("a bot plays this seat")))
        if step is not None and step != len(game.history):
            raise ChoiceError(message(N_("the game has moved on since this list was shown: choose again")))
        try:
            action = play.action(seat, index)
        except LookupError as exc:
            raise ChoiceError(exc.args[0]) from None
        self._commit(seat, action)
        return {"actions": len(game.history)}

    def _cmd_choose(self, payload: dict[str, Any]) -> dict[str, Any]:
        seat, index, step = payload.get("seat"), payload.get("index"), payload.get("step")
        if type(seat) is not int or type(index) is not int or (step is not None and type(step) is not int):
            raise ValueError('send {"index": the number of a choice, "step": the "step" it was offered at}')
        return self.choose(seat, index, step)

    def _commit(self, player: int, action: Any) -> None:
        """Check, store, then apply one action; a refused one changes nothing."""
        game = self.game
        assert game is not None and self.game_id is not None
        try:
            game.check(player, action)
        except RuleError as exc:
            raise ChoiceError(exc.words or message(exc.reason)) from None
        self.store.append(self.game_id, len(game.history), player, game.encode_action(action))
        self._record_events(game.apply_unchecked(player, action))
        if player != CHANCE:
            self.turns_resolved += 1
        if game.is_over():
            self._mark_over()
        self._after_change()
        for listener in self.listeners:
            listener(self)

    def _record_events(self, events: list[Any]) -> None:
        """The engine's events, their English said with the players' names. An event for some seats
        only (``data["audience"]``: a face shown to one player) goes to those seats' pages alone."""
        names = [p.name for p in self.players]
        for event in events:
            said = event.to_json()
            if event.message is not None:
                said["text"] = event.in_language(i18n.SOURCE_LANGUAGE, names)
            audience = said["data"].get("audience") if isinstance(said.get("data"), dict) else None
            if audience is None:
                self._record(said)
                continue
            for seat in audience:
                if isinstance(seat, int) and 0 <= seat < len(self.players):
                    told = self._told.setdefault(seat, [])
                    told.append(said)
                    del told[:-TOLD_KEPT]
            self._dirty = True

    def _mark_over(self) -> None:
        game = self.game
        assert game is not None and self.game_id is not None
        self.store.set_status(self.game_id, "over")
        self.status = "over"
        names = [self.seat_name(seat) for seat in game.winners()]
        self._note(N_("the game is over: {winners} won"), "game-over", winners=listing(names))

    def _after_change(self) -> None:
        self._due = self.clock() + (self.config.bot_delay if self._table_waiting() else 0.0)
        self._dirty = True

    # ---- commands from the referee -----------------------------------------------------------------

    def _cmd_start(self, payload: dict[str, Any]) -> dict[str, Any]:
        if self.game is not None and self.status == "playing" and not self.game.is_over() and not payload.get("replace"):
            raise SessionError('a game is being played; send {"replace": true} to abandon it for a new one')
        self.start_new()
        return {"game_id": self.game_id}

    def _cmd_abort(self, payload: dict[str, Any]) -> dict[str, Any]:
        if self.game is None or self.game_id is None or self.status != "playing":
            raise SessionError("there is no game being played to abort")
        self._discard_secrets(self.game_id)
        self.store.set_status(self.game_id, "aborted")
        self.status = "aborted"
        self._note(N_("game #{number} aborted"), number=self.game_id)
        return {"aborted": self.game_id}

    # ---- what the table sees -----------------------------------------------------------------

    def seat_name(self, seat: int) -> str:
        return self.players[seat].name if 0 <= seat < len(self.players) else str(seat + 1)

    def seat_of(self, seat_id: str) -> int:
        """The seat a page's id names (``"1"`` is the first seat)."""
        if self.play is None or seat_id not in self.play.seat_ids():
            raise LookupError(seat_id)
        return self.play.seat_ids().index(seat_id)

    def bot_held(self, seat_id: str) -> bool:
        """Whether a bot plays the seat (no phone may join it)."""
        try:
            return self.players[self.seat_of(seat_id)].bot
        except (LookupError, IndexError):
            return False

    def waiting_for(self) -> list[dict[str, Any]]:
        if self.game is None or self.play is None or self.status != "playing" or self.game.is_over():
            return []
        return [{"seat": seat, "name": self.seat_name(seat)} for seat in self.play.to_act()]

    def public_state(self) -> dict[str, Any]:
        """The spectator's state: the engine's public view, the players and whose turn it is."""
        game, play = self.game, self.play
        state: dict[str, Any] = {"ui": self._ui(), "status": self.status, "notice": self.notice,
                                 "paused": None, "log": list(self.log)}
        if game is None or play is None:
            return {**state, "game": None}
        state.update(
            game={"id": self.game_id, "name": game.NAME, "title": game.TITLE,
                  "seed": game.seed if self.seed_public else None, "options": game.options.to_dict(),
                  "over": game.is_over(), "winners": list(game.winners()) if game.is_over() else [],
                  "actions": len(game.history)},
            view=game.view(None),
            scores=list(game.scores()),
            players=[{"seat": seat, "id": sid, "name": p.name, "bot": p.bot}
                     for seat, (sid, p) in enumerate(zip(play.seat_ids(), self.players))],
            waiting_for=self.waiting_for(),
            rolling=play.chance_due(),
            **play.public(),
        )
        left = self.remaining()
        if left is not None:
            self._shown_remaining = int(left)
            state["countdown"] = {"remaining": self._shown_remaining if not game.is_over() else 0,
                                  "total": play.countdown()}
        return state

    def _ui(self) -> dict[str, Any] | None:
        name = self.game.NAME if self.game is not None else self.config.game
        try:
            return game_spec(name).ui("phones")
        except UnknownGameError:
            return None

    def seat_state(self, seat_id: str) -> dict[str, Any]:
        """What the page of seat ``seat_id`` alone may see: its view, and what it may choose now."""
        game, play = self.game, self.play
        seat = self.seat_of(seat_id)
        player = self.players[seat]
        out: dict[str, Any] = {"id": seat_id, "seat": seat, "name": player.name, "bot": player.bot}
        if game is None or play is None:
            return {**out, "view": None, "choices": [], "step": 0, "waiting": False, "told": []}
        playing = self.status == "playing" and not game.is_over()
        choices = play.choices(seat) if playing and not player.bot else []
        return {**out, "view": play.private(seat), "choices": choices, "step": len(game.history),
                "waiting": bool(choices), "told": list(self._told.get(seat, []))}

    def publish(self) -> dict[str, Any]:
        """The public state to everyone, then to each seat's page what changed of its own."""
        published = super().publish()
        if self.play is not None:
            for sid, hub in self.seat_hubs.items():
                seat = self.seat_state(sid)
                if hub.latest is None or hub.latest["seat"] != seat:
                    hub.publish({"type": "seat", "seat": seat})
        return published

    def _note(self, msgid: str, kind: str = "service", **args: Any) -> None:
        words = message(msgid, **args)
        event = self._record({"kind": kind, "text": i18n.said(words, i18n.SOURCE_LANGUAGE), "message": words,
                              "data": {}})
        if kind in ("game-over",):
            self.notice = event["message"]
