"""A league night on one small server: many tables tapping at once, through the real pages.

`run()` serves the app on loopback with the stack `serve` runs (tracker/web/server.py: gunicorn
and uvicorn workers on the ASGI app; `wsgi=True` for gunicorn's threaded WSGI workers, to compare),
then lets N simulated tables play scripted matches concurrently over HTTP. Table n plays
the games in turn from the n-th of `tables.TABLE_SCRIPTS` (Card Crush, LOGOS,
Cardmaster, Lonely Star, Evons), so five tables cover every game. Each table is one phone
(tables/phone.py: it keeps its cookies), GETs a page, reads its forms and POSTs one
filled in, as a browser would. On purpose every match also sends some forms twice (a
double tap) and some with an old `seq` (a stale page); both must change nothing: refused
with 409, or answered as the step already recorded when it repeats an open tap (tables/common.py).

With `htmx=True` each table is a phone with JavaScript (tables/phone.py): a tap is one htmx
POST answered by the `#match` part, and the open match page polls for changes every 2 s;
`pace` makes each player think about that many seconds before a tap (the poll goes on).
The phones say which kept parts of the match they show (`X-Shown`), as table.js does, so an
answer draws only what changed; `shown=False` leaves that out, to compare.

With `servers=N` (N > 1) there are N gunicorn servers on N loopback ports against the one
database, each with `workers` workers, and table n plays on server n % N, as behind a load
balancer that keeps a phone on one server.

With `crash=True` the whole gunicorn process group of the first server is SIGKILLed in the
middle of the load and started again; tables retry refused connections and carry on from
whatever the server says the match is at now. With `restart="HUP"` the first server's master gets
SIGHUP instead (fresh workers, the old ones finish what they hold), with `restart="TERM"` SIGTERM
(a graceful stop, as a service manager's restart does) and is started again: either way every
acknowledged action must be stored. `restart="TERM HUP"` sends the signals in turn, the load shared
evenly among them (the tests restart both ways in one run).

Afterwards, straight from the database:
- every match's stored state and checkpoints equal its log re-run from the seed
  (`services.replay_problems`);
- its log is one unbroken line of steps 1..head, each step stored once;
- every acknowledged action (a 2xx/3xx answer to an action POST) is at its step, once;
- no answer was a 500 or mentioned "database is locked".
The report also counts, per game, the matches made and finished, the acknowledged actions,
and the doubled and stale submissions refused.

Bounded: a fixed number of matches per table and a deadline; loopback only; gunicorn is
killed at the end whatever happens.
"""

import contextlib
import http.client
import os
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import dj_database_url
from django.conf import settings
from django.db import connections
from django.db.models import Count, Q

from tracker.matches import services
from tracker.models import Action, Match
from tracker.web import server as stack

from .tables import TABLE_SCRIPTS
from .tables import showdown as showdown_script
from .tables.phone import HOST, Ack, Phone

ALIAS = "loadtest"


@dataclass
class Report:
    tables: int
    workers: int
    seconds: float  # the deadline
    htmx: bool = False
    pace: float = 0.0  # seconds a player thinks before a tap, on average
    shown: bool = True  # htmx phones say which kept parts they show (X-Shown), as table.js
    servers: int = 1
    elapsed: float = 0.0
    matches: int = 0
    acked: list[Ack] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)  # action POSTs, seconds
    requests: int = 0  # every request the server answered (pages, polls, POSTs, doubles), for its throughput
    kinds: Counter = field(default_factory=Counter)  # those requests by kind (tables/phone.py)
    answers: Counter = field(default_factory=Counter)  # those requests by kind and status ("htmx POST 200")
    bytes: Counter = field(default_factory=Counter)  # their answers' bodies in all (uncompressed), the same way
    served: Counter = field(default_factory=Counter)  # those requests by the port of the server that answered
    errors: Counter = field(default_factory=Counter)  # what must never happen
    refusals: Counter = field(default_factory=Counter)  # expected 409s and retries
    problems: list[str] = field(default_factory=list)  # what the database check found
    tricks: Counter = field(default_factory=Counter)  # (slug, "double" | "stale"): how many changed nothing
    games: dict[str, dict] = field(default_factory=dict)  # slug -> {"matches": n, "finished": n}, from the db
    crashes: int = 0
    restarts: int = 0  # SIGHUP or SIGTERM sent to the master mid-load
    floor: float = 0.0  # GET /healthz per second from the same clients on the same server, before the load
    client_cpu: float = 0.0  # CPU seconds the tables themselves used (this process), on the server's CPUs
    server_cpu: float = 0.0  # CPU seconds gunicorn used during the load (all servers; a killed one's is lost)
    floor_cpu: float = 0.0  # gunicorn's CPU seconds per floor request
    showdown: int = 0  # phones playing a hard Showdown beside the tables (tables/showdown.py)
    ai_replies: list[tuple[float, int]] = field(default_factory=list)  # (seconds, the AI's moves in it)
    # A failed run's server tracebacks (the servers' logs go with the run's folder): why a 500 was answered.
    server_errors: list[str] = field(default_factory=list)

    @property
    def cpu_ratio(self) -> float:
        """Actions per floor request by the servers' own CPU time: what the ratio would be with the CPUs
        to themselves (0 when not measured, or when a crash lost a server's count)."""
        if not (self.floor_cpu and self.server_cpu and self.acked) or self.crashes:
            return 0.0
        return self.floor_cpu / (self.server_cpu / len(self.acked))

    @property
    def ok(self) -> bool:
        return not self.errors and not self.problems

    @property
    def rate(self) -> float:
        """Acknowledged actions per second."""
        return len(self.acked) / self.elapsed if self.elapsed else 0.0

    @property
    def mode(self) -> str:
        phones = "htmx phones (one POST a tap, the 2 s poll" + ("" if self.shown else ", no X-Shown") + ")" \
            if self.htmx else "phones without JavaScript"
        return (phones + (f", a tap every {self.pace:g} s or so" if self.pace else ", tapping as fast as answered")
                + (f", and {self.showdown} phone(s) against the hard AI" if self.showdown else ""))

    def percentile(self, share: float) -> float:
        if not self.latencies:
            return 0.0
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))]

    def ai_times(self) -> tuple[float, float, float, float]:
        """The Showdown's replies: (a reply's median and slowest seconds, an AI move's median and slowest),
        a move's being its reply's time shared among the moves in it."""
        if not self.ai_replies:
            return 0.0, 0.0, 0.0, 0.0
        replies = [took for took, _moves in self.ai_replies]
        moves = [took / count for took, count in self.ai_replies]
        return statistics.median(replies), max(replies), statistics.median(moves), max(moves)

    def lines(self) -> list[str]:
        rate = self.rate

        def counts(counter: Counter) -> str:
            return ", ".join(f"{kind} {n}" for kind, n in sorted(counter.items())) or "none"

        ms = {share: self.percentile(share) * 1000 for share in (0.5, 0.95, 0.99)}
        unfinished = sum(made["matches"] - made["finished"] for made in self.games.values())
        servers = f"{self.servers} gunicorn servers x {self.workers} workers" if self.servers > 1 else \
            f"{self.workers} gunicorn workers"
        lines = [
            f"{self.tables} tables, {servers}, {self.mode}",
            f"{self.elapsed:.1f} s, {self.matches} matches, {self.crashes} crash(es), "
            f"{self.restarts} graceful restart(s)",
            f"unfinished matches: {unfinished}"
            + (" (the deadline stopped the tables mid-match)" if self.elapsed >= self.seconds else ""),
            f"actions acknowledged: {len(self.acked)}  ({rate:.1f} actions/s)",
            f"floor: GET /healthz at {self.floor:.0f} requests/s from as many clients; "
            f"actions/s to that: {rate / self.floor if self.floor else 0:.2f}",
            f"requests answered: {self.requests} ({self.requests / self.elapsed if self.elapsed else 0:.0f}/s, "
            f"{self.requests / max(len(self.acked), 1):.1f} per action); to the floor: "
            f"{self.requests / self.elapsed / self.floor if self.elapsed and self.floor else 0:.2f}"
            + "; " + ", ".join(f"{kind} {n}" for kind, n in sorted(self.kinds.items())),
            "bytes an answer (uncompressed): "
            + ", ".join(f"{kind} {self.bytes[kind] / n:,.0f}" for kind, n in sorted(self.answers.items())),
            f"the tables' own CPU: {self.client_cpu:.1f} s in {self.elapsed:.1f} s "
            f"({self.client_cpu / self.elapsed if self.elapsed else 0:.2f} of a CPU, taken from the server's)",
            *([f"gunicorn's CPU: {self.floor_cpu * 1000:.2f} ms a floor request, "
               f"{self.server_cpu / len(self.acked) * 1000:.1f} ms an acknowledged action (all its requests); "
               f"actions to floor requests by CPU time: {self.cpu_ratio:.2f}"] if self.cpu_ratio else []),
            f"action POST latency: p50 {ms[0.5]:.0f} ms, p95 {ms[0.95]:.0f} ms, p99 {ms[0.99]:.0f} ms",
            *([f"requests by server (port): {dict(sorted(self.served.items()))}"] if self.servers > 1 else []),
            *([self.ai_line()] if self.showdown else []),
            f"refused or retried as intended: {counts(self.refusals)}",
            f"errors: {counts(self.errors)}",
        ]
        acked = Counter(ack.slug for ack in self.acked)
        for slug, made in self.games.items():
            lines.append(f"  {slug}: {made['matches']} matches ({made['finished']} finished), "
                         f"{acked[slug]} actions, {self.tricks[slug, 'double']} doubled and "
                         f"{self.tricks[slug, 'stale']} stale submissions refused")
        lines += [f"PROBLEM: {problem}" for problem in self.problems]
        lines += [f"server: {line}" for line in self.server_errors]
        lines.append("OK: every match replays to its state; no acknowledged action lost or doubled"
                     if self.ok else "FAILED")
        return lines

    def ai_line(self) -> str:
        reply, slowest, move, slowest_move = self.ai_times()
        return (f"hard Showdown beside the tables ({self.showdown} phone): {len(self.ai_replies)} taps answered with "
                f"the AI's possession, {sum(moves for _took, moves in self.ai_replies)} AI moves; a reply "
                f"{reply:.2f} s median, {slowest:.2f} s slowest; an AI move {move:.2f} s median, "
                f"{slowest_move:.2f} s slowest (goal: median under 0.5 s, slowest under 2 s)")


# --- The server ---------------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def server_env(database_url: str, static_root: str | None = None) -> dict:
    # Never the browser tests' DJANGO_ALLOW_ASYNC_UNSAFE (tests/browser/conftest.py) in a server; the
    # workers are counted here (run's `workers`), not by WEB_CONCURRENCY.
    environ = {name: value for name, value in os.environ.items()
               if name not in ("DJANGO_ALLOW_ASYNC_UNSAFE", "WEB_CONCURRENCY")}
    return {**environ, "DATABASE_URL": database_url, "DEBUG": "false", "ALLOWED_HOSTS": HOST,
            "SECRET_KEY": "loadtest-only-" + "x" * 40, "HTTPS": "false",
            **({"STATIC_ROOT": static_root} if static_root else {})}


def manage(env: dict, *args: str) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=settings.BASE_DIR, env=env, check=True,
                   stdout=subprocess.DEVNULL)


class Server:
    """serve's stack in its own process group, so one SIGKILL takes the master and every worker."""

    def __init__(self, env: dict, port: int, workers: int, log: Path, wsgi: bool = False):
        self.env, self.port, self.workers, self.log, self.wsgi = env, port, workers, log, wsgi
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        command = stack.command(f"{HOST}:{self.port}", self.workers, wsgi=self.wsgi)
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(command, cwd=settings.BASE_DIR, env=self.env, stdout=log,
                                            stderr=log, start_new_session=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                connection = http.client.HTTPConnection(HOST, self.port, timeout=5)
                connection.request("GET", "/healthz")
                if connection.getresponse().status == 200:
                    return
            except OSError:
                time.sleep(0.1)
            finally:
                connection.close()
            if self.process.poll() is not None:
                break
        self.stop()
        raise RuntimeError(f"gunicorn did not start; see {self.log}")

    def cpu(self) -> float:
        """CPU seconds the master and its workers have used so far (Linux /proc; 0.0 elsewhere).

        The master's own time, its reaped children's, and each live worker's: so the figure
        does not depend on what else runs on the machine, as requests per second do.
        """
        if not self.process or self.process.poll() is not None:
            return 0.0
        try:
            total = _ticks(self.process.pid, reaped=True)
            children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children").read_text().split()
            total += sum(_ticks(int(child)) for child in children)
        except (OSError, ValueError, IndexError):
            return 0.0
        return total / os.sysconf("SC_CLK_TCK")

    def signal(self, number: int) -> None:
        """A signal to the master alone, as a service manager sends it (SIGHUP: reload, SIGTERM: stop)."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(number)

    def kill(self) -> None:
        """SIGKILL the master and its workers at once, as a power cut would."""
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


def _ticks(pid: int, reaped: bool = False) -> int:
    """utime + stime of a process (and of its reaped children), in clock ticks, from /proc/<pid>/stat."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(value) for value in fields[11:15 if reaped else 13])


def measure_floor(ports: list[int], clients: int, seconds: float) -> float:
    """Requests per second the servers answer for their cheapest page, with this many clients at once."""
    done, lock = [0], threading.Lock()
    stop = time.monotonic() + seconds

    def hammer(port: int) -> None:
        while time.monotonic() < stop:
            connection = http.client.HTTPConnection(HOST, port, timeout=30)
            try:
                connection.request("GET", "/healthz")
                connection.getresponse().read()
            finally:
                connection.close()
            with lock:
                done[0] += 1

    threads = [threading.Thread(target=hammer, args=(ports[n % len(ports)],), daemon=True) for n in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return done[0] / seconds


@contextlib.contextmanager
def own_database(database_url: str | None, folder: str, say, copy_of: str | None = None):
    """The URL of a database for this run alone: a new SQLite file, or a new database on the given
    PostgreSQL server, dropped afterwards. So two runs at once (two test workers) never check each
    other's matches mid-way. Where the role may not create databases, the given one is used.

    `copy_of` (a database made here before, `ready`) is what it starts as: its file copied, or on
    PostgreSQL its template."""
    if not database_url:
        path = Path(folder) / "load.sqlite3"
        if copy_of:  # no server has it open: nothing waits in its write-ahead log
            shutil.copyfile(dj_database_url.parse(copy_of)["NAME"], path)
        yield f"sqlite:///{path}"
        return
    if not database_url.startswith(("postgres://", "postgresql://")):
        yield database_url
        return
    import psycopg  # the PostgreSQL driver Django uses; only needed here

    name = f"tablekeeper_load_{secrets.token_hex(4)}"
    template = f' TEMPLATE "{urlsplit(copy_of).path.lstrip("/")}"' if copy_of else ""
    try:
        with psycopg.connect(database_url, autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{name}"{template}')
    except psycopg.Error as error:
        say(f"Cannot create a database of its own ({error}); the load runs in the given one")
        yield database_url
        return
    try:
        yield urlunsplit(urlsplit(database_url)._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(database_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@dataclass(frozen=True)
class Ready:
    """What every server of a run starts from: a database migrated and holding the demo catalogs (each run
    takes a copy of it, `own_database`), and the static files collected."""

    database_url: str
    static_root: str


@contextlib.contextmanager
def ready(database_url: str | None = None, *, static_root: str | None = None, migrated: str | None = None,
          say=print) -> Iterator[Ready]:
    """Make a Ready (on SQLite, or on the PostgreSQL server of `database_url`) and drop it afterwards.

    Migrating, collecting and loading the catalogs take far longer than a short run itself: the tests
    make one and start each run from a copy. `static_root`: files collected already, with these settings.
    `migrated`: on SQLite, a file migrated to this version already (the tests' own), copied rather than migrated.
    """
    copy_of = f"sqlite:///{migrated}" if migrated and not database_url else None
    with (tempfile.TemporaryDirectory(prefix="tablekeeper-ready-") as folder,
          own_database(database_url, folder, say, copy_of=copy_of) as url):
        static = static_root or str(Path(folder) / "static")
        env = server_env(url, static)
        if not copy_of:
            manage(env, "migrate", "--noinput", "-v0")
        if not static_root:
            manage(env, "collectstatic", "--noinput", "-v0")
        manage(env, "shell", "-c", "from tracker import demo; demo.load_catalogs()")
        yield Ready(url, static)


@contextlib.contextmanager
def fresh(database_url: str | None, base: Ready | None, prefix: str, say) -> Iterator[tuple[str, str, dict]]:
    """(folder, database URL, the servers' environment) for one run: a temporary folder, and a database of
    the run's own copied from `base` (made here when None) on the same server as `database_url`."""
    with contextlib.ExitStack() as held:
        if base is None:
            say(f"Preparing {(database_url or 'SQLite').split('@')[-1]} ...")
            base = held.enter_context(ready(database_url, say=say))
        folder = held.enter_context(tempfile.TemporaryDirectory(prefix=prefix))
        url = held.enter_context(own_database(database_url, folder, say, copy_of=base.database_url))
        yield folder, url, server_env(url, base.static_root)


# --- The check ------------------------------------------------------------------------------

def open_database(database_url: str) -> None:
    """A connection alias for the database the server writes to, for the check afterwards."""
    config = dj_database_url.parse(database_url)
    if config["ENGINE"] == "django.db.backends.sqlite3":
        config["OPTIONS"] = settings.SQLITE_OPTIONS
    # configure_settings fills in Django's defaults; it insists on seeing a "default" alias too.
    configured = connections.configure_settings({"default": dict(settings.DATABASES["default"]), ALIAS: config})
    connections.settings[ALIAS] = configured[ALIAS]


def close_database() -> None:
    connections[ALIAS].close()
    del connections[ALIAS]  # the cached connection object, else a second run reopens the old file
    del connections.settings[ALIAS]


def verify(first_match: int, acked: list[Ack]) -> list[str]:
    """What the database says about every match the load made; [] when all is well."""
    problems = []
    for match in Match.objects.using(ALIAS).filter(pk__gt=first_match).order_by("pk"):
        steps = list(match.actions.order_by("seq").values_list("seq", "abandoned"))
        if [seq for seq, _abandoned in steps] != list(range(1, match.head + 1)) or any(a for _s, a in steps):
            problems.append(f"match {match.pk}: log steps {[s for s, _a in steps]} for head {match.head}")
        # The state, every checkpoint and the row's counters, against the log re-run from the seed.
        problems += [f"match {match.pk}: {problem}" for problem in services.replay_problems(match)]
    for ack in acked:
        found = list(Action.objects.using(ALIAS).filter(match_id=ack.match, seq=ack.step, abandoned=False))
        if len(found) != 1:
            problems.append(f"match {ack.match}: acknowledged step {ack.step} stored {len(found)} times")
        elif found[0].payload.get("type") != ack.kind or found[0].payload.get("seat") != ack.seat:
            problems.append(f"match {ack.match}: step {ack.step} holds {found[0].payload.get('type')}, "
                            f"not the acknowledged {ack.kind}")
    return problems


def _play_table(number: int, running: list[Server], report: Report, lock: threading.Lock, deadline: float,
                matches: int, seed: int, htmx: bool, pace: float, shown: bool) -> None:
    """One table's phone: plays `matches` matches, taking the games in turn, until the deadline."""
    slugs = list(TABLE_SCRIPTS)
    phone = Phone(running[number % len(running)].port, report, lock, deadline, seed * 10_000 + number,
                  htmx=htmx, pace=pace, shown=shown)
    try:
        for played in range(matches):
            if phone.late:
                return
            # Tables take the games in turn: as many tables as games play every game.
            phone.slug = slugs[(number + played) % len(slugs)]
            TABLE_SCRIPTS[phone.slug](phone, number, played)
    except Exception as error:  # noqa: BLE001 - a script bug must show in the report, not vanish
        what = f"{type(error).__name__}: {error}"
        phone.count(report.errors, f"{phone.slug} script failed ({what})")


def _showdown_phone(number: int, running: list[Server], report: Report, lock: threading.Lock, deadline: float,
                    seed: int, pace: float) -> Phone:
    return Phone(running[number % len(running)].port, report, lock, deadline, seed * 10_000 + number,
                 htmx=True, pace=pace)


def _play_showdown(phone: Phone, number: int) -> None:
    """A phone playing hard Showdowns one after another until its deadline, timing the AI's replies."""
    phone.slug = "cardmaster"
    try:
        played = 0
        while not phone.late:
            showdown_script.play(phone, number, played)
            played += 1
    except Exception as error:  # noqa: BLE001 - a script bug must show in the report, not vanish
        phone.count(phone.report.errors, f"showdown script failed ({type(error).__name__}: {error})")


def _disrupt(running: list[Server], report: Report, threads: list[threading.Thread], deadline: float,
             expected: int, restart: str, say) -> None:
    """Mid-load: kill the first server and start it again once a third of the `expected` actions are
    acknowledged, or send its master each signal of `restart` in turn, at evenly spaced shares of them (one
    signal: at a third; two: at a quarter and a half). TERM: it stops once it finished what it held, and is
    started again."""
    signals = restart.split() or [""]
    for number, sent in enumerate(signals, 1):
        target = expected * number // (len(signals) + 2)
        while len(report.acked) < target and any(t.is_alive() for t in threads) and time.monotonic() < deadline:
            time.sleep(0.01)
        _disrupt_once(running, report, sent, say)


def _disrupt_once(running: list[Server], report: Report, restart: str, say) -> None:
    victim = running[0]
    if restart:
        say(f"SIG{restart} gunicorn's master after {len(report.acked)} acknowledged actions")
        victim.signal(getattr(signal, f"SIG{restart}"))
        report.restarts += 1
        if restart == "TERM":
            assert victim.process is not None
            victim.process.wait(60)
            victim.start()
        return
    say(f"SIGKILL gunicorn (master and workers{' of server 1' if len(running) > 1 else ''}) after "
        f"{len(report.acked)} acknowledged actions; restarting")
    victim.kill()
    report.crashes += 1
    time.sleep(0.5)  # its tables meet refused connections meanwhile
    victim.start()


def tracebacks(log: Path, most: int = 60) -> list[str]:
    """The tracebacks a server logged (each from its "Traceback" line to the error's own), the last `most` lines."""
    found: list[str] = []
    inside = False
    for line in log.read_text(errors="replace").splitlines() if log.exists() else []:
        inside = inside or line.startswith("Traceback") or "Internal Server Error" in line
        if inside:
            found.append(line)
            inside = line.startswith((" ", "\t", "Traceback", "During handling", "The above")) or not line.strip()
    return found[-most:]


def _tally(report: Report, first_match: int) -> None:
    """What the run left in the database: matches made and finished per game, and every acknowledged step."""
    made = Match.objects.using(ALIAS).filter(pk__gt=first_match)
    report.matches = made.count()
    report.games = {slug: {"matches": 0, "finished": 0} for slug in TABLE_SCRIPTS}
    finished = Count("pk", filter=Q(finished__isnull=False))
    for row in made.values("slug").annotate(matches=Count("pk"), finished=finished):
        report.games[row["slug"]] = {"matches": row["matches"], "finished": row["finished"]}
    report.problems = verify(first_match, report.acked)


def run(*, tables: int = 50, workers: int | None = None, seconds: float = 300, matches: int = 2,
        crash: bool = False, restart: str = "", database_url: str | None = None, seed: int = 1,
        floor_seconds: float = 3, htmx: bool = False, pace: float = 0.0, servers: int = 1, shown: bool = True,
        wsgi: bool = False, showdown: int = 0, showdown_replies: int = 0, base: Ready | None = None,
        say=print) -> Report:
    """Serve, load, optionally crash and restart, then check; the report says what happened.

    `showdown`: phones playing hard Showdowns beside the tables (htmx, at `pace`), whose taps answered with
    the AI's possession are timed: the AI's reply under load. They play until the deadline, or with
    `showdown_replies` until the tables are done and that many replies were timed (a hard reply is seconds
    of CPU: the tests need a few, not the deadline's worth).

    `base`: a Ready made on the same kind of database as `database_url` (else one is made for this run).
    """
    if workers is None:  # as serve sizes them: one on SQLite, one a core on PostgreSQL
        engine = dj_database_url.parse(database_url or "sqlite://")["ENGINE"]
        workers = stack.worker_count(engine) if not wsgi else os.cpu_count() or 1
    report = Report(tables=tables, workers=workers, seconds=seconds, htmx=htmx, pace=pace, servers=servers,
                    shown=shown, showdown=showdown)
    with fresh(database_url, base, "tablekeeper-load-", say) as (folder, database_url, env):
        open_database(database_url)
        first_match = Match.objects.using(ALIAS).order_by("-pk").values_list("pk", flat=True).first() or 0
        running = [Server(env, free_port(), workers, Path(folder) / f"gunicorn-{n}.log", wsgi)
                   for n in range(servers)]
        try:
            for server in running:
                server.start()
            if floor_seconds:
                used = sum(server.cpu() for server in running)
                report.floor = measure_floor([server.port for server in running], tables, floor_seconds)
                report.floor_cpu = (sum(server.cpu() for server in running) - used) / (report.floor * floor_seconds)
            lock = threading.Lock()
            server_cpu = sum(server.cpu() for server in running)
            start, client_cpu = time.monotonic(), time.process_time()
            deadline = start + seconds
            threads = [threading.Thread(target=_play_table, daemon=True,
                                        args=(n, running, report, lock, deadline, matches, seed, htmx, pace, shown))
                       for n in range(tables)]
            showdown_phones = [_showdown_phone(tables + n, running, report, lock, deadline, seed, pace)
                               for n in range(showdown)]
            threads += [threading.Thread(target=_play_showdown, args=(phone, tables + n), daemon=True)
                        for n, phone in enumerate(showdown_phones)]
            for thread in threads:
                thread.start()
            if crash or restart:
                # Some 20 actions expected a match over the five games: from 7 for Card Crush to some 50 for
                # Cardmaster.
                _disrupt(running, report, threads, deadline, tables * matches * 20, restart, say)
            for thread in threads[:tables]:
                thread.join(max(0.0, deadline - time.monotonic()) + 65)
            if showdown_replies:
                while (len(report.ai_replies) < showdown_replies and time.monotonic() < deadline
                       and any(thread.is_alive() for thread in threads[tables:])):
                    time.sleep(0.05)
                for phone in showdown_phones:  # the deadline brought forward: each stops at its next tap or poll
                    phone.deadline = min(phone.deadline, time.monotonic())
            for thread in threads[tables:]:
                thread.join(max(0.0, deadline - time.monotonic()) + 65)
            report.elapsed = time.monotonic() - start
            report.client_cpu = time.process_time() - client_cpu
            report.server_cpu = sum(server.cpu() for server in running) - server_cpu
            if any(thread.is_alive() for thread in threads):
                report.errors["table still running at the deadline"] += 1
        finally:
            for server in running:
                server.stop()
            if report.errors:
                report.server_errors = [line for server in running for line in tracebacks(server.log)]
        _tally(report, first_match)
        close_database()
    for line in report.lines():
        say(line)
    return report
