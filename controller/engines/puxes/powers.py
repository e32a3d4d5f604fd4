"""The heroes' powers: which are in force, which may be activated, and what activating one does.

Passive powers (Protection, Ambidextre, Immunité) are in force while their face is visible on a
hero; active powers are announced in phase 2 ("L'activation des pouvoirs héroïques"), at most one
per turn, and some of them act after the move (Furtif, Transport, Vampirisation, Coup double,
Coup de bol, Mega coup de bol, Charme, Coup de langue).

Protection: "Le pouvoir « protection » est prioritaire sur tous les autres pouvoirs et les annule
tous. Si plusieurs Oni sont en jeu, c'est le premier apparu qui est prioritaire sur les autres".
The Protection in force is the one whose face appeared first; every opponent of its owner has all
their powers cancelled, passive ones included, except Vampirisation, which "résiste à tous
pouvoirs (même protection)".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from controller.engines.puxes.actions import UsePower

if TYPE_CHECKING:
    from controller.engines.puxes.game import PuxesGame

#: Powers that need no target when announced.
PLAIN = {"coup_de_langue", "furtif", "transport", "quarante_neuf_trois", "vampirisation", "coup_de_bol",
         "retente_ta_chance", "mega_coup_de_bol", "charme"}


def protection_holder(game: PuxesGame) -> int | None:
    """The hero die whose Protection is in force: the Oni face that appeared first."""
    if not game.options.powers_enabled:
        return None
    best: tuple[int, int] | None = None
    for die in game.visible_heroes():
        power = game.collection.power_of(die.face)
        if power is not None and power.name == "protection":
            key = (die.appeared, die.id)
            if best is None or key < best:
                best = key
    return None if best is None else best[1]


def suppressed(game: PuxesGame, player: int) -> bool:
    """Whether an opponent's Protection cancels ``player``'s powers."""
    holder = protection_holder(game)
    return holder is not None and game.opposed(game.dice[holder].owner, player)


def passive_in_force(game: PuxesGame, player: int, power: str) -> bool:
    """Whether ``player`` (or a partner, in the cooperative mode) has ``power`` visible and not
    cancelled by an opposing Protection."""
    if not game.options.powers_enabled:
        return False
    for die in game.visible_heroes():
        if game.opposed(die.owner, player):
            continue
        p = game.collection.power_of(die.face)
        if p is not None and p.name == power and not suppressed(game, die.owner):
            return True
    return False


def active_heroes(game: PuxesGame, player: int) -> Iterator[tuple[int, str]]:
    """(hero die, power) for each of ``player``'s visible active powers, in hero order."""
    for die_id in game.players[player].heroes:
        die = game.dice[die_id]
        p = game.collection.power_of(die.face)
        if p is not None and not p.passive:
            yield die_id, p.name


def copyable(game: PuxesGame, player: int) -> list[tuple[int, str]]:
    """(opposing hero die, power) pairs Imitation may copy: the visible active powers of opposing
    heroes, or any power on the dice of an opponent whose heroes were knocked ("si un adversaire a
    bougé ses héros, le pouvoir peut copier la compétence de son choix parmi les héros adverses")."""
    found: list[tuple[int, str]] = []
    for other, state in enumerate(game.players):
        if not game.opposed(player, other) or state.out:
            continue
        for die_id in state.heroes:
            die = game.dice[die_id]
            faces = game.collection.known_faces(die.name) if state.disturbed else (die.face,)
            for face in faces:
                p = game.collection.power_of(face)
                if p is not None and not p.passive and p.name != "imitation" and (die_id, p.name) not in found:
                    found.append((die_id, p.name))
    return found


def power_options(game: PuxesGame, player: int) -> list[UsePower]:
    """Every activation ``player`` may announce now (phase 2, nothing done yet this turn)."""
    if not game.options.powers_enabled:
        return []
    blocked = suppressed(game, player)
    options: list[UsePower] = []
    for hero, power in active_heroes(game, player):
        if power == "imitation":
            if blocked:
                continue
            for source, copied in copyable(game, player):
                options.extend(_targets(game, player, hero, copied, source))
        elif not blocked or power == "vampirisation":
            options.extend(_targets(game, player, hero, power, None))
    return options


def _targets(game: PuxesGame, player: int, hero: int, power: str, source: int | None) -> list[UsePower]:
    own = [o for o in game.oracles_of(player) if game.dice[o].status == "play"]
    opposing = [o.id for o in game.oracle_dice() if o.status == "play" and game.opposed(o.owner, player)]
    free = [o for o in own if game.movable(o)]
    hand = [h for h in game.players[player].heroes if h != hero]
    make = lambda **kw: UsePower(hero=hero, power=power, copied_from=source, **kw)  # noqa: E731
    if power in PLAIN:
        if power == "retente_ta_chance" and not game.players[player].heroes:
            return []
        return [make()]
    if power == "seduction":
        return [make(target=o) for o in opposing if o not in game.seduced]
    if power == "contamination":
        return [make(target=o) for o in opposing if not game.immune(game.dice[o].owner)]
    if power == "retrograde":
        return [make(target=o, other=h) for o in opposing for h in hand if game.dice[h].face is not None]
    if power == "retraite":
        return [make(target=o) for o in free]
    if power == "attrape_moi":
        if not game.players[player].can_wake:
            return []
        return [make(target=o) for o in game.oracles_of(player) if game.dice[o].status == "asleep"]
    if power == "changement_d_avis":
        result = []
        for o in own:
            die = game.dice[o]
            for face in game.collection.candidate_faces(die.name):
                if face != die.face and game.collection.is_symbol(face):
                    result.append(make(target=o, face=face))
        return result
    if power == "coup_double":
        shown = {game.dice[h].face for h in game.players[player].heroes if game.collection.is_symbol(game.dice[h].face)}
        result = []
        for symbol in sorted(shown):
            if sum(1 for o in free if game.dice[o].face == symbol) >= 2:
                result.append(make(face=symbol))
        return result
    return []
