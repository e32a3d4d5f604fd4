"""Representative physical outcomes, so that bots and random playouts can stand in for the table.

A real flick can end anywhere; :meth:`PuxesGame.check` accepts any well-formed :class:`Outcome`.
These few discretised ones cover every branch of the rules: a clean move, a face change, a landing
in a sacred garden, leaving the area, a shot (and a shot knocking an oracle out), a valid and an
invalid DiXé, and one's own temple toppled.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from controller.engines.puxes.actions import Outcome

if TYPE_CHECKING:
    from controller.engines.puxes.game import Die, PuxesGame


def _r(v: float) -> float:
    return round(v, 1)


def sacred_intrusions(game: PuxesGame, rests: Mapping[int, Sequence[float]],
                      skip: int | None = None) -> tuple[tuple[int, int], ...]:
    """(oracle, temple) for each oracle resting at (x, y) or (x, y, angle) in the sacred garden of
    a standing opposing temple other than ``skip``: the ``sacred`` field of an :class:`Outcome`."""
    pairs = []
    for die_id, (x, y, *angle) in sorted(rests.items()):
        die = game.dice[die_id]
        for t in game.temples:
            if t.status == "standing" and t.index != skip and game.opposed(die.owner, t.owner) and \
                    game.table.in_sacred(t.index, x, y, *angle):
                pairs.append((die_id, t.index))
    return tuple(pairs)


def _fortress(game: PuxesGame, rests: dict[int, tuple[float, float]]) -> int | None:
    if not game.options.fortress:
        return None
    for die_id, (x, y) in sorted(rests.items()):
        if game.table.in_fortress(x, y):
            return die_id
    return None


def _toward(a: tuple[float, float], b: tuple[float, float], f: float) -> tuple[float, float]:
    return (a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1]))


def _clamp(game: PuxesGame, p: tuple[float, float]) -> tuple[float, float]:
    m = game.options.die_mm / 2
    return (_r(min(max(p[0], m), game.table.size_x - m)), _r(min(max(p[1], m), game.table.size_y - m)))


def _outcome(game: PuxesGame, rests: dict[int, tuple[float, float]], faces: dict[int, str | None] | None = None,
             **kw: Any) -> Outcome:
    faces = faces or {}
    moved = tuple((d, x, y, 0.0, faces.get(d)) for d, (x, y) in sorted(rests.items()))
    if "sacred" not in kw:
        kw["sacred"] = sacred_intrusions(game, rests, kw.get("toppled"))
    if "fortress" not in kw:
        kw["fortress"] = _fortress(game, rests)
    return Outcome(moved=moved, **kw)


def representative_outcomes(game: PuxesGame, step: dict[str, Any]) -> list[Outcome]:
    what = step["what"]
    if what == "push":
        return _push(game, step)
    if what == "spit":
        return _spit(game, step)
    return _shot(game, step)


def _others(game: PuxesGame, exclude: int) -> list[Die]:
    return [d for d in game.oracle_dice() if d.status == "play" and d.id != exclude and d.x is not None]


def _nearest(items: list[Any], point: tuple[float, float], key: Any) -> Any:
    return min(items, key=lambda it: (math.hypot(key(it)[0] - point[0], key(it)[1] - point[1]), getattr(it, "id", getattr(it, "index", 0))))


def _shot(game: PuxesGame, step: dict[str, Any]) -> list[Outcome]:
    die = game.dice[step["die"]]
    pos = (die.x or 0.0, die.y or 0.0)
    foes = [t for t in game.temples if t.status == "standing" and game.opposed(t.owner, die.owner)]
    own = [t for t in game.temples if t.status == "standing" and not game.opposed(t.owner, die.owner)]
    target = _nearest(foes, pos, lambda t: (t.x, t.y)) if foes else None
    aim = (target.x, target.y) if target else (game.table.size_x / 2, game.table.size_y / 2)
    faces = game.collection.candidate_faces(die.name)
    other_face = faces[(faces.index(die.face) + 1) % len(faces)] if die.face in faces else faces[0]
    out: list[Outcome] = []
    near = _clamp(game, _toward(pos, aim, 0.35))
    out.append(_outcome(game, {die.id: near}))
    out.append(_outcome(game, {die.id: near}, {die.id: other_face}))
    out.append(_outcome(game, {die.id: _clamp(game, _toward(pos, aim, 0.8))}))
    out.append(Outcome(left=(die.id,)))
    others = _others(game, die.id)
    if others:
        victim = _nearest(others, pos, lambda d: (d.x, d.y))
        vpos = (victim.x, victim.y)
        dx, dy = vpos[0] - pos[0], vpos[1] - pos[1]
        norm = math.hypot(dx, dy) or 1.0
        push = (vpos[0] + 2 * game.options.die_mm * dx / norm, vpos[1] + 2 * game.options.die_mm * dy / norm)
        stop = _clamp(game, (vpos[0] - game.options.die_mm * dx / norm, vpos[1] - game.options.die_mm * dy / norm))
        if game.table.inside(*push):
            out.append(_outcome(game, {die.id: stop, victim.id: _clamp(game, push)}, touched=(victim.id,)))
        out.append(_outcome(game, {die.id: stop}, touched=(victim.id,), left=(victim.id,)))
        if victim.id in game.seduced:
            out.append(_outcome(game, {die.id: stop}, touched=(victim.id,), dislodged=(victim.id,)))
    if target is not None:
        beside = _clamp(game, _toward(aim, pos, 1.5 * game.options.die_mm / max(1.0, math.hypot(aim[0] - pos[0], aim[1] - pos[1]))))
        out.append(_outcome(game, {die.id: beside}, toppled=target.index, sacred=()))
        out.append(_outcome(game, {die.id: beside}, toppled=target.index, toppled_touches=True, sacred=()))
    if own:
        home = _nearest(own, pos, lambda t: (t.x, t.y))
        out.append(Outcome(toppled=home.index))
    return out


def _push(game: PuxesGame, step: dict[str, Any]) -> list[Outcome]:
    die = game.dice[step["die"]]
    temple = game.temples[step["temple"]]
    pos = (die.x or temple.x, die.y or temple.y)
    dx, dy = pos[0] - temple.x, pos[1] - temple.y
    norm = math.hypot(dx, dy) or 1.0
    radius = game.table.sacred_radius + 1.5 * game.options.die_mm
    away = _clamp(game, (temple.x + radius * dx / norm, temple.y + radius * dy / norm))
    out = [_outcome(game, {die.id: away})]
    others = _others(game, die.id)
    if others:
        victim = _nearest(others, pos, lambda d: (d.x, d.y))
        out.append(_outcome(game, {die.id: away}, touched=(victim.id,)))
    out.append(Outcome(left=(die.id,)))
    return out


def _spit(game: PuxesGame, step: dict[str, Any]) -> list[Outcome]:
    origin = game.dice[step["origin"]] if step.get("origin") is not None else None
    if origin is None or origin.x is None:
        pos = (game.table.size_x / 2, game.table.size_y / 2)
    else:
        pos = (origin.x, origin.y)
    out = [Outcome()]
    by = step["by"]
    foes = [d for d in _others(game, -1) if game.opposed(d.owner, by)]
    if foes:
        victim = _nearest(foes, pos, lambda d: (d.x, d.y))
        if step.get("power") == "coup_de_langue":
            pulled = _clamp(game, (pos[0] + game.options.die_mm * 1.2, pos[1]))
        else:
            pulled = _clamp(game, _toward((victim.x, victim.y), pos, -0.3))
        out.append(_outcome(game, {victim.id: pulled}, touched=(victim.id,)))
        out.append(Outcome(touched=(victim.id,), left=(victim.id,)))
    temples = [t for t in game.temples if t.status == "standing" and game.opposed(t.owner, by)]
    if temples:
        out.append(Outcome(toppled=_nearest(temples, pos, lambda t: (t.x, t.y)).index))
    return out
