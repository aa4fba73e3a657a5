"""Bad configuration stops `serve` at start: one line saying what is wrong, a non-zero exit,
nothing served and nothing changed (tracker/management/commands/serve.py, tracker/settings.py)."""

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def serve(tmp_path: Path, **env: str) -> subprocess.CompletedProcess:
    environ = {key: value for key, value in os.environ.items() if key in ("PATH", "HOME", "LANG")}
    environ.update({"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "ADDRESS": "127.0.0.1:0",
                    "SECRET_KEY": "s" + "0123456789abcdef" * 4})
    environ.update(env)
    return subprocess.run([sys.executable, "manage.py", "serve", "--prepare-only", "--empty"], cwd=ROOT,
                          env=environ, capture_output=True, text=True, timeout=120)


def refused(result: subprocess.CompletedProcess) -> str:
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr  # one line, no traceback
    return lines[0]


@pytest.mark.parametrize("url", ["nonsense", "postgres://ana:secret@db:notaport/club", "mysql://db/club",
                                 "postgres://db"])
def test_a_malformed_database_url_is_one_line(tmp_path, url):
    line = refused(serve(tmp_path, DATABASE_URL=url))
    assert line.startswith("ImproperlyConfigured: DATABASE_URL")
    assert "secret" not in line  # a password in the URL is never printed


@pytest.mark.parametrize("name, value, expected", [
    ("DEBUG", "maybe", "DEBUG must be true or false, not 'maybe'"),
    ("LOG_LEVEL", "LOUD", "LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, not 'LOUD'"),
    ("TRUSTED_PROXY_COUNT", "two", "TRUSTED_PROXY_COUNT must be a whole number"),
    ("WEB_CONCURRENCY", "4", "WEB_CONCURRENCY must be 1 on SQLite"),
    ("ADDRESS", "localhost", "ADDRESS must be host:port"),
])
def test_an_unknown_setting_value_is_one_line(tmp_path, name, value, expected):
    assert expected in refused(serve(tmp_path, **{name: value}))
    assert not (tmp_path / "db.sqlite3").exists()  # refused before the database was touched


def test_a_weak_secret_key_is_refused(tmp_path):
    assert "SECRET_KEY is too weak" in refused(serve(tmp_path, SECRET_KEY="changeme"))


def test_an_address_in_use_is_one_line(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        line = refused(serve(tmp_path, ADDRESS=f"127.0.0.1:{port}"))
    assert f"ADDRESS 127.0.0.1:{port} cannot be used" in line


def test_caddy_keeps_the_config_it_autosaves_beside_its_caddyfile(tmp_path, monkeypatch):
    """`serve --https`: Caddy autosaves the config it runs in $XDG_CONFIG_HOME/caddy/, by default ~/.config/caddy/,
    outside the app's folder and shared by every serve of the account (a store owner's play-test found it there);
    it goes in var/caddy/ with the rest of Caddy's files."""
    from tracker.web import server

    started: dict = {}
    monkeypatch.setattr(server.subprocess, "Popen", lambda command, **options: started.update(options))
    monkeypatch.setenv("TABLEKEEPER_CADDYFILE", str(tmp_path / "Caddyfile"))
    server.on_starting(None)
    assert started["env"]["XDG_CONFIG_HOME"] == str(tmp_path)
    assert started["env"]["PATH"] == os.environ["PATH"]
