"""Every sentence MémoDiXe says to players, as message ids with parameters.

The engine never writes a sentence itself: it names a message (``"flips"``) and its parameters
(``who``, ``place``, ``face``), and this module renders it in English. An event's ``text`` is that
English rendering; its ``data`` carries ``"msg"`` and ``"args"`` so that a French catalogue (gettext
or a dict keyed by the same ids) can say it again in another language. Events that show a hidden face
to some seats only also carry ``"audience"``: the seats that may see them.

The powers' and the effects' texts keep the rulebook's French beside an English rendering.

    >>> text("flips", who="player 0", place="b2", face="soleil")
    'player 0 flips the die at b2: sun'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from controller.engines.core import Event

#: Symbol and kind names as English texts say them (characters keep their own names).
FACE_NAMES: dict[str, str] = {
    "pirate": "pirate", "smiley": "smiley", "soleil": "sun", "bombe": "bomb", "yin-yang": "yin-yang",
    "sablier": "hourglass", "tete-de-mort": "skull", "pi": "pi", "aum": "aum", "personnage": "character",
}

#: English templates, by message id.
MESSAGES: dict[str, str] = {
    # options
    "opt-mode": "mode must be one of {modes}, not {mode!r}",
    "opt-players": "{mode} is played by {low} to {high} players, not {players!r}",
    "opt-oni-seat": "oni_seat must name one of the {players} seats (0 to {players} - 1), not {seat!r}",
    "opt-level": "level must be one of {levels}, not {level!r}",
    "opt-bool": "option {name} must be true or false, not {value!r}",
    "opt-book": "the dice or powers options cannot be used: {reason}",
    # what the game waits for
    "wait-over": "the game is over",
    "the-table": "the table",
    "wait-roll": "{who} to report the roll of the die for {place}",
    "wait-turn": "{who} to flip a first die (or cry DiXe !)",
    "wait-oni-turn": "Oni ({who}) to flip a first die",
    "wait-second": "{who} to flip a second die (the first is at {place})",
    "wait-oni-second": "Oni ({who}) to flip a second die",
    "wait-take": "{who} to choose which die of the pair to win",
    "wait-peek": "{who} to choose a hidden face to look at",
    "wait-steal": "{who} to choose whom to steal a die from",
    "wait-give": "{who} to choose whom to give a die to",
    "wait-swap": "{who} to choose two dice to swap",
    "wait-aside": "{who} to choose a die to set aside",
    "wait-reroll": "{who} to choose a die to roll again",
    "wait-face": "{who} to choose the face the remaining die rests on",
    "wait-announce": "{who} to announce a symbol shown on no top face",
    "wait-challenge": "{who} to flip one die to find the announced symbol",
    "wait-dixe-choice": "{who} to end the game or roll the square again and play on",
    "wait-centre": "Oni ({who}) to move a die to the free centre, or not",
    "wait-race": "{who} to report who grabbed the middle die first",
    "wait-turnover": "Oni ({who}) to turn a die over onto the hidden face he chooses",
    "wait-relaunch": "Oni ({who}) to choose the free place a won die is rolled into",
    # refusals
    "refuse-fields": "{action}: {field} has the wrong type (places and seats are whole numbers)",
    "refuse-over": "the game is over; no more actions are accepted",
    "refuse-app-only": "{who} cannot send this: only the app (the table) reports a failed gage or the end of the countdown",
    "refuse-oni-only": "failed gages and the countdown belong to Oni contre tous",
    "refuse-penalty": "no failed gage can cost a die now: it needs a gage in force, a die on the bag and a free place",
    "refuse-dixe-start": "DiXe ! is cried at the start of one's turn, before flipping (\"Au début de son tour\")",
    "refuse-dixe-oni": "Oni does not cry DiXe !: he plays against the others",
    "refuse-dixe-no-die": "only a player holding at least one die may cry DiXe ! "
                          "(\"si un joueur possédant au moins un dé\")",
    "refuse-dixe-empty-bag": "DiXe ! needs at least one won die on the bag",
    "refuse-flip-empty": "there is no die to flip at {place}: flip a die of the square",
    "refuse-flip-twice": "the die at {place} is already face up: flip another die",
    "refuse-flip-too-few": "fewer than 2 dice are left in the square: no pair can be flipped",
    "refuse-touched": "the die at {place} has been turned: the turn goes on with a second die "
                      "(\"tout DiXe touché devra obligatoirement être retourné\")",
    "refuse-take": "win one of the two dice of the pair, at {a} or {b}",
    "refuse-not-now": "{action} is not expected now (waiting for: {waiting})",
    # events
    "turn": "turn {turn}: {who} plays",
    "rolled": "the die at {place} lands on {face}",
    "flips": "{who} flips the die at {place}: {face}",
    "oni-flips": "Oni flips the die at {place} and hides it from the players",
    "you-see": "you see {face} under the die at {place}",
    "no-pair": "{who} finds two different symbols: the dice go back in place",
    "oni-no-pair": "Oni puts his two dice back",
    "oni-pair": "Oni found a pair: he rolls both dice again and puts them back",
    "pair": "{who} finds a pair of {kind}: {text}",
    "takes": "{who} wins the die at {place}",
    "takes-bag": "{who} wins the die at {place} and puts it on the bag",
    "kept": "the die at {place} goes back with its initial symbol",
    "bomb-won": "the bomb! {who} wins the die at {place} too",
    "skull-discard": "the skull! {who} discards a die",
    "skull-return": "the skull! {who} must roll the won die back into the square",
    "dixe-called": "{who} cries DiXe !: every die is turned up ({faces})",
    "dixe-right": "{who} is right: no pair is left",
    "last-die": "{who} wins a last die",
    "dixe-wrong": "{who} is wrong, a pair is left: {who} discards {count} dice and the square is rolled again",
    "dixe-wrong-bag": "{who} is wrong, a pair is left: the {count} dice of the bag are discarded and the square "
                      "is rolled again",
    "play-on": "{who} rolls the remaining dice again: the game goes on",
    "shows": "{who} shows everyone {face} under the die at {place}",
    "peeks": "{who} looks secretly under the die at {place}",
    "steals": "{who} steals a die from {victim}",
    "nothing-to-steal": "nobody has a die for {who} to steal",
    "gives": "{who} gives a die to {to}",
    "share-nothing": "everyone has as many dice: nothing changes hands",
    "no-swap": "{who} swaps nothing",
    "swaps-secretly": "{who} may swap two dice while the others look away",
    "you-swapped": "you swapped the dice at {a} and {b}",
    "oni-swaps": "Oni swaps the dice at {a} and {b}",
    "sets-aside": "{who} sets the die at {place} aside until the start of {owner}'s next turn",
    "back-from-aside": "the die set aside comes back to {place}",
    "rerolls": "{who} rolls the die at {place} again",
    "chooses-face": "{who} puts the die at {place} back resting on {face}",
    "announces": "{who} announces {kind}: the next player must find it with one flip",
    "challenge-won": "{who} finds it and wins the die at {place}",
    "challenge-lost": "{who} does not find {kind}",
    "to-centre": "Oni moves the die at {place} to the centre",
    "race-oni": "Oni grabbed the middle die: he rolls it and puts it back in the middle",
    "race-players": "a player grabbed the middle die first: it goes on the bag",
    "oni-turns-over": "Oni turns the die at {place} over onto a hidden face of his choice",
    "relaunch": "Oni rolls a won die from the bag into {place}",
    "penalty": "a gage was failed: Oni rolls a won die back into the square",
    "time-up": "the countdown rings",
    "passes": "{who} cannot flip two dice nor cry DiXe !: the turn passes",
    "plays-again": "{who} plays again",
    "refill": "a die from the reserve is rolled into {place}",
    "no-press": "nobody presses the button this turn",
    "players-win": "the players win, Oni will not rejoice this time ({reason})",
    "oni-wins": "Oni wins ({reason})",
    "game-over": "the game is over ({reason}): {who} win(s)",
    "end-dixe": "a right DiXe !",
    "end-time": "the countdown rang",
    "end-stuck": "nobody can play any more",
    "end-no-pair": "no pair is left and nobody holds a die to cry DiXe !",
}

#: The ten powers: (rulebook French, English) for "Chacun pour soi" and for "Oni contre tous".
POWER_TEXTS: dict[str, dict[str, tuple[str, str]]] = {
    "again": {
        "chacun-pour-soi": ("Rejouez immédiatement après la résolution de votre tour.",
                            "Play again right after your turn is resolved."),
        "oni-contre-tous": ("Personne ne clique sur le bouton suivant jusqu'à votre prochain tour. En compensation, "
                            "Oni joue immédiatement.",
                            "Nobody presses the button until your next turn. In exchange, Oni plays at once."),
    },
    "peek": {
        "chacun-pour-soi": ("Vous pouvez regarder secrètement 2 DiXes du carré.",
                            "You may look secretly under 2 dice of the square."),
        "oni-contre-tous": ("Vous pouvez montrer à tous 2 symboles cachés du carré.",
                            "You may show everyone 2 hidden symbols of the square."),
    },
    "share": {
        "chacun-pour-soi": ("Vous ne gagnez pas de DiXe. Relancez les 2 DiXes retournés puis replacez-les tel quel "
                            "dans le carré. Le ou les joueurs ayant remporté le plus de DiXes au cours de la partie "
                            "doivent en donner un à celui qui en a le moins (en cas d'égalité, les joueurs choisissent "
                            "à qui ils veulent donner leur DiXe). Si tous les joueurs sont ex æquo, rien ne se passe.",
                            "You win no die. Roll the 2 flipped dice again and put them back as they land. The "
                            "player(s) with the most dice each give one to the player with the fewest (if several "
                            "have the fewest, the giver chooses). If everyone is tied, nothing happens."),
        "oni-contre-tous": ("Annule les effets en cours.", "Cancels the effects in force."),
    },
    "swap": {
        "chacun-pour-soi": ("Après la résolution de votre tour, vous pouvez secrètement (les autres joueurs "
                            "détournent le regard) échanger l'emplacement de 2 DiXes du carré (sans les retourner).",
                            "After your turn is resolved, you may secretly (the others look away) swap the places "
                            "of 2 dice of the square (without turning them)."),
        "oni-contre-tous": ("Vous choisissez le symbole sur lequel vous replacez le 2e DiXe.",
                            "You choose the symbol the second die is put back resting on."),
    },
    "steal": {
        "chacun-pour-soi": ("Vous ne gagnez pas de DiXe. Relancez les 2 DiXes retournés puis remplacez-les tel quel "
                            "dans le carré. En compensation, vous volez un DiXe au joueur de votre choix. Rien ne se "
                            "passe si aucun des joueurs n'a de DiXe en sa possession.",
                            "You win no die. Roll the 2 flipped dice again and put them back as they land. In "
                            "exchange, steal a die from the player of your choice. Nothing happens if nobody has "
                            "a die."),
        "oni-contre-tous": ("Vous gagnez un DiXe et ne cliquez pas sur Suivant.",
                            "You win a die and do not press Next."),
    },
    "aside": {
        "chacun-pour-soi": ("Après la résolution de votre tour, choisissez un DiXe du carré et mettez-le de côté. Il "
                            "ne pourra pas être utilisé par les autres joueurs jusqu'à votre prochain tour.",
                            "After your turn is resolved, set a die of the square aside: the others cannot use it "
                            "until your next turn."),
        "oni-contre-tous": ("Annoncez un symbole n'étant pas présent sur les faces du dessus. Avant de jouer son "
                            "tour, le joueur suivant devra retourner ce symbole en un seul essai. S'il réussit, le "
                            "DiXe est gagné.",
                            "Announce a symbol shown on no top face. Before playing his turn, the next player must "
                            "flip that symbol in one try; if he does, the die is won."),
    },
    "reroll": {
        "chacun-pour-soi": ("Après la résolution de votre tour, choisissez un DiXe du carré, lancez-le et "
                            "remplacez-le.",
                            "After your turn is resolved, choose a die of the square, roll it and put it back."),
        "oni-contre-tous": ("Ne relancez pas le 2e DiXe, reposez-le avec son symbole initial.",
                            "Do not roll the second die again: put it back as it was."),
    },
    "bomb": {
        "chacun-pour-soi": ("Lorsque vous relancez le DiXe restant, si vous tombez sur la bombe, vous le gagnez. "
                            "Sinon, remplacez-le tel quel dans le carré.",
                            "When you roll the remaining die, if it lands on the bomb you win it too; otherwise "
                            "put it back as it lands."),
        "oni-contre-tous": ("Le pouvoir est identique au mode Chacun pour soi.",
                            "When you roll the remaining die, if it lands on the bomb you win it too."),
    },
    "skull": {
        "chacun-pour-soi": ("Lorsque vous relancez le DiXe restant, si vous tombez sur la tête de mort, tous les "
                            "joueurs, à l'exception de vous, doivent défausser un de leurs DiXes.",
                            "When you roll the remaining die, if it lands on the skull every other player "
                            "discards one of his dice."),
        "oni-contre-tous": ("Lorsque vous relancez le DiXe restant, si vous tombez sur la tête de mort, vous devez "
                            "aussi relancer l'autre DiXe dans le carré (vous n'en gagnez donc pas).",
                            "When you roll the remaining die, if it lands on the skull you must roll the other "
                            "die back into the square too (so you win none)."),
    },
    "retry": {
        "chacun-pour-soi": ("Vous ne gagnez pas de DiXe. Relancez les 2 DiXes retournés puis remplacez-les tel quel "
                            "dans le carré. Vous pouvez maintenant rejouer.",
                            "You win no die. Roll the 2 flipped dice again, put them back as they land, and play "
                            "again."),
        "oni-contre-tous": ("Le pouvoir est identique au mode chacun pour soi.",
                            "You win no die. Roll the 2 flipped dice again, put them back as they land, and play "
                            "again."),
    },
}

#: The app's cards: (rulebook title, rulebook French, English).
EFFECT_TEXTS: dict[str, tuple[str, str, str]] = {
    "vol-milieu": ("Vol le DiXe du milieu",
                   "Les joueurs doivent prendre en main le DiXe du milieu du carré avant Oni. Si c'est Oni qui attrape "
                   "le DiXe, il le relance et le repose au milieu. Si un joueur attrape le DiXe avant Oni, vous "
                   "gagnez le DiXe.",
                   "Grab the middle die before Oni! If Oni grabs it, he rolls it and puts it back in the middle; if "
                   "a player does, you win it."),
    "tourne": ("Tourne",
               "Jusqu'au début de ton prochain tour, fais un tour sur toi même à chaque fois qu'un joueur retourne son "
               "2e DiXe. Si tu oublies, Oni relance un DiXe gagné dans le carré.",
               "Until your next turn, spin round each time a player flips his second die. Forget, and Oni rolls a "
               "won die back into the square."),
    "osselets": ("Osselets",
                 "Prends immédiatement 2 DiXes gagnés et fais un tour d'osselet, le joueur suivant attend que tu y "
                 "arrives avant de jouer.",
                 "Take 2 won dice now and play a round of knucklebones; the next player waits until you manage it."),
    "chut": ("Chhhuuutt !",
             "Jusqu'au début de ton prochain tour, les joueurs n'ont plus le droit de parler. Si un joueur parle, Oni "
             "relance un DiXe gagné dans le carré.",
             "Until your next turn, nobody may speak. If someone speaks, Oni rolls a won die back into the square."),
    "oni-relance": ("Oni relance", "Oni relance 1 DiXe du carré.", "Oni rolls one die of the square again."),
    "monocle": ("DiXe monocle",
                "Prends un DiXe gagné, jusqu'à ton prochain tour, coince ce DiXe sur un oeil comme un monocle. Si tu "
                "le fais tomber, Oni relance ce DiXe dans le carré.",
                "Until your next turn, wear a won die as a monocle. Drop it, and Oni rolls it back into the square."),
    "oni-reprend": ("Oni reprend 1 DiXe", "Oni relance un DiXe gagné dans le carré.",
                    "Oni rolls a won die back into the square."),
    "sur-la-tete": ("DiXe sur la tête",
                    "Prends un DiXe gagné, et fais le tour de la table avec le DiXe sur la tête sans le faire tomber. "
                    "Les autres joueurs peuvent continuer à jouer. Si le DiXe tombe, Oni relance ce DiXe dans le "
                    "carré.",
                    "Walk round the table with a won die on your head; the others play on. If it falls, Oni rolls it "
                    "back into the square."),
    "touche-pas": ("Touche pas aux DiXes",
                   "Jusqu'au début de ton prochain tour, tu es le seul à avoir le droit de toucher les DiXes. Les "
                   "autres joueurs doivent t'indiquer quels DiXes retourner. Si un joueur touche un DiXe, Oni relance "
                   "un DiXe gagné dans le carré.",
                   "Until your next turn, only you may touch the dice; the others tell you which to flip. If someone "
                   "else touches one, Oni rolls a won die back into the square."),
    "check": ("Check",
              "Jusqu'au début de ton prochain tour, le joueur dont c'est le tour doit taper dans la main de chacun des "
              "autres joueurs avant de retourner le 2e DiXe. S'il oublie, Oni relance un DiXe gagné dans le carré.",
              "Until your next turn, whoever plays high-fives every other player before flipping the second die. "
              "Forget, and Oni rolls a won die back into the square."),
    "tourelle": ("Tourelle", "Le joueur suivant doit faire une tourelle avec l'ensemble des DiXes gagnés avant de "
                 "jouer.", "The next player stacks all the won dice into a tower before playing."),
    "lance": ("Lance DiXe",
              "Si un DiXe vient d'être gagné, celui-ci doit être lancé de joueur en joueur sans le faire tomber. S'il "
              "tombe ou si Oni intercepte le DiXe en vol, il relance le dé dans le carré. Vous pouvez continuer à "
              "jouer pendant ces lancers.",
              "If a die was just won, throw it from player to player without dropping it. If it falls or Oni catches "
              "it, he rolls it back into the square. Play goes on meanwhile."),
    "tape": ("TAPE DIXE",
             "Les joueurs doivent tous poser la main sur les DiXes gagnés. Si Oni pose la main en premier, il relance "
             "un DiXe gagné dans le carré.",
             "Everyone slaps the won dice! If Oni's hand is first, he rolls a won die back into the square."),
    "oni-triche": ("Oni triche", "Oni peut regarder secrètement 2 DiXes. Les autres joueurs peuvent continuer à "
                   "jouer.", "Oni may look secretly under 2 dice. The others play on."),
    "oni-melange": ("Oni mélange", "Oni échange la place de 2 DiXes. Les autres joueurs peuvent continuer à jouer.",
                    "Oni swaps 2 dice. The others play on."),
    "cache": ("Cache DiXe",
              "Le joueur situé après Oni prend un des DiXes gagnés. Il doit être passé de main en main secrètement "
              "entre les joueurs. Oni doit deviner dans quelle main est le DiXe. Il n'a qu'une seule chance pour "
              "cela. Il n'a pas le droit de désigner les 2 joueurs autour de lui. S'il le trouve, il relance le DiXe "
              "dans le carré. Pendant ce temps, la partie continue.",
              "The player after Oni passes a won die secretly from hand to hand; Oni has one guess (not his two "
              "neighbours). If he finds it, he rolls it back into the square. Play goes on meanwhile."),
    "oni-retourne": ("Oni retourne", "Oni peut retourner 2 DiXes du carré. Il choisit les nouveaux symboles cachés de "
                     "ces 2 DiXes.", "Oni may turn over 2 dice of the square, choosing their new hidden symbols."),
    "de-cote": ("DIXE de côté", "Oni met un DiXe du carré de côté. Il ne pourra pas être utilisé jusqu'au début de "
                "ton prochain tour.", "Oni sets a die of the square aside until the start of your next turn."),
    "symbole-roi": ("Symbole roi",
                    "Si un DiXe vient d'être gagné, le joueur suivant doit relancer ce dé jusqu'à retomber sur le "
                    "symbole qui a permis de le gagner. Il peut ensuite commencer son tour.",
                    "If a die was just won, the next player rolls it until it shows the symbol that won it, then "
                    "starts his turn."),
    "sapristix": ("SAPRISTIX",
                  "Jusqu'à la fin de la partie, à chaque fois qu'un joueur trouve une paire de DiXe, il doit dire : "
                  "\"SapristiX ! Une paire de DiXes !\" avant de les poser. S'il oublie, Oni relance un DiXe gagné "
                  "dans le carré.",
                  "Until the end, whoever finds a pair says \"SapristiX! A pair of DiXes!\" before putting them "
                  "down. Forget, and Oni rolls a won die back into the square."),
    "vive-les": ("Vive les !!",
                 "Jusqu'à la fin de la partie, quand tu retournes ton premier DiXe, tu dois dire : \"Vive les ... !\" "
                 "suivi du nom du symbole retourné. Si lorsque tu retournes ton 2e DiXe, tu fais une paire, alors tous "
                 "les autres joueurs doivent dire : \"Vive les ... !\". Pour les personnages, on dit \"Vive Oni !\".",
                 "Until the end, say \"Long live the ...!\" naming your first flipped symbol; on a pair everyone "
                 "else says it too. For characters, say \"Long live Oni!\"."),
    "tactile": ("Tactile",
                "Tu peux toucher, sans regarder, le dessous de 2 DiXes pour essayer de deviner les symboles. Tu pourras "
                "ainsi informer les autres joueurs. Pendant ce temps, la partie continue.",
                "You may feel the underside of 2 dice without looking to guess their symbols, and tell the others. "
                "Play goes on meanwhile."),
    "oni": ("Oni !", "C'est à Oni de jouer !", "Oni's turn to play!"),
    "joue": ("Joue !", "Il n'y a pas d'effet sur ce tour.", "No effect this turn."),
}

for _card, (_title, _fr, _en) in EFFECT_TEXTS.items():
    MESSAGES[f"card-{_card}"] = f"{{who}} draws \"{_title}\": {_en}"

#: Arguments holding a face or kind name, rendered through :data:`FACE_NAMES`.
_FACE_ARGS = frozenset({"face", "kind"})


def face_name(face: str | None) -> str:
    """A face or kind as English texts name it."""
    if face is None:
        return "?"
    return FACE_NAMES.get(face, face)


def text(msg: str, **args: Any) -> str:
    """Message ``msg`` in English with ``args``."""
    shown = {}
    for key, value in args.items():
        if key in _FACE_ARGS:
            value = face_name(value)
        elif key == "faces" and isinstance(value, Mapping):
            value = ", ".join(f"{place} {face_name(face)}" for place, face in value.items())
        shown[key] = value
    return MESSAGES[msg].format(**shown)


def event(kind: str, msg: str, args: Mapping[str, Any], audience: tuple[int, ...] | None = None) -> Event:
    """An :class:`Event` whose text is ``msg`` in English and whose data carries the id and args."""
    data: dict[str, Any] = {"msg": msg, "args": dict(args)}
    if audience is not None:
        data["audience"] = list(audience)
    return Event(kind, text(msg, **args), data)


def power_text(power: str, mode: str, french: bool = False) -> str:
    """A power's text in ``mode`` (English, or the rulebook's French)."""
    fr, en = POWER_TEXTS[power][mode]
    return fr if french else en


def describe(action: Any, label: Callable[[int], str]) -> str:
    """A short English description of an action (refusals quote it)."""
    from controller.engines.memodixe import actions as a

    t = type(action)
    place = a.place_label(action.place) if hasattr(action, "place") and type(action.place) is int \
        and 0 <= action.place < 9 else repr(getattr(action, "place", None))
    if t is a.Flip:
        return f"flip the die at {place}"
    if t is a.CallDixe:
        return "cry DiXe !"
    if t is a.Take:
        return f"win the die at {place}"
    if t is a.Roll:
        return f"a roll landing on {face_name(action.face)}"
    if t is a.Peek:
        return f"look under the die at {place}"
    if t is a.Skip:
        return "pass"
    if t is a.Steal:
        return f"steal a die from {label(action.seat)}"
    if t is a.Give:
        return f"give a die to {label(action.seat)}"
    if t is a.Swap:
        return f"swap dice {action.a} and {action.b}"
    if t is a.SetAside:
        return f"set the die at {place} aside"
    if t is a.Reroll:
        return f"roll the die at {place} again"
    if t is a.ChooseFace:
        return f"rest the die on {face_name(action.face)}"
    if t is a.Announce:
        return f"announce {face_name(action.kind)}"
    if t is a.EndGame:
        return "end the game"
    if t is a.PlayOn:
        return "roll again and play on"
    if t is a.Centre:
        return f"move the die at {place} to the centre"
    if t is a.TurnOver:
        return f"turn the die at {place} onto {face_name(action.face)}"
    if t is a.Relaunch:
        return f"roll a won die into {place}"
    if t is a.Race:
        return "Oni grabbed the middle die" if action.oni_first else "a player grabbed the middle die"
    if t is a.Penalty:
        return "a failed gage"
    if t is a.TimeUp:
        return "the countdown rang"
    return repr(action)
