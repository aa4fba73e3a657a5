"""The field: active slots, the reserve, falling, raids and cards stepping in.

Rulebook: a faction of cards per side, 3 active, the rest in the deck (reserve);
"eliminate all of the opponent's cards to win". Decisions:
- Match size (3v3 / 6v6 / 9v9) is how many cards each side fields; 3 start active
  (the first three of the lineup as entered), the rest wait in reserve in order.
- When an active card falls, the first card of its reserve steps into the empty
  slot at once. If that happens during its own team's possession, the newcomer
  cannot move until the team's next possession (as with Shift). With no reserve
  left the slot stays empty, and a revived card fills it.
"""

from .fighters import alive, own_card
from .mvp import mvps
from .state import MatchState


def active_cards(state: MatchState, seat: int) -> list[dict]:
    return [state["cards"][card_id] for card_id in state["teams"][seat]["active"] if card_id]


def fill_slots(state: MatchState, seat: int) -> list[dict]:
    """Move reserve cards into empty active slots, first come first in."""
    team, events = state["teams"][seat], []
    for slot, card_id in enumerate(team["active"]):
        if card_id is None and team["reserve"]:
            newcomer = team["reserve"].pop(0)
            own_card(state, newcomer)
            team["active"][slot] = newcomer
            if state["possession"] == seat:
                state["done"][newcomer] = "arrived"
            events.append({"type": "enter", "card": newcomer, "card_name": state["cards"][newcomer]["name"],
                           "slot": slot})
    return events


def fall(state: MatchState, card: dict, by: dict | None) -> list[dict]:
    """A card at 0 HP leaves the field (or the reserve, when an override sets a reserve card's HP
    to 0); its stack goes to the opponent's raided pool."""
    seat, team = card["seat"], state["teams"][card["seat"]]
    if card["id"] in team["active"]:
        team["active"][team["active"].index(card["id"])] = None
    else:
        team["reserve"].remove(card["id"])
    team["fallen"].append(card["id"])
    raided = card["gems"]
    state["teams"][1 - seat]["raided"] += raided
    card.update(hp=0, gems=0, status=None, fade={})
    if by is not None and by["seat"] != seat:
        by["record"]["knockouts"] += 1
    events = [{"type": "fall", "card": card["id"], "card_name": card["name"], "by": by["id"] if by else None,
               "by_name": by["name"] if by else None, "raided": raided}]
    if not alive(state, seat):
        state["winner"] = 1 - seat
        events.append({"type": "match_won", "winner": 1 - seat, "mvps": mvps(state, 1 - seat)})
        return events
    return events + fill_slots(state, seat)
