"""The analysis of a Cardmaster match: the win chance after every step, and the costliest choices.

The match is re-run from its options, seed and actions (with the dice a player entered by hand,
as the log keeps them), exactly as the tracker replays it. Before every move a side chose, the
search looks at the position as the player saw it, with the move actually played made sure to
reach the playouts, so both are judged on the same dice:

- the win chance after a step is the search's value of the best move from the position that
  step left (for seat 0; 1 or 0 once the match is won);
- a move's cost is how much lower the search values it than the move it prefers, in win
  chance of the side that moved; moves costing at least `threshold` are mistakes, the
  costliest first.

The search's dice are seeded from the match seed and the step (search.py), so analysing a
match twice gives the same result. The time is bounded: once `seconds` have passed, the rest
of the steps get the quick estimate alone (evaluation.win_chance) and no mistakes, and the
result says it is incomplete. Manual overrides and deposits (free actions) are never mistakes.
"""

import time
from collections.abc import Callable
from dataclasses import dataclass

from ... import Dice
from .. import match
from .evaluation import win_chance
from .explain import Reason, reason_for
from .players import EFFORT
from .search import search

MOVE_KEYS = ("type", "card", "target", "stat", "reserve")
JUDGED = ("a1", "a2", "a3", "stack", "spc", "revive", "shift")


@dataclass(frozen=True)
class Mistake:
    """A move that cost the side that made it."""

    step: int
    """The step of the match log (1 for the first action) at which the move was made."""
    seat: int
    """The side that made it."""
    played: dict
    """The move made."""
    cost: float
    """Win chance it gave away against the preferred move (0..1)."""
    better: dict
    """The move the search prefers."""
    reason: Reason
    """Why the preferred move: one line, translatable."""
    win_chance: float
    """The chance the side had with the preferred move (so with the played one: this minus cost)."""


@dataclass(frozen=True)
class Analysis:
    """What the analysis found."""

    win_chances: list[float]
    """Seat 0's estimated chance to win after each step, in log order (index 0 is step 1)."""
    mistakes: list[Mistake]
    """Moves that cost at least the threshold, costliest first."""
    complete: bool
    """False when the time ran out and the later steps got the quick estimate only."""


def _move(action: dict) -> dict:
    """The action as legal_actions spells it (a stored action may carry more keys)."""
    return {key: action[key] for key in MOVE_KEYS if key in action}


def analyse(config: dict, seed: str, played: list[tuple[dict, list[int]]], level: str = "normal",
            seconds: float | None = None, threshold: float = 0.04, most: int = 10,
            progress: Callable[[int, int], None] | None = None) -> Analysis:
    """Analyse a match: `played` is every applied action in order with the dice a player entered for
    it ([] when the app rolled). `level` sets how hard each position is searched ("easy",
    "normal" or "hard"); `seconds` bounds the time; `progress(done, total)` is called after each step.
    """
    started = time.monotonic()
    effort = EFFORT[level]
    state = match.new_match(config, seed)
    chances, mistakes, complete = [], [], True
    total = len(played)
    pending = None  # the search of the position before the current step, with the played move in it
    for step, (action, rolls) in enumerate(played, start=1):
        if pending is not None and action["type"] in JUDGED:
            mover, ranked = pending
            chosen = next((c for c in ranked if c.action == _move(action)), None)
            best = ranked[0]
            if chosen is not None and best.value - chosen.value >= threshold:
                mistakes.append(Mistake(step, mover, action, best.value - chosen.value, best.action,
                                        reason_for(state, best.action, best), best.value))
        state, _events = match.apply(state, action, Dice(seed, step, list(rolls)))
        pending = None
        following = played[step][0] if step < total else None
        if seconds is not None and time.monotonic() - started > seconds:
            complete = False
        if match.phase(state) != "play":
            chances.append(win_chance(state, 0) if match.phase(state) == "finished" else 0.5)
        elif not complete:
            chances.append(win_chance(state, 0))
        else:
            mover = state["possession"]
            include = _move(following) if following and following["type"] in JUDGED else None
            ranked = search(state, mover, effort, seed, step + 1, include=include)
            value = ranked[0].value
            chances.append(value if mover == 0 else 1 - value)
            pending = (mover, ranked)
        if progress:
            progress(step, total)
    mistakes.sort(key=lambda mistake: (-mistake.cost, mistake.step))
    return Analysis(chances, mistakes[:most], complete)
