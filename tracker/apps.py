import atexit
from typing import Any

from django.apps import AppConfig


def close_pools() -> None:
    """Close PostgreSQL's connection pools while the process still runs (atexit), not at its very end.

    A pool left open is closed by its `__del__` as the interpreter finalizes, when its daemon threads (three
    workers and a scheduler) can no longer run: it waited 5 s for each to stop, so `manage.py shell`, a
    gunicorn worker or any command that had opened it took 20 s to exit. Here the threads still run, and stop
    at once. A pool closed already (the tests' teardown) is left be, and none is made for the asking."""
    from django.db import connections

    for alias in connections:
        connection: Any = connections[alias]  # close_pool: PostgreSQL's DatabaseWrapper's alone
        if alias in getattr(connection, "_connection_pools", {}):
            connection.close()  # its connection back to the pool, which closes it
            connection.close_pool()


class TrackerConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tracker"
    verbose_name = "Tablekeeper"

    def ready(self) -> None:
        atexit.register(close_pools)
