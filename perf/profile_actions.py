"""Where one htmx action's time goes, per game: cProfile over the benchmark's own requests.

    .venv/bin/python perf/profile_actions.py [--rounds 40] [--top 25] [--case "Card Crush reveal"]
    .venv/bin/python perf/profile_actions.py --timed [--rounds 20]      # the parts timed without the profiler
    .venv/bin/python perf/profile_actions.py --free [--rounds 30]       # each case as it is and with free drawing

The requests are perf/side_by_side.py's (one htmx action per game, sent as the match page's form sends it,
in a savepoint rolled back each time), in-process against a scratch SQLite file, the Django test client
as the benchmark uses it. For each case it prints the share of the request spent in the parts an action
is made of (the access check, applying the action, the outcome box, the templates), then the functions
with the most cumulative time.

The profiler adds a cost to every Python call, so code made of many small calls (Django's template nodes,
lazy translations, a kept part's digest) shows a larger share under it than it costs. `--timed` runs
without it: each part (and a few pieces of the templates) is wrapped in a timer of the process's CPU time,
read only at its outermost call, so the figures are what the parts cost, in ms a request and share.
`--free` times each case twice in turn, round by round, as it is and with every template drawing nothing (its
render returning ""), each to the floor (GET /healthz) of the same run: how far the action is from the floor
with the app's own work only, which no way of drawing pages can make cheaper.
"""

import argparse
import cProfile
import os
import pstats
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]

PARTS = {
    "access check (access.match_for)": ("tracker/people/access.py", "match_for"),
    "apply the action (services.match_apply_action)": ("tracker/matches/services.py", "match_apply_action"),
    "the outcome box (views._outcome)": ("tracker/matches/views.py", "_outcome"),
    "the context (views._match_context)": ("tracker/matches/views.py", "_match_context"),
    "templates (Template.render)": ("django/template/base.py", "render"),
}
"""The parts of an action, each a function whose cumulative time is that part's (file's end, name)."""

TIMED = {
    "access check": ("tracker.people.access", "match_for"),
    "apply the action": ("tracker.matches.services", "match_apply_action"),
    "the outcome box": ("tracker.matches.views", "_outcome"),
    "the context": ("tracker.matches.views", "_match_context"),
    "templates, all": ("django.template.backends.django", "Template.render"),
    "  kept parts' digests": ("tracker.templatetags.regions", "KeptNode.digest"),
    "  the digests' text and hash": ("tracker.templatetags.regions", "_hashed"),
    "  translate tags": ("tracker.templatetags.translated", "KeptTranslateNode.render"),
    "  blocktranslate tags": ("tracker.templatetags.translated", "KeptBlockTranslateNode.render"),
    "  url tags": ("tracker.templatetags.reversed", "KeptURLNode.render"),
    "  error slots": ("tracker.templatetags.board_forms", "slot"),
    "  csrf_token tags": ("tracker.templatetags.csrf_once", "OnceCsrfTokenNode.render"),
}
"""What --timed times: (module, attribute, or class.method), each by its outermost calls."""


def _setup() -> None:
    sys.path.insert(0, str(HERE))
    os.environ["DJANGO_SETTINGS_MODULE"] = "tracker.settings"
    os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp(prefix='profile-')}/profile.sqlite3"
    import django

    django.setup()
    from django.core.management import call_command
    from django.test.utils import override_settings

    call_command("migrate", verbosity=0)
    override_settings(STATIC_ROOT=tempfile.mkdtemp(prefix="profile-static-")).enable()
    call_command("collectstatic", "--noinput", verbosity=0)


def _timed(cases: dict, rounds: int) -> None:
    """Each case's parts (TIMED), timed in CPU time by thin wrappers: ms a request and the share, medians."""
    import importlib
    import statistics
    import time

    spent: dict[str, float] = {}
    depth: dict[str, int] = {}

    def wrapped(function, part: str):
        def timing(*args, **kwargs):
            depth[part] = depth.get(part, 0) + 1
            start = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                depth[part] -= 1
                if not depth[part]:
                    spent[part] = spent.get(part, 0.0) + time.process_time() - start
        return timing

    for part, (module, attribute) in TIMED.items():
        owner = importlib.import_module(module)
        *path, name = attribute.split(".")
        for step in path:
            owner = getattr(owner, step)
        setattr(owner, name, wrapped(getattr(owner, name), part))
    for name, call in cases.items():
        totals: list[float] = []
        parts: dict[str, list[float]] = {part: [] for part in TIMED}
        for _ in range(rounds):
            spent.clear()
            start = time.process_time()
            call()
            totals.append(time.process_time() - start)
            for part in TIMED:
                parts[part].append(spent.get(part, 0.0))
        total = statistics.median(totals)
        print(f"\n== {name}: {total * 1000:.2f} ms of CPU a request (median of {rounds})")
        for part, times in parts.items():
            print(f"  {statistics.median(times) * 1000:6.2f} ms {statistics.median(times) / total:5.1%}  {part}")


def _free(cases: dict, rounds: int) -> None:
    """Each case in CPU time (medians), drawn and with free drawing, in ms and to the floor."""
    import statistics
    import time

    from django.template.backends.django import Template
    from django.utils.safestring import SafeString

    drawing = Template.render
    spent: dict[tuple[str, bool], list[float]] = {(name, free): [] for name in cases for free in (False, True)}
    try:
        for _ in range(rounds):
            for free in (False, True):
                Template.render = (lambda *_args, **_kwargs: SafeString("")) if free else drawing  # type: ignore[method-assign]
                for name, call in cases.items():
                    start = time.process_time()
                    call()
                    spent[name, free].append(time.process_time() - start)
    finally:
        Template.render = drawing  # type: ignore[method-assign]
    floor = statistics.median(spent["floor", False] + spent["floor", True])  # it draws nothing either way
    print(f"{'':46} {'as it is':>17}  {'free drawing':>17}")
    for name in cases:
        drawn, free_ = (statistics.median(spent[name, free]) for free in (False, True))
        print(f"{name:46} {drawn * 1000:6.2f} ms {drawn / floor:5.1f}x  {free_ * 1000:6.2f} ms {free_ / floor:5.1f}x")


def _share(stats: pstats.Stats, where: str, name: str) -> float:
    """Cumulative seconds of the outermost calls of the function `name` defined in a file ending with `where`."""
    found = [(key, row) for key, row in stats.stats.items()  # type: ignore[attr-defined]
             if key[0].endswith(where) and key[2] == name]
    if not found:
        return 0.0
    (_key, (_calls, _primitive, _own, cumulative, _callers)), *_ = sorted(found, key=lambda kv: -kv[1][3])
    return cumulative


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--case", action="append", help="only this case (repeatable)")
    parser.add_argument("--timed", action="store_true", help="time the parts without the profiler (TIMED)")
    parser.add_argument("--free", action="store_true", help="each case as it is and with every template drawing nothing")
    parser.add_argument("--own", help="list only functions whose file matches this (a regular expression: 'tracker/|rules/')")
    args = parser.parse_args()
    _setup()
    from django.conf import settings
    from django.db import transaction
    from django.test import Client

    from perf.side_by_side import _cases

    with transaction.atomic():
        cases = _cases(Client(HTTP_HOST=settings.ALLOWED_HOSTS[0]))
        if args.free:
            for call in cases.values():
                call()  # warm, as below
            _free({name: call for name, call in cases.items() if name == "floor" or not args.case or name in args.case},
                  args.rounds)
            transaction.set_rollback(True)
            return
        if args.timed:
            chosen = {name: call for name, call in cases.items()
                      if name != "floor" and (not args.case or name in args.case)}
            for call in chosen.values():
                call()  # warm: first-use caches are not the action's cost
            _timed(chosen, args.rounds)
            transaction.set_rollback(True)
            return
        for name, call in cases.items():
            if name == "floor" or (args.case and name not in args.case):
                continue
            for _ in range(3):
                assert call().status_code == 200, name  # warm: first-use caches are not the action's cost
            profile = cProfile.Profile()
            profile.enable()
            for _ in range(args.rounds):
                call()
            profile.disable()
            stats = pstats.Stats(profile)
            total = stats.total_tt  # type: ignore[attr-defined]
            print(f"\n== {name}: {total / args.rounds * 1000:.2f} ms a request under the profiler (wall), {args.rounds} rounds")
            for part, (where, function) in PARTS.items():
                print(f"  {_share(stats, where, function) / total:5.0%}  {part}")
            stats.sort_stats("cumulative").print_stats(args.own or ".", args.top)
        transaction.set_rollback(True)


if __name__ == "__main__":
    main()
