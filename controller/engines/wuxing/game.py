"""Wuxing duel (Alexis Suard): two players, the five elements, Yin and Yang.

One game, two modes, chosen by the ``mode`` option:

* ``"chemin"`` (le chemin du duel, the default, for every age): a path of five islands and secret
  element cards played by both players at once; see :mod:`.chemin`.
* ``"theatre"`` (le théâtre du duel, from 10): pawns moved in turn on a 5x5 square of islands,
  paying blue and red tokens; see :mod:`.theatre`.

Seat 0 is the first player ("le premier joueur"). The rulebook leaves some cases open; each
decision is written in docs/rulings/wuxing.md with its reason and the test that holds it.

    >>> game = WuxingGame({"mode": "chemin", "path": "wood fire earth metal water"}, seed=1)
    >>> game.current_players(), game.legal_actions(0)[0]
    ((0, 1), Discard(element=0))
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from controller import i18n
from controller.engines.core import Event, Game, GameOptions, OptionsError, RuleError
from controller.engines.wuxing import actions as _actions
from controller.engines.wuxing.actions import PAWN_LETTERS, Discard, Flip, Move, Play, Stay, square_name
from controller.engines.wuxing.chemin import Chemin
from controller.engines.wuxing.elements import COLOURS, ELEMENT_NAMES
from controller.engines.wuxing.errors import refused
from controller.engines.wuxing.layout import (
    LayoutError,
    format_path,
    format_square,
    parse_path,
    parse_square,
    random_path,
    random_square,
)
from controller.engines.wuxing.theatre import Theatre
from controller.engines.wuxing.words import said, term
from controller.i18n import N_

MODES = ("chemin", "theatre")
CHEMIN_ACTIONS = (Discard, Play)
THEATRE_ACTIONS = (Move, Stay, Flip)


@dataclasses.dataclass(frozen=True)
class WuxingOptions(GameOptions):
    """How a game of Wuxing duel is set up.

    ``mode``: ``"chemin"`` or ``"theatre"``. Theatre: ``layout`` the 25 islands (see
    :mod:`.layout`; empty: drawn from the seed), ``blue_only`` moves follow blue arrows only (the
    rulebook's letter; by the project's ruling a move may follow a red arrow too, paying red).
    Chemin: ``path`` the five islands from seat 0's end (empty: drawn from the seed),
    ``no_discard`` the under-10 game (note 1: no card is discarded), ``no_yin_yang`` the
    under-8 game (note 2: pawns are never turned to their Yin-Yang face).
    """

    mode: str = "chemin"
    layout: str = ""
    blue_only: bool = False
    path: str = ""
    no_discard: bool = False
    no_yin_yang: bool = False

    def validate(self) -> None:
        if self.mode not in MODES:
            raise OptionsError(f"mode must be chemin (le chemin du duel) or theatre (le théâtre du duel), "
                               f"not {self.mode!r}")
        if self.mode == "chemin":
            if self.layout or self.blue_only:
                raise OptionsError("layout and blue_only are options of the theatre; the chemin is played on a "
                                   "path (option path)")
            if self.path:
                parse_path(self.path)
        else:
            if self.path or self.no_discard or self.no_yin_yang:
                raise OptionsError("path, no_discard and no_yin_yang are options of the chemin, not the theatre")
            if self.layout:
                try:
                    parse_square(self.layout)
                except LayoutError:
                    raise
                except ValueError as exc:  # pragma: no cover - parse_square raises LayoutError
                    raise LayoutError(str(exc)) from None


class WuxingGame(Game[WuxingOptions]):
    """A game of Wuxing duel in either mode; ``rules`` holds the mode's state (:class:`Chemin`
    or :class:`Theatre`)."""

    NAME = "wuxing"
    TITLE = "Wuxing duel"
    OPTIONS = WuxingOptions
    GOLDEN_SCENARIOS: ClassVar[tuple[tuple[str, dict[str, Any], int, int], ...]] = (
        ("chemin", {"mode": "chemin"}, 1, 11),
        ("chemin-young", {"mode": "chemin", "no_discard": True, "no_yin_yang": True}, 2, 12),
        ("theatre", {"mode": "theatre"}, 3, 13),
        ("theatre-blue-only", {"mode": "theatre", "blue_only": True}, 4, 14),
    )

    rules: Chemin | Theatre

    def _setup(self) -> None:
        options = self.options
        self.mode = options.mode
        if self.mode == "chemin":
            path = parse_path(options.path) if options.path else random_path(self.rng)
            self.rules = Chemin(path, discard=not options.no_discard, yin_yang=not options.no_yin_yang)
        else:
            square = parse_square(options.layout) if options.layout else random_square(self.rng)
            self.rules = Theatre(square, red_moves=not options.blue_only)

    @property
    def num_players(self) -> int:
        return 2

    @property
    def phase(self) -> str:
        return self.rules.phase

    # ---- turns ---------------------------------------------------------------------------------

    def current_players(self) -> tuple[int, ...]:
        return self.rules.current_players()

    def legal_actions(self, player: int) -> list[Any]:
        return self.rules.legal_actions(player)

    def _apply(self, player: int, action: Any) -> list[Event]:
        return self.rules.apply(player, action, self.seat_label) or []

    def _apply_fast(self, player: int, action: Any) -> None:
        self.rules.apply(player, action, None)

    def secret_pending(self, player: int) -> bool:
        return self.mode == "chemin" and player in self.rules.choices

    def is_over(self) -> bool:
        return self.rules.phase == "over"

    def result(self) -> int | str | None:
        """The winning seat, ``"draw"``, or ``None`` while the game goes on."""
        if self.mode == "chemin":
            return self.rules.winner
        return self.rules.result

    def scores(self) -> tuple[float, ...]:
        """1 for the winner and 0 for the loser, a half each for a draw; 0 each while playing."""
        result = self.result()
        if result is None:
            return (0.0, 0.0)
        if result == "draw":
            return (0.5, 0.5)
        return tuple(1.0 if seat == result else 0.0 for seat in (0, 1))

    # ---- refusing clearly ----------------------------------------------------------------------

    def check(self, player: int, action: Any) -> None:
        """The shared checks, then whole numbers only (``True`` equals 1 in Python, not on a wheel)."""
        super().check(player, action)
        numbers = {Move: ("pawn", "distance"), Play: ("element",), Discard: ("element",)}.get(type(action), ())
        if any(type(getattr(action, name)) is not int for name in numbers):
            raise self.explain_illegal(player, action)

    def explain_illegal(self, player: int, action: Any) -> RuleError:
        state = self.render()
        mine, theirs = (CHEMIN_ACTIONS, THEATRE_ACTIONS) if self.mode == "chemin" else (THEATRE_ACTIONS, CHEMIN_ACTIONS)
        if isinstance(action, theirs):
            other = "theatre" if self.mode == "chemin" else "chemin"
            return refused("wrong-mode", {"action": action_words(action) or repr(action), "other_mode": other,
                                          "mode": self.mode}, state)
        rule, args = self.rules.explain(player, action, self.seat_label)
        if rule == "action-type" and not isinstance(action, mine):
            args["action"] = repr(action)
        return refused(rule, args, state)

    def describe_action(self, action: Any) -> str:
        """The action in words, in the process's language (:func:`controller.i18n.language`)."""
        words = action_words(action)
        return i18n.said(words) if words is not None else repr(action)

    # ---- saving --------------------------------------------------------------------------------

    @classmethod
    def encode_action(cls, action: Any) -> Any:
        return _actions.encode(action)

    @classmethod
    def decode_action(cls, data: Any) -> Any:
        return _actions.decode(data)

    def clone(self) -> WuxingGame:
        twin = self._clone_base()
        twin.rules = self.rules.copy()
        return twin

    # ---- looking -------------------------------------------------------------------------------

    def setup_text(self) -> str:
        """The islands as an option's text: the layout or the path this game is played on."""
        if self.mode == "chemin":
            return format_path(self.rules.path)
        return format_square(self.rules.square)

    def state_dict(self) -> dict[str, Any]:
        return {"mode": self.mode, **self.rules.state_dict()}

    def view(self, player: int | None) -> dict[str, Any]:
        """What ``player`` sees (``None``: a spectator). In the chemin, a card chosen in secret shows
        only as "chosen" until both are in; the chooser sees his own as ``my_choice``."""
        return {"mode": self.mode, **self.rules.view(player)}

    def render(self) -> str:
        return "\n".join(self.rules.render_lines(self.seat_label)) + "\n"

    def check_invariants(self) -> None:
        self.rules.check_invariants()


def action_words(action: Any) -> dict[str, Any] | None:
    """An action as a message (``"move pawn A 2 upwards"``), ``None`` for what is no action of this game."""
    if isinstance(action, Discard) and action.element in range(5):
        return i18n.message(N_("set {element} aside"), element=term(ELEMENT_NAMES[action.element]))
    if isinstance(action, Play) and action.element in range(5):
        return i18n.message(N_("play {element}"), element=term(ELEMENT_NAMES[action.element]))
    if isinstance(action, Move) and action.pawn in range(4):
        return i18n.message(N_("move pawn {pawn} {distance} {direction}"), pawn=PAWN_LETTERS[action.pawn],
                            distance=action.distance, direction=term(str(action.direction)))
    if isinstance(action, Stay) and action.colour in COLOURS:
        return i18n.message(N_("stay, paying a {colour} token"), colour=term(action.colour))
    if isinstance(action, Flip) and len(action.square) == 2:
        return i18n.message(N_("turn over {square}"), square=square_name(action.square))
    return None


def last_text(game: WuxingGame) -> dict[str, Any] | None:
    """The last move (theatre) or duel (chemin) and why it was legal, as a message with the game's
    seat names; ``None`` before the first."""
    last = game.rules.last
    if last is None:
        return None
    label = game.seat_label
    if game.mode == "chemin":
        cards = last["cards"]
        duel = said("revealed", round=last["round"], player0=label(0), element0=cards[0], player1=label(1),
                    element1=cards[1])
        winner = last["winner"]
        reason = last["reason"]
        if reason in ("dominates", "engenders"):
            outcome = said(f"duel-{reason}", winning=cards[winner], losing=cards[1 - winner], winner=label(winner))
        elif reason == "tie":
            outcome = said("duel-tie", element=cards[0])
        else:
            outcome = said(f"duel-{reason}", element=cards[0], winner=label(winner))
        return said("duel-and-outcome", duel=duel, outcome=outcome)
    seat = last["seat"]
    if last["kind"] == "stay":
        return said("stayed", player=label(seat), colour=last["colour"])
    if last["kind"] == "flip":
        return said("flipped", player=label(seat), element=last["element"], square=square_name(last["square"]))
    move = said("moved", player=label(seat), pawn=last["pawn"], start=square_name(last["from"]),
                end=square_name(last["to"]), from_element=last["from_element"], to_element=last["to_element"],
                relation=last["relation"], colour=last["colour"])
    if last["captured"]:
        capture = said("captured", player=label(seat), other=label(1 - seat), pawn=last["captured"],
                       square=square_name(last["to"]))
        return said("moved-and-captured", move=move, capture=capture)
    return move
