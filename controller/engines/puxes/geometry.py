"""Where things are on the mat: the play area, temples, gardens and the fortress, in millimetres.

Pure functions over plain numbers. The mat frame has x to the right and y downwards; the play area
is the rectangle ``0 <= x <= size_x``, ``0 <= y <= size_y``, its length along x: two players sit
at the short sides, left (seat 0) and right (seat 1).

The gardens are circles centred on a temple (the rulebook's pictures were lost; circles are what
the publisher's app draws):

- the sacred garden (jardin sacré) reaches one die diagonal beyond the temple's own corners:
  "Elle fait 1 DiXe de large, diagonale prise en compte";
- the public garden (jardin public) is the ring beyond it, ``public_garden_dice`` dice wide
  ("à une distance d'environ 3 DiXes").
"""

from __future__ import annotations

import dataclasses
import math

SQRT2 = math.sqrt(2.0)


@dataclasses.dataclass(frozen=True)
class Table:
    """The geometry of one game's table."""

    size_x: float                              # the area's length (between the players)
    size_y: float                              # the area's width
    die: float
    temples: tuple[tuple[float, float], ...]   # temple centres, by temple index
    sacred_radius: float
    public_radius: float
    fortress: tuple[float, float, float] | None = None   # centre x, y and radius

    def inside(self, x: float, y: float) -> bool:
        """Whether a die's centre lies on the play area."""
        return 0.0 <= x <= self.size_x and 0.0 <= y <= self.size_y

    def corners(self, x: float, y: float, angle: float) -> list[tuple[float, float]]:
        return corners(x, y, angle, self.die)

    def in_sacred(self, temple: int, x: float, y: float, angle: float = 0.0) -> bool:
        """An oracle is in a sacred garden when any of its corners is inside it."""
        tx, ty = self.temples[temple]
        if math.hypot(x - tx, y - ty) > self.sacred_radius + self.die:
            return False  # its corners are less than a die's width from its centre: none is inside
        return any(math.hypot(cx - tx, cy - ty) < self.sacred_radius for cx, cy in self.corners(x, y, angle))

    def public_corners(self, temple: int, x: float, y: float, angle: float = 0.0) -> int:
        """How many of a die's corners lie in the temple's public garden: its ring, less every
        temple's sacred garden (two adjacent temples' rings overlap each other's temple)."""
        tx, ty = self.temples[temple]
        return sum(
            1 for cx, cy in self.corners(x, y, angle)
            if math.hypot(cx - tx, cy - ty) <= self.public_radius
            and all(math.hypot(cx - ox, cy - oy) >= self.sacred_radius for ox, oy in self.temples)
        )

    def in_fortress(self, x: float, y: float) -> bool:
        if self.fortress is None:
            return False
        fx, fy, r = self.fortress
        return math.hypot(x - fx, y - fy) <= r

    def garden_slots(self, temple: int) -> list[tuple[float, float]]:
        """Representative spots in a public garden (rings of evenly spaced positions, ordered
        from the side facing the table's centre), each with at least 2 corners in the garden.

        Worked out once per temple (a table never changes, and equal tables share the work) and
        handed out as a new list."""
        cache: dict[int, tuple[tuple[float, float], ...]] | None = self.__dict__.get("_slots")
        if cache is None:
            cache = {}
            object.__setattr__(self, "_slots", cache)
        slots = cache.get(temple)
        if slots is None:
            # the tables of new games are new objects: share the work between those drawn alike
            # (``repr`` tells 0.0 from -0.0, which ``==`` does not)
            key = (repr((self.size_x, self.size_y, self.die, self.temples, self.sacred_radius, self.public_radius)), temple)
            slots = _SLOTS.get(key)
            if slots is None:
                slots = tuple(self._slots_around(temple))
                if len(_SLOTS) < 1000:
                    _SLOTS[key] = slots
            cache[temple] = slots
        return list(slots)

    def _slots_around(self, temple: int) -> list[tuple[float, float]]:
        tx, ty = self.temples[temple]
        facing = math.atan2(self.size_y / 2 - ty, self.size_x / 2 - tx)
        slots = []
        radii = (self.sacred_radius + 0.8 * self.die, (self.sacred_radius + self.public_radius) / 2 + 0.3 * self.die)
        for radius in radii:
            count = max(4, int(2 * math.pi * radius // (2.2 * self.die)))
            for k in range(count):
                step = (k + 1) // 2 * (1 if k % 2 else -1)
                theta = facing + step * 2 * math.pi / count
                x, y = tx + radius * math.cos(theta), ty + radius * math.sin(theta)
                x, y = round(x, 1), round(y, 1)
                if self.inside(x, y) and self.public_corners(temple, x, y) >= 2:
                    slots.append((x, y))
        return slots


#: :meth:`Table.garden_slots` of the tables seen so far, by the table's drawing and the temple.
_SLOTS: dict[tuple[str, int], tuple[tuple[float, float], ...]] = {}


def corners(x: float, y: float, angle: float, die: float) -> list[tuple[float, float]]:
    """The four corners of a die of edge ``die`` centred at (x, y), turned by ``angle`` degrees."""
    half = die / 2
    a = math.radians(angle)
    c, s = math.cos(a), math.sin(a)
    return [(x + dx * c - dy * s, y + dx * s + dy * c) for dx, dy in ((-half, -half), (half, -half), (half, half), (-half, half))]


def is_mm(value: object) -> bool:
    """Whether a reported coordinate or angle is a finite number (``True``/``False`` are not)."""
    return not isinstance(value, bool) and isinstance(value, (int, float)) and math.isfinite(value)


def distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def sacred_radius(die: float, width_dice: float) -> float:
    """The temple's half-diagonal plus ``width_dice`` die diagonals."""
    return die * SQRT2 / 2 + width_dice * die * SQRT2


def default_temples(players: int, temples_per_player: int, length: float, width: float, die: float,
                    spacing_dice: float) -> tuple[tuple[float, float], ...]:
    """Temple centres, seat by seat: each 1/6 of the area's length from its player's edge
    ("précisément 1/6 de la longueur de la surface de jeu"). The length runs along x.

    Two players face each other across the short sides (seat 0 left, seat 1 right); three players
    put seat 0 on the left and seats 1 and 2 side by side on the right; four players take one side
    each, clockwise from the left, so partners in the cooperative mode face each other.
    """
    d = length / 6
    if players == 2:
        seats = [((d, width / 2), 90.0), ((length - d, width / 2), 90.0)]
    elif players == 3:
        seats = [((d, width / 2), 90.0), ((length - d, width / 4), 90.0), ((length - d, 3 * width / 4), 90.0)]
    else:
        seats = [((d, width / 2), 90.0), ((length / 2, d), 0.0), ((length - d, width / 2), 90.0), ((length / 2, width - d), 0.0)]
    centres: list[tuple[float, float]] = []
    for (x, y), along in seats:
        if temples_per_player == 1:
            centres.append((round(x, 1), round(y, 1)))
            continue
        off = spacing_dice * die / 2
        dx, dy = (off, 0.0) if along == 0.0 else (0.0, off)
        centres.append((round(x - dx, 1), round(y - dy, 1)))
        centres.append((round(x + dx, 1), round(y + dy, 1)))
    return tuple(centres)
