"""Cards on the table: placing, moving and destroying them, the graveyards and the score.

A card on the board (a "piece") is a dict:
    id           "c7": stable while the card stays on the board, so a chain can name it
    card         the card's stats, or None while it is covered (its face is unknown)
    owner        the seat it faces now and scores for (a flip changes this, and so turns it)
    deck_owner   the seat whose deck it came from: its graveyard is that player's
    covered      face-down
    growth       placed covered by Growth: never revealed at the start of a turn
    damage       DEF lost this turn (current DEF = DEF - damage)
    moved_turn   the turn it last changed cell, for reactivation
    flipped_turn the turn it last flipped

Decisions:
- A card leaves to the graveyard of the player whose deck it came from, whichever
  way it faced (the physical card goes back to its owner's pile).
- A covered card that leaves the board goes to the graveyard unidentified: the
  graveyard keeps a count of such cards (and of cards discarded from hand), which
  Resurrection may later name. Named cards are kept with their stats.
- The score counts face-up monsters in the main zone by the seat they face; Block
  cards, covered cards and out-zone cards never count (rulebook and notes).
"""

from ..errors import Word, gettext_noop
from .board import MAIN_ZONE, TOP_SEAT, in_main_zone, turned
from .state import GameState

BLOCK_CARD = {"name": gettext_noop("Block card"), "kind": "block"}
"""The card a Block arrow puts on an empty cell: named by the engine, so a word of the game's (`label`)."""


def find(state: GameState, piece_id: str) -> str | None:
    """The cell a piece is on, or None once it has left the board."""
    for cell, piece in state["cells"].items():
        if piece["id"] == piece_id:
            return cell
    return None


def cell_of(state: GameState, piece_id: str) -> str:
    """The cell of a piece that is on the board (as the card of a running sequence always is)."""
    cell = find(state, piece_id)
    if cell is None:
        raise LookupError(f"piece {piece_id} is not on the board")
    return cell


COVERED = gettext_noop("covered card")
"""How the engine names a covered piece: a word of the game's (the pages say it in German, the log too)."""


def label(piece: dict) -> str:
    """How a log line or a refusal names a piece: its card name, or that it is covered (a Word: in the game's
    words on the pages)."""
    if piece["card"] is None:
        return Word(COVERED)
    if piece["card"] == BLOCK_CARD:
        return Word(BLOCK_CARD["name"])
    return piece["card"]["name"]


def is_monster(piece: dict) -> bool:
    """A face-up monster: the only kind that fights, flips and scores."""
    return not piece["covered"] and piece["card"] is not None and piece["card"]["kind"] == "monster"


def arrows_now(state: GameState, piece: dict) -> dict[str, str]:
    """Where a face-up monster's arrows point on the board now: direction -> ability.

    As printed while it faces the bottom seat, turned 180 degrees while it faces the top seat
    (board.py, "Facing"). A version-1 state has no "facing": there arrows were board directions.
    """
    arrows = piece["card"]["arrows"]
    if state.get("facing") and piece["owner"] == TOP_SEAT:
        return turned(arrows)
    return arrows


def current_def(piece: dict) -> int:
    return piece["card"]["def"] - piece["damage"]


def place(
    state: GameState, cell: str, card: dict | None, seat: int, *, covered: bool, growth: bool = False
) -> dict:
    """Put a new piece on an empty cell and return it."""
    state["next_id"] += 1
    piece = {
        "id": f"c{state['next_id']}",
        "card": card,
        "owner": seat,
        "deck_owner": seat,
        "covered": covered,
        "growth": growth,
        "damage": 0,
        "moved_turn": None,
        "flipped_turn": None,
    }
    state["cells"][cell] = piece
    return piece


def move(state: GameState, from_cell: str, to_cell: str) -> dict:
    """Move a piece to an empty cell, noting the turn for reactivation."""
    piece = state["cells"].pop(from_cell)
    piece["moved_turn"] = state["turn"]
    state["cells"][to_cell] = piece
    return piece


def destroy(state: GameState, cell: str, why: str) -> dict:
    """Send the piece on `cell` to its deck owner's graveyard; the event says so."""
    piece = state["cells"].pop(cell)
    player = state["players"][piece["deck_owner"]]
    if piece["card"] is None:
        player["graveyard_unknown"] += 1
    else:
        player["graveyard"].append(piece["card"])
    return {"type": "destroyed", "cell": cell, "name": label(piece), "seat": piece["deck_owner"], "why": why}


def remove_from_game(state: GameState, cell: str, why: str) -> dict:
    """Take the piece on `cell` out of the game for good (pushed off the out zone)."""
    piece = state["cells"].pop(cell)
    player = state["players"][piece["deck_owner"]]
    if piece["card"] is None:
        player["removed_unknown"] += 1
    else:
        player["removed"].append(piece["card"])
    return {"type": "removed", "cell": cell, "name": label(piece), "seat": piece["deck_owner"], "why": why}


def scores(state: GameState) -> list[int]:
    """Each seat's points: its face-up monsters in the main zone."""
    points = [0, 0]
    for cell, piece in state["cells"].items():
        if in_main_zone(cell) and is_monster(piece):
            points[piece["owner"]] += 1
    return points


def board_full(state: GameState) -> bool:
    """All 25 main-zone cells hold a card: the game ends at once."""
    return all(cell in state["cells"] for cell in MAIN_ZONE)
