"""The production stack: gunicorn managing uvicorn workers that serve tracker.asgi for every route.

`serve` (tracker/management/commands/serve.py), the load test, the benchmark and the tests all
start it through `command()`, so what is measured is what a club runs. gunicorn also reads this
module as its configuration (`--config python:tracker.web.server`): the lower-case names at the top
are gunicorn settings. It imports nothing of Django, as gunicorn's master loads it.
"""

import contextlib
import ctypes
import gc
import os
import signal
import subprocess
import sys

from uvicorn_worker import UvicornWorker


class Worker(UvicornWorker):
    """uvicorn's worker as serve runs it: no `server: uvicorn` on every answer (nothing a phone uses;
    17 bytes on each of the eight answers of a match page's cold load). httptools parses HTTP (not h11, in pure
    Python) and uvloop runs the event loop (not asyncio's own): GET /healthz served for about 0.7 ms less CPU
    of some 2.7 (docs/performance.md, "What every request pays")."""

    CONFIG_KWARGS = {**UvicornWorker.CONFIG_KWARGS, "server_header": False, "http": "httptools", "loop": "uvloop"}


worker_class = "tracker.web.server.Worker"
# SIGHUP (fresh workers, the old ones finish) and SIGTERM (stop): a worker finishes the requests
# it holds for up to this long, so every answered action was committed and stays.
graceful_timeout = 15
timeout = 60
keepalive = 5
# uvicorn trusts no X-Forwarded-* header: the app alone decides (BEHIND_PROXY, TRUSTED_PROXY_COUNT).
forwarded_allow_ips = ""
# No control socket: nothing uses it, and two servers on one machine would share its one path.
control_socket_disable = True
# gunicorn's and uvicorn's own lines (one per request, and the server's errors) go where
# Django's do (settings.LOGGING): standard error, and LOG_FILE as well when it is set.
_log_file = os.environ.get("LOG_FILE", "")
_handlers = ["stderr", *(["file"] if _log_file else [])]
logconfig_dict = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"line": {"format": "%(asctime)s [%(process)d] [%(levelname)s] %(name)s: %(message)s"}},
    "handlers": {
        "stderr": {"class": "logging.StreamHandler", "formatter": "line", "stream": "ext://sys.stderr"},
        **({"file": {"class": "logging.handlers.WatchedFileHandler", "filename": _log_file, "formatter": "line"}}
           if _log_file else {}),
    },
    "root": {"level": "INFO", "handlers": []},
    "loggers": {
        "gunicorn.error": {"level": "INFO", "handlers": _handlers, "propagate": False},
        "gunicorn.access": {"level": "INFO", "handlers": _handlers, "propagate": False},
    },
}


def post_worker_init(worker) -> None:
    """gunicorn hook, in each worker once the app is loaded: what Django and the app made so far (modules,
    settings, URL patterns, the middleware) lives as long as the worker, so the collector's full passes stop
    walking it (gc.freeze). tracker/asgi.py freezes again once the first pages are drawn (templates,
    translations)."""
    gc.collect()
    gc.freeze()


SQLITE_ENGINE = "django.db.backends.sqlite3"


def worker_count(engine: str) -> int:
    """One process on SQLite, so a live update reaches every phone (in-process fan-out, one
    writer anyway); on PostgreSQL one per core, or WEB_CONCURRENCY."""
    wanted = os.environ.get("WEB_CONCURRENCY", "")
    if wanted and (not wanted.isdecimal() or int(wanted) < 1):
        raise ValueError(f"WEB_CONCURRENCY must be a whole number of 1 or more, not {wanted!r}")
    if engine == SQLITE_ENGINE:
        if wanted and int(wanted) != 1:
            raise ValueError("WEB_CONCURRENCY must be 1 on SQLite: one process serves every phone")
        return 1
    return int(wanted) if wanted else os.cpu_count() or 1


def command(address: str, workers: int, *, wsgi: bool = False) -> list[str]:
    """The gunicorn command line for the stack on `address` (host:port).

    `wsgi=True` is the comparison only (the benchmark's --wsgi): gunicorn's threaded WSGI
    workers on tracker.wsgi, as before the live-update streams needed ASGI.
    """
    app = ["tracker.wsgi:application", "--worker-class", "gthread", "--threads", "4"] if wsgi \
        else ["tracker.asgi:application"]
    return [sys.executable, "-m", "gunicorn", *app, "--config", "python:tracker.web.server",
            "--bind", address, "--workers", str(workers)]


# --- HTTPS at the table: Caddy in front (serve --https) --------------------------------------------

def caddyfile(*, app: str, names: list[str], bind: str, https_port: int, http_port: int, storage: str) -> str:
    """Caddy's configuration: HTTPS for `names` with a certificate authority of its own (`tls internal`),
    and plain HTTP only for the page that hands phones that authority (/trust/) and the static files it is drawn
    with (a phone that does not trust the authority yet could not fetch them over HTTPS), the rest redirected."""
    sites = ", ".join(f"https://{name}" for name in names)
    return f"""{{
\tadmin off
\tskip_install_trust
\tauto_https disable_redirects
\thttp_port {http_port}
\thttps_port {https_port}
\tdefault_bind {bind}
\tstorage file_system {storage}
}}
{sites} {{
\ttls internal
\treverse_proxy {app}
}}
http:// {{
\t@trust path /trust/* /static/*
\thandle @trust {{
\t\treverse_proxy {app}
\t}}
\thandle {{
\t\tredir https://{{host}}:{https_port}{{uri}}
\t}}
}}
"""


def root_certificate(storage: str) -> str:
    """Where Caddy keeps its authority's root certificate (made on its first start)."""
    return os.path.join(storage, "pki", "authorities", "local", "root.crt")


_caddy: subprocess.Popen | None = None


def _stop_with_parent() -> None:
    """Caddy gets SIGTERM when gunicorn's master dies, however it dies (Linux prctl PR_SET_PDEATHSIG)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).prctl(1, signal.SIGTERM)


def on_starting(server) -> None:
    """gunicorn hook: start Caddy with the master when serve asked for HTTPS."""
    global _caddy
    config = os.environ.get("TABLEKEEPER_CADDYFILE")
    if config:
        # The config Caddy runs is autosaved in $XDG_CONFIG_HOME/caddy/ (~/.config/caddy/, outside the app's
        # folder, shared by every serve of the account): beside the Caddyfile instead, in var/caddy/.
        _caddy = subprocess.Popen(["caddy", "run", "--adapter", "caddyfile", "--config", config],
                                  env={**os.environ, "XDG_CONFIG_HOME": os.path.dirname(config)},
                                  preexec_fn=_stop_with_parent)


def on_exit(server) -> None:
    """gunicorn hook: stop Caddy when the master stops."""
    if _caddy and _caddy.poll() is None:
        _caddy.terminate()
        try:
            _caddy.wait(10)
        except subprocess.TimeoutExpired:
            _caddy.kill()
