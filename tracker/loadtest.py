"""A league night on one small server: many tables tapping at once, through the real pages.

`run()` serves the app with gunicorn on loopback (several worker processes, one database),
then lets N simulated tables play scripted matches concurrently over HTTP: each table is
one phone (it keeps its cookies), GETs a page, reads the CSRF token, `seq` and
`entry_token` from the HTML and POSTs the form, as a browser would. On purpose it also
sends some forms twice (a double tap) and some with an old `seq` (a stale page); both
must be refused with 409 and change nothing.

With `crash=True` the whole gunicorn process group is SIGKILLed in the middle of the load
and started again; tables retry refused connections and carry on from whatever the
server says the match is at now.

Afterwards, straight from the database:
- every match's stored state equals `services.match_replay` of its log;
- its log is one unbroken line of steps 1..head, each step stored once;
- every acknowledged action (a 2xx/3xx answer to an action POST) is at its step, once;
- no answer was a 500 or mentioned "database is locked".

Bounded: a fixed number of matches per table and a deadline; loopback only; gunicorn is
killed at the end whatever happens.
"""

import http.client
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import Counter
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path

import dj_database_url
from django.conf import settings
from django.db import connections

from . import services
from .games.card_crush import DEMO_CARDS as CARD_CRUSH_CARDS
from .models import Action, Match

HOST = "127.0.0.1"
ALIAS = "loadtest"
DOUBLE_RATE = 0.25  # share of action forms sent twice
STALE_RATE = 0.2  # share of action forms first sent again from an older page


class Dropped(Exception):
    """The server went away mid-request: whether it applied the action is unknown."""


@dataclass
class Ack:
    match: int
    step: int
    kind: str
    seat: int | None


@dataclass
class Report:
    tables: int
    workers: int
    elapsed: float = 0.0
    matches: int = 0
    acked: list[Ack] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)  # action POSTs, seconds
    errors: Counter = field(default_factory=Counter)  # what must never happen
    refusals: Counter = field(default_factory=Counter)  # expected 409s and retries
    problems: list[str] = field(default_factory=list)  # what the database check found
    crashes: int = 0
    floor: float = 0.0  # GET /healthz per second from the same clients on the same server, before the load

    @property
    def ok(self) -> bool:
        return not self.errors and not self.problems

    def percentile(self, share: float) -> float:
        if not self.latencies:
            return 0.0
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))]

    def lines(self) -> list[str]:
        rate = len(self.acked) / self.elapsed if self.elapsed else 0.0
        def counts(counter: Counter) -> str:
            return ", ".join(f"{kind} {n}" for kind, n in sorted(counter.items())) or "none"

        ms = {share: self.percentile(share) * 1000 for share in (0.5, 0.95, 0.99)}
        lines = [
            f"{self.tables} tables, {self.workers} gunicorn workers, {self.elapsed:.1f} s, "
            f"{self.matches} matches, {self.crashes} crash(es)",
            f"actions acknowledged: {len(self.acked)}  ({rate:.1f} actions/s)",
            f"floor: GET /healthz at {self.floor:.0f} requests/s from as many clients; "
            f"actions/s to that: {rate / self.floor if self.floor else 0:.2f}",
            f"action POST latency: p50 {ms[0.5]:.0f} ms, p95 {ms[0.95]:.0f} ms, p99 {ms[0.99]:.0f} ms",
            f"refused or retried as intended: {counts(self.refusals)}",
            f"errors: {counts(self.errors)}",
        ]
        lines += [f"PROBLEM: {problem}" for problem in self.problems]
        lines.append("OK: every match replays to its state; no acknowledged action lost or doubled"
                     if self.ok else "FAILED")
        return lines


class Phone:
    """One table's phone: its own cookies; a new connection per request (gunicorn's sync workers close them)."""

    def __init__(self, port: int, report: Report, lock: threading.Lock, deadline: float, seed: int):
        self.port, self.report, self.lock, self.deadline = port, report, lock, deadline
        self.cookies: dict[str, str] = {}
        self.rng = random.Random(seed)

    def count(self, counter: Counter, kind: str) -> None:
        with self.lock:
            counter[kind] += 1

    def request(self, method: str, path: str, fields: dict | None = None) -> tuple[int, str, str]:
        """(status, Location, body); retries a refused connection (server restarting) until the deadline."""
        body = urllib.parse.urlencode(fields or {}, doseq=True)
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        if method == "POST":
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        while True:
            connection = http.client.HTTPConnection(HOST, self.port, timeout=60)
            try:
                connection.request(method, path, body=body if method == "POST" else None, headers=headers)
                response = connection.getresponse()
                text = response.read().decode("utf-8", "replace")
                break
            except ConnectionRefusedError:
                self.count(self.report.refusals, "connection refused (retried)")
                if time.monotonic() > self.deadline:
                    raise Dropped from None
                time.sleep(0.1)
            except (http.client.HTTPException, ConnectionError, TimeoutError, OSError) as error:
                self.count(self.report.refusals, f"connection dropped ({type(error).__name__})")
                raise Dropped from error
            finally:
                connection.close()
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        if response.status >= 500:
            self.count(self.report.errors, f"HTTP {response.status}")
        if "database is locked" in text:
            self.count(self.report.errors, "database is locked")
        return response.status, response.headers.get("Location", ""), text

    def get(self, path: str) -> tuple[int, str, str]:
        return self.request("GET", path)

    def act(self, path: str, fields: dict) -> tuple[int, str]:
        """POST an action form; the answer's status and Location, with the time it took."""
        start = time.perf_counter()
        status, location, _text = self.request("POST", path, fields)
        with self.lock:
            self.report.latencies.append(time.perf_counter() - start)
        return status, location

    def acknowledge(self, match: int, step: int, kind: str, seat: int | None) -> None:
        with self.lock:
            self.report.acked.append(Ack(match, step, kind, seat))

    def expect_refusal(self, status: int, why: str) -> None:
        """A double tap or a stale page must come back 409; anything acknowledged is a doubled action."""
        if status == 409:
            self.count(self.report.refusals, f"409 {why}")
        elif status < 400:
            self.count(self.report.errors, f"{why} accepted")
        else:
            self.count(self.report.errors, f"{why} answered {status}")

    @property
    def late(self) -> bool:
        return time.monotonic() > self.deadline


def field_value(html: str, name: str) -> str | None:
    found = re.search(rf'name="{name}" value="([^"]*)"', html)
    return found.group(1) if found else None


# --- Table scripts: one whole match over HTTP each ---------------------------------------------

CARD_NAMES = [card["name"] for card in CARD_CRUSH_CARDS]


def play_card_crush(phone: Phone, table: int, number: int) -> None:
    """A Card Crush battle: new match, both decks locked on this phone (hot-seat), rounds until a winner."""
    match = None
    while match is None and not phone.late:
        try:
            _status, _location, page = phone.get("/matches/new/card-crush/")
            fields = {"csrfmiddlewaretoken": field_value(page, "csrfmiddlewaretoken"),
                      "player_0": f"Table {table} A{number}", "player_1": f"Table {table} B{number}",
                      "config-resolution": phone.rng.choice(["battle-score", "power-only"])}
            status, location = phone.act("/matches/new/card-crush/", fields)
        except Dropped:
            continue  # maybe made, maybe not: an unfinished match is still checked afterwards
        if status == 302:
            match = int(re.search(r"/matches/(\d+)/", location).group(1))
    if match is None:
        return
    for seat in (0, 1):
        _lock_deck(phone, match, seat)
    _play_rounds(phone, match)


def _lock_deck(phone: Phone, match: int, seat: int) -> None:
    path = f"/matches/{match}/seat/{seat}/entry/"
    while not phone.late:
        try:
            status, _location, page = phone.get(path)
            if status == 302:
                return  # this seat is no longer awaited: locked (perhaps by a request cut off by a crash)
            seq = int(field_value(page, "seq"))
            form = {"csrfmiddlewaretoken": field_value(page, "csrfmiddlewaretoken"), "seq": seq,
                    "entry_token": field_value(page, "entry_token")}
            form.update({f"card_{n}": name for n, name in enumerate(phone.rng.sample(CARD_NAMES, 5), start=1)})
            if seq > 0 and phone.rng.random() < STALE_RATE:
                phone.expect_refusal(phone.act(path, {**form, "seq": seq - 1})[0], "stale entry")
            status, _location = phone.act(path, form)
            if status == 302:
                phone.acknowledge(match, seq + 1, "lock_deck", seat)
                if phone.rng.random() < DOUBLE_RATE:
                    phone.expect_refusal(phone.act(path, form)[0], "double entry")
                return
            phone.count(phone.report.refusals, f"entry {status}, page reloaded")
        except Dropped:
            continue


def _play_rounds(phone: Phone, match: int) -> None:
    path = f"/matches/{match}/act/"
    while not phone.late:
        try:
            _status, _location, page = phone.get(f"/matches/{match}/")
            if 'value="play_round"' not in page:
                return  # the battle is won
            form = {"csrfmiddlewaretoken": field_value(page, "csrfmiddlewaretoken"), "action": "play_round",
                    "seq": int(field_value(page, "seq"))}
            if phone.rng.random() < STALE_RATE:
                phone.expect_refusal(phone.act(path, {**form, "seq": form["seq"] - 1})[0], "stale action")
            status, _location = phone.act(path, form)
            if status == 302:
                phone.acknowledge(match, form["seq"] + 1, "play_round", None)
                if phone.rng.random() < DOUBLE_RATE:
                    phone.expect_refusal(phone.act(path, form)[0], "double action")
            else:
                phone.count(phone.report.refusals, f"action {status}, page reloaded")
        except Dropped:
            continue


# Game slug -> a function playing one whole match over HTTP. Cardmaster, Lonely Star, Logos and
# Evons have adapters but no script yet: each needs its own form-filling (lineups, hands, commits).
TABLE_SCRIPTS = {
    "card-crush": play_card_crush,
}


# --- The server ---------------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def server_env(database_url: str) -> dict:
    return {**os.environ, "DATABASE_URL": database_url, "DEBUG": "false", "ALLOWED_HOSTS": HOST,
            "SECRET_KEY": "loadtest-only-" + "x" * 40, "HTTPS": "false"}


def manage(env: dict, *args: str) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=settings.BASE_DIR, env=env, check=True,
                   stdout=subprocess.DEVNULL)


class Server:
    """gunicorn in its own process group, so one SIGKILL takes the master and every worker."""

    def __init__(self, env: dict, port: int, workers: int, log: Path):
        self.env, self.port, self.workers, self.log = env, port, workers, log
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        command = [sys.executable, "-m", "gunicorn", "tracker.wsgi:application",
                   "--bind", f"{HOST}:{self.port}",
                   "--workers", str(self.workers), "--timeout", "60", "--graceful-timeout", "5"]
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


def measure_floor(port: int, clients: int, seconds: float) -> float:
    """Requests per second the server answers for its cheapest page, with this many clients at once."""
    done, lock = [0], threading.Lock()
    stop = time.monotonic() + seconds

    def hammer() -> None:
        while time.monotonic() < stop:
            connection = http.client.HTTPConnection(HOST, port, timeout=30)
            try:
                connection.request("GET", "/healthz")
                connection.getresponse().read()
            finally:
                connection.close()
            with lock:
                done[0] += 1

    threads = [threading.Thread(target=hammer, daemon=True) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return done[0] / seconds


# --- The check ------------------------------------------------------------------------------

def open_database(database_url: str) -> None:
    """A connection alias for the database the server writes to, for the check afterwards."""
    config = dj_database_url.parse(database_url)
    if config["ENGINE"] == "django.db.backends.sqlite3":
        config["OPTIONS"] = settings.SQLITE_OPTIONS
    # configure_settings fills in Django's defaults; it insists on seeing a "default" alias too.
    configured = connections.configure_settings({"default": dict(settings.DATABASES["default"]), ALIAS: config})
    connections.settings[ALIAS] = configured[ALIAS]


def verify(first_match: int, acked: list[Ack]) -> list[str]:
    """What the database says about every match the load made; [] when all is well."""
    problems = []
    for match in Match.objects.using(ALIAS).filter(pk__gt=first_match).order_by("pk"):
        steps = list(match.actions.order_by("seq").values_list("seq", "abandoned"))
        if [seq for seq, _abandoned in steps] != list(range(1, match.head + 1)) or any(a for _s, a in steps):
            problems.append(f"match {match.pk}: log steps {[s for s, _a in steps]} for head {match.head}")
        if services.match_replay(match) != match.state:
            problems.append(f"match {match.pk}: stored state differs from the replay of its log")
    for ack in acked:
        found = list(Action.objects.using(ALIAS).filter(match_id=ack.match, seq=ack.step, abandoned=False))
        if len(found) != 1:
            problems.append(f"match {ack.match}: acknowledged step {ack.step} stored {len(found)} times")
        elif found[0].payload.get("type") != ack.kind or found[0].payload.get("seat") != ack.seat:
            problems.append(f"match {ack.match}: step {ack.step} holds {found[0].payload.get('type')}, "
                            f"not the acknowledged {ack.kind}")
    return problems


def run(*, tables: int = 50, workers: int = 4, seconds: float = 120, matches: int = 3, crash: bool = False,
        database_url: str | None = None, seed: int = 1, floor_seconds: float = 3, say=print) -> Report:
    """Serve, load, optionally crash and restart, then check; the report says what happened."""
    scripts = list(TABLE_SCRIPTS.values())
    report = Report(tables=tables, workers=workers)
    with tempfile.TemporaryDirectory(prefix="tablekeeper-load-") as folder:
        database_url = database_url or f"sqlite:///{folder}/load.sqlite3"
        env = server_env(database_url)
        say(f"Preparing {database_url.split('@')[-1]} ...")
        manage(env, "migrate", "--noinput", "-v0")
        manage(env, "collectstatic", "--noinput", "-v0")
        manage(env, "shell", "-c", "from tracker import demo; demo.load_catalogs()")
        open_database(database_url)
        first_match = Match.objects.using(ALIAS).order_by("-pk").values_list("pk", flat=True).first() or 0
        server = Server(env, free_port(), workers, Path(folder) / "gunicorn.log")
        server.start()
        try:
            if floor_seconds:
                report.floor = measure_floor(server.port, tables, floor_seconds)
            lock = threading.Lock()
            start = time.monotonic()
            deadline = start + seconds

            def table(number: int) -> None:
                phone = Phone(server.port, report, lock, deadline, seed * 10_000 + number)
                try:
                    for played in range(matches):
                        if phone.late:
                            return
                        scripts[(number + played) % len(scripts)](phone, number, played)
                except Exception as error:  # noqa: BLE001 - a script bug must show in the report, not vanish
                    phone.count(report.errors, f"table script failed ({type(error).__name__})")

            threads = [threading.Thread(target=table, args=(n,), daemon=True) for n in range(tables)]
            for thread in threads:
                thread.start()
            if crash:
                # Mid-load: once about a third of the expected actions are in (about 7 per match).
                target = tables * matches * 7 // 3
                while (len(report.acked) < target and any(t.is_alive() for t in threads)
                       and time.monotonic() < deadline):
                    time.sleep(0.01)
                say(f"SIGKILL gunicorn (master and workers) after {len(report.acked)} acknowledged actions; "
                    "restarting")
                server.kill()
                report.crashes += 1
                time.sleep(0.5)  # tables meet refused connections meanwhile
                server.start()
            for thread in threads:
                thread.join(max(0.0, deadline - time.monotonic()) + 65)
            report.elapsed = time.monotonic() - start
            if any(thread.is_alive() for thread in threads):
                report.errors["table still running at the deadline"] += 1
        finally:
            server.stop()
        report.matches = Match.objects.using(ALIAS).filter(pk__gt=first_match).count()
        report.problems = verify(first_match, report.acked)
        connections[ALIAS].close()
        del connections[ALIAS]  # the cached connection object, else a second run reopens the old file
        del connections.settings[ALIAS]
    for line in report.lines():
        say(line)
    return report
