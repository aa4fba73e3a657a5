"""The benchmark goals, the figures of one run, and how they are printed and written down."""

import os
import platform
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import django
from django.db import connection

from .propagation import ACTION_EVERY, QUIET_FLOOR, RUSH
from .propagation import Result as Live
from .wire import Poll, Wire

FLOOR = "floor: minimal view (GET /healthz)"
ACTION = "apply one action + render its partial (htmx)"
EARLY, LATE = "long match: action 10 (htmx)", "long match: the last action (htmx)"
EARLY_UNDO, LATE_UNDO = "long match: undo at step 10 (htmx)", "long match: undo at the last step (htmx)"
EARLY_REDO, LATE_REDO = "long match: undo + redo at step 10 (2 POSTs)", "long match: undo + redo at the last step"
HTMX_SHARE, PACED_P95 = 0.25, 0.250  # htmx actions/s to the floor's requests/s; p95 seconds, paced
README_START, README_END = "<!-- benchmark table: start -->", "<!-- benchmark table: end -->"


@dataclass
class LoadFigures:
    actions: int
    seconds: float
    floor: float
    """GET /healthz per second from as many clients, on the same server, before the load."""
    ok: bool
    tables: int
    workers: int
    requests: int = 0
    """Every request the server answered during the load (pages, polls, POSTs, doubles)."""
    mode: str = ""
    """What the phones were like (loadtest.Report.mode)."""
    pace: float = 0.0
    """Seconds a player thought before each tap, on average (0: tapping as fast as answered)."""
    p50: float = 0.0
    p95: float = 0.0
    """Seconds an action POST took, median and 95th percentile."""
    cpu_ratio: float = 0.0
    """Actions per floor request by gunicorn's own CPU time (loadtest.Report.cpu_ratio); 0 when not measured."""
    ai_replies: int = 0
    """Taps of the Showdown phone answered with the hard AI's possession (0: no Showdown beside the tables)."""
    ai_moves: int = 0
    ai_times: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    """A reply's median and slowest seconds, an AI move's median and slowest (loadtest.Report.ai_times)."""

    @property
    def rate(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0

    @property
    def ratio(self) -> float:
        return self.rate / self.floor if self.floor else 0.0


@dataclass
class Results:
    times: dict[str, float] = field(default_factory=dict)
    queries: dict[str, list[int]] = field(default_factory=dict)
    sizes: tuple[str, str] = ("", "")
    cold: dict[str, Wire] = field(default_factory=dict)
    """Cold loads of match pages, by page."""
    cold_gzip_only: Wire | None = None
    """The largest cold load again, for a browser without Brotli."""
    repeat: Wire | None = None
    """The largest page again, with the service worker's cache."""
    install: Wire | None = None
    """Installing the service worker after the largest cold load."""
    poll: Poll | None = None
    change_queries: dict[str, list[str]] = field(default_factory=dict)
    """The SQL of one htmx action and one htmx undo, by name (transaction control left out)."""
    load: LoadFigures | None = None
    """Phones without JavaScript, tapping as fast as answered."""
    load_htmx: LoadFigures | None = None
    """htmx phones (one POST a tap, the 2 s poll), tapping as fast as answered: throughput."""
    load_paced: LoadFigures | None = None
    """htmx phones, each player tapping every few seconds as at a table: latency."""
    load_showdown: LoadFigures | None = None
    """The same, with a phone playing the hard AI beside them: the AI's reply under load."""
    live: Live | None = None
    """Two phones a table, one tapping, the other following through its stream (perf/propagation.py)."""
    long: int = 0
    rounds: int = 0
    load_averages: list[tuple[float, float, float]] = field(default_factory=list)
    started: float = 0.0

    def ratio(self, name: str, to: str = FLOOR) -> float:
        return self.times[name] / self.times[to]

    def wire(self) -> tuple[Poll, Wire, Wire, Wire]:
        """The live-update poll, the repeat visit, the worker's install and the gzip-only cold load."""
        if self.poll is None or self.repeat is None or self.install is None or self.cold_gzip_only is None:
            raise ValueError("the run measured no bytes over the wire")
        return self.poll, self.repeat, self.install, self.cold_gzip_only

    @property
    def heaviest(self) -> tuple[str, Wire]:
        return max(self.cold.items(), key=lambda item: item[1].total)


@dataclass
class Goal:
    what: str
    figure: str
    goal: str
    met: bool | None  # None: not measured in this run


def change_reads(sql: list[str]) -> dict[str, int]:
    """How a change touches the database: match rows read and written, MAX() over the log, EXISTS probes."""
    return {
        "match reads": sum(q.startswith("SELECT") and 'FROM "tracker_match"' in q for q in sql),
        "match writes": sum(q.startswith("UPDATE \"tracker_match\"") for q in sql),
        "MAX over the log": sum("MAX(" in q for q in sql),
        "exists probes": sum(q.startswith("SELECT 1 AS") for q in sql),
    }


def _change_goal(results: Results) -> Goal:
    counts = {name: change_reads(sql) for name, sql in results.change_queries.items()}
    met = all(c["match reads"] <= 1 and c["match writes"] == 1 and not c["MAX over the log"]
              and not c["exists probes"] for c in counts.values())
    figure = "; ".join(f"{name} {len(results.change_queries[name])} (match read {c['match reads']}, "
                       f"written {c['match writes']})" for name, c in counts.items())
    return Goal("1. queries of one change, transaction control left out", figure,
                "the match read and written once; no MAX or can-redo query", met)


def goals(results: Results) -> list[Goal]:
    action = results.ratio(ACTION)
    late = results.ratio(LATE, EARLY)
    undo = results.ratio(LATE_UNDO, EARLY_UNDO)
    redo = results.ratio(LATE_REDO, EARLY_REDO)
    grown = [name for name, (small, large) in results.queries.items() if large > small]
    polled, repeat, _install, _gzip_only = results.wire()
    poll = polled.response.total
    page, heaviest = results.heaviest
    load, htmx, paced = results.load, results.load_htmx, results.load_paced
    return [
        Goal("1. apply one action and render its partial, to the minimal view", f"{action:.1f}x",
             "at most 4x", action <= 4),
        _change_goal(results),
        Goal("2. actions/s under the load test, to the minimal view's requests/s",
             f"{load.ratio:.2f} ({load.rate:.1f} / {load.floor:.0f})" if load else "not run (--load)",
             "at least 0.5", load.ratio >= 0.5 if load else None),
        Goal("2. the same with htmx phones (one POST a tap, the 2 s poll)",
             f"{htmx.ratio:.2f} ({htmx.rate:.1f} / {htmx.floor:.0f}); by gunicorn's CPU time {htmx.cpu_ratio:.2f}"
             if htmx else "not run (--load)",
             f"at least {HTMX_SHARE}", htmx.ratio >= HTMX_SHARE if htmx else None),
        Goal(f"2. p95 of an action POST, {paced.tables if paced else 50} htmx phones each tapping about every "
             f"{paced.pace if paced else 3:g} s", f"{paced.p95 * 1000:.0f} ms (p50 {paced.p50 * 1000:.0f})" if paced else "not run (--load)",
             f"under {PACED_P95 * 1000:.0f} ms", paced.p95 < PACED_P95 if paced else None),
        _ai_goal(results.load_showdown),
        Goal(f"3. action {results.long} of a long match, to action 10", f"{late:.2f}x", "at most 1.2x",
             late <= 1.2),
        Goal(f"3. undo at step {results.long} of a long match, to undo at step 10", f"{undo:.2f}x",
             "at most 1.5x", undo <= 1.5),
        Goal(f"3. undo + redo at step {results.long}, to the same at step 10", f"{redo:.2f}x",
             "at most 1.5x", redo <= 1.5),
        Goal(f"4. cold load of a match page, compressed, everything it links (largest: {page})",
             f"{heaviest.total:,} bytes ({heaviest.padding} of them random padding)", "under 30 KB (30,000 bytes)",
             heaviest.total < 30_000),
        Goal("4. repeat visit of that page with the service worker's cache", f"{repeat.total:,} bytes",
             "under 8 KB (8,000 bytes)", repeat.total < 8_000),
        Goal("4. live-update check, nothing changed (response, headers included)", f"{poll} bytes",
             "under 300 bytes", poll < 300),
        Goal("5. queries per page, small and large data",
             "grow: " + ", ".join(grown) if grown else "none grows", "none grows", not grown),
        *_live_goals(results.live),
    ]


def _ai_goal(load: LoadFigures | None) -> Goal:
    what = "2. the hard AI's reply in a Showdown beside the paced htmx phones, per AI move"
    if load is None:
        return Goal(what, "not run (--load)", "median under 0.5 s, slowest under 2 s", None)
    reply, slowest, move, slowest_move = load.ai_times
    return Goal(what, f"median {move:.2f} s, slowest {slowest_move:.2f} s ({load.ai_moves} moves in "
                      f"{load.ai_replies} replies; a reply {reply:.2f} s median, {slowest:.2f} s slowest)",
                "median under 0.5 s, slowest under 2 s",
                bool(load.ai_replies) and move < 0.5 and slowest_move < 2)


def _live_goals(live: Live | None) -> list[Goal]:
    if live is None:
        return [Goal("6. live tables", "not run (--live)", "see perf/propagation.py", None)]
    p50, p95 = live.percentile(0.5) * 1000, live.percentile(0.95) * 1000
    idle = live.idle_requests / live.idle_minutes if live.idle_minutes else float("nan")
    stream, poll = (live.tables_per_core(live.idle_stream_cpu, live.quiet),
                    live.tables_per_core(live.idle_poll_cpu, live.quiet))
    return [
        Goal(f"6. propagation, POST answered to the other phone showing it, {live.tables} tables tapping every "
             f"{ACTION_EVERY:g} s, {live.servers} app server(s), {live.database}",
             f"p95 {p95:.0f} ms (p50 {p50:.0f}; {live.lost} not shown 1 s after the last tap; in a rush of a tap "
             f"every {RUSH:g} s a table: p95 {live.percentile(0.95, rush=True) * 1000:.0f} ms)",
             "p95 under 250 ms", p95 < 250 and not live.lost),
        Goal("6. idle cost: requests a minute from a phone looking at an unchanged match", f"{idle:.1f}",
             "0 (the poll: 30)", idle == 0),
        Goal(f"6. tables per core at half load, one action every {ACTION_EVERY:g} s (server CPU as on a quiet "
             f"machine, by a fixed Python workload timed in the run)", f"{stream:,.0f} "
             f"(with the 2 s poll, as on main: {poll:,.0f}; in floor requests at "
             f"{QUIET_FLOOR * 1000:.2f} ms each, the older scale: "
             f"{live.tables_per_core(live.idle_stream_cpu, live.at_quiet_floor):,.0f}; were an action with its part "
             f"as cheap as one served GET /healthz: {live.ceiling:,.0f})", "at least 1,000",
             stream >= 1000),
    ]


def load_average() -> tuple[float, float, float]:
    return os.getloadavg()


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        names = [line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                 if line.startswith("model name")]
        cpu = names[0] if names else cpu
        memory = next(int(line.split()[1]) for line in Path("/proc/meminfo").read_text().splitlines()
                      if line.startswith("MemTotal"))
        ram = f", {memory / 2**20:.0f} GB RAM"
    except (OSError, StopIteration, IndexError):
        ram = ""
    return (f"{os.cpu_count()} CPUs ({cpu}){ram}; {platform.system()} {platform.release()}; "
            f"Python {platform.python_version()}, Django {django.get_version()}, {connection.vendor}")


def _times(results: Results) -> list[str]:
    lines = [f"{results.rounds} requests each, taken in turn, median CPU time per request, "
             "ratio to the floor:"]
    for name, seconds in results.times.items():
        lines.append(f"  {name:<46} {seconds * 1000:8.2f} ms  x{seconds / results.times[FLOOR]:5.1f}")
    return lines


def lines(results: Results) -> list[str]:
    out = _times(results)
    out.append(f"Long match (Lonely Star, {results.long} plain D6 rolls): the last action costs "
               f"{results.ratio(LATE, EARLY):.2f}x action 10; undo at step {results.long} costs "
               f"{results.ratio(LATE_UNDO, EARLY_UNDO):.2f}x undo at step 10, and undo + redo "
               f"{results.ratio(LATE_REDO, EARLY_REDO):.2f}x (both start from the checkpoint below the step).")
    for name, sql in results.change_queries.items():
        touched = ", ".join(f"{what} {n}" for what, n in change_reads(sql).items())
        out.append(f"Queries of one change, {name}: {len(sql)} ({touched}), plus BEGIN and COMMIT:")
        out += [f"  {query[:110]}" for query in sql]
    out.append("Bytes over the wire as serve's stack sends them over HTTP, cold load of each game's match page "
               "(headers + body, compressed as sent):")
    for name, loaded in results.cold.items():
        out.append(f"  {name:<46} {loaded.total:8,} bytes")
    page, heaviest = results.heaviest
    out.append(f"The largest, {page}, request by request (headers + body = bytes):")
    for transfer in heaviest.transfers:
        out.append(f"  {transfer.url:<52} {transfer.head:6} + {transfer.body:6} = {transfer.total:6} bytes")
    out.append(f"  {'total':<52} {heaviest.total:24,} bytes")
    poll, repeat, install, gzip_only = results.wire()
    out.append(f"  (a browser without Brotli, gzip only: {gzip_only.total:,} bytes)")
    out.append(f"Then, once and in the background, the service worker installs: {install.total:,} bytes "
               f"(its script, {len(install.transfers) - 2} files the page did not load, the offline page)")
    parts = " + ".join(f"{transfer.url} {transfer.total:,}" for transfer in repeat.transfers)
    out.append(f"A repeat visit with the service worker's cache (headers + body): {parts} "
               f"= {repeat.total:,} bytes; every static file comes from the worker's cache")
    out.append(f"Live-update check, nothing changed: response {poll.response.total} bytes "
               f"(the request's own part: {poll.request} bytes)")
    out.append(f"Queries per page, {results.sizes[0]} -> {results.sizes[1]}:")
    for name, (small, large) in results.queries.items():
        out.append(f"  {name:<46} {small:4} -> {large:4}{'  GROWS' if large > small else ''}")
    for load in (results.load, results.load_htmx, results.load_paced, results.load_showdown):
        if load is None:
            continue
        out.append(f"Load test, {load.mode}: {load.actions} actions in {load.seconds:.1f} s = "
                   f"{load.rate:.1f} actions/s; floor {load.floor:.0f} requests/s; ratio {load.ratio:.2f} "
                   f"(by gunicorn's CPU time {load.cpu_ratio:.2f}); "
                   f"action POST p50 {load.p50 * 1000:.0f} ms, p95 {load.p95 * 1000:.0f} ms"
                   f"{'' if load.ok else ' (the load test reported FAILURES)'}")
        if load.requests and load.seconds and load.floor:
            # What the server itself sustained under load, whatever the script asks per action.
            served = load.requests / load.seconds
            out.append(f"  the server answered {load.requests} requests ({served:.0f}/s, "
                       f"{load.requests / max(load.actions, 1):.1f} per action): {served / load.floor:.2f} of the floor")
    out.append("Goals:")
    for goal in goals(results):
        met = "not run" if goal.met is None else ("met" if goal.met else "MISSED")
        out.append(f"  {met:<7} {goal.what}: {goal.figure} (goal: {goal.goal})")
    return out


def goals_table(results: Results) -> list[str]:
    rows = ["| benchmark | measured | goal | met |", "|---|---|---|---|"]
    for goal in goals(results):
        met = "not run" if goal.met is None else ("yes" if goal.met else "**no**")
        rows.append(f"| {goal.what} | {goal.figure} | {goal.goal} | {met} |")
    return rows


def command(results: Results) -> str:
    """The benchmark's command line as this run was made (what it added to the in-process part)."""
    flags = [flag for flag, ran in (("--load", results.load), ("--live", results.live)) if ran]
    return " ".join(["python manage.py benchmark", *flags])


def when(results: Results) -> str:
    return datetime.fromtimestamp(results.started, UTC).strftime("%Y-%m-%d %H:%M UTC")


def write_readme_table(results: Results, readme: str, written: str) -> None:
    """Replace the goals table between README's markers with this run's, so README never lags the results file."""
    text = Path(readme).read_text(encoding="utf-8")
    start, end = text.find(README_START), text.find(README_END)
    if start < 0 or end < start:
        raise ValueError(f"{readme} has no {README_START} ... {README_END} section to bring up to date")
    busy = ", ".join(f"{one:.2f}" for one, _five, _fifteen in results.load_averages)
    table = [
        README_START,
        f"Latest run, {when(results)}, `{command(results)}` on "
        f"{machine()}; load average (1 min) during the run: {busy}. Full output in `{written}`.",
        "",
        *goals_table(results),
        "",
    ]
    Path(readme).write_text(text[:start] + "\n".join(table) + text[end:], encoding="utf-8")


def write_markdown(results: Results, path: str) -> None:
    """The whole run as Markdown: when, where, how busy the machine was, every figure."""
    busy = ", ".join(f"{one:.2f}" for one, _five, _fifteen in results.load_averages)
    text = [
        "# Benchmark results",
        "",
        f"`{command(results)}`, {when(results)}.",
        "",
        f"Machine: {machine()}.",
        f"Load average (1 min) at the start, after the in-process part"
        f"{' and after the load test' if results.load else ''}: {busy}.",
        "",
        *goals_table(results),
        "",
        "```",
        *lines(results),
        "```",
        "",
    ]
    Path(path).write_text("\n".join(text), encoding="utf-8")
