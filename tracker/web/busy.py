"""A database too busy to answer in time is a 503 the phone tries again, not a 500.

SQLite waits up to its busy timeout (20 s, tracker/settings.py) for another writer's lock; on a
swamped machine that can run out, as can a lock or statement timeout on PostgreSQL. The request's
transaction was rolled back, so nothing changed: the answer says so, with Retry-After, and a
phone's tap is sent again by itself (static/js/table.js treats 502-504 as "no answer"), counted
once since it carries the step it was made on."""

import logging

from django.db import OperationalError
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

from tracker.either_mode import EitherMode

logger = logging.getLogger("tracker.busy")

SQLITE_BUSY = ("database is locked", "database table is locked")
POSTGRESQL_BUSY = {"55P03", "57014", "40P01", "40001"}
"""lock not available, statement timeout, deadlock detected, serialization failure."""
RETRY_AFTER = 2


def busy(error: BaseException) -> bool:
    """Whether a database error means "try again shortly" rather than a fault."""
    if not isinstance(error, OperationalError):
        return False
    if getattr(error.__cause__, "sqlstate", None) in POSTGRESQL_BUSY:
        return True
    return any(words in str(error) for words in SQLITE_BUSY)


class BusyDatabaseMiddleware(EitherMode):
    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not busy(exception):
            return None
        logger.warning("database busy, answered 503: %s %s: %s", request.method, request.path, exception)
        # Without the request: context processors may read the session, from the busy database.
        response = HttpResponse(render_to_string("503.html"), status=503)
        response["Retry-After"] = str(RETRY_AFTER)
        return response
