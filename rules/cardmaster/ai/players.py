"""The decision makers: three AI strengths and two baselines, behind one function, `choose`.

    hard    the full search (search.py): every move one move deep with the rolls weighed
            exactly, then playouts for the best eight by sequential halving; always the best
    normal  the same search with a quarter of the playouts for the best four, and a little
            noise in the final choice
    easy    one move deep only, blind to raids (it does not count the gems the other side could
            knock loose next: evaluation.race), choosing among the best five with clearly
            more noise: it still attacks sensibly and spends its gems, but misses what comes
            next and leaves gems where they get raided
    greedy  a baseline: the move whose immediate result keeps the best HP balance
            (evaluation.material), the rolls weighed exactly; it never plans
    random  a baseline: any legal move, uniformly

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
from .evaluation import material
from .explain import Reason, reason_for
from .search import Candidate, Effort, branches, search

BASELINES = ("greedy", "random")
LEVELS = (*AI_LEVELS, *BASELINES)
EFFORT = {"easy": Effort(finalists=1, playouts=0, raids=False), "normal": Effort(finalists=4, playouts=10),
          "hard": Effort(finalists=8, playouts=40)}
TEMPERATURE = {"easy": 0.05, "normal": 0.008, "hard": 0.0}
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
    """Who decided: "easy", "normal", "hard", "greedy" or "random"."""

    def as_json(self) -> dict:
        """Plain JSON, to keep beside the action in the match log."""
        return {"action": dict(self.action), "reason": self.reason.as_json(), "win_chance": self.win_chance,
                "level": self.level}


def _rng(seed: str, step: int, level: str) -> random.Random:
    return random.Random(f"{seed}|{step}|{level}")


def check_turn(state: dict, seat: object) -> None:
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


def choose(state: dict, seat: int, level: str, seed: str, step: int) -> Decision:
    """The move `level` makes for `seat`, which must be in possession, at step `step` of the match
    played with `seed`; a RuleError (IllegalAction) when there is no move to choose."""
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
    ranked = search(state, seat, EFFORT[level], seed, step)
    chosen = _pick(ranked, TEMPERATURE[level], rng)
    return Decision(chosen.action, reason_for(state, chosen.action, chosen), chosen.value, level)


def _estimate(state: dict, action: dict, seat: int) -> float:
    return Candidate(state, action, seat).shallow


def _greedy(state: dict, seat: int, rng: random.Random) -> Decision:
    scored = []
    for action in match.legal_actions(state):
        found = branches(state, action)
        scored.append((sum(branch.probability * material(branch.state, seat) for branch in found), action))
    best = max(score for score, _action in scored)
    action = rng.choice([action for score, action in scored if score >= best - 1e-9])
    return Decision(action, reason_for(state, action, None), _estimate(state, action, seat), "greedy")
