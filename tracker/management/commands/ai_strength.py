"""The strength report: how well the Cardmaster AI plays, measured in seeded matches.

    python manage.py ai_strength                            # the pairings of the goals at 3v3, 6v6 and 9v9
    python manage.py ai_strength --pairs hard:greedy --matches 20 --size 3
    python manage.py ai_strength --pairs hard:greedy --matches 20 --size 3 --first 20   # 20 more seeds
    python manage.py ai_strength --bench                    # engine speed for search instead

Each pairing plays on fixed factions generated at power 5 to 9 in turn (or at --power), the
players swapping seats every other match (rules/cardmaster/ai/strength.py), at each size asked
for; win rates come with 95% Wilson intervals, and decision times are CPU seconds on one core.
Beside them, each level's habits: how many of its moves were a Shift straight back (a cycle:
players.shift_backs) and how often it played the move one of its reasons had promised, when
that move was still there. --workers plays matches in several processes at once (each
decision still runs on one core).
"""

from django.core.management.base import BaseCommand, CommandError

from rules.cardmaster.ai import LEVELS
from rules.cardmaster.ai.bench import bench
from rules.cardmaster.ai.strength import measure, wilson

DEFAULT_PAIRS = "hard:greedy,hard:hard-2026,hard:normal,normal:easy"
# The strength goals: (player, opponent) -> (the lowest win rate that meets it, the lowest bottom
# of its 95% interval), or "significant" (the interval lies above one half).
GOALS: dict[tuple[str, str], tuple[float, float] | str] = {
    ("hard", "greedy"): (0.95, 0.90), ("hard", "random"): (0.98, 0.0), ("hard", "hard-2026"): "significant",
    ("hard", "normal"): "significant", ("normal", "easy"): "significant"}
MEDIAN_MOST, SLOWEST_MOST = 0.5, 2.0
CYCLES_MOST, KEPT_LEAST = 0.02, 0.8


def parse_pairs(text: str) -> list[tuple[str, str]]:
    pairs = []
    for part in text.split(","):
        names = tuple(name.strip() for name in part.split(":"))
        if len(names) != 2 or not set(names) <= set(LEVELS) or names[0] == names[1]:
            raise CommandError(f"{part!r}: give two different players as a:b, each one of {', '.join(LEVELS)}")
        pairs.append(names)
    return pairs


class Command(BaseCommand):
    help = "Play seeded matches between Cardmaster AI levels and baselines; print win rates and decision times."

    def add_arguments(self, parser):
        parser.add_argument("--pairs", default=DEFAULT_PAIRS, help=f"player:opponent,... (default {DEFAULT_PAIRS})")
        parser.add_argument("--matches", type=int, default=100, help="matches per pairing (rounded up to even)")
        parser.add_argument("--first", type=int, default=0,
                            help="number of the first match (even; default 0): extends an earlier run with new seeds")
        parser.add_argument("--size", type=int, choices=(3, 6, 9), action="append",
                            help="cards a side; repeat for several sizes (default 3, 6 and 9)")
        parser.add_argument("--power", type=int, default=None,
                            help="power level of the generated factions (default 5 to 9 in turn)")
        parser.add_argument("--factions", type=int, default=0,
                            help="how many fixed faction pairs to rotate (default: a new pair for every two matches)")
        parser.add_argument("--workers", type=int, default=1, help="processes playing matches at once")
        parser.add_argument("--unequal", action="store_true",
                            help="two different factions a match, not the same faction on both sides")
        parser.add_argument("--bench", action="store_true", help="measure the engine's speed for search instead")

    def handle(self, *args, pairs, matches, first, size, power, factions, workers, bench: bool, unequal: bool, **options):
        if bench:
            return self.bench()
        if matches < 1:
            raise CommandError("--matches must be at least 1")
        if first < 0 or first % 2:
            raise CommandError("--first must be even and not negative: the two matches of a twin share a seed")
        pairs = parse_pairs(pairs)
        powers = f"power {power}" if power else "power 5 to 9 in turn"
        kind = "two different factions a match" if unequal else "both sides the same faction"
        rotation = f"{factions} faction pairs in turn" if factions else "new factions for every two matches"
        numbers = f"; matches {first} to {first + matches + matches % 2 - 1}" if first else ""
        for cards in size or (3, 6, 9):
            report = measure(pairs, matches, size=cards, power=power, faction_pairs=factions or None,
                             workers=workers, progress=self.progress, mirror=not unequal, first=first)
            self.stderr.write("")
            self.stdout.write(f"Cardmaster AI strength: {cards}v{cards}, factions generated at {powers}, {kind}, "
                              f"{rotation}; the players swap seats between the two{numbers}.")
            self.pairings(report)
            self.timings(report)
            self.habits(report)

    def pairings(self, report) -> None:
        for record in report.pairings:
            low, high = record.interval
            line = (f"{record.player} vs {record.opponent}: {record.wins} won, {record.losses} lost, "
                    f"{record.draws} drawn of {record.matches}; win rate {record.rate:.1%} "
                    f"(95% interval {low:.1%} to {high:.1%})")
            goal = GOALS.get((record.player, record.opponent))
            if goal == "significant":
                line += f"; goal: better at 95%: {'met' if record.significant else 'NOT met'}"
            elif isinstance(goal, tuple):
                rate, bottom = goal
                met = record.rate >= rate and low >= bottom
                wanted = f"at least {rate:.0%}" + (f", interval from {bottom:.0%}" if bottom else "")
                line += f"; goal: {wanted}: {'met' if met else 'NOT met'}"
            self.stdout.write(line)

    def timings(self, report) -> None:
        self.stdout.write("Time per decision (CPU seconds, one core):")
        for player in sorted(report.times, key=LEVELS.index):
            count, median, slowest = report.timing(player)
            line = f"  {player}: {count} decisions, median {median:.3f} s, slowest {slowest:.3f} s"
            if player in ("easy", "normal", "hard"):
                met = median < MEDIAN_MOST and slowest < SLOWEST_MOST
                line += f"; goal (median < {MEDIAN_MOST} s, slowest < {SLOWEST_MOST} s): {'met' if met else 'NOT met'}"
            self.stdout.write(line)

    def habits(self, report) -> None:
        self.stdout.write("Habits (moves by kind; Shifts straight back; promised moves played when still possible):")
        for player in sorted(report.habits, key=LEVELS.index):
            habit = report.habits[player]
            moves = habit["moves"] or 1
            kinds = ", ".join(f"{kind.upper()} {habit[kind] / moves:.0%}"
                              for kind in ("a1", "a2", "a3", "stack", "spc", "revive", "shift"))
            cycles = habit["shift_cycles"] / moves
            line = f"  {player}: {habit['moves']} moves ({kinds}); shift cycles {habit['shift_cycles']} ({cycles:.1%})"
            if habit["promises"]:
                low, high = wilson(habit["kept"], habit["promises"])
                line += (f"; promises kept {habit['kept']} of {habit['promises']} "
                         f"({habit['kept'] / habit['promises']:.0%}, 95% interval {low:.0%} to {high:.0%})")
            if player == "hard":
                met = cycles < CYCLES_MOST and (not habit["promises"] or habit["kept"] / habit["promises"] >= KEPT_LEAST)
                line += (f"; goal (cycles < {CYCLES_MOST:.0%}, promises kept >= {KEPT_LEAST:.0%}): "
                         f"{'met' if met else 'NOT met'}")
            self.stdout.write(line)

    def progress(self, done: int, total: int) -> None:
        self.stderr.write(f"\r{done}/{total} matches", ending="")
        self.stderr.flush()

    def bench(self):
        result = bench()
        profiled = result.profiled_shares
        self.stdout.write("Cardmaster engine speed for search (CPU time, one core):")
        self.stdout.write(f"  random playouts: {result.playouts_per_second:.1f} whole 9v9 matches a second "
                          f"({result.moves_per_second:.0f} moves a second)")
        self.stdout.write(f"  hard search over {result.decisions} positions, {result.seconds_per_decision:.3f} s a "
                          f"decision: copying the state takes {result.copy_share:.1%} of it (timed directly)")
        self.stdout.write(f"  cProfile's attribution: copying {profiled['copy']:.1%}, checking moves "
                          f"{profiled['checks']:.1%}; the rest is search proper (move generation, the moves "
                          f"themselves, dice, evaluating positions)")
        self.stdout.write(f"  one state copy: {result.copy_microseconds['now']:.0f} us "
                          f"(a JSON round trip, as before tuning: {result.copy_microseconds['json']:.0f} us)")
