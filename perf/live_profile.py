"""Where a live action's server CPU goes: the live benchmark's sequence, in-process, part by part.

    .venv/bin/python perf/live_profile.py [--rounds 60] [--profile PART] [--top 30] [--spaced SECONDS]

One Lonely Star match on two phones (Django test clients): the owner's phone taps D6 as perf/propagation.py's
tapping phone does (htmx, `X-Shown` as its screen shows the kept parts), and Ben's phone, seated by the join
link, follows the match's stream from its match page. Each round times, in this process's CPU time:

- tap: the tap's POST through the test client (every middleware, the view, the answer);
- read_change: what each server does once per change for all its streams of the match (`live.read_change`);
- draw_part: the other phone's part, drawn for it (`live.draw_part`, a WSGI request in-process).

`--profile tap|read_change|draw_part` runs that part under cProfile and prints the functions with the most
cumulative time. SQLite, a scratch file (DATABASE_URL to use another database).
"""

import argparse
import cProfile
import os
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1]


def _setup() -> None:
    sys.path.insert(0, str(HERE))
    os.environ["DJANGO_SETTINGS_MODULE"] = "tracker.settings"
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{tempfile.mkdtemp(prefix='live-profile-')}/db.sqlite3")
    import django

    django.setup()
    from django.core.management import call_command
    from django.test.utils import override_settings, setup_test_environment

    setup_test_environment()
    call_command("migrate", verbosity=0)
    override_settings(STATIC_ROOT=tempfile.mkdtemp(prefix="live-profile-static-"), ALLOWED_HOSTS=["*"]).enable()
    call_command("collectstatic", "--noinput", verbosity=0)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=60)
    parser.add_argument("--profile", choices=["tap", "read_change", "draw_part"], default=None)
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--spaced", type=float, default=0.0, metavar="SECONDS",
                        help="sleep this long before each part, as a server waits between changes (caches go cold)")
    args = parser.parse_args()
    _setup()

    from types import SimpleNamespace

    from django.core.signals import request_finished
    from django.db import close_old_connections
    from django.test import Client

    from perf.tables import screen
    from perf.tables.forms import read_forms
    from tracker.matches import live
    from tracker.models import Invite, Match

    request_finished.disconnect(close_old_connections)
    owner, other = Client(), Client()
    page = owner.get("/matches/new/lonely-star/").content.decode()
    form = next(form for form in read_forms(page) if form.has("player_0"))
    made = owner.post("/matches/new/lonely-star/", form.data(None, player_0="Ana", player_1="Ben"))
    match = Match.objects.order_by("-pk").first()
    assert made.status_code == 302 and match is not None
    if not os.environ.get("LIVE_PROFILE_ALONE"):  # the other phone joins its seat (else the owner's phone alone)
        owner.post(f"/matches/{match.pk}/invites/", {"kind": "seat", "seat": "1"})
        invite = Invite.objects.filter(match=match).order_by("-pk").get()
        joined = other.post(f"/join/{invite.token}/")
        assert joined.status_code == 302, joined.status_code
    at = f"/matches/{match.pk}/"
    theirs = other.get(at).content.decode()
    cookies = {name: morsel.value for name, morsel in other.cookies.items()}
    meta = {"HTTP_COOKIE": "; ".join(f"{name}={value}" for name, value in cookies.items()),
            "HTTP_HOST": "testserver", "SERVER_NAME": "testserver", "SERVER_PORT": "80", "REMOTE_ADDR": "127.0.0.1"}
    stream: Any = SimpleNamespace(META=meta, COOKIES=cookies, scheme="http", device="")  # as tests/tracker/helpers.py
    shown_other = screen.shown(theirs)
    mine = owner.get(at).content.decode()

    spent: dict[str, list[float]] = {"tap": [], "read_change": [], "draw_part": []}
    profiler = cProfile.Profile(time.process_time) if args.profile else None

    def timed(name, call, *given, **named):
        if args.spaced:
            time.sleep(args.spaced)
        if profiler is not None and name == args.profile:
            profiler.enable()
        start = time.process_time()
        result = call(*given, **named)
        spent[name].append(time.process_time() - start)
        if profiler is not None and name == args.profile:
            profiler.disable()
        return result

    if os.environ.get("LIVE_PROFILE_MIDDLEWARE"):  # an experiment: the part drawn through these middlewares only
        from django.conf import settings
        from django.core.handlers.wsgi import WSGIHandler
        from django.test.utils import override_settings

        keep = os.environ["LIVE_PROFILE_MIDDLEWARE"].split(",")
        with override_settings(MIDDLEWARE=[name for name in settings.MIDDLEWARE if name.rsplit(".", 1)[-1] in keep]):
            live._pages[:] = [WSGIHandler()]
    for _round in range(args.rounds):
        forms = read_forms(mine)
        d6 = next(form for form in forms if form.value("action") == "d6")
        headers = {"HX-Request": "true", "HX-Target": "match", "X-Kept": "1",
                   "X-Shown": screen.shown(mine, screen.around(mine, d6.at))}
        answer = timed("tap", owner.post, d6.action, d6.data(), headers=headers)
        assert answer.status_code == 200, answer.status_code
        mine = screen.keep(mine, answer.content.decode())
        timed("read_change", live.read_change, match.pk)
        if os.environ.get("LIVE_PROFILE_ALONE"):
            continue
        drawn = timed("draw_part", live.draw_part, stream, at, shown_other)
        assert drawn is not None
        if os.environ.get("LIVE_PROFILE_DUMP"):
            Path(os.environ["LIVE_PROFILE_DUMP"], "tap.html").write_text(answer.content.decode())
            Path(os.environ["LIVE_PROFILE_DUMP"], "part.html").write_text(drawn[0])
        theirs = screen.pushed(theirs, drawn[0]) or theirs
        shown_other = drawn[1]
    skip = min(5, args.rounds // 4)  # the first rounds load templates and translations
    total = 0.0
    for name, samples in spent.items():
        if not samples:
            continue
        median = statistics.median(samples[skip:]) * 1000
        total += median
        print(f"{name:12} median {median:6.2f} ms  mean {statistics.fmean(samples[skip:]) * 1000:6.2f} ms")
    print(f"{'sum':12} median {total:6.2f} ms")
    if profiler is not None:
        pstats.Stats(profiler).sort_stats(os.environ.get("LIVE_PROFILE_SORT", "cumulative")).print_stats(os.environ.get("LIVE_PROFILE_FILTER", ""), args.top)


if __name__ == "__main__":
    main()
