"""The rulebook's own words for each decision PuXes makes, to quote with the call.

Each :class:`Passage` is a sentence of ``puxes.fr.md`` as printed (its ``french``) and the message a
call quotes it with (its ``said``): a French reader reads the passage alone, « … », an English reader
the same passage followed by an English rendering, « … » (…). The English is the msgid and the French
its translation, so the catalogue holds both and each phone shows its own.

Every event the engine makes rests on one passage, named by the event's ``data["rule"]`` (see
:func:`rule_of`): an event kind with one cause always rests on the same passage, one with several
causes (a roll made again after a die on its edge, a tie or a hero touching an oracle) names the
passage of its cause. A call quotes the passage of the event that decided it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from controller.i18n import N_, message


@dataclasses.dataclass(frozen=True)
class Passage:
    """A rule as printed (``french``) and the message that quotes it (``said``, English msgid)."""

    french: str
    said: str

    def quoted(self) -> Mapping[str, Any]:
        """The quotation, to be said in any language."""
        return message(self.said)


PASSAGES: Mapping[str, Passage] = {
    "first-player": Passage(
        "En début de partie, les joueurs jettent tous leurs héros. Celui qui obtient le plus de personnages commence.",
        N_("« En début de partie, les joueurs jettent tous leurs héros. Celui qui obtient le plus de personnages "
           "commence. » (At the start of the game, every player rolls all their heroes. Whoever gets the most "
           "characters starts.)")),
    "roll": Passage(
        "Les faces visibles des dés indiquent quel(s) pouvoir(s) (si personnage il y a) le joueur va utiliser et quel "
        "oracle pourra être déplacé.",
        N_("« Les faces visibles des dés indiquent quel(s) pouvoir(s) (si personnage il y a) le joueur va utiliser et "
           "quel oracle pourra être déplacé. » (The faces the dice show tell which power(s) the player will use, if "
           "there are characters, and which oracle may be moved.)")),
    "cocked-die": Passage(
        "lorsqu'un dé est hors jeu ou cassé (c'est à dire qu'il s'arrête sur la tranche ou sur un coin), on rejette "
        "les quatre héros",
        N_("« lorsqu'un dé est hors jeu ou cassé (c'est à dire qu'il s'arrête sur la tranche ou sur un coin), on "
           "rejette les quatre héros » (when a die is off the table or cocked, that is, it stops on an edge or a "
           "corner, the four heroes are rolled again)")),
    "hero-touched-oracle": Passage(
        "Lors du lancer des héros, si un héros touche un oracle, le joueur passe son tour.",
        N_("« Lors du lancer des héros, si un héros touche un oracle, le joueur passe son tour. » (During the heroes' "
           "roll, if a hero touches an oracle, the player passes their turn.)")),
    "setup-oracles": Passage(
        "Positionne tes 4 DiXes oracles devant ton temple, à une distance d'environ 3 DiXes de ce dernier (représentée "
        "par la zone verte, appelée « le jardin public ») et à une distance d'1 DiXe les uns des autres.",
        N_("« Positionne tes 4 DiXes oracles devant ton temple, à une distance d'environ 3 DiXes de ce dernier "
           "(représentée par la zone verte, appelée « le jardin public ») et à une distance d'1 DiXe les uns des "
           "autres. » (Set your 4 oracle DiXes in front of your temple, about 3 DiXes from it (the green zone, called "
           "the public garden) and 1 DiXe apart from each other.)")),
    "setup-temple": Passage(
        "Bâtis ton temple en plaçant 2 DiXes, l'un sur l'autre, devant toi (à une distance de 6 DiXes du bord, "
        "précisément 1/6 de la longueur de la surface de jeu)",
        N_("« Bâtis ton temple en plaçant 2 DiXes, l'un sur l'autre, devant toi (à une distance de 6 DiXes du bord, "
           "précisément 1/6 de la longueur de la surface de jeu) » (Build your temple by setting 2 DiXes one on the "
           "other in front of you, 6 DiXes from the edge, precisely 1/6 of the length of the play area)")),
    "move": Passage(
        "Déplacer : Lorsqu'un oracle est joué et qu'il ne touche rien.",
        N_("« Déplacer : Lorsqu'un oracle est joué et qu'il ne touche rien. » (Move: when an oracle is played and "
           "touches nothing.)")),
    "shoot": Passage(
        "Tirer : Lorsqu'un oracle joué touche un autre oracle.",
        N_("« Tirer : Lorsqu'un oracle joué touche un autre oracle. » (Shoot: when a played oracle touches another "
           "oracle.)")),
    "symbol-match": Passage(
        "Pour pouvoir déplacer un oracle, le symbole présent sur la face visible de ce dernier doit également être "
        "présent sur l'un des symboles visibles de vos héros.",
        N_("« Pour pouvoir déplacer un oracle, le symbole présent sur la face visible de ce dernier doit également "
           "être présent sur l'un des symboles visibles de vos héros. » (To move an oracle, the symbol on its visible "
           "face must also be on one of the visible symbols of your heroes.)")),
    "no-move": Passage(
        "Si aucun oracle n'a de symbole identique avec l'un des héros, le joueur actif ne peut pas faire de "
        "déplacement.",
        N_("« Si aucun oracle n'a de symbole identique avec l'un des héros, le joueur actif ne peut pas faire de "
           "déplacement. » (If no oracle shares a symbol with one of the heroes, the active player cannot move.)")),
    "wake": Passage(
        "si une paire de symboles (et non de personnages) apparaît, le joueur actif a alors la possibilité de "
        "réveiller un oracle endormi.",
        N_("« si une paire de symboles (et non de personnages) apparaît, le joueur actif a alors la possibilité de "
           "réveiller un oracle endormi. » (if a pair of symbols, not of characters, shows, the active player may "
           "wake a sleeping oracle.)")),
    "wake-place": Passage(
        "Une fois l'oracle réveillé, le joueur peut le placer où bon lui semble, dans le jardin public de son temple, "
        "en respectant les contraintes de placement",
        N_("« Une fois l'oracle réveillé, le joueur peut le placer où bon lui semble, dans le jardin public de son "
           "temple, en respectant les contraintes de placement » (Once the oracle is awake, the player may set it "
           "anywhere in the public garden of their temple, keeping to the placement rules)")),
    "asleep": Passage(
        "si un oracle sort de la zone de jeu préalablement définie, il plonge dans un profond sommeil et est mis de "
        "côté.",
        N_("« si un oracle sort de la zone de jeu préalablement définie, il plonge dans un profond sommeil et est mis "
           "de côté. » (if an oracle leaves the play area set beforehand, it falls into a deep sleep and is set "
           "aside.)")),
    "cliff": Passage(
        "Tout oracle qui sort de la zone de jeu est perdu.",
        N_("« Tout oracle qui sort de la zone de jeu est perdu. » (Any oracle that leaves the play area is lost.)")),
    "sacred": Passage(
        "un oracle ne peut pas atterrir dans le jardin sacré d'un temple. Si le cas se présente, le propriétaire du "
        "temple repousse immédiatement l'oracle intrus à l'aide d'une pichenette.",
        N_("« un oracle ne peut pas atterrir dans le jardin sacré d'un temple. Si le cas se présente, le propriétaire "
           "du temple repousse immédiatement l'oracle intrus à l'aide d'une pichenette. » (an oracle cannot land in "
           "the sacred garden of a temple. If it does, the temple's owner at once flicks the intruding oracle "
           "away.)")),
    "push-failed": Passage(
        "Si durant ce coup de défense l'oracle repoussé touche la moindre pièce ou sort du jeu, le joueur suivant "
        "replace le ou les oracles déplacés où il veut dans son jardin public",
        N_("« Si durant ce coup de défense l'oracle repoussé touche la moindre pièce ou sort du jeu, le joueur suivant "
           "replace le ou les oracles déplacés où il veut dans son jardin public » (If during this defensive flick the "
           "pushed oracle touches any piece or leaves the game, the next player puts the moved oracle(s) back "
           "anywhere in their public garden)")),
    "dixe": Passage(
        "Lorsqu'un temple est renversé par un oracle adverse, c'est-à-dire que le DiXe supérieur tombe, on dit qu'il "
        "est « DiXé ».",
        N_("« Lorsqu'un temple est renversé par un oracle adverse, c'est-à-dire que le DiXe supérieur tombe, on dit "
           "qu'il est « DiXé ». » (When a temple is knocked over by an opposing oracle, that is, its top DiXe falls, "
           "it is said to be DiXé.)")),
    "dixe-twice": Passage(
        "après avoir DiXé un temple, il faut le replacer à son emplacement d'origine et repousser l'oracle qui DiXe "
        "celui-ci.",
        N_("« après avoir DiXé un temple, il faut le replacer à son emplacement d'origine et repousser l'oracle qui "
           "DiXe celui-ci. » (after a temple is DiXé, it is set back where it stood and the oracle that DiXéd it is "
           "pushed away.)")),
    "dixe-void": Passage(
        "il n'est pas permis sur un tir de renverser un temple et de toucher un oracle. Le temple renversé ne doit pas "
        "lui même toucher un oracle. De plus ni l'oracle joué, ni le temple renversé ne doivent sortir de l'aire de "
        "jeu.",
        N_("« il n'est pas permis sur un tir de renverser un temple et de toucher un oracle. Le temple renversé ne doit "
           "pas lui même toucher un oracle. De plus ni l'oracle joué, ni le temple renversé ne doivent sortir de "
           "l'aire de jeu. » (a shot may not both knock over a temple and touch an oracle. The fallen temple must not "
           "touch an oracle itself. Nor may the played oracle or the fallen temple leave the play area.)")),
    "dixe-void-sleep": Passage(
        "Dans le cas contraire, l'oracle joué s'endort et est mis de côté, le temple est reconstruit et positionné à "
        "sa place initiale.",
        N_("« Dans le cas contraire, l'oracle joué s'endort et est mis de côté, le temple est reconstruit et "
           "positionné à sa place initiale. » (Otherwise, the played oracle falls asleep and is set aside, and the "
           "temple is rebuilt in its first place.)")),
    "toddlers-symbol": Passage(
        "Si la face visible du DiXe est un symbole, il ne peut pas DiXer un temple.",
        N_("« Si la face visible du DiXe est un symbole, il ne peut pas DiXer un temple. » (If the visible face of "
           "the DiXe is a symbol, it cannot DiXer a temple.)")),
    "spit-no-dixe": Passage(
        "Un crachat ne peut pas DiXer un temple, si cela se produit on le replace à son emplacement d'origine.",
        N_("« Un crachat ne peut pas DiXer un temple, si cela se produit on le replace à son emplacement d'origine. » "
           "(A spit cannot DiXer a temple; if it happens, the temple is set back where it stood.)")),
    "own-temple": Passage(
        "si un oracle fait tomber malencontreusement son propre temple, le coup est annulé, l'oracle en question est "
        "endormi.",
        N_("« si un oracle fait tomber malencontreusement son propre temple, le coup est annulé, l'oracle en question "
           "est endormi. » (if an oracle knocks over its own temple by mistake, the shot is cancelled and that oracle "
           "falls asleep.)")),
    "temple-lost": Passage(
        "Le joueur propriétaire du temple DiXé perd alors la partie.",
        N_("« Le joueur propriétaire du temple DiXé perd alors la partie. » (The player who owns the DiXé temple "
           "then loses the game.)")),
    "all-asleep": Passage(
        "Si tous les oracles d'un joueur sont endormis, ce dernier est éliminé et perd immédiatement la partie.",
        N_("« Si tous les oracles d'un joueur sont endormis, ce dernier est éliminé et perd immédiatement la "
           "partie. » (If all the oracles of a player are asleep, that player is eliminated and loses the game at "
           "once.)")),
    "coop-temple-lost": Passage(
        "Lorsque tous les temples d'un joueur sont renversés, il peut continuer de jouer tant que son coéquipier a "
        "encore le sien. Il ne lui sera plus possible, en revanche, de réveiller un de ses oracles endormis même "
        "grâce à un pouvoir héroïque.",
        N_("« Lorsque tous les temples d'un joueur sont renversés, il peut continuer de jouer tant que son coéquipier "
           "a encore le sien. Il ne lui sera plus possible, en revanche, de réveiller un de ses oracles endormis même "
           "grâce à un pouvoir héroïque. » (When all the temples of a player are knocked over, they may play on while "
           "their partner still has one. They can no longer wake any of their sleeping oracles, even through a "
           "heroic power.)")),
    "coop-all-asleep": Passage(
        "Si tous ses oracles sont endormis, il ne peut plus jouer.",
        N_("« Si tous ses oracles sont endormis, il ne peut plus jouer. » (If all their oracles are asleep, they can "
           "no longer play.)")),
    "blitz": Passage(
        "Celui qui élimine un adversaire prend le contrôle de ses oracles encore en jeu.",
        N_("« Celui qui élimine un adversaire prend le contrôle de ses oracles encore en jeu. » (Whoever eliminates "
           "an opponent takes control of that opponent's oracles still in play.)")),
    "game-over": Passage(
        "Le joueur qui réussira à survivre et/ou à éliminer tous les Dieux adverses remporte la grande Chamaille "
        "PuXes et devient ainsi le gardien de la Terre.",
        N_("« Le joueur qui réussira à survivre et/ou à éliminer tous les Dieux adverses remporte la grande Chamaille "
           "PuXes et devient ainsi le gardien de la Terre. » (The player who survives and/or eliminates all the "
           "opposing Gods wins the great PuXes Squabble and so becomes the guardian of the Earth.)")),
    "fortress": Passage(
        "Dès qu'un joueur envoie un oracle à l'intérieur de cette zone, il aura la possibilité de tirer à chacun de "
        "ses tours un crachat depuis la forteresse.",
        N_("« Dès qu'un joueur envoie un oracle à l'intérieur de cette zone, il aura la possibilité de tirer à chacun "
           "de ses tours un crachat depuis la forteresse. » (As soon as a player sends an oracle into this zone, they "
           "may spit from the fortress on each of their turns.)")),
    "fortress-taken": Passage(
        "Si le joueur adverse envoie un oracle dans la forteresse alors qu'elle est déjà occupée, l'oracle en place "
        "est endormi et celui qui vient d'arriver prend sa place.",
        N_("« Si le joueur adverse envoie un oracle dans la forteresse alors qu'elle est déjà occupée, l'oracle en "
           "place est endormi et celui qui vient d'arriver prend sa place. » (If the opponent sends an oracle into the "
           "fortress while it is taken, the oracle there falls asleep and the newcomer takes its place.)")),
    "immunity": Passage(
        "Tant qu'il est visible, aucun de tes oracles ne peut être endormi.",
        N_("« Tant qu'il est visible, aucun de tes oracles ne peut être endormi. » (While it is visible, none of your "
           "oracles can be put to sleep.)")),
    "immunity-face": Passage(
        "Le ou les DiXes sauvés par le pouvoir « immunité » sont replacés là où ils sont sortis. C'est le joueur "
        "suivant qui choisit sa face visible.",
        N_("« Le ou les DiXes sauvés par le pouvoir « immunité » sont replacés là où ils sont sortis. C'est le joueur "
           "suivant qui choisit sa face visible. » (The DiXe(s) saved by the Immunité power are put back where they "
           "left. The next player chooses the visible face.)")),
    "protection": Passage(
        "Arrête immédiatement et empêche l'activation de tous les pouvoirs adverses tant que le personnage reste "
        "visible.",
        N_("« Arrête immédiatement et empêche l'activation de tous les pouvoirs adverses tant que le personnage reste "
           "visible. » (Stops at once, and prevents, every opposing power while the character stays visible.)")),
    "ambidextre": Passage(
        "Tant que le personnage est visible, les adversaires n'ont pas le droit d'utiliser leur main dominante ni "
        "pour lancer les héros ni pour déplacer un oracle.",
        N_("« Tant que le personnage est visible, les adversaires n'ont pas le droit d'utiliser leur main dominante ni "
           "pour lancer les héros ni pour déplacer un oracle. » (While the character is visible, the opponents may "
           "not use their dominant hand to roll the heroes or to move an oracle.)")),
    "petit-gris": Passage(
        "Si un oracle renverse Petit gris qui l'immobilise, cet oracle est aussitôt endormi.",
        N_("« Si un oracle renverse Petit gris qui l'immobilise, cet oracle est aussitôt endormi. » (If an oracle "
           "knocks over the Petit gris holding it, that oracle falls asleep at once.)")),
    "active-power": Passage(
        "Un joueur ne peut activer qu'un seul pouvoir actif durant son tour, même si plusieurs héros tombent sur leur "
        "face personnage.",
        N_("« Un joueur ne peut activer qu'un seul pouvoir actif durant son tour, même si plusieurs héros tombent sur "
           "leur face personnage. » (A player may activate only one active power during their turn, even if several "
           "heroes land on their character face.)")),
    "seduction": Passage(
        "Immobilise un oracle adverse en posant Petit gris au-dessus.",
        N_("« Immobilise un oracle adverse en posant Petit gris au-dessus. » (Holds an opposing oracle still by "
           "setting Petit gris on top of it.)")),
    "contamination": Passage(
        "Ton héros Rukura devient ton oracle en prenant la place d'un oracle adverse, celui-ci s'endort. Ton tour se "
        "termine immédiatement.",
        N_("« Ton héros Rukura devient ton oracle en prenant la place d'un oracle adverse, celui-ci s'endort. Ton tour "
           "se termine immédiatement. » (Your hero Rukura becomes your oracle, taking the place of an opposing oracle, "
           "which falls asleep. Your turn ends at once.)")),
    "retrograde": Passage(
        "Échange la place d'un oracle adverse avec l'un de ses héros. L'oracle devient héros et inversement, le héros "
        "devient oracle.",
        N_("« Échange la place d'un oracle adverse avec l'un de ses héros. L'oracle devient héros et inversement, le "
           "héros devient oracle. » (Swaps the place of an opposing oracle with one of your heroes. The oracle "
           "becomes a hero and the hero an oracle.)")),
    "retraite": Passage(
        "Tu peux replacer un oracle en jeu dans ton jardin public.",
        N_("« Tu peux replacer un oracle en jeu dans ton jardin public. » (You may set an oracle in play back in your "
           "public garden.)")),
    "attrape-moi": Passage(
        "Tu peux réveiller un oracle et le replacer en défense dans ton jardin public mais tu ne peux pas le déplacer "
        "durant ce tour.",
        N_("« Tu peux réveiller un oracle et le replacer en défense dans ton jardin public mais tu ne peux pas le "
           "déplacer durant ce tour. » (You may wake an oracle and set it back to defend in your public garden, but "
           "you may not move it this turn.)")),
    "changement-d-avis": Passage(
        "Tu peux changer le symbole d'un de tes oracles. Si le symbole correspond à un héros, tu peux jouer cet "
        "oracle.",
        N_("« Tu peux changer le symbole d'un de tes oracles. Si le symbole correspond à un héros, tu peux jouer cet "
           "oracle. » (You may change the symbol of one of your oracles. If the symbol matches a hero, you may play "
           "that oracle.)")),
    "coup-de-bol": Passage(
        "Après ton déplacement, relance deux héros et rejoue si un symbole correspond à un de tes oracles.",
        N_("« Après ton déplacement, relance deux héros et rejoue si un symbole correspond à un de tes oracles. » "
           "(After your move, roll two heroes again and play again if a symbol matches one of your oracles.)")),
    "retente-ta-chance": Passage(
        "Tu peux relancer tes héros.",
        N_("« Tu peux relancer tes héros. » (You may roll your heroes again.)")),
    "transport": Passage(
        "Emmène avec lui l'oracle touché, l'oracle est placé au-dessus ou en-dessous, au choix du joueur.",
        N_("« Emmène avec lui l'oracle touché, l'oracle est placé au-dessus ou en-dessous, au choix du joueur. » "
           "(Takes the touched oracle along; it is set on top or underneath, as the player chooses.)")),
    "vampirisation": Passage(
        "Attire un oracle touché et l'immobilise tant qu'ils sont collés, on les colle faces contre faces les plus "
        "proches.",
        N_("« Attire un oracle touché et l'immobilise tant qu'ils sont collés, on les colle faces contre faces les plus "
           "proches. » (Draws a touched oracle and holds it still while they are stuck together, nearest faces "
           "against each other.)")),
    "coup-de-langue": Passage(
        "Après le déplacement d'un oracle, Kaeru crache sur un oracle, ce crachat a pour effet d'attirer à côté de lui "
        "l'oracle touché.",
        N_("« Après le déplacement d'un oracle, Kaeru crache sur un oracle, ce crachat a pour effet d'attirer à côté de "
           "lui l'oracle touché. » (After an oracle's move, Kaeru spits at an oracle; the spit draws the touched oracle "
           "next to it.)")),
    "furtif": Passage(
        "L'oracle peut être déplacé 2 fois de suite, à condition que rien ne soit touché au premier déplacement.",
        N_("« L'oracle peut être déplacé 2 fois de suite, à condition que rien ne soit touché au premier déplacement. » "
           "(The oracle may be moved twice in a row, as long as nothing is touched by the first move.)")),
    "quarante-neuf-trois": Passage(
        "Tu peux jouer n'importe lequel de tes oracles, même si aucun symbole ne correspond à l'un de tes héros.",
        N_("« Tu peux jouer n'importe lequel de tes oracles, même si aucun symbole ne correspond à l'un de tes "
           "héros. » (You may play any of your oracles, even if no symbol matches one of your heroes.)")),
    "imitation": Passage(
        "Tu peux utiliser le pouvoir d'un héros adverse visible.",
        N_("« Tu peux utiliser le pouvoir d'un héros adverse visible. » (You may use the power of a visible opposing "
           "hero.)")),
    "coup-double": Passage(
        "Tu peux déplacer 2 oracles s'ils ont le même symbole et si ce même symbole est aussi visible sur l'un de tes "
        "héros.",
        N_("« Tu peux déplacer 2 oracles s'ils ont le même symbole et si ce même symbole est aussi visible sur l'un de "
           "tes héros. » (You may move 2 oracles if they show the same symbol and that symbol also shows on one of "
           "your heroes.)")),
    "mega-coup-de-bol": Passage(
        "Suite au déplacement d'un oracle, si le nouveau symbole apparaissant est présent dans tes héros, tu peux "
        "déplacer une nouvelle fois l'oracle.",
        N_("« Suite au déplacement d'un oracle, si le nouveau symbole apparaissant est présent dans tes héros, tu peux "
           "déplacer une nouvelle fois l'oracle. » (After an oracle's move, if the new symbol it shows is on your "
           "heroes, you may move the oracle once more.)")),
    "charme": Passage(
        "Déplace ton oracle puis crache à l'aide du héros.",
        N_("« Déplace ton oracle puis crache à l'aide du héros. » (Move your oracle, then spit with the hero.)")),
    "spit": Passage(
        "Cracher : Tirer à l'aide d'un héros.",
        N_("« Cracher : Tirer à l'aide d'un héros. » (Spit: shoot with a hero.)")),
    "turn": Passage(
        "Un tour de jeu se déroule en 3 phases",
        N_("« Un tour de jeu se déroule en 3 phases » (A turn is played in 3 phases)")),
}


#: The passage each event kind rests on when it has a single cause. An event of a kind with several
#: causes names its own in ``data["rule"]``, one of :data:`CAUSES` for its kind.
KIND_RULES: Mapping[str, str] = {
    "placed": "setup-oracles", "roll": "roll", "first-player": "first-player", "turn": "turn",
    "turn-end": "turn", "no-move": "no-move", "flick": "move", "moved": "move", "shot": "shoot",
    "woken": "wake", "push": "sacred", "sacred": "sacred", "push-failed": "push-failed",
    "own-temple": "own-temple", "dixe": "dixe", "temple-rebuilt": "dixe-void", "asleep": "asleep",
    "lost": "cliff", "immune": "immunity", "fortress": "fortress", "freed": "protection",
    "turn-lost": "hero-touched-oracle", "roll-again": "cocked-die", "eliminated": "all-asleep",
    "temple-lost": "coop-temple-lost", "takeover": "blitz", "game-over": "game-over", "power": "active-power",
    "seduced": "seduction", "contaminated": "contamination", "retrograde": "retrograde",
    "transported": "transport", "vampirised": "vampirisation", "spit": "spit",
}

#: The power whose passage a "power" event rests on, by the power's slug.
POWER_RULES: Mapping[str, str] = {
    "seduction": "seduction", "contamination": "contamination", "retrograde": "retrograde",
    "retraite": "retraite", "attrape_moi": "attrape-moi", "changement_d_avis": "changement-d-avis",
    "coup_de_bol": "coup-de-bol", "retente_ta_chance": "retente-ta-chance", "transport": "transport",
    "vampirisation": "vampirisation", "ambidextre": "ambidextre", "protection": "protection", "immunite": "immunity",
    "coup_de_langue": "coup-de-langue", "furtif": "furtif", "quarante_neuf_trois": "quarante-neuf-trois",
    "imitation": "imitation", "coup_double": "coup-double", "mega_coup_de_bol": "mega-coup-de-bol", "charme": "charme",
}

#: Every passage an event of each kind may rest on (the first is :data:`KIND_RULES`' own).
CAUSES: Mapping[str, tuple[str, ...]] = {
    "roll": ("roll", "first-player"),
    "shot": ("shoot", "spit"),
    "moved": ("move", "sacred", "spit"),
    "spit": ("spit", "fortress"),
    "roll-again": ("cocked-die", "first-player", "hero-touched-oracle"),
    "placed": ("setup-oracles", "wake-place", "push-failed", "retraite", "attrape-moi", "immunity-face"),
    "eliminated": ("all-asleep", "temple-lost", "coop-all-asleep"),
    "temple-rebuilt": ("dixe-void", "toddlers-symbol", "spit-no-dixe", "push-failed"),
    "dixe": ("dixe", "dixe-twice"),
    "asleep": ("asleep", "own-temple", "dixe-void-sleep", "petit-gris", "contamination", "fortress-taken"),
    "lost": ("cliff",),
    "fortress": ("fortress", "fortress-taken"),
    "freed": ("protection", "petit-gris", "vampirisation", "seduction", "temple-lost", "all-asleep", "move"),
    "power": ("active-power", *dict.fromkeys(POWER_RULES.values())),
}


def rule_of(kind: str, data: Mapping[str, Any] | None = None) -> str | None:
    """The passage an event of ``kind`` with ``data`` rests on: its own ``data["rule"]``, else its kind's."""
    named = (data or {}).get("rule")
    return str(named) if named else KIND_RULES.get(kind)


def passage(slug: str | None) -> Passage | None:
    """The passage named ``slug``, or ``None``."""
    return PASSAGES.get(slug) if slug else None
