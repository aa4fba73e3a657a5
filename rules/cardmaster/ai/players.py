"""The decision makers: three AI strengths and two baselines, behind one function, `choose`.

    hard    a tree search (tree.py): Monte Carlo tree search over the engine with chance nodes
            for the rolls, HARD_SIMULATIONS positions deep into this possession, the other
            side's reply and beyond, each scored both as it stands and played on to its next
            possession (tree.leaf_score); always its most visited move
    normal  sound but shallow: the same tree search with NORMAL_SIMULATIONS, enough to see its
            own possession through and the start of the other side's reply, not the possession
            after, each position scored as it stands (its one-move-plus-playouts search, EFFORT,
            serves the analysis's quick look)
    easy    one move deep only, blind to raids (it does not count the gems the other side could
            knock loose next: evaluation.race), judging the race as hard-2026 does (the damage it
            deals the average standing foe, so it often leaves a wounded card standing to hit a
            fresh one it hurts more), choosing among the best five with clearly more noise: it still
            attacks sensibly and spends its gems, but misses what comes next, spreads its blows
            and leaves gems where they get raided
    hard-2026  a baseline, not offered to players: the hard level before the tree search (the
            one-move search with 40 playouts for the best eight, no noise), judging the race as
            it was judged then (not steady: evaluation.race)
    greedy  a baseline: the move whose immediate result keeps the best HP balance
            (evaluation.material), the rolls weighed exactly; it never plans
    random  a baseline: any legal move, uniformly

Every level but the baselines keeps two rules across the possessions of a match, from its recent
steps (`recent`): it does not shift a card straight back in that it shifted out within its last
two possessions unless something changed in between (`shift_backs`), and it keeps the promise a
reason of its made (a STACK "for an A3 next turn on X", a Shift "its A1 hits X") when that move
is still there and not clearly worse (`kept_promise`).

Noise is a softmax over the estimated win chances: a move 0.05 below the best is picked
e^-1 times as often as the best at easy's temperature, 0.05. Every choice is reproducible: the AI's own
draws come from a `random.Random` seeded from (seed, step, level), the search's dice from the
seed and step (search.py), so the same state, seed and step always give the same decision.
"""

import random
from dataclasses import dataclass
from math import exp

from ...errors import IllegalAction, gettext_noop
from .. import match
from ..options import AI_LEVELS
from ..state import MatchState
from .evaluation import material
from .explain import Reason, biggest_blow, reason_for
from .search import Candidate, Effort, branches, search
from .tree import Tree

Step = tuple[MatchState, dict]
"""A step of the match before the one decided: (the position before it, the action played). An AI's
action carries its decision under "ai" ({"reason": Reason.as_json(), ...}), as the tracker keeps it."""

BASELINES = ("hard-2026", "greedy", "random")
LEVELS = (*AI_LEVELS, *BASELINES)
EFFORT = {"easy": Effort(finalists=1, playouts=0, raids=False, steady=False), "normal": Effort(finalists=4, playouts=10),
          "hard": Effort(finalists=8, playouts=40), "hard-2026": Effort(finalists=8, playouts=40, steady=False)}
"""The one-move-plus-playouts search of each level; "hard" itself searches a tree and uses this
only where a quick judgement of every move is wanted (the analysis)."""
TEMPERATURE = {"easy": 0.05, "normal": 0.008, "hard": 0.0, "hard-2026": 0.0}
VERSION = "tree-4"
"""Names how the levels decide, for whoever keeps decisions (the hint cache): change it with them."""
HARD_SIMULATIONS = 800
"""Positions the hard level's tree grows by per decision, each played on to a possession boundary
(tree.leaf_score): about a fifth of a second on one core at 9v9 (2026-12-01)."""
NORMAL_SIMULATIONS = 150
"""The normal level's tree: its own possession and the start of the other side's reply, no further."""
PROMISE_SLACK = 0.03
"""How much lower a promised move may be valued than the best and still be played (win chance)."""
SHIFT_MEMORY = 4
"""Possessions (of both sides) a Shift is remembered for: this side's last two."""
NOISY_CHOICES = 5
"""Noise only ever picks among this many of the best moves, so even easy makes no absurd move."""


@dataclass(frozen=True)
class Decision:
    """What a player chose for one step, and why."""

    action: dict
    """The move, exactly as `legal_actions` lists it, ready for `apply`."""
    reason: Reason
    """One line a player understands: a translatable template and its parameters."""
    win_chance: float
    """The estimated chance (0..1) that the side making the move wins the match."""
    level: str
    """Who decided: one of LEVELS."""
    simulations: int = 0
    """Positions the search looked at for this decision: what `win_chance` is the estimate after."""

    def as_json(self) -> dict:
        """Plain JSON, to keep beside the action in the match log."""
        return {"action": dict(self.action), "reason": self.reason.as_json(), "win_chance": self.win_chance,
                "level": self.level, "simulations": self.simulations}

    @classmethod
    def from_json(cls, kept: dict) -> "Decision":
        return cls(kept["action"], Reason.from_json(kept["reason"]), kept["win_chance"], kept["level"],
                   kept["simulations"])


def _rng(seed: str, step: int, level: str) -> random.Random:
    return random.Random(f"{seed}|{step}|{level}")


def check_turn(state: MatchState, seat: object) -> None:
    """IllegalAction unless `seat` is in possession of a match in play."""
    phase = match.phase(state)
    if phase == "finished":
        raise IllegalAction("match-over", gettext_noop("The match is over; no more moves can be made."))
    if phase == "lineup":
        raise IllegalAction("lineups-first",
                            gettext_noop("Both players lock in their lineups before the first move."))
    if type(seat) is not int or seat not in (0, 1):
        raise IllegalAction("seat", gettext_noop("There is no seat %(value)r in this match."), value=seat)
    if state["possession"] != seat:
        raise IllegalAction("ai-out-of-possession",
                            gettext_noop("It is %(seat)s's possession, not %(asked)s's: only the side in "
                                         "possession has a move to choose."),
                            seat=state["possession"], asked=seat)


def _pick(ranked: list[Candidate], temperature: float, rng: random.Random) -> Candidate:
    if not temperature:
        return ranked[0]
    pool = ranked[:NOISY_CHOICES]
    top = max(candidate.value for candidate in pool)
    weights = [exp((candidate.value - top) / temperature) for candidate in pool]
    return rng.choices(pool, weights)[0]


def choose(state: MatchState, seat: int, level: str, seed: str, step: int, recent: list[Step] | tuple = ()) -> Decision:
    """The move `level` makes for `seat`, which must be in possession, at step `step` of the match
    played with `seed`; a RuleError (IllegalAction) when there is no move to choose. `recent` is the
    match's last steps, oldest first (a dozen is plenty): what the levels remember of their own
    Shifts and promises."""
    if level not in LEVELS:
        raise IllegalAction("ai-level", gettext_noop("There is no AI level %(level)r; choose one of %(levels)s."),
                            level=level, levels=", ".join(LEVELS))
    check_turn(state, seat)
    rng = _rng(seed, step, level)
    if level == "random":
        action = rng.choice(match.legal_actions(state))
        return Decision(action, reason_for(state, action, None), _estimate(state, action, seat), level)
    if level == "greedy":
        return _greedy(state, seat, rng)
    if level == "hard-2026":
        ranked = search(state, seat, EFFORT[level], seed, step)
        return Decision(ranked[0].action, reason_for(state, ranked[0].action, ranked[0]), ranked[0].value, level)
    refused = shift_backs(state, seat, recent)
    promised = pending_promises(state, seat, recent)
    if level in ("hard", "normal"):
        tree = Tree(state, seat, refused, deep=level == "hard")
        tree.run(HARD_SIMULATIONS if level == "hard" else NORMAL_SIMULATIONS)
        valued = [(candidate, value) for candidate, _visits, value in tree.ranked()]
        chosen, value = _keep_promise(valued, promised)
        reason = reason_for(state, chosen.action, chosen, tree.line(chosen.action))
        return Decision(chosen.action, reason, value, level, tree.simulations)
    ranked = search(state, seat, EFFORT[level], seed, step)
    ranked = [candidate for candidate in ranked
              if (candidate.action.get("card"), candidate.action.get("reserve")) not in refused] or ranked
    chosen = _pick(ranked, TEMPERATURE[level], rng)
    if level == "normal":
        chosen, _value = _keep_promise([(candidate, candidate.value) for candidate in ranked], promised,
                                       (chosen, chosen.value))
    return Decision(chosen.action, reason_for(state, chosen.action, chosen), chosen.value, level,
                    EFFORT[level].playouts)


def _keep_promise(valued: list[tuple[Candidate, float]], promised: list[dict],
                  chosen: tuple[Candidate, float] | None = None) -> tuple[Candidate, float]:
    """The promised move when it is among the moves and within PROMISE_SLACK of the best; else
    `chosen` (the first of `valued` by default)."""
    chosen = chosen or valued[0]
    best = max(value for _candidate, value in valued)
    for promise in promised:
        for candidate, value in valued:
            if candidate.action == promise and value >= best - PROMISE_SLACK:
                return candidate, value
    return chosen


def possession_number(state: MatchState) -> int:
    """Possessions since the match began: two a round."""
    return 2 * state["round"] + state["half"]


def _shift_marks(state: MatchState, leaving: str, coming: str, seat: int) -> tuple:
    """What would make shifting back worth it: for each of the two cards whether one blow of the
    other side's active cards would knock it out now (its HP as far as a Shift is concerned), its
    gems and its status; and the other side's active cards."""
    def mark(card_id: str) -> tuple:
        card = state["cards"][card_id]
        status = card["status"]["name"] if card["status"] else None
        return card["hp"] <= biggest_blow(state, card), card["gems"], status
    return mark(leaving), mark(coming), sorted(card_id for card_id in state["teams"][1 - seat]["active"] if card_id)


def shift_backs(state: MatchState, seat: int, recent: list[Step] | tuple) -> set[tuple[str, str]]:
    """The Shifts `seat` must not make now, as (card leaving, card coming) pairs: each would bring
    back a card this side shifted out within its last two possessions, for the card that came in
    for it, with nothing changed in between (the two cards' HP, gems and statuses, and the other
    side's active cards are as they were; HP counts as changed when a card comes within one blow
    of falling, or out of it, since a few points lost change nothing a Shift could mend)."""
    now, refused = possession_number(state), set()
    for before, action in recent:
        if action.get("type") != "shift" or before["possession"] != seat:
            continue
        if now - possession_number(before) > SHIFT_MEMORY:
            continue
        out, came = action["card"], action["reserve"]
        if _shift_marks(before, out, came, seat) == _shift_marks(state, out, came, seat):
            refused.add((came, out))
    return refused


def pending_promises(state: MatchState, seat: int, recent: list[Step] | tuple) -> list[dict]:
    """The moves this side's reasons promised in its previous possession ("A3 next turn hits X"),
    newest first, whose card has not moved since: each as the action that keeps it."""
    now, found, moved = possession_number(state), [], set()
    for before, action in reversed(recent):
        if before["possession"] != seat or now - possession_number(before) > 2:
            continue
        promise = (action.get("ai") or {}).get("reason", {}).get("promise")
        if promise and promise["card"] not in moved and possession_number(before) < now:
            found.append(dict(promise))
        moved.add(action.get("card"))
    return found


def _estimate(state: MatchState, action: dict, seat: int) -> float:
    return Candidate(state, action, seat).shallow


def _greedy(state: MatchState, seat: int, rng: random.Random) -> Decision:
    scored = []
    for action in match.legal_actions(state):
        found = branches(state, action)
        scored.append((sum(branch.probability * material(branch.state, seat) for branch in found), action))
    best = max(score for score, _action in scored)
    action = rng.choice([action for score, action in scored if score >= best - 1e-9])
    return Decision(action, reason_for(state, action, None), _estimate(state, action, seat), "greedy")
