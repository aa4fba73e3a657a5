"""Settings come from the environment; production settings pass `check --deploy`; SQLite runs in WAL mode."""

import os
import secrets
import string
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]


def run(args: list[str], tmp_path: Path, **env: str) -> subprocess.CompletedProcess:
    """Run a Python command in the project with a clean, chosen environment."""
    environ = {key: value for key, value in os.environ.items() if key in ("PATH", "HOME", "LANG", "LC_ALL")}
    environ.update({"DJANGO_SETTINGS_MODULE": "tracker.settings", "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"})
    environ.update(env)
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=environ, capture_output=True, text=True, timeout=120
    )


READ = "from django.conf import settings; print(settings.{})"
"""A process printing a setting as the settings module reads it from the environment: the module alone, as Django's
settings import it (a django.setup() before it imported every app too, half a second of CPU a test)."""


def production_env() -> dict[str, str]:
    alphabet = string.ascii_letters + string.digits + string.punctuation.replace("'", "").replace('"', "")
    return {
        "DEBUG": "false",
        "SECRET_KEY": "".join(secrets.choice(alphabet) for _ in range(64)),
        "ALLOWED_HOSTS": "example.org",
        "HTTPS": "true",
    }


def test_production_settings_pass_the_deploy_check(tmp_path):
    result = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], tmp_path, **production_env())
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_the_deploy_check_flags_the_local_defaults(tmp_path):
    """The check above can fail: without production settings it does."""
    result = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], tmp_path, DEBUG="true")
    assert result.returncode != 0
    assert "security.W018" in result.stderr + result.stdout  # DEBUG on


@pytest.mark.parametrize("name", ["DEBUG", "HTTPS", "BEHIND_PROXY"])
def test_an_invalid_boolean_is_refused(tmp_path, name):
    result = run(["manage.py", "check"], tmp_path, **{name: "maybe"})
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert f"{name} must be true or false, not 'maybe'" in result.stderr


@pytest.mark.parametrize("value, said", [("0", "LIVE_BEAT_SECONDS must be 1 or more, not 0"),
                                         ("-3", "LIVE_BEAT_SECONDS must be a whole number of 0 or more, not '-3'")])
def test_a_live_beat_under_a_second_is_refused(tmp_path, value, said):
    """A stream that never beats would look stalled to every phone: the setting says so at start."""
    result = run(["manage.py", "check"], tmp_path, LIVE_BEAT_SECONDS=value)
    assert result.returncode != 0
    assert said in result.stderr


def test_a_live_beat_of_a_second_is_taken(tmp_path):
    result = run(["-c", READ.format("LIVE_BEAT_SECONDS")], tmp_path, LIVE_BEAT_SECONDS="1")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "1"


@pytest.mark.parametrize("value, expected", [("TRUE", True), ("yes", True), ("0", False), ("off", False), ("", False)])
def test_booleans_are_read_in_the_usual_spellings(tmp_path, value, expected):
    result = run(["-c", READ.format("DEBUG")], tmp_path, DEBUG=value)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(expected)


def test_sqlite_is_configured_for_wal():
    database = settings.DATABASES["default"]
    if database["ENGINE"] != "django.db.backends.sqlite3":
        pytest.skip("the test database is not SQLite")
    assert "journal_mode=WAL" in database["OPTIONS"]["init_command"]
    assert database["OPTIONS"]["transaction_mode"] == "IMMEDIATE"


def test_a_file_database_runs_in_wal_mode(tmp_path):
    code = (
        "import django; django.setup(); from django.db import connection; "
        "cursor = connection.cursor(); cursor.execute('PRAGMA journal_mode'); print(cursor.fetchone()[0])"
    )
    result = run(["-c", code], tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "wal"
    assert (tmp_path / "db.sqlite3").exists()
