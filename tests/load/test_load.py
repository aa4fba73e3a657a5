"""Concurrent tables against gunicorn on SQLite, and a SIGKILL in the middle of the load.

Small versions of `python manage.py loadtest` (perf/loadtest.py says what is checked):
several worker processes write to one SQLite file at once, and nothing may answer 500 or
"database is locked", lose an acknowledged action or apply one twice. Five tables play one
match each of the five games. Under tracker/scripts/with-postgres the same runs once more
on that PostgreSQL server.
"""

import os

import pytest

from perf import loadtest
from perf.tables.forms import datalist, read_forms

# One worker runs them all (--dist loadgroup): the session's Ready (conftest.py: a database migrated and holding
# the catalogs, made in processes of its own) is then made once a pass rather than on each worker, and two load
# runs never contend for the cores at once.
pytestmark = [pytest.mark.load, pytest.mark.xdist_group("load")]


@pytest.fixture
def database(django_db_blocker):
    """The load makes its own temporary database (a copy of the session's Ready, conftest.py); the check
    afterwards reads it directly."""
    with django_db_blocker.unblock():
        yield


def test_forms_are_read_as_a_browser_sends_them():
    page = """<form action="/act/"><input type="hidden" name="seq" value="4">
      <input type="radio" name="face" value="up"><input type="radio" name="face" value="covered" checked>
      <input type="checkbox" name="ignore" value="1"><input type="number" name="roll"><input type="number" name="roll">
      <select name="cell"><optgroup label="Main"><option>B2<option selected>C3</optgroup></select>
      <button type="submit" name="action" value="a1">A1</button>
      <button type="submit" name="action" value="a3" disabled>A3</button></form>
      <datalist id="catalog"><option value="Ember &amp; Ash"><option value="Moss"></datalist>"""
    [form] = read_forms(page)
    assert form.action == "/act/"
    assert form.choices == {"face": ["up", "covered"], "ignore": ["1"], "cell": ["B2", "C3"]}
    assert form.button_values() == ["a1"]  # a disabled button cannot be pressed
    assert form.data(("action", "a1"), cell="B2") == {
        "seq": ["4"], "face": ["covered"], "roll": ["", ""], "cell": ["B2"], "action": ["a1"]}
    assert datalist(page, "catalog") == ["Ember & Ash", "Moss"]


def test_a_failed_runs_report_says_what_the_servers_logged(tmp_path):
    """A 500 in CI is explained by the report itself: the servers' logs go with the run's folder."""
    log = tmp_path / "gunicorn-0.log"
    log.write_text("[INFO] Booting worker\n"
                   "2026-12-02 [7] [ERROR] django.request: Internal Server Error: /matches/4/act/\n"
                   "Traceback (most recent call last):\n  File \"views.py\", line 3, in act\n    boom()\n"
                   "RuntimeError: boom\n[INFO] Handling signal: hup\n")
    assert loadtest.tracebacks(log) == [
        "2026-12-02 [7] [ERROR] django.request: Internal Server Error: /matches/4/act/",
        "Traceback (most recent call last):", '  File "views.py", line 3, in act', "    boom()", "RuntimeError: boom"]
    assert loadtest.tracebacks(tmp_path / "missing.log") == []
    report = loadtest.Report(tables=1, workers=1, seconds=1, server_errors=["RuntimeError: boom"])
    assert "server: RuntimeError: boom" in report.lines()


def assert_clean(report: loadtest.Report) -> None:
    assert report.errors == {}, report.lines()
    assert report.problems == [], report.lines()
    assert report.acked, "no action was acknowledged at all"


def assert_every_game_played_out(report: loadtest.Report, matches_each: int) -> None:
    """Each game's script played its matches to the end, and its doubled and stale forms were refused."""
    every_game = {"card-crush", "logos", "cardmaster", "lonely-star", "evons"}
    assert set(report.games) == set(loadtest.TABLE_SCRIPTS) == every_game
    acked = {ack.slug for ack in report.acked}
    for game, made in report.games.items():
        assert made == {"matches": matches_each, "finished": matches_each}, (game, report.lines())
        assert game in acked, f"no {game} action was acknowledged"
        # Each match sends at least one double tap and one stale page, and neither changes anything.
        assert report.tricks[game, "double"] >= matches_each, (game, report.lines())
        assert report.tricks[game, "stale"] >= matches_each, (game, report.lines())


def assert_every_game_finished(report: loadtest.Report) -> None:
    """After a crash every game's table carried on and finished its match (a start cut off by
    the crash may leave an extra empty match behind, so only "at least one" is certain)."""
    assert set(report.games) == set(loadtest.TABLE_SCRIPTS)
    assert all(made["finished"] >= 1 for made in report.games.values()), report.lines()


@pytest.mark.own_sqlite
def test_concurrent_tables_lose_and_double_nothing(database, ready):
    # Five tables take the five games in turn: one match of each, all at once.
    report = loadtest.run(tables=5, workers=2, matches=1, seconds=90, floor_seconds=1, say=lambda line: None,
                          base=ready())
    assert_clean(report)
    assert report.matches == 5
    assert report.floor > 0
    # Every action takes at least its page and its POST; doubles and stale forms add more.
    assert report.requests >= 2 * len(report.acked), report.lines()
    assert any(line.startswith("requests answered: ") for line in report.lines())
    assert_every_game_played_out(report, matches_each=1)


@pytest.mark.own_sqlite
def test_sigkill_mid_load_loses_no_acknowledged_action(database, ready):
    report = loadtest.run(tables=5, workers=2, matches=1, seconds=90, crash=True, floor_seconds=0,
                          say=lambda line: None, base=ready())
    assert report.crashes == 1
    assert_clean(report)
    assert report.refusals["connection refused (retried)"] > 0, "the tables never met the dead server"
    assert_every_game_finished(report)


@pytest.mark.own_sqlite
def test_a_graceful_restart_mid_load_keeps_every_acknowledged_action(database, ready):
    """SIGTERM and a fresh start, as a service manager restarts serve's stack, then SIGHUP (fresh workers): every
    action a phone saw acknowledged is stored once, and every game's table plays on. Both in one run (a run of
    its own each was 7 s of CPU more): SIGHUP comes last, so that no fresh start mends a server it broke; a
    SIGTERM that stops nothing or a stack that does not start again fails the run where it happens."""
    report = loadtest.run(tables=5, workers=2, matches=1, seconds=120, restart="TERM HUP", htmx=True,
                          floor_seconds=0, say=lambda line: None, base=ready())
    assert report.restarts == 2
    assert_clean(report)
    assert_every_game_finished(report)


@pytest.mark.own_sqlite
def test_htmx_phones_tap_once_and_follow_the_match_by_polling(database, ready):
    report = loadtest.run(tables=5, workers=2, matches=1, seconds=90, floor_seconds=0, htmx=True, pace=0.3,
                          say=lambda line: None, base=ready())
    assert_clean(report)
    assert_every_game_played_out(report, matches_each=1)
    # A tap is one htmx POST answered by the #match part; the whole page is loaded only on arriving
    # at the match (a new match, back from a secret entry), never once a tap as without JavaScript.
    assert report.kinds["htmx POST"] >= len(report.acked) // 2, report.lines()
    assert report.kinds["GET match page"] < len(report.acked) / 4, report.lines()
    assert report.kinds["live-update poll"] > 0, report.lines()


@pytest.mark.own_sqlite
def test_a_showdown_beside_the_tables_times_the_ais_replies(database, ready):
    # Two tables and a phone playing the hard AI: each of its taps that ends its possession is answered
    # with the AI's moves, timed; every step of every match still replays and nothing is lost or doubled.
    # The phone stops once the tables are done and two replies are timed: playing on to the deadline, some
    # five replies, took 8 s of CPU more.
    report = loadtest.run(tables=2, workers=2, matches=1, seconds=25, floor_seconds=0, htmx=True, pace=0.3,
                          showdown=1, showdown_replies=2, say=lambda line: None, base=ready())
    assert_clean(report)
    assert report.ai_replies, report.lines()
    assert all(took > 0 and moves >= 1 for took, moves in report.ai_replies)
    reply, slowest, move, slowest_move = report.ai_times()
    assert 0 < move <= reply <= slowest and move <= slowest_move <= slowest
    assert any(line.startswith("hard Showdown beside the tables (1 phone): ") for line in report.lines())


ON_POSTGRESQL = pytest.mark.skipif(not os.environ.get("DATABASE_URL", "").startswith("postgres"),
                                   reason="needs DATABASE_URL=postgres://... (tracker/scripts/with-postgres sets one)")


@ON_POSTGRESQL
def test_two_app_servers_on_one_postgresql_and_one_killed_mid_load(database, ready):
    report = loadtest.run(tables=6, workers=1, servers=2, matches=1, seconds=120, crash=True, htmx=True,
                          floor_seconds=0, database_url=os.environ["DATABASE_URL"], say=lambda line: None,
                          base=ready(os.environ["DATABASE_URL"]))
    assert report.crashes == 1
    assert_clean(report)  # every acknowledged action stored once, every match equal to its replay
    assert len(report.served) == 2 and all(report.served.values()), report.lines()
    assert report.refusals["connection refused (retried)"] > 0, "the killed server's tables never noticed"
    assert_every_game_finished(report)


@ON_POSTGRESQL
def test_concurrent_tables_and_a_crash_on_postgresql(database, ready):
    report = loadtest.run(tables=5, workers=2, matches=1, seconds=90, crash=True, floor_seconds=0,
                          database_url=os.environ["DATABASE_URL"], say=lambda line: None,
                          base=ready(os.environ["DATABASE_URL"]))
    assert report.crashes == 1
    assert_clean(report)
    assert_every_game_finished(report)


@ON_POSTGRESQL
def test_killing_one_of_two_app_servers_moves_its_live_phones_to_the_other(database, ready):
    """Phones follow their matches through streams on the second server, which is SIGKILLed mid-way: they
    reconnect to the first with Last-Event-ID, catch up to the match's version, are sent no version they
    had, and no acknowledged tap is lost or doubled (perf/propagation.py: failover)."""
    from perf import propagation

    result = propagation.failover(database_url=os.environ["DATABASE_URL"], say=lambda line: None,
                          base=ready(os.environ["DATABASE_URL"]))
    assert result["problems"] == [], result
    assert result["acked"] >= 4 * 12 * 0.9, result  # (a tap whose answer a restart cut off is not acknowledged)
    assert result["reconnected"] == 4, result
    assert result["behind"] == [] and result["repeated"] == [], result
