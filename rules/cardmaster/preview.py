"""What a card in possession could do now, asked of the engine without changing the match.

A page shows one button per move with its price, greyed out with the reason when it cannot be
made. Every answer here comes from the engine's own checks, in the order a real move meets
them: `legal_actions` for what is possible (with its targets, allies, reserve cards and
stats); for a move that is not, the `RuleError` it would raise: the card cannot move now
(possession, already moved, Brainlock), it cannot pay the gems, there is nothing to choose
(no target, no fallen ally, no reserve card), or the move itself refuses (tried on a copy).
"""

from ..dice import Dice
from ..engine import copied
from ..errors import IllegalAction, RuleError, gettext_noop
from .field import active_cards
from .gems import COSTS, pay
from .match import apply, legal_actions
from .moves import ATTACKS, mover
from .state import MatchState

MOVES = (*ATTACKS, "stack", "spc", "revive", "shift")
NOTHING_TO_CHOOSE = {
    "a1": gettext_noop("The other team has no active card to attack."),
    "revive": gettext_noop("No fallen ally can be revived."),
    "shift": gettext_noop("No card in reserve."),
}
NOTHING_TO_CHOOSE.update(a2=NOTHING_TO_CHOOSE["a1"], a3=NOTHING_TO_CHOOSE["a1"])


def moves(state: MatchState, card_id: str) -> list[dict]:
    """Per move of this card: its gem cost, the legal actions it offers now (one per choice), and
    when there are none the refusal (a RuleError) saying why."""
    legal = [action for action in legal_actions(state) if action.get("card") == card_id]
    found = []
    for move in MOVES:
        actions = [action for action in legal if action["type"] == move]
        found.append({"move": move, "cost": COSTS.get(move, 0), "actions": actions,
                      "refusal": None if actions else refusal(state, card_id, move)})
    return found


def deposits(state: MatchState, card_id: str) -> list[dict]:
    """Depositing a raided gem onto this card, when it is legal now."""
    return [action for action in legal_actions(state) if action["type"] == "deposit" and action["card"] == card_id]


def refusal(state: MatchState, card_id: str, move: str) -> RuleError | None:
    """Why this card cannot make `move` now, or None when it can (with some choice)."""
    try:
        card = mover(state, {"card": card_id}, move)
        if COSTS.get(move):
            pay(copied(card), copied(state["teams"][card["seat"]]), move)
        sample = _sample(state, card, move)
        if sample is None:
            raise IllegalAction(f"{move}-nothing", NOTHING_TO_CHOOSE[move])
        apply(state, sample, Dice("preview", 0))
    except RuleError as error:
        return error
    return None


def _sample(state: MatchState, card: dict, move: str) -> dict | None:
    """The move with its first possible choice filled in, or None when there is nothing to choose."""
    team = state["teams"][card["seat"]]
    choices = {
        "target": [c["id"] for c in active_cards(state, 1 - card["seat"])] if move in ATTACKS
        else team["fallen"] if move == "revive" else None,
        "reserve": team["reserve"] if move == "shift" else None,
        "stat": ["atk"] if move == "spc" else None,
    }
    action = {"type": move, "card": card["id"]}
    for field, values in choices.items():
        if values is None:
            continue
        if not values:
            return None
        action[field] = values[0]
    return action
