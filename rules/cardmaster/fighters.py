"""The cards of a match as the engine tracks them, and their stats right now.

A card in the state (plain JSON) keeps its printed stats in `base` and everything
that happened to it beside them:

    id, seat, name, base {spd, hp, def, atk, spc}, type1, type2, tier, inflicts
    hp          current HP (0 once fallen)
    gems        stacked gems on top of the baseline gem (the baseline is always 1 while alive)
    boost       permanent flat boosts from the card's SPC move, by stat
    spc_used    whether the card has used its SPC move
    status      None or {name, strength (tenths of a %), turns (None = until it falls),
                source (card id or None), fresh (landed during its own possession), ticks}
    fade        what Souldrift has taken off each stat so far
    risen       whether the card came back by REVIVE
    record      damage dealt, knockouts, statuses landed, revives cast: the MVP score's parts
"""

from .numbers import share
from .state import MatchState

SEAT_LETTERS = ("A", "B")
BOOSTABLE = ("spd", "hp", "def", "atk")
DEF_MAX = 999


def new_fighter(seat: int, position: int, card: dict) -> dict:
    return {
        "id": f"{SEAT_LETTERS[seat]}{position + 1}",
        "seat": seat,
        "name": card["name"],
        "base": {stat: card[stat] for stat in ("spd", "hp", "def", "atk", "spc")},
        "type1": card["type1"],
        "type2": card["type2"],
        "tier": card["tier"],
        "inflicts": card["status"],
        "hp": card["hp"],
        "gems": 0,
        "boost": {},
        "spc_used": False,
        "status": None,
        "fade": {},
        "risen": False,
        "record": {"damage": 0, "knockouts": 0, "statuses": 0, "revives": 0},
    }


def copy_card(card: dict) -> dict:
    """A copy of a card that the rules may change freely (its printed stats, `base`, never change)."""
    card = dict(card)
    card["boost"], card["fade"], card["record"] = dict(card["boost"]), dict(card["fade"]), dict(card["record"])
    if card["status"] is not None:
        card["status"] = dict(card["status"])
    return card


def own_card(state: MatchState, card_id: str) -> dict:
    """The card, made the state's own before the rules change it.

    apply copies only the active cards (match._copy): a reserve or fallen card is shared with
    the state apply was given until it enters the field (field.fill_slots, moves.shift) or is
    changed where it stands (REVIVE, a status source's record, an override), and each of those
    places takes it through here first."""
    card = state["cards"][card_id] = copy_card(state["cards"][card_id])
    return card


def max_hp(card: dict) -> int:
    return card["base"]["hp"] + card["boost"].get("hp", 0)


def stat(card: dict, name: str) -> int:
    """A stat as it stands: printed + SPC boost - Souldrift fade, then Undershock's cut."""
    if name == "hp":
        return card["hp"]
    value = card["base"][name] + card["boost"].get(name, 0) - card["fade"].get(name, 0)
    status = card["status"]
    if status and status["name"] == "undershock" and name in ("spd", "def", "atk"):
        value -= share(value, status["strength"])
    value = max(0, value)
    return min(value, DEF_MAX) if name == "def" else value


def displayed_gems(card: dict) -> int:
    """What the card shows: the baseline gem plus its stack (0 once fallen)."""
    return 1 + card["gems"] if card["hp"] > 0 else 0


def alive(state: MatchState, seat: int) -> list[str]:
    team = state["teams"][seat]
    return [card_id for card_id in team["active"] if card_id] + list(team["reserve"])
