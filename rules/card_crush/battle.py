"""A Card Crush battle: two locked decks of 5, up to 5 head-to-head rounds, first to 3.

State (plain JSON): `Battle` below, whose fields say what each key holds.

Actions:
    {"type": "lock_deck", "seat": 0 or 1, "cards": [5 cards]}
    {"type": "play_round"}   reveal and resolve the next round

Decisions where the rule pages are silent or disagree (written once, here):
- Resolution: the rulebook ranks a round by Battle Score = Power + Affinity Bonus;
  two of the three public rule pages rank by Power alone. "battle-score" is the
  default; "power-only" is a per-match option for tables that play the other way.
- Early end: the battle stops at 3 round wins and the remaining rounds are not
  played (the public pages say so; the rulebook only says "win 3 of 5").
- Coin flip: the pages call it deterministic without saying how. Ours is a hash of
  the match seed and the round number (Dice.flip), so a replay always agrees, a
  different match may differ, and anyone given the revealed seed can check it.
- Lock-in order does not matter and is hidden: a locked deck is shown to nobody
  until both players have locked in; after that the order cannot change.
"""

from typing import TypedDict

from ..dice import Dice
from ..engine import OPEN, Handler, Outcome, copied, seat_named
from ..errors import IllegalAction, gettext_noop
from ..options import Choice, checked_config, defaults
from .affinity import affinity_bonus
from .cards import validate_card

DECK_SIZE = 5
WINS_NEEDED = 3
SEATS = 2
RESOLUTIONS = ("battle-score", "power-only")
OPTIONS = {
    "resolution": Choice(RESOLUTIONS, "battle-score", rule="config-resolution",
                         message=gettext_noop("Rounds are resolved by %(allowed)s, not %(value)r.")),
}
DEFAULT_CONFIG = defaults(OPTIONS)


class Battle(TypedDict):
    """A battle's state: plain JSON, typed so that mypy finds a wrong key before a test runs."""

    resolution: str
    """"battle-score" (the rulebook) or "power-only" (see RESOLUTIONS)."""
    decks: list[list[dict] | None]
    """Per seat: None until locked, then the 5 cards in round order."""
    rounds: list[dict]
    """One entry per round played: the working and the winner (resolve_round)."""
    wins: list[int]
    """Round wins per seat."""
    winner: int | None
    """The seat that won the battle, or None."""


def new_match(config: dict, seed: str) -> Battle:
    """A battle before either deck is locked."""
    config = checked_config("Card Crush", OPTIONS, config)
    return {
        "resolution": config["resolution"],
        "decks": [None] * SEATS,
        "rounds": [],
        "wins": [0] * SEATS,
        "winner": None,
    }


def phase(state: Battle) -> str:
    """"lock-in" until both decks are locked, then "battle", then "finished"."""
    if state["winner"] is not None:
        return "finished"
    if any(deck is None for deck in state["decks"]):
        return "lock-in"
    return "battle"


def _locked(state: Battle) -> list[list[dict]]:
    """Both decks, once both are locked (the battle phase)."""
    return [deck for deck in state["decks"] if deck is not None]


def team_initiative(deck: list[dict]) -> int:
    """The sum of the Speed of a deck's cards: the third tiebreak."""
    return sum(card["speed"] for card in deck)


def legal_actions(state: Battle) -> list[dict]:
    match phase(state):
        case "lock-in":
            return [
                {"type": "lock_deck", "seat": seat}
                for seat, deck in enumerate(state["decks"])
                if deck is None
            ]
        case "battle":
            return [{"type": "play_round"}]
        case _:
            return []


def apply(state: Battle, action: dict, dice: Dice) -> tuple[Battle, list[dict]]:
    """The battle after `action`, and what happened; the given state is never changed."""
    kind = action.get("type") if isinstance(action, dict) else None
    if phase(state) == "finished":
        raise IllegalAction("battle-over", gettext_noop("The battle is over; no more actions can be taken."))
    handler = ACTIONS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        raise IllegalAction("action-unknown", gettext_noop("Card Crush has no action %(kind)r."), kind=kind)
    state = copied(state)
    return state, handler(state, action, dice)


def _lock_deck(state: Battle, action: dict, dice: Dice) -> list[dict]:
    seat = action.get("seat")
    if type(seat) is not int or not 0 <= seat < SEATS:
        raise IllegalAction("seat", gettext_noop("There is no seat %(seat)r in this battle."), seat=seat)
    if phase(state) != "lock-in":
        raise IllegalAction(
            "order-locked", gettext_noop("Both decks are locked; the order cannot change once the battle starts.")
        )
    if state["decks"][seat] is not None:
        raise IllegalAction(
            "already-locked", gettext_noop("%(seat)s has already locked in a deck."), seat=seat
        )
    cards = action.get("cards")
    if not isinstance(cards, list) or len(cards) != DECK_SIZE:
        raise IllegalAction(
            "deck-size",
            gettext_noop("A deck has exactly %(size)s cards, not %(count)s."),
            size=DECK_SIZE,
            count=len(cards) if isinstance(cards, list) else 0,
        )
    deck = [validate_card(card) for card in cards]
    seen = set()
    for card in deck:
        key = card["name"].casefold()
        if key in seen:
            raise IllegalAction(
                "deck-unique",
                gettext_noop("A deck holds 5 different cards; %(name)s is in it twice."),
                name=card["name"],
            )
        seen.add(key)
    state["decks"][seat] = deck
    events = [{"type": "deck_locked", "seat": seat}]
    if phase(state) == "battle":
        events.append(
            {"type": "decks_revealed", "initiative": [team_initiative(d) for d in _locked(state)]}
        )
    return events


def _play_round(state: Battle, action: dict, dice: Dice) -> list[dict]:
    if phase(state) != "battle":
        raise IllegalAction(
            "not-locked", gettext_noop("Both players must lock in their decks before round 1.")
        )
    number = len(state["rounds"]) + 1
    result = resolve_round(
        number,
        [deck[number - 1] for deck in _locked(state)],
        [team_initiative(deck) for deck in _locked(state)],
        state["resolution"],
        dice,
    )
    state["rounds"].append(copied(result))
    state["wins"][result["winner"]] += 1
    events = [result]
    if state["wins"][result["winner"]] == WINS_NEEDED:
        state["winner"] = result["winner"]
        events.append({"type": "battle_won", "winner": result["winner"], "wins": list(state["wins"])})
    return events


ACTIONS: dict[str, Handler[Battle]] = {"lock_deck": _lock_deck, "play_round": _play_round}


def resolve_round(number: int, cards: list[dict], initiative: list[int], resolution: str, dice: Dice) -> dict:
    """One round's result with all its working: bonuses, scores and the deciding step.

    `decided_by` names the first comparison that differed: "score" (Battle Score, or
    Power in power-only), "speed", "initiative", or "coin".
    """
    if resolution == "battle-score":
        bonus = [affinity_bonus(cards[0]["affinity"], cards[1]["affinity"]),
                 affinity_bonus(cards[1]["affinity"], cards[0]["affinity"])]
    else:
        bonus = [0, 0]
    scores = [card["power"] + b for card, b in zip(cards, bonus, strict=True)]
    speeds = [card["speed"] for card in cards]
    coin = None
    # decided_by is read after the loop: what settled the round (the coin when nothing did).
    for decided_by, values in (("score", scores), ("speed", speeds), ("initiative", initiative)):  # noqa: B007
        if values[0] != values[1]:
            winner = 0 if values[0] > values[1] else 1
            break
    else:
        decided_by = "coin"
        coin = winner = dice.flip(f"card-crush round {number}")
    return {
        "type": "round",
        "round": number,
        "cards": cards,
        "bonus": bonus,
        "scores": scores,
        "speeds": speeds,
        "initiative": initiative,
        "resolution": resolution,
        "decided_by": decided_by,
        "coin": coin,
        "winner": winner,
    }


def outcome(state: Battle) -> Outcome | None:
    winner = state["winner"]
    if winner is None:
        return None
    wins = state["wins"]
    return Outcome(winner=winner, score=f"{wins[winner]}-{wins[1 - winner]}")


def round_of(state: Battle) -> int | None:
    """The round the next reveal plays; none while the decks are locked in (the engine contract's round_of)."""
    return None if phase(state) == "lock-in" else len(state["rounds"]) + 1


def public_action(state: Battle, action: dict) -> dict:
    """A locked deck stays secret until both decks are locked in the current state."""
    if action.get("type") == "lock_deck" and phase(state) == "lock-in":
        return {"type": "lock_deck", "seat": action.get("seat")}
    return action


def authority(state: Battle, action: dict) -> int | str:
    """A deck belongs to its seat; revealing the next round holds no choice, so either side may."""
    if isinstance(action, dict) and action.get("type") == "play_round":
        return OPEN
    return seat_named(state, action)
