"""A finished (or stopped) game told as players tell it: who played, what happened each turn, who won.

:func:`replay` runs a save (``bitbox export``'s file, or a game of the event log) through the rules
with the players' names, keeping every event; :func:`record_lines` says it in a language for
``bitbox replay``, :func:`record_json` keeps the machine form for ``--json``. The events are the
engines' own sentences, said with :meth:`~controller.engines.Event.in_language`, so a game whose
events carry messages is told in the reader's language.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from controller import i18n
from controller.engines import Event, Game, new_game
from controller.engines.core import jsonable
from controller.i18n import N_

#: Events a record leaves out of its sentences: the moments a secret is chosen (what was chosen is
#: told when it is revealed) and each step of a move already told as a whole.
QUIET_KINDS = frozenset({"locked", "programmed", "moved"})

#: Public counters whose change starts a new turn of the record (the ones the games' views carry).
TURN_COUNTERS = ("round", "turn", "turn_number")


@dataclasses.dataclass(frozen=True)
class Seat:
    """A player of the record: a seat's name, its colour (when the game gives seats colours) and
    whether a bot played it."""

    seat: int
    name: str
    colour: str | None = None
    bot: bool = False

    def said(self, lang: str | None = None) -> str:
        """"Ada (red)", "Ada (red, bot)", "Ada (bot)" or "Ada", in ``lang``."""
        details = []
        if self.colour:
            details.append(i18n.gettext(self.colour, lang))
        if self.bot:
            details.append(i18n.gettext(N_("bot"), lang))
        return f"{self.name} ({', '.join(details)})" if details else self.name


@dataclasses.dataclass
class Turn:
    """One turn of the record and the events it made, in order."""

    number: int
    events: list[Event] = dataclasses.field(default_factory=list)
    #: The board drawn as it stood when the turn ended.
    board: str = ""


@dataclasses.dataclass
class Record:
    """A game replayed: its final state, its players and its turns."""

    game: Game[Any]
    seats: list[Seat]
    turns: list[Turn]

    @property
    def title(self) -> str:
        from controller.games import UnknownGameError, game as game_spec

        try:
            return game_spec(self.game.NAME).title
        except UnknownGameError:
            return self.game.TITLE

    @property
    def winners(self) -> tuple[int, ...]:
        return self.game.winners() if self.game.is_over() else ()


def default_names(count: int, lang: str | None = None) -> list[str]:
    """"Player 1", "Player 2"...: the names of seats nobody named."""
    return [i18n.say(N_("Player {number}"), lang, number=seat + 1) for seat in range(count)]


def players_of(data: Any, count: int) -> tuple[list[str], list[bool]]:
    """Names and bot flags from a save's or a stored set-up's ``players`` (a list of names, or of
    ``{"name": ..., "bot": ...}``); seats without one get :func:`default_names`."""
    names = default_names(count)
    bots = [False] * count
    if isinstance(data, Sequence) and not isinstance(data, (str, bytes)):
        for seat, item in enumerate(list(data)[:count]):
            name = item.get("name") if isinstance(item, Mapping) else item
            if isinstance(name, str) and name.strip():
                names[seat] = name.strip()
            if isinstance(item, Mapping):
                bots[seat] = item.get("bot") is True
    return names, bots


def seat_colours(game: Game[Any]) -> dict[int, str]:
    """Each seat's colour, for a game played on the wheels: the colour of the controller that seat
    alone uses (a controller that changes hands between seats gives none)."""
    from controller.games import UnknownGameError, game as game_spec

    try:
        spec = game_spec(game.NAME)
    except UnknownGameError:
        return {}
    if not spec.plays_on("wheels"):
        return {}
    rules = spec.load_wheels()(game, None)
    colours: dict[int, str] = {}
    for piece in range(rules.pieces()):
        holders = rules.seats_of(piece)
        if len(holders) == 1:
            colours.setdefault(next(iter(holders)), rules.piece_name(piece))
    return colours


def replay(save: Mapping[str, Any], names: Sequence[str], bots: Sequence[bool] = ()) -> Record:
    """Play ``save``'s actions (already checked by :func:`controller.engines.load_game`) from the
    start with the players' names, keeping every event and where each turn begins."""
    game = new_game(save["game"], save["options"], save["seed"])
    names = list(names)[: game.num_players]
    names += default_names(game.num_players)[len(names):]
    game.name_seats(names)
    colours = seat_colours(game)
    seats = [Seat(seat, names[seat], colours.get(seat), bool(bots[seat]) if seat < len(bots) else False)
             for seat in range(game.num_players)]
    turns = [Turn(1)]
    counter = _turn_counter(game)
    for player, encoded in save["actions"]:
        events = game.apply(player, game.decode_action(encoded))
        turns[-1].events.extend(events)
        now = _turn_counter(game)
        if now != counter and any(e.kind not in QUIET_KINDS for e in turns[-1].events):
            turns[-1].board = game.render()
            turns.append(Turn(turns[-1].number + 1))
        counter = now
    if not turns[-1].events and len(turns) > 1:
        turns.pop()
    else:
        turns[-1].board = game.render()
    return Record(game, seats, turns)


def _turn_counter(game: Game[Any]) -> tuple[Any, ...]:
    """The game's public turn counters now (round, turn...), whichever its view has."""
    view = game.view(None)
    return tuple(view.get(key) for key in TURN_COUNTERS if isinstance(view.get(key), int))


def event_said(event: Event, lang: str | None = None) -> str:
    """An engine's event in ``lang`` (an event without a message has only its English)."""
    in_language = getattr(event, "in_language", None)
    return in_language(lang) if callable(in_language) else event.text


def heading(record: Record, lang: str | None = None, seed: bool = True) -> str:
    """The record's title line: "GAME, seed 1: Ada (red), Brice (blue) and Chloé (green)."."""
    players = i18n.listing(seat.said(lang) for seat in record.seats)
    if seed:
        return i18n.say(N_("{game}, seed {seed}: {players}."), lang, game=i18n.gettext(record.title, lang),
                        seed=record.game.seed, players=players)
    return i18n.say(N_("{game}: {players}."), lang, game=i18n.gettext(record.title, lang), players=players)


def result(record: Record, lang: str | None = None) -> str:
    """Who won, with the final scores; or how far an unfinished game went."""
    names = [seat.name for seat in record.seats]
    game = record.game
    if game.is_over():
        return result_sentence(names, game.scores(), record.winners, lang)
    return i18n.say(N_("The game was not finished: {count} actions were played. Scores so far: {scores}."), lang,
                    count=len(game.history), scores=score_list(names, game.scores()))


def score_list(names: Sequence[str], scores: Sequence[float]) -> dict[str, Any]:
    """"Ada 22, Brice 13 and Chloé 0" as a message argument."""
    return i18n.listing(i18n.message(N_("{player} {score}"), player=name, score=f"{score:g}")
                        for name, score in zip(names, scores))


def result_sentence(names: Sequence[str], scores: Sequence[float], winners: Sequence[int],
                    lang: str | None = None) -> str:
    """"Final scores: Ada 22, Brice 13. Winner: Ada." (the winners named, never numbered)."""
    who = i18n.listing(names[seat] for seat in winners)
    if len(winners) == 1:
        template = N_("Final scores: {scores}. Winner: {winners}.")
    elif winners:
        template = N_("Final scores: {scores}. Winners: {winners}.")
    else:
        template = N_("Final scores: {scores}. Nobody wins.")
    return i18n.say(template, lang, scores=score_list(names, scores), winners=who)


def record_lines(record: Record, lang: str | None = None, boards: bool = False,
                 final_board: bool = True) -> Iterator[str]:
    """The record as text: the players, each turn's events, the final position and the result."""
    yield heading(record, lang)
    for turn in record.turns:
        said = [event_said(event, lang) for event in turn.events if event.kind not in QUIET_KINDS]
        if not said:
            continue
        yield ""
        yield i18n.say(N_("Turn {number}"), lang, number=turn.number)
        yield from (f"  - {text}" for text in said)
        if boards:
            yield ""
            yield turn.board.rstrip("\n")
    if final_board and not boards:
        yield ""
        yield record.game.render().rstrip("\n")
    yield ""
    yield result(record, lang)


def record_json(record: Record) -> dict[str, Any]:
    """The record as data: players, turns with every event (kind, English text, message, data),
    scores and winners by seat."""
    game = record.game
    return {
        "game": game.NAME,
        "title": record.title,
        "seed": game.seed,
        "options": jsonable(game.options.to_dict()),
        "players": [dataclasses.asdict(seat) for seat in record.seats],
        "turns": [{"turn": turn.number, "events": [event.to_json() for event in turn.events]}
                  for turn in record.turns],
        "actions": len(game.history),
        "over": game.is_over(),
        "scores": list(game.scores()),
        "winners": list(record.winners),
    }
