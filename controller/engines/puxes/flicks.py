"""How a flick's outcome is ruled: the table's report checked, then applied to the game.

"Le déplacement ou le réveil d'un oracle", "Fin de partie" and "Cas particuliers": moved or shot,
asleep, the sacred garden and its push-back, a DiXé and whether it counts, one's own temple, spits,
the fortress; and what putting an oracle to sleep or freeing it means for the powers holding it.
Mixed into :class:`~controller.engines.puxes.game.PuxesGame`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from controller.engines.core import Event, IllegalActionError
from controller.engines.puxes.actions import Outcome
from controller.engines.puxes.geometry import is_mm
from controller.engines.puxes.outcomes import representative_outcomes

if TYPE_CHECKING:
    from controller.engines.puxes.game import Die


class FlickRules:
    """The outcome of a flick (shot, push-back or spit), for :class:`PuxesGame`."""

    def _validate_outcome(self, step: dict[str, Any], o: Outcome) -> None:
        def fail(message: str) -> None:
            raise IllegalActionError("outcome", f"the reported outcome is not possible: {message}", self.render())

        in_play = {d.id for d in self.oracle_dice() if d.status == "play"}
        for name in ("moved", "touched", "left", "sacred", "dislodged", "disturbed"):
            if not isinstance(getattr(o, name), tuple):
                fail(f"{name} must be a list")
        for entry in o.moved:
            if not isinstance(entry, tuple) or len(entry) != 5:
                fail(f"each moved entry is [die, x, y, angle, face], not {entry!r}")
            die, x, y, angle, face = entry
            if die not in in_play:
                fail(f"die {die} is not an oracle in play")
            for value in (x, y, angle):
                if not is_mm(value):
                    fail(f"positions are numbers of millimetres, not {value!r}")
            if face is not None and (not isinstance(face, str) or not self.collection.face_allowed(self.dice[die].name, face)):
                fail(f"{face!r} is not a face of die {die} ({self.dice[die].name})")
            if die not in o.left and not self.table.inside(x, y):
                fail(f"oracle {die} rests at ({x}, {y}), outside the area, but is not listed as having left it")
        if len({e[0] for e in o.moved}) != len(o.moved):
            fail("an oracle is listed twice in moved")
        for name in ("touched", "left", "dislodged"):
            for die in getattr(o, name):
                if die not in in_play:
                    fail(f"{name} lists {die!r}, which is not an oracle in play")
        for die in o.dislodged:
            if die not in self.seduced:
                fail(f"oracle {die} carries no Petit gris")
        for entry in o.sacred:
            if not isinstance(entry, tuple) or len(entry) != 2 or entry[0] not in in_play or \
                    not isinstance(entry[1], int) or not 0 <= entry[1] < len(self.temples):
                fail(f"sacred entries are [oracle in play, temple index], not {entry!r}")
        if o.toppled is not None and (isinstance(o.toppled, bool) or not isinstance(o.toppled, int) or
                                      not 0 <= o.toppled < len(self.temples) or self.temples[o.toppled].status != "standing"):
            fail(f"toppled must be the index of a standing temple, not {o.toppled!r}")
        if not isinstance(o.toppled_touches, bool) or not isinstance(o.toppled_left, bool):
            fail("toppled_touches and toppled_left are true or false")
        if (o.toppled_touches or o.toppled_left) and o.toppled is None:
            fail("toppled_touches and toppled_left describe a toppled temple; give toppled")
        if o.fortress is not None and (o.fortress not in in_play or not self.options.fortress):
            fail(f"fortress must name an oracle in play in the fortress mode, not {o.fortress!r}")
        for p in o.disturbed:
            if not isinstance(p, int) or not 0 <= p < self.num_players:
                fail(f"disturbed lists seats, not {p!r}")

    def _outcome_options(self, step: dict[str, Any]) -> list[Outcome]:
        return representative_outcomes(self, step)

    def _resolve(self, step: dict[str, Any], o: Outcome, events: list[Event] | None) -> None:
        """Apply a flick's outcome: the rules of "Le déplacement", "Fin de partie" and "Cas particuliers"."""
        by, what = step["by"], step["what"]
        for p in o.disturbed:
            self.players[p].disturbed = True
        before = {d.id: (d.x, d.y, d.angle, d.face) for d in self.oracle_dice()}
        for die_id, x, y, angle, face in o.moved:
            die = self.dice[die_id]
            die.x, die.y, die.angle = float(x), float(y), float(angle)
            if face is not None:
                die.face = face
        played = self.dice[step["die"]]
        touched = [self.dice[d] for d in o.touched]
        moved_ids = {e[0] for e in o.moved} | set(o.touched) | set(o.left)

        if what == "shot" and o.toppled is not None and not self.opposed(self.temples[o.toppled].owner, by):
            # "si un oracle fait tomber malencontreusement son propre temple, le coup est annulé"
            for die_id, (x, y, angle, face) in before.items():
                if die_id != played.id:
                    d = self.dice[die_id]
                    d.x, d.y, d.angle, d.face = x, y, angle, face
            if events is not None:
                events.append(Event("own-temple", f"oracle {played.id} toppled its own side's temple {o.toppled}: the shot is cancelled, "
                                    "the temple is rebuilt and the oracle falls asleep", {"oracle": played.id, "temple": o.toppled}))
            px, py, pa, pf = before[played.id]
            played.x, played.y, played.angle, played.face = px, py, pa, pf
            self._sleep(played, events, "it toppled its own temple")
            self.turn["clean"] = False
            self.turn["charm_ok"] = False
            return

        if what == "shot" and o.toppled is not None:
            temple = self.temples[o.toppled]
            problems = []
            if o.touched:
                problems.append("the shot also touched an oracle")
            if o.toppled_touches:
                problems.append("the fallen temple die touches an oracle")
            if played.id in o.left:
                problems.append("the played oracle left the area")
            if o.toppled_left:
                problems.append("the temple left the area")
            if self.options.toddlers and not self.collection.is_character(played.face):
                if events is not None:
                    events.append(Event("temple-rebuilt", f"oracle {played.id} shows a symbol and cannot DiXer a temple "
                                        "(\"il faut avoir un personnage sur la face visible du DiXe\"): temple rebuilt",
                                        {"temple": temple.index}))
            elif problems:
                if events is not None:
                    events.append(Event("temple-rebuilt", f"temple {temple.index} toppled but does not count ({'; '.join(problems)}): "
                                        f"oracle {played.id} falls asleep, the temple is rebuilt and defenders that left are put back",
                                        {"temple": temple.index, "oracle": played.id, "problems": problems}))
                for d in o.left:
                    die = self.dice[d]
                    if d != played.id and self.opposed(die.owner, by):
                        self.queue.insert(0, {"kind": "place", "player": die.owner, "oracle": d, "temples": self._garden_of(die),
                                              "face": False, "reason": "replace"})
                    elif d != played.id:
                        self._sleep(die, events, "it left the area", left=True)
                self._sleep(played, events, "its DiXé did not count")
                self.turn["clean"] = False
                self.turn["charm_ok"] = False
                return
            else:
                temple.lives -= 1
                if temple.lives > 0:
                    if events is not None:
                        events.append(Event("dixe", f"temple {temple.index} of {self.seat_label(temple.owner)} is DiXé once: it is "
                                            f"rebuilt and its owner pushes oracle {played.id} back (advanced two-stage temples)",
                                            {"temple": temple.index, "owner": temple.owner, "final": False}))
                    self.queue.insert(0, {"kind": "push", "player": temple.owner, "oracle": played.id, "temple": temple.index})
                else:
                    temple.status = "dixe"
                    if events is not None:
                        events.append(Event("dixe", f"temple {temple.index} of {self.seat_label(temple.owner)} is DiXé by oracle "
                                            f"{played.id} of {self.seat_label(by)}",
                                            {"temple": temple.index, "owner": temple.owner, "by": by, "final": True}))
                self.turn["clean"] = False
                self.turn["charm_ok"] = False
                return
        elif o.toppled is not None:
            if events is not None:
                events.append(Event("temple-rebuilt", f"temple {o.toppled} was knocked by a {'spit' if what == 'spit' else 'push-back'}, "
                                    "which cannot DiXer a temple: it is rebuilt in its place", {"temple": o.toppled}))

        if what == "push" and (o.touched or o.left or o.toppled is not None or (moved_ids - {played.id})):
            # "Si durant ce coup de défense l'oracle repoussé touche la moindre pièce ou sort du jeu,
            #  le joueur suivant replace le ou les oracles déplacés où il veut dans son jardin public"
            placer = self.next_player(self.turn["player"]) if self.turn else by
            placer = by if placer is None else placer
            displaced = sorted(moved_ids | {played.id})
            if events is not None:
                events.append(Event("push-failed", f"the push-back touched a piece or left the area: {self.seat_label(placer)} "
                                    f"puts oracles {', '.join(map(str, displaced))} back in the public garden of temple {step['temple']}",
                                    {"placer": placer, "oracles": displaced}))
            for d in reversed(displaced):
                self.queue.insert(0, {"kind": "place", "player": placer, "oracle": d, "temples": [step["temple"]],
                                      "face": False, "reason": "replace"})
            return

        # ordinary shot, push or spit
        if what == "shot":
            hit = [d.id for d in touched]
            if hit:
                if events is not None:
                    events.append(Event("shot", f"oracle {played.id} shoots: it touched oracle(s) {', '.join(map(str, hit))}",
                                        {"oracle": played.id, "touched": hit}))
            elif played.id not in o.left:
                if events is not None:
                    events.append(Event("moved", f"oracle {played.id} moved to ({played.x:.0f}, {played.y:.0f}) mm showing {played.face}",
                                        {"oracle": played.id, "x": played.x, "y": played.y, "face": played.face}))
            self.turn["clean"] = not hit and played.id not in o.left and o.toppled is None
            self.turn["charm_ok"] = not any(self.opposed(d.owner, by) for d in touched) and o.toppled is None
        elif what == "push":
            if events is not None:
                events.append(Event("moved", f"oracle {played.id} was pushed back to ({played.x:.0f}, {played.y:.0f}) mm",
                                    {"oracle": played.id, "x": played.x, "y": played.y}))
        else:
            hit = [d.id for d in touched]
            if events is not None:
                events.append(Event("shot" if hit else "moved", f"the spit touched {', '.join(map(str, hit)) if hit else 'nothing'}",
                                    {"touched": hit}))
        for d in o.touched:
            self._unlink(d, events, moving=False, shot=True)
        for d in o.dislodged:
            if d in self.seduced:
                self._release_rider(d, events, "Petit gris was knocked off")
                self._sleep(self.dice[d], events, "the Petit gris holding it was knocked over "
                            "(\"Si un oracle renverse Petit gris qui l'immobilise, cet oracle est aussitôt endormi\")")
        for d in o.left:
            die = self.dice[d]
            if die.status == "play":
                self._sleep(die, events, "it left the play area", left=True)
        self._fortress_update(o, moved_ids, events)
        pending = []
        for oracle, t in o.sacred:
            die, temple = self.dice[oracle], self.temples[t]
            if die.status == "play" and temple.status == "standing" and self.opposed(die.owner, temple.owner) and \
                    not self.players[temple.owner].out and oracle not in pending:
                pending.append(oracle)
                self.queue.insert(0, {"kind": "push", "player": temple.owner, "oracle": oracle, "temple": t})
                if events is not None:
                    events.append(Event("sacred", f"oracle {oracle} landed in the sacred garden of temple {t}: "
                                        f"{self.seat_label(temple.owner)} pushes it back at once", {"oracle": oracle, "temple": t, "owner": temple.owner}))
        if what == "shot" and self.turn["power"] in ("transport", "vampirisation") and self.turn["power"] not in self.turn.get("carried", ()):
            choices = [d.id for d in touched if d.status == "play" and d.id != played.id]
            if choices and played.status == "play":
                self.turn.setdefault("carried", []).append(self.turn["power"])
                self.queue.insert(0, {"kind": "carry", "player": by, "power": self.turn["power"], "choices": choices,
                                      "mover": played.id})

    def _fortress_update(self, o: Outcome, moved_ids: set[int], events: list[Event] | None) -> None:
        if not self.options.fortress:
            return
        holder = self.fortress_holder
        if holder is not None and (self.dice[holder].status != "play" or (holder in moved_ids and o.fortress != holder)):
            self.fortress_holder = holder = None
        if o.fortress is None or o.fortress == holder:
            return
        new = self.dice[o.fortress]
        if new.status != "play":
            return
        if holder is not None:
            if not self.opposed(self.dice[holder].owner, new.owner):
                return
            if events is not None:
                events.append(Event("fortress", f"oracle {new.id} enters the occupied fortress: oracle {holder} falls asleep",
                                    {"oracle": new.id, "evicted": holder}))
            self._sleep(self.dice[holder], events, "another player's oracle took the fortress")
        self.fortress_holder = new.id
        if events is not None:
            events.append(Event("fortress", f"oracle {new.id} holds the fortress: {self.seat_label(new.owner)} may spit from it each turn",
                                {"oracle": new.id, "player": new.owner}))

    def _sleep(self, die: Die, events: list[Event] | None, why: str, left: bool = False) -> None:
        """Put an oracle to sleep, unless Immunité saves it; in the cliff mode one leaving the area is lost."""
        if die.status != "play":
            return
        if self.immune(die.owner):
            chooser = self.next_player(self.turn.get("player", die.owner)) if self.turn else None
            if events is not None:
                events.append(Event("immune", f"Immunité: oracle {die.id} cannot fall asleep ({why})"
                                    + ("; it is put back where it left and the next player chooses its face" if left else ""),
                                    {"oracle": die.id}))
            if left:
                die.x = min(max(die.x or 0.0, 0.0), self.table.size_x)
                die.y = min(max(die.y or 0.0, 0.0), self.table.size_y)
                if chooser is not None:
                    self.queue.insert(0, {"kind": "face", "player": chooser, "oracle": die.id})
            return
        self._unlink(die.id, events)
        if self.fortress_holder == die.id:
            self.fortress_holder = None
        die.status = "lost" if (left and self.options.cliff) else "asleep"
        die.x = die.y = None
        if die.status == "lost":
            if events is not None:
                events.append(Event("lost", f"oracle {die.id} of {self.seat_label(die.owner)} fell off the cliff and is lost ({why})",
                                    {"oracle": die.id, "player": die.owner}))
        else:
            if events is not None:
                events.append(Event("asleep", f"oracle {die.id} of {self.seat_label(die.owner)} falls asleep ({why})",
                                    {"oracle": die.id, "player": die.owner}))

    def _release_rider(self, oracle: int, events: list[Event] | None, why: str) -> None:
        hero = self.dice[self.seduced.pop(oracle)]
        hero.status = "hand"
        if not self.players[hero.owner].out:
            self.players[hero.owner].heroes.append(hero.id)
            self.players[hero.owner].heroes.sort()
        if events is not None:
            events.append(Event("freed", f"{why}: Petit gris goes back to {self.seat_label(hero.owner)}'s hand",
                                {"oracle": oracle, "hero": hero.id}))

    def _unlink(self, oracle: int, events: list[Event] | None, moving: bool = False, shot: bool = False) -> None:
        """An oracle that moves, is hit or leaves play loses its ties (Vampirisation, Transport)."""
        if oracle in self.seduced and not moving and not shot:
            self._release_rider(oracle, events, f"oracle {oracle} left its place")
        for victim, vampire in list(self.glued.items()):
            if oracle in (victim, vampire):
                del self.glued[victim]
                if events is not None:
                    events.append(Event("freed", f"oracles {vampire} and {victim} are no longer stuck together",
                                        {"oracle": victim, "vampire": vampire}))
        for top, bottom in list(self.stacked.items()):
            if oracle in (top, bottom):
                del self.stacked[top]
