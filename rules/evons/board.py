"""The Evons board: a 7x7 grid named like the rulebook draws it.

Columns run X, A, B, C, D, E, Y from left to right and rows 0 to 6 from top to
bottom, so a cell is a column letter and a row digit ("B3"). The central 5x5
(A1-E5) is the main zone; the ring around it (column X, column Y, row 0 and row 6)
is the out zone.

Arrows (the rule pages never say how many directions an arrow may take): a card
may carry an arrow in any of the 8 directions, the 4 sides and the 4 corners.
Cards printed with side arrows only lose nothing, and a table whose cards have
corner arrows can enter them.

Reach (also unstated; the Magnetism page's example has a card on B3 using an
arrow on D3, two cells away, and lists C3 among the cells it may pull from): per-match
option `reach`, 1 (default: an arrow points at the next cell only) or 2. With reach 2
an ability may target either of the two cells along the arrow, even past a card (so
the example works with C3 occupied), while conflicts and flips meet only the first
card along the arrow: a card in between shields the one behind it.

Facing (rules version 2). The rulebook defines a flip as turning the card 180 degrees so it
faces the player who flipped it, so arrows belong to the card, not to the board:
- A card's arrows are stored as printed, read with the card held upright in front of you.
  Seat 0 sits at the bottom of the board (row 6) and sees its cards that way, so its arrows
  point on the board as printed. Seat 1 (TOP_SEAT) sits across the table: its cards are turned
  180 degrees, so every arrow points the opposite way (a rotation, so a corner arrow goes to the
  opposite corner: NE becomes SW, not NW).
- A card faces the player it belongs to now (`owner`): as it enters, whoever puts it there; a
  flip gives it to the other player and so turns it. Moving a card (Shockwave, Magnetism, Swap)
  never turns it; only a change of owner does.
- Conflicts, flips, abilities and the drawing all read an arrow where it points now
  (pieces.arrows_now), and an ability action names its arrow by that board direction.
- Rules version 1 read every arrow as a board direction whoever held the card; it stays in
  rules.RETIRED so logs played under it replay as they were played.
"""

from typing import TypeGuard

COLUMNS = "XABCDEY"
ROWS = "0123456"
SIZE = 7

# Direction name -> (column step, row step); row 0 is the top of the board.
DIRECTIONS = {
    "N": (0, -1),
    "NE": (1, -1),
    "E": (1, 0),
    "SE": (1, 1),
    "S": (0, 1),
    "SW": (-1, 1),
    "W": (-1, 0),
    "NW": (-1, -1),
}
OPPOSITE = {"N": "S", "NE": "SW", "E": "W", "SE": "NW", "S": "N", "SW": "NE", "W": "E", "NW": "SE"}
ORTHOGONAL = ("N", "E", "S", "W")
TOP_SEAT = 1
"""The seat at the top of the board (row 0): its cards are turned 180 degrees."""

ALL_CELLS = tuple(f"{COLUMNS[c]}{ROWS[r]}" for r in range(SIZE) for c in range(SIZE))
MAIN_ZONE = tuple(cell for cell in ALL_CELLS if 1 <= COLUMNS.index(cell[0]) <= 5 and 1 <= int(cell[1]) <= 5)


def is_cell(cell: object) -> TypeGuard[str]:
    return isinstance(cell, str) and cell in ALL_CELLS


def in_main_zone(cell: str) -> bool:
    return cell in MAIN_ZONE


def step(cell: str, direction: str) -> str | None:
    """The cell one step from `cell` in `direction`, or None off the 7x7 grid."""
    dc, dr = DIRECTIONS[direction]
    c, r = COLUMNS.index(cell[0]) + dc, int(cell[1]) + dr
    if 0 <= c < SIZE and 0 <= r < SIZE:
        return f"{COLUMNS[c]}{ROWS[r]}"
    return None


def arrow_line(cell: str, direction: str, reach: int) -> list[str]:
    """The cells an ability arrow from `cell` can target: up to `reach` of them, on the grid."""
    line: list[str] = []
    here: str | None = cell
    for _ in range(reach):
        here = step(here, direction) if here else None
        if here is None:
            break
        line.append(here)
    return line


def arrow_target(cells: dict, cell: str, direction: str, reach: int) -> str | None:
    """The occupied cell an arrow points at (for conflicts and flips), or None."""
    for here in arrow_line(cell, direction, reach):
        if here in cells:
            return here
    return None


def neighbours(cell: str) -> list[str]:
    """The cells orthogonally adjacent to `cell` (the Magnetism page: D3 -> D2, E3, D4, C3)."""
    return [n for n in (step(cell, d) for d in ORTHOGONAL) if n is not None]


def turned(arrows: dict[str, str]) -> dict[str, str]:
    """A card's arrows after a 180-degree turn: each points the opposite way."""
    return {OPPOSITE[direction]: ability for direction, ability in arrows.items()}


def arrow_order(arrows: dict) -> list[str]:
    """A card's arrow directions clockwise from north.

    Never the dict's own order: PostgreSQL's jsonb does not keep key order, so a state read
    back from the database must behave exactly like the one the engine built.
    """
    return [direction for direction in DIRECTIONS if direction in arrows]
