"""``bitbox tournament export``: the standings and every game, as CSV (for a spreadsheet) and JSON.

Three files: ``NAME-standings.csv`` (place, player, points, tie-breaks, games), ``NAME-games.csv``
(round, table, the players with their places and scores, how it was recorded, the game's digest) and
``NAME.json`` (the tournament's settings, the standings, every round's pairings, byes and results, and
each game's save, which ``bitbox replay`` reads). Each file is written aside and moved into place.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from controller.tournament.rounds import Tournament


def _write(path: Path, text: str) -> Path:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
    return path


def export(tournament: Tournament, folder: Path) -> list[Path]:
    """Write the three files into ``folder``; their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    store, settings = tournament.store, tournament.settings
    names = store.players()
    rows = tournament.standings()
    tiebreaks = list(settings.tiebreaks or tournament.spec.tiebreaks)

    text = io.StringIO()
    out = csv.writer(text)
    out.writerow(["place", "player", "points", *tiebreaks, "games", "wins", "byes"])
    for row in rows:
        out.writerow([row.place, row.name, f"{row.points:g}", *(f"{row.tiebreaks[k]:g}" for k in tiebreaks),
                      row.games, row.wins, row.byes])
    standings_csv = _write(folder / f"{settings.name}-standings.csv", text.getvalue())

    saves = store.saves()
    boards = store.boards()
    text = io.StringIO()
    out = csv.writer(text)
    seats = max((len(b.players) for b in boards), default=0)
    out.writerow(["round", "pairing", "table", *(f"{k}{s + 1}" for s in range(seats) for k in ("player", "place",
                                                                                             "score")),
                  "source", "digest"])
    for b in boards:
        cells: list[object] = [b.round, b.board, b.table or ""]
        for seat in range(seats):
            if seat < len(b.players):
                cells += [names[b.players[seat]], b.result.ranks[seat] if b.result else "",
                          f"{b.result.scores[seat]:g}" if b.result else ""]
            else:
                cells += ["", "", ""]
        out.writerow([*cells, b.source or "", b.digest or ""])
    games_csv = _write(folder / f"{settings.name}-games.csv", text.getvalue())

    data = {
        "tournament": settings.to_json(),
        "players": [{"id": pid, "name": name} for pid, name in names.items()],
        "standings": [row.to_json() for row in rows],
        "rounds": [{"round": number,
                    "byes": [names[p] for r, p in store.byes(number)],
                    "games": [{"pairing": b.board, "table": b.table, "players": [names[p] for p in b.players],
                               "result": b.result.to_json() if b.result else None, "source": b.source,
                               "digest": b.digest, "save": saves.get((b.round, b.board))}
                              for b in boards if b.round == number]}
                   for number in range(1, store.current_round() + 1)],
    }
    data_json = _write(folder / f"{settings.name}.json", json.dumps(data, ensure_ascii=False, indent=1) + "\n")
    return [standings_csv, games_csv, data_json]
