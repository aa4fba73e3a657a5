"""Looking ahead with the engine itself: every move tried here goes through `match.apply`.

The search for one decision has two stages:

1. One move deep, every legal move (depositing aside, see below) is tried, and each way its
   rolls can go is played out exactly: an A2/A3 from a card that carries a status may
   backfire, land its status, or do neither. The engine is handed dice that force each case
   (rules.Dice's entered values) and the cases are weighed by their chances. The estimate of
   evaluation.py scores each result: this is an expectimax over the proc and backfire rolls.
2. The best few moves then get playouts, shared out by sequential halving (each round keeps
   the better half and gives it more playouts). A playout continues the match from the move
   through the rest of this possession and the other side's whole next possession, both
   sides choosing with a quick one-move look (`quick_move`), and scores the position it
   reaches. The playouts' dice are `rules.Dice` seeded from the decision's own seed, never
   the match's dice for this step, so the AI cannot foresee its real rolls. Every playout
   number `n` uses the same dice for every candidate (common random numbers), so candidates
   are compared on the same luck.

Depositing raided gems is never searched: under these rules the raided pool pays for any
active card's move directly, so a deposit only moves gems where a raid can take them.

Budgets are counted in playouts, not seconds, so a decision never depends on how busy the
machine is, and the same position, seed and step always give the same answer.
"""

import hashlib
from dataclasses import dataclass

from ... import Dice
from .. import match
from ..fighters import stat
from ..state import MatchState, possessor
from ..statuses import backfire_chance, proc_chance
from .evaluation import win_chance

# Entered d100 values that force each way an A2/A3 roll can go. A roll lands when it is at most
# the chance (statuses.roll_against): 1 always lands (every chance is at least 1%), 100 never
# does (no chance reaches 100%).
BACKFIRE, STATUS_LANDS, NOTHING_LANDS = [1], [100, 1], [100, 100]
PLAYOUT_PLIES = 12
"""A playout stops after this many moves even if the other side's possession has not ended."""


def odds(chance: int) -> float:
    """The chance that a d100 shows at most `chance` (tenths of a percent): statuses.roll_against."""
    return min(100, chance // 10) / 100


@dataclass(frozen=True)
class Branch:
    """One way a move's rolls can go."""

    probability: float
    """How likely this way is (the branches of a move add up to 1)."""
    state: MatchState
    """The match after the move, this way."""
    events: list
    """What the engine said happened."""


def roll_ways(state: MatchState, action: dict) -> list[tuple[float, list[int] | None]]:
    """Each way `action`'s rolls can go that can happen: (its chance, the d100 values forcing it; None
    when nothing is rolled)."""
    if action["type"] not in ("a2", "a3") or state["cards"][action["card"]]["inflicts"] == "none":
        return [(1.0, None)]
    card = state["cards"][action["card"]]
    backfire = odds(backfire_chance(card["tier"], stat(card, "spc")))
    lands = (1 - backfire) * odds(proc_chance(action["type"], card["tier"]))
    return [(probability, rolls) for probability, rolls in
            ((1 - backfire - lands, NOTHING_LANDS), (lands, STATUS_LANDS), (backfire, BACKFIRE)) if probability > 0]


def forcing(rolls: list[int] | None) -> Dice:
    """Dice that make a way of `roll_ways` happen (none rolled: any dice)."""
    return Dice("", 0) if rolls is None else Dice("", 0, rolls)


def branches(state: MatchState, action: dict) -> list[Branch]:
    """Every way `action`'s rolls can go, most likely first (one branch when nothing is rolled)."""
    found = [Branch(probability, *match.apply(state, action, forcing(rolls))) for probability, rolls in roll_ways(state, action)]
    return sorted(found, key=lambda branch: -branch.probability)


def play_likeliest(state: MatchState, action: dict) -> None:
    """Make `action` on `state` itself (match.apply_here: a state of the caller's own), its rolls going
    their likeliest way, as `branches(...)[0].state` has it: one move instead of one a way (max, like
    the stable sort, keeps the first of equals)."""
    _probability, rolls = max(roll_ways(state, action), key=lambda way: way[0])
    match.apply_here(state, action, forcing(rolls))


def expected(found: list[Branch], seat: int, steady: bool = True) -> float:
    return sum(branch.probability * win_chance(branch.state, seat, steady=steady) for branch in found)


def searched_moves(state: MatchState) -> list[dict]:
    """The legal moves worth searching: all of them except deposits."""
    return [action for action in match.legal_actions(state) if action["type"] != "deposit"]


QUICK_MOVES = ("a1", "a2", "a3", "stack", "revive")
"""The moves a playout (or the tree's play-on) makes: SPC and Shift are left to the full search."""


def first_to_move(state: MatchState) -> str | None:
    """The active card of the side in possession that moves next (slot order), None if all have moved."""
    return next((card_id for card_id in state["teams"][possessor(state)]["active"]
                 if card_id and card_id not in state["done"]), None)


def quick_move(state: MatchState, steady: bool = True) -> dict:
    """The playouts' choice: the first card still to move picks, one move deep, its best attack,
    STACK or REVIVE for its side."""
    seat, mover = possessor(state), first_to_move(state)
    options = [action for action in (match.legal_actions(state, mover) if mover else []) if action["type"] in QUICK_MOVES]
    return max(options, key=lambda action: expected(branches(state, action), seat, steady))


def playout(state: MatchState, seat: int, seed: str, steady: bool = True) -> float:
    """Play on with `quick_move` until `seat` next has possession after the other side's, then
    estimate `seat`'s chance to win from there."""
    other_moved = state["possession"] != seat
    for ply in range(PLAYOUT_PLIES):
        if state["winner"] is not None or (other_moved and state["possession"] == seat):
            break
        state, _events = match.apply(state, quick_move(state, steady), Dice(seed, ply))
        other_moved = other_moved or state["possession"] != seat
    return win_chance(state, seat, steady=steady)


@dataclass(frozen=True)
class Effort:
    """How hard a search looks."""

    finalists: int
    """How many of the best moves one move deep go on to playouts."""
    playouts: int
    """Playouts shared among the finalists (0: the one-move look decides alone)."""
    raids: bool = True
    """Whether the one-move look counts the gems the other side could raid next (evaluation.race)."""
    steady: bool = True
    """Whether the race's average foe is the whole faction (evaluation.race); hard-2026 keeps the old one."""


class Candidate:
    """A move under consideration and what the search has learned of it."""

    def __init__(self, state: MatchState, action: dict, seat: int, raids: bool = True, steady: bool = True) -> None:
        self.action = action
        self.branches = branches(state, action)
        self.estimates = [win_chance(branch.state, seat, raids, steady) for branch in self.branches]
        """Each branch's one-move estimate."""
        self.shallow = sum(branch.probability * estimate for branch, estimate in zip(self.branches, self.estimates, strict=True))
        """The chance to win one move deep, the rolls weighed exactly."""
        self.results: list[list[float]] = [[] for _ in self.branches]
        """Playout values per branch."""

    @property
    def value(self) -> float:
        """The chance to win after this move: each branch's playout mean (its one-move estimate
        while it has no playout), weighed by the branch's chance."""
        return sum(branch.probability * (sum(values) / len(values) if values else estimate)
                   for branch, estimate, values in zip(self.branches, self.estimates, self.results, strict=True))


def playout_seed(seed: str, step: int) -> str:
    """The seed of a decision's playout dice: from the match seed and step, but not the match's dice."""
    return hashlib.sha256(f"{seed}|cardmaster-ai|{step}".encode()).hexdigest()[:16]


def search(state: MatchState, seat: int, effort: Effort, seed: str, step: int,
           include: dict | None = None) -> list[Candidate]:
    """Every searched move, best first, with its estimated chance to win for `seat`.

    `include` is a move that must reach the playouts whatever its one-move score (analysis
    uses it for the move actually played).
    """
    actions = searched_moves(state)
    if include is not None and include not in actions:
        actions.append(include)
    candidates = [Candidate(state, action, seat, effort.raids, effort.steady) for action in actions]
    order = sorted(range(len(candidates)), key=lambda n: -candidates[n].shallow)
    ranked = [candidates[n] for n in order]
    if not effort.playouts or len(ranked) == 1:
        return ranked
    finalists = ranked[:effort.finalists]
    if include is not None:
        played = next(c for c in ranked if c.action == include)
        if played not in finalists:
            finalists = [*finalists[:-1], played] if len(finalists) == effort.finalists else [*finalists, played]
    base = playout_seed(seed, step)
    survivors, rounds = list(finalists), max(1, (len(finalists) - 1).bit_length())
    sample = 0
    for _round in range(rounds):
        each = max(1, effort.playouts // (len(survivors) * rounds))
        for n in range(sample, sample + each):
            for candidate in survivors:
                which = n % len(candidate.branches)
                candidate.results[which].append(
                    playout(candidate.branches[which].state, seat, f"{base}|{n}", effort.steady))
        sample += each
        survivors.sort(key=lambda c: -c.value)
        if len(survivors) > 1:
            survivors = survivors[:max(1, (len(survivors) + 1) // 2)]
    best = survivors[0]
    rest = sorted((c for c in finalists if c is not best), key=lambda c: -c.value)
    others = [c for c in ranked if c not in finalists]
    return [best, *rest, *others]
