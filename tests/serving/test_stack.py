"""The stack `serve` runs (tracker/web/server.py), started as serve starts it, on a free loopback port:
pages compressed, the headers a phone needs, every request and a server error's traceback in the
log, and a clean shutdown on SIGTERM."""

import gzip
import re
import sqlite3
import subprocess
import sys

import brotli

from tests.serving.stack import ROOT, Stack


def test_serve_compresses_logs_every_error_and_stops_cleanly(tmp_path):
    log_file = tmp_path / "tablekeeper.log"
    stack = Stack(tmp_path, "--empty", LOG_FILE=str(log_file))
    try:
        page = stack.get("/", {"Accept-Encoding": "gzip, deflate, br"})
        assert page.status == 200
        assert page.getheader("Server") is None  # uvicorn's own header is off (tracker/web/server.py)
        assert page.getheader("Content-Encoding") == "br"  # pages: Brotli, padded against BREACH (compression.py)
        assert "Accept-Encoding" in page.getheader("Vary")
        html = brotli.decompress(page.body).decode()
        gzipped = stack.get("/", {"Accept-Encoding": "gzip, deflate"})  # a browser over plain HTTP
        assert gzipped.getheader("Content-Encoding") == "gzip" and gzip.decompress(gzipped.body).decode().startswith("<!")
        for header in ("Content-Security-Policy", "X-Content-Type-Options", "X-Frame-Options", "Referrer-Policy"):
            assert page.getheader(header), header
        assert stack.get("/", {"Accept-Encoding": "identity"}).getheader("Content-Encoding") is None

        stylesheet = re.search(r'href="(/static/css/app\.[0-9a-f]+\.css)"', html).group(1)
        static = stack.get(stylesheet, {"Accept-Encoding": "gzip, deflate, br"})
        assert static.getheader("Content-Encoding") == "br"  # WhiteNoise's own precompressed file
        assert "immutable" in static.getheader("Cache-Control")

        # A server error: a table gone from under the running app. The phone gets the app's own page,
        # the log the whole traceback.
        with sqlite3.connect(tmp_path / "db.sqlite3") as database:
            database.execute("DROP TABLE tracker_match")
        failed = stack.get("/matches/")
        assert failed.status == 500
        assert b"Traceback" not in failed.body and b"tracker_match" not in failed.body
    finally:
        assert stack.stop() == 0  # SIGTERM: a clean shutdown
    for log in (log_file.read_text(), stack.log.read_text()):  # LOG_FILE and standard error alike
        assert "Traceback (most recent call last)" in log
        assert "no such table: tracker_match" in log
        assert '"GET / HTTP/1.1" 200' in log  # the access log
    assert "Shutting down: Master" in stack.log.read_text()
    assert "Using worker: tracker.web.server.Worker" in stack.log.read_text()  # uvicorn's, as serve runs it


def test_restore_is_refused_while_serve_runs_on_the_database(tmp_path):
    """A store owner's play-test restored a backup over a running evening: the phones went on playing the data thrown
    away. While serve runs on a database (its workers hold the mark `serve` took before it became the server),
    restore changes nothing and says to stop it first; stopped, the same restore goes through."""
    stack = Stack(tmp_path, "--empty")

    def manage(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, capture_output=True, text=True,
                              env={**stack.environ, "BACKUP_DIR": str(tmp_path / "backups")}, timeout=300)

    backup = tmp_path / "club.sqlite3"
    try:
        assert manage("backup", str(backup)).returncode == 0  # while it runs, as ever
        refused = manage("restore", str(backup))
        assert refused.returncode != 0 and "the server is running on this database: stop serve first" in refused.stderr
        assert "Restored" not in refused.stdout and not (tmp_path / "backups").exists()
    finally:
        assert stack.stop() == 0
    restored = manage("restore", str(backup))
    assert restored.returncode == 0 and f"Restored {backup}" in restored.stdout, restored.stderr


def test_each_worker_parses_with_httptools_runs_on_uvloop_and_freezes_what_it_loaded():
    """What every request pays, made cheaper (docs/performance.md): uvicorn's compiled parser and loop, named so a
    server without them fails at start, and the collector's full passes kept off what lives as long as a worker."""
    import gc
    import importlib

    from tracker.web import server

    chosen = {key: server.Worker.CONFIG_KWARGS[key] for key in ("http", "loop")}
    assert chosen == {"http": "httptools", "loop": "uvloop"}
    for module in ("httptools", "uvloop"):
        importlib.import_module(module)  # installed from pyproject.toml
    try:
        server.post_worker_init(None)
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
