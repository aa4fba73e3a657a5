"""One table's phone: the HTTP client every table script plays through."""

import http.client
import random
import threading
import time
import urllib.parse
from collections import Counter
from dataclasses import dataclass
from http.cookies import SimpleCookie

HOST = "127.0.0.1"


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

    def __init__(self, port: int, report, lock: threading.Lock, deadline: float, seed: int):
        self.port, self.report, self.lock, self.deadline = port, report, lock, deadline
        self.cookies: dict[str, str] = {}
        self.rng = random.Random(seed)
        self.slug = ""
        self.tricks: set[str] = set()  # "stale", "double": tried already in the current match

    def count(self, counter: Counter, kind: str | tuple[str, str]) -> None:
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
                with self.lock:
                    self.report.requests += 1
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
            self.count(self.report.errors, f"HTTP {response.status} ({self.slug})")
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
            self.report.acked.append(Ack(self.slug, match, step, kind, seat))

    def expect_refusal(self, status: int, why: str) -> None:
        """A double tap or a stale page must come back 409; anything acknowledged is a doubled action."""
        if status == 409:
            self.count(self.report.refusals, f"409 {why}")
            self.count(self.report.tricks, (self.slug, why.split()[0]))
        elif status < 400:
            self.count(self.report.errors, f"{why} accepted ({self.slug})")
        else:
            self.count(self.report.errors, f"{why} answered {status} ({self.slug})")

    @property
    def late(self) -> bool:
        return time.monotonic() > self.deadline
