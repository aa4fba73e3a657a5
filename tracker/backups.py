"""A club's data saved to one file and put back: SQLite's online backup, PostgreSQL's pg_dump.

Both work while the server runs: SQLite's backup API copies a consistent snapshot page by page
(writers wait only for each step), pg_dump reads one snapshot in a transaction of its own.
A restore replaces everything in the database with the file's contents; `serve` takes a backup
before it applies migrations to existing data, so an upgrade can always be undone. A backup from an
older version (serve's own, taken before an upgrade) is brought up to this version's schema once
restored; one from a newer version (migrations this code does not have) is refused before anything
changes: this code could not read it.
"""

import fcntl
import hashlib
import os
import shutil
import sqlite3
import subprocess
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader
from django.db.models import F, Max

from tracker.models import Match


class BackupError(RuntimeError):
    pass


def _is_sqlite(alias: str) -> bool:
    return connections[alias].vendor == "sqlite"


def default_path(alias: str = DEFAULT_DB_ALIAS, folder: Path | None = None) -> Path:
    """A new file's path in `folder` (var/backups/ by default), named by the time: a second backup in the same
    second (a restore saving the database right after the backup it restores) gets "-2", never the first's name."""
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    kind = "sqlite3" if _is_sqlite(alias) else "pgdump"
    folder = settings.BACKUP_DIR if folder is None else Path(folder)
    path, number = folder / f"tablekeeper-{stamp}.{kind}", 1
    while path.exists():
        number += 1
        path = folder / f"tablekeeper-{stamp}-{number}.{kind}"
    return path


def backup(path: Path | None = None, alias: str = DEFAULT_DB_ALIAS) -> Path:
    """Write the whole database to `path` (a new file in var/backups/ by default; in a folder given, a new file
    named as there); returns it. A path given is never overwritten, nor its folder made: a USB stick not mounted
    would have "succeeded" on the server's own disk (a store owner's play-test). A path ending in a slash names a
    folder, which must be there: `backup /mnt/usb/` with the stick not mounted wrote a file called /mnt/usb."""
    if not path:
        path = default_path(alias)
        path.parent.mkdir(parents=True, exist_ok=True)
    elif str(path).endswith(("/", os.sep)) and not Path(path).is_dir():
        raise BackupError(f"there is no folder {Path(path)} (is the drive mounted?); nothing was written.")
    elif Path(path).is_dir():
        path = default_path(alias, Path(path))
    else:
        path = Path(path)
        if path.exists():
            raise BackupError(f"{path} already exists; nothing was written. Give a new name, or a folder.")
        if not path.parent.is_dir():
            raise BackupError(f"there is no folder {path.parent} (is the drive mounted?); nothing was written.")
    partial = path.with_name(path.name + ".partial")
    connection = connections[alias]
    try:
        # Its owner's only, as var/secret-key: every password hash, and the sessions that sign phones in.
        os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600))
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


def _serving_mark(alias: str) -> Path | None:
    """The file a server of this database holds a lock on (`serving`): beside an SQLite file, in var/ for a PostgreSQL
    database (named by its host, port and name). None for an in-memory database, which no server shares."""
    connection = connections[alias]
    if _is_sqlite(alias):
        in_memory = connection.is_in_memory_db()  # type: ignore[attr-defined]  # SQLite's wrapper has it
        return None if in_memory else Path(f"{connection.settings_dict['NAME']}.serving")
    where = "{HOST}:{PORT}/{NAME}".format(**connection.settings_dict)
    return settings.BASE_DIR / "var" / f"serving-{hashlib.sha256(where.encode()).hexdigest()[:16]}.lock"


def _opened_mark(alias: str) -> int | None:
    """A descriptor of the database's serving mark (made if missing), or None where it has none."""
    mark = _serving_mark(alias)
    if mark is None:
        return None
    mark.parent.mkdir(parents=True, exist_ok=True)
    return os.open(mark, os.O_RDWR | os.O_CREAT, 0o600)


def serving(alias: str = DEFAULT_DB_ALIAS) -> None:
    """Mark this process as serving the database until it ends, and the server it execs into (`serve`): a shared lock
    on the database's mark, on a descriptor every exec and fork keeps. `restore` is refused while any holds it."""
    held = _opened_mark(alias)
    if held is not None:
        fcntl.flock(held, fcntl.LOCK_SH)  # waits for a restore under way
        os.set_inheritable(held, True)


def _nobody_serving(alias: str) -> int | None:
    """The database's mark, locked for this restore alone; BackupError while a server on this machine serves it (a
    store owner's play-test restored over a running evening: the phones went on acting on the data thrown away)."""
    held = _opened_mark(alias)
    if held is None:
        return None
    try:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(held)
        raise BackupError("the server is running on this database: stop serve first (Ctrl-C where it runs, or "
                          "systemctl stop tablekeeper), then restore, then start it again; nothing was changed.") from None
    return held


def restore(path: Path, alias: str = DEFAULT_DB_ALIAS) -> tuple[list[str], Path]:
    """Replace everything in the database with the backup at `path`, and bring it up to this version's schema;
    returns the migrations that took (none for a backup of this version), and where what the database held
    before was saved (a new backup in var/backups/, taken once the file is known to be a backup it can restore:
    a store owner's play-test restored the wrong file over an evening's matches, with nothing to go back to).

    Every match's version then moves past any version the database held before: a phone left open on a state
    the restore threw away (its page says version 7, the backup's match is at 6 and moves to 7 with its next
    change) would otherwise take the restored match for the one it shows, and miss what changed."""
    path = Path(path)
    if not path.is_file():
        raise BackupError(f"no backup at {path}")
    held = _nobody_serving(alias)
    try:
        return _restore(path, alias)
    finally:
        if held is not None:
            os.close(held)


def _restore(path: Path, alias: str) -> tuple[list[str], Path]:
    connection = connections[alias]
    past = _newest_version(alias)
    if _is_sqlite(alias):
        try:
            # Immutable: read as it is, without the -shm and -wal files a reader of a WAL database leaves beside it.
            with sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True) as source:
                # Not an SQLite file, or one without the app's tables (an empty file, another program's
                # database): refused before anything changes.
                (migrated,) = source.execute("SELECT count(*) FROM django_migrations WHERE app = 'tracker'").fetchone()
                source.execute("SELECT count(*) FROM tracker_match")
                if not migrated:
                    raise sqlite3.DatabaseError("no Tablekeeper tables in it")
                _refuse_newer(path, source.execute("SELECT app, name FROM django_migrations").fetchall())
                saved = backup(alias=alias)
                connection.ensure_connection()
                source.backup(connection.connection)
            source.close()
        except sqlite3.DatabaseError as error:
            raise BackupError(f"{path} is not an SQLite backup ({error})") from None
    else:
        with tempfile.TemporaryDirectory() as folder:
            script = Path(folder) / "restore.sql"
            if " tracker_match " not in _read(path, alias, "--list"):
                raise BackupError(f"{path} is not a Tablekeeper backup (no tracker_match table in it)")
            _refuse_newer(path, _pg_migrations(path, alias))
            _read(path, alias, "--clean", "--if-exists", "--no-owner", f"--file={script}")
            # The tables a newer schema added are not in an older backup, and `--clean` drops only what the backup
            # holds (an older tracker_match is not even dropped while a newer table refers to it): every table of
            # the app goes, in the one transaction that puts the backup's in their place.
            with connection.cursor() as cursor:
                tables = [name for name in connection.introspection.table_names(cursor)
                          if name in _app_tables(alias)]
            dropped = ", ".join(connection.ops.quote_name(name) for name in tables)
            saved = backup(alias=alias)
            connection.close()  # this process holds no lock on what is replaced
            _run("psql", "--no-psqlrc", "--quiet", "--single-transaction", "--set=ON_ERROR_STOP=1",
                 *([f"--command=DROP TABLE IF EXISTS {dropped} CASCADE"] if tables else []), f"--file={script}",
                 alias=alias)
    applied = _bring_up_to_date(path, alias)
    Match.objects.using(alias).update(version=F("version") + past)
    return applied, saved


class _Failed(BackupError):
    """The program ran and failed, or crashed (pg_restore does so on some damaged files)."""


def _read(path: Path, alias: str, *args: str) -> str:
    """pg_restore on the file alone (no database touched); one it cannot read is damaged, or no backup."""
    try:
        return _run("pg_restore", *args, str(path), alias=alias, database=False)
    except _Failed as error:
        raise BackupError(f"{path} is damaged or is not a Tablekeeper backup ({error}); nothing was changed") from None


def _known() -> tuple[set[str], set[tuple[str, str]]]:
    """The apps this code migrates, and every migration it has (read from its files, not a database)."""
    loader = MigrationLoader(None, ignore_no_migrations=True)
    return set(loader.migrated_apps), set(loader.disk_migrations)


def _refuse_newer(path: Path, recorded: list[tuple[str, str]]) -> None:
    """Refused, before anything changes: a backup made by a newer Tablekeeper, which this code cannot read."""
    apps, known = _known()
    newer = sorted(f"{app}.{name}" for app, name in recorded if app in apps and (app, name) not in known)
    if newer:
        raise BackupError(f"{path} was made by a newer version of Tablekeeper (it has migrations this version "
                          f"does not: {', '.join(newer)}); nothing was changed. Update Tablekeeper (git pull), "
                          "then restore it.")


def _pg_migrations(path: Path, alias: str) -> list[tuple[str, str]]:
    """The migrations recorded in a pg_dump file, read from it alone (the rows of its django_migrations)."""
    script = _read(path, alias, "--data-only", "--table=django_migrations", "--file=-")
    rows, columns = [], None
    for line in script.splitlines():
        if columns is None:
            if line.startswith("COPY ") and "django_migrations (" in line:
                columns = [name.strip().strip('"') for name in line.partition("(")[2].partition(")")[0].split(",")]
        elif line == "\\.":
            break
        else:
            row = dict(zip(columns, line.split("\t"), strict=False))
            rows.append((row.get("app", ""), row.get("name", "")))
    return rows


def _app_tables(alias: str) -> set[str]:
    """The tables this version's schema makes: its models', the migrations' record and the cache's."""
    connection = connections[alias]
    cache = {str(options["LOCATION"]) for options in settings.CACHES.values()
             if str(options["BACKEND"]).endswith("DatabaseCache")}
    return set(connection.introspection.django_table_names(include_views=False)) | {"django_migrations"} | cache


def _bring_up_to_date(path: Path, alias: str) -> list[str]:
    """Apply the migrations a restored backup from an older version lacks; the ones applied."""
    executor = MigrationExecutor(connections[alias])
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    if plan:
        try:
            call_command("migrate", database=alias, interactive=False, verbosity=0)
        except Exception as error:
            raise BackupError(f"{path} was restored, but bringing it up to this version failed ({error}); "
                              "`manage.py migrate` says more") from error
    return [f"{migration.app_label}.{migration.name}" for migration, _backwards in plan]


def _newest_version(alias: str) -> int:
    """The highest version of any match in the database now (0 for a database without the app's tables)."""
    try:
        return Match.objects.using(alias).aggregate(newest=Max("version"))["newest"] or 0
    except DatabaseError:
        return 0


def _run(program: str, *args: str, alias: str, database: bool = True) -> str:
    """pg_dump, pg_restore or psql on the configured database (its password through the environment), or on the file
    alone (`database` False: `pg_restore --list`); what it printed."""
    if shutil.which(program) is None:
        raise BackupError(f"{program} is missing ('apt-get install postgresql-client')")
    settings_dict = connections[alias].settings_dict
    env = {**os.environ, "PGPASSWORD": str(settings_dict.get("PASSWORD") or "")}
    target = ["--dbname", settings_dict["NAME"]] if database else []
    for flag, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
        if database and settings_dict.get(key):
            target += [flag, str(settings_dict[key])]
    done = subprocess.run([program, *target, *args], env=env, capture_output=True, text=True, errors="replace")
    if done.returncode < 0:  # killed by a signal: pg_restore crashes so on some damaged files
        raise _Failed(f"{program} crashed (signal {-done.returncode})")
    if done.returncode != 0:
        raise _Failed(f"{program} failed: {done.stderr.strip().splitlines()[-1:] or done.returncode}")
    return done.stdout
