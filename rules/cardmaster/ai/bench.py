"""How fast the engine runs for search, and where a search's time goes.

- Random playouts: whole 9v9 matches, both sides picking uniformly among `legal_actions` and
  the engine applying each move with the match's dice, as a search would, counted per second.
- Bookkeeping share: the hard AI's decisions over positions from seeded matches, under
  cProfile. Bookkeeping is what the rules spend on keeping state safe rather than on playing:
  copying the state (match._copy, the one deep copy per apply) and re-checking the action
  (the checks every move makes before it acts: match.phase, moves.mover, moves.card_in_play,
  moves.is_active). The rest is search proper: generating moves, the rules doing the move,
  dice, and evaluating positions.

All times are CPU time of this process (one core).
"""

import cProfile
import json
import pstats
import random
import time
from dataclasses import dataclass

from ... import Dice
from .. import match, moves
from ..state import MatchState, possessor
from .players import choose
from .strength import factions

BOOKKEEPING = {
    "copy": (match._copy,),
    "checks": (match.phase, moves.mover, moves.card_in_play, moves.is_active),
}


@dataclass(frozen=True)
class Bench:
    """What the benchmark measured."""

    playouts_per_second: float
    """Whole random 9v9 matches played out per CPU second."""
    moves_per_second: float
    """Moves applied per CPU second in those playouts (legal_actions, the choice and apply)."""
    decisions: int
    """Hard decisions measured."""
    seconds_per_decision: float
    """Their mean CPU seconds, without the profiler."""
    copy_share: float
    """Share of those seconds spent copying the state, timed directly (no profiler)."""
    profiled_shares: dict
    """cProfile's attribution of the same decisions by bookkeeping kind ("copy", "checks"), 0..1.
    The profiler slows Python calls far more than marshal's C code, so it understates the copy."""
    copy_microseconds: dict
    """One state copy in microseconds: "now" (match._copy) and "json" (the round trip used before)."""


def random_playouts(matches: int, seed: str = "bench") -> tuple[float, float]:
    """(matches per second, moves per second) for whole random 9v9 matches."""
    lineups = factions(9, 6, 0)
    rng = random.Random(seed)
    moves_made = 0
    started = time.process_time()
    for number in range(matches):
        match_seed = f"{seed}-{number}"
        state = match.new_match({"size": 9}, match_seed)
        for seat in (0, 1):
            state, _ = match.apply(state, {"type": "lock_lineup", "seat": seat, "cards": lineups[seat]},
                                   Dice(match_seed, seat + 1))
        step = 2
        while state["winner"] is None:
            step += 1
            state, _ = match.apply(state, rng.choice(match.legal_actions(state)), Dice(match_seed, step))
        moves_made += step - 2
    spent = time.process_time() - started
    return matches / spent, moves_made / spent


def positions(count: int, seed: str = "bench") -> list[tuple[MatchState, int]]:
    """`count` positions (with their step numbers) from a match the normal AI plays against itself."""
    lineups = factions(9, 6, 1)
    state = match.new_match({"size": 9}, seed)
    for seat in (0, 1):
        state, _ = match.apply(state, {"type": "lock_lineup", "seat": seat, "cards": lineups[seat]},
                               Dice(seed, seat + 1))
    found: list[tuple[MatchState, int]] = []
    step = 2
    while state["winner"] is None and len(found) < count:
        step += 1
        found.append((state, step))
        action = choose(state, possessor(state), "normal", seed, step).action
        state, _ = match.apply(state, action, Dice(seed, step))
    return found


def _decide_all(found: list[tuple[MatchState, int]], seed: str) -> None:
    for state, step in found:
        choose(state, possessor(state), "hard", seed, step)


def _clock_cost(rounds: int = 20000) -> float:
    """CPU seconds one reading of the clock takes, to take it out of the copy's timing."""
    started = time.process_time()
    for _ in range(rounds):
        time.process_time()
    return (time.process_time() - started) / rounds


def timed_copy_share(found: list[tuple[MatchState, int]], seed: str) -> tuple[float, float]:
    """(CPU seconds of the hard decisions, share of them spent in match._copy), timed around each copy
    (less the clock readings themselves)."""
    copy, spent, copies = match._copy, [0.0], [0]

    def timed(state: MatchState) -> MatchState:
        started = time.process_time()
        result = copy(state)
        spent[0] += time.process_time() - started
        copies[0] += 1
        return result

    match._copy = timed
    try:
        started = time.process_time()
        _decide_all(found, seed)
        total = time.process_time() - started
    finally:
        match._copy = copy
    clock = _clock_cost()
    return total - 2 * clock * copies[0], max(0.0, spent[0] - clock * copies[0]) / (total - 2 * clock * copies[0])


def profiled_shares(found: list[tuple[MatchState, int]], seed: str) -> dict:
    """cProfile's share of the hard decisions' time per bookkeeping kind."""
    profiler = cProfile.Profile()
    profiler.runcall(_decide_all, found, seed)
    stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]  # documented, not in the stubs
    total = sum(entry[2] for entry in stats.values())  # every function's own time
    shares = {}
    for kind, functions in BOOKKEEPING.items():
        codes = {(f.__code__.co_filename, f.__code__.co_firstlineno, f.__name__) for f in functions}
        # The copy counts with the marshal calls it makes (cumulative time); the checks call one
        # another (mover calls card_in_play), so each counts its own time only.
        column = 3 if kind == "copy" else 2
        shares[kind] = sum(entry[column] for key, entry in stats.items() if key in codes) / total
    return shares


def copy_microseconds(found: list[tuple[MatchState, int]], rounds: int = 20) -> dict:
    states = [state for state, _step in found]
    methods = {"now": match._copy, "json": lambda state: json.loads(json.dumps(state))}
    result = {}
    for name, copy in methods.items():
        started = time.process_time()
        for _ in range(rounds):
            for state in states:
                copy(state)
        result[name] = (time.process_time() - started) / (rounds * len(states)) * 1e6
    return result


def bench(matches: int = 20, count: int = 30, seed: str = "bench") -> Bench:
    per_second, moves_per_second = random_playouts(matches, seed)
    found = positions(count, seed)
    seconds, copy_share = timed_copy_share(found, seed)
    return Bench(per_second, moves_per_second, len(found), seconds / len(found), copy_share,
                 profiled_shares(found, seed), copy_microseconds(found))
