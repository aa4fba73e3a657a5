"""Browser tests: a real Chromium at phone size driving the app through pytest-django's live server.

Chromium starts once per test session; every test gets a fresh context (cookies,
storage, viewport) and page, so tests never share a session or a CSRF cookie.
"""

import os
import threading
from pathlib import Path

import pytest

# The Playwright sync API runs an asyncio event loop in the test's thread for as long as
# Playwright is started (here: the whole session). Django sees that running loop and refuses
# ORM calls from this thread (SynchronousOnlyOperation), although they are ordinary blocking
# calls made outside any coroutine. The tests set up data and check the database through the
# ORM between browser steps, so they tell Django that this is safe. Test-only: never set it in
# the app.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect, sync_playwright  # noqa: E402

from .phone import BOX_STAYS, CHROMIUM, CHROMIUM_ARGS, PHONE, SCREENSHOTS_KEPT, not_taken, taken_again  # noqa: E402

SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"

expect.set_options(timeout=10_000)


def _no_static_handler(app):
    return app


def _one_request_at_a_time(app):
    """Serve one request at a time, body included.

    With SQLite's in-memory test database every server thread shares the test's one connection
    (it is the only way they see the same data), and two requests using it at once fail inside
    SQLite ("bad parameter or other API misuse"): a phone loading the card picker while its poll
    was answered did. The app itself never shares a connection between threads.
    """
    lock = threading.Lock()

    def serve(environ, start_response):
        with lock:
            result = app(environ, start_response)
            try:
                return list(result)
            finally:
                if hasattr(result, "close"):
                    result.close()

    return serve


@pytest.fixture(scope="session")
def live_server(request: pytest.FixtureRequest, collected_static):
    """pytest-django's live server, but static files are served by the app's WhiteNoise, as in production.

    pytest-django wraps its server in Django's StaticFilesHandler, which answers every /static/
    request itself from the *finders* (the source folders). Templates link the hashed names from
    the collectstatic manifest (css/app.<hash>.css, django_htmx/htmx-2.min.<hash>.js), which only
    exist in STATIC_ROOT, so every stylesheet and script was a 404: no CSS, no htmx. Here nothing
    is put in front of the app, and WhiteNoise serves STATIC_ROOT (collected once per session by
    tests/conftest.py) exactly as it does in production. Same name as pytest-django's fixture, so
    its helper still gives every test using it a transactional database.
    """
    from pytest_django.live_server_helper import LiveServer

    addr = (
        request.config.getvalue("liveserver")
        or os.environ.get("DJANGO_LIVE_TEST_SERVER_ADDRESS")
        or "localhost"
    )
    server = LiveServer(addr, start=False)
    shared = bool(server.thread.connections_override)
    server.thread.static_handler = _one_request_at_a_time if shared else _no_static_handler
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser() -> Browser:
    if not Path(CHROMIUM).exists():
        # CI installs Chromium (tracker/scripts/test), so there a missing browser is a failure, not a skip.
        (pytest.fail if os.environ.get("CI") else pytest.skip)(f"Chromium not found at {CHROMIUM}")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def make_context(browser: Browser, live_server):
    """Open a phone-sized context on the live server; extra keyword arguments go to new_context."""
    contexts: list[BrowserContext] = []

    def make(**options) -> BrowserContext:
        context = browser.new_context(base_url=live_server.url, **{**PHONE, **options})
        context.set_default_timeout(10_000)
        context.add_init_script(script=BOX_STAYS)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        # A route handler still reading an answer (a poll) when the test ends must not fail the
        # next test: stop routing first, dropping whatever such a handler would raise.
        for page in context.pages:
            page.unroute_all(behavior="ignoreErrors")
        context.unroute_all(behavior="ignoreErrors")
        context.close()


@pytest.fixture
def context(make_context) -> BrowserContext:
    return make_context()


@pytest.fixture
def page(context: BrowserContext) -> Page:
    return context.new_page()


@pytest.fixture
def catalog(transactional_db):
    """The demo Card Crush catalog (Ember Fox, Tide Runner, ...), as a player would have it."""
    from tracker.demo import load_catalogs

    load_catalogs()


@pytest.fixture(scope="session", autouse=True)
def screenshots_taken_again():
    """Screenshots taken again when a busy machine's Chromium fails one (phone.taken_again); in CI, not taken
    (phone.SCREENSHOTS_KEPT)."""
    with pytest.MonkeyPatch.context() as patch:
        for kind in (Page, Locator):
            patch.setattr(kind, "screenshot", (taken_again if SCREENSHOTS_KEPT else not_taken)(kind.screenshot))
        yield


@pytest.fixture(scope="session")
def screenshot_dir() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
