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
match twice gives the same result, and so does analysing it in parts (`analyse_part`, a few
steps at a time, as the analysis page does with a progress bar): each step's search depends on
the match alone. `analyse` does it in one go, with an optional time bound: once `seconds` have
passed, the rest of the steps get the quick estimate alone (evaluation.win_chance) and no
mistakes, and the result says it is incomplete. Manual overrides and deposits (free actions)
are never mistakes.
"""

import time
from collections.abc import Callable
from dataclasses import dataclass

from ... import Dice
from .. import match
from ..state import MatchState, possessor
from .evaluation import win_chance
from .explain import Reason, reason_for
from .players import EFFORT, Step, shift_backs
from .search import search

MOVE_KEYS = ("type", "card", "target", "stat", "reserve")
REMEMBERED = 12
"""Steps before a position the analysis keeps in mind, as a level does (players.shift_backs)."""
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

    def as_json(self) -> dict:
        return {"step": self.step, "seat": self.seat, "played": self.played, "better": self.better, "cost": self.cost,
                "reason": self.reason.as_json(), "win_chance": self.win_chance}

    @classmethod
    def from_json(cls, kept: dict) -> "Mistake":
        return cls(kept["step"], kept["seat"], kept["played"], kept["cost"], kept["better"],
                   Reason.from_json(kept["reason"]), kept["win_chance"])


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


def replayed(config: dict, seed: str, played: list[tuple[dict, list[int]]], steps: int) -> MatchState:
    """The match after its first `steps` actions (no search: the engine alone)."""
    state = match.new_match(config, seed)
    for step, (action, rolls) in enumerate(played[:steps], start=1):
        state, _events = match.apply(state, action, Dice(seed, step, list(rolls)))
    return state


@dataclass(frozen=True)
class Part:
    """What the analysis found over some steps: the first `len(win_chances)` after `start`."""

    win_chances: list[float]
    """Seat 0's estimated chance to win after each of those steps."""
    mistakes: list[Mistake]
    """Moves of the following steps that cost at least the threshold, in step order."""


def analyse_part(config: dict, seed: str, played: list[tuple[dict, list[int]]], start: int, level: str = "normal",
                 threshold: float = 0.04, stop: int | None = None, deadline: float | None = None,
                 progress: Callable[[int, int], None] | None = None) -> Part:
    """Analyse steps start+1 .. `stop` (the last step by default), or fewer: once `deadline`
    (time.monotonic()) has passed, no further step is begun (the first always is). After each step
    the position it left is searched, with the move played next sure to reach the playouts, and
    that next move is judged on the spot; so every step's result depends on the match alone, and
    parts of any size add up to the same analysis. `progress(step, steps in the match)` follows each step."""
    effort = EFFORT[level]
    # The steps just before the part, for the Shifts a side may not make straight back (players.shift_backs).
    state = replayed(config, seed, played, max(0, start - REMEMBERED))
    recent: list[Step] = []
    for step in range(max(0, start - REMEMBERED) + 1, start + 1):
        action, rolls = played[step - 1]
        recent.append((state, action))
        state, _events = match.apply(state, action, Dice(seed, step, list(rolls)))
    total = len(played) if stop is None else min(stop, len(played))
    chances: list[float] = []
    mistakes: list[Mistake] = []
    for step in range(start + 1, total + 1):
        if deadline is not None and chances and time.monotonic() > deadline:
            break
        action, rolls = played[step - 1]
        recent = [*recent[1 - REMEMBERED:], (state, action)]
        state, _events = match.apply(state, action, Dice(seed, step, list(rolls)))
        if match.phase(state) != "play":
            chances.append(win_chance(state, 0) if match.phase(state) == "finished" else 0.5)
        else:
            mover = possessor(state)
            following = played[step][0] if step < len(played) else {"type": "none"}
            move = _move(following) if following["type"] in JUDGED else None
            refused = shift_backs(state, mover, recent)
            ranked = [candidate for candidate in search(state, mover, effort, seed, step + 1, include=move)
                      if candidate.action == move or (candidate.action.get("card"),
                                                      candidate.action.get("reserve")) not in refused]
            best = ranked[0]
            chances.append(best.value if mover == 0 else 1 - best.value)
            chosen = next((c for c in ranked if c.action == move), None) if move else None
            if chosen is not None and best.value - chosen.value >= threshold:
                mistakes.append(Mistake(step + 1, mover, following, best.value - chosen.value, best.action,
                                        reason_for(state, best.action, best), best.value))
        if progress:
            progress(step, len(played))
    return Part(chances, mistakes)


def rounds(config: dict, seed: str, played: list[tuple[dict, list[int]]]) -> list[int]:
    """The round each step left the match in (0 while lineups are entered), in log order: where the
    analysis chart marks the rounds."""
    state, found = match.new_match(config, seed), []
    for step, (action, rolls) in enumerate(played, start=1):
        state, _events = match.apply(state, action, Dice(seed, step, list(rolls)))
        found.append(state["round"])
    return found


def finish(win_chances: list[float], mistakes: list[Mistake], total: int, most: int = 10) -> Analysis:
    """The analysis from its parts: the costliest `most` mistakes first; complete when the chances
    cover all `total` steps."""
    ranked = sorted(mistakes, key=lambda mistake: (-mistake.cost, mistake.step))
    return Analysis(list(win_chances), ranked[:most], len(win_chances) == total)


def analyse(config: dict, seed: str, played: list[tuple[dict, list[int]]], level: str = "normal",
            seconds: float | None = None, threshold: float = 0.04, most: int = 10,
            progress: Callable[[int, int], None] | None = None) -> Analysis:
    """Analyse a match in one go: `played` is every applied action in order with the dice a player
    entered for it ([] when the app rolled). `level` sets how hard each position is searched
    ("easy", "normal" or "hard"); `seconds` bounds the time, after which the remaining steps get
    the quick estimate alone and no mistakes; `progress(done, total)` is called after each step.
    """
    deadline = None if seconds is None else time.monotonic() + seconds
    total = len(played)
    part = analyse_part(config, seed, played, 0, level, threshold, deadline=deadline, progress=progress)
    chances, searched = list(part.win_chances), len(part.win_chances)
    if searched < total:
        state = replayed(config, seed, played, searched)
        for step in range(searched + 1, total + 1):
            action, rolls = played[step - 1]
            state, _events = match.apply(state, action, Dice(seed, step, list(rolls)))
            chances.append(win_chance(state, 0) if match.phase(state) != "lineup" else 0.5)
            if progress:
                progress(step, total)
    result = finish(chances, part.mistakes, total, most)
    return Analysis(result.win_chances, result.mistakes, searched == total)
