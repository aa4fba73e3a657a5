"""Rounds and possession: who moves, and when the phone passes.

Rulebook: "Each round, compare the highest-SPD active card on each team. Higher
wins possession. Every active card on the possessing team takes one move, then
possession passes." We read a round as one possession for each team, the faster
team first.

Decisions:
- SPD tie: the team that went second in the previous round goes first, so ties
  alternate. In round 1 there is no previous round: a coin flip from the match
  seed decides (Dice.flip, so a replay always agrees).
- SPD is compared as it stands at the start of the round (SPC boosts, Undershock
  and Souldrift count).
- A possession ends by itself when every active card of the team is done: it has
  moved, was skipped by Gridfreeze, or stepped in this possession (Shift, or
  replacing a fallen card). Statuses of that team's active cards then tick.
- Gridfreeze is spent at the start of the frozen card's next team possession: that
  card is marked skipped. If nobody on a team can move, the possession passes at once.
"""

from .field import active_cards, fall
from .fighters import own_card, stat
from .state import MatchState, possessor
from .statuses import tick


def fastest(state: MatchState, seat: int) -> dict:
    card = max(active_cards(state, seat), key=lambda c: stat(c, "spd"))
    return {"card": card["id"], "card_name": card["name"], "spd": stat(card, "spd")}


def start_round(state: MatchState, dice) -> list[dict]:
    state["round"] += 1
    fastest_cards = [fastest(state, 0), fastest(state, 1)]
    speeds = [entry["spd"] for entry in fastest_cards]
    if speeds[0] != speeds[1]:
        first, decided_by = (0 if speeds[0] > speeds[1] else 1), "spd"
    elif state["order"]:
        first, decided_by = state["order"][1], "alternate"
    else:
        first, decided_by = dice.flip(f"cardmaster round {state['round']} possession"), "coin"
    state["order"] = [first, 1 - first]
    state["half"] = 0
    event = {"type": "round", "round": state["round"], "fastest": fastest_cards, "first": first,
             "decided_by": decided_by}
    return [event, *start_possession(state, first)]


def start_possession(state: MatchState, seat: int) -> list[dict]:
    state["possession"] = seat
    state["done"] = {}
    events = [{"type": "possession", "seat": seat, "round": state["round"]}]
    for card in active_cards(state, seat):
        if card["status"] and card["status"]["name"] == "gridfreeze":
            state["done"][card["id"]] = "frozen"
            card["status"] = None
            events.append({"type": "frozen", "card": card["id"], "card_name": card["name"]})
    return events


def possession_over(state: MatchState) -> bool:
    done = state["done"]
    for card_id in state["teams"][possessor(state)]["active"]:  # a loop: asked after every move an AI tries
        if card_id and card_id not in done:
            return False
    return True


def end_possession(state: MatchState) -> list[dict]:
    """Statuses tick on the possessing team's active cards; some may fall."""
    events = []
    for card in active_cards(state, possessor(state)):
        source_id = card["status"]["source"] if card["status"] else None
        event, lost = tick(card)
        if event is None:
            continue
        events.append(event)
        source = state["cards"].get(source_id) if source_id else None
        if source is not None and source["seat"] != card["seat"]:
            source = own_card(state, source["id"])  # it may have left the field since
            source["record"]["damage"] += lost
        if card["hp"] == 0:
            events += fall(state, card, source)
            if state["winner"] is not None:
                break
    return events


def advance(state: MatchState, dice) -> list[dict]:
    """Pass possession (and start rounds) for as long as the possessing team has nobody left to move."""
    events = []
    while state["winner"] is None and possession_over(state):
        events += end_possession(state)
        if state["winner"] is not None:
            break
        if state["half"] == 0:
            state["half"] = 1
            events += start_possession(state, state["order"][1])
        else:
            events += start_round(state, dice)
    return events
