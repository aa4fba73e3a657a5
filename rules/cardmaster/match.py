"""A Cardmaster Custom Match (Mode B): the engine contract.

State (plain JSON): `MatchState` in state.py, whose fields say what each key holds.

Actions:
    {"type": "lock_lineup", "seat": s, "cards": [size cards]}   the first 3 start active
    {"type": "a1" | "a2" | "a3", "card": id, "target": id}
    {"type": "stack", "card": id}
    {"type": "spc", "card": id, "stat": "spd" | "hp" | "def" | "atk"}
    {"type": "revive", "card": id, "target": fallen id}
    {"type": "shift", "card": active id, "reserve": reserve id}
    {"type": "deposit", "card": id}                               one raided gem, no move used
    {"type": "adjust", "override": true, "card": id, "hp" | "gems": n}   manual corrections
    {"type": "adjust", "override": true, "seat": s, "raided": n}         (overrides.py)

Lineups are entered in hot-seat and hidden until both are locked, so neither player
picks an answer to the other's faction. A lineup holds different card names.
"""

from ..engine import Handler, Outcome, seat_named
from ..errors import IllegalAction, gettext_noop
from . import moves, overrides
from .cards import validate_card
from .fighters import BOOSTABLE, alive, copy_card, new_fighter
from .gems import COSTS
from .options import OPTIONS as OPTIONS  # the engine contract names it here (Game.of)
from .options import checked_config
from .possession import advance, start_round
from .state import MatchState, possessor

SEATS = 2
ACTIVE_SLOTS = 3


def _copy(state: MatchState) -> MatchState:
    """A copy that apply may change freely without touching `state`.

    Every apply copies the state once, and an AI search applies thousands of moves, so this copy
    knows the state's shape: it copies every dict and list a move can change, and shares what
    never changes once made, the match options (`config`) and each card's printed stats (`base`).
    Of the cards it copies only the active ones, the only cards a move or a status tick changes;
    a reserve or fallen card is copied by fighters.own_card where the rules change one (it enters
    the field, is revived, or is credited for a status it inflicted, or an override sets it), which
    makes a 9v9 apply copy 6 cards instead of 18. A new dict or list in the state must be copied
    here too; the rules tests and the fuzzer (tests/fuzz) check that apply leaves its input unchanged."""
    copy = state.copy()
    copy["lineups"] = list(state["lineups"])
    copy["teams"] = [{**team, "active": list(team["active"]), "reserve": list(team["reserve"]),
                      "fallen": list(team["fallen"])} for team in state["teams"]]
    cards = dict(state["cards"])
    for team in state["teams"]:
        for card_id in team["active"]:
            if card_id is not None:
                cards[card_id] = copy_card(cards[card_id])
    copy["cards"] = cards
    copy["order"] = list(state["order"])
    copy["done"] = dict(state["done"])
    return copy


def new_match(config: dict, seed: str) -> MatchState:
    """A match before either lineup is locked."""
    config = checked_config(config)
    return {
        "config": config,
        "lineups": [False, False],
        "teams": [{"active": [None] * ACTIVE_SLOTS, "reserve": [], "fallen": [], "raided": 0} for _ in range(SEATS)],
        "cards": {},
        "round": 0,
        "order": [],
        "half": 0,
        "possession": None,
        "done": {},
        "winner": None,
    }


def phase(state: MatchState) -> str:
    if state["winner"] is not None:
        return "finished"
    if not all(state["lineups"]):
        return "lineup"
    return "play"


def apply(state: MatchState, action: dict, dice) -> tuple[MatchState, list[dict]]:
    """The match after `action`, and what happened; the given state is never changed."""
    move = _move(state, action)
    state = _copy(state)
    return state, move(state, action, dice)


def own_copy(state: MatchState) -> MatchState:
    """A copy of `state` for `apply_here`, which no one else holds."""
    return _copy(state)


def apply_here(state: MatchState, action: dict, dice) -> list[dict]:
    """What `apply` does, done to `state` itself, which must be the caller's `own_copy` (or a state made
    from one by apply_here). An AI's play-on makes thousands of moves along lines nobody keeps, and
    this skips the copy each would make."""
    return _move(state, action)(state, action, dice)


def _move(state: MatchState, action: dict) -> Handler[MatchState]:
    """What makes `action` happen to a state (and the possessions after it), or IllegalAction if it is no move now."""
    kind = action.get("type") if isinstance(action, dict) else None
    now = phase(state)
    if now == "finished":
        raise IllegalAction("match-over", gettext_noop("The match is over; no more moves can be made."))
    if kind == "lock_lineup":
        return _lock_lineup
    handler = ACTIONS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        raise IllegalAction("action-unknown", gettext_noop("Cardmaster has no move %(kind)r."), kind=kind)
    if now == "lineup":
        raise IllegalAction("lineups-first", gettext_noop("Both players lock in their lineups before the first move."))

    def then_advance(state: MatchState, action: dict, dice) -> list[dict]:
        return handler(state, action, dice) + advance(state, dice)

    return then_advance


# Every move once both lineups are locked: (state, action, dice) -> events, like every engine's handlers.
ACTIONS: dict[str, Handler[MatchState]] = {
    **{move: moves.attack for move in moves.ATTACKS},
    "stack": moves.stack, "spc": moves.spc, "revive": moves.revive, "shift": moves.shift,
    "deposit": moves.deposit, "adjust": overrides.adjust,
}


def _lock_lineup(state: MatchState, action: dict, dice) -> list[dict]:
    seat, size = action.get("seat"), state["config"]["size"]
    if type(seat) is not int or not 0 <= seat < SEATS:
        raise IllegalAction("seat", gettext_noop("There is no seat %(value)r in this match."), value=seat)
    if phase(state) != "lineup" or state["lineups"][seat]:
        raise IllegalAction("already-locked", gettext_noop("%(seat)s has already locked in a lineup."), seat=seat)
    cards = action.get("cards")
    if not isinstance(cards, list) or len(cards) != size:
        raise IllegalAction(
            "lineup-size", gettext_noop("This is a %(size)sv%(size)s match: a lineup has %(size)s cards, not %(count)s."),
            size=size, count=len(cards) if isinstance(cards, list) else 0)
    cards = [validate_card(card) for card in cards]
    names = [card["name"].casefold() for card in cards]
    for position, name in enumerate(names):
        if name in names[:position]:
            raise IllegalAction("lineup-unique", gettext_noop("%(name)s is in the lineup twice."),
                                name=cards[position]["name"])
    team = state["teams"][seat]
    for position, card in enumerate(cards):
        fighter = new_fighter(seat, position, card)
        state["cards"][fighter["id"]] = fighter
        if position < ACTIVE_SLOTS:
            team["active"][position] = fighter["id"]
        else:
            team["reserve"].append(fighter["id"])
    state["lineups"][seat] = True
    events = [{"type": "lineup_locked", "seat": seat}]
    if phase(state) == "play":
        events.append({"type": "lineups_revealed"})
        events += start_round(state, dice)
    return events


def legal_actions(state: MatchState, mover: str | None = None) -> list[dict]:
    """Every legal action with all its choices filled in (cards and targets), for an AI or a fuzzer;
    with `mover`, only that active card's (the AI's play-ons ask for one card's moves thousands of times).

    During lineup entry the lineups themselves are free choices: only the seats are listed.
    """
    if phase(state) == "lineup":
        return [{"type": "lock_lineup", "seat": seat} for seat in range(SEATS) if not state["lineups"][seat]]
    if phase(state) == "finished":
        return []
    seat = possessor(state)
    team, cards, done = state["teams"][seat], state["cards"], state["done"]
    theirs = [card_id for card_id in state["teams"][1 - seat]["active"] if card_id]
    raided, revivable = team["raided"], state["config"]["risen_revivable"]
    found = []
    for card_id in team["active"]:
        if card_id is None or (mover is not None and card_id != mover):
            continue
        if raided:
            found.append({"type": "deposit", "card": card_id})
        if card_id in done:
            continue
        found += [{"type": "a1", "card": card_id, "target": target} for target in theirs]
        card = cards[card_id]
        if card["status"] and card["status"]["name"] == "brainlock":
            continue
        budget = card["gems"] + raided  # gems.can_afford, once for the card's three priced moves
        for move in ("a2", "a3"):
            if budget >= COSTS[move]:
                found += [{"type": move, "card": card_id, "target": target} for target in theirs]
        found.append({"type": "stack", "card": card_id})
        if not card["spc_used"]:
            found += [{"type": "spc", "card": card_id, "stat": stat} for stat in BOOSTABLE]
        if budget >= COSTS["revive"]:
            found += [{"type": "revive", "card": card_id, "target": target} for target in team["fallen"]
                      if revivable or not cards[target]["risen"]]
        found += [{"type": "shift", "card": card_id, "reserve": reserve} for reserve in team["reserve"]]
    return found


def outcome(state: MatchState) -> Outcome | None:
    """The winner, and the cards each side still has standing, e.g. "4-0"."""
    winner = state["winner"]
    if winner is None:
        return None
    return Outcome(winner=winner, score=f"{len(alive(state, winner))}-0")


def round_of(state: MatchState) -> int | None:
    """The round under way; none while the lineups are locked in (round 0)."""
    return state["round"] or None


def public_action(state: MatchState, action: dict) -> dict:
    """A lineup stays hidden until both lineups are locked in the current state."""
    if action.get("type") == "lock_lineup" and phase(state) == "lineup":
        return {"type": "lock_lineup", "seat": action.get("seat")}
    return action


def authority(state: MatchState, action: dict) -> int | str:
    """A move, a deposit or a correction of a card belongs to the card's side (a move names a
    card, not a seat); a lineup and a correction of a team's raided pool name their seat."""
    card_id = action.get("card") if isinstance(action, dict) else None
    card = state["cards"].get(card_id) if isinstance(card_id, str) else None
    if card is not None:
        return card["seat"]
    return seat_named(state, action)
