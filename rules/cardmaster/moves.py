"""The moves an active card can make in its team's possession, and depositing raided gems.

Rulebook moves: A1 (free), A2 (2 gems), A3 (3 gems), STACK (+1 gem), SPC (one-time
boost of SPC / 10 to one stat), REVIVE (4 gems; a fallen ally returns to reserve at
50% HP, Risen), Shift (swap with a reserve card; it cannot attack the same turn).

Decisions:
- Every move, SPC and Shift included, uses the card's one move of the possession.
  "Free" in the rulebook means free of gems. Depositing raided gems uses no move.
- Shift is made by the active card leaving; the card shifted in takes its slot and
  its stacked gems and status travel with it; it cannot move in this possession.
- Brainlock allows A1 only: no A2/A3, STACK, SPC, REVIVE or Shift.
- SPC: the player picks SPD, HP, DEF or ATK; the boost is SPC / 10 rounded half up.
  An HP boost raises max HP and heals by the same amount. A card may use SPC once
  in the whole match, Risen or not.
- REVIVE brings the card back with half its max HP (printed HP plus any SPC boost),
  rounded up, no gems and no status, at the end of the reserve (or straight into an
  empty active slot). A Risen card that falls again stays fallen unless the match
  option `risen_revivable` is on.
- Targets: A1/A2/A3 hit one active card of the other team.
"""

from ..errors import IllegalAction, gettext_noop
from . import damage
from .field import fall, fill_slots
from .fighters import BOOSTABLE, max_hp, own_card, stat
from .gems import STACK_GAIN, pay
from .numbers import round_half_up, share
from .state import MatchState
from .statuses import backfire_chance, inflict, proc_chance, roll_against

ATTACKS = ("a1", "a2", "a3")
NOT_READY = {
    "moved": gettext_noop("%(card)s has already moved this possession."),
    "arrived": gettext_noop("%(card)s was just shifted in and cannot move until its team's next possession."),
    "frozen": gettext_noop("%(card)s is frozen (Gridfreeze) and skips this possession."),
}


def card_in_play(state: MatchState, card_id: object, what: str = "card") -> dict:
    card = state["cards"].get(card_id) if isinstance(card_id, str) else None
    if card is None:
        raise IllegalAction("card-unknown", gettext_noop("There is no %(what)s %(id)r in this match."),
                            what=what, id=card_id)
    return card


def is_active(state: MatchState, card: dict) -> bool:
    return card["id"] in state["teams"][card["seat"]]["active"]


def mover(state: MatchState, action: dict, move: str) -> dict:
    """The card making a move, checked: active, in possession, not done, not Brainlocked out of it."""
    card = card_in_play(state, action.get("card"))
    if card["seat"] != state["possession"]:
        raise IllegalAction("out-of-possession",
                            gettext_noop("It is %(seat)s's possession; %(card)s must wait for its team's turn."),
                            seat=state["possession"], card=card["name"])
    if not is_active(state, card):
        raise IllegalAction("not-active", gettext_noop("%(card)s is not on the field; only active cards move."),
                            card=card["name"])
    reason = state["done"].get(card["id"])
    if reason:
        raise IllegalAction(f"already-{reason}", NOT_READY[reason], card=card["name"])
    if move != "a1" and card["status"] and card["status"]["name"] == "brainlock":
        raise IllegalAction("brainlock", gettext_noop("%(card)s is Brainlocked: A1 only for now."), card=card["name"])
    return card


def attack(state: MatchState, action: dict, dice) -> list[dict]:
    move = action["type"]
    attacker = mover(state, action, move)
    target = card_in_play(state, action.get("target"), "target")
    if target["seat"] == attacker["seat"] or not is_active(state, target):
        raise IllegalAction("target", gettext_noop("%(card)s can only attack an active card of the other team."),
                            card=attacker["name"])
    team = state["teams"][attacker["seat"]]
    paid = pay(attacker, team, move)
    sums = damage.working(attacker, target, move)
    event = {"type": "attack", "move": move, "card": attacker["id"], "card_name": attacker["name"],
             "target": target["id"], "target_name": target["name"], **sums,
             "type_name": state["config"]["type_names"][sums["attack_type"] - 1], **paid,
             "backfire": None, "proc": None}
    status_events, victim = [], None
    if move != "a1" and attacker["inflicts"] != "none":
        event["backfire"] = roll_against(
            dice, backfire_chance(attacker["tier"], stat(attacker, "spc")), f"{attacker['name']} {move} backfire")
        if event["backfire"]["hit"]:
            victim = attacker
        else:
            event["proc"] = roll_against(
                dice, proc_chance(move, attacker["tier"]), f"{attacker['name']} {move} {attacker['inflicts']}")
            victim = target if event["proc"]["hit"] else None
    taken = min(sums["damage"], target["hp"])
    target["hp"] -= taken
    attacker["record"]["damage"] += taken
    event["hp_after"] = target["hp"]
    state["done"][attacker["id"]] = "moved"
    events = [event]
    if target["hp"] == 0:
        events += fall(state, target, attacker)
        if victim is target:
            victim, event["status_lost"] = None, True
    if victim is not None and state["winner"] is None:
        if victim is target:
            attacker["record"]["statuses"] += 1
        source = attacker["id"] if victim is target else None
        status_events.append(inflict(victim, attacker["inflicts"], attacker["tier"], source,
                                     fresh=victim["seat"] == state["possession"], config=state["config"]))
    return events + status_events


def stack(state: MatchState, action: dict, dice) -> list[dict]:
    card = mover(state, action, "stack")
    card["gems"] += STACK_GAIN
    state["done"][card["id"]] = "moved"
    return [{"type": "stack", "card": card["id"], "card_name": card["name"], "shown": 1 + card["gems"]}]


def spc_boost(card: dict) -> int:
    """What the card's SPC move adds to the stat it boosts: SPC / 10, rounded half up."""
    return round_half_up(card["base"]["spc"] / 10)


def spc(state: MatchState, action: dict, dice) -> list[dict]:
    card = mover(state, action, "spc")
    if card["spc_used"]:
        raise IllegalAction("spc-used", gettext_noop("%(card)s has already used its SPC boost."), card=card["name"])
    chosen = action.get("stat")
    if chosen not in BOOSTABLE:
        raise IllegalAction("spc-stat", gettext_noop("SPC boosts SPD, HP, DEF or ATK, not %(stat)r."), stat=chosen)
    amount = spc_boost(card)
    card["boost"][chosen] = card["boost"].get(chosen, 0) + amount
    if chosen == "hp":
        card["hp"] += amount
    card["spc_used"] = True
    state["done"][card["id"]] = "moved"
    return [{"type": "spc", "card": card["id"], "card_name": card["name"], "stat": chosen, "amount": amount, "spc": card["base"]["spc"],
             "value": stat(card, chosen) if chosen != "hp" else max_hp(card)}]


REVIVE_HP = 500
"""The share of its max HP a revived card returns with, in tenths of a percent (50%)."""


def revived_hp(card: dict) -> int:
    """The HP a fallen card returns with when revived: half its max HP, rounded up, at least 1."""
    return max(1, share(max_hp(card), REVIVE_HP))


def revive(state: MatchState, action: dict, dice) -> list[dict]:
    caster = mover(state, action, "revive")
    target = card_in_play(state, action.get("target"), "target")
    team = state["teams"][caster["seat"]]
    if target["seat"] != caster["seat"] or target["id"] not in team["fallen"]:
        raise IllegalAction("revive-not-fallen", gettext_noop("REVIVE brings back a fallen ally; %(card)s has not fallen."),
                            card=target["name"])
    if target["risen"] and not state["config"]["risen_revivable"]:
        raise IllegalAction("revive-risen",
                            gettext_noop("%(card)s is Risen already; in this match a Risen card cannot be revived again."),
                            card=target["name"])
    paid = pay(caster, team, "revive")
    target = own_card(state, target["id"])
    team["fallen"].remove(target["id"])
    team["reserve"].append(target["id"])
    target.update(hp=revived_hp(target), risen=True)
    caster["record"]["revives"] += 1
    state["done"][caster["id"]] = "moved"
    return [{"type": "revive", "card": caster["id"], "card_name": caster["name"], "target": target["id"],
             "target_name": target["name"], "hp": target["hp"], **paid},
            *fill_slots(state, caster["seat"])]


def shift(state: MatchState, action: dict, dice) -> list[dict]:
    leaving = mover(state, action, "shift")
    team = state["teams"][leaving["seat"]]
    coming = card_in_play(state, action.get("reserve"), "reserve card")
    if coming["id"] not in team["reserve"]:
        raise IllegalAction("shift-reserve", gettext_noop("%(card)s is not in this team's reserve."),
                            card=coming["name"])
    coming = own_card(state, coming["id"])
    slot, place = team["active"].index(leaving["id"]), team["reserve"].index(coming["id"])
    team["active"][slot], team["reserve"][place] = coming["id"], leaving["id"]
    state["done"].pop(leaving["id"], None)
    state["done"][coming["id"]] = "arrived"
    return [{"type": "shift", "card": leaving["id"], "card_name": leaving["name"], "reserve": coming["id"],
             "reserve_name": coming["name"], "gems": coming["gems"]}]


def deposit(state: MatchState, action: dict, dice) -> list[dict]:
    card = card_in_play(state, action.get("card"))
    team = state["teams"][card["seat"]]
    if card["seat"] != state["possession"]:
        raise IllegalAction("out-of-possession",
                            gettext_noop("Raided gems are deposited only during your own possession (now %(seat)s's)."),
                            seat=state["possession"])
    if not is_active(state, card):
        raise IllegalAction("not-active", gettext_noop("%(card)s is not on the field; deposit onto an active card."),
                            card=card["name"])
    if team["raided"] < 1:
        raise IllegalAction("raided-empty", gettext_noop("The raided pool is empty; there is nothing to deposit."))
    team["raided"] -= 1
    card["gems"] += 1
    return [{"type": "deposit", "card": card["id"], "card_name": card["name"], "shown": 1 + card["gems"],
             "raided": team["raided"]}]
