"""Why a move: one line a player understands, translatable the way engine refusals are.

A reason is an English template marked with `gettext_noop` plus its parameters (card names,
numbers, the table's type names), as in rules/errors.py: the web side translates the template
and fills it in. Parameters are plain JSON, so a reason can be stored in the match log.
A status is given by its English name ("Overcook"), the same word the status labels translate.

The numbers come from the engine: the move is applied (the branch where nothing is rolled,
or no roll lands) and its events say what it does; what a STACK or a Shift prepares is worked
out with the engine's damage formula (damage.working) on the position as it stands.
"""

from dataclasses import dataclass, field

from ...errors import gettext_noop
from .. import damage
from ..field import active_cards
from ..fighters import stat
from ..gems import COSTS, MOVE_LABELS
from ..state import MatchState
from ..statuses import backfire_chance, proc_chance
from .search import branches, odds


@dataclass(frozen=True)
class Reason:
    """Why a move was chosen, as a translatable template and its parameters."""

    template: str
    """English, with %(name)s placeholders; marked with gettext_noop so makemessages finds it."""
    params: dict = field(default_factory=dict)
    """The values to fill in: card names, numbers, type names (plain JSON)."""
    promise: dict | None = None
    """The move the reason says is coming ("A3 next turn knocks out X"), as the action that keeps it,
    or None. The levels keep their promises (players.pending_promises) and the strength report
    counts how often they do."""

    def text(self) -> str:
        """The reason in English (the web side translates `template` first)."""
        return self.template % self.params

    @classmethod
    def from_json(cls, kept: dict) -> "Reason":
        return cls(kept["template"], kept["params"], kept.get("promise"))

    def as_json(self) -> dict:
        kept = {"template": self.template, "params": dict(self.params)}
        return {**kept, "promise": dict(self.promise)} if self.promise else kept


def _times(fraction: str) -> str:
    """A type multiplier as players write it: "2", "0.5", "0.25"."""
    return {"1/2": "0.5", "1/4": "0.25"}.get(fraction, fraction)


def _name(state: MatchState, card_id: str) -> str:
    return state["cards"][card_id]["name"]


def reason_for(state: MatchState, action: dict, candidate=None, line: list[dict] | None = None) -> Reason:
    """Why `action` (a legal move in `state`); `candidate` is the search's record of it, if any.
    `line` is the play the search expects after the move (tree.Tree.line), when it knows one: a
    STACK or a Shift then promises only the move that line makes next with the card (an A3, an A1),
    and explains itself without a promise when the line does something else or stops short."""
    if action["type"] == "stack":
        return _stack(state, action, candidate, line)
    if action["type"] == "shift":
        return _shift(state, action, candidate, line)
    return EXPLAINERS[action["type"]](state, action, candidate)


def _planned(line: list[dict] | None, card_id: str, kind: str) -> dict | None:
    """The move `line` makes next with the card when it is a `kind`, else None."""
    move = next((move for move in line or () if move.get("card") == card_id), None)
    return move if move is not None and move["type"] == kind else None


def _events(state: MatchState, action: dict, candidate) -> list[dict]:
    """What the move does when no roll lands (the first branch, the likeliest)."""
    if candidate is not None:
        return candidate.branches[0].events
    return branches(state, action)[0].events


def _attack(state: MatchState, action: dict, candidate) -> Reason:
    card, target = state["cards"][action["card"]], state["cards"][action["target"]]
    events = _events(state, action, candidate)
    hit = next(event for event in events if event["type"] == "attack")
    fell = next((event for event in events if event["type"] == "fall" and event["card"] == target["id"]), None)
    params = {"card": card["name"], "target": target["name"], "move": MOVE_LABELS[action["type"]],
              "damage": hit["damage"], "times": _times(hit["type_multiplier"]), "type": hit["type_name"]}
    if fell and any(event["type"] == "match_won" for event in events):
        return Reason(gettext_noop("%(card)s knocks out %(target)s with %(move)s and wins the match."), params)
    if fell and fell["raided"] == 1:
        return Reason(gettext_noop("%(card)s knocks out %(target)s with %(move)s (%(type)s %(times)sx) and raids "
                                   "its stacked gem."), params)
    if fell and fell["raided"]:
        return Reason(gettext_noop("%(card)s knocks out %(target)s with %(move)s (%(type)s %(times)sx) and raids "
                                   "its %(gems)s stacked gems."), {**params, "gems": fell["raided"]})
    if fell:
        return Reason(gettext_noop("%(card)s knocks out %(target)s with %(move)s: %(damage)s damage at %(type)s "
                                   "%(times)sx."), params)
    if action["type"] != "a1" and card["inflicts"] != "none":
        backfire = odds(backfire_chance(card["tier"], stat(card, "spc")))
        lands = (1 - backfire) * odds(proc_chance(action["type"], card["tier"]))
        params.update(status=card["inflicts"].capitalize(), chance=round(100 * lands), backfire=round(100 * backfire))
        return Reason(gettext_noop("%(card)s hits %(target)s with %(move)s for %(damage)s (%(type)s %(times)sx), "
                                   "%(chance)s%% to inflict %(status)s against %(backfire)s%% to backfire."), params)
    if hit["from_raided"] == 1:
        return Reason(gettext_noop("%(card)s spends a raided gem on %(move)s: %(damage)s damage to "
                                   "%(target)s at %(type)s %(times)sx."), params)
    if hit["from_raided"]:
        return Reason(gettext_noop("%(card)s spends %(gems)s raided gems on %(move)s: %(damage)s damage to "
                                   "%(target)s at %(type)s %(times)sx."), {**params, "gems": hit["from_raided"]})
    if hit["type_multiplier"] in ("2", "4"):
        return Reason(gettext_noop("%(card)s hits %(target)s with %(move)s: %(type)s is %(times)sx against it, "
                                   "%(damage)s damage."), params)
    return Reason(gettext_noop("%(card)s hits %(target)s with %(move)s for %(damage)s damage, leaving it "
                               "%(hp)s HP."), {**params, "hp": hit["hp_after"]})


def _best_a3(state: MatchState, card: dict) -> tuple[dict, dict]:
    """The other side's active card that the card's A3 hurts most, and the engine's working."""
    foes = active_cards(state, 1 - card["seat"])
    found = [(foe, damage.working(card, foe, "a3")) for foe in foes]
    return max(found, key=lambda pair: (pair[1]["damage"] >= pair[0]["hp"], pair[1]["damage"]))


def _stack(state: MatchState, action: dict, candidate, line: list[dict] | None = None) -> Reason:
    card = state["cards"][action["card"]]
    team = state["teams"][card["seat"]]
    shown = 2 + card["gems"]
    fallen = [card_id for card_id in team["fallen"]
              if state["config"]["risen_revivable"] or not state["cards"][card_id]["risen"]]
    # A card that can already pay for an A3 and still stacks, with an ally to bring back, saves for REVIVE.
    if fallen and card["gems"] + team["raided"] >= COSTS["a3"]:
        ally = max(fallen, key=lambda card_id: state["cards"][card_id]["base"]["hp"])
        return Reason(gettext_noop("Stacks on %(card)s toward a REVIVE of %(ally)s (%(shown)s shown, "
                                   "REVIVE needs 5)."), {"card": card["name"], "ally": _name(state, ally), "shown": shown})
    foe, working = _best_a3(state, card)
    ready = card["gems"] + 1 + team["raided"] >= COSTS["a3"]
    promise = {"type": "a3", "card": card["id"], "target": foe["id"]}
    if line is not None:
        planned = _planned(line, card["id"], "a3")
        ready = ready and planned is not None
        if planned is not None:
            promise, foe = planned, state["cards"][planned["target"]]
            working = damage.working(card, foe, "a3")
    params = {"card": card["name"], "target": foe["name"], "shown": shown, "damage": working["damage"],
              "times": _times(working["type_multiplier"]),
              "type": state["config"]["type_names"][working["attack_type"] - 1]}
    if ready and working["damage"] >= foe["hp"]:
        return Reason(gettext_noop("Stacks on %(card)s: A3 next turn knocks out %(target)s at %(type)s %(times)sx."),
                      params, promise)
    if ready:
        return Reason(gettext_noop("Stacks on %(card)s: A3 next turn hits %(target)s for %(damage)s at %(type)s "
                                   "%(times)sx."), params, promise)
    return Reason(gettext_noop("Stacks on %(card)s (%(shown)s shown) toward an A3 that hits %(target)s for "
                               "%(damage)s at %(type)s %(times)sx."), params)


def biggest_blow(state: MatchState, card: dict) -> int:
    """The most one active card of the other side can take off `card` with what it can pay for."""
    foes = active_cards(state, 1 - card["seat"])
    raided = state["teams"][1 - card["seat"]]["raided"]
    blows = [damage.working(foe, card, move)["damage"] for foe in foes for move in ("a1", "a2", "a3")
             if foe["gems"] + raided >= COSTS.get(move, 0)]
    return max(blows, default=0)


def _shift(state: MatchState, action: dict, candidate, line: list[dict] | None = None) -> Reason:
    card, coming = state["cards"][action["card"]], state["cards"][action["reserve"]]
    params = {"card": card["name"], "reserve": coming["name"]}
    if card["gems"] == 1 and card["hp"] <= biggest_blow(state, card):
        return Reason(gettext_noop("Shifts %(card)s out: it would fall with its stacked gem to raid; %(reserve)s "
                                   "comes in."), params)
    if card["gems"] and card["hp"] <= biggest_blow(state, card):
        return Reason(gettext_noop("Shifts %(card)s out: it would fall with %(gems)s gems to raid; %(reserve)s "
                                   "comes in."), {**params, "gems": card["gems"]})
    if card["status"] and card["status"]["name"] in ("overcook", "souldrift"):
        return Reason(gettext_noop("Shifts %(card)s out so its %(status)s stops burning; %(reserve)s comes in."),
                      {**params, "status": card["status"]["name"].capitalize()})
    if card["hp"] <= biggest_blow(state, card):
        return Reason(gettext_noop("Shifts %(card)s out before it falls (%(hp)s HP left); %(reserve)s comes in."),
                      {**params, "hp": card["hp"]})
    foes = active_cards(state, 1 - card["seat"])
    foe, working = max(((foe, damage.working(coming, foe, "a1")) for foe in foes), key=lambda pair: pair[1]["damage"])
    promise: dict | None = {"type": "a1", "card": coming["id"], "target": foe["id"]}
    if line is not None:
        promise = _planned(line, coming["id"], "a1")
        if promise is not None:
            foe = state["cards"][promise["target"]]
            working = damage.working(coming, foe, "a1")
    params.update(target=foe["name"], damage=working["damage"], times=_times(working["type_multiplier"]),
                  type=state["config"]["type_names"][working["attack_type"] - 1])
    if promise is None:
        return Reason(gettext_noop("Shifts %(reserve)s in for %(card)s: its A1 does %(damage)s to %(target)s at "
                                   "%(type)s %(times)sx."), params)
    return Reason(gettext_noop("Shifts %(reserve)s in for %(card)s: next turn its A1 hits %(target)s for "
                               "%(damage)s at %(type)s %(times)sx."), params, promise)


def _spc(state: MatchState, action: dict, candidate) -> Reason:
    card = state["cards"][action["card"]]
    event = next(event for event in _events(state, action, candidate) if event["type"] == "spc")
    return Reason(gettext_noop("Boosts %(card)s's %(stat)s by %(amount)s to %(value)s for the rest of the match."),
                  {"card": card["name"], "stat": action["stat"].upper(), "amount": event["amount"],
                   "value": event["value"]})


def _revive(state: MatchState, action: dict, candidate) -> Reason:
    event = next(event for event in _events(state, action, candidate) if event["type"] == "revive")
    params = {"card": event["card_name"], "target": event["target_name"], "hp": event["hp"]}
    if event["from_raided"]:
        return Reason(gettext_noop("%(card)s revives %(target)s with %(hp)s HP, paying %(gems)s of the 4 gems "
                                   "from the raided pool."), {**params, "gems": event["from_raided"]})
    return Reason(gettext_noop("%(card)s spends its 4 stacked gems to revive %(target)s with %(hp)s HP."), params)


def _deposit(state: MatchState, action: dict, candidate) -> Reason:
    return Reason(gettext_noop("Deposits a raided gem on %(card)s."), {"card": _name(state, action["card"])})


EXPLAINERS = {"a1": _attack, "a2": _attack, "a3": _attack, "stack": _stack, "shift": _shift, "spc": _spc,
              "revive": _revive, "deposit": _deposit}
