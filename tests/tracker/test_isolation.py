"""A database test run after Playwright started in the same process still rolls back what it wrote.

Playwright's sync API marks its event loop as running in the main thread for as long as it is
started, and a pytest-xdist worker runs browser and database tests one after the other. When that
mark was lifted too late (after pytest-django had opened the test's transaction), the test wrote
through another connection, outside the transaction, and its rows stayed for every later test on the
worker: on PostgreSQL, tests failed far from the cause; on SQLite the second connection found the
table locked. tests/conftest.py (pytest_runtest_protocol) lifts the mark around each whole test.

The three tests run in order on one worker (their xdist group): start Playwright, write, look.
"""

import os

import pytest
from playwright.sync_api import Playwright, sync_playwright

from tracker.models import Club

pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("isolation"),
              # Playwright stops after the last test, where no loop is marked running any more.
              pytest.mark.filterwarnings("ignore:There is no current event loop:DeprecationWarning")]

NAME = "Written by the isolation test"


@pytest.fixture(scope="module")
def playwright() -> Playwright:
    """Started before the first test's transaction opens, as a browser test's Chromium is; the ORM allowed
    beside its loop as tests/browser/conftest.py allows it for every test of such a worker."""
    before = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as started:
            yield started
    finally:
        if before is None:
            del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]


def test_playwright_starts_and_stays_started_for_the_next_tests(playwright):
    assert playwright.chromium.name == "chromium"


def test_a_database_test_after_it_writes_a_row(playwright):
    Club.objects.create(name=NAME)
    assert Club.objects.filter(name=NAME).exists()


def test_the_next_test_does_not_see_that_row(playwright):
    assert not Club.objects.filter(name=NAME).exists()
