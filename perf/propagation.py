"""Live tables: how fast one phone's tap reaches the other phone, and what an idle table costs.

`run()` serves the app on `servers` app servers (the production stack, one uvicorn worker each; on
SQLite one server, whose streams share a process) and sets up `tables` tables of two phones. Table n's
first phone (on server n, the owner's, playing Ana) taps a Lonely Star D6 every ACTION_EVERY seconds
through the real htmx form; its second phone, Ben's own, joined to his seat by the link the first one
made (on the next server, so the change crosses servers through PostgreSQL's NOTIFY), holds
the match's stream from its match page as table.js does and, on each event, puts in its `#match` part
that came with it (as table.js does: the parts the tap left alone come as placeholders), fetching it
only when none came. Measured:

- propagation: from the tapping phone's POST returning to the other phone holding the fresh `#match`
  (the event and the part in it), p50 and p95, at a table's pace of one action every ACTION_EVERY s (the
  issue's club table, as for tables per core); then the same at one action every RUSH s a table, five
  times the load, as a rush that no goal is set for (with 50 tables it fills two cores on a quiet
  machine, so it says where the queue starts);
- idle cost: requests a minute from a phone looking at an unchanged match (counted at the servers), and
  the servers' CPU per idle phone: with the stream, then with the 2-second poll it replaces, each over
  what the same servers use with no phone at all (measured before the tables sit down);
- tables per core: tables of two phones, one action every 5 s, that one core serves at half load, from
  the servers' own CPU time per action (the other phone's refresh and the fan-out included) and per idle
  phone-second, once one server's own running cost is taken off the core; the same for the poll (main's
  design), for the side by side. The CPU times are scaled to a quiet machine's by a fixed Python workload
  timed in the same run (perf/calibration.py), by a thread while the rush and the idle phones are measured
  (`Timing`; also between the phases, printed beside); the older scale, the run's GET /healthz taken as a quiet
  machine's in-process floor, is printed beside it (docs/performance.md says why it was replaced).
"""

import contextlib
import http.client
import json
import re
import socket
import statistics
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from tracker.models import Match

from . import calibration, loadtest
from .tables import screen
from .tables.common import match_page, need, start_match
from .tables.forms import read_forms
from .tables.phone import HOST, Dropped, Phone

VERSION = re.compile(r'data-live-version="(\d+)"')
ACTION_EVERY = 5.0  # seconds between a table's actions, for propagation and tables per core (the issue's)
RUSH = 1.0  # ... in the rush that follows: five times the load
ALONE = 10.0  # seconds the servers are watched with no phone at all: their own running cost
QUIET_FLOOR = 0.00057  # CPU seconds of GET /healthz on a quiet machine (docs/performance.md, in-process)
CALIBRATIONS = 5  # times the workload of perf/calibration.py is timed at each of the run's four points
TIMED_EVERY = 0.25  # seconds between the workload's timings during the rush and the idle streams (a thread)


@dataclass
class Result:
    tables: int
    servers: int
    database: str
    propagation: list[float] = field(default_factory=list)  # seconds, one action every ACTION_EVERY s a table
    lost: int = 0  # taps the other phone did not show yet a second after the last tap
    rush: list[float] = field(default_factory=list)  # the same, one action every RUSH s a table
    rush_lost: int = 0
    action_cpu: float = 0.0  # server CPU seconds per action, the other phone's refresh included
    alone_cpu: float = 0.0  # CPU seconds a second the servers use with no phone: their beats, pools, timers
    idle_stream_cpu: float = 0.0  # server CPU seconds per idle phone-second, stream open (alone_cpu taken off)
    idle_poll_cpu: float = 0.0  # the same, polling every 2 s
    idle_requests: int = 0  # requests the servers answered while the streaming phones sat idle
    idle_minutes: float = 0.0  # phone-minutes of that idle window
    floor_cpu: float = 0.0  # server CPU seconds per GET /healthz, the same servers, the same run
    calibration: list[float] = field(default_factory=list)  # CPU seconds of calibration.workload(), this run
    during: list[float] = field(default_factory=list)  # ... timed while the rush and the idle streams were measured

    def idle_per_phone(self, used: float, seconds: float) -> float:
        """CPU seconds per idle phone-second: what the tables' idle phones cost the servers over `seconds` (`used`)
        beyond what the servers use with none (never below nothing: the CPU clock counts in ticks)."""
        return max(0.0, used / seconds - self.alone_cpu) / self.tables

    def percentile(self, share: float, rush: bool = False) -> float:
        ordered = sorted(self.rush if rush else self.propagation)
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")

    def tables_per_core(self, idle_cpu: float, scale: float = 1.0, action_cpu: float | None = None) -> float:
        """Tables one core serves at half load: an action (and the other phone's refresh) every ACTION_EVERY s,
        two phones idle the rest of the time, in the half core a server's own running cost leaves. The run's CPU
        times are multiplied by `scale` first (`quiet` or `at_quiet_floor`; 1.0: as measured); `action_cpu`: an
        action at that cost instead of the run's."""
        action = self.action_cpu if action_cpu is None else action_cpu
        per_second = (action / ACTION_EVERY + 2 * idle_cpu) * scale
        running = self.alone_cpu / self.servers * scale  # a server's own cost, whatever it serves: off the core first
        return max(0.0, 0.5 - running) / per_second if per_second else 0.0

    @property
    def ceiling(self) -> float:
        """Tables per core on a quiet machine were an action, with the other phone's part, to cost no more than one
        GET /healthz served by the same servers in the same run: what the serving stack leaves for any action."""
        return self.tables_per_core(self.idle_stream_cpu, self.quiet, action_cpu=self.floor_cpu)

    @property
    def quiet(self) -> float:
        """The run's CPU times to a quiet machine's: by how much slower than there a fixed Python workload ran
        in this run (perf/calibration.py), whatever the app's own requests cost. Timed during the measured phases
        when it was (`during`), else between them."""
        return 1 / calibration.slowdown(self.during or self.calibration)

    @property
    def at_quiet_floor(self) -> float:
        """The older scale: the run's costs taken in GET /healthz requests served in the same run, each at a quiet
        machine's in-process floor (QUIET_FLOOR). What every request pays, HTTP and ASGI included, was so counted as
        the machine's slowness: a cut in it lowered this figure (docs/performance.md)."""
        return QUIET_FLOOR / self.floor_cpu if self.floor_cpu else 1.0

    def _points(self) -> str:
        """The workload's slowdown at each point of the run it was timed at."""
        points = [self.calibration[n:n + CALIBRATIONS] for n in range(0, len(self.calibration), CALIBRATIONS)]
        between = "between the phases " + ", ".join(f"{calibration.slowdown(point):.2f}" for point in points)
        if not self.during:
            return between
        return (f"timed {len(self.during)} times during the rush and the idle streams; {between}")

    def lines(self) -> list[str]:
        p50, p95 = self.percentile(0.5) * 1000, self.percentile(0.95) * 1000
        rush50, rush95 = self.percentile(0.5, rush=True) * 1000, self.percentile(0.95, rush=True) * 1000
        per_minute = self.idle_requests / self.idle_minutes if self.idle_minutes else float("nan")
        return [
            f"Live tables: {self.tables} tables of two phones on {self.servers} app server(s), {self.database}",
            f"  propagation, POST answered -> other phone shows it, a tap every {ACTION_EVERY:g} s a table: "
            f"p50 {p50:.0f} ms, p95 {p95:.0f} ms (goal p95 < 250 ms) over {len(self.propagation)} taps; "
            f"{self.lost} not shown yet 1 s after the last tap",
            f"  the same in a rush, a tap every {RUSH:g} s a table: p50 {rush50:.0f} ms, p95 {rush95:.0f} ms "
            f"over {len(self.rush)} taps; {self.rush_lost} not shown yet 1 s after the last tap",
            f"  idle cost: {per_minute:.1f} requests a minute per idle phone (goal 0; the poll: 30)",
            f"  server CPU per idle phone-second: stream {self.idle_stream_cpu * 1e6:.0f} µs, "
            f"poll {self.idle_poll_cpu * 1e6:.0f} µs (over the servers' own {self.alone_cpu * 1000:.1f} ms a "
            f"second with no phone); per action with the other phone's refresh {self.action_cpu * 1000:.1f} ms",
            f"  the machine: a fixed Python workload took {1 / self.quiet:.2f} times its "
            f"quiet machine's CPU ({calibration.QUIET * 1000:.1f} ms; {self._points()}); on a quiet machine an "
            f"action with the other phone's refresh would cost {self.action_cpu * self.quiet * 1000:.1f} ms of server "
            f"CPU, an idle phone-second {self.idle_stream_cpu * self.quiet * 1e6:.0f} µs",
            f"  tables per core (one action every {ACTION_EVERY:.0f} s, half load), on a quiet machine: stream "
            f"{self.tables_per_core(self.idle_stream_cpu, self.quiet):,.0f}, poll as on main "
            f"{self.tables_per_core(self.idle_poll_cpu, self.quiet):,.0f} (goal >= 1,000); as measured: "
            f"{self.tables_per_core(self.idle_stream_cpu):,.0f} and {self.tables_per_core(self.idle_poll_cpu):,.0f}; "
            f"were an action with its part as cheap as one served GET /healthz: {self.ceiling:,.0f}",
            f"  (the older scale, in floor requests: GET /healthz cost {self.floor_cpu * 1000:.2f} ms of server CPU "
            f"in this run, {self.action_cpu / self.floor_cpu if self.floor_cpu else 0:.1f} of them an action; at "
            f"{QUIET_FLOOR * 1000:.2f} ms each: stream "
            f"{self.tables_per_core(self.idle_stream_cpu, self.at_quiet_floor):,.0f}, poll "
            f"{self.tables_per_core(self.idle_poll_cpu, self.at_quiet_floor):,.0f})",
        ]


class Watcher(threading.Thread):
    """The other phone: holds the match's stream and shows `#match` on each event, as table.js does.

    When its server goes away, it reconnects to the next of `ports` (as a load balancer would send it)
    with the id of the last event it had (`Last-Event-ID`, as a browser's EventSource does), and
    fetches its pages from there too.
    """

    def __init__(self, phone: Phone, ports: list[int], match: int, version: int):
        super().__init__(daemon=True)
        self.phone, self.ports, self.match, self.version = phone, ports, match, version
        self.seen: dict[int, float] = {}  # version -> when the fresh #match was in hand
        self.sent: list[tuple[int, int]] = []  # (the version the stream was opened from, an event's version)
        self.reconnects = 0
        self.stop = False
        self.connection: http.client.HTTPConnection | None = None

    def run(self) -> None:
        last = self.version
        while not self.stop:
            port = self.ports[self.reconnects % len(self.ports)]
            self.phone.port = port
            with contextlib.suppress(OSError, http.client.HTTPException, ValueError):  # the server went away
                self._follow(port, last)
            if self.stop:
                return
            self.reconnects += 1
            last = max([last] + [version for _since, version in self.sent])
            time.sleep(0.1)

    def _follow(self, port: int, since: int) -> None:
        self.connection = http.client.HTTPConnection(HOST, port, timeout=60)
        cookies = "; ".join(f"{k}={v}" for k, v in self.phone.cookies.items())
        # From the match page (`at`), as its page writes the stream's URL: each change brings this phone's part.
        self.connection.request("GET", f"/matches/{self.match}/events?v={self.version}&at=/matches/{self.match}/",
                                headers={"Cookie": cookies, "Accept": "text/event-stream", "Last-Event-ID": str(since)})
        response = self.connection.getresponse()
        if response.status != 200:
            raise ValueError(f"the stream answered {response.status}")
        kind = ""
        # A version an event announced but a fetch never brought (its server went away): fetch it now,
        # as table.js does on its next tick.
        self._show(max([version for _since, version in self.sent], default=0))
        while not self.stop:
            line = response.fp.readline().decode()
            if not line:
                return  # the server went away
            if line.startswith("event: "):
                kind = line[7:].strip()
            elif line.startswith("data: ") and kind == "change":
                change = json.loads(line[6:])
                self.sent.append((since, change["version"]))
                self._show(change["version"], change.get("part", ""))

    def _show(self, version: int, part: str = "") -> None:
        """Show `version` if it is newer than the one shown: the part pushed with it, as table.js puts it in, else
        fetched (`#match`); a server gone away ends the stream."""
        if version <= self.version:
            return
        screen_now = screen.pushed(self.phone.shown(self.match), part) if part else None
        if screen_now is not None:
            self.phone.show(self.match, screen_now)
        else:
            self.phone.deadline = time.monotonic() + 2  # a refused connection is not retried for long
            try:
                status = self.phone.refresh(self.match)
            except Dropped as gone:
                raise OSError("the server went away") from gone
            if status != 200:
                return
        self.version = version
        self.seen[version] = time.monotonic()

    def close(self) -> None:
        """Leave the stream, as a phone closing its page does: the server sees the connection end at once. (Closing
        the socket alone left it open while the stream's reader held it: the server went on drawing the phone's
        parts, and the poll's idle phones were measured beside fifty open streams.)"""
        self.stop = True
        if self.connection is not None and self.connection.sock is not None:
            with contextlib.suppress(OSError):
                self.connection.sock.shutdown(socket.SHUT_RDWR)
            self.connection.sock.close()


def _join(owner: Phone, other: Phone, match: int) -> str:
    """The other player's own phone takes seat 1 by the join link the owner's phone makes, as at a table of
    two phones; the match page as that phone shows it then. The owner's phone loads its page anew."""
    _status, _location, page = owner.get(f"/matches/{match}/")
    invite = next(form for form in read_forms(page) if form.action == f"/matches/{match}/invites/"
                  and form.value("kind") == "seat" and form.value("seat") == "1")
    owner.act(invite.action, invite.data())
    _status, _location, page = owner.get(f"/matches/{match}/")
    token = re.search(r"/join/([\w-]+)/", page)
    if token is None:
        raise RuntimeError(f"match {match}: no join link was made")
    link = f"/join/{token.group(1)}/"
    _status, _location, page = other.get(link)
    status, _location = other.act(link, next(form for form in read_forms(page) if form.method == "post").data())
    if status != 302:
        raise RuntimeError(f"match {match}: the other phone could not take its seat ({status})")
    owner.show(match, None)
    return other.get(f"/matches/{match}/")[2]


def _seat_tables(tables: int, ports, report: loadtest.Report, lock: threading.Lock,
                 deadline: float) -> tuple[list[tuple[Phone, int]], list[Watcher]]:
    """Each table: a tapping phone with a new Lonely Star match, and the other player's own phone, joined by
    the link, holding the match's stream. `ports(n)` is table n's tapping server and the servers its watcher
    tries, in order."""
    tappers, watchers = [], []
    for n in range(tables):
        tapping, watching = ports(n)
        tapper = Phone(tapping, report, lock, deadline, n, htmx=True)
        tapper.slug = "lonely-star"
        match = start_match(tapper, "lonely-star", n, 0)
        if match is None:
            raise RuntimeError(f"table {n}: no match was made")
        other = Phone(watching[0], report, lock, deadline, n, htmx=True)
        page = _join(tapper, other, match)
        shows = VERSION.search(page)
        if shows is None:
            raise RuntimeError(f"table {n}: the match page shows no version")
        other.show(match, page)
        watcher = Watcher(other, watching, match, int(shows.group(1)))
        watcher.start()
        tappers.append((tapper, match))
        watchers.append(watcher)
    return tappers, watchers


class Timing(threading.Thread):
    """The workload of perf/calibration.py timed every TIMED_EVERY s while a phase is measured, in a thread of its
    own (its own CPU clock): how fast the machine runs Python during the phase rather than between phases, the
    machine's other load and the phones' included. Some 3% of a core."""

    def __init__(self, samples: list[float]):
        super().__init__(daemon=True)
        self.samples, self.done = samples, threading.Event()

    def run(self) -> None:
        while not self.done.wait(TIMED_EVERY):
            self.samples += calibration.seconds(1)

    def __enter__(self) -> "Timing":
        self.start()
        return self

    def __exit__(self, *_exc) -> None:
        self.done.set()
        self.join()


def _all(threads: list[threading.Thread]) -> None:
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def _taps(running: list[loadtest.Server], tappers: list[tuple[Phone, int]], watchers: list[Watcher],
          actions: int, pace: float, lock: threading.Lock) -> tuple[list[float], int, float]:
    """Each table taps every `pace` s (staggered), the other phone following through its stream: the
    propagation of every acknowledged tap (seconds), how many were not shown yet a second after the last,
    and the servers' CPU per action."""
    tables = len(tappers)
    acked: list[tuple[Watcher, int, float]] = []
    cpu = sum(server.cpu() for server in running)

    def tap(number: int) -> None:
        tapper, match = tappers[number]
        time.sleep(pace * number / tables)
        for _ in range(actions):
            page, forms = match_page(tapper, match)
            form = need(forms, "d6")
            status, _location = tapper.act(form.action, form.data(), htmx=True, around=form.parts)
            done = time.monotonic()
            found = VERSION.search(tapper.shown(match) or "")
            if status == 200 and found:
                with lock:
                    acked.append((watchers[number], int(found.group(1)), done))
            time.sleep(pace)

    _all([threading.Thread(target=tap, args=(n,), daemon=True) for n in range(tables)])
    time.sleep(1.0)  # the last events arrive
    action_cpu = (sum(server.cpu() for server in running) - cpu) / max(1, len(acked))
    samples, lost = [], 0
    for watcher, version, done in acked:
        # A newer version shown includes this tap (two taps close together make one fetch).
        seen = min((when for shown, when in watcher.seen.items() if shown >= version), default=None)
        if seen is None:
            lost += 1
        else:
            samples.append(max(0.0, seen - done))
    return samples, lost, action_cpu


def _idle(result: Result, running: list[loadtest.Server], watchers: list[Watcher], report: loadtest.Report,
          idle_seconds: float) -> None:
    """Idle phones: first with their streams open, then polling every 2 s as the pages did before the streams
    (the same phones, no stream)."""
    tables = len(watchers)
    served = report.requests
    cpu = sum(server.cpu() for server in running)
    time.sleep(idle_seconds)
    result.idle_stream_cpu = result.idle_per_phone(sum(server.cpu() for server in running) - cpu, idle_seconds)
    result.idle_requests = report.requests - served
    result.idle_minutes = tables * idle_seconds / 60
    for watcher in watchers:
        watcher.close()

    stop = time.monotonic() + idle_seconds
    cpu = sum(server.cpu() for server in running)

    def poll(number: int) -> None:
        watcher = watchers[number]
        time.sleep(2.0 * number / tables)
        while time.monotonic() < stop:
            watcher.phone.request("GET", f"/matches/{watcher.match}/poll?v={watcher.version}")
            time.sleep(2.0)

    _all([threading.Thread(target=poll, args=(n,), daemon=True) for n in range(tables)])
    result.idle_poll_cpu = result.idle_per_phone(sum(server.cpu() for server in running) - cpu, idle_seconds)



def run(*, tables: int = 50, servers: int = 2, actions: int = 8, idle_seconds: float = 20,
        database_url: str | None = None, base: loadtest.Ready | None = None, say=print) -> Result:
    report = loadtest.Report(tables=tables, workers=1, seconds=600, htmx=True, servers=servers)
    sqlite = not database_url or database_url.startswith("sqlite")
    servers = 1 if sqlite else servers  # SQLite's fan-out is in-process: one server
    result = Result(tables=tables, servers=servers, database="SQLite" if sqlite else "PostgreSQL")
    lock = threading.Lock()
    with loadtest.fresh(database_url, base, "tablekeeper-live-", say) as (folder, _url, env):
        running = [loadtest.Server(env, loadtest.free_port(), 1, Path(folder) / f"server-{n}.log")
                   for n in range(servers)]
        try:
            for server in running:
                server.start()
            result.calibration += calibration.seconds(CALIBRATIONS)  # the machine's speed at four points of the run
            cpu = sum(server.cpu() for server in running)
            floor = loadtest.measure_floor([server.port for server in running], 4, 3)
            result.floor_cpu = (sum(server.cpu() for server in running) - cpu) / (floor * 3)
            time.sleep(2.0)  # the floor's requests finished with, threads and pools settled
            cpu = sum(server.cpu() for server in running)
            time.sleep(ALONE)  # no phone yet: what the servers cost by themselves
            result.alone_cpu = (sum(server.cpu() for server in running) - cpu) / ALONE
            result.calibration += calibration.seconds(CALIBRATIONS)
            def ports(n: int) -> tuple[int, list[int]]:  # tap on server n, follow on the next: crossing servers
                return running[n % servers].port, [running[(n + 1) % servers].port]

            tappers, watchers = _seat_tables(tables, ports, report, lock, time.monotonic() + 600)
            time.sleep(1.0)  # every stream open
            result.propagation, result.lost, _cpu = _taps(running, tappers, watchers, actions, ACTION_EVERY, lock)
            # The servers' CPU per action from the rush: the idle streams' share of it is smallest there, and
            # it is the pace of every run before the table's pace was the goal's.
            with Timing(result.during):
                result.rush, result.rush_lost, result.action_cpu = _taps(running, tappers, watchers, actions, RUSH, lock)
            result.calibration += calibration.seconds(CALIBRATIONS)
            with Timing(result.during):
                _idle(result, running, watchers, report, idle_seconds)
            result.calibration += calibration.seconds(CALIBRATIONS)
        finally:
            for server in running:
                server.stop()
    for line in result.lines():
        say(line)
    say(f"  (propagation samples: min {min(result.propagation, default=0) * 1000:.0f} ms, "
        f"mean {statistics.fmean(result.propagation) * 1000 if result.propagation else 0:.0f} ms)")
    return result


def failover(*, database_url: str, tables: int = 4, taps: int = 12, pace: float = 0.3,
             base: loadtest.Ready | None = None, say=print) -> dict:
    """Two app servers on PostgreSQL; every table taps on the first and follows on the second, which is
    SIGKILLed a third of the way in. Its phones reconnect to the first (Last-Event-ID) and carry on.

    What it returns: `problems` (the load check's: acknowledged taps stored once, every match equal to
    its replay), `behind` (phones whose page is not at the match's version at the end), `repeated`
    (events for a version at or below the one the stream was opened from), `reconnected` phones.
    """
    report = loadtest.Report(tables=tables, workers=1, seconds=300, htmx=True, servers=2)
    lock = threading.Lock()
    with loadtest.fresh(database_url, base, "tablekeeper-failover-", say) as (folder, url, env):
        loadtest.open_database(url)
        first_match = Match.objects.using(loadtest.ALIAS).order_by("-pk").values_list("pk", flat=True).first() or 0
        survivor, victim = (loadtest.Server(env, loadtest.free_port(), 1, Path(folder) / f"server-{n}.log")
                            for n in range(2))
        try:
            survivor.start()
            victim.start()
            deadline = time.monotonic() + 240
            tappers, watchers = _seat_tables(tables, lambda n: (survivor.port, [victim.port, survivor.port]),
                                             report, lock, deadline)
            time.sleep(1.0)
            done = [0]

            def tap(number: int) -> None:
                tapper, match = tappers[number]
                for _ in range(taps):
                    page, forms = match_page(tapper, match)
                    form = need(forms, "d6")
                    drawn = screen.head(page) or form.value("seq") or "0"  # htmx sends #match's step
                    seq = screen.step(drawn)
                    status, _location = tapper.act(form.action, {**form.data(), "seq": [drawn]}, htmx=True,
                                                   around=form.parts)
                    seat = form.value("seat")
                    if status == 200:
                        tapper.acknowledge(match, seq + 1, "d6", int(seat) if seat and seat.isdigit() else None)
                    with lock:
                        done[0] += 1
                    time.sleep(pace)

            threads = [threading.Thread(target=tap, args=(n,), daemon=True) for n in range(tables)]
            for thread in threads:
                thread.start()
            while done[0] < tables * taps // 3:
                time.sleep(0.01)
            say(f"SIGKILL the second app server after {done[0]} taps")
            victim.kill()
            for thread in threads:
                thread.join()
            time.sleep(3.0)  # the reconnected phones catch up
            for watcher in watchers:
                watcher.close()
            versions = dict(Match.objects.using(loadtest.ALIAS).filter(pk__gt=first_match)
                            .values_list("pk", "version"))
            result = {
                "problems": loadtest.verify(first_match, report.acked) + [f"{line}" for line in report.errors],
                "acked": len(report.acked),
                "behind": [(w.match, w.version, versions.get(w.match)) for w in watchers if w.version != versions.get(w.match)],
                "repeated": [(w.match, pair) for w in watchers for pair in w.sent if pair[1] <= pair[0]],
                "reconnected": sum(1 for w in watchers if w.reconnects),
            }
        finally:
            survivor.stop()
            victim.stop()
            loadtest.close_database()
    say(f"Failover: {result}")
    return result
