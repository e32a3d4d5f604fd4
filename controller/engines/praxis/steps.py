"""The numbers of Praxis's rules and of its state: counts from the rulebook, what a cell holds, the
steps a turn is made of and what a roll is for. Shared by the game, its refusals, its drawing and
its bots.
"""

from __future__ import annotations

# ---- the rulebook's numbers ----

#: Points that end the game ("Dès qu'un joueur a collectionné au moins 36 points").
TARGET_POINTS = 36
#: Artefacts in a hand ("Chaque joueur pioche, pour sa main, 3 artefacts").
HAND_SIZE = 3
#: Ships per player ("Chaque joueur choisit 2 vaisseaux à sa couleur").
SHIPS_PER_PLAYER = 2
#: Artefacts the winner of a fight draws ("Le joueur gagnant pioche 2 artefacts").
FIGHT_DRAW = 2
#: The scanner: "piocher 4 artefacts, d'en choisir 2".
SCAN_DRAW, SCAN_KEEP = 4, 2
#: Portals by number of players ("1 portail pour 2 joueurs ; 2 portails pour 3 joueurs ; 3 portails pour 4").
PORTALS_BY_PLAYERS = {2: 1, 3: 2, 4: 3}
#: The players' colours as letters on the drawn board.
SEAT_LETTERS = "ABCD"

# ---- what a cell holds ----

#: A cell holds 0 (empty), an artefact kind (1..15, 15 the portal) or ``SHIP + ship`` where ship
#: ``2 * seat + k`` is seat's ship ``k``.
EMPTY = 0
SHIP = 16
#: Where a ship in its spaceport is (``ship_cell``) and the face it has there (none).
IN_SPACEPORT = -1

# ---- the steps of a turn ----

# The steps a turn is made of; the head of ``queue`` is what is awaited now.
ROLL, FIRST, MAIN, MOVE, PUT, TORPEDO_TARGET, TELEPORT, BUILD, KEEP, DISCARD, PORTAL_GRID = range(11)
STEP_NAMES = ("roll", "first-player", "main", "move", "put", "torpedo", "teleport", "build", "keep", "discard",
              "portal-grid")
# What a roll is for (``(ROLL, CHANCE, purpose, argument)``).
(R_PORTAL_GRID, R_PORTAL_CELL, R_SHIP_GRID, R_SHIP_CELL, R_SHIP_FACE, R_TAKEOFF_GRID, R_TAKEOFF_CELL, R_MUTATION,
 R_TORPEDO_ATTACK, R_TORPEDO_DEFENCE, R_BUILD_FACE, R_REPLACE_CELL) = range(12)
ROLL_NAMES = ("portal-grid", "portal-cell", "ship-grid", "ship-cell", "ship-face", "take-off-grid", "take-off-cell",
              "mutation", "torpedo-attacker", "torpedo-defender", "shipyard-face", "portal-cell")
