"""Live updates: every phone with a match open holds one stream and hears of each change as it commits.

    GET /matches/<pk>/events      text/event-stream (server-sent events; the browser's EventSource, static/js/table.js)

Every write that moves a match's version calls `changed(match_id)` inside its transaction. On
PostgreSQL that is a NOTIFY, which PostgreSQL delivers at commit (never for a rolled-back change,
and never lost to a crash between the commit and an on-commit hook) to every app server's one
listening connection; on SQLite (one server process) an on-commit hook wakes the process's own
streams. Either way the notice carries the match's id and a one-way mark of the phone whose request
made the change (`devices.mark`): each process then reads the match once, however many of its phones
watch it (`Change`), and wakes their streams.

An event's id is the match version it shows, so a phone that comes back (`Last-Event-ID`, or the
version its page shows, `?v=`) is sent the version it missed at once, and never one it has. The event
says what happened: who did what, as news.py tells any phone of the match (a log entry's public title,
a request and its answer, a move along the log), the same sentence in every phone's event. With it
comes the phone's own part (`part`): the part of the page it shows (`?at=`, the match page or its
log) that the change draws anew, drawn for this phone by the page's own view, through every
middleware but those that only add headers (`draw_part`), as its fetch would be, so it holds only what this
phone may see. The stream
says which kept parts the phone shows as the fetch would (those of the part it pushed last), so those
the change left alone come as placeholders and stay as shown (table.js); the phone that made the
change is sent no part (its answer brought it). Without a part (an old page, an answer that must set a
cookie, a part the phone no longer shows as the stream thought) the phone fetches its own.

A beat every BEAT seconds lets the phone notice a stalled stream (EventSource hides comments from
scripts, so the beat is a tiny event, not a comment); table.js then reopens it, and polls meanwhile.
"""

from __future__ import annotations

import asyncio
import collections
import io
import json
import logging
import os
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import unquote, unquote_to_bytes, urlsplit

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.core.handlers.asgi import ASGIRequest
from django.core.handlers.wsgi import WSGIHandler, WSGIRequest
from django.db import connection, transaction
from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.urls import Resolver404, resolve
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from rules.fields import typed_number
from tracker.models import Match, Proposal
from tracker.templatetags.regions import parts_shown

from .match_read import match_read
from .outcome import in_box, short_names

if TYPE_CHECKING:
    from tracker.people.devices import TableRequest

logger = logging.getLogger(__name__)

CHANNEL = "tablekeeper_match"
"""PostgreSQL's channel for the ids of changed matches."""
BEAT = float(settings.LIVE_BEAT_SECONDS)
"""Seconds between beats on an idle stream (table.js reopens a stream silent for longer than `stall_ms`)."""
STREAMS_PER_PHONE, STREAMS_PER_ADDRESS = 4, 120
"""Open streams a process holds for one phone (its device) and one address (a store's phones share one): each
stream is asked again whether it may still see its match at a change, so past these a page polls (answered 204),
and one phone opening a thousand streams cannot make every tap cost the server a thousand checks."""
PARTS_PER_CHANGE = 12
"""At most this many parts drawn in one process for one change of a match: the phones at a table and a few
watching. Phones past it get the event alone and fetch their part, as they would with no part pushed."""
RETRY_MS = 2000
"""How long a phone's browser waits before it reconnects a dropped stream by itself."""
GONE = "event: gone\ndata: {}\n\n"
"""This phone may no longer see the match: table.js reloads, and the page says what it may see now."""
ACCESS = "access"
"""The mark of a change of who may see the match: every open stream checks its phone again."""


def _postgresql() -> bool:
    return connection.vendor == "postgresql"


def changed(match_id: int, *, access_changed: bool = False) -> None:
    """Tell every phone of the match that it changed, once the current transaction commits.

    Called by each write that raises `Match.version` (tests/tracker/test_live_stream.py finds them all).
    """
    from tracker.people.devices import acting  # at call time: people imports the match services

    notice = f"{match_id}:{ACCESS if access_changed else ''}:{acting.get()}"  # the id, the mark, who made it
    if _postgresql():
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, notice])
    else:
        transaction.on_commit(lambda: hub.heard(notice))


# ------------------------------------------------------------------ what a change says


@dataclass(frozen=True)
class Change:
    """A match as its streams announce it: the version, and what its newest change was, per language."""

    version: int
    finished: bool
    kind: str
    """"step" (a new log entry), "goto" (undo, redo, reopen), "request" (one waits for an answer) or "match"."""
    said: dict[str, str] = field(default_factory=dict)
    """The message in each of the site's languages."""

    def event(self, language: str, part: str = "") -> str:
        """The event for a phone in `language`, with the phone's own part drawn anew when there is one (`part`)."""
        data = {"version": self.version, "kind": self.kind, "finished": self.finished,
                "said": self.said.get(language) or self.said.get(settings.LANGUAGE_CODE, ""),
                **({"part": part} if part else {})}
        return f"id: {self.version}\nevent: change\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


def said(match: Match, waiting: list, newest) -> tuple[str, str]:
    """(kind, message) of the match's newest change, as anyone who may see the match may read it.

    The one place the pushed message is chosen, from what `read_change` read: the news of the change
    (tracker/matches/news.py: who did what, as the other phone's page says it once it refreshes), else,
    for a change nobody at the table made (the Showdown AI, an organiser's void), what the match shows
    now: the requests waiting (tracker.people.consent.pending) and the newest action ever recorded. A new
    step says its public log title (the engine's `public_action`, the title the log shows everyone); a
    step undone, redone or reopened says where the match now stands; a request waiting says who asks what.
    """
    # At call time: news imports the match services, which call changed().
    from tracker.matches import news

    kind, told = _kind(match, waiting, newest), news.said(match, None, newest)
    names = [player.name for player in match.players()]
    # Said in the outcome box, where long names are cut short (outcome.short_names): as the page's own news says it.
    return kind, in_box(told or _said_otherwise(match, waiting, newest, kind, names), short_names(names))


def _said_otherwise(match: Match, waiting: list, newest, kind: str, names: list[str]) -> str:
    """The message of a change with no news: see `said`."""
    # At call time: the games' pages and consent import the match services, which call changed().
    from tracker.games import pages_for
    from tracker.matches import services
    from tracker.people import consent  # (as above)
    if kind == "request":
        proposal = waiting[-1]
        # An action asked for, as the log would title it: the engine's public view of the action. (A seat's release
        # carries its link in its payload, and was worded as a move of the game: "Ana asks: .", round 35.)
        if proposal.kind == Proposal.ACTION and proposal.payload:
            what = pages_for(match.slug).describe_action(
                match.game.public_action(match.state, proposal.payload), [], names)
        else:
            what = consent.describe(proposal, names)
        return consent.asks(proposal, names, what)
    if kind == "step":
        pages = pages_for(match.slug)
        return pages.describe_action(services.as_shown(match, newest), newest.events, names)
    if kind == "goto":
        if match.head < match.line_length:
            return _("Back to step %(step)s of %(steps)s.") % {"step": match.head, "steps": match.line_length}
        return _("Now at step %(step)s.") % {"step": match.head}
    return _("The match changed.")


def _kind(match: Match, waiting: list, newest) -> str:
    """"request" (one waits for an answer), "step" (a new log entry), "goto" (undo, redo, reopen) or "match"."""
    if waiting:
        return "request"
    if newest is None:
        return "match"
    if not newest.abandoned and newest.seq == match.head and newest.seq == match.line_length:
        return "step"
    return "goto"


def read_change(match_id: int) -> Change | None:
    """The match's version and newest change, in every language; None once it is gone. One read per process."""
    from tracker.matches import news  # at call time: the services record news and call changed()
    from tracker.people import consent  # at call time: consent imports the match services

    match = match_read(match_id)  # its players and its head action in the same query
    if match is None:
        return None
    waiting = consent.pending(match) if match.version else []
    # The newest action is numbered last_number (services.replay_problems holds the log to it).
    newest = news.numbered(match, match.last_number) if match.last_number else None
    texts, kind = {}, "match"
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            kind, texts[code] = said(match, waiting, newest)
    return Change(version=match.version, finished=match.finished is not None, kind=kind, said=texts)


_readers = ThreadPoolExecutor(max_workers=min(32, (os.cpu_count() or 1) + 4), thread_name_prefix="live")
"""The threads the streams' reads run in: as many as the loop's default executor has."""


def _closing(function, args):
    try:
        return function(*args)
    finally:
        connection.close()


async def _db(function, *args):
    """Run a database read off the event loop, in a few shared threads (`_readers`), never in a stream's
    own request thread: an open stream holds no connection. The read gives its connection back (to
    the pool on PostgreSQL) as a request does when it ends, so an idle thread holds none either.

    Each thread runs its reads in its own context, as a WSGI server's thread runs its requests, and keeps its one
    database wrapper (Django's `connections`) from read to read: asgiref's `sync_to_async` copied the calling task's
    context into the thread for each read and back out after it."""
    return await asyncio.get_running_loop().run_in_executor(_readers, _closing, function, args)


_NOT_DRAWN = object()
"""A part `_read_and_draw` left to its stream (its phone already shows the change)."""


def _read_and_draw(match_id: int, known: int, everyone: bool, wanted: list[tuple[TableRequest, str, str, int]],
                   asked: list[tuple[TableRequest, int]]) -> tuple[Change | None, list, list[bool | None]]:
    """The match's change (`read_change`) and, when it is new (after version `known`) or who may see the match
    changed (`everyone`): for the phones that do not show it yet, the parts `wanted` (request, page, kept parts
    shown, version shown) drawn for it, what each is or raised (_NOT_DRAWN: the phone shows it); and whether the
    phones `asked` (request, version shown) may still see the match (None: not asked), every one of them when
    `everyone`. In the same thread on the same connection: one errand a change for all the streams here, where
    each stream's drawing or question made one more."""
    change = read_change(match_id)
    if change is None or (change.version <= known and not everyone):
        return change, [], []
    drawn: list = []
    for request, at, shown, sent in wanted:
        if sent >= change.version:
            drawn.append(_NOT_DRAWN)
            continue
        try:
            drawn.append(draw_part(request, at, shown))
        except Exception as error:  # noqa: BLE001 - the stream takes it, as from its own drawing
            drawn.append(error)
    sees = [_still_sees(request, match_id) if everyone or sent < change.version else None for request, sent in asked]
    return change, drawn, sees


def _done(result) -> asyncio.Future:
    """A future already holding `result` (or raising it, an exception)."""
    future = asyncio.get_running_loop().create_future()
    if isinstance(result, BaseException):
        future.set_exception(result)
    else:
        future.set_result(result)
    return future


# ------------------------------------------------------------------ the hub: one per process


def _drawing(request: TableRequest, at: str, shown: str) -> tuple:
    """A drawing's key: the phone as its fetch would be (its Cookie header; a drawing is shared only by the same
    header), the page and the kept parts it shows; and first, the phone itself: its device (a signed cookie) and
    its session (its account). The Cookie header is the client's to vary (a junk cookie per stream made each a
    phone of its own); another device or session is one the server signed, or one that sees nothing."""
    phone = (getattr(request, "device", ""), request.COOKIES.get(settings.SESSION_COOKIE_NAME, ""))
    return phone, request.META.get("HTTP_COOKIE", ""), at, shown


def _may_draw(drawings, key: tuple) -> bool:
    """Whether a change may draw one more part (`key`) beside `drawings`: PARTS_PER_CHANGE at most, one a phone."""
    return len(drawings) < PARTS_PER_CHANGE and all(drawn[0] != key[0] for drawn in drawings)


@dataclass(eq=False)
class Watching:
    """An open stream as the hub sees it: the phone, the page it shows and what it last showed, so that its part can
    be drawn with the change's read."""

    request: TableRequest
    at: str | None
    mine: str  # the phone's mark (`devices.mark`)
    shown: str = ""  # the kept parts it shows
    sent: int = -1  # the version it shows
    waiting: bool = False  # for its next change, nothing of the last left to do: `shown` and `sent` are the phone's


class Hub:
    """The streams open in this process, by match, and what each match last said.

    Lives on the event loop of the ASGI server; `heard` may be called from any thread (the notice
    of an SQLite commit comes from the view's thread, PostgreSQL's from the listener task).
    """

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.streams: dict[int, dict[asyncio.Queue, Watching]] = {}
        self.latest: dict[int, Change] = {}
        self.listener: asyncio.Task | None = None
        self.tasks: set[asyncio.Task] = set()
        self.reading: set[int] = set()  # matches being read now
        self.again: dict[int, bool] = {}  # ... and noticed again meanwhile (True: their access changed)
        self.parts: dict[int, tuple[int, dict[tuple, asyncio.Future]]] = {}  # by match: version, drawings
        self.open: collections.Counter[str] = collections.Counter()  # open streams by "phone:"device and "address:"

    # -- the parts drawn for a change (on the loop)

    def part(self, match_id: int, version: int, request: TableRequest, at: str, shown: str) -> asyncio.Future | None:
        """The drawing of a phone's part for the match's `version`: one per phone, whatever number of streams
        ask (a phone's second tab, a stream opened again), and at most PARTS_PER_CHANGE a change in this
        process; beyond them None: the phone gets the event alone and fetches its part, so opening streams
        cannot make a change cost this server more. A phone's streams showing other pages or other kept
        parts fetch theirs too (one phone's twelve streams on differently filtered logs were twelve
        drawings of a costly page a tap). Most were drawn already, with the change's read (`_announce`)."""
        drawings = self._drawings(match_id, version)
        key = _drawing(request, at, shown)
        if key not in drawings:
            if not _may_draw(drawings, key):
                return None
            drawings[key] = asyncio.ensure_future(_db(draw_part, request, at, shown))
        return drawings[key]

    def _drawings(self, match_id: int, version: int) -> dict[tuple, asyncio.Future]:
        drawn_version, drawings = self.parts.get(match_id, (-1, {}))
        if drawn_version != version:
            drawings = {}
            self.parts[match_id] = (version, drawings)
        return drawings

    def _errands(self, match_id: int, by: str, everyone: bool) -> tuple[list[tuple[tuple, Watching]], list[Watching]]:
        """What to do for the match's streams with the change's read, in the same thread's errand (`_read_and_draw`)
        rather than one errand for the read and one for each stream: the parts to draw (for each stream waiting for
        its next change on a live page, but the stream of the phone that made it, by the rules of `part`), and the
        streams to ask whether they may still see the match, as `_events` asks them: those waiting that no part drawn
        tells, but the stream of the phone that made the change; `everyone` waiting when who may see it changed."""
        chosen: dict[tuple, Watching] = {}
        unseen: list[tuple[tuple | None, Watching]] = []
        for watching in self.streams.get(match_id, {}).values():
            if not watching.waiting:
                continue
            key = _drawing(watching.request, watching.at, watching.shown) if watching.at else None
            if key is not None and watching.mine != by and key not in chosen and _may_draw(chosen, key):
                chosen[key] = watching
            if everyone or watching.mine != by:
                unseen.append((key, watching))
        return list(chosen.items()), [watching for key, watching in unseen if everyone or key not in chosen]

    def _drawn(self, match_id: int, version: int, drawn: list[tuple[tuple, asyncio.Future]]) -> None:
        """The parts drawn with a change's read, for its streams to take (`part`)."""
        if not drawn:  # none: the drawings of a version some stream has yet to take stay
            return
        drawings = self._drawings(match_id, version)
        for key, future in drawn:
            if key not in drawings and _may_draw(drawings, key):
                drawings[key] = future

    # -- how many streams a phone and an address hold open

    @staticmethod
    def _holders(request: TableRequest) -> tuple[str, str]:
        from tracker.people.devices import client_address  # at call time: people imports the match services

        return f"phone:{getattr(request, 'device', '')}", f"address:{client_address(request)}"

    def may_open(self, request: TableRequest) -> bool:
        phone, address = self._holders(request)
        return self.open[phone] < STREAMS_PER_PHONE and self.open[address] < STREAMS_PER_ADDRESS

    @contextmanager
    def holding(self, request: TableRequest):
        holders = self._holders(request)
        self.open.update(holders)
        try:
            yield
        finally:
            self.open.subtract(holders)
            for holder in holders:
                if self.open[holder] <= 0:
                    del self.open[holder]

    # -- subscribing (on the loop)

    @contextmanager
    def subscribed(self, match_id: int, watching: Watching):
        self.loop = asyncio.get_running_loop()
        if _listens() and (self.listener is None or self.listener.done()):
            self.listener = self.loop.create_task(self._listen())
        queue: asyncio.Queue = asyncio.Queue()
        self.streams.setdefault(match_id, {})[queue] = watching
        try:
            yield queue
        finally:
            queues = self.streams.get(match_id, {})
            queues.pop(queue, None)
            if not queues:
                self.streams.pop(match_id, None)
                self.latest.pop(match_id, None)
                self.parts.pop(match_id, None)

    # -- hearing of a change (any thread)

    def heard(self, notice: str) -> None:
        loop = self.loop
        if loop is None or loop.is_closed():
            return  # no stream was ever opened in this process (a WSGI server, a test)
        loop.call_soon_threadsafe(self._announce_soon, notice)

    def _announce_soon(self, notice: str) -> None:
        match_id = notice.partition(":")[0]
        if not match_id.isdecimal() or not self.streams.get(int(match_id)):
            return  # every app server hears of every change: one whose phones watch none of the match does nothing
        task = asyncio.get_running_loop().create_task(self._announce(notice))
        self.tasks.add(task)  # held until done: the loop keeps only weak references
        task.add_done_callback(self.tasks.discard)

    async def _announce(self, notice: str) -> None:
        """Read the match once (however many streams watch it) and hand the change to each of them.
        Notices that come while it is being read make one more read after it, not one each."""
        match_id, _sep, rest = notice.partition(":")
        mark, _sep, by = rest.partition(":")
        key = int(match_id)
        if not self.streams.get(key):
            return
        if key in self.reading:
            self.again[key] = self.again.get(key, False) or mark == ACCESS
            return
        self.reading.add(key)
        try:
            access_changed = mark == ACCESS
            while True:
                known = self.latest.get(key)
                wanted, asked = self._errands(key, by, access_changed)
                change, drawn, sees = await _db(
                    _read_and_draw, key, -1 if known is None else known.version, access_changed,
                    [(watching.request, watching.at, watching.shown, watching.sent) for _key, watching in wanted],
                    [(watching.request, watching.sent) for watching in asked])
                if change is None:
                    return
                known = self.latest.get(key)
                if known is None or change.version >= known.version:
                    self.latest[key] = change
                self._drawn(key, change.version, [(drawing, _done(result)) for (drawing, _watching), result
                                                  in zip(wanted, drawn, strict=False) if result is not _NOT_DRAWN])
                seen = {id(watching): sure for watching, sure in zip(asked, sees, strict=False)}
                for queue, watching in list(self.streams.get(key, {}).items()):
                    queue.put_nowait((change, access_changed, by, seen.get(id(watching))))
                    watching.waiting = False  # it has this change to take in first
                if key not in self.again:
                    return
                access_changed, by = self.again.pop(key), ""  # notices run together: whose, unknown
        finally:
            self.reading.discard(key)

    async def _every_match_again(self) -> None:
        """Once listening (again): a notice may have been missed before, so ask every match watched here."""
        for match_id in list(self.streams):
            self._announce_soon(f"{match_id}:{ACCESS}")  # a revoked phone's notice may be among them

    # -- PostgreSQL's notices

    async def _listen(self) -> None:
        """Hold one connection that LISTENs, for ever; reconnect (and ask again) when it drops."""
        import psycopg

        delay, first = 0.5, True
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(_dsn(), autocommit=True) as listening:
                    await listening.execute(f"LISTEN {CHANNEL}")
                    if not first:
                        logger.warning("live updates: listening again after a lost database connection")
                    # A change committed before LISTEN took hold was never heard: the first streams of a
                    # process open before it does, and a lost connection missed what came meanwhile.
                    await self._every_match_again()
                    first, delay = False, 0.5
                    async for payload in _notices(listening):
                        self._announce_soon(payload)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # noqa: BLE001 - any failure of the connection: wait, reconnect
                logger.warning("live updates: database connection lost (%s); reconnecting", error)
                first = False
                await asyncio.sleep(delay)
                delay = min(delay * 2, 10.0)


async def _notices(listening) -> AsyncIterator[str]:
    """The payloads of the notices `listening` receives, as they come: woken by its socket alone.

    psycopg's own `notifies()` woke ten times a second to look for them (its wait's interval): some 2 ms of CPU a
    second for each app server holding a stream, counted in the idle phones' cost (docs/performance.md). Data on
    the socket, the connection's end included, wakes this; a lost connection raises (OperationalError) from
    `consume_input`, and `_listen` connects again."""
    from psycopg import OperationalError, pq

    loop, pgconn, encoding = asyncio.get_running_loop(), listening.pgconn, listening.info.encoding
    readable = asyncio.Event()
    socket = pgconn.socket
    loop.add_reader(socket, readable.set)
    try:
        while True:
            pgconn.consume_input()  # what came before the reader was added, then what woke it
            if pgconn.status != pq.ConnStatus.OK:  # never read a dead socket's end again and again
                raise OperationalError("the listening connection is gone")
            while (notice := pgconn.notifies()) is not None:
                yield notice.extra.decode(encoding)
            await readable.wait()
            readable.clear()
    finally:
        loop.remove_reader(socket)


def _listens() -> bool:
    return settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"


def _dsn() -> str:
    """The PostgreSQL connection string of Django's default database, for the listening connection."""
    from psycopg.conninfo import make_conninfo

    config = settings.DATABASES["default"]
    parts = {"dbname": config["NAME"], "user": config.get("USER"), "password": config.get("PASSWORD"),
             "host": config.get("HOST"), "port": config.get("PORT")}
    return make_conninfo("", **{key: str(value) for key, value in parts.items() if value})


hub = Hub()


# ------------------------------------------------------------------ the stream


def _since(request: TableRequest) -> int | None:
    """The version the phone last saw: the browser's Last-Event-ID when it reconnects, else the page's `v`."""
    for value in (request.headers.get("Last-Event-ID"), request.GET.get("v")):
        if value and (version := typed_number(value)) is not None:
            return version
    return None


async def _events(request: TableRequest, match_id: int, since: int | None, language: str) -> AsyncIterator[str]:
    from tracker.people.devices import mark  # at call time: people imports the match services

    at, mine, shown = _page(request, match_id), mark(request.device), ""
    watching = Watching(request, at, mine)
    # Subscribed before reading the match: no change is missed.
    with hub.holding(request), hub.subscribed(match_id, watching) as queue:
        now = hub.latest.get(match_id) or await _db(read_change, match_id)
        if now is None:
            return
        yield f"retry: {RETRY_MS}\n\n"
        sent = since if since is not None else now.version
        if now.version > sent:  # the phone was away: the version it missed, at once
            part, shown = await _part(request, now, match_id, at, shown, "", mine)
            yield now.event(language, part)
            sent = now.version
        while True:
            watching.shown, watching.sent, watching.waiting = shown, sent, queue.empty()
            try:
                change, access_changed, by, sees = await asyncio.wait_for(queue.get(), BEAT)
            except TimeoutError:
                yield f"event: beat\ndata: {sent}\n\n"
                continue
            finally:
                watching.waiting = False
            # Asked with the change's read (`sees`), else now.
            if access_changed and not (sees if sees is not None else await _db(_still_sees, request, match_id)):
                yield GONE
                return
            if change.version > sent:
                part, shown = await _part(request, change, match_id, at, shown, by, mine)
                # Who may see a match changes in more ways than a notice says (a member removed from the club,
                # a grant ended): a phone told nothing of it is asked again before each change it is sent. A
                # part drawn asked the page's own view, and the phone that made the change saw it just now.
                if not part and by != mine and not (
                        sees if sees is not None else await _db(_still_sees, request, match_id)):
                    yield GONE
                    return
                yield change.event(language, part)
                sent = change.version


# ------------------------------------------------------------------ the phone's own part, drawn for its stream


LIVE_PAGES = {"match_detail": "match", "match_log": "log"}
"""The pages that follow a match's changes, by view name: the id of the part a change draws anew on each."""
LEFT_OUT = {"HTTP_ACCEPT", "HTTP_ACCEPT_ENCODING", "HTTP_LAST_EVENT_ID", "HTTP_CACHE_CONTROL", "HTTP_PRAGMA"}
"""The stream's own headers, not the page's: the part is asked for as table.js's fetch asks for it."""


def _page(request: TableRequest, match_id: int) -> str | None:
    """The page the phone shows (`at`: its path and query, as its page wrote the stream's URL), if it is one of
    this match's live pages, as a URI (a path of ours as `next_page.local_path` says: "?round=日" comes as
    "?round=%E6%97%A5", one with a control character is none); else the phone is sent no part and fetches its own."""
    from tracker.web.next_page import local_path  # at call time: web imports people, which imports matches

    at = local_path(request.GET.get("at", ""), request)
    try:
        found = resolve(unquote(urlsplit(at).path))
    except (Resolver404, ValueError):  # no page of ours, or no address at all ("//[" is a broken host)
        return None
    return at if at and found.url_name in LIVE_PAGES and found.kwargs.get("pk") == match_id else None


LEFT_TO_THE_PAGE = (
    "tracker.web.static_files.StaticFilesMiddleware",  # answers /static/ addresses; `at` is a live page of ours
    "django.middleware.security.SecurityMiddleware",  # the page's headers, and HTTPS redirects: the stream passed them
    "django.middleware.csp.ContentSecurityPolicyMiddleware",  # a header of the page the part goes into; no nonce in it
    "django.middleware.common.CommonMiddleware",  # slashes and hosts: `at` resolved to a page, the stream's host passed
    "tracker.web.form_addresses.FormAddressMiddleware",  # a form's address opened as a page: `at` is a page
    "tracker.web.body_limit.TooLargeMiddleware",  # a body too large: a GET has none
    "django.middleware.clickjacking.XFrameOptionsMiddleware",  # a header
)
"""The middlewares a pushed part is not drawn through: each answers only what a part's GET never asks (a static file,
a form's address, a body) or adds only headers, which an event does not carry. Every other one runs as for the fetch:
who the phone is (its session, account and device), its language, its CSRF token, its messages, htmx's headers. A
middleware added to settings later runs for the part too until it is named here. They cost some 0.5 ms a part
(docs/performance.md)."""


class _Parts(WSGIHandler):
    """The page's views through every middleware of settings.MIDDLEWARE but LEFT_TO_THE_PAGE, in their order: Django's
    own chain (BaseHandler.load_middleware), for a list it is given."""

    def load_middleware(self, is_async: bool = False) -> None:
        from django.core.handlers.exception import convert_exception_to_response
        from django.utils.module_loading import import_string

        self._view_middleware: list = []
        self._template_response_middleware: list = []
        self._exception_middleware: list = []
        handler = convert_exception_to_response(self._get_response)  # type: ignore[attr-defined]
        for path in reversed([path for path in settings.MIDDLEWARE if path not in LEFT_TO_THE_PAGE]):
            middleware = import_string(path)(handler)  # each of them runs synchronously (sync_capable)
            if hasattr(middleware, "process_view"):
                self._view_middleware.insert(0, middleware.process_view)
            if hasattr(middleware, "process_template_response"):
                self._template_response_middleware.append(middleware.process_template_response)
            if hasattr(middleware, "process_exception"):
                self._exception_middleware.append(middleware.process_exception)
            handler = convert_exception_to_response(middleware)
        self._middleware_chain = handler


_pages: list[WSGIHandler] = []


def draw_part(request: TableRequest, at: str, shown: str) -> tuple[str, str] | None:
    """The part of page `at` a change draws anew, as this phone's own fetch would get it, and the kept parts it
    shows after it ("id=digest ..."); None when only the phone's fetch can carry the answer.

    The request is the fetch table.js would send (an htmx GET from the part, saying which kept parts the phone
    shows: `shown`, those of the part drawn last), with the stream's own cookies and headers, and it goes
    through the middlewares that say who the phone is and the page's own view: the part is drawn for this phone's
    seat, with its CSRF token, exactly as its fetch would be, and checked for access the same way. Only HTTP and the
    headers' middlewares are left out (LEFT_TO_THE_PAGE; on the served stack GET /healthz costs some 2 ms of CPU,
    in-process under 1 ms). An answer that is not a 200, or that sets a
    cookie the phone does not hold (a message to show once, a new session), is left to the phone's fetch."""
    if not _pages:
        _pages.append(_Parts())  # its middleware loaded once a process
    # As a WSGI server puts them (PEP 3333): the path decoded, each byte a character; the query as sent (`at` is a URI).
    address = urlsplit(at)
    path = unquote_to_bytes(address.path).decode("iso-8859-1")
    environ = {key: value for key, value in request.META.items() if key.startswith("HTTP_") and key not in LEFT_OUT}
    environ.update({
        "REQUEST_METHOD": "GET", "PATH_INFO": path, "QUERY_STRING": address.query, "SCRIPT_NAME": "",
        "SERVER_NAME": str(request.META.get("SERVER_NAME", "")), "SERVER_PORT": str(request.META.get("SERVER_PORT", "")),
        "REMOTE_ADDR": str(request.META.get("REMOTE_ADDR", "")), "wsgi.input": io.BytesIO(), "wsgi.url_scheme": request.scheme,
        "HTTP_ACCEPT": "text/html", "HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": LIVE_PAGES[str(resolve(unquote(address.path)).url_name)],
        "HTTP_X_KEPT": "1", "HTTP_X_SHOWN": shown,
    })
    try:
        response = _pages[0].get_response(WSGIRequest(environ))
        try:
            held = request.COOKIES
            if not isinstance(response, HttpResponse) or response.status_code != 200 or any(
                    held.get(name) != morsel.value for name, morsel in response.cookies.items()):
                return None
            part = response.content.decode()
        finally:
            response.close()
    finally:
        translation.deactivate()  # the page's language stays with the page, not with the reading thread
    return part, parts_shown(part)


async def _part(request: TableRequest, change: Change, match_id: int, at: str | None, shown: str, by: str,
                mine: str) -> tuple[str, str]:
    """The phone's own part for an event, and the kept parts it shows after it; no part for the phone that made
    the change (`by`: its answer brought it), one showing no live page (`at`), or one past the change's share
    of drawings (`Hub.part`): it fetches its own if need be."""
    drawing = hub.part(match_id, change.version, request, at, shown) if at and by != mine else None
    drawn = await asyncio.shield(drawing) if drawing is not None else None  # a stream closing leaves it to the others
    return drawn or ("", shown)


def _still_sees(request: TableRequest, match_id: int) -> bool:
    from tracker.people import access  # at call time: access imports the match services, which call changed()

    access.forget(request)  # the stream's request is hours old: what it learnt of the account's clubs may be too
    try:
        access.visible_match(request, match_id, only=("version",))
    except (Http404, PermissionDenied):  # gone, or its link was revoked
        return False
    return True


def stall_ms() -> int:
    """How long a phone waits for a beat before it calls its stream stalled: two beats missed, and 5 s more."""
    return int((2 * BEAT + 5) * 1000)


def streams(request: TableRequest) -> bool:
    """Whether the server this request came through can hold a stream open (ASGI), so the page offers one."""
    return isinstance(request, ASGIRequest)


@require_GET
async def match_events(request: TableRequest, pk: int) -> HttpResponseBase:
    """The match's changes as server-sent events, for as long as the phone keeps the page open.

    Access is checked as the poll checks it (`access.visible_match`): an outsider gets the same 404.
    Only an ASGI server holds a stream open; under WSGI (the test server, a plain gunicorn) the
    answer is 204, which tells the browser not to reconnect, and table.js polls instead.
    """
    from tracker.people import access  # at call time: access imports the match services, which call changed()

    if not streams(request) or not hub.may_open(request):  # no stream here, or this phone holds its share: it polls
        await sync_to_async(access.visible_match)(request, pk, ("version",))  # in the request's own thread
        return HttpResponse(status=204)
    await _db(access.visible_match, request, pk, ("version",))
    response = StreamingHttpResponse(_events(request, pk, _since(request), translation.get_language()),
                                     content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # a proxy that buffers would hold the events back
    return response
