"""The ASGI application every route is served by (gunicorn with uvicorn workers: tracker/web/server.py).

ASGI because a phone with a match open holds one stream of live updates (tracker/matches/live.py),
which a sync worker could only hold by tying up a whole thread. Two handlers, by the kind of view:
- The pages are sync views: their middleware runs sync, in the one thread the request is handed to (`Pages`).
  Under Django's ASGI handler each middleware runs in the mode of the one inside it; an async chain would hand
  every request to a thread and back once per middleware that has process_request or process_response (some
  seventeen times): GET /healthz cost 6.0 to 7.5 ms of CPU served that way against 3.6 to 4.5 ms in one thread.
- The stream is an async view: its middleware runs async on the event loop (tracker/either_mode.py), and the
  view never waits in a thread for the loop (async_to_sync). It did when the chain was sync: a phone going
  away meanwhile left Django's end-of-request signal to an executor that had quit (a play-test saw the
  server log "CurrentThreadExecutor already quit or is broken").
"""

import gc
import os
from concurrent.futures import ThreadPoolExecutor

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tracker.settings")
streams = get_asgi_application()

from asgiref.sync import ThreadSensitiveContext, sync_to_async  # noqa: E402  (after Django is set up)
from django.core.handlers.asgi import ASGIHandler  # noqa: E402
from django.core.handlers.base import BaseHandler  # noqa: E402
from django.http import FileResponse  # noqa: E402

from tracker.web.body_limit import bounded  # noqa: E402

STREAM_SUFFIX = "/events"
"""The paths of the async views (tracker/urls.py: match_events); tests/tracker/test_either_mode.py checks that
every async view's path ends so and no sync view's does."""


IDLE_THREADS = 32
"""Threads a worker keeps for its next requests (more are made for a burst, and end after it)."""
WARM = 200
"""Requests after which a worker's templates and translations are in memory for good (see `Pages.__call__`)."""


class Pages(ASGIHandler):
    """Django's ASGI handler with its middleware loaded sync: a request is handed to a thread once, and its
    middleware and view run there, as under WSGI.

    Django's own handler starts a thread for each request and joins it at the end (ThreadSensitiveContext);
    here a request's thread is one a finished request left, as a WSGI server's are: GET /healthz served for
    about 0.5 ms less CPU of some 2.7 (docs/performance.md, "What every request pays"). A thread goes back only
    once its answer went out whole, so nothing of a request a phone left mid-way still runs in it."""

    def __init__(self) -> None:
        BaseHandler.__init__(self)
        self.load_middleware(is_async=False)
        self.idle: list[ThreadPoolExecutor] = []
        self.served = 0

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        thread = self.idle.pop() if self.idle else ThreadPoolExecutor(max_workers=1, thread_name_prefix="page")
        answered = False

        async def sending(message: dict) -> None:
            nonlocal answered
            await send(message)
            answered = message["type"] == "http.response.body" and not message.get("more_body", False)

        try:
            async with ThreadSensitiveContext(executor=thread):
                await self.handle(scope, receive, sending)
        finally:
            if answered and len(self.idle) < IDLE_THREADS:
                self.idle.append(thread)
            else:
                thread.shutdown(wait=False)  # it ends once what it runs is done
        self.served += 1
        if self.served == WARM:
            # What the first pages loaded (templates, translations) stays too: out of the collector's full passes,
            # as tracker/web/server.py's post_worker_init did for the app's modules.
            gc.collect()
            gc.freeze()

    async def run_get_response(self, request):
        response = await sync_to_async(self.get_response, thread_sensitive=True)(request)
        response._handler_class = self.__class__
        if isinstance(response, FileResponse):
            response.block_size = self.chunk_size
        return response


pages = Pages()


async def by_kind(scope, receive, send) -> None:
    if scope["type"] == "http" and scope["path"].endswith(STREAM_SUFFIX):
        return await streams(scope, receive, send)
    return await pages(scope, receive, send)


application = bounded(by_kind)
