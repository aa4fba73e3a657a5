"""manage.py backup and restore: a round trip gives the match back as it was at the backup
(SQLite's online backup API; pg_dump and pg_restore on PostgreSQL: the suite runs on both)."""

import os
import sqlite3
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.recorder import MigrationRecorder

from tests import static_cache
from tracker import backups
from tracker.matches import services
from tracker.models import Action, Club, Match

ROOT = Path(__file__).resolve().parents[2]


def roll(match: Match, times: int) -> None:
    match.refresh_from_db()
    for step in range(match.head, match.head + times):
        services.match_apply_action(match_id=match.pk, action={"type": "d6", "seat": step % 2}, expected_seq=step)
    match.refresh_from_db()


@pytest.fixture(autouse=True)
def saved_before_restoring(settings, tmp_path_factory) -> Path:
    """Where a restore saves what the database held (settings.BACKUP_DIR): a folder of the test's own."""
    settings.BACKUP_DIR = tmp_path_factory.mktemp("var-backups")
    return settings.BACKUP_DIR


def log(match: Match) -> list:
    return list(Action.objects.filter(match=match).order_by("seq").values_list("seq", "payload", "events", "abandoned"))


@pytest.mark.django_db(transaction=True)
def test_a_restore_gives_the_match_back_as_it_was_at_the_backup(tmp_path, capsys, settings):
    match = services.match_create(slug="lonely-star", player_names=["Ana", "Ben"], config={})
    roll(match, 4)
    at_backup = (match.head, match.state, log(match))
    path = tmp_path / f"club.{'sqlite3' if connection.vendor == 'sqlite' else 'pgdump'}"
    call_command("backup", str(path))
    assert f"Backed up to {path}" in capsys.readouterr().out

    roll(match, 3)  # play on, and start another match
    services.match_create(slug="lonely-star", player_names=["Chloe", "Dev"], config={})
    assert Match.objects.count() == 2

    thrown_away = Match.objects.get(pk=match.pk).version
    capsys.readouterr()
    call_command("restore", str(path))
    said = capsys.readouterr().out
    match.refresh_from_db()
    assert (match.head, match.state, log(match)) == at_backup
    assert match.version > thrown_away, "a phone still showing the state thrown away must see the match changed"
    assert Match.objects.count() == 1
    assert services.replay_problems(match) == []
    roll(match, 1)  # and play goes on from there
    assert match.head == at_backup[0] + 1

    # What the restore replaced was saved first (a store owner's play-test restored over an evening's matches):
    # restoring that brings the evening back.
    saved = Path(said.split("What the database held before was saved to ", 1)[1].split(": restore that", 1)[0])
    assert saved.parent == settings.BACKUP_DIR and saved.stat().st_mode & 0o777 == 0o600
    call_command("restore", str(saved))
    match.refresh_from_db()
    assert match.head == at_backup[0] + 3 and Match.objects.count() == 2


@pytest.mark.django_db(transaction=True)
def test_a_file_that_is_no_backup_is_refused_and_nothing_changes(tmp_path, saved_before_restoring):
    match = services.match_create(slug="lonely-star", player_names=["Ana", "Ben"], config={})
    roll(match, 2)
    junk = tmp_path / "junk.sqlite3"
    junk.write_text("not a database")
    with pytest.raises(CommandError):
        call_command("restore", str(junk))
    with pytest.raises(CommandError, match="no backup at"):
        call_command("restore", str(tmp_path / "missing"))
    # An empty file (a copy that failed) and another program's database: the club's data stays.
    empty, other = tmp_path / "empty.sqlite3", tmp_path / "other.sqlite3"
    empty.touch()
    with sqlite3.connect(other) as notes:
        notes.execute("CREATE TABLE notes (text TEXT)")
    notes.close()
    if connection.vendor == "postgresql":  # and a dump of another database
        empty.write_bytes(b"PGDMP")
    for not_ours in (empty, other):
        with pytest.raises(CommandError):
            call_command("restore", str(not_ours))
    match.refresh_from_db()
    assert match.head == 2
    assert not list(saved_before_restoring.iterdir()), "a refused restore replaces nothing, so it saves nothing"


def backup_file(tmp_path: Path, name: str = "club") -> Path:
    return tmp_path / f"{name}.{'sqlite3' if connection.vendor == 'sqlite' else 'pgdump'}"


def waiting_migrations() -> list:
    executor = MigrationExecutor(connection)
    return executor.migration_plan(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_a_backup_from_an_older_version_is_restored_and_brought_up_to_this_one(tmp_path, capsys):
    """serve's own backup before an upgrade is at the older schema: restored as it was, every page was a 500
    ("no such column tracker_match.slug") until `migrate` ran. It is brought up to this version, and the tables
    the newer schema added (and what they held) give way to the backup's state."""
    match = services.match_create(slug="lonely-star", player_names=["Ana", "Ben"], config={})
    roll(match, 2)
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    path = backup_file(tmp_path, "before-the-upgrade")
    try:
        MigrationExecutor(connection).migrate([("tracker", "0005_tournament_organiser")])
        call_command("backup", str(path))
    finally:
        MigrationExecutor(connection).migrate(latest)
    Club.objects.create(name="Made after the upgrade")  # a table the older schema does not have
    roll(match, 1)
    capsys.readouterr()

    call_command("restore", str(path))
    said = capsys.readouterr().out
    assert f"Restored {path}" in said and "brought up to this one" in said and "tracker.0007_slug_names_the_game" in said
    assert waiting_migrations() == []
    match.refresh_from_db()
    assert match.head == 2 and match.slug == "lonely-star" and services.replay_problems(match) == []
    assert not Club.objects.exists()
    roll(match, 1)  # and play goes on
    assert match.head == 3


@pytest.mark.django_db(transaction=True)
def test_a_backup_from_a_newer_version_is_refused_and_nothing_changes(tmp_path):
    match = services.match_create(slug="lonely-star", player_names=["Ana", "Ben"], config={})
    roll(match, 1)
    recorder = MigrationRecorder(connection)
    recorder.record_applied("tracker", "9999_from_the_future")
    path = backup_file(tmp_path, "newer")
    try:
        call_command("backup", str(path))
    finally:
        recorder.record_unapplied("tracker", "9999_from_the_future")
    roll(match, 2)

    with pytest.raises(CommandError, match=r"made by a newer version of Tablekeeper .*tracker\.9999_from_the_future"
                                           r".*nothing was changed"):
        call_command("restore", str(path))
    match.refresh_from_db()
    assert match.head == 3
    assert not recorder.migration_qs.filter(name="9999_from_the_future").exists()


@pytest.mark.django_db(transaction=True)
def test_a_pg_restore_that_crashes_on_the_file_says_it_is_damaged(tmp_path, monkeypatch):
    """pg_restore dies of a signal on some damaged files: "pg_restore failed: -11" said nothing useful."""
    if connection.vendor != "postgresql":
        pytest.skip("pg_restore reads PostgreSQL's backups")
    match = services.match_create(slug="lonely-star", player_names=["Ana", "Ben"], config={})
    roll(match, 1)
    path = backup_file(tmp_path)
    call_command("backup", str(path))
    cut = tmp_path / "cut.pgdump"  # a copy that stopped half way
    cut.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    with pytest.raises(CommandError, match=r"is damaged or is not a Tablekeeper backup .*nothing was changed"):
        call_command("restore", str(cut))
    crashing = tmp_path / "bin" / "pg_restore"
    crashing.parent.mkdir()
    crashing.write_text("#!/bin/sh\nkill -SEGV $$\n")
    crashing.chmod(0o755)
    monkeypatch.setenv("PATH", f"{crashing.parent}{os.pathsep}{os.environ['PATH']}")
    with pytest.raises(CommandError, match=r"is damaged or is not a Tablekeeper backup \(pg_restore crashed"):
        call_command("restore", str(path))
    match.refresh_from_db()
    assert match.head == 1


def test_a_process_that_used_the_pool_exits_at_once():
    """`manage.py shell` (any process that had opened PostgreSQL's pool) took 20 s to exit, now and then: left open,
    the pool was closed as the interpreter finalized, waiting 5 s for each of its four threads, which could no
    longer run (tracker/apps.py). Which way it went hung on the order of that end; a handler run after
    tracker's own at exit sees the pool's threads, which must have stopped."""
    if connection.vendor != "postgresql":
        pytest.skip("only PostgreSQL's connections come from a pool")
    script = """if True:
        import atexit, os, threading
        import django
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tracker.settings")
        atexit.register(lambda: print(sorted(t.name for t in threading.enumerate() if t.name.startswith("pool-"))))
        django.setup()
        from django.db import connection
        connection.ensure_connection()
        print(sorted(t.name for t in threading.enumerate() if t.name.startswith("pool-")))
    """
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=15)
    assert done.returncode == 0, done.stderr
    running, at_exit = done.stdout.splitlines()
    assert "pool-1-scheduler" in running and at_exit == "[]", done.stdout


@pytest.mark.own_sqlite
def test_serve_backs_up_before_it_migrates_existing_data(tmp_path):
    """An upgrade: data at an older migration is backed up before the new migrations run. The static files
    collected from this very source tree are not collected again (4 s of CPU at every start)."""
    environ = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "BACKUP_DIR": str(tmp_path),
               "SECRET_KEY": "k" + "0123456789abcdef" * 4, "ADDRESS": "127.0.0.1:0",
               **static_cache.copy_for_serve(tmp_path)}
    manifest = Path(environ["STATIC_ROOT"]) / "staticfiles.json"
    collected = manifest.stat().st_mtime_ns

    def manage(*args: str) -> str:
        done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=environ, capture_output=True,
                              text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        return done.stdout

    manage("migrate", "tracker", "0001", "-v0")
    assert "Backed up before migrating" in manage("serve", "--prepare-only", "--empty")
    assert len(list(tmp_path.glob("tablekeeper-*.sqlite3"))) == 1
    assert "Backed up" not in manage("serve", "--prepare-only", "--empty")  # nothing to migrate: no backup
    assert manifest.stat().st_mtime_ns == collected


@pytest.mark.django_db(transaction=True)
def test_a_backup_never_overwrites_a_file_nor_makes_the_folder_it_was_given(tmp_path, capsys, monkeypatch):
    """A store owner's play-test: `backup /media/usb/club.sqlite3` with the stick not mounted "succeeded" on the
    server's own disk, and a second backup under the same name replaced the first."""
    services.match_create(slug="lonely-star", player_names=["Ana", "Ben"], config={})
    taken = tmp_path / "club.backup"
    call_command("backup", str(taken))
    first = taken.read_bytes()
    with pytest.raises(CommandError, match="already exists; nothing was written"):
        call_command("backup", str(taken))
    assert taken.read_bytes() == first
    unmounted = tmp_path / "usb" / "club.backup"
    with pytest.raises(CommandError, match=r"there is no folder .*usb \(is the drive mounted\?\)"):
        call_command("backup", str(unmounted))
    assert not unmounted.parent.exists()
    # A folder named with its slash must be there too: `backup /mnt/usb/` wrote a file called /mnt/usb.
    with pytest.raises(CommandError, match=r"there is no folder .*usb \(is the drive mounted\?\)"):
        call_command("backup", f"{unmounted.parent}/")
    assert not unmounted.parent.exists()
    capsys.readouterr()
    call_command("backup", str(tmp_path))  # a folder: a new file in it, named as in var/backups/
    written = Path(capsys.readouterr().out.removeprefix("Backed up to ").strip())
    assert written.parent == tmp_path and written.name.startswith("tablekeeper-") and written.stat().st_size
    # A second backup in the same second, as a restore takes right after the backup it restores, is a new file:
    # it took the first one's name, and put the database as it stood in place of the backup being restored.
    monkeypatch.setattr(backups, "datetime", _Frozen)
    call_command("backup", str(tmp_path))
    call_command("backup", str(tmp_path))
    first, second = (Path(line.removeprefix("Backed up to ")) for line in capsys.readouterr().out.splitlines())
    assert first != second and first.stem == "tablekeeper-20261127-210000" and second.stem == "tablekeeper-20261127-210000-2"
    assert first.exists() and second.exists()


class _Frozen(datetime):
    @classmethod
    def now(cls, tz=None):
        return datetime(2026, 11, 27, 21, 0, 0, tzinfo=tz)


@pytest.mark.django_db(transaction=True)
def test_a_restore_leaves_nothing_beside_the_backup(tmp_path):
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's -shm and -wal files")
    services.match_create(slug="lonely-star", player_names=["Ana", "Ben"], config={})
    path = tmp_path / "club #1.sqlite3"  # a name a URI must escape
    call_command("backup", str(path))
    call_command("restore", str(path))
    assert sorted(item.name for item in tmp_path.iterdir()) == ["club #1.sqlite3"]


@pytest.mark.django_db(transaction=True)
def test_a_backup_is_readable_by_its_owner_only(tmp_path, capsys):
    """A backup holds every account's password hash and the sessions of the phones signed in (a session's key
    signs a phone in as its account): like var/secret-key, it is its owner's to read (a store owner's play-test
    found var/backups/ readable by every account on the laptop). The default folder and one given, on both
    databases."""
    services.match_create(slug="lonely-star", player_names=["Ana", "Ben"], config={})
    given = tmp_path / f"club.{'sqlite3' if connection.vendor == 'sqlite' else 'pgdump'}"
    call_command("backup", str(given))
    call_command("backup", str(tmp_path))
    capsys.readouterr()
    for path in tmp_path.iterdir():
        assert path.stat().st_mode & 0o777 == 0o600, path.name
