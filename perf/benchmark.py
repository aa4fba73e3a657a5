"""The benchmarks: each figure a ratio (or a count) measured in one run on one machine.

    python manage.py benchmark                                  # pages, long match, bytes, queries
    python manage.py benchmark --load                           # ... and the gunicorn load test
    python manage.py benchmark --load --write perf/results.md   # ... and README's table
    python manage.py benchmark --live                           # ... and the live tables (perf/propagation.py)

Absolute times depend on the machine and on whatever else runs on it; the ratios to the
floor (GET /healthz: one query through the same middleware) are what to compare. Times
are this process's CPU time per request (requests run in-process, and so does SQLite; on
PostgreSQL the server's own work would not be counted, so measure on SQLite), and every
case is taken in turn with the others (round-robin), so a busy moment on the machine
moves all of them alike instead of skewing one ratio. Everything runs in one
transaction that is rolled back: the database is left as it was, but on SQLite that
transaction holds the write lock for the whole run, so point `DATABASE_URL` at a scratch
file when a server is using the usual one. The page weight is what `serve`'s stack sends
over HTTP on loopback (perf/wire.py), from a scratch SQLite file of its own.
"""

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

from django.conf import settings
from django.core.management import call_command
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings
from django.urls import reverse

import rules
from tracker import demo
from tracker.games.card_crush import demo as card_crush_demo
from tracker.games.evons import demo as evons_demo
from tracker.matches import services
from tracker.models import Match, Player

from . import report, wire
from .tables import screen
from .tables.forms import read_forms

SHORT = 10  # the early action of goal 3
HTMX = {"HX-Request": "true", "HX-Target": "match", "X-Kept": "1"}
"""The headers of an htmx form on the match page: every one aims at #match."""


class FormClient(Client):
    """The test client posting a dict as a page's form does, and htmx with it: URL-encoded. The test client's own
    default, multipart, is what only a form with a file sends; reading it made a Card Crush reveal a tenth dearer.
    (perf/side_by_side.py encodes its own posts alike.)"""

    def post(self, path, data=None, content_type=None, **extra):
        if isinstance(data, dict) and content_type is None:
            data, content_type = urlencode(data, doseq=True), "application/x-www-form-urlencoded"
        return super().post(path, data, **({"content_type": content_type} if content_type else {}), **extra)


def _rolled_back(call):
    """Run `call` in a savepoint that is rolled back, so an action can be timed again and again."""
    def run():
        with transaction.atomic():
            response = call()
            transaction.set_rollback(True)
        return response
    return run


def _round_robin(cases: dict, rounds: int) -> dict[str, float]:
    """Median CPU seconds per case, the cases taken in turn in every round.

    CPU time of this process, not wall time: the requests run in-process against SQLite, so
    they only compute, and CPU time leaves out the moments other programs had the CPU.
    """
    samples: dict[str, list[float]] = {name: [] for name in cases}
    for call in cases.values():
        call()  # warm caches and connections; not counted
    for _ in range(rounds):
        for name, call in cases.items():
            start = time.process_time()
            response = call()
            samples[name].append(time.process_time() - start)
            assert response.status_code in (200, 204, 302), (name, response.status_code)
    return {name: statistics.median(times) for name, times in samples.items()}


def _change_queries(client: Client, url: str, data: dict) -> list[str]:
    """The SQL of one htmx POST that changes a match (rolled back), transaction control left out."""
    with CaptureQueriesContext(connection) as captured:
        response = _rolled_back(lambda: client.post(url, data, headers=HTMX))()
    assert response.status_code == 200, (url, response.status_code)
    return [query["sql"] for query in captured
            if query["sql"].split()[0].upper() in ("SELECT", "INSERT", "UPDATE", "DELETE")]


def _queries(client: Client, url: str, params: dict | None = None) -> int:
    client.get(url, params or {})  # once before counting: first-use caches are not the page's cost
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, params or {})
    assert response.status_code == 200, (url, response.status_code)
    return len(captured)


def _d6(match: Match, upto: int) -> None:
    """Plain D6 rolls, one seat then the other, until the match's log is `upto` steps long.

    Lonely Star's D6 is the one action a match can take for ever (no round runs out), so it
    makes a log of any length.
    """
    match.refresh_from_db()
    for step in range(match.head, upto):
        services.match_apply_action(match_id=match.pk, action={"type": "d6", "seat": step % 2},
                                    expected_seq=step)
    match.refresh_from_db()


def _finish_lonely_star(names: tuple[str, str], rolls: int) -> Match:
    """A short finished Lonely Star match (a few D6, then a declared winner), for statistics."""
    match = services.match_create(slug="lonely-star", player_names=list(names), config={})
    _d6(match, rolls)
    services.match_apply_action(match_id=match.pk, action={"type": "declare_winner", "winner": rolls % 2},
                                expected_seq=rolls)
    return match


def _battles(count: int) -> None:
    """`count` finished Card Crush battles, Bench A against someone new each time."""
    for number in range(count):
        resolution, decks = list(card_crush_demo.BATTLES.values())[number % len(card_crush_demo.BATTLES)]
        card_crush_demo.play_battle(("Bench A", f"Bench {number}"), resolution, decks)


def _battle_under_way() -> Match:
    """A Card Crush battle with both decks locked and round 1 to reveal."""
    playing = services.match_create(slug="card-crush", player_names=["Bench A", "Bench B"], config={})
    for seat, names in enumerate(card_crush_demo.BATTLES["rulebook"][1]):
        services.match_apply_action(match_id=playing.pk, expected_seq=seat, action={
            "type": "lock_deck", "seat": seat, "cards": card_crush_demo.deck(names)})
    playing.refresh_from_db()
    return playing


def weighed_matches() -> None:
    """Goal 4's matches, made in this process's database, their addresses printed as JSON: a Card Crush
    battle under way and a new match of every other game (every game's board links its own stylesheet)."""
    demo.load_catalogs()
    shown = {"Card Crush, battle under way": _battle_under_way()}
    for slug, game in rules.GAMES.items():
        if slug != "card-crush":
            shown[f"{game.name}, new match"] = services.match_create(
                slug=slug, player_names=["Bench A", "Bench B"], config={})
    print(json.dumps({name: match.get_absolute_url() for name, match in shown.items()}))


def _page_weight(results: "report.Results", say, static_root: str | None = None,
                 migrated: str | None = None) -> None:
    """Goal 4 as sent: each game's match page from a phone that has never been here (no cookies yet),
    fetched over HTTP on loopback from the stack `serve` runs, with the compression it applies.

    The largest is the figure. That page is then loaded again by a browser without Brotli, and by
    the same phone once its service worker has installed (what installing fetched is counted too).
    `static_root`: the static files collected already (with this project's settings), served as they are;
    `migrated`: an SQLite file migrated to this version already, copied rather than migrated again.
    """
    from . import loadtest  # starts serve's stack; only imported when measuring

    with tempfile.TemporaryDirectory(prefix="tablekeeper-weight-") as folder:
        env = loadtest.server_env(f"sqlite:///{folder}/weight.sqlite3", static_root)
        if migrated:
            shutil.copyfile(migrated, Path(folder) / "weight.sqlite3")
        else:
            loadtest.manage(env, "migrate", "--noinput", "-v0")
        if not static_root:
            loadtest.manage(env, "collectstatic", "--noinput", "-v0")
        made = subprocess.run([sys.executable, "manage.py", "shell", "-c",
                               "from perf.benchmark import weighed_matches; weighed_matches()"],
                              cwd=settings.BASE_DIR, env=env, check=True, capture_output=True, text=True)
        shown = json.loads(made.stdout.strip().splitlines()[-1])
        served = loadtest.Server(env, loadtest.free_port(), 1, Path(folder) / "serve.log")
        served.start()
        try:
            phones = {name: wire.Phone(served.port) for name in shown}
            results.cold = {name: wire.cold_load(phones[name], url) for name, url in shown.items()}
            name, heaviest = results.heaviest
            results.cold_gzip_only = wire.cold_load(wire.Phone(served.port, wire.PHONE_GZIP_ONLY), shown[name])
            results.install = wire.worker_install(phones[name], heaviest)
            results.repeat = wire.repeat_visit(phones[name], shown[name])
        finally:
            served.stop()


def _cases(client: Client, finished: Match, playing: Match, short: Match, long: Match,
           undo_short: Match, undo_long: Match) -> dict:
    """Every timed request, by name; actions run in a savepoint that is rolled back each time."""
    act = reverse("match_act", args=[playing.pk])

    def reveal_then_undo():
        # One action and its undo per sample, so the match never runs out of rounds.
        client.post(act, {"seq": 2, "action": "play_round"})
        return client.post(reverse("match_goto", args=[playing.pk]), {"seq": 3, "step": 2})

    def roll(match: Match):
        url, seq = reverse("match_act", args=[match.pk]), match.head
        return _rolled_back(lambda: client.post(url, {"seq": seq, "action": "d6", "seat": seq % 2},
                                                headers=HTMX))

    def undo(match: Match):
        url, seq = reverse("match_goto", args=[match.pk]), match.head
        return _rolled_back(lambda: client.post(url, {"seq": seq, "step": seq - 1}, headers=HTMX))

    def undo_redo(match: Match):
        url, seq = reverse("match_goto", args=[match.pk]), match.head

        def both():
            client.post(url, {"seq": seq, "step": seq - 1}, headers=HTMX)
            return client.post(url, {"seq": seq - 1, "step": seq}, headers=HTMX)
        return _rolled_back(both)

    # The reveal as the phone sends it: saying which kept parts its screen shows (table.js), all but the one
    # around the button tapped. (A reveal changes nearly every part: it cost about the same without.)
    page = client.get(playing.get_absolute_url()).content.decode()
    tapped = next(form for form in read_forms(page) if form.value("action") == "play_round")
    as_sent = {**HTMX, "X-Shown": screen.shown(page, screen.around(page, tapped.at))}
    poll = reverse("match_poll", args=[finished.pk])
    return {
        report.FLOOR: lambda: client.get(reverse("healthz")),
        # What every open phone asks every 2 s: should cost about the floor.
        "live-update poll, nothing changed": lambda: client.get(poll, {"v": finished.version}),
        report.ACTION: _rolled_back(lambda: client.post(act, {"seq": 2, "action": "play_round"}, headers=as_sent)),
        "match page, finished battle": lambda: client.get(finished.get_absolute_url()),
        "replay page, finished battle, step 3": lambda: client.get(
            reverse("match_replay", args=[finished.pk]), {"step": 3}),
        "catalog search (htmx, \"o\")": lambda: client.get(
            reverse("card_list", args=["card-crush"]), {"q": "o"}, HTTP_HX_REQUEST="true"),
        "match log, finished battle": lambda: client.get(reverse("match_log", args=[finished.pk])),
        "match list": lambda: client.get(reverse("match_list")),
        "reveal a round + undo it (2 POSTs)": reveal_then_undo,
        report.EARLY: roll(short),
        report.LATE: roll(long),
        report.EARLY_UNDO: undo(undo_short),
        report.LATE_UNDO: undo(undo_long),
        report.EARLY_REDO: undo_redo(undo_short),
        report.LATE_REDO: undo_redo(undo_long),
    }


def _pages(player: Player) -> dict:
    """Goal 5's pages: name -> (the match with the log to show) -> (url, query string)."""
    return {
        "home (recent matches)": lambda match: (reverse("home"), None),
        "match list": lambda match: (reverse("match_list"), None),
        "match page (Lonely Star)": lambda match: (match.get_absolute_url(), None),
        "match log (Lonely Star)": lambda match: (reverse("match_log", args=[match.pk]), None),
        "replay, middle step": lambda match: (reverse("match_replay", args=[match.pk]),
                                              {"step": match.head // 2}),
        "statistics, all games": lambda match: (reverse("stats"), None),
        "statistics, Card Crush": lambda match: (reverse("stats"), {"game": "card-crush"}),
        "statistics, Lonely Star": lambda match: (reverse("stats"), {"game": "lonely-star"}),
        "statistics, Evons": lambda match: (reverse("stats"), {"game": "evons"}),
        "a player's statistics": lambda match: (reverse("stats_player", args=[player.pk]), None),
    }


def _load(*, tables: int, workers: int, seconds: float, say, **mode) -> "report.LoadFigures":
    from . import loadtest  # starts gunicorn; only imported when asked for

    # On PostgreSQL the load runs there too (a database of its own on that server); on SQLite in a fresh file.
    database_url = os.environ.get("DATABASE_URL") if connection.vendor == "postgresql" else None
    run = loadtest.run(tables=tables, workers=workers, matches=2, seconds=seconds, say=say,
                       database_url=database_url, **mode)
    return report.LoadFigures(actions=len(run.acked), seconds=run.elapsed, floor=run.floor, ok=run.ok,
                              tables=tables, workers=workers, requests=run.requests, mode=run.mode,
                              p95=run.percentile(0.95), p50=run.percentile(0.5), pace=run.pace,
                              cpu_ratio=run.cpu_ratio, ai_replies=len(run.ai_replies),
                              ai_moves=sum(moves for _took, moves in run.ai_replies), ai_times=run.ai_times())


def run(*, rounds: int, long: int, more: int, load: bool, tables: int, workers: int, load_seconds: float,
        write: str | None, say, readme: str | None = None, pace: float = 3.0, live: bool = False,
        live_database: str | None = None, static_root: str | None = None, migrated: str | None = None) -> None:
    """Measure everything, print it with `say`, and write the Markdown results to `write` if given.

    `static_root`: the static files collected already, with this project's settings (the tests' own copy):
    neither the pages timed here nor the page weight's server collect them again (5 s of CPU each)."""
    started = time.time()
    loads = [report.load_average()]
    with (tempfile.TemporaryDirectory(prefix="tablekeeper-bench-") as root,
          override_settings(STATIC_ROOT=static_root or root)):
        if not static_root:
            call_command("collectstatic", "--noinput", verbosity=0)
        with transaction.atomic():
            results = measure(rounds=rounds, long=long, more=more)
            transaction.set_rollback(True)  # leave the database as it was
    _page_weight(results, say, static_root, migrated)
    loads.append(report.load_average())
    if load:
        # Phones without JavaScript; htmx phones tapping as fast as answered (throughput); htmx
        # phones tapping every `pace` seconds or so, as at a real table (latency); the same with a phone
        # against the hard AI (the AI's reply under load), apart so that its CPU leaves the latency alone.
        common = {"tables": tables, "workers": workers, "seconds": load_seconds, "say": say}
        results.load = _load(**common)
        results.load_htmx = _load(htmx=True, **common)
        results.load_paced = _load(htmx=True, pace=pace, **common)
        results.load_showdown = _load(htmx=True, pace=pace, showdown=1, **common)
        loads.append(report.load_average())
    if live:
        from . import propagation  # starts app servers; only imported when asked for

        results.live = propagation.run(tables=tables, database_url=live_database or os.environ.get("DATABASE_URL"),
                                       say=say)
        loads.append(report.load_average())
    results.rounds, results.load_averages, results.started = rounds, loads, started
    for line in report.lines(results):
        say(line)
    if write:
        report.write_markdown(results, write)
        say(f"Written to {write}")
        if readme:
            report.write_readme_table(results, readme, write)
            say(f"The table in {readme} brought up to date")
    say(f"Matches stored: {Match.objects.count()} (unchanged)")


def measure(*, rounds: int, long: int, more: int) -> "report.Results":
    demo.load_catalogs()
    host = settings.ALLOWED_HOSTS[0]
    client = FormClient(HTTP_HOST=host)
    results = report.Results(long=long)

    finished = card_crush_demo.play_battle(("Bench A", "Bench B"), *card_crush_demo.BATTLES["undone-round"])
    playing = _battle_under_way()
    _finish_lonely_star(("Bench A", "Bench C"), 3)
    evons_demo.table_ends(("Bench A", "Bench C"))
    short_match, long_match, undo_short, undo_long = (
        services.match_create(slug="lonely-star", player_names=names, config={})
        for names in (["Bench A", "Bench B"], ["Bench C", "Bench D"], ["Bench A", "Bench C"], ["Bench B", "Bench D"]))
    _d6(short_match, SHORT - 1)  # so the timed action is the 10th
    _d6(long_match, long - 1)
    _d6(undo_short, SHORT)  # undo at step 10: back to 9
    _d6(undo_long, long)

    results.poll = wire.poll(Client(HTTP_HOST=host), playing)
    results.times = _round_robin(_cases(client, finished, playing, short_match, long_match, undo_short, undo_long),
                                 rounds)
    results.change_queries = {
        "apply one action (htmx)": _change_queries(client, reverse("match_act", args=[long_match.pk]),
                                                   {"seq": long_match.head, "action": "d6", "seat": 0}),
        "undo (htmx)": _change_queries(client, reverse("match_goto", args=[undo_long.pk]),
                                       {"seq": undo_long.head, "step": undo_long.head - 1}),
        # The reveal + undo case leaves the battle a step to redo: the reveal made now replaces it.
        "an action replacing an undone step (htmx)": _change_queries(
            client, reverse("match_act", args=[playing.pk]), {"seq": 2, "action": "play_round"}),
    }

    # Goal 5: the same pages with a few matches and a short log, then with more and a long log.
    pages = _pages(services.player_named("Bench A"))
    results.queries = {name: [_queries(client, *page(short_match))] for name, page in pages.items()}
    _battles(more)
    for number in range(more // 3):
        _finish_lonely_star((f"Bench {number}", "Bench A"), 4)
        evons_demo.table_ends(("Bench A", f"Bench {number}"))
    for name, page in pages.items():
        results.queries[name].append(_queries(client, *page(long_match)))
    results.sizes = (f"{SHORT - 1}-step log and the matches above",
                     f"{long - 1}-step log and {more + 2 * (more // 3)} more finished matches")
    return results
