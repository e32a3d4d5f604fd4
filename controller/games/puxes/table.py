"""PuXes at the table service: its referee, the shot drawn on the page and the mat's contents.

Beside the English texts the service sends, the page gets each one as a message to say in the
phone's own language: ``prompt_message`` (what the table waits for), ``winners_message``,
``choice_messages`` (the choices players may announce, in the order of the service's ``choices``)
and each die's ``label`` ("the sun oracle of Ada (red)").
"""

from __future__ import annotations

import math
from typing import Any

from controller.engines.puxes import PuxesGame, words
from controller.engines.puxes.actions import Outcome
from controller.engines.puxes.game import Die
from controller.games.table import TablePlay
from controller.i18n import N_, message
from controller.referee.common import Call, RefereeConfig
from controller.referee.puxes import PuxesReferee
from controller.vision.snapshot import TableSnapshot

Positions = dict[int, tuple[float, float]]


class PuxesTable(TablePlay):
    """The oracles' moves drawn as arrows, the dice and temples in the mat's frame."""

    ANNOUNCED = frozenset({"power", "wake", "end", "reroll", "spit"})

    def referee(self, game: Any, config: RefereeConfig) -> PuxesReferee:
        return PuxesReferee(game, config)

    def rebind(self, referee: Any, snapshot: TableSnapshot) -> None:
        """The camera's dice have new ids after a restart: tie each oracle still in play to the die
        resting where the replayed game has it."""
        game: PuxesGame = referee.game
        ox, oy = referee.config.area_origin_mm
        free = {d.die_id: d for d in snapshot.dice if d.level == 1 and d.on_mat}
        for die in game.oracle_dice():
            if die.status != "play" or die.x is None or die.y is None or referee.camera_id(die.id) is not None:
                continue
            near = min(free.values(), key=lambda d: math.hypot(d.x_mm - ox - die.x, d.y_mm - oy - die.y), default=None)
            if near is not None and math.hypot(near.x_mm - ox - die.x, near.y_mm - oy - die.y) <= game.options.die_mm:
                referee.binding[near.die_id] = die.id
                del free[near.die_id]

    def before(self, game: Any) -> Positions:
        """Where every oracle in play rests (area frame, mm)."""
        return {d.id: (d.x, d.y) for d in game.dice.values()
                if d.role == "oracle" and d.status == "play" and d.x is not None and d.y is not None}

    def shot(self, call: Call, before: Positions, game: Any) -> dict[str, Any] | None:
        if not any(isinstance(a, Outcome) for _, a in call.actions):
            return None
        after = self.before(game)
        moves = []
        for die_id in sorted(set(before) | set(after)):
            a, b = before.get(die_id), after.get(die_id)
            if a != b:
                moves.append({"die": die_id, "owner": game.dice[die_id].owner, "from": a, "to": b})
        return {"call_id": call.call_id, "moves": moves}

    @staticmethod
    def label(game: PuxesGame, die: Die) -> dict[str, Any]:
        """A die as the players name it: an oracle by its face and owner, a hero by its character, a
        temple's die by the temple."""
        if die.role == "oracle":
            return words.oracle(game, die.id, start=True)
        if die.role == "hero":
            return words.hero(game, die.id, start=True)
        temple = next(t.index for t in game.temples if die.id in t.dice)
        return words.temple(game, temple, start=True)

    def choice_messages(self, game: PuxesGame) -> list[dict[str, Any]]:
        """The choices players may announce now, each with its words: ``{"player", "action", "message"}``,
        the action encoded as the service's ``choices`` give it."""
        if game.is_over():
            return []
        out = []
        for player in game.current_players():
            if player < 0:
                continue
            for action in game.legal_actions(player):
                encoded = game.encode_action(action)
                if isinstance(encoded, dict) and encoded.get("type") in self.ANNOUNCED:
                    out.append({"player": player, "action": encoded, "message": message(
                        N_("{player}: {action}"), player=game.named(player), action=game.action_words(action))})
        return out

    def call_json(self, call: Call, engine: Any) -> dict[str, Any]:
        """Without the dice's flicks: they are the camera's record, not the players'."""
        data = call.to_json(engine)
        data["events"] = [e for e in data["events"] if e.get("kind") != "flick"]
        return data

    def public(self, referee: Any, snapshot: TableSnapshot | None, shot: dict[str, Any] | None) -> dict[str, Any]:
        game: PuxesGame = referee.game
        ox, oy = referee.config.area_origin_mm
        winners = words.players(game.winners(), game.seat_names)
        return {
            "prompt_message": referee.prompt_message(),
            "winners_message": message(N_("Winners: {winners}.") if len(game.winners()) > 1 else
                                       N_("Winner: {winners}."), winners=winners) if game.is_over() else None,
            "choice_messages": self.choice_messages(game) if not referee.questions else [],
            "area": {"x": ox, "y": oy, "width_mm": game.table.size_x, "height_mm": game.table.size_y},
            "die_mm": game.options.die_mm,
            "dice": [{"id": d.id, "owner": d.owner, "role": d.role, "face": d.face, "status": d.status,
                      "x": None if d.x is None else d.x + ox, "y": None if d.y is None else d.y + oy,
                      "angle": d.angle, "label": self.label(game, d)}
                     for d in sorted(game.dice.values(), key=lambda d: d.id)],
            "temples": [{"index": t.index, "owner": t.owner, "x": t.x + ox, "y": t.y + oy, "status": t.status,
                         "lives": t.lives} for t in game.temples],
            "may_move": referee.may_move(),
            "turn": game.turn_number,
            "last_shot": None if shot is None else {
                "call_id": shot["call_id"],
                "moves": [{**m, "from": None if m["from"] is None else [m["from"][0] + ox, m["from"][1] + oy],
                           "to": None if m["to"] is None else [m["to"][0] + ox, m["to"][1] + oy]}
                          for m in shot["moves"]]},
            "seen": [] if snapshot is None else [
                {"x": d.x_mm, "y": d.y_mm, "angle": d.angle_deg, "level": d.level} for d in snapshot.dice],
            "toppled": [] if snapshot is None else [
                {"x": s.x_mm, "y": s.y_mm} for s in snapshot.stacks if s.toppled],
        }
