"""Middleware that runs in the server's own mode: sync under WSGI (the tests' client, `runserver`), async under
ASGI (`serve`'s uvicorn workers), so a request never changes threads on its way through it.

Django runs a sync-only middleware under ASGI by handing the request to a thread and the rest of the chain back to
the event loop (`async_to_sync`): our four sync-only middlewares were eight such hand-offs a request. A live stream
whose phone went away during one of them left Django's end-of-request signal to an executor that had already quit
("CurrentThreadExecutor already quit or is broken", seen by a play-test in the server's log). A subclass writes
`arrive` and `leave` (plain code, no database: they run on the event loop) and may answer itself in `arrive`.
"""

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.http import HttpRequest, HttpResponseBase


class EitherMode:
    sync_capable = True
    async_capable = True

    def __init__(self, get_response) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest):
        if self.is_async:
            return self._acall(request)
        answered, kept = self.arrive(request)
        if answered is not None:
            return answered
        try:
            response = self.get_response(request)
        finally:
            self.depart(kept)
        return self.leave(request, response)

    async def _acall(self, request: HttpRequest) -> HttpResponseBase:
        answered, kept = await self.arrive_async(request)
        if answered is not None:
            return answered
        try:
            response = await self.get_response(request)
        finally:
            self.depart(kept)
        return self.leave(request, response)

    def arrive(self, request: HttpRequest) -> tuple[HttpResponseBase | None, object]:
        """Before the view: an answer of its own (the view is not asked), and what `depart` is handed."""
        return None, None

    async def arrive_async(self, request: HttpRequest) -> tuple[HttpResponseBase | None, object]:
        """`arrive` on the event loop; a subclass whose answer reads the database overrides it."""
        return self.arrive(request)

    def depart(self, kept: object) -> None:
        """After the view, however it ended (`arrive`'s `kept`: a context variable's token to reset)."""

    def leave(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        return response
