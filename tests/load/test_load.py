"""Concurrent tables against gunicorn on SQLite, and a SIGKILL in the middle of the load.

Small versions of `python manage.py loadtest` (tracker/loadtest.py says what is checked):
several worker processes write to one SQLite file at once, and nothing may answer 500 or
"database is locked", lose an acknowledged action or apply one twice. Under
tracker/scripts/with-postgres the same runs once more on that PostgreSQL server.
"""

import os

import pytest

from tracker import loadtest

pytestmark = pytest.mark.load


@pytest.fixture
def database(django_db_blocker):
    """The load makes its own temporary database; the check afterwards reads it directly."""
    with django_db_blocker.unblock():
        yield


def assert_clean(report: loadtest.Report) -> None:
    assert report.errors == {}, report.lines()
    assert report.problems == [], report.lines()
    assert report.acked, "no action was acknowledged at all"


def test_concurrent_tables_lose_and_double_nothing(database):
    report = loadtest.run(tables=6, workers=2, matches=1, seconds=40, floor_seconds=1, say=lambda line: None)
    assert_clean(report)
    assert report.matches == 6
    assert report.floor > 0
    # The scripts sent double taps and stale pages, and every one was refused.
    assert any(kind.startswith("409 double") for kind in report.refusals)
    assert any(kind.startswith("409 stale") for kind in report.refusals)


def test_sigkill_mid_load_loses_no_acknowledged_action(database):
    report = loadtest.run(tables=6, workers=2, matches=2, seconds=40, crash=True, floor_seconds=0,
                          say=lambda line: None)
    assert report.crashes == 1
    assert_clean(report)
    assert report.refusals["connection refused (retried)"] > 0, "the tables never met the dead server"


@pytest.mark.skipif(not os.environ.get("DATABASE_URL", "").startswith("postgres"),
                    reason="needs DATABASE_URL=postgres://... (tracker/scripts/with-postgres sets one)")
def test_concurrent_tables_and_a_crash_on_postgresql(database):
    report = loadtest.run(tables=6, workers=2, matches=2, seconds=40, crash=True, floor_seconds=0,
                          database_url=os.environ["DATABASE_URL"], say=lambda line: None)
    assert report.crashes == 1
    assert_clean(report)
