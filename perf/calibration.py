"""How fast this machine runs Python right now, apart from the app: a fixed pure-Python workload, timed.

The live run (perf/propagation.py) measures the servers' own CPU per action, which swings with the machine
(other programs' load, the clock speed, the caches they share) by a factor of several on this shared machine. To
say what a quiet machine would spend, the run's CPU times are scaled by how much slower than on a quiet machine
this workload ran in the same run. The workload is the app's kind of work (calls, attribute and dict lookups,
small objects, strings, a regular expression, JSON) but none of the app's code, so a change that makes the app's
requests cheaper, whatever part of them, does not move the scale (GET /healthz did: docs/performance.md).
"""

import json
import re
import statistics
import time

QUIET = 0.0101
"""CPU seconds of `workload()` on a quiet machine: the machine of QUIET_FLOOR (perf/propagation.py), where GET
/healthz took 0.57 ms in-process. Measured as this workload's time and that floor's in turn in one process
(2026-12-01, docs/performance.md: 18 times the floor), so both scales agree on what a quiet machine is."""

_WORD = re.compile(r"[a-z]+(\d+)")


class _Seat:
    __slots__ = ("name", "score", "cards")

    def __init__(self, name: str, score: int) -> None:
        self.name, self.score = name, score
        self.cards: list[tuple[int, str]] = []


def workload() -> int:
    """A fixed amount of plain Python work (about 10 ms of CPU on a quiet machine); returns a checksum."""
    total = 0
    for round_ in range(120):
        seats = [_Seat(f"seat{n}", n * round_) for n in range(12)]
        by_name = {seat.name: seat for seat in seats}
        for n in range(40):
            seat = by_name[f"seat{n % 12}"]
            seat.cards.append((n, f"card-{n}"))
            seat.score += len(seat.cards)
        drawn = "".join(f'<li id="{seat.name}" data-score="{seat.score}">{len(seat.cards)}</li>' for seat in seats)
        total += sum(int(found.group(1)) for found in _WORD.finditer(drawn))
        state = json.loads(json.dumps({seat.name: [seat.score, [c for c, _ in seat.cards]] for seat in seats}))
        total += sorted(state.values(), key=lambda value: (-value[0], len(value[1])))[0][0]
    return total


def seconds(repeats: int = 5) -> list[float]:
    """The workload's CPU seconds, `repeats` times: this thread's own CPU time, so the benchmark's other
    threads (its phones) are not counted, and the moments other programs had the CPU are left out."""
    samples = []
    for _ in range(repeats):
        start = time.thread_time()
        workload()
        samples.append(time.thread_time() - start)
    return samples


def slowdown(samples: list[float]) -> float:
    """How many times slower than on a quiet machine the workload ran (the median of `samples`); 1.0 for none."""
    return statistics.median(samples) / QUIET if samples else 1.0
