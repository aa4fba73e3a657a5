"""One table's phone: the HTTP client every table script plays through.

Two kinds of phone. Without JavaScript (the default) every tap is a form POST answered by a
redirect, and the phone then loads the whole match page again. With htmx (`htmx=True`), as a
phone with JavaScript behaves: a tap on a board form is one POST with the `HX-Request` header,
answered by the `#match` part, which the phone keeps on screen and reads its next forms from;
and while the match page is open, it asks the live-update poll every 2 seconds (table.js),
fetching the `#match` part again when the answer says the match changed. `pace` adds a
pause before each tap (the player thinking, about `pace` seconds), during which the poll
goes on.

An htmx phone keeps its screen as htmx does (screen.py): with each POST it says which kept
parts it shows (`X-Shown`, as table.js), so the answer leaves those out, and the screen keeps
the elements it showed for them. `shown=False` leaves the header out (every part drawn), to
compare.
"""

import http.client
import random
import re
import threading
import time
import urllib.parse
from collections import Counter
from dataclasses import dataclass
from http.cookies import SimpleCookie

from . import screen

HOST = "127.0.0.1"
POLL_EVERY = 2.0  # seconds, as table.js
RECORDED = "That tap was already recorded"  # services.StaleSubmission's note on a doubled open tap
LIVE = re.compile(r'data-live-url="([^"]+)"\s+data-live-version="(\d+)"([^>]*)>')


class Dropped(Exception):
    """The server went away mid-request: whether it applied the action is unknown."""


@dataclass
class Ack:
    slug: str
    match: int
    step: int
    kind: str
    seat: int | None


class Phone:
    """One table's phone: its own cookies; a new connection per request (gunicorn's sync workers close them).

    `report` is the run's Report (loadtest.py); `slug` is the game of the match being played, so
    what the phone counts can be told apart per game.
    """

    def __init__(self, port: int, report, lock: threading.Lock, deadline: float, seed: int,
                 htmx: bool = False, pace: float = 0.0, shown: bool = True):
        self.port, self.report, self.lock, self.deadline = port, report, lock, deadline
        self.htmx, self.pace, self.send_shown = htmx, pace, shown
        self.cookies: dict[str, str] = {}
        self.rng = random.Random(seed)
        self.slug = ""
        self.tricks: set[str] = set()  # "stale", "double": tried already in the current match
        self.screen: tuple[int, str] | None = None  # (match, its page or #match part) as the phone shows it
        self.next_poll = 0.0
        self.answer = ""  # the body of the answer to the last form posted
        self.took = 0.0  # seconds the last form posted took

    def count(self, counter: Counter, kind: str | tuple[str, str]) -> None:
        with self.lock:
            counter[kind] += 1

    def request(self, method: str, path: str, fields: dict | None = None, htmx: bool = False,
                shown: str = "") -> tuple[int, str, str]:
        """(status, Location, body); retries a refused connection (server restarting) until the deadline.

        A request cut off mid-way raises Dropped, and the phone forgets what its screen showed
        (its next look at the match loads the page, as table.js's retry brings the fresh state).
        """
        body = urllib.parse.urlencode(fields or {}, doseq=True)
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        if method == "POST":
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        if htmx:
            # Every htmx request of the match page aims at its #match (the forms inherit it; so does table.js).
            headers.update({"HX-Request": "true", "HX-Target": "match", "X-Kept": "1"})
        if shown:
            headers["X-Shown"] = shown
        while True:
            connection = http.client.HTTPConnection(HOST, self.port, timeout=60)
            try:
                connection.request(method, path, body=body if method == "POST" else None, headers=headers)
                response = connection.getresponse()
                raw = response.read()
                text = raw.decode("utf-8", "replace")
                with self.lock:
                    self.report.requests += 1
                    self.report.kinds[_kind(method, path, htmx)] += 1
                    self.report.answers[f"{_kind(method, path, htmx)} {response.status}"] += 1
                    self.report.bytes[f"{_kind(method, path, htmx)} {response.status}"] += len(raw)
                    self.report.served[self.port] += 1
                break
            except ConnectionRefusedError:
                self.count(self.report.refusals, "connection refused (retried)")
                if time.monotonic() > self.deadline:
                    raise Dropped from None
                time.sleep(0.1)
            except (http.client.HTTPException, ConnectionError, TimeoutError, OSError) as error:
                self.count(self.report.refusals, f"connection dropped ({type(error).__name__})")
                self.screen = None
                raise Dropped from error
            finally:
                connection.close()
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        if response.status >= 500:
            self.count(self.report.errors, f"HTTP {response.status} ({self.slug})")
        if "database is locked" in text:
            self.count(self.report.errors, "database is locked")
        return response.status, response.headers.get("Location", ""), text

    def get(self, path: str) -> tuple[int, str, str]:
        return self.request("GET", path)

    def act(self, path: str, fields: dict, htmx: bool = False, around: tuple[str, ...] = ()) -> tuple[int, str]:
        """POST a form; the answer's status and Location, with the time it took.

        An htmx POST says which kept parts the screen shows but those `around` the form sent, and
        is answered by the `#match` part (the fresh state, refusals included), which then is what
        the phone shows, with the parts left out kept as they were.
        """
        match = int(path.split("/")[2]) if htmx and path.startswith("/matches/") else None
        before = self.shown(match) if match is not None else None
        shown = screen.shown(before, around) if before and self.send_shown else ""
        start = time.perf_counter()
        status, location, self.answer = self.request("POST", path, fields, htmx=htmx, shown=shown)
        text = self.answer
        self.took = time.perf_counter() - start  # this POST's seconds (tables/showdown.py times the AI's reply)
        with self.lock:
            self.report.latencies.append(self.took)
        # A refusal of a tap from the current step changes only the outcome (HX-Reswap: none): the screen stays.
        if match is not None and status < 500 and 'id="match"' in text:
            self.show(match, screen.keep(before, text))
        return status, location

    def show(self, match: int, page: str | None) -> None:
        """What the screen shows now for `match` (a whole page, or the `#match` part htmx swapped in)."""
        self.screen = (match, page) if page is not None else None

    def shown(self, match: int) -> str | None:
        """The page or part on screen for `match`, if the phone keeps one (htmx) and it is that match's."""
        if self.htmx and self.screen and self.screen[0] == match:
            return self.screen[1]
        return None

    def think(self) -> None:
        """The player's pause before a tap (about `pace` seconds); the open page polls meanwhile, as table.js does."""
        until = time.monotonic() + (self.pace * self.rng.uniform(0.5, 1.5) if self.pace else 0.0)
        while True:
            if self.htmx and time.monotonic() >= self.next_poll:
                self.poll()
            now = time.monotonic()
            if now >= until or now > self.deadline:
                return
            time.sleep(max(0.0, min(until, self.next_poll if self.htmx else until) - now))

    def poll(self) -> None:
        """The live-update check of the page on screen; on a change, fetch its `#match` part (table.js)."""
        self.next_poll = time.monotonic() + POLL_EVERY
        if self.screen is None:
            return  # no match page open
        match, page = self.screen
        found = LIVE.search(page)
        if found is None or "data-live-stop" in found.group(3):
            return  # not a match page, or the match is over: table.js stops asking
        status, _location, _text = self.request("GET", f"{found.group(1)}?v={found.group(2)}")
        if status == 200:
            self.refresh(match)

    def refresh(self, match: int) -> int:
        """Fetch the `#match` part after a change, as table.js does: saying which kept parts the screen shows,
        so those the change left as they were come back as placeholders and stay as shown. Its status."""
        before = self.shown(match)
        shown = screen.shown(before) if before and self.send_shown else ""
        status, _location, part = self.request("GET", f"/matches/{match}/", htmx=True, shown=shown)
        if status == 200:
            self.show(match, screen.keep(before, part))
        return status

    def acknowledge(self, match: int, step: int, kind: str, seat: int | None) -> None:
        with self.lock:
            self.report.acked.append(Ack(self.slug, match, step, kind, seat))

    def expect_refusal(self, status: int, why: str, match: int, step: int) -> None:
        """A double tap or a stale page changes nothing: it comes back 409, or, when the match already holds
        that very open action at the step it asks for (a double tap whose first answer was lost, or a stale
        page whose tap equals the one made meanwhile), it is answered as recorded, the match still at `step`.
        Anything else acknowledged is a doubled action."""
        if status == 409:
            self.count(self.report.refusals, f"409 {why}")
            self.count(self.report.tricks, (self.slug, why.split()[0]))
        elif status in (200, 302) and self._answered_as_recorded(match, step):
            self.count(self.report.refusals, f"{why} answered as already recorded")
            self.count(self.report.tricks, (self.slug, why.split()[0]))
        elif status < 400:
            self.count(self.report.errors, f"{why} accepted ({self.slug})")
        else:
            self.count(self.report.errors, f"{why} answered {status} ({self.slug})")

    def _answered_as_recorded(self, match: int, step: int) -> bool:
        """Whether the answer said the tap was already recorded and showed the match at `step`: an htmx
        answer is the `#match` part with the note; a plain one leads to the page, which carries it."""
        page = self.answer
        if 'id="match"' not in page:
            self.show(match, None)
            _status, _location, page = self.get(f"/matches/{match}/")
        return RECORDED in page and (shown := screen.head(page)) is not None and screen.step(shown) == step

    @property
    def late(self) -> bool:
        return time.monotonic() > self.deadline


MATCH_PAGE = re.compile(r"/matches/\d+/")


def _kind(method: str, path: str, htmx: bool) -> str:
    """What a request was, for the report's count of requests by kind."""
    if path.endswith("/poll") or "/poll?" in path:
        return "live-update poll"
    if htmx:
        return f"htmx {method}"
    if method == "GET" and MATCH_PAGE.fullmatch(path):
        return "GET match page"
    return f"{method} (other)"
