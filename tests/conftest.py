import asyncio
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest
from _pytest.nodeid import NodeId  # pytest 9's structured test id (see _grouped)
from django.conf import settings
from django.test import override_settings
from django.utils import translation
from whitenoise.base import WhiteNoise

from tests import sample_game, static_cache
from tracker.web import translations


def pytest_configure(config):
    """The German catalogue compiled (git-ignored .mo) before any test reads it: a plain pytest
    in a fresh clone works, and running the tests never changes a tracked file."""
    translations.compile_catalogues()


@pytest.fixture(scope="session", autouse=True)
def collected_static():
    """Hashed static names need a manifest, as in production: collected once for this source tree, in a
    folder no run writes to once it is made (tests/static_cache.py)."""
    settings.STATIC_ROOT = static_cache.collected()


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker, tmp_path_factory):
    """pytest-django's test database, and on SQLite a copy of it as migrated, taken before any test runs: what
    `migrated_database` hands out. Only the test database made here (in memory): a session none of whose tests
    asks for the database makes none, and the connection still names the project's own file."""
    from django.db import connection

    if connection.vendor == "sqlite" and connection.creation.is_in_memory_db(connection.settings_dict["NAME"]):
        kept = tmp_path_factory.mktemp("migrated") / "db.sqlite3"
        with django_db_blocker.unblock(), closing(sqlite3.connect(kept)) as copy:
            connection.ensure_connection()
            connection.connection.backup(copy)
        _migrated.append(kept)
    yield django_db_setup


_migrated: list[Path] = []


@pytest.fixture(scope="session")
def migrated_database(django_db_setup, tmp_path_factory) -> Callable[[Path], None]:
    """`migrated_database(path)`: an SQLite file at `path` as `migrate` makes it, for a process a test starts on a
    database of its own. Each such test ran `migrate` in a process (3 s of CPU); the session's test database,
    migrated already, is copied instead (on PostgreSQL, one file is migrated in a process, the first time one
    is asked for)."""
    def copy(path: Path) -> None:
        if not _migrated:
            made = tmp_path_factory.mktemp("migrated") / "db.sqlite3"
            environ = {**os.environ, "DATABASE_URL": f"sqlite:///{made}"}
            environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
            subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=settings.BASE_DIR,
                           env=environ, check=True, capture_output=True)
            _migrated.append(made)
        with closing(sqlite3.connect(_migrated[0])) as kept, closing(sqlite3.connect(path)) as copy:
            kept.backup(copy)

    return copy


@pytest.fixture(scope="session", autouse=True)
def lengths_held_as_postgresql_holds_them():
    """SQLite stores a text of any length in a column PostgreSQL holds to its max_length: a name that grew in
    Unicode's compatibility form was stored on SQLite and a 500 on PostgreSQL, found only by hand. Every model
    saved in any test is held to its columns' lengths, so the sweeps on SQLite find such a value too (saves
    one at a time; bulk writes are PostgreSQL's to check)."""
    from django.db.models import CharField
    from django.db.models.signals import pre_save

    def held(sender, instance, raw=False, **kwargs):
        for field in sender._meta.concrete_fields:
            value = getattr(instance, field.attname, None)
            if isinstance(field, CharField) and field.max_length and isinstance(value, str):
                assert len(value) <= field.max_length, (
                    f"{sender.__name__}.{field.name} holds {len(value)} characters, its column {field.max_length}")

    pre_save.connect(held, dispatch_uid="lengths_held_as_postgresql_holds_them")
    yield
    pre_save.disconnect(dispatch_uid="lengths_held_as_postgresql_holds_them")


@pytest.fixture(scope="session", autouse=True)
def static_files_listed_once(collected_static):
    """WhiteNoise lists STATIC_ROOT (some 300 files, a stat and a header set each) whenever its middleware
    is made, and Django's test client makes the middleware afresh for every client, so every test paid
    for it, several times for a test with several phones. A server process lists the files once; here
    each listing is kept for the settings it was made under, and a test that changes one of those
    settings gets a listing of its own."""
    listed: dict[tuple, dict] = {}
    list_files = WhiteNoise.update_files_dictionary

    def update_files_dictionary(self, root, prefix):
        key = (root, prefix, settings.DEBUG, settings.STATIC_URL,
               *((name, repr(getattr(settings, name))) for name in dir(settings) if name.startswith("WHITENOISE_")))
        if key not in listed:
            before = set(self.files)
            list_files(self, root, prefix)
            listed[key] = {url: found for url, found in self.files.items() if url not in before}
        self.files.update(listed[key])

    WhiteNoise.update_files_dictionary = update_files_dictionary
    yield
    WhiteNoise.update_files_dictionary = list_files


@pytest.fixture(autouse=True)
def catalog_moments_forgotten():
    """A process keeps the catalog of each moment a match was made at (tracker/matches/club_cards.py): a test's
    database goes with it, so its moments go too, whatever the clock says."""
    from tracker.matches import club_cards

    yield
    club_cards._stood.cache_clear()


@pytest.fixture(autouse=True)
def sample_game_registered(request):
    """High Card Duel (tests/sample_game/) in the registries for a test parameter marked `sample_game`."""
    if request.node.get_closest_marker("sample_game") is None:
        yield
        return
    with sample_game.registered():
        yield


@pytest.fixture(autouse=True)
def no_language_left_active():
    """A request in German through the test client leaves German active in the thread (LocaleMiddleware
    activates a request's language and nothing resets it): a later test reading a message outside a request
    would read it in German, depending on which tests its worker ran before."""
    yield
    translation.deactivate()


@pytest.fixture(scope="session", autouse=True)
def fast_password_hashing():
    """MD5 instead of 1.2 million PBKDF2 rounds for every account a test or the demo makes: Django's
    advice for tests, and several seconds per test that signs in. Servers the load and serving
    tests start run in their own processes, with the real hasher."""
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """Each test outside tests/browser runs, fixtures and all, with no event loop running in its thread.

    Playwright's sync API (tests/browser) marks its asyncio loop as running in the main thread for as
    long as it is started: the whole session. A test run after a browser test in the same process (a
    pytest-xdist worker) then found that loop, and `asyncio.run`, asgiref's `async_to_sync` and so
    Django's test client on an async view (the live stream, which every route sweep requests) all
    refused to run. Worse, Django keeps a thread's connections in asgiref's Local, which stores them
    apart while a loop runs: when the mark was lifted by a fixture, after pytest-django had opened the
    test's transaction on the connection kept for the loop, the test wrote through the thread's other
    connection, outside any transaction, and every later test on that worker saw its rows. So the
    mark is lifted around the whole protocol, before any fixture, and put back for the next browser test.
    """
    playwrights = asyncio._get_running_loop()
    if playwrights is None or item.nodeid.startswith("tests/browser/"):
        return (yield)
    asyncio._set_running_loop(None)
    try:
        return (yield)
    finally:
        asyncio._set_running_loop(playwrights)


# The secrecy sweep compares its worlds once per viewer in CI: the other seat and the club member (who is
# answered the most pages) on PostgreSQL, the other four on SQLite, so every route is requested on both
# engines and every viewer is swept. Whether two worlds look alike is decided by the pages, not by the
# engine; sweeping those two on SQLite as well cost 30 s of CPU a run. A plain pytest sweeps all six.
# The same for the alone sweep's two longest games (its other three stay on SQLite) and the German crawl, whose pages
# say the same on either engine: the SQLite pass ended 160 s after the PostgreSQL pass (877 and 718 s, 2026-11-30),
# and the run's wall is the later pass's: its own processes (PostgreSQL's server aside) used 1,365 of the 1,846
# CPU-seconds two cores had in its 923 s.
POSTGRESQL_PASS = (
    *(f"tests/tracker/test_secrecy_sweep.py::test_nobody_else_can_tell_which_entries_were_made_before_the_reveal[{who}]"
      for who in ("ben", "member")),
    *(f"tests/tracker/test_alone_sweep.py::test_no_phone_takes_back_what_it_saw_or_decides_the_match_alone[{game}]"
      for game in ("lonely-star", "cardmaster")),
    "tests/tracker/test_german.py::test_every_page_of_every_game_is_german",
)
"""Tests that CI's first pass (SQLite) leaves to the second (marked postgresql_pass)."""

# Tests that run on PostgreSQL as well (CI's second pass), because the engine matters to them: a real
# server with its own connections (browser, load), locking and races, write counts, what the two store
# alike (imports, lengths), LISTEN/NOTIFY and the parts the stream draws in-process (their requests end as
# a served request does, closing connections: test_live_updates), backups, and the sweeps that must find no
# 500 on either.
# Everything else runs once, on SQLite. So do tests marked own_sqlite, and tests/serving: they start their
# servers on an SQLite file of their own whatever DATABASE_URL says, so a second pass ran the very same.
BOTH_DATABASES = (
    "tests/browser/", "tests/load/",
    "tests/fuzz/test_match_files.py", "tests/fuzz/test_endpoints.py",
    *(f"tests/tracker/{module}.py::" for module in (
        "test_services", "test_once", "test_cards", "test_exchange", "test_rating_confirmation",
        "test_live_stream", "test_live_updates", "test_backups", "test_migrations", "test_write_sweep", "test_sharing_races",
        "test_name_races", "test_lock_races", "test_names_given", "test_log_filters", "test_card_rule",
        "test_match_read")),
    *POSTGRESQL_PASS,
)
ONCE_ON_SQLITE = (
    "tests/load/test_benchmark_command.py::",
    "tests/tracker/test_services.py::test_it_replays_to_the_stored_state_after_a_long_scripted_match",
)
"""Tests of the modules above that CI runs once, on SQLite: what they check is the same on either engine (the
benchmark command's report, a long match replayed), and each cost 30 to 40 s of CPU a pass; CI was at its 15
minutes."""
# So do the tests of those modules marked engine_agnostic: what they check is decided before the database is
# asked anything that could differ between the engines, or without it (a match file refused by its re-run before
# import_match stores a row; junk in a card's stat refused by the form's own field; a route list or a source read).
# Each such test says why where it is marked. The tests beside them that store and read back stay on both.


def pytest_ignore_collect(collection_path, config):
    """A run of `-m both_databases` alone (CI's PostgreSQL pass) does not collect the modules it would
    deselect whole: each worker imported and collected all 3,800 tests to run 860."""
    if config.option.markexpr != "both_databases" or collection_path.suffix != ".py":
        return None
    if not collection_path.name.startswith("test_"):
        return None
    path = collection_path.relative_to(config.rootpath).as_posix()
    return not any(path.startswith(prefix.split("::")[0]) for prefix in BOTH_DATABASES)


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(config, items):
    """Marks first (`-m both_databases` selects by them), the group ids after pytest-xdist's own hook."""
    for item in items:
        if (item.nodeid.startswith(BOTH_DATABASES) and not item.nodeid.startswith(ONCE_ON_SQLITE)
                and item.get_closest_marker("own_sqlite") is None and item.get_closest_marker("engine_agnostic") is None):
            item.add_marker(pytest.mark.both_databases)
        if item.nodeid.startswith(POSTGRESQL_PASS):
            item.add_marker(pytest.mark.postgresql_pass)
        if item.get_closest_marker("engine_agnostic") and item.nodeid.startswith(("tests/browser/", *POSTGRESQL_PASS)):
            raise pytest.UsageError(f"{item.nodeid} is marked engine_agnostic, but CI's SQLite pass leaves it out: "
                                    "it would run nowhere")
    yield
    for item in items:
        _grouped(item)


def _grouped(item) -> None:
    """The test's id as `--dist loadgroup` reads it, "path::test@group" for an xdist_group mark.

    pytest-xdist 3.8 writes that id to `item._nodeid`, which pytest 9 no longer reads (its ids are
    `item._id`), so every group was spread over the workers and its module fixture built on each (the
    benchmark's shared run, three times a pass). Nothing happens without xdist or a group."""
    grouped = getattr(item, "_nodeid", None)
    if grouped and grouped != item.nodeid:
        item._id = NodeId.parse(grouped)
