"""The Cardmaster AI's decisions over a corpus of positions from whole matches, recorded once, to check
that a faster AI still decides exactly as it did and to time it.

    python -m perf.ai_corpus --record           # play the matches, keep every decision (tests/rules/ai_corpus.json.gz)
    python -m perf.ai_corpus --check            # decide every kept position again: the same, byte for byte?
    python -m perf.ai_corpus --time hard        # CPU seconds of the hard level's decisions over the corpus

The matches are seeded AI matches as the strength run plays them (strength.play): every level and both
race variants (hard-2026 and easy judge by the old race), at 3v3, 6v6 and 9v9. A position is kept with
what its decision was made from: the state, the seat, the seed and step, and the recent steps the level
reads (its Shifts and promises). A decision is kept whole (Decision.as_json: the move, the reason with its
parameters and promise, the win chance, the simulations), so the check compares the explanation too.

Run from a tree's root, --time times that tree's AI: run it from two trees in turn to compare them.
"""

import argparse
import gzip
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from rules import Dice
from rules.cardmaster import match
from rules.cardmaster.ai.players import Decision, Step, choose
from rules.cardmaster.ai.strength import RECENT, factions, locked_in
from rules.cardmaster.state import MatchState, possessor

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "rules" / "ai_corpus.json.gz"
MATCHES = [
    # (seat 0, seat 1, size, faction pair, mirrored)
    ("hard", "greedy", 3, 0, True),
    ("normal", "hard", 6, 1, True),
    ("hard", "greedy", 9, 2, False),
    ("normal", "hard", 9, 3, True),
    ("easy", "hard-2026", 6, 4, False),
]
MOST_STEPS = 400


def record(path: Path = CORPUS) -> dict:
    """Play the corpus's matches and keep each one's lineups and every decision, in order."""
    kept = []
    for seats, size, pair, mirror in ((m[:2], m[2], m[3], m[4]) for m in MATCHES):
        lineups = factions(size, None, pair, mirror)
        seed = f"ai-corpus-{pair}"
        decisions = [decision.as_json() for _state, _seat, _step, _recent, decision in
                     _played(seats, lineups, seed, None)]
        kept.append({"seats": list(seats), "seed": seed, "lineups": [list(lineups[0]), list(lineups[1])],
                     "decisions": decisions})
    corpus = {"matches": kept}
    # Gzipped (its 665 decisions repeat the same reasons' templates): some 18 KB instead of 235.
    path.write_bytes(gzip.compress(json.dumps(corpus, separators=(",", ":")).encode(), 9, mtime=0))
    return corpus


def _played(seats, lineups, seed: str, kept: list[dict] | None) -> Iterator[tuple[MatchState, int, int, list[Step], Decision]]:
    """Each position of the match as strength.play goes through it, with the decision made there: its
    player's now when `kept` is None, else the kept one (the match then follows the kept decisions)."""
    state, step = locked_in(lineups, seed), 2
    recent: list[Step] = []
    number = 0
    while state["winner"] is None and step < MOST_STEPS and (kept is None or number < len(kept)):
        step += 1
        seat = possessor(state)
        decision = choose(state, seat, seats[seat], seed, step, recent) if kept is None else \
            Decision.from_json(kept[number])
        number += 1
        yield state, seat, step, recent, decision
        action = {**decision.action, "ai": {"reason": decision.reason.as_json()}}
        recent = [*recent[-RECENT + 1:], (state, action)]
        state, _events = match.apply(state, decision.action, Dice(seed, step))


def positions(corpus: dict, levels: tuple[str, ...] | None = None,
              every: int = 1) -> Iterator[tuple[MatchState, int, str, str, int, list[Step], dict]]:
    """The kept positions (every `every`-th of each level's, of `levels` or all): (state, seat, level, seed,
    step, recent, the decision kept as JSON)."""
    for kept in corpus["matches"]:
        counted: dict[str, int] = {}
        for state, seat, step, recent, decision in _played(kept["seats"], kept["lineups"], kept["seed"],
                                                            kept["decisions"]):
            level = kept["seats"][seat]
            if levels is not None and level not in levels:
                continue
            counted[level] = counted.get(level, 0) + 1
            if (counted[level] - 1) % every == 0:
                yield state, seat, level, kept["seed"], step, recent, decision.as_json()


def load(path: Path = CORPUS) -> dict:
    return json.loads(gzip.decompress(path.read_bytes()))


def differences(corpus: dict, levels: tuple[str, ...] | None = None, every: int = 1) -> tuple[int, list[str]]:
    """(positions decided again, a line for each whose decision is not the kept one)."""
    found, checked = [], 0
    for state, seat, level, seed, step, recent, kept in positions(corpus, levels, every):
        now = json.loads(json.dumps(choose(state, seat, level, seed, step, recent).as_json()))
        checked += 1
        if now != kept:
            found.append(f"{seed} step {step} ({level}): kept {kept}, now {now}")
    return checked, found


def timed(corpus: dict, level: str, every: int = 1) -> list[float]:
    """CPU seconds of each of `level`'s decisions over the corpus (every `every`-th)."""
    spent = []
    for state, seat, _level, seed, step, recent, _kept in positions(corpus, (level,), every):
        started = time.process_time()
        choose(state, seat, level, seed, step, recent)
        spent.append(time.process_time() - started)
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--record", action="store_true")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--time", metavar="LEVEL")
    parser.add_argument("--every", type=int, default=1, help="only every n-th position of each level")
    parser.add_argument("--corpus", default=str(CORPUS))
    options = parser.parse_args()
    if options.record:
        corpus = record(Path(options.corpus))
        print(f"recorded {sum(len(m['decisions']) for m in corpus['matches'])} decisions")
    corpus = load(Path(options.corpus))
    if options.check:
        checked, found = differences(corpus, every=options.every)
        print(f"{checked} decisions, {len(found)} different")
        for line in found[:20]:
            print(line)
        if found:
            sys.exit(1)
    if options.time:
        spent = timed(corpus, options.time, options.every)
        print(f"{options.time}: {len(spent)} decisions, {sum(spent):.3f} s, mean {sum(spent) / len(spent):.4f} s, "
              f"slowest {max(spent):.4f} s")


if __name__ == "__main__":
    main()
