"""High Card Duel: each round both players pick a card in secret, the higher value wins the round,
and the first to win 3 rounds wins the duel. A game with no options, kept small on purpose: it
lives in the tests only, to show that a game needs nothing outside its own folders.

State (plain JSON):
    picks       per seat: the card picked for the round under way, or None
    rounds      one entry per round revealed: {"round", "cards", "winner" (a seat, None on a tie)}
    wins        round wins per seat
    winner      the seat that won the duel, or None

Actions:
    {"type": "pick", "seat": 0 or 1, "card": {"name", "value"}}   secret until both have picked
    {"type": "reveal"}   both cards shown, the round decided

Decisions: equal values win nobody the round (it is played again with new picks).
"""

import copy
from typing import Any

from rules.dice import Dice
from rules.engine import OPEN, Handler, Outcome, seat_named
from rules.errors import IllegalAction, gettext_noop
from rules.fields import card_name, whole_number
from rules.options import Option, checked_config

SEATS = 2
WINS_NEEDED = 3
OPTIONS: dict[str, Option] = {}


def validate_card(card: Any) -> dict:
    """A card is a name and a value from 1 to 13."""
    return {"name": card_name(card, 40), "value": whole_number(card.get("value"), "Value", 1, 13)}


def new_match(config: dict, seed: str) -> dict:
    checked_config("High Card Duel", OPTIONS, config)
    return {"picks": [None, None], "rounds": [], "wins": [0, 0], "winner": None}


def legal_actions(state: dict) -> list[dict]:
    if state["winner"] is not None:
        return []
    waiting = [{"type": "pick", "seat": seat} for seat, card in enumerate(state["picks"]) if card is None]
    return waiting or [{"type": "reveal"}]


def apply(state: dict, action: dict, dice: Dice) -> tuple[dict, list[dict]]:
    kind = action.get("type") if isinstance(action, dict) else None
    if state["winner"] is not None:
        raise IllegalAction("duel-over", gettext_noop("The duel is over; no more actions can be taken."))
    handler = ACTIONS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        raise IllegalAction("action-unknown", gettext_noop("High Card Duel has no action %(kind)r."), kind=kind)
    state = copy.deepcopy(state)
    return state, handler(state, action, dice)


def _pick(state: dict, action: dict, dice: Dice) -> list[dict]:
    seat = action.get("seat")
    if type(seat) is not int or not 0 <= seat < SEATS:
        raise IllegalAction("seat", gettext_noop("There is no seat %(seat)r in this duel."), seat=seat)
    if state["picks"][seat] is not None:
        raise IllegalAction("picked", gettext_noop("%(seat)s has already picked a card."), seat=seat)
    state["picks"][seat] = validate_card(action.get("card"))
    return [{"type": "picked", "seat": seat}]


def _reveal(state: dict, action: dict, dice: Dice) -> list[dict]:
    cards = state["picks"]
    if None in cards:
        raise IllegalAction("not-picked", gettext_noop("Both players pick a card before the reveal."))
    values = [card["value"] for card in cards]
    winner = None if values[0] == values[1] else int(values[1] > values[0])
    state["rounds"].append({"round": len(state["rounds"]) + 1, "cards": cards, "winner": winner})
    state["picks"] = [None, None]
    events = [{"type": "round", **state["rounds"][-1]}]
    if winner is not None:
        state["wins"][winner] += 1
        if state["wins"][winner] == WINS_NEEDED:
            state["winner"] = winner
            events.append({"type": "duel_won", "seat": winner})
    return events


ACTIONS: dict[str, Handler] = {"pick": _pick, "reveal": _reveal}


def outcome(state: dict) -> Outcome | None:
    winner = state["winner"]
    if winner is None:
        return None
    return Outcome(winner=winner, score=f"{state['wins'][winner]}-{state['wins'][1 - winner]}")


def round_of(state: dict) -> int | None:
    """The round the next picks and reveal are played in."""
    return len(state["rounds"]) + 1


def public_action(state: dict, action: dict) -> dict:
    """A pick stays secret while the round it was made for is not revealed."""
    if action.get("type") == "pick" and state["picks"][action.get("seat", 0)] is not None:
        return {"type": "pick", "seat": action.get("seat")}
    return action


def authority(state: dict, action: dict) -> int | str:
    """A pick belongs to its seat; the reveal holds no choice, so either side may."""
    if isinstance(action, dict) and action.get("type") == "reveal":
        return OPEN
    return seat_named(state, action)
