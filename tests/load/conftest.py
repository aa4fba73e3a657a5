import contextlib

import pytest
from django.conf import settings

from perf import loadtest


@pytest.fixture(scope="session")
def ready(django_db_blocker, migrated_database, tmp_path_factory):
    """`ready(database_url=None)`: what the load runs of this session start from (perf/loadtest.py's Ready),
    made once per kind of database: migrating and loading the catalogs took longer than a short run. The
    servers serve the static files this session collected (tests/conftest.py); on SQLite the database starts
    as the session's migrated copy (migrated_database) rather than migrated in a process again."""
    made: dict[str | None, loadtest.Ready] = {}
    with contextlib.ExitStack() as held, django_db_blocker.unblock():
        def start(database_url: str | None = None) -> loadtest.Ready:
            if database_url not in made:
                migrated = None
                if not database_url:
                    migrated = tmp_path_factory.mktemp("ready") / "migrated.sqlite3"
                    migrated_database(migrated)
                made[database_url] = held.enter_context(
                    loadtest.ready(database_url, static_root=str(settings.STATIC_ROOT),
                                   migrated=str(migrated) if migrated else None, say=lambda line: None))
            return made[database_url]

        yield start
