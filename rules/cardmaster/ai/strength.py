"""How strong each player is, measured: many seeded matches between two players on fixed factions.

Every pair of players meets on the same factions, generated at one power from fixed seeds
(faction.generate_faction) and lined up by faction.lineup_order: by default both sides play the
same faction (mirror matches, see `factions`), else two different ones. Matches come in twos with
the same factions and the same match seed, the players swapping seats (and so factions), so neither
a seat, a faction nor a seed favours one player; each two matches get their own factions unless
told to rotate a few. A match that runs past MAX_STEPS is a draw and counts half a win to each.

Win rates come with a 95% Wilson interval; the time per decision is CPU time of this process
(time.process_time), the one core a decision runs on, unaffected by other programs sharing
the machine.
"""

import statistics
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from math import sqrt

from ... import Dice
from .. import match
from ..state import MatchState, possessor
from .faction import generate_faction, lineup_order
from .players import Step, choose, pending_promises, shift_backs

RECENT = 12
"""Steps of the match each decision is shown (players.choose's `recent`)."""
POWERS = (5, 6, 7, 8, 9)
"""The power levels the faction pairs go through in turn when no single power is asked for."""

MAX_STEPS = 3000
Z95 = 1.959964


def wilson(wins: float, matches: int, z: float = Z95) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate (wins may include halves for draws)."""
    if not matches:
        return 0.0, 1.0
    rate = wins / matches
    centre = (rate + z * z / (2 * matches)) / (1 + z * z / matches)
    half = z * sqrt(rate * (1 - rate) / matches + z * z / (4 * matches * matches)) / (1 + z * z / matches)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class Played:
    """One match between two players."""

    seats: tuple[str, str]
    """The player at seat 0 and at seat 1."""
    winner: int | None
    """The winning seat, or None for a draw (MAX_STEPS reached)."""
    steps: int
    """Actions applied, lineups included."""
    times: dict
    """Player -> CPU seconds of each of its decisions."""
    habits: dict = field(default_factory=dict)
    """Player -> Counter of its moves by kind ("a1", "shift", ...) and of "moves", "shift_cycles"
    (a Shift that undid one of its own within its last two possessions with nothing changed:
    players.shift_backs), "promises" (a move its reasons promised, still possible when the card
    moved) and "kept" (the promised move played)."""


def factions(size: int, power: int | None, pair: int, mirror: bool = True) -> tuple[list[dict], list[dict]]:
    """Faction pair number `pair` at `power` (None: POWERS in turn by pair number).

    Mirrored (the default), both sides get the same generated faction in the same order: two factions
    generated at one power are rarely even (the greedy player against itself won 3v3 pairs 8 times of 8,
    or 0 of 8, over eight dice seeds, on 11 pairs of 12), so on them the faction decides and a win rate
    measures the generator more than the player; on mirrored factions the same test is about even.
    Otherwise two different fixed factions, each lined up against the other."""
    power = POWERS[pair % len(POWERS)] if power is None else power
    first = generate_faction(power, f"strength-{pair}-a", size)
    if mirror:
        lined_up = lineup_order(first, first)
        return lined_up, [dict(card) for card in lined_up]
    second = generate_faction(power, f"strength-{pair}-b", size, avoid=tuple(card["name"] for card in first))
    return lineup_order(first, second), lineup_order(second, first)


def locked_in(lineups: tuple[list[dict], list[dict]], seed: str) -> MatchState:
    """A new match with both lineups locked in, as steps 1 and 2."""
    state = match.new_match({"size": len(lineups[0])}, seed)
    for seat in (0, 1):
        state, _events = match.apply(state, {"type": "lock_lineup", "seat": seat, "cards": lineups[seat]},
                                     Dice(seed, seat + 1))
    return state


def play(seats: tuple[str, str], lineups: tuple[list[dict], list[dict]], seed: str) -> Played:
    """A whole match, each seat's moves chosen by its player, who is shown the recent steps."""
    state, step = locked_in(lineups, seed), 2
    times: dict[str, list[float]] = {player: [] for player in seats}
    habits: dict[str, Counter] = {player: Counter() for player in seats}
    recent: list[Step] = []
    while state["winner"] is None and step < MAX_STEPS:
        step += 1
        seat = possessor(state)
        started = time.process_time()
        decision = choose(state, seat, seats[seat], seed, step, recent)
        times[seats[seat]].append(time.process_time() - started)
        _count(habits[seats[seat]], state, seat, decision.action, recent)
        action = {**decision.action, "ai": {"reason": decision.reason.as_json()}}
        recent = [*recent[-RECENT + 1:], (state, action)]
        state, _events = match.apply(state, decision.action, Dice(seed, step))
    return Played(seats, state["winner"], step, times, habits)


def _count(habit: Counter, state: MatchState, seat: int, action: dict, recent: list) -> None:
    kind = action["type"]
    if kind == "deposit":
        return
    habit["moves"] += 1
    habit[kind] += 1
    if kind == "shift" and (action["card"], action["reserve"]) in shift_backs(state, seat, recent):
        habit["shift_cycles"] += 1
    promise = next((promise for promise in pending_promises(state, seat, recent)
                    if promise["card"] == action["card"]), None)
    if promise is not None and promise in match.legal_actions(state):
        habit["promises"] += 1
        habit["kept"] += action == promise


@dataclass
class Pairing:
    """The record of one player against another."""

    player: str
    opponent: str
    matches: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def score(self) -> float:
        return self.wins + self.draws / 2

    @property
    def rate(self) -> float:
        return self.score / self.matches if self.matches else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.score, self.matches)

    @property
    def significant(self) -> bool:
        """Whether `player` is better at 95%: the interval lies above one half."""
        return self.interval[0] > 0.5


@dataclass
class Report:
    pairings: list[Pairing]
    times: dict = field(default_factory=dict)
    """Player -> CPU seconds of every decision it made, over all matches."""
    habits: dict = field(default_factory=dict)
    """Player -> Counter of its moves over all matches (Played.habits)."""
    size: int = 9
    power: int | None = None

    def timing(self, player: str) -> tuple[int, float, float]:
        """(decisions, median seconds, slowest seconds)."""
        spent = self.times.get(player) or [0.0]
        return len(self.times.get(player, [])), statistics.median(spent), max(spent)


def _one(job: tuple) -> Played:
    _pair, seats, size, power, faction_pair, seed, mirror = job
    return play(seats, factions(size, power, faction_pair, mirror), seed)


def measure(pairs: list[tuple[str, str]], matches: int, size: int = 9, power: int | None = None,
            faction_pairs: int | None = None, workers: int = 1,
            progress: Callable[[int, int], None] | None = None, mirror: bool = True, first: int = 0) -> Report:
    """Play `matches` matches (rounded up to even) for each pair of players and report.

    Match 2k and 2k+1 share faction pair k (k % faction_pairs when given) and their seed; the players
    swap seats. Every pair of players meets on the same factions. A faction pair per two matches
    (the default) keeps one lopsided pair from weighing on the result. `mirror`: see `factions`.
    `workers` > 1 plays matches in that many processes (each decision still runs on one core).
    `first` (even) starts at that match, so a later run adds new seeds to an earlier one's.
    """
    if first < 0 or first % 2:
        raise ValueError("the first match must be even and not negative: twins share a seed")
    jobs = []
    for index, (player, opponent) in enumerate(pairs):
        for number in range(first, first + matches + matches % 2):
            twin = number // 2
            seats = (player, opponent) if number % 2 == 0 else (opponent, player)
            faction_pair = twin % faction_pairs if faction_pairs else twin
            jobs.append((index, seats, size, power, faction_pair, f"strength|{twin}", mirror))
    report = Report([Pairing(*pair) for pair in pairs], size=size, power=power)
    with ProcessPoolExecutor(workers) if workers > 1 else _InProcess() as pool:
        for done, (job, played) in enumerate(zip(jobs, pool.map(_one, jobs), strict=True), start=1):
            record, seats = report.pairings[job[0]], job[1]
            record.matches += 1
            if played.winner is None:
                record.draws += 1
            elif seats[played.winner] == record.player:
                record.wins += 1
            else:
                record.losses += 1
            for player, spent in played.times.items():
                report.times.setdefault(player, []).extend(spent)
                report.habits.setdefault(player, Counter()).update(played.habits[player])
            if progress:
                progress(done, len(jobs))
    return report


class _InProcess:
    """Runs the matches here, one after another, with the pool's interface."""

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        return None

    def map(self, call, jobs):
        return map(call, jobs)
