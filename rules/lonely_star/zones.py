"""Each player's card zones, kept as counts: deck, hand, discard pile, removed from the game.

The table holds the real cards; the app keeps how many are in each zone so the
mills, draws and removals the rules ask for can be applied and checked. Moving
more cards than a zone holds moves what is there and says how many were short
(the rule for milling; we use it for every move so a count is never negative).
"""

from .state import MatchState

ZONES = ("deck", "hand", "discard", "removed")


def move_cards(
    state: MatchState, seat: int, source: str, target: str, count: int, events: list[dict], why: str
) -> int:
    """Move up to `count` cards from one of the seat's zones to another; returns how many moved."""
    zones = state["players"][seat]
    moved = min(count, zones[source])
    zones[source] -= moved
    zones[target] += moved
    events.append(
        {
            "type": "cards_moved",
            "seat": seat,
            "source": source,
            "target": target,
            "asked": count,
            "moved": moved,
            "why": why,
        }
    )
    return moved
