"""The live stream (tracker/live.py): a phone with the match open hears of every change as it commits.

The stream is read through Django's async client, as an ASGI server serves it. The changes come from
other threads, as other requests would make them, so the database is a real, committed one.
Cast as in test_live_updates: the owner's phone (Ana, seat 0), Ben's phone (seat 1), a spectator.
"""

import asyncio
import contextlib
import gc
import json
import re
from pathlib import Path
from urllib.parse import quote

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection, connections
from django.test import AsyncClient, Client
from django.urls import reverse
from django.utils import translation

from tracker.matches import live, news, services
from tracker.models import Access, Match, Membership

from .helpers import ANA_DECK, BEN_DECK, entry_data, lock, lock_both, play

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fresh_cache")]


def events_url(match: Match, since: int | None = None) -> str:
    return reverse("match_events", args=[match.pk]) + (f"?v={since}" if since is not None else "")


def version_of(match: Match) -> int:
    return Match.objects.get(pk=match.pk).version


def parse(chunk: str) -> dict:
    """One server-sent event as {"id", "event", "data"}."""
    fields: dict = {}
    for line in chunk.strip().splitlines():
        name, _sep, value = line.partition(": ")
        fields[name] = value
    return fields


class Stream:
    """One phone's open stream, read event by event."""

    def __init__(self, phone: Client, url: str, **headers):
        self.client = AsyncClient()
        self.client.cookies = phone.cookies
        self.url, self.headers = url, headers

    async def __aenter__(self):
        self.response = await self.client.get(self.url, headers=self.headers)
        assert self.response.status_code == 200, self.response.status_code
        assert self.response["Content-Type"] == "text/event-stream"
        self.chunks = aiter(self.response.streaming_content)
        self.ahead: asyncio.Future | None = None
        assert (await self.next(1)).startswith("retry:")
        return self

    async def next(self, within: float) -> str:
        chunk = await asyncio.wait_for(self.ahead or anext(self.chunks), within)
        # Read on, as a server does: the stream goes on to wait for its next change (live.Watching.waiting).
        self.ahead = asyncio.ensure_future(anext(self.chunks))
        return chunk.decode() if isinstance(chunk, bytes) else chunk

    async def event(self, within: float = 5) -> dict:
        # An event comes at once; the margin is for a loaded machine (2 s once ran out on a check beside
        # other work). How fast it comes is measured by the benchmark and the browser tests.
        return parse(await self.next(within))

    async def __aexit__(self, *exc):
        if self.ahead is not None and self.ahead.cancel():
            with contextlib.suppress(asyncio.CancelledError, StopAsyncIteration):
                await self.ahead
        await self.chunks.aclose()


def on_a_thread(call, *args, **kwargs):
    """A change made elsewhere, as another request's thread would make it, giving its connection back
    when done as a request does (the test client keeps it open, and a thread that ends holding a pooled
    connection would take it from PostgreSQL's pool for good)."""
    def elsewhere():
        try:
            return call(*args, **kwargs)
        finally:
            connections.close_all()
    return sync_to_async(elsewhere, thread_sensitive=False)()


def lock_on_phone(phone: Client, match: Match, seat: int, names: list[str]) -> None:
    response = phone.post(reverse("match_entry", args=[match.pk, seat]), entry_data(match, seat, names))
    assert response.status_code == 302


@pytest.fixture
def quick_beats(monkeypatch):
    monkeypatch.setattr(live, "BEAT", 0.3)


def heard_by_owner_as_ben_locks_in(owner: Client, battle: Match, player: Client) -> dict:
    """The event the owner's stream hears when Ben locks in on his own phone."""
    url = events_url(battle, version_of(battle))

    async def scenario():
        async with Stream(owner, url) as stream:
            await on_a_thread(lock_on_phone, player, battle, 1, BEN_DECK)
            return await stream.event()

    return asyncio.run(scenario())


def test_a_lock_in_on_one_phone_reaches_the_other_at_once_saying_who(owner, battle, player):
    event = heard_by_owner_as_ben_locks_in(owner, battle, player)
    assert event["event"] == "change"
    assert int(event["id"]) == version_of(battle)
    change = json.loads(event["data"])
    assert change["version"] == version_of(battle) and change["kind"] == "step"
    assert "Ben" in change["said"]
    assert not any(card in event["data"] for card in BEN_DECK)


def test_a_change_made_before_the_server_listens_is_pushed_once_it_does(owner, battle, player, monkeypatch):
    """A process's first stream starts its LISTEN connection; a change committed before LISTEN takes hold is
    notified to nobody. Once listening, the process asks every match it watches again, so the lock-in made in
    that gap still reaches the phone. (On SQLite the notice is in-process, and there is no gap.)"""
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's LISTEN: tracker/scripts/with-postgres")
    import psycopg

    connect = psycopg.AsyncConnection.connect

    async def slow(*args, **kwargs):
        await asyncio.sleep(1.5)  # the lock-in below commits, and is notified, meanwhile
        return await connect(*args, **kwargs)

    monkeypatch.setattr(psycopg.AsyncConnection, "connect", slow)
    event = heard_by_owner_as_ben_locks_in(owner, battle, player)
    assert event["event"] == "change" and int(event["id"]) == version_of(battle)
    assert "Ben" in json.loads(event["data"])["said"]


def test_a_stream_hears_changes_while_idle_and_after_its_servers_listening_connection_is_lost(owner, battle, player,
                                                                                              caplog):
    """The listening connection waits on its socket alone (no wake-up ten times a second for nothing): a change
    after a quiet while still comes at once, and when PostgreSQL ends the connection the server connects again,
    asks its matches again, and the next change reaches the phone."""
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's LISTEN: tracker/scripts/with-postgres")

    def listening() -> list[int]:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pid FROM pg_stat_activity WHERE query = %s AND datname = current_database() "
                           "AND pid <> pg_backend_pid()", [f"LISTEN {live.CHANNEL}"])
            return [pid for (pid,) in cursor.fetchall()]

    def end_listening() -> None:
        pids = listening()
        assert pids
        with connection.cursor() as cursor:
            for pid in pids:
                cursor.execute("SELECT pg_terminate_backend(%s)", [pid])

    url = events_url(battle, version_of(battle))

    async def scenario():
        async with Stream(player, url) as stream:
            await asyncio.sleep(0.5)  # quiet: nothing read, nothing sent
            await on_a_thread(lock_on_phone, owner, battle, 0, ANA_DECK)
            first = await stream.event()
            while not await on_a_thread(listening):  # its LISTEN has taken hold (it asked again meanwhile)
                await asyncio.sleep(0.05)
            await on_a_thread(end_listening)
            for _ in range(100):  # connected again (after 0.5 s)
                await asyncio.sleep(0.05)
                if await on_a_thread(listening):
                    break
            await on_a_thread(lock_on_phone, player, battle, 1, BEN_DECK)
            return first, await stream.event()

    first, second = asyncio.run(scenario())
    assert int(first["id"]) < int(second["id"]) == version_of(battle)
    assert "Ben" in json.loads(second["data"])["said"]
    assert "listening again" in caplog.text


def test_a_notice_of_a_match_no_stream_here_watches_starts_nothing():
    """Every app server hears of every change (PostgreSQL's NOTIFY): one holding no stream of the match does nothing."""
    hub = live.Hub()

    async def scenario():
        hub._announce_soon("41::someone")
        hub._announce_soon("not a notice")
        return len(hub.tasks)

    assert asyncio.run(scenario()) == 0


def test_an_undo_is_pushed_too(owner, battle, player):
    lock_both(battle)
    play(battle)

    url = events_url(battle, version_of(battle))

    async def scenario():
        async with Stream(player, url) as stream:
            await on_a_thread(owner.post, reverse("match_goto", args=[battle.pk]), {"seq": 3, "step": 2})
            return await stream.event()

    change = json.loads(asyncio.run(scenario())["data"])
    assert change["kind"] == "goto" and change["version"] == version_of(battle)
    assert "step 2" in change["said"]
    assert change["said"] == "Ana went back from step 3 to step 2.", "the other phone is told who did it"


def test_a_phone_that_was_away_is_sent_what_it_missed_at_once_and_nothing_it_has(owner, battle, player, quick_beats):
    seen = version_of(battle)
    lock_both(battle)
    play(battle)

    url = events_url(battle, version_of(battle))

    async def scenario():
        async with Stream(player, events_url(battle), **{"Last-Event-ID": str(seen)}) as away:
            missed = await away.event()
        async with Stream(player, url) as fresh:
            quiet = await fresh.event()
        return missed, quiet

    missed, quiet = asyncio.run(scenario())
    assert missed["event"] == "change" and int(missed["id"]) == version_of(battle)
    assert "Round 1" in json.loads(missed["data"])["said"]
    assert quiet == {"event": "beat", "data": str(version_of(battle))}  # nothing to send: only the beat


def test_last_event_id_wins_over_the_pages_version(owner, battle, quick_beats):
    lock_both(battle)
    now = version_of(battle)

    async def scenario():
        async with Stream(owner, events_url(battle, 0), **{"Last-Event-ID": str(now)}) as stream:
            return await stream.event()

    assert asyncio.run(scenario())["event"] == "beat"


def test_an_idle_stream_beats(owner, battle, quick_beats):
    url = events_url(battle, version_of(battle))

    async def scenario():
        async with Stream(owner, url) as stream:
            return [await stream.event() for _ in range(2)]

    assert [event["event"] for event in asyncio.run(scenario())] == ["beat", "beat"]


def test_a_revoked_watcher_is_told_it_is_gone_and_hears_nothing_more(owner, battle, spectator):
    watch = Access.objects.get(match=battle, role=Access.SPECTATOR).invite

    url = events_url(battle, version_of(battle))

    async def scenario():
        async with Stream(spectator, url) as stream:
            await on_a_thread(owner.post, reverse("invite_revoke", args=[battle.pk, watch.pk]))
            gone = await stream.event()
            with pytest.raises(StopAsyncIteration):
                await stream.next(5)
            return gone

    assert asyncio.run(scenario())["event"] == "gone"


@pytest.mark.parametrize("at", ["", "match"])
def test_a_phone_that_may_no_longer_see_the_match_hears_no_more_of_it_however_it_lost_it(owner, battle, spectator, at):
    """Asked again before each change, whatever ended the phone's access (here a grant deleted behind every
    notice's back): with a part to draw (its page's view refuses it) or without."""
    url = events_url(battle, version_of(battle)) + (f"&at={battle.get_absolute_url()}" if at else "")

    async def scenario():
        async with Stream(spectator, url) as stream:
            await on_a_thread(Access.objects.filter(match=battle, role=Access.SPECTATOR).delete)
            # One change: a second write while the stream reads the first would meet SQLite's shared-cache table
            # lock (the test database; a served SQLite file waits instead).
            await on_a_thread(lock, battle, 0, ANA_DECK)
            heard = [await stream.event()]
            with pytest.raises(StopAsyncIteration):
                heard.append(await stream.event())
            return heard

    assert [event["event"] for event in asyncio.run(scenario())] == ["gone"]


def test_a_member_removed_from_the_club_is_told_at_once_that_its_matches_are_gone(organiser, member, club, catalog):
    club_match = services.match_create(slug="card-crush", player_names=["Olga", "Zed"], config={}, club=club,
                                       owner=organiser.user)
    membership = Membership.objects.get(user=member.user, club=club)
    url = events_url(club_match, version_of(club_match)) + f"&at={club_match.get_absolute_url()}"

    async def scenario():
        async with Stream(member, url) as stream:
            await on_a_thread(organiser.post, reverse("club_member", args=[club.pk, membership.pk]), {"do": "remove"})
            return await stream.event()

    assert asyncio.run(scenario())["event"] == "gone"
    assert member.get(club_match.get_absolute_url()).status_code == 404


@pytest.mark.parametrize("ended", ["signed out", "password changed elsewhere"])
def test_a_stream_whose_session_ended_is_told_it_is_gone_and_hears_no_news(organiser, member, club, catalog, ended):
    """Round 19: the stream asked again with the account it opened with, so a phone signed out (or whose password
    was changed on another phone) still heard who did what, though its page was a 404."""
    club_match = services.match_create(slug="card-crush", player_names=["Olga", "Zed"], config={}, club=club,
                                       owner=organiser.user)
    url = events_url(club_match, version_of(club_match)) + f"&at={club_match.get_absolute_url()}"

    def end_the_session():
        if ended == "signed out":
            assert member.post(reverse("sign_out")).status_code in (200, 302)
        else:
            member.user.set_password("a-new-long-passphrase")
            member.user.save()

    async def scenario():
        async with Stream(member, url) as stream:
            await on_a_thread(end_the_session)
            await on_a_thread(lock, club_match, 0, ANA_DECK)
            heard = [await stream.event()]
            with pytest.raises(StopAsyncIteration):
                heard.append(await stream.event())
            return heard

    assert [event["event"] for event in asyncio.run(scenario())] == ["gone"]


@pytest.mark.parametrize("header", [False, True])
def test_a_version_that_is_no_number_opens_the_stream_from_the_pages_own(owner, battle, header):
    """"²" passes str.isdigit() and int() refuses it: asked as the page's version or as Last-Event-ID it was a 500."""
    async def opened():
        client = AsyncClient()
        client.cookies = owner.cookies
        url = reverse("match_events", args=[battle.pk])
        response = await (client.get(url, headers={"Last-Event-ID": "\u00b2"}) if header else client.get(url + "?v=%C2%B2"))
        chunks = aiter(response.streaming_content)
        first = await asyncio.wait_for(anext(chunks), 5)
        await chunks.aclose()
        return response.status_code, first

    status, first = asyncio.run(opened())
    assert status == 200 and (first.decode() if isinstance(first, bytes) else first).startswith("retry:")


def test_the_stream_is_refused_to_outsiders_as_the_poll_is(battle):
    outsider = Client()
    for url in (events_url(battle), reverse("match_poll", args=[battle.pk])):
        assert outsider.get(url).status_code == 404

    async def asked():
        return (await AsyncClient().get(events_url(battle))).status_code

    assert asyncio.run(asked()) == 404
    assert Client().post(events_url(battle)).status_code == 405


def test_a_wsgi_server_answers_204_so_the_page_polls(owner, battle):
    response = owner.get(events_url(battle))
    assert response.status_code == 204 and response.content == b""


def test_every_write_that_moves_a_version_tells_the_streams():
    """The class of hole: a write that raises Match.version without `live.changed` would leave phones
    stale until they poll. Every such write in the app is found here and must call it beside the write."""
    root = Path(settings.BASE_DIR) / "tracker"
    raises = re.compile(r"version=(F\(\"version\"\) \+ 1|match\.version \+ 1)|\.version \+= 1")
    writes = []
    for path in root.rglob("*.py"):
        lines = path.read_text().splitlines()
        for number, line in enumerate(lines):
            if raises.search(line) and "migrations" not in path.parts:
                writes.append((path.name, number + 1, any("live.changed(" in later for later in lines[number:number + 8])))
    assert len(writes) >= 4, writes  # services, consent, sharing, the organiser's void
    assert all(told for _name, _line, told in writes), [w for w in writes if not w[2]]


def test_the_match_page_opens_the_stream_from_the_version_it_shows(owner, battle):
    async def page():
        client = AsyncClient()
        client.cookies = owner.cookies
        return (await client.get(battle.get_absolute_url())).content.decode()

    url = events_url(battle, version_of(battle))
    html = asyncio.run(page())
    # table.js opens it with the browser's EventSource; `at` names the page, whose part each change brings
    assert f'data-stream="{url}&amp;at={battle.get_absolute_url()}"' in html


def same_but_tokens(html: str) -> str:
    """A drawn part as the phone's screen holds it: the CSRF and one-time tokens are masked anew at each drawing."""
    return re.sub(r'(name="(?:csrfmiddlewaretoken|once)" value)="[^"]*"', r"\1", html)


def heard_when_ben_locks_in(phone: Client, url: str, battle: Match, player: Client) -> dict:
    """What the stream at `url` of `phone` hears when Ben locks in on his own phone: the event's data."""
    async def scenario():
        async with Stream(phone, url) as stream:
            await on_a_thread(lock_on_phone, player, battle, 1, BEN_DECK)
            return json.loads((await stream.event())["data"])

    return asyncio.run(scenario())


def test_the_other_phone_is_sent_its_own_part_drawn_as_its_fetch_would_be(owner, battle, player):
    """The owner's stream, opened from the match page (`at`), hears Ben's lock-in with the owner's #match part,
    drawn for her seat: what her fetch of it brings, so she fetches nothing."""
    page = battle.get_absolute_url()
    owner.get(page)  # the page the stream is opened from (it shows the message its start left, once)
    url = events_url(battle, version_of(battle)) + f"&at={page}"

    change = heard_when_ben_locks_in(owner, url, battle, player)
    fetched = owner.get(page, headers={"HX-Request": "true", "HX-Target": "match", "X-Kept": "1"}).content.decode()
    assert same_but_tokens(change["part"]) == same_but_tokens(fetched)
    assert "Ben is locked in" in change["part"] and not any(card in change["part"] for card in BEN_DECK)


def test_a_part_is_drawn_through_every_middleware_that_says_who_the_phone_is():
    """A pushed part leaves out only the middlewares that add headers or answer what a part's GET never asks
    (LEFT_TO_THE_PAGE, each a middleware the site runs); those that say who the phone is, in which language, with
    which CSRF token and messages, and htmx's, run for it in the site's order, and so does any added later."""
    assert set(live.LEFT_TO_THE_PAGE) < set(settings.MIDDLEWARE)
    kept = [path for path in settings.MIDDLEWARE if path not in live.LEFT_TO_THE_PAGE]
    for needed in ("django.contrib.sessions.middleware.SessionMiddleware", "django.middleware.locale.LocaleMiddleware",
                   "django.middleware.csrf.CsrfViewMiddleware", "django.contrib.auth.middleware.AuthenticationMiddleware",
                   "tracker.people.devices.DeviceMiddleware", "django.contrib.messages.middleware.MessageMiddleware",
                   "django_htmx.middleware.HtmxMiddleware", "tracker.web.busy.BusyDatabaseMiddleware"):
        assert needed in kept
    chain, names = live._Parts()._middleware_chain, []
    while chain is not None:  # each middleware wrapped by Django's exception handling, down to the view's call
        middleware = getattr(chain, "__wrapped__", chain)
        if getattr(middleware, "get_response", None) is None:
            break
        names.append(f"{type(middleware).__module__}.{type(middleware).__name__}")
        chain = middleware.get_response
    assert names == kept


def test_a_part_that_must_set_a_cookie_is_left_to_the_phones_own_fetch(owner, battle, player):
    """The owner's page still holds the message the battle's start left (shown once, then its cookie cleared): a
    pushed part could not clear it, so the event comes alone and the phone's fetch shows it."""
    url = events_url(battle, version_of(battle)) + f"&at={battle.get_absolute_url()}"

    assert "part" not in heard_when_ben_locks_in(owner, url, battle, player)


def test_a_phones_streams_share_one_drawing_and_a_change_draws_at_most_its_share(owner, spectator, battle, player,
                                                                                monkeypatch):
    """Two streams of the owner's phone on the same page get one drawing between them; with room for one
    drawing a change, the spectator's stream gets the event alone (it fetches): opening streams cannot make
    a change cost the server more drawings."""
    drawn = []
    draw = live.draw_part
    monkeypatch.setattr(live, "draw_part", lambda *args: drawn.append(args[1]) or draw(*args))
    monkeypatch.setattr(live, "PARTS_PER_CHANGE", 1)
    for phone in (owner, spectator):
        phone.get(battle.get_absolute_url())  # the page each stream is opened from
    url = events_url(battle, version_of(battle)) + f"&at={battle.get_absolute_url()}"

    async def scenario():
        async with Stream(owner, url) as first, Stream(owner, url) as second, Stream(spectator, url) as watching:
            await on_a_thread(lock_on_phone, player, battle, 1, BEN_DECK)
            return [json.loads((await stream.event())["data"]) for stream in (first, second, watching)]

    first, second, watching = asyncio.run(scenario())
    assert drawn == [battle.get_absolute_url()]
    assert first["part"] == second["part"] and "part" not in watching and watching["version"] == first["version"]


def test_a_change_is_read_and_drawn_for_every_stream_here_in_one_errand(owner, spectator, battle, player, monkeypatch):
    """The owner's stream on the match page and the spectator's on no live page: the change is read, the owner's part
    drawn and the spectator asked whether it may still see the match in one thread's errand (live._db), not in one
    for the read and one for each stream; each stream hears what it did before."""
    errands = []
    errand = live._db
    monkeypatch.setattr(live, "_db", lambda function, *args: errands.append(function.__name__) or errand(function, *args))
    owner.get(battle.get_absolute_url())
    url = events_url(battle, version_of(battle))
    seen = []
    still_sees = live._still_sees
    monkeypatch.setattr(live, "_still_sees", lambda request, pk: seen.append(pk) or still_sees(request, pk))

    async def scenario():
        async with Stream(owner, f"{url}&at={battle.get_absolute_url()}") as mine, Stream(spectator, url) as theirs:
            # Both streams wait for the change (on PostgreSQL, once the listener has asked every match again).
            for _ in range(100):
                if not live._listens() or battle.pk in live.hub.latest:
                    break
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.05)
            errands.clear()
            seen.clear()
            await on_a_thread(lock_on_phone, player, battle, 1, BEN_DECK)
            return [json.loads((await stream.event())["data"]) for stream in (mine, theirs)]

    mine, theirs = asyncio.run(scenario())
    assert errands == ["_read_and_draw"] and seen == [battle.pk]
    assert "Ben is locked in" in mine["part"] and "part" not in theirs and mine["version"] == theirs["version"]


def test_one_phones_streams_on_other_pages_get_one_drawing_between_them(owner, battle, player, monkeypatch):
    """One phone opened a stream on each of twelve differently filtered logs of a long match: each tap had this
    server draw twelve costly pages. A phone gets one drawing a change, whatever cookies of its own it adds;
    its other streams get the event alone (they fetch, one request each, as any request is)."""
    drawn = []
    draw = live.draw_part
    monkeypatch.setattr(live, "draw_part", lambda *args: drawn.append(args[1]) or draw(*args))
    owner.get(battle.get_absolute_url())
    log = reverse("match_log", args=[battle.pk])
    urls = [events_url(battle, version_of(battle)) + "&at=" + quote(f"{log}?round={n}", safe="/") for n in (1, 2, 3)]

    def with_junk(number: int) -> Client:
        """The owner's phone with a cookie of its own making added: still the owner's phone."""
        same = Client()
        for name, morsel in owner.cookies.items():
            same.cookies[name] = morsel.value
        same.cookies[f"z{number}"] = str(number)
        return same

    async def scenario():
        async with (Stream(owner, urls[0]) as one, Stream(with_junk(1), urls[1]) as two,
                    Stream(with_junk(2), urls[2]) as three):
            await on_a_thread(lock_on_phone, player, battle, 1, BEN_DECK)
            return [json.loads((await stream.event())["data"]) for stream in (one, two, three)]

    heard = asyncio.run(scenario())
    assert len(drawn) == 1 and sum("part" in change for change in heard) == 1
    assert len({change["version"] for change in heard}) == 1, "every stream hears the change"


def test_a_phone_holds_its_share_of_streams_and_polls_past_it(owner, battle, monkeypatch):
    """A phone holding a watch link opened 1,500 streams: each is asked at every change whether it may still see
    the match, and one tap cost over a second of CPU. Past its share a phone's stream is answered 204 (its page
    polls), and a stream closed gives its place back."""
    monkeypatch.setattr(live, "STREAMS_PER_PHONE", 2)
    url = events_url(battle, version_of(battle))

    async def scenario():
        async with Stream(owner, url), Stream(owner, url):
            extra = AsyncClient()
            extra.cookies = owner.cookies
            refused = (await extra.get(url)).status_code
        # The test client's closed response holds its stream in a cycle until collected; a server closes a
        # stream by cancelling it, which gives its place back at once.
        gc.collect()
        await asyncio.sleep(0.05)
        assert not live.hub.open, "every place given back"
        async with Stream(owner, url) as again:
            return refused, again.response.status_code

    assert asyncio.run(scenario()) == (204, 200)


def test_the_phone_that_made_the_change_is_sent_no_part(battle, player):
    """Ben's own stream hears his lock-in without a part: his answer brought it."""
    url = events_url(battle, version_of(battle)) + f"&at={battle.get_absolute_url()}"

    change = heard_when_ben_locks_in(player, url, battle, player)
    assert change["version"] == version_of(battle) and "part" not in change


@pytest.mark.parametrize("at", ["/matches/999/", "/matches/{pk}/replay/", "https://elsewhere.example/matches/{pk}/",
                                "//[broken/matches/{pk}/", "/matches/{pk}/log/?player=1"])
def test_a_part_is_drawn_only_for_the_matchs_own_live_pages(owner, battle, player, at):
    """`at` is the phone's word: only this match's page and log are drawn (the log with its filters), through
    the phone's own access as any page of it; anything else gets the event alone, and the phone fetches."""
    at = at.format(pk=battle.pk)
    url = events_url(battle, version_of(battle)) + "&at=" + quote(at, safe="/")

    change = heard_when_ben_locks_in(owner, url, battle, player)
    if at.endswith("log/?player=1"):
        assert change["part"].lstrip().startswith('<div id="log"') and "Ben locks in a hidden deck" in change["part"]
    else:
        assert "part" not in change


@pytest.mark.parametrize("filters", ["round=日", "player=1&round=%E6%97%A5", "round=\r\n"])
def test_a_part_is_drawn_for_an_at_beyond_ascii_and_none_for_one_no_address_has(owner, battle, player, filters,
                                                                                caplog):
    """`at` comes decoded from the stream's query: "?round=日" was put into the drawing's QUERY_STRING as it was,
    which WSGI (Latin-1) cannot carry, and every change logged a 500. It is drawn as the page's own URI would be;
    a control character, which no address of ours holds, gets the event alone (the phone fetches)."""
    log = reverse("match_log", args=[battle.pk])
    url = events_url(battle, version_of(battle)) + "&at=" + quote(f"{log}?{filters}", safe="/")

    change = heard_when_ben_locks_in(owner, url, battle, player)
    assert "Internal Server Error" not in caplog.text
    if "\r" in filters:
        assert "part" not in change
    else:
        assert change["part"].lstrip().startswith('<div id="log"') and "Ben locks in a hidden deck" in change["part"]


def test_every_page_that_follows_a_match_under_way_holds_its_stream(owner, battle):
    """No page polls where a stream can be had: each page of the match a phone can reach from its match page
    that follows the match's changes (data-live-url, table.js) opens the stream, from the version it shows.
    The match log once polled every 2 s: 30 requests a minute from a phone reading it."""
    stream = f'data-stream="{events_url(battle, version_of(battle))}&amp;at='

    async def crawl() -> list[str]:
        client = AsyncClient()
        client.cookies = owner.cookies
        seen, todo, following = set(), [battle.get_absolute_url()], []
        while todo:
            url = todo.pop()
            if url in seen:
                continue
            seen.add(url)
            response = await client.get(url)
            if response.status_code != 200 or not response["Content-Type"].startswith("text/html"):
                continue  # an export, a refusal
            html = response.content.decode()
            if "data-live-url" in html:
                following.append(url)
                assert f'{stream}{url}"' in html, url
            todo += re.findall(rf'href="(/matches/{battle.pk}/[^"#?]*)"', html)
        return following

    assert set(asyncio.run(crawl())) == {battle.get_absolute_url(), reverse("match_log", args=[battle.pk])}


def test_the_log_under_way_redraws_its_part_alone_keeping_the_phones_filters(owner, player, battle):
    """table.js's fetch after another phone's change: the log part at the new version, filtered as the page
    is, with the filters' fold marked for htmx to keep as the phone shows it (open, half typed)."""
    url = reverse("match_log", args=[battle.pk])
    before = version_of(battle)
    lock_on_phone(player, battle, 1, BEN_DECK)
    html = owner.get(url, {"player": 1}, headers={"HX-Request": "true", "HX-Target": "log"}).content.decode()
    assert html.lstrip().startswith('<div id="log" ') and html.rstrip().endswith("</div>")
    assert f'data-live-version="{version_of(battle)}"' in html and version_of(battle) > before
    assert '<details id="log-filters" hx-preserve class="filters-box" open>' in html
    assert "<h1" not in html and 'id="live"' not in html  # outside the part: the stream stays open


def test_under_wsgi_the_page_offers_no_stream_and_says_it_polls(owner, battle):
    html = owner.get(battle.get_absolute_url()).content.decode()
    assert "data-stream" not in html
    assert html.count("No live connection: checking for changes every 2 seconds.") == 2  # the status, and table.js's


def test_each_phone_hears_the_news_in_its_language(owner, battle, player, django_assert_max_num_queries):
    """Ana's phone reads English, Ben's German: each stream says the undo in its own language. The news is put
    in every language from one read of the match: the action it tells of is the newest, read once."""
    lock_both(battle)
    play(battle)
    player.post(reverse("set_language"), {"language": "de"})
    url = events_url(battle, version_of(battle))

    async def scenario():
        async with Stream(owner, url) as english, Stream(player, url) as german:
            await on_a_thread(owner.post, reverse("match_goto", args=[battle.pk]), {"seq": 3, "step": 2})
            return await english.event(), await german.event()

    english, german = (json.loads(event["data"])["said"] for event in asyncio.run(scenario()))
    assert english == "Ana went back from step 3 to step 2."
    with translation.override("de"):
        assert german == news.said(Match.objects.get(pk=battle.pk), None) != english
    head = Match.objects.get(pk=battle.pk).head
    assert player.post(reverse("match_act", args=[battle.pk]), {"seq": head, "action": "play_round"}).status_code == 302
    with django_assert_max_num_queries(2):  # the match with its players and its head action (the newest), the requests
        change = live.read_change(battle.pk)
    assert change.said["en"].startswith("Ben") and change.said["de"].startswith("Ben")


def test_the_pushed_message_cuts_a_long_name_short_as_the_box_says_it(catalog):
    """The other phone's box shows the pushed message unless the page says it already (table.js: tell): both cut a
    40-letter name short alike (tracker/matches/outcome.py), or the box would be drawn again with the whole name."""
    from tracker.matches.outcome import in_box, short_names

    names = ["Maximilianalexanderbartholomewsmithsonab", "ana.longname.player@example-tablekeeper."]
    battle = play(lock_both(services.match_create(slug="card-crush", player_names=names, config={})))
    services.match_goto(step=battle.head - 1, expected_seq=battle.head, match=battle, by=news.By(names[0], (0,)))
    change = live.read_change(battle.pk)
    said = news.said(Match.objects.get(pk=battle.pk), None)
    assert names[0] in said and names[0] not in change.said["en"], change.said
    assert change.said["en"] == in_box(said, short_names(names))
