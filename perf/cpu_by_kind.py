"""Where a load run's CPU goes, by kind of request: each request's CPU in its own thread, summed by kind.

A middleware for the measurement only (never in the settings the app runs with): `cpu_by_kind_settings` adds it
outermost, and each worker appends one line a request, "kind<TAB>ms of CPU<TAB>bytes", to $CPU_BY_KIND/<pid>.tsv.
The CPU is `time.thread_time()` around the whole middleware chain and the view (uvicorn, the ASGI handler and the
event loop are not in it: compare with the load test's "gunicorn's CPU"). A kind names the route, the status and,
for a board form (`/act/`), the game and the action; an htmx tap answered "already recorded" is a kind of its own.

    CPU_BY_KIND=/tmp/cpu-main DJANGO_SETTINGS_MODULE=perf.cpu_by_kind_settings \\
        flock /tmp/tk-bench.lock .venv/bin/python manage.py loadtest --htmx --workers 4 --tables 50
    .venv/bin/python perf/cpu_by_kind.py /tmp/cpu-main 2031        # the acknowledged actions the run printed

To measure another tree in turn, copy this file and cpu_by_kind_settings.py into its perf/ (untracked).
"""

import os
import re
import sys
import time
from collections import defaultdict
from pathlib import Path

ACT = re.compile(r"^/matches/(\d+)/act/$")
ENTRY = re.compile(r"^/matches/(\d+)/seat/\d+/entry/$")
PAGE = re.compile(r"^/matches/(\d+)/$")
RECORDED = b"already recorded"  # services.StaleSubmission's note on a doubled open tap


class Middleware:
    """Each request's CPU in its thread, by kind, appended to $CPU_BY_KIND/<pid>.tsv (after the timing)."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.slugs: dict[int, str] = {}  # match -> game, read once a worker
        self.out = None

    def __call__(self, request):
        start = time.thread_time()
        response = self.get_response(request)
        used = time.thread_time() - start
        body = b"" if getattr(response, "streaming", False) else response.content
        if self.out is None:
            folder = Path(os.environ.get("CPU_BY_KIND", "/tmp/cpu-by-kind"))
            folder.mkdir(parents=True, exist_ok=True)
            self.out = open(folder / f"{os.getpid()}.tsv", "a", buffering=1)  # noqa: SIM115 - a worker's whole life
        self.out.write(f"{self.kind(request, response.status_code, body)}\t{used * 1000:.3f}\t{len(body)}\n")
        return response

    def slug(self, match: str) -> str:
        from tracker.models import Match

        pk = int(match)
        if pk not in self.slugs:
            self.slugs[pk] = Match.objects.filter(pk=pk).values_list("slug", flat=True).first() or "?"
        return self.slugs[pk]

    def kind(self, request, status: int, body: bytes) -> str:
        path, method = request.path, request.method
        if path == "/healthz":
            return "floor"
        if path.endswith("/poll"):
            return f"poll {status}"
        if found := ACT.match(path):
            what = "accepted" if status == 200 and RECORDED not in body else (
                "doubled-recorded" if status == 200 else str(status))
            return f"tap {what} {self.slug(found.group(1))} {request.POST.get('action', '?')}"
        if found := ENTRY.match(path):
            return f"entry {method} {status} {self.slug(found.group(1))}"
        if found := PAGE.match(path):
            how = "htmx" if request.headers.get("HX-Request") == "true" else "plain"
            return f"page {method} {how} {status} {self.slug(found.group(1))}"
        if path.startswith("/matches/new/"):
            return f"new {method} {status}"
        return f"other {method} {status}"


def _group(kind: str) -> str:
    words = kind.split()
    if words[0] == "tap":
        return f"tap {words[1]}" if words[1] in ("accepted", "doubled-recorded") else f"tap {words[1]} refused"
    return " ".join(words[:4] if words[0] == "page" else words[:3] if words[0] == "entry" else words[:2])


def report(folder: Path, actions: int) -> None:
    """The run's CPU by kind of request, each kind's ms a request and an acknowledged action; then by game."""
    cpu: dict[str, float] = defaultdict(float)
    count: dict[str, int] = defaultdict(int)
    size: dict[str, int] = defaultdict(int)
    for path in folder.glob("*.tsv"):
        for line in path.read_text().splitlines():
            kind, spent, length = line.split("\t")
            if kind != "floor":
                cpu[kind] += float(spent)
                count[kind] += 1
                size[kind] += int(length)
    total = sum(cpu.values())
    print(f"{actions} acknowledged actions; the views' CPU {total:.0f} ms, {total / actions:.2f} ms an action")
    groups: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    for kind in cpu:
        group = groups[_group(kind)]
        group[0] += cpu[kind]
        group[1] += count[kind]
        group[2] += size[kind]
    print(f"{'kind':32} {'requests':>8} {'ms each':>8} {'ms/action':>9} {'share':>6} {'KB each':>8}")
    for name, (spent_ms, n, drawn) in sorted(groups.items(), key=lambda item: -item[1][0]):
        print(f"{name:32} {n:8.0f} {spent_ms / n:8.2f} {spent_ms / actions:9.2f} {100 * spent_ms / total:5.1f}% {drawn / n / 1024:8.1f}")
    games: dict[str, float] = defaultdict(float)
    for kind, ms in cpu.items():
        words = kind.split()
        if words[0] in ("tap", "entry", "page"):
            games[words[2] if words[0] == "tap" else words[-1]] += ms
    print("\nby game (taps, entry pages, match pages):")
    for game, ms in sorted(games.items(), key=lambda item: -item[1]):
        print(f"  {game:12} {ms / actions:6.2f} ms an action, {100 * ms / total:4.1f}%")
    print("\naccepted taps by game and action:")
    for kind in sorted((k for k in cpu if k.startswith("tap accepted")), key=lambda k: -cpu[k]):
        print(f"  {kind[13:]:30} {count[kind]:6} x {cpu[kind] / count[kind]:6.2f} ms, {100 * cpu[kind] / total:4.1f}%,"
              f" {size[kind] / count[kind] / 1024:5.1f} KB")


if __name__ == "__main__":
    report(Path(sys.argv[1]), int(sys.argv[2]))
