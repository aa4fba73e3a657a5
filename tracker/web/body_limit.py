"""A request body larger than any form here takes is refused before it is read.

Django's ASGI handler reads a request's whole body (to disk past 2.5 MB) before any middleware or view
sees it: an anonymous POST of 300 MB held a 294 MB temporary file and most of a second of a worker, to be
answered 403 at the end. `bounded` wraps the ASGI application: a body whose Content-Length is over
MOST_BYTES is not read at all (Django is handed an empty one), and a body sent without a length is read only
until it passes MOST_BYTES, then said to be that long. `TooLargeMiddleware` then answers such a request 413
with a page in the phone's language (the same check serves the WSGI stack, which reads bodies when asked).
"""

from collections.abc import Awaitable, Callable

from asgiref.sync import sync_to_async
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from rules.fields import typed_number
from tracker.either_mode import EitherMode

MOST_BYTES = 3 * 1024 * 1024
"""The largest body a form here takes: a match file of at most 2 MB (review/exchange.MAX_BYTES), in its form."""


def _declared(length: str | bytes | None) -> int | None:
    """The body's declared length; None when there is none (or it is no number, which Django refuses anyway)."""
    text = length.decode("latin-1") if isinstance(length, bytes) else length
    return typed_number(text, digits=18) if text else None


def bounded(app: Callable[..., Awaitable[None]]) -> Callable[..., Awaitable[None]]:
    async def application(scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http":
            return await app(scope, receive, send)
        declared = _declared(dict(scope["headers"]).get(b"content-length"))
        if declared is None:  # sent without a length: read up to the limit first (Django would read it all)
            read, size = await _read_up_to(receive, MOST_BYTES)
            if size <= MOST_BYTES:
                return await app(scope, _replayed(read, receive), send)
            # Said to Django as a length, so TooLargeMiddleware refuses it as any other.
            headers = [(name, value) for name, value in scope["headers"] if name != b"content-length"]
            scope, declared = {**scope, "headers": [*headers, (b"content-length", str(size).encode())]}, size
        if declared > MOST_BYTES:
            return await app(scope, _refused(receive), send)
        return await app(scope, receive, send)

    return application


async def _read_up_to(receive: Callable, most: int) -> tuple[list[dict], int]:
    read, size = [], 0
    while True:
        message = await receive()
        read.append(message)
        size += len(message.get("body", b""))
        if message["type"] != "http.request" or not message.get("more_body") or size > most:
            return read, size


def _replayed(read: list[dict], receive: Callable) -> Callable:
    async def replayed() -> dict:
        return read.pop(0) if read else await receive()

    return replayed


def _refused(receive: Callable) -> Callable:
    """An empty body for Django, then what the client sends (the rest of the body left unread) until it goes:
    Django listens for the disconnect after the body."""
    handed = False

    async def refused() -> dict:
        nonlocal handed
        if not handed:
            handed = True
            return {"type": "http.request", "body": b"", "more_body": False}
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return message

    return refused


class TooLargeMiddleware(EitherMode):
    def arrive(self, request: HttpRequest) -> tuple[HttpResponse | None, None]:
        return (self._refusal(request) if _too_large(request) else None), None

    async def arrive_async(self, request: HttpRequest) -> tuple[HttpResponse | None, None]:
        # The page's context may read the session, from the database: in a thread, as views are run.
        return (await sync_to_async(self._refusal)(request) if _too_large(request) else None), None

    @staticmethod
    def _refusal(request: HttpRequest) -> HttpResponse:
        # The files' own limits, as their forms say them: a play-test read "at most 2 MB" on the import form, then
        # this page's 3 MB (the request's, form and all) for a larger file. Imported here: a middleware's module is
        # loaded with the settings, before the models these modules read.
        from tracker.catalog.csv_files import MAX_BYTES as CARD_LIST
        from tracker.review.exchange import MAX_BYTES as MATCH_FILE  # (the same: it reads the models)

        message = _("That is more than this server takes in one request; nothing was changed. A match file may be at "
                    "most %(match)s MB, a card list %(cards)s MB.") % {"match": MATCH_FILE // 2**20,
                                                                         "cards": CARD_LIST // 2**20}
        return render(request, "tracker/too_large.html", {"message": message}, status=413)


def _too_large(request: HttpRequest) -> bool:
    declared = _declared(request.META.get("CONTENT_LENGTH"))
    return declared is not None and declared > MOST_BYTES
