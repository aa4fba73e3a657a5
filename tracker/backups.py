"""A club's data saved to one file and put back: SQLite's online backup, PostgreSQL's pg_dump.

Both work while the server runs: SQLite's backup API copies a consistent snapshot page by page
(writers wait only for each step), pg_dump reads one snapshot in a transaction of its own.
A restore replaces everything in the database with the file's contents; `serve` takes a backup
before it applies migrations to existing data, so an upgrade can always be undone.
"""

import os
import shutil
import sqlite3
import subprocess
from datetime import UTC, datetime
from pathlib import Path

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.models import F, Max

from tracker.models import Match


class BackupError(RuntimeError):
    pass


def _is_sqlite(alias: str) -> bool:
    return connections[alias].vendor == "sqlite"


def default_path(alias: str = DEFAULT_DB_ALIAS) -> Path:
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    return settings.BACKUP_DIR / f"tablekeeper-{stamp}.{'sqlite3' if _is_sqlite(alias) else 'pgdump'}"


def backup(path: Path | None = None, alias: str = DEFAULT_DB_ALIAS) -> Path:
    """Write the whole database to `path` (a new file in var/backups/ by default); returns it."""
    path = Path(path) if path else default_path(alias)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    connection = connections[alias]
    try:
        if _is_sqlite(alias):
            connection.ensure_connection()
            with sqlite3.connect(partial) as copy:
                connection.connection.backup(copy)
            copy.close()
        else:
            _run("pg_dump", "--format=custom", "--no-owner", f"--file={partial}", alias=alias)
        os.replace(partial, path)  # never a half-written file under a backup's name
    finally:
        partial.unlink(missing_ok=True)
    return path


def restore(path: Path, alias: str = DEFAULT_DB_ALIAS) -> None:
    """Replace everything in the database with the backup at `path`.

    Every match's version then moves past any version the database held before: a phone left open on a state
    the restore threw away (its page says version 7, the backup's match is at 6 and moves to 7 with its next
    change) would otherwise take the restored match for the one it shows, and miss what changed."""
    path = Path(path)
    if not path.is_file():
        raise BackupError(f"no backup at {path}")
    connection = connections[alias]
    past = _newest_version(alias)
    if _is_sqlite(alias):
        try:
            with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as source:
                # Not an SQLite file, or one without the app's tables (an empty file, another program's
                # database): refused before anything changes.
                (migrated,) = source.execute("SELECT count(*) FROM django_migrations WHERE app = 'tracker'").fetchone()
                source.execute("SELECT count(*) FROM tracker_match")
                if not migrated:
                    raise sqlite3.DatabaseError("no Tablekeeper tables in it")
                connection.ensure_connection()
                source.backup(connection.connection)
            source.close()
        except sqlite3.DatabaseError as error:
            raise BackupError(f"{path} is not an SQLite backup ({error})") from None
    else:
        if " tracker_match " not in _run("pg_restore", "--list", str(path), alias=alias, database=False):
            raise BackupError(f"{path} is not a Tablekeeper backup (no tracker_match table in it)")
        connection.close()  # this process holds no lock on what is replaced
        _run("pg_restore", "--clean", "--if-exists", "--no-owner", "--single-transaction", str(path),
             alias=alias)
    Match.objects.using(alias).update(version=F("version") + past)


def _newest_version(alias: str) -> int:
    """The highest version of any match in the database now (0 for a database without the app's tables)."""
    try:
        return Match.objects.using(alias).aggregate(newest=Max("version"))["newest"] or 0
    except DatabaseError:
        return 0


def _run(program: str, *args: str, alias: str, database: bool = True) -> str:
    """pg_dump or pg_restore on the configured database (its password through the environment), or on the file
    alone (`database` False: `pg_restore --list`); what it printed."""
    if shutil.which(program) is None:
        raise BackupError(f"{program} is missing ('apt-get install postgresql-client')")
    settings_dict = connections[alias].settings_dict
    env = {**os.environ, "PGPASSWORD": str(settings_dict.get("PASSWORD") or "")}
    target = ["--dbname", settings_dict["NAME"]] if database else []
    for flag, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
        if database and settings_dict.get(key):
            target += [flag, str(settings_dict[key])]
    done = subprocess.run([program, *target, *args], env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise BackupError(f"{program} failed: {done.stderr.strip().splitlines()[-1:] or done.returncode}")
    return done.stdout
