"""How a flick's outcome is ruled: the table's report checked, then applied to the game.

"Le déplacement ou le réveil d'un oracle", "Fin de partie" and "Cas particuliers": moved or shot,
asleep, the sacred garden and its push-back, a DiXé and whether it counts, one's own temple, spits,
the fortress; and what putting an oracle to sleep or freeing it means for the powers holding it.
Mixed into :class:`~controller.engines.puxes.game.PuxesGame`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from controller.engines.core import Event, IllegalActionError
from controller.engines.puxes import words
from controller.engines.puxes.actions import Outcome
from controller.engines.puxes.geometry import is_mm
from controller.engines.puxes.outcomes import representative_outcomes
from controller.i18n import N_, listing, message

if TYPE_CHECKING:
    from controller.engines.puxes.game import Die


#: Why a fallen temple is not DiXé ("il n'est pas permis sur un tir..."), by the cause's slug.
_VOID: dict[str, str] = {
    "touched": N_("the shot also touched an oracle"),
    "temple-touches": N_("the fallen temple die touches an oracle"),
    "oracle-left": N_("the played oracle left the area"),
    "temple-left": N_("the temple left the area"),
}


class FlickRules:
    """The outcome of a flick (shot, push-back or spit), for :class:`PuxesGame`."""

    def _validate_outcome(self, step: dict[str, Any], o: Outcome) -> None:
        def fail(msgid: str, **args: Any) -> None:
            raise IllegalActionError.said("outcome", N_("the reported outcome is not possible: {why}"), self.render(),
                                          why=message(msgid, **args))

        in_play = {d.id for d in self.oracle_dice() if d.status == "play"}
        for name in ("moved", "touched", "left", "sacred", "dislodged", "disturbed"):
            if not isinstance(getattr(o, name), tuple):
                fail(N_("{name} must be a list"), name=name)
        for entry in o.moved:
            if not isinstance(entry, tuple) or len(entry) != 5:
                fail(N_("each moved entry is [die, x, y, angle, face], not {entry}"), entry=repr(entry))
            die, x, y, angle, face = entry
            if die not in in_play:
                fail(N_("die {die} is not an oracle in play"), die=repr(die))
            for value in (x, y, angle):
                if not is_mm(value):
                    fail(N_("positions are numbers of millimetres, not {value}"), value=repr(value))
            if face is not None and (not isinstance(face, str) or not self.collection.face_allowed(self.dice[die].name, face)):
                fail(N_("{face} is not a face of {oracle}"), face=repr(face), oracle=words.oracle(self, die))
            if die not in o.left and not self.table.inside(x, y):
                fail(N_("{oracle} rests at {where}, outside the area, but is not listed as having left it"),
                     oracle=words.oracle(self, die), where=words.position(x, y))
        if len({e[0] for e in o.moved}) != len(o.moved):
            fail(N_("an oracle is listed twice in moved"))
        for name in ("touched", "left", "dislodged"):
            for die in getattr(o, name):
                if die not in in_play:
                    fail(N_("{name} lists {die}, which is not an oracle in play"), name=name, die=repr(die))
        for die in o.dislodged:
            if die not in self.seduced:
                fail(N_("{oracle} carries no Petit gris"), oracle=words.oracle(self, die))
        for entry in o.sacred:
            if not isinstance(entry, tuple) or len(entry) != 2 or entry[0] not in in_play or \
                    not isinstance(entry[1], int) or not 0 <= entry[1] < len(self.temples):
                fail(N_("sacred entries are [oracle in play, temple index], not {entry}"), entry=repr(entry))
        if o.toppled is not None and (isinstance(o.toppled, bool) or not isinstance(o.toppled, int) or
                                      not 0 <= o.toppled < len(self.temples) or self.temples[o.toppled].status != "standing"):
            fail(N_("toppled must be the index of a standing temple, not {toppled}"), toppled=repr(o.toppled))
        if not isinstance(o.toppled_touches, bool) or not isinstance(o.toppled_left, bool):
            fail(N_("toppled_touches and toppled_left are true or false"))
        if (o.toppled_touches or o.toppled_left) and o.toppled is None:
            fail(N_("toppled_touches and toppled_left describe a toppled temple; give toppled"))
        if o.fortress is not None and (o.fortress not in in_play or not self.options.fortress):
            fail(N_("fortress must name an oracle in play in the fortress mode, not {fortress}"), fortress=repr(o.fortress))
        for p in o.disturbed:
            if not isinstance(p, int) or not 0 <= p < self.num_players:
                fail(N_("disturbed lists seats, not {seat}"), seat=repr(p))

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
            px, py, pa, pf = before[played.id]
            played.x, played.y, played.angle, played.face = px, py, pa, pf
            if events is not None:
                events.append(Event.said(
                    "own-temple", N_("{oracle} knocked over {temple}, of its own side: the shot is cancelled, the temple "
                                     "is rebuilt and the oracle falls asleep."),
                    {"oracle": played.id, "temple": o.toppled}, oracle=words.oracle(self, played.id, start=True),
                    temple=words.temple(self, o.toppled)))
            self._sleep(played, events, message(N_("it knocked over its own temple")), "own-temple")
            self.turn["clean"] = False
            self.turn["charm_ok"] = False
            return

        if what == "shot" and o.toppled is not None:
            temple = self.temples[o.toppled]
            problems = [slug for slug, found in (("touched", o.touched), ("temple-touches", o.toppled_touches),
                                                 ("oracle-left", played.id in o.left), ("temple-left", o.toppled_left))
                        if found]
            if self.options.toddlers and not self.collection.is_character(played.face):
                if events is not None:
                    events.append(Event.said(
                        "temple-rebuilt", N_("{oracle} shows a symbol and cannot DiXer a temple: {temple} is rebuilt."),
                        {"temple": temple.index, "rule": "toddlers-symbol"},
                        oracle=words.oracle(self, played.id, start=True), temple=words.temple(self, temple.index)))
            elif problems:
                if events is not None:
                    events.append(Event.said(
                        "temple-rebuilt", N_("{temple} fell but the DiXé does not count ({problems}): the temple is "
                                             "rebuilt and the defenders that left are put back."),
                        {"temple": temple.index, "oracle": played.id, "problems": problems},
                        temple=words.temple(self, temple.index, start=True),
                        problems=listing(message(_VOID[p]) for p in problems), oracle=words.oracle(self, played.id)))
                for d in o.left:
                    die = self.dice[d]
                    if d != played.id and self.opposed(die.owner, by):
                        self.queue.insert(0, {"kind": "place", "player": die.owner, "oracle": d, "temples": self._garden_of(die),
                                              "face": False, "reason": "replace"})
                    elif d != played.id:
                        self._sleep(die, events, message(N_("it left the play area")), "asleep", left=True)
                self._sleep(played, events, message(N_("its DiXé did not count")), "dixe-void-sleep")
                self.turn["clean"] = False
                self.turn["charm_ok"] = False
                return
            else:
                temple.lives -= 1
                if temple.lives > 0:
                    if events is not None:
                        events.append(Event.said(
                            "dixe", N_("{temple} is DiXé once: it is rebuilt and {owner} pushes {oracle} away (temples "
                                       "fall twice in this game)."),
                            {"temple": temple.index, "owner": temple.owner, "final": False, "rule": "dixe-twice"},
                            temple=words.temple(self, temple.index, start=True), owner=self.named(temple.owner),
                            oracle=words.oracle(self, played.id)))
                    self.queue.insert(0, {"kind": "push", "player": temple.owner, "oracle": played.id, "temple": temple.index})
                else:
                    temple.status = "dixe"
                    if events is not None:
                        events.append(Event.said(
                            "dixe", N_("{temple} is DiXé by {oracle}."),
                            {"temple": temple.index, "owner": temple.owner, "by": by, "final": True},
                            temple=words.temple(self, temple.index, start=True), oracle=words.oracle(self, played.id)))
                self.turn["clean"] = False
                self.turn["charm_ok"] = False
                return
        elif o.toppled is not None:
            if events is not None:
                if what == "spit":
                    template, rule = N_("{temple} was knocked over by a spit, which cannot DiXer a temple: it is rebuilt "
                                        "in its place."), "spit-no-dixe"
                else:
                    template, rule = N_("{temple} was knocked over by a push-back, which cannot DiXer a temple: it is "
                                        "rebuilt in its place."), "push-failed"
                events.append(Event.said("temple-rebuilt", template, {"temple": o.toppled, "rule": rule},
                                         temple=words.temple(self, o.toppled, start=True)))

        if what == "push" and (o.touched or o.left or o.toppled is not None or (moved_ids - {played.id})):
            # "Si durant ce coup de défense l'oracle repoussé touche la moindre pièce ou sort du jeu,
            #  le joueur suivant replace le ou les oracles déplacés où il veut dans son jardin public"
            placer = self.next_player(self.turn["player"]) if self.turn else by
            placer = by if placer is None else placer
            displaced = sorted(moved_ids | {played.id})
            if events is not None:
                events.append(Event.said(
                    "push-failed", N_("The push-back touched a piece or left the area: {player} puts {oracles} back in "
                                      "{garden}."),
                    {"placer": placer, "oracles": displaced}, player=self.named(placer),
                    oracles=words.oracles(self, displaced), garden=words.garden(self, step["temple"], "public")))
            for d in reversed(displaced):
                self.queue.insert(0, {"kind": "place", "player": placer, "oracle": d, "temples": [step["temple"]],
                                      "face": False, "reason": "replace"})
            return

        # ordinary shot, push or spit
        if what == "shot":
            hit = [d.id for d in touched]
            if hit:
                if events is not None:
                    events.append(Event.said("shot", N_("{oracle} shoots: it touched {touched}."),
                                             {"oracle": played.id, "touched": hit},
                                             oracle=self._moved_words(played.id, before),
                                             touched=listing(words.oracle(self, d, shows=before[d][3]) for d in hit)))
            elif played.id not in o.left:
                if events is not None:
                    events.append(Event.said("moved", N_("{oracle} moved to {where} and shows {face}."),
                                             {"oracle": played.id, "x": played.x, "y": played.y, "face": played.face},
                                             oracle=self._moved_words(played.id, before),
                                             where=words.position(played.x, played.y), face=words.face(played.face)))
            self.turn["clean"] = not hit and played.id not in o.left and o.toppled is None
            self.turn["charm_ok"] = not any(self.opposed(d.owner, by) for d in touched) and o.toppled is None
        elif what == "push":
            if events is not None:
                events.append(Event.said("moved", N_("{oracle} was pushed back to {where}."),
                                         {"oracle": played.id, "x": played.x, "y": played.y, "rule": "sacred"},
                                         oracle=self._moved_words(played.id, before),
                                         where=words.position(played.x, played.y)))
        else:
            hit = [d.id for d in touched]
            if events is not None:
                if hit:
                    events.append(Event.said("shot", N_("The spit touched {touched}."), {"touched": hit, "rule": "spit"},
                                             touched=words.oracles(self, hit)))
                else:
                    events.append(Event.said("moved", N_("The spit touched nothing."), {"touched": hit, "rule": "spit"}))
        for d in o.touched:
            self._unlink(d, events, moving=False, shot=True)
        for d in o.dislodged:
            if d in self.seduced:
                self._release_rider(d, events, message(N_("Petit gris was knocked off")), "petit-gris")
                self._sleep(self.dice[d], events, message(N_("the Petit gris holding it was knocked over")), "petit-gris")
        for d in o.left:
            die = self.dice[d]
            if die.status == "play":
                self._sleep(die, events, message(N_("it left the play area")), "asleep", left=True)
        self._fortress_update(o, moved_ids, events)
        pending = []
        for oracle, t in o.sacred:
            die, temple = self.dice[oracle], self.temples[t]
            if die.status == "play" and temple.status == "standing" and self.opposed(die.owner, temple.owner) and \
                    not self.players[temple.owner].out and oracle not in pending:
                pending.append(oracle)
                self.queue.insert(0, {"kind": "push", "player": temple.owner, "oracle": oracle, "temple": t})
                if events is not None:
                    events.append(Event.said("sacred", N_("{oracle} landed in {garden}: {owner} pushes it away at "
                                                          "once."),
                                             {"oracle": oracle, "temple": t, "owner": temple.owner},
                                             oracle=words.oracle(self, oracle, start=True),
                                             garden=words.garden(self, t, "sacred"), owner=self.named(temple.owner)))
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
                events.append(Event.said("fortress", N_("{oracle} enters the fortress that {holder} holds: that oracle "
                                                        "falls asleep."),
                                         {"oracle": new.id, "evicted": holder, "rule": "fortress-taken"},
                                         oracle=words.oracle(self, new.id, start=True),
                                         holder=words.oracle(self, holder)))
            self._sleep(self.dice[holder], events, message(N_("an opponent's oracle took the fortress")), "fortress-taken")
        self.fortress_holder = new.id
        if events is not None:
            events.append(Event.said("fortress", N_("{oracle} holds the fortress: {player} may spit from it each turn."),
                                     {"oracle": new.id, "player": new.owner},
                                     oracle=words.oracle(self, new.id, start=True), player=self.named(new.owner)))

    def _moved_words(self, oracle: int, before: dict[int, tuple[Any, ...]]) -> dict[str, Any]:
        """A flicked oracle, opening a sentence, by the face it showed before the flick."""
        return words.oracle(self, oracle, start=True, shows=before[oracle][3])

    def _sleep(self, die: Die, events: list[Event] | None, why: dict[str, Any], rule: str, left: bool = False) -> None:
        """Put an oracle to sleep, unless Immunité saves it; in the cliff mode one leaving the area is lost.
        ``why`` (a message) says why, ``rule`` is the passage the sleep rests on."""
        if die.status != "play":
            return
        if self.immune(die.owner):
            chooser = self.next_player(self.turn.get("player", die.owner)) if self.turn else None
            if events is not None:
                template = N_("Immunité: {oracle} cannot fall asleep ({why}); it is put back where it left and the next "
                              "player chooses its face.") if left else N_("Immunité: {oracle} cannot fall asleep ({why}).")
                events.append(Event.said("immune", template, {"oracle": die.id}, oracle=words.oracle(self, die.id),
                                         why=why))
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
                events.append(Event.said("lost", N_("{oracle} fell off the cliff and is lost ({why})."),
                                         {"oracle": die.id, "player": die.owner},
                                         oracle=words.oracle(self, die.id, start=True), why=why))
        else:
            if events is not None:
                events.append(Event.said("asleep", N_("{oracle} falls asleep ({why})."),
                                         {"oracle": die.id, "player": die.owner, "rule": rule},
                                         oracle=words.oracle(self, die.id, start=True), why=why))

    def _release_rider(self, oracle: int, events: list[Event] | None, why: dict[str, Any], rule: str) -> None:
        """Petit gris leaves ``oracle`` for its owner's hand; ``why`` (a message opening the sentence) says why."""
        hero = self.dice[self.seduced.pop(oracle)]
        hero.status = "hand"
        if not self.players[hero.owner].out:
            self.players[hero.owner].heroes.append(hero.id)
            self.players[hero.owner].heroes.sort()
        if events is not None:
            events.append(Event.said("freed", N_("{why}: Petit gris goes back to the hand of {player}."),
                                     {"oracle": oracle, "hero": hero.id, "rule": rule}, why=why,
                                     player=self.named(hero.owner)))

    def _unlink(self, oracle: int, events: list[Event] | None, moving: bool = False, shot: bool = False) -> None:
        """An oracle that moves, is hit or leaves play loses its ties (Vampirisation, Transport)."""
        if oracle in self.seduced and not moving and not shot:
            self._release_rider(oracle, events, message(N_("{oracle} left its place"),
                                                        oracle=words.oracle(self, oracle, start=True)), "move")
        for victim, vampire in list(self.glued.items()):
            if oracle in (victim, vampire):
                del self.glued[victim]
                if events is not None:
                    events.append(Event.said("freed", N_("{vampire} and {victim} are no longer stuck together."),
                                             {"oracle": victim, "vampire": vampire, "rule": "vampirisation"},
                                             vampire=words.oracle(self, vampire, start=True),
                                             victim=words.oracle(self, victim)))
        for top, bottom in list(self.stacked.items()):
            if oracle in (top, bottom):
                del self.stacked[top]
