"""Wuxing duel on the wheels: what each controller's ready button means.

* Le chemin (both players at once, in secret): the number wheel is the element, 1 Wood, 2 Fire,
  3 Earth, 4 Metal, 5 Water (the dashboard shows the list); the ready button locks the card (LED
  on). When both are locked, the cards are revealed and the duel resolved. The opening discard is
  dialled the same way.
* Le théâtre (one player at a time, in the open): the symbol wheel picks the pawn (A to D), the
  direction wheel the way (up, right, down, left; the board as the dashboard draws it, seat 1's side
  at the top), the number wheel how far (1 to 4). A player who cannot move dials 0 and pays the
  token the symbol wheel shows (A blue, B red). When both are out of tokens, the empty islands are
  numbered on the dashboard and the symbol (tens) and number (units) wheels pick one to turn over.
  A move the rules refuse makes the LED blink and the dashboard says why. Nothing is secret here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.dials.state import DIRECTIONS, ControllerState
from controller.engines.wuxing import Discard, Flip, Move, Play, Stay, WuxingGame
from controller.engines.wuxing.elements import ELEMENT_NAMES
from controller.engines.wuxing.game import last_text
from controller.engines.wuxing.words import REFUSALS, wheel_help
from controller.games.wheels import TURNING, Press, Refused, Table, WheelPlay
from controller.i18n import N_


class WuxingWheels(WheelPlay):
    """One controller per player, in both modes."""

    REFUSALS = REFUSALS

    game: WuxingGame

    def __init__(self, game: WuxingGame, bot: Any = None) -> None:
        super().__init__(game, bot)
        self._review: tuple[int, list[dict[str, Any]]] | None = None

    def pieces(self) -> int:
        return 2

    def decision_point(self) -> tuple[Any, ...]:
        rules = self.game.rules
        if self.game.mode == "chemin":
            return ("chemin", rules.round, rules.phase)
        return ("theatre", len(self.game.history))

    def stage(self) -> str:
        return {"discard": "opening discard", "duel": "secret cards", "move": "moving",
                "flip": "turning islands over", "over": "over"}.get(self.game.phase, self.game.phase)

    # ---- the ready button --------------------------------------------------------------------

    def press(self, piece: int, state: ControllerState, table: Table) -> Press | None:
        game = self.game
        seat = piece
        if game.is_over():
            return None
        if table.bot_holds(seat, piece):
            raise Refused.said(N_("{piece} is played by a bot ({player})"), piece=table.piece_name(piece),
                               player=table.seat_name(seat))
        if game.mode == "chemin":
            if state.number is None:
                raise Refused(TURNING)
            if not 1 <= state.number <= 5:
                raise Refused(REFUSALS["element-range"])
            element = state.number - 1
            return Press(seat, Discard(element) if game.phase == "discard" else Play(element))
        rules = game.rules
        if seat != rules.to_act:
            raise Refused.said(N_("{player} plays now: wait for your turn"), player=table.seat_name(rules.to_act))
        if game.phase == "flip":
            if state.number is None or state.symbol is None:
                raise Refused(TURNING)
            candidates = self.flip_candidates()
            index = 10 * state.symbol + state.number
            if index >= len(candidates):
                raise Refused.said(N_("the islands you may turn over are numbered 0 to {last} on the dashboard: the "
                                      "symbol wheel gives the tens (A 0, B 10, C 20), the number wheel the units"),
                                   last=len(candidates) - 1)
            return Press(seat, Flip(candidates[index]))
        if state.number is None or state.symbol is None:
            raise Refused(TURNING)
        if state.number == 0:
            held = [c for c, n in zip(("blue", "red"), rules.tokens[seat]) if n]
            if len(held) == 1:
                return Press(seat, Stay(held[0]))
            if state.symbol > 1:
                raise Refused.said(N_("to stay, turn the symbol wheel to A to pay a blue token or B to pay a red one"))
            return Press(seat, Stay(("blue", "red")[state.symbol]))
        if state.direction is None:
            raise Refused(TURNING)
        return Press(seat, Move(state.symbol, DIRECTIONS[state.direction], state.number))

    def locks(self, seat: int, action: Any) -> int | None:
        """Cards are secret until both are locked; theatre actions are public at once."""
        return seat if isinstance(action, (Discard, Play)) else None

    def flip_candidates(self) -> list[tuple[int, int]]:
        """The empty islands the player may turn over, in the order the dashboard numbers them."""
        game = self.game
        if game.mode != "theatre" or game.phase != "flip":
            return []
        return [a.square for a in game.legal_actions(game.rules.to_act)]

    # ---- bots ----------------------------------------------------------------------------------

    def wheel_targets(self, action: Any) -> dict[str, int]:
        if isinstance(action, (Discard, Play)):
            return {"number": action.element + 1}
        if isinstance(action, Move):
            return {"symbol": action.pawn, "direction": DIRECTIONS.index(action.direction), "number": action.distance}
        if isinstance(action, Stay):
            return {"symbol": 0 if action.colour == "blue" else 1, "number": 0}
        candidates = self.flip_candidates()
        index = candidates.index(tuple(action.square)) if tuple(action.square) in candidates else 0
        return {"symbol": index // 10, "number": index % 10}

    # ---- what the table sees -------------------------------------------------------------------

    def public(self, wheels: Mapping[int, ControllerState]) -> dict[str, Any]:
        """The number wheel's elements; in the theatre, where the player to act is aiming (moves are
        public); after a chemin game, each duel's equilibrium strategies beside the cards played."""
        game = self.game
        out: dict[str, Any] = {"numbers": {str(i + 1): name for i, name in enumerate(ELEMENT_NAMES)},
                               "last_text": last_text(game)}
        if game.mode == "chemin":
            out["wheel_help"] = wheel_help("chemin")
            out["review"] = self.review() if game.is_over() else None
            return out
        out["wheel_help"] = wheel_help("theatre-flip" if game.phase == "flip" else "theatre-move")
        seat = game.rules.to_act
        state = wheels.get(seat)
        out["aim"] = self._aim(seat, state) if state is not None and not game.is_over() else None
        out["flip_candidates"] = [list(sq) for sq in self.flip_candidates()]
        return out

    def _aim(self, seat: int, state: ControllerState) -> dict[str, Any] | None:
        game = self.game
        if game.phase == "flip":
            candidates = self.flip_candidates()
            if state.number is None or state.symbol is None:
                return None
            index = 10 * state.symbol + state.number
            return {"flip": index, "square": list(candidates[index]) if index < len(candidates) else None}
        if state.symbol is None or state.symbol >= 4:
            return None
        at = game.rules.pawns[seat][state.symbol]
        aim: dict[str, Any] = {"pawn": state.symbol, "from": list(divmod(at, 5)) if at >= 0 else None, "to": None}
        if at >= 0 and state.direction is not None and state.number:
            move = Move(state.symbol, DIRECTIONS[state.direction], state.number)
            aim["legal"] = move in game.legal_actions(seat)
            if move.direction in ("up", "right", "down", "left"):
                end = game.rules.target(seat, move) if move.distance <= 4 else None
                aim["to"] = list(divmod(end, 5)) if end is not None else None
        return aim

    def review(self) -> list[dict[str, Any]]:
        """Each duel of the finished chemin game: the cards played and both seats' equilibrium
        strategies in that position (computed once, then kept)."""
        from controller.engines.wuxing.bots import equilibrium

        game = self.game
        if self._review is not None and self._review[0] == len(game.history):
            return self._review[1]
        replay = WuxingGame(game.options, seed=game.seed)
        rounds: list[dict[str, Any]] = []
        pending: dict[str, Any] | None = None
        for player, action in game.history:
            if not replay.rules.choices:
                eq = equilibrium(replay, depth=2)
                pending = {"phase": replay.phase, "round": replay.rules.round, "value": round(eq["value"], 3),
                           "strategies": [{k: round(v, 3) for k, v in s.items()} for s in eq["strategies"]],
                           "cards": [None, None]}
                rounds.append(pending)
            assert pending is not None
            pending["cards"][player] = ELEMENT_NAMES[action.element]
            replay.apply_fast(player, action)
        self._review = (len(game.history), rounds)
        return rounds
