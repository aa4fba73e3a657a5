"""Two phones, one match: a Card Crush lock-in with a phone per player, and a friend watching.

Three browser contexts are three phones (separate cookies, so separate devices):
- Ana's phone starts the battle from the home page and makes the links; she locks in
  through the pass screen, as in hot-seat.
- Ben's phone joins by the link and locks in his own deck with no passing.
- Cleo's phone watches through the watch link.

Every change must appear on the other phones by itself (live updates), and Ben's deck
must never be in the HTML of Ana's or Cleo's page before the reveal.

A LOGOS round the same way, with four phones: a host phone on the table sets up the duel
and makes the links, Ana's and Ben's own phones each take a seat and commit in secret
with no passing, and Cleo's phone watches. Nobody but Ana's phone may see her card before
both have committed, neither in a page nor in a live update.
"""

import re

import pytest
from playwright.sync_api import BrowserContext, ConsoleMessage, Page, expect
from playwright.sync_api import Error as PlaywrightError

from tracker.models import Access, Match

from .phone import assert_nowhere_in, fill_card

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

P1, P2 = "Ana", "Ben"
DECK_1 = ["Ember Fox", "Phoenix", "Mountain Titan", "Void Lord", "Gale Sprite"]
DECK_2 = ["Tide Runner", "Flame Knight", "Stone Golem", "Shade Rat", "Sky Lancer"]
ROUND_1 = "Water over Fire +3: 6 + 3 = 9 beats 7 + 0 = 7."
BY_ITSELF = 10_000  # ms: polling is every 2 s; generous for a loaded test machine
PERIOD = 2_000  # ms: table.js's poll
SEEN = 500  # ms: how soon a request the page made is seen here


class Phone:
    """A browser context with one page, and everything its console said.

    The page's clock is Playwright's (`clock`, the default): it runs as the real one does, and `next_poll` moves
    it on to table.js's next poll at once."""

    def __init__(self, context: BrowserContext, name: str, clock: bool = True):
        self.name = name
        self.page = context.new_page()
        if clock:
            self.page.clock.install()
        self.console: list[str] = []
        self.page.on("console", self._heard)
        self.page.on("pageerror", lambda error: self.console.append(f"pageerror: {error}"))
        self.loads: list[str] = []  # every document this page loaded, to tell what a reload came from
        self.page.on("framenavigated", lambda frame: frame == self.page.main_frame and self.loads.append(frame.url))

    def _heard(self, message: ConsoleMessage) -> None:
        if message.type in ("error", "warning"):
            source = message.location or {}
            origin = f"{source.get('url')}:{source.get('lineNumber')}"
            self.console.append(f"{message.type} on {self.page.url} (from {origin}): {message.text}")

    def next_poll(self) -> None:
        """Run the page's clock on to its next poll (due within PERIOD) now: what another phone did shows as soon
        as the poll brings it rather than up to 2 s later, still fetched by the page itself. Should the poll be
        skipped (a fetch of the page's own under way), the next one comes in its time."""
        self.page.clock.fast_forward(PERIOD)

    def mark(self) -> None:
        """Tag the loaded document: if the tag survives, the page was updated without a reload."""
        self.page.evaluate("window.__notReloaded = true")

    def was_not_reloaded(self) -> bool:
        return self.page.evaluate("window.__notReloaded === true")

    def shot(self, screenshot_dir, what: str) -> None:
        # caret="initial": hiding the caret leaves style="" on every input, which htmx then copies onto the
        # swapped-in inputs with an id, and Chromium reports that as a CSP violation of the test's own making.
        self.page.screenshot(path=screenshot_dir / f"two-phones-{what}.png", full_page=True, caret="initial")


def start_match_from_home(page: Page) -> int:
    page.goto("/")
    page.get_by_role("link", name="New Card Crush match").click()
    page.get_by_label("Player 1", exact=True).fill(P1)
    page.get_by_label("Player 2", exact=True).fill(P2)
    page.get_by_role("button", name="Start").click()
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))
    return int(re.search(r"/matches/(\d+)/$", page.url).group(1))


def make_link(page: Page, button: str, heading: str) -> str:
    """Press a "+ ... link" button in the share panel; the new link's URL as shown to copy."""
    share = page.locator("details.share")
    if share.get_attribute("open") is None:
        page.get_by_text("Other phones: join or watch").click()
    page.get_by_role("button", name=button).click()
    expect(page.get_by_text("Link ready: show the QR code or send the link.")).to_be_visible()
    invite = page.locator(".invite").filter(has_text=heading)
    expect(invite.locator("svg.qr")).to_be_visible()
    return invite.locator("input.link-field").input_value()


def ben_seated(ana: Phone, ben: Phone, slug: str) -> int:
    """Ana starts a match of `slug`, Ana against Ben, on her phone; Ben's phone takes his seat by her join link and
    shows the match. The match's id."""
    ana.page.goto(f"/matches/new/{slug}/")
    ana.page.get_by_label("Player 1", exact=True).fill("Ana")
    ana.page.get_by_label("Player 2", exact=True).fill("Ben")
    ana.page.get_by_role("button", name="Start").click()
    match_id = int(re.search(r"/matches/(\d+)/$", ana.page.url).group(1))
    ben.page.goto(make_link(ana.page, "+ Join link for Ben", "Join as Ben"))
    ben.page.get_by_role("button", name="Play as Ben on this phone").click()
    expect(ben.page).to_have_url(re.compile(rf"/matches/{match_id}/$"))
    return match_id


def fill_deck(page: Page, cards: list[str]) -> None:
    for number, card in enumerate(cards, start=1):
        page.get_by_label(f"Round {number} card", exact=True).fill(card)


def csp_violations(*phones: Phone) -> list[str]:
    return [f"{phone.name}: {line}" for phone in phones for line in phone.console
            if "Content Security Policy" in line or "Content-Security-Policy" in line]


def test_two_phones_lock_in_with_no_passing_and_a_third_watches(make_context, catalog, screenshot_dir):
    ana, ben, cleo = (Phone(make_context(), name) for name in ("ana", "ben", "cleo"))

    # Ana's phone starts the battle and makes a join link for Ben and a watch link.
    match_id = start_match_from_home(ana.page)
    expect(ana.page.get_by_text("Other phones: join or watch")).to_be_visible()
    join_link = make_link(ana.page, f"+ Join link for {P2}", f"Join as {P2}")
    watch_link = make_link(ana.page, "+ Watch link", "Watch")
    assert re.search(r"/join/[\w-]+/$", join_link) and join_link != watch_link
    expect(ana.page.locator("svg.qr")).to_have_count(2)
    ana.shot(screenshot_dir, "owner-links")

    # Ben opens the link on his phone and takes his seat.
    ben.page.goto(join_link)
    expect(ben.page.get_by_role("heading", level=1)).to_have_text(f"Join Card Crush #{match_id}")
    ben.page.get_by_role("button", name=f"Play as {P2} on this phone").click()
    expect(ben.page).to_have_url(re.compile(rf"/matches/{match_id}/$"))
    expect(ben.page.get_by_text(f"You play as {P2} on this phone.").first).to_be_visible()
    expect(ben.page.locator("svg.qr")).to_have_count(0)
    ben.shot(screenshot_dir, "player-joined")

    # Cleo watches.
    cleo.page.goto(watch_link)
    cleo.page.get_by_role("button", name="Watch on this phone").click()
    expect(cleo.page).to_have_url(re.compile(rf"/matches/{match_id}/$"))
    expect(cleo.page.get_by_text("You are watching; this page follows the match by itself.")).to_be_visible()
    assert list(Access.objects.filter(match_id=match_id).order_by("pk").values_list("role", "seat")) == [
        ("player", 1), ("spectator", None)]

    # Ana's page learns by itself that Ben's phone holds his seat: no passing to Ben any more.
    ana.page.goto(f"/matches/{match_id}/")
    ana.mark()
    cleo.mark()
    expect(ana.page.get_by_text(f"{P2} locks in on their own phone.")).to_be_visible(timeout=BY_ITSELF)
    expect(ana.page.get_by_role("link", name=f"Pass the phone to {P2}")).to_have_count(0)

    # Ben locks in his own deck on his phone, straight from the match page.
    expect(ben.page.get_by_role("link", name=f"Pass the phone to {P1}")).to_have_count(0)
    ben.page.get_by_role("link", name="Lock in your deck").click()
    expect(ben.page.get_by_role("heading", level=1)).to_have_text(f"{P2}: lock in your deck")
    fill_deck(ben.page, DECK_2)
    ben.page.get_by_role("button", name="Lock in my deck").click()
    expect(ben.page).to_have_url(re.compile(rf"/matches/{match_id}/$"))
    expect(ben.page.get_by_text(f"{P2} is locked in. The entry is hidden.")).to_be_visible()
    ben.page.get_by_text("Your deck (only this phone sees it)").click()
    expect(ben.page.locator(".lockin details ol li")).to_have_text(DECK_2)
    ben.shot(screenshot_dir, "player-locked")

    # Ana's and Cleo's pages show it by themselves, and never Ben's cards.
    for phone in (ana, cleo):
        phone.next_poll()
        expect(phone.page.locator(".lockin li").nth(1)).to_contain_text(f"{P2} is locked in", timeout=BY_ITSELF)
        assert phone.was_not_reloaded(), f"{phone.name}'s page reloaded instead of updating its match part: {phone.loads} {phone.console}"
        assert_nowhere_in(phone.page, DECK_2, phone.name)
    ana.shot(screenshot_dir, "owner-sees-lock")
    cleo.shot(screenshot_dir, "spectator-sees-lock")

    # Ana locks in on her phone: with Ben on his own, her seat is the host's own, so no pass screen.
    expect(ana.page.get_by_role("link", name=re.compile("Pass the phone"))).to_have_count(0)
    ana.page.get_by_role("link", name=f"Lock in {P1}'s deck here").click()
    expect(ana.page.get_by_role("heading", level=1)).to_have_text(f"{P1}: lock in your deck")
    for number in range(1, 6):  # (the catalog's datalist lists every card, so look at the fields)
        expect(ana.page.get_by_label(f"Round {number} card", exact=True)).to_have_value("")
    fill_deck(ana.page, DECK_1)
    ana.page.get_by_role("button", name="Lock in my deck").click()
    expect(ana.page.get_by_text(f"{P1} is locked in.")).to_be_visible()
    ana.mark()

    # Ben's page offers the reveal by itself; he reveals round 1.
    reveal = ben.page.get_by_role("button", name="Reveal round 1")
    ben.next_poll()
    expect(reveal).to_be_visible(timeout=BY_ITSELF)
    reveal.click()
    expect(ben.page.locator("#round-1 .working")).to_have_text(ROUND_1)

    # Ana's and Cleo's pages show the working by themselves.
    for phone in (ana, cleo):
        phone.next_poll()
        expect(phone.page.locator("#round-1 .working")).to_have_text(ROUND_1, timeout=BY_ITSELF)
        assert phone.was_not_reloaded(), f"{phone.name}'s page reloaded instead of updating its match part: {phone.loads} {phone.console}"
        # Rounds 2-5 are still face down for everyone.
        assert_nowhere_in(phone.page, DECK_2[1:], phone.name)
    ana.shot(screenshot_dir, "owner-sees-round-1")
    cleo.shot(screenshot_dir, "spectator-sees-round-1")
    ben.shot(screenshot_dir, "player-revealed-round-1")

    # Cleo's page has nothing to press that would change the match.
    match_part = cleo.page.locator("#match")
    expect(match_part.get_by_role("button")).to_have_count(0)
    expect(match_part.locator("form")).to_have_count(0)
    expect(cleo.page.get_by_role("button", name="Reveal round 2")).to_have_count(0)
    expect(ana.page.get_by_role("button", name="Reveal round 2")).to_be_visible()

    match = Match.objects.get(pk=match_id)
    assert match.head == 3 and len(match.state["rounds"]) == 1

    violations = csp_violations(ana, ben, cleo)
    assert not violations, "\n".join(violations)
    errors = [f"{phone.name}: {line}" for phone in (ana, ben, cleo) for line in phone.console]
    assert not errors, "\n".join(errors)


def test_an_outsider_phone_sees_nothing_of_the_match(make_context, catalog, screenshot_dir):
    ana = Phone(make_context(), "ana")
    match_id = start_match_from_home(ana.page)
    stranger = Phone(make_context(), "stranger")
    response = stranger.page.goto(f"/matches/{match_id}/")
    assert response.status == 404
    expect(stranger.page.get_by_role("heading", level=1)).to_have_text("Not found")
    assert_nowhere_in(stranger.page, [P1, P2], "stranger")
    stranger.page.goto("/matches/")
    expect(stranger.page.locator(f'a[href="/matches/{match_id}/"]')).to_have_count(0)
    stranger.shot(screenshot_dir, "outsider-404")


def is_poll(request) -> bool:
    return "/poll" in request.url


def idles(phone: Phone, ticks: int = 5) -> None:
    """Let `ticks` of table.js's poll period go by on the phone's clock (installed before its page loaded),
    firing every timer due, and give a request any of them made the time to be seen here."""
    phone.page.clock.run_for(ticks * PERIOD)
    phone.page.wait_for_timeout(SEEN)


def test_live_updates_stop_polling_while_the_page_is_hidden(make_context, catalog):
    """table.js asks nothing while the page is hidden, and asks again as soon as it is shown."""
    ana = Phone(make_context(), "ana")
    match_id = start_match_from_home(ana.page)
    polls = count_polls(ana)
    with ana.page.expect_request(is_poll):
        ana.page.clock.run_for(PERIOD)
    assert len(polls) >= 1, "the match page never polled"
    ana.page.evaluate("""() => {
        Object.defineProperty(document, 'visibilityState', {value: 'hidden', configurable: true});
        document.dispatchEvent(new Event('visibilitychange'));
    }""")
    hidden_from = len(polls)
    idles(ana)
    assert len(polls) == hidden_from, "polled while hidden"
    with ana.page.expect_request(is_poll, timeout=SEEN):  # at once, not at the next tick
        ana.page.evaluate("""() => {
            Object.defineProperty(document, 'visibilityState', {value: 'visible', configurable: true});
            document.dispatchEvent(new Event('visibilitychange'));
        }""")
    assert len(polls) > hidden_from, "did not poll again once shown"
    assert all(f"/matches/{match_id}/poll?v=" in url for url in polls)


def count_polls(phone: Phone) -> list[str]:
    polls: list[str] = []
    phone.page.on("request", lambda request: polls.append(request.url) if is_poll(request) else None)
    return polls


def test_a_finished_match_page_does_not_poll(make_context, catalog):
    from tracker.games.card_crush.demo import play_battle

    match = play_battle((P1, P2), "battle-score", [DECK_1, DECK_2])
    watcher = Phone(make_context(), "watcher")
    polls = count_polls(watcher)
    watcher.page.goto(f"/matches/{match.pk}/")
    expect(watcher.page.locator("#match[data-finished]")).to_have_count(1)
    idles(watcher)
    assert polls == []


def test_the_last_reveal_stops_the_other_phones_polling(make_context, catalog):
    """Another phone plays the deciding round; Ana's page shows the winner by itself, then stops asking."""
    from tracker.matches import services
    from tracker.models import Card

    match = services.match_create(slug="card-crush", player_names=[P1, P2], config={})
    for seat, names in enumerate((DECK_1, DECK_2)):
        cards = [Card.objects.get(slug="card-crush", name=name).as_rules_card() for name in names]
        services.match_apply_action(match_id=match.pk, expected_seq=seat,
                                    action={"type": "lock_deck", "seat": seat, "cards": cards})
    for seq in (2, 3, 4):  # rounds 1-3: Ana leads 2-1
        services.match_apply_action(match_id=match.pk, expected_seq=seq, action={"type": "play_round"})
    ana = Phone(make_context(), "ana")
    ana.page.goto(f"/matches/{match.pk}/")
    ana.mark()
    services.match_apply_action(match_id=match.pk, expected_seq=5, action={"type": "play_round"})  # round 4 decides
    ana.next_poll()
    expect(ana.page.get_by_text(f"{P1} wins the battle 3 rounds to 1")).to_be_visible(timeout=BY_ITSELF)
    assert ana.was_not_reloaded()
    polls = count_polls(ana)
    idles(ana)
    assert polls == [], "still polling a finished match"


def test_a_revoked_watchers_page_stops_showing_the_match(make_context, catalog, screenshot_dir):
    ana, cleo = Phone(make_context(), "ana"), Phone(make_context(), "cleo")
    match_id = start_match_from_home(ana.page)
    watch_link = make_link(ana.page, "+ Watch link", "Watch")
    cleo.page.goto(watch_link)
    cleo.page.get_by_role("button", name="Watch on this phone").click()
    expect(cleo.page).to_have_url(re.compile(rf"/matches/{match_id}/$"))
    ana.page.get_by_role("button", name="✗ Revoke this link").click()
    expect(ana.page.get_by_text("Link revoked; phones that joined with it lost their access.")).to_be_visible()
    try:
        cleo.next_poll()
        expect(cleo.page.get_by_text(f"{P1} vs {P2}")).to_have_count(0, timeout=BY_ITSELF)
    finally:
        cleo.shot(screenshot_dir, "revoked-watcher")


# ---------------------------------------------------------------- a LOGOS round, a phone per player

ANA_CARD, ANA_BACKUP = "Granite Fist", "Seraph"  # MATTER 35,000 / 10,000; Life with SPEED 150 to the backup slot
BEN_CARD = "Solar Flare"  # ENERGY 30,000 / 15,000, Maximize on itself: 30,000 / 30,000
LOGOS_ROUND_1 = "Ana attacks: ATTACK 35,000 − DEFENSE 30,000 = 5,000 damage; Ben 100,000 → 95,000 HP."


def start_duel_from_home(page: Page) -> int:
    page.goto("/")
    page.get_by_role("link", name="New LOGOS match").click()
    page.get_by_label("Player 1", exact=True).fill(P1)
    page.get_by_label("Player 2", exact=True).fill(P2)
    page.get_by_role("button", name="Start").click()
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))
    return int(re.search(r"/matches/(\d+)/$", page.url).group(1))


def take_seat(phone: Phone, link: str, name: str, match_id: int) -> None:
    phone.page.goto(link)
    phone.page.get_by_role("button", name=f"Play as {name} on this phone").click()
    expect(phone.page).to_have_url(re.compile(rf"/matches/{match_id}/$"))
    expect(phone.page.get_by_text(f"You play as {name} on this phone.").first).to_be_visible()


def record_match_responses(phone: Phone, match_id: int) -> list[str]:
    """The body of every answer the phone gets about the match from now on: polls and the parts
    live updates swap in.

    Bodies are read as they pass (route.fetch), not afterwards: Chromium drops a response's body
    once the page has moved on, and a body that cannot be read cannot be checked for secrets.
    Redirects are passed on as they are, for the browser to follow (and be recorded) itself.
    """
    bodies: list[str] = []

    def capture(route) -> None:
        try:
            response = route.fetch(max_redirects=0)
            bodies.append(response.text())
            route.fulfill(response=response)
        except PlaywrightError:
            if not phone.page.is_closed():
                raise  # only a page closing at the end of the test may drop an answer unread

    phone.page.route(re.compile(rf"/matches/{match_id}/"), capture)
    return bodies


def commit_on_own_phone(page: Page, name: str, card: str, backup: str = "") -> None:
    """From the match page straight to the player's own entry: no pass screen on a seated phone."""
    page.get_by_role("link", name="Commit your card").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"{name}: commit your card for round 1")
    fill_card(page.get_by_label("Card to play"), card)
    if backup:
        fill_card(page.get_by_label(re.compile("Card to send to the backup slot")), backup)
    page.get_by_role("button", name="Commit this card").click()
    expect(page.get_by_text(f"{name} is locked in.")).to_be_visible()


def test_two_phones_play_a_logos_round_with_no_passing_and_a_third_watches(
        make_context, catalog, screenshot_dir):
    host, ana, ben, cleo = (Phone(make_context(), name) for name in ("host", "ana", "ben", "cleo"))

    # The host phone starts the duel and makes a join link per player and a watch link.
    match_id = start_duel_from_home(host.page)
    ana_link = make_link(host.page, f"+ Join link for {P1}", f"Join as {P1}")
    ben_link = make_link(host.page, f"+ Join link for {P2}", f"Join as {P2}")
    watch_link = make_link(host.page, "+ Watch link", "Watch")
    take_seat(ana, ana_link, P1, match_id)
    take_seat(ben, ben_link, P2, match_id)
    cleo.page.goto(watch_link)
    cleo.page.get_by_role("button", name="Watch on this phone").click()
    expect(cleo.page.get_by_text("You are watching; this page follows the match by itself.")).to_be_visible()
    # A set: SQLite sorts NULL seats first and PostgreSQL last.
    assert set(Access.objects.filter(match_id=match_id).values_list("role", "seat")) == {
        ("spectator", None), ("player", 0), ("player", 1)}

    # Each seated phone is offered its own entry and told the other player has a phone of their own;
    # the host is told both do, and nobody is asked to pass a phone.
    host.page.goto(f"/matches/{match_id}/")
    for phone, other in ((ana, P2), (ben, P1)):
        phone.next_poll()
        expect(phone.page.get_by_role("link", name="Commit your card")).to_have_count(1, timeout=BY_ITSELF)
        told = phone.page.get_by_text(f"{other} commits on their own phone.")
        expect(told).to_be_visible(timeout=BY_ITSELF)
    expect(host.page.get_by_text(f"{P1} commits on their own phone.")).to_be_visible()
    expect(host.page.get_by_text(f"{P2} commits on their own phone.")).to_be_visible()
    for phone in (host, ana, ben, cleo):
        expect(phone.page.get_by_role("link", name=re.compile("Pass the phone"))).to_have_count(0)
    expect(cleo.page.get_by_role("link", name="Commit your card")).to_have_count(0)
    for phone in (host, ben, cleo):
        phone.mark()
    heard = {phone.name: record_match_responses(phone, match_id) for phone in (host, ben, cleo)}

    # Ana commits her card and a backup card on her own phone; only her phone shows them.
    commit_on_own_phone(ana.page, P1, ANA_CARD, ANA_BACKUP)
    ana.page.get_by_text("Your commit (only this phone sees it)").click()
    own_commit = ana.page.locator(".logos-commit details li")
    expect(own_commit).to_have_text([ANA_CARD, f"Backup slot: {ANA_BACKUP}"])
    expect(ana.page.get_by_text(f"{P2} commits on their own phone.")).to_be_visible()
    ana.shot(screenshot_dir, "logos-ana-committed")

    # The other phones learn by themselves that she has committed, and nothing of what.
    for phone in (host, ben, cleo):
        phone.next_poll()
        expect(phone.page.locator(".logos-commit")).to_contain_text(f"{P1} has committed", timeout=BY_ITSELF)
        assert phone.was_not_reloaded(), f"{phone.name}'s page reloaded instead of updating its match part: {phone.loads} {phone.console}"
        assert_nowhere_in(phone.page, [ANA_CARD, ANA_BACKUP], phone.name)
        bodies = heard[phone.name]
        assert any(f"{P1} has committed" in body for body in bodies), f"{phone.name} got no live update"
        for body in bodies:
            assert ANA_CARD not in body and ANA_BACKUP not in body, f"Ana's commit reached {phone.name} live"
    expect(ben.page.get_by_role("link", name="Commit your card")).to_be_visible()
    ben.shot(screenshot_dir, "logos-ben-sees-ana-committed")
    cleo.shot(screenshot_dir, "logos-spectator-sees-ana-committed")
    # The host phone plays no side now: its Undo says before a tap that one of the players asks (consent.asking_seat).
    expect(host.page.get_by_role("button", name="Undo last step")).to_be_disabled()
    expect(host.page.locator("#undo-why")).to_contain_text("Both seats are on phones of their own")
    host.shot(screenshot_dir, "logos-host-no-side-to-undo")
    ana.mark()

    # Ben commits on his phone: both cards are on the table, on every phone, by itself.
    commit_on_own_phone(ben.page, P2, BEN_CARD)
    ben.mark()
    for phone in (ana, host, cleo):
        phone.next_poll()
        battle = phone.page.locator("#battle")
        expect(battle.get_by_role("heading", name="Round 1: battle")).to_be_visible(timeout=BY_ITSELF)
        expect(phone.page.locator("#card-0 .cc-name")).to_have_text(ANA_CARD)
        expect(phone.page.locator("#card-1 .cc-name")).to_have_text(BEN_CARD)
        expect(phone.page.locator("#direction")).to_have_text(f"{P1} attacks, {P2} defends.")
        revealed = f"Round 1 revealed: {P1} plays {ANA_CARD}"
        expect(battle.locator(".logos-working li").first).to_contain_text(revealed)
        assert phone.was_not_reloaded(), f"{phone.name}'s page reloaded instead of updating its match part: {phone.loads} {phone.console}"
    expect(ana.page.get_by_text("Your commit (only this phone sees it)")).to_have_count(0)

    # Each player's phone offers only that player's buttons (and the table's Fight); the watcher's, none.
    expect(ana.page.get_by_role("button", name=f"{P1} calls the backup card")).to_be_visible()
    expect(ben.page.get_by_role("button", name=f"{P1} calls the backup card")).to_have_count(0)
    # (the resign buttons sit in a closed fold: count them hidden too)
    expect(ben.page.get_by_role("button", name=f"{P1} resigns", include_hidden=True)).to_have_count(0)
    expect(ben.page.get_by_role("button", name=f"{P2} resigns", include_hidden=True)).to_have_count(1)
    expect(cleo.page.locator("#match").get_by_role("button", include_hidden=True)).to_have_count(0)
    expect(cleo.page.locator("#match form")).to_have_count(0)
    ana.shot(screenshot_dir, "logos-ana-battle")
    ben.shot(screenshot_dir, "logos-ben-battle")
    cleo.shot(screenshot_dir, "logos-spectator-battle")

    # Ben has seen Ana's card and would like his commit back: he asks, Ana refuses, nothing changes.
    ben.page.get_by_role("button", name="Undo last step").click()
    expect(ben.page.get_by_text(f"Asked {P1} to agree; nothing changes until they do.")).to_be_visible()
    request = ana.page.locator(".requests")
    ana.next_poll()
    expect(request).to_contain_text(f"{P2} asks: go back to step 1, taking back a revealed entry.",
                                    timeout=BY_ITSELF)
    ana.shot(screenshot_dir, "logos-ana-asked-to-undo-the-reveal")
    request.get_by_role("button", name="Refuse").click()
    expect(ana.page.get_by_text(f"{P1} refused; nothing was changed.")).to_be_visible()
    ben.next_poll()
    expect(ben.page.locator(".requests")).to_have_count(0, timeout=BY_ITSELF)
    expect(ben.page.locator("#card-1 .cc-name")).to_have_text(BEN_CARD)
    assert Match.objects.get(pk=match_id).head == 2
    log = ana.page.context.new_page()
    log.goto(f"/matches/{match_id}/log/")
    expect(log.get_by_text(f"{P2} asked: go back to step 1, taking back a revealed entry.")).to_be_visible()
    expect(log.get_by_text(f"{P1} refused")).to_be_visible()
    log.close()

    # The fight is the table's: Ana asks for it on her phone, Ben agrees on his; everyone sees the result.
    ana.page.get_by_role("button", name="Fight").click()
    expect(ana.page.get_by_text(f"Asked {P2} to agree; nothing changes until they do.")).to_be_visible()
    ben_request = ben.page.locator(".requests")
    ben.next_poll()
    expect(ben_request).to_contain_text(f"{P1} asks: Fight.", timeout=BY_ITSELF)
    ben_request.get_by_role("button", name="Agree").click()
    expect(ben.page.locator("#round-1")).to_contain_text(LOGOS_ROUND_1)
    for phone in (ana, host, cleo):
        phone.next_poll()
        expect(phone.page.locator("#round-1")).to_contain_text(LOGOS_ROUND_1, timeout=BY_ITSELF)
        expect(phone.page.locator("#seat-1 .logos-hp")).to_contain_text("95,000 HP")
        expect(phone.page.locator("#seat-0")).to_contain_text(f"Backup: {ANA_BACKUP}")
        expect(phone.page.get_by_role("heading", name="Round 2: commit your cards")).to_be_visible()
        assert phone.was_not_reloaded(), f"{phone.name}'s page reloaded instead of updating its match part: {phone.loads} {phone.console}"
    for phone in (ana, ben):
        expect(phone.page.get_by_role("link", name="Commit your card")).to_be_visible(timeout=BY_ITSELF)
    ben.shot(screenshot_dir, "logos-ben-round-1")

    match = Match.objects.get(pk=match_id)
    assert match.state["round"] == 2 and match.state["hp"] == [100_000, 95_000]
    violations = csp_violations(host, ana, ben, cleo)
    assert not violations, "\n".join(violations)
    errors = [f"{phone.name}: {line}" for phone in (host, ana, ben, cleo) for line in phone.console]
    assert not errors, "\n".join(errors)


def test_two_logos_phones_committing_at_once_the_second_confirms_and_nothing_leaks(make_context, catalog):
    """Both entries open at once: Ana's lands first, Ben's is sent back with his card kept, and goes in."""
    host, ana, ben = (Phone(make_context(), name) for name in ("host", "ana", "ben"))
    match_id = start_duel_from_home(host.page)
    take_seat(ana, make_link(host.page, f"+ Join link for {P1}", f"Join as {P1}"), P1, match_id)
    take_seat(ben, make_link(host.page, f"+ Join link for {P2}", f"Join as {P2}"), P2, match_id)
    ben.page.get_by_role("link", name="Commit your card").click()
    fill_card(ben.page.get_by_label("Card to play"), BEN_CARD)

    commit_on_own_phone(ana.page, P1, ANA_CARD, ANA_BACKUP)
    ben.page.get_by_role("button", name="Commit this card").click()
    moved_on = "The match moved on while you were entering; check your entry and send it again."
    expect(ben.page.get_by_text(moved_on)).to_be_visible()
    expect(ben.page.get_by_label("Card to play")).to_have_value(BEN_CARD)
    # (the catalog's datalist lists every card, so leave it out)
    entry = re.sub(r"<datalist.*?</datalist>", "", ben.page.content(), flags=re.S)
    assert ANA_CARD not in entry and ANA_BACKUP not in entry
    ben.page.get_by_role("button", name="Commit this card").click()
    expect(ben.page.locator("#card-0 .cc-name")).to_have_text(ANA_CARD)
    expect(ben.page.locator("#card-1 .cc-name")).to_have_text(BEN_CARD)
    ana.next_poll()
    expect(ana.page.locator("#card-1 .cc-name")).to_have_text(BEN_CARD, timeout=BY_ITSELF)
    assert Match.objects.get(pk=match_id).state["phase"] == "battle"
