"""The production stack: gunicorn managing uvicorn workers that serve tracker.asgi for every route.

`serve` (tracker/management/commands/serve.py), the load test, the benchmark and the tests all
start it through `command()`, so what is measured is what a club runs. gunicorn also reads this
module as its configuration (`--config python:tracker.server`): the lower-case names at the top
are gunicorn settings. It imports nothing of Django, as gunicorn's master loads it.
"""

import os
import sys

worker_class = "uvicorn_worker.UvicornWorker"
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

SQLITE_ENGINE = "django.db.backends.sqlite3"


def worker_count(engine: str) -> int:
    """One process on SQLite, so a live update reaches every phone (in-process fan-out, one
    writer anyway); on PostgreSQL one per core, or WEB_CONCURRENCY."""
    wanted = os.environ.get("WEB_CONCURRENCY", "")
    if wanted and (not wanted.isdigit() or int(wanted) < 1):
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
    return [sys.executable, "-m", "gunicorn", *app, "--config", "python:tracker.server",
            "--bind", address, "--workers", str(workers)]
