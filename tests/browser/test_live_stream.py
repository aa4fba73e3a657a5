"""Two phones on the production stack (gunicorn + uvicorn workers, tracker/asgi.py): the other phone's tap
appears at once through the live stream, within the poll period when the stream is blocked, and a phone
that was offline catches up by itself.

The test server pytest-django starts is WSGI and cannot hold a stream (its answer is 204, so those pages
poll); here the app runs as in production, on its own SQLite file (one worker: SQLite's fan-out is
in-process), set up as the load test sets up its server (perf/loadtest.py). Its stream beats every second
(LIVE_BEAT_SECONDS), not every 15 s, so a phone calls a silent stream stalled after 7 s rather than 35 s:
the same paths run in a fifth of the time.
"""

import re
import time
from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import expect

from perf import loadtest
from tracker.games.cardmaster import demo as cm_demo

from .phone import OUTCOME, PHONE, box_stayed, fill_card, form_with_button, next_step_in_view
from .test_two_phones import (
    ANA_CARD,
    BEN_CARD,
    DECK_2,
    P1,
    P2,
    Phone,
    commit_on_own_phone,
    fill_deck,
    make_link,
    start_duel_from_home,
    start_match_from_home,
    take_seat,
)

# One worker holds the served stack for the whole module (CI runs --dist loadgroup): starting it is 15 s.
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("live-stream")]

AT_ONCE = 1_000  # ms: the "within a second"
POLL_PERIOD = 2_000  # ms: table.js's fallback
LIVE = "Live: the other phones’ taps appear at once."
POLLING = "No live connection: checking for changes every 2 seconds."
BEAT = 1  # s: the served stack's LIVE_BEAT_SECONDS
STALL = (2 * BEAT + 5) * 1_000  # ms: silent this long, the stream is stalled (tracker/matches/live.py: stall_ms)


@pytest.fixture(scope="module")
def served(collected_static):
    with (loadtest.ready(static_root=str(settings.STATIC_ROOT), say=lambda line: None) as base,
          loadtest.fresh(None, base, "tablekeeper-live-", say=lambda line: None) as (folder, _url, env)):
        server = loadtest.Server({**env, "LIVE_BEAT_SECONDS": str(BEAT)}, loadtest.free_port(), 1,
                                 Path(folder) / "server.log")
        server.start()
        try:
            yield f"http://{loadtest.HOST}:{server.port}"
        finally:
            server.stop()


@pytest.fixture
def phones(browser, served):
    contexts = []

    def phone(name: str, blocked: bool = False) -> Phone:
        context = browser.new_context(base_url=served, **PHONE)
        context.set_default_timeout(10_000)
        if blocked:  # a proxy that will not pass the stream: the events URL never answers
            context.route(re.compile(r"/events(\?|$)"), lambda route: route.abort())
        contexts.append(context)
        return Phone(context, name, clock=False)  # the real clock: the stream's beats and stall are timed

    yield phone
    for context in contexts:
        context.close()


def seated_pair(phone, blocked: bool = False) -> tuple[Phone, Phone, int]:
    """Ana's phone starts a battle and Ben's phone takes his seat; both show the match page."""
    ana, ben = phone("ana", blocked=blocked), phone("ben")
    match_id = start_match_from_home(ana.page)
    ben.page.goto(make_link(ana.page, f"+ Join link for {P2}", f"Join as {P2}"))
    ben.page.get_by_role("button", name=f"Play as {P2} on this phone").click()
    expect(ben.page).to_have_url(re.compile(rf"/matches/{match_id}/$"))
    ana.page.goto(f"/matches/{match_id}/")
    expect(ana.page.get_by_text(f"{P2} locks in on their own phone.")).to_be_visible()
    return ana, ben, match_id


def ben_locks_in(ben: Phone, match_id: int) -> float:
    """Ben locks his deck in on his phone; the moment his answer is back (monotonic seconds)."""
    ben.page.get_by_role("link", name="Lock in your deck").click()
    fill_deck(ben.page, DECK_2)
    ben.page.get_by_role("button", name="Lock in my deck").click()
    expect(ben.page).to_have_url(re.compile(rf"/matches/{match_id}/$"))
    return time.monotonic()


def sees_ben_locked(ana: Phone):
    return expect(ana.page.locator(".lockin li").nth(1))


def test_a_lock_in_appears_on_the_other_phone_within_a_second_and_says_who(phones, screenshot_dir):
    ana, ben, match_id = seated_pair(phones)
    expect(ana.page.locator("#live .live-status")).to_have_text(LIVE)
    ana.page.evaluate("scrollTo(0, 0)")  # Ana reads the top of the page: the news must come to her screen all the same
    ana.mark()
    fetched: list[dict] = []
    ana.page.on("request", lambda request: request.url.endswith(f"/matches/{match_id}/")
                and fetched.append(request.headers))
    ben_locks_in(ben, match_id)
    sees_ben_locked(ana).to_contain_text(f"{P2} is locked in", timeout=AT_ONCE)
    # The stream brought Ana's part with the change, drawn for her phone: nothing was fetched.
    assert fetched == [], fetched
    # Who did it, on her screen without a scroll of hers.
    expect(ana.page.locator(OUTCOME)).to_contain_text(f"{P2}")
    expect(ana.page.locator(OUTCOME)).to_be_in_viewport(ratio=1)
    assert ana.was_not_reloaded()
    assert not any(card in ana.page.content() for card in DECK_2)
    ana.shot(screenshot_dir, "live-other-phone")
    # Idle for longer than a stall: nothing changes, the page asks nothing (the stream's beats are not
    # requests), and the beats keep it live.
    expect(ana.page.locator("#live")).to_have_attribute("data-stall", str(STALL))
    asked: list[str] = []
    ana.page.on("request", lambda request: asked.append(request.url))
    ana.page.wait_for_timeout(STALL + 1_000)
    assert asked == [], asked
    expect(ana.page.locator("#live .live-status")).to_have_text(LIVE)
    assert not ana.console and not ben.console, ana.console + ben.console


def test_news_whose_place_is_under_the_screen_waits_at_its_foot(phones, screenshot_dir):
    """Ben reads the top of his phone when Ana agrees to his Fight: the news docks where his next step starts, under
    the screen, so it waits at the screen's foot until he scrolls there, where it is back in its place above his next
    step, which nothing covers. (It was below the screen, unseen: a player on the demo server, 2026-12-02.)"""
    ana, ben = phones("ana"), phones("ben")
    match_id = start_duel_from_home(ana.page)
    take_seat(ben, make_link(ana.page, f"+ Join link for {P2}", f"Join as {P2}"), P2, match_id)
    commit_on_own_phone(ben.page, P2, BEN_CARD)
    ana.page.goto(f"/matches/{match_id}/seat/0/entry/")
    fill_card(ana.page.get_by_label("Card to play"), ANA_CARD)
    ana.page.get_by_role("button", name="Commit this card").click()
    ben.page.get_by_role("button", name=re.compile("Fight")).click()
    # His own answer settled first: it scrolls his page to its box, and a late settle did so after he had gone to the
    # top (ci69).
    expect(ben.page.locator(OUTCOME)).to_contain_text(f"Asked {P1} to agree")
    box_stayed(ben.page)
    agree = ana.page.get_by_role("button", name="Agree")
    expect(agree).to_be_visible(timeout=AT_ONCE)
    ben.page.evaluate("scrollTo(0, 0)")
    agree.click()
    box = ben.page.locator(OUTCOME)
    expect(box).to_contain_text(f"{P1} agreed: Fight", timeout=AT_ONCE)
    expect(box).to_be_in_viewport(ratio=1)
    at = ben.page.evaluate("() => [scrollY, innerHeight, document.getElementById('outcome').getBoundingClientRect().bottom]")
    assert at[0] == 0 and abs(at[1] - at[2]) <= 1, f"the news does not wait at the screen's foot: {at}"
    ben.page.screenshot(path=screenshot_dir / "two-phones-live-news-at-the-foot.png", caret="initial")  # the screen
    commit = ben.page.get_by_role("link", name="Commit your card")
    commit.scroll_into_view_if_needed()
    next_step_in_view(ben.page, commit)


def test_with_the_stream_blocked_the_page_says_so_and_polls_within_its_period(phones, screenshot_dir):
    ana, ben, match_id = seated_pair(phones, blocked=True)
    expect(ana.page.locator("#live .live-status")).to_have_text(POLLING)
    ana.shot(screenshot_dir, "live-blocked-polls")
    ben_locks_in(ben, match_id)
    sees_ben_locked(ana).to_contain_text(f"{P2} is locked in", timeout=POLL_PERIOD + 500)


def test_a_phone_offline_for_a_while_catches_up_by_itself(phones):
    """Offline for longer than table.js waits for a beat before it calls the stream stalled (STALL), as a
    phone offline for the issue's minute is: the same paths run, in less of the shared machine's time."""
    ana, ben, match_id = seated_pair(phones)
    expect(ana.page.locator("#live .live-status")).to_have_text(LIVE)
    ana.page.context.set_offline(True)
    ben_locks_in(ben, match_id)
    ana.page.wait_for_timeout(STALL + 1_000)
    sees_ben_locked(ana).not_to_contain_text(f"{P2} is locked in")
    ana.page.context.set_offline(False)
    sees_ben_locked(ana).to_contain_text(f"{P2} is locked in", timeout=5_000)
    expect(ana.page.locator("#live .live-status")).to_have_text(LIVE, timeout=5_000)


def test_the_log_follows_the_other_phone_keeping_a_half_typed_filter(phones, screenshot_dir):
    """Ana reads the log with the filters' fold open and a round half typed: Ben's lock-in appears in it at once,
    her fold and what she typed stay, and her idle log page asks nothing (it once polled every 2 s)."""
    ana, ben, match_id = seated_pair(phones)
    ana.page.goto(f"/matches/{match_id}/log/")
    expect(ana.page.locator("#live .live-status")).to_have_text(LIVE)
    ana.page.get_by_text("Filter the log").click()
    ana.page.get_by_label("Round or turn").fill("3")
    ana.mark()
    ben_locks_in(ben, match_id)
    expect(ana.page.locator("#log")).to_contain_text(f"{P2} locks in a hidden deck", timeout=AT_ONCE)
    expect(ana.page.get_by_label("Round or turn")).to_have_value("3")
    expect(ana.page.get_by_label("Round or turn")).to_be_in_viewport()
    assert ana.was_not_reloaded()
    ana.shot(screenshot_dir, "live-log-filter-kept")
    asked: list[str] = []
    ana.page.on("request", lambda request: asked.append(request.url))
    ana.page.wait_for_timeout(STALL + 1_000)
    assert asked == [], asked
    assert not ana.console and not ben.console, ana.console + ben.console


def test_a_match_that_ends_on_the_page_stops_saying_how_it_listens_and_still_hears(phones, screenshot_dir):
    """An Evons match ended by two passes on the owner's phone: the status line goes (it said "checking for
    changes every 2 seconds"), as on a finished match's page, and the page asks nothing. It still holds its
    stream: a watcher's page left on the result shows the owner reopening the match at once, and says so."""
    ana, cleo = phones("ana"), phones("cleo")
    ana.page.goto("/matches/new/evons/")
    ana.page.get_by_label("Player 1", exact=True).fill("Ana")
    ana.page.get_by_label("Player 2", exact=True).fill("Ben")
    ana.page.get_by_role("button", name="Start").click()
    expect(ana.page.locator("#live .live-status")).to_have_text(LIVE)
    for step in (1, 2):
        ana.page.get_by_role("button", name="Pass (play no card this turn)").click()
        expect(ana.page.locator("#outcome")).to_contain_text(f"(log entry {step})")
    expect(ana.page.locator("#match[data-finished]")).to_have_count(1)
    asked: list[str] = []
    cleo.page.on("request", lambda request: asked.append(request.url))
    cleo.page.goto(make_link(ana.page, "+ Watch link", "Watch"))
    cleo.page.get_by_role("button", name="Watch on this phone").click()
    expect(cleo.page.locator("#match[data-finished]")).to_have_count(1)
    ana.page.goto(ana.page.url)
    ana.page.wait_for_timeout(POLL_PERIOD + 1_000)
    expect(ana.page.locator("#live")).to_be_hidden()
    expect(cleo.page.locator("#live")).to_be_hidden()
    # No poll: the stream, opened with the page, is all a finished match's page holds.
    assert [url for url in asked if "/poll" in url] == [], asked
    assert any("/events" in url for url in asked), asked
    ana.page.get_by_role("button", name="Undo last step").click()
    ana.page.get_by_role("button", name="Yes, reopen it at step 1").click()
    expect(cleo.page.locator("#match:not([data-finished])")).to_have_count(1, timeout=AT_ONCE)
    expect(cleo.page.locator("#outcome")).to_contain_text("went back from step 2 to step 1. The match is open again.")
    cleo.shot(screenshot_dir, "live-reopened-on-a-watcher")
    assert not ana.console and not cleo.console, ana.console + cleo.console


def test_the_pushed_part_leaves_a_half_typed_form_as_it_is(phones, screenshot_dir):
    """Ben is typing the unit he will play on his own phone when Ana rolls a D6 on hers, twice. Each change comes
    with Ben's part drawn for him (the first after his page opened draws every part: his phone keeps those it
    shows as drawn; the next leaves them out), so his phone fetches nothing, and his fold stays open with what
    he typed; he then plays the unit."""
    ana, ben = phones("ana"), phones("ben")
    ana.page.goto("/matches/new/lonely-star/")
    ana.page.get_by_label("Player 1", exact=True).fill(P1)
    ana.page.get_by_label("Player 2", exact=True).fill(P2)
    ana.page.get_by_role("button", name="Start").click()
    match_id = int(re.search(r"/matches/(\d+)/$", ana.page.url).group(1))
    ben.page.goto(make_link(ana.page, f"+ Join link for {P2}", f"Join as {P2}"))
    ben.page.get_by_role("button", name=f"Play as {P2} on this phone").click()
    expect(ben.page.locator("#live .live-status")).to_have_text(LIVE)
    ana.page.goto(f"/matches/{match_id}/")
    fetched: list[str] = []
    ben.page.on("request", lambda request: f"/matches/{match_id}/" in request.url and "/events" not in request.url
                and fetched.append(request.url))
    ben.mark()
    side = ben.page.locator("#side-1-section")
    side.get_by_text(f"{P2} plays a unit").click()
    side.get_by_label("Unit card (from the catalog, or a new name)").fill("Nebula Ward")
    for roll in (1, 2):
        ana.page.get_by_text("Plain D6").click()  # closed again by the answer to a roll: the form sent is drawn anew
        form_with_button(ana.page, "Roll the D6").get_by_role("button", name="Roll the D6").click()
        expect(ben.page.locator(".ls-last")).to_contain_text(f"Step {roll}:", timeout=5_000)  # the lock-in test times it
        expect(side.locator("details.ls-more")).to_have_attribute("open", "")
        expect(side.get_by_label("Unit card (from the catalog, or a new name)")).to_have_value("Nebula Ward")
    assert fetched == [] and ben.was_not_reloaded(), fetched
    ben.shot(screenshot_dir, "live-pushed-half-typed-kept")
    side.get_by_label("Unit card (from the catalog, or a new name)").fill("Nebula Warden")
    side.get_by_role("button", name="Play the unit (takes a card from the hand)").click()
    expect(side.locator(".ls-unit h3")).to_have_text(["Nebula Warden"])
    assert not ana.console and not ben.console, ana.console + ben.console


def test_a_showdown_tap_keeps_its_own_box_while_the_ais_moves_are_heard(phones):
    """The AI answers in the player's own request, step by step: the stream hears each of those steps, some after
    the answer that already shows them. The box keeps the player's move and the AI's reply (it was replaced by
    the news of an AI move the page already showed)."""
    page = phones("ana").page
    page.goto("/matches/new/cardmaster/")
    page.get_by_label("Player 1", exact=True).fill("Ana")
    page.get_by_label("Player 2", exact=True).fill("Bot")
    page.get_by_label("Showdown against the AI, easy").check()
    page.get_by_role("button", name="Start").click()
    page.get_by_role("link", name="Lock in Ana's lineup here").click()
    for position, name in enumerate(card["name"] for card in cm_demo.CARDS[:9]):
        page.get_by_label(f"Active {position + 1}" if position < 3 else f"Reserve {position - 2}", exact=True).fill(name)
    page.get_by_role("button", name="Lock in my lineup").click()
    expect(page.locator(".cm-turn")).to_contain_text("Ana has possession")
    replies = 0
    for _tap in range(12):
        if page.locator(".cm-result").count():
            break
        moves = page.locator("details.cm-movebox[open]").first
        attack = moves.get_by_role("button", name=re.compile(r"^A1\b"))
        (attack if attack.count() else moves.locator("button.cm-move:enabled").first).click()
        expect(page.locator("#outcome")).to_contain_text("(log entry")
        page.wait_for_timeout(1_000)  # every event of the request heard
        box = page.locator("#outcome").inner_text()
        assert "(log entry" in box and "↻" not in box, box
        replies += "replied with" in box
    assert replies, "the AI never answered within the taps"
