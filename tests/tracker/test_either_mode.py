"""Our middleware runs in the server's own mode (tracker/either_mode.py). Under ASGI, as serve's uvicorn workers
and Django's async client load it, a sync-only middleware handed every request to a thread and the rest of the chain
back (eight hand-offs a request), and a live stream whose phone went away during one left Django's end-of-request
signal to an executor that had quit. Through the async client each answers as it does through the sync one."""

import asyncio

import pytest
from django.conf import settings
from django.db import OperationalError
from django.http import HttpResponse
from django.test import AsyncClient, override_settings
from django.urls import path, reverse
from django.utils.module_loading import import_string

from tracker.models import Match
from tracker.people.devices import COOKIE, acting
from tracker.web import body_limit

pytestmark = pytest.mark.django_db(transaction=True)


def test_every_middleware_runs_in_either_mode():
    """No hand-off under ASGI, and none under WSGI: every middleware is both sync- and async-capable."""
    for dotted in settings.MIDDLEWARE:
        middleware = import_string(dotted)
        assert getattr(middleware, "async_capable", False) and getattr(middleware, "sync_capable", True), dotted


def who_acts(request):
    return HttpResponse(acting.get())


def locked(request):
    raise OperationalError("database is locked")


urlpatterns = [path("who/", who_acts), path("locked/", locked)]


@override_settings(ROOT_URLCONF=__name__)
def test_under_asgi_a_new_phone_gets_its_device_and_the_view_knows_it():
    async def scenario():
        phone = AsyncClient()
        first = await phone.post("/who/")  # a form sent: the phone's device is made and kept (devices.py)
        device = phone.cookies[COOKIE].value
        again = await phone.get("/who/")
        return first, again, device

    first, again, device = asyncio.run(scenario())
    assert first.status_code == 200 and COOKIE in first.cookies
    assert COOKIE not in again.cookies  # set once, kept by the phone
    # The view, run in a thread, sees the phone's mark (the live streams tell a change's own phone by it).
    assert first.content.decode() == again.content.decode() != ""
    assert acting.get() == ""  # and nothing is left behind for the next request


@override_settings(ROOT_URLCONF=__name__)
def test_under_asgi_a_busy_database_is_a_503():
    async def scenario():
        phone = AsyncClient(raise_request_exception=False)
        return await phone.get("/locked/")

    response = asyncio.run(scenario())
    assert response.status_code == 503 and response["Retry-After"] == "2"


def test_under_asgi_a_body_past_the_limit_is_a_413_and_a_static_file_is_served():
    async def scenario():
        phone = AsyncClient()
        refused = await phone.post(reverse("match_import"), b"x" * (body_limit.MOST_BYTES + 1),
                                   content_type="application/octet-stream", headers={"Accept-Language": "de"})
        from django.templatetags.static import static

        styles = await phone.get(static("css/app.css"))
        return refused, styles

    refused, styles = asyncio.run(scenario())
    assert refused.status_code == 413 and "mehr, als dieser Server" in refused.content.decode()
    assert not Match.objects.exists()
    assert styles.status_code == 200 and styles["X-Content-Type-Options"] == "nosniff"
    assert "ETag" not in styles



def test_each_view_is_served_by_the_handler_of_its_kind():
    """tracker/asgi.py sends a path ending in /events to the async chain and every other to the sync one: every async
    view's route ends so, and no sync view's does (a sync view there would pay a thread hand-off per middleware, an
    async one on the sync chain would wait in a thread for the loop)."""
    from asgiref.sync import iscoroutinefunction
    from django.urls import get_resolver

    from tracker import asgi

    def routes(patterns, prefix=""):
        for pattern in patterns:
            if hasattr(pattern, "url_patterns"):
                yield from routes(pattern.url_patterns, prefix + str(pattern.pattern))
            else:
                yield prefix + str(pattern.pattern), pattern.callback

    kinds = {route: iscoroutinefunction(view) for route, view in routes(get_resolver().url_patterns)}
    assert any(kinds.values())
    for route, is_async in kinds.items():
        assert route.rstrip("/$").endswith(asgi.STREAM_SUFFIX) == is_async, route
    assert not iscoroutinefunction(asgi.pages._middleware_chain)  # one hand-off to a thread, then all sync
    assert iscoroutinefunction(asgi.streams._middleware_chain)


def test_the_served_application_answers_pages_through_the_sync_chain_in_a_thread_kept_for_the_next():
    """Each page's middleware and view run in one thread (the sync chain), and that thread serves the next request
    (Django's handler started and joined one a request); one whose answer did not go out whole is not kept."""
    from tracker import asgi

    async def get(path: str, gone: bool = False) -> tuple[int, bytes]:
        said: list[dict] = []
        asked: list[bool] = []

        async def receive():  # the request, then nothing until the phone goes
            if asked:
                await asyncio.sleep(9)
            asked.append(True)
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message):
            if gone and message["type"] == "http.response.body":
                raise OSError("the phone went away")
            said.append(message)

        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
                 "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
                 "headers": [(b"host", b"localhost")], "client": ("127.0.0.1", 5000), "server": ("localhost", 80)}
        await asgi.application(scope, receive, send)
        return said[0]["status"], b"".join(message.get("body", b"") for message in said[1:])

    status, _body = asyncio.run(get("/healthz"))
    assert status == 200
    kept = list(asgi.pages.idle)
    threads = [set(executor._threads) for executor in kept]
    assert asyncio.run(get("/healthz"))[0] == 200
    assert asgi.pages.idle == kept and [set(executor._threads) for executor in kept] == threads
    with pytest.raises(OSError):
        asyncio.run(get("/healthz", gone=True))
    assert asgi.pages.idle == kept[:-1]  # the one it ran in was let go
