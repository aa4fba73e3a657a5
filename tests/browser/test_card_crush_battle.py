"""A Card Crush battle played in a phone browser, the way two players at a table would.

Decks (demo catalog, tracker/demo.py), chosen so every round is predictable:

    round  Ana (Player 1)            Ben (Player 2)             winner
    1      Ember Fox   Fire 7/5      Tide Runner  Water 6/8     Ben: the rulebook example, Water over Fire +3
    2      Phoenix     Fire 9/8      Flame Knight Fire 8/5      Ana: same affinity, 9 beats 8
    3      Mountain Titan Earth 10/3 Stone Golem  Earth 8/2     Ana: 10 beats 8
    4      Void Lord   Shadow 10/5   Shade Rat    Shadow 3/10   Ana: 10 beats 3, Ana wins 3-1
    5      Gale Sprite Air 4/9       Sky Lancer   Air 7/6       not played: the battle was already decided
"""

import hashlib
import re

import pytest
from playwright.sync_api import Page, expect

from tracker.games.card_crush.demo import deck, play_battle
from tracker.matches import services
from tracker.models import Card, Match

from .phone import assert_no_horizontal_scroll, assert_nowhere_in, hand_to

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

P1, P2 = "Ana", "Ben"
DECK_1 = ["Ember Fox", "Phoenix", "Mountain Titan", "Void Lord", "Gale Sprite"]
DECK_2 = ["Tide Runner", "Flame Knight", "Stone Golem", "Shade Rat", "Sky Lancer"]
WORKING = {
    1: "Water over Fire +3: 6 + 3 = 9 beats 7 + 0 = 7.",
    2: "9 + 0 = 9 beats 8 + 0 = 8.",
    3: "10 + 0 = 10 beats 8 + 0 = 8.",
    4: "10 + 0 = 10 beats 3 + 0 = 3.",
}
ROUND_WINNER = {1: P2, 2: P1, 3: P1, 4: P1}


# --- steps a player takes ------------------------------------------------------------------------


def start_match_from_home(page: Page) -> int:
    """Home page -> "New Card Crush match" -> names, default option -> Start. Returns the match id."""
    page.goto("/")
    page.get_by_role("link", name="New Card Crush match").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("New Card Crush battle")
    page.get_by_label("Player 1", exact=True).fill(P1)
    page.get_by_label("Player 2", exact=True).fill(P2)
    # The default option is the rulebook's: keep it.
    expect(page.get_by_label("Battle Score: Power + Affinity Bonus (rulebook)")).to_be_checked()
    page.get_by_role("button", name="Start").click()
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile(r"^Card Crush #\d+$"))
    return int(re.search(r"/matches/(\d+)/$", page.url).group(1))


def open_entry(page: Page, name: str) -> None:
    """Hand the phone over (from the match page, or the pass screen a lock-in led to) and open the secret entry."""
    hand_to(page, name)
    page.get_by_role("link", name=f"I am {name}: show my entry").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"{name}: lock in your deck")


def fill_deck(page: Page, cards: list[str]) -> None:
    for number, card in enumerate(cards, start=1):
        page.get_by_label(f"Round {number} card", exact=True).fill(card)


def lock_in(page: Page, name: str, cards: list[str]) -> None:
    open_entry(page, name)
    fill_deck(page, cards)
    page.get_by_role("button", name="Lock in my deck").click()
    expect(page.get_by_text(f"{name} is locked in.")).to_be_visible()


def reveal(page: Page, number: int) -> None:
    page.get_by_role("button", name=f"Reveal round {number}").click()
    expect(round_item(page, number).locator(".working")).to_have_text(WORKING[number])


def lock_rows(page: Page):
    """One row per seat on the match page during lock-in: "Waiting for ..." or "... is locked in"."""
    return page.locator(".lockin li")


def field_error(page: Page, label: str):
    """The error message under one form field."""
    return page.locator(".field").filter(has=page.get_by_label(label, exact=True)).locator(".error")


def round_item(page: Page, number: int):
    return page.locator(f"#round-{number}")


# --- the tests -----------------------------------------------------------------------------------


def test_whole_battle_in_hot_seat_from_the_home_page(page: Page, catalog, screenshot_dir):
    match_id = start_match_from_home(page)
    fingerprint = page.locator(".match-head code").inner_text()
    expect(lock_rows(page)).to_contain_text([f"Waiting for {P1}", f"Waiting for {P2}"])
    # htmx must really be running, or the reveals below would silently fall back to full page posts.
    assert page.evaluate("typeof window.htmx") == "object"

    # Ana first types a deck with Phoenix twice: refused, nothing locked, her entry kept to correct.
    open_entry(page, P1)
    fill_deck(page, DECK_1[:4] + ["Phoenix"])
    page.get_by_role("button", name="Lock in my deck").click()
    expect(page.get_by_role("alert")).to_contain_text("Not locked")
    round_5 = page.get_by_label("Round 5 card", exact=True)
    expect(round_5).to_have_attribute("aria-invalid", "true")
    expect(field_error(page, "Round 5 card")).to_contain_text("Phoenix")
    expect(field_error(page, "Round 5 card")).to_contain_text("5 different cards")
    expect(page.get_by_label("Round 2 card", exact=True)).not_to_have_attribute("aria-invalid", "true")
    expect(page.get_by_role("heading", level=1)).to_have_text(f"{P1}: lock in your deck")
    for number, card in enumerate(DECK_1[:4], start=1):
        expect(page.get_by_label(f"Round {number} card", exact=True)).to_have_value(card)
    expect(round_5).to_have_value("Phoenix")
    match = Match.objects.get(pk=match_id)
    assert (match.head, match.state["decks"], match.actions.count()) == (0, [None, None], 0)

    round_5.fill(DECK_1[4])
    page.get_by_role("button", name="Lock in my deck").click()
    # The phone goes on to Ben's pass screen by itself, telling of Ana's lock; the board shows it too.
    expect(page).to_have_url(re.compile(rf"/matches/{match_id}/seat/1/pass/$"))
    expect(page.get_by_text(f"{P1} is locked in. The entry is hidden.")).to_be_visible()
    assert_nowhere_in(page, DECK_1)  # a locked deck, hidden inputs included
    page.get_by_role("link", name="Back to the match").click()
    expect(page).to_have_url(re.compile(rf"/matches/{match_id}/$"))
    expect(lock_rows(page)).to_contain_text([f"{P1} is locked in", f"Waiting for {P2}"])
    expect(lock_rows(page).first.get_by_role("link")).to_have_count(0)  # no way back into a locked entry
    expect(page.get_by_text("Step 1", exact=False)).to_be_visible()
    assert_nowhere_in(page, DECK_1)  # a locked deck, hidden inputs included

    lock_in(page, P2, DECK_2)
    expect(page.get_by_text("Step 2", exact=False)).to_be_visible()
    expect(page.get_by_text("Lock in your decks")).to_have_count(0)

    # Round 1, then take it back: the round is unrevealed again, nothing else changed.
    reveal(page, 1)
    round_1 = round_item(page, 1)
    expect(round_1.locator(".cc-card-won")).to_contain_text("Tide Runner")
    expect(round_1.locator(".cc-card-won")).to_contain_text(P2)
    page.get_by_role("button", name="Undo last step").click()
    expect(page.get_by_text("Went back to step 2.")).to_be_visible()
    expect(round_1.get_by_role("button", name="Reveal round 1")).to_be_visible()
    expect(round_1.locator(".working")).to_have_count(0)
    expect(page.locator(".score-value")).to_have_text(["0", "0"])

    for number in range(1, 5):
        reveal(page, number)
        expect(round_item(page, number).locator(".cc-card-won")).to_contain_text(ROUND_WINNER[number])

    banner = page.locator(".banner")
    expect(banner).to_have_text(f"★ {P1} wins the battle 3 rounds to 1")
    expect(page.locator(".score-value")).to_have_text(["3", "1"])
    expect(round_item(page, 5)).to_contain_text("Not played: the battle was already decided.")
    expect(page.get_by_role("button", name=re.compile("Reveal round"))).to_have_count(0)
    # Fairness: the seed is revealed at the end and matches the fingerprint shown at the start.
    expect(page.get_by_text("Seed revealed:")).to_be_visible()
    seed = page.locator(".match-head code").inner_text()
    assert seed == Match.objects.get(pk=match_id).seed
    assert hashlib.sha256(seed.encode()).hexdigest()[:12] == fingerprint
    page.screenshot(path=screenshot_dir / "card-crush-battle-finished.png", full_page=True)

    # Review: header "Matches" -> this match -> its log.
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Matches").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Matches")
    row = page.get_by_role("link", name=re.compile(rf"Card Crush #{match_id}: {P1} vs {P2}"))
    expect(row).to_contain_text(f"{P1} won 3 rounds to 1")
    row.click()
    expect(banner).to_have_text(f"★ {P1} wins the battle 3 rounds to 1")
    page.get_by_role("link", name="Log", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Log of Card Crush #{match_id}")

    entries = page.locator("li.log-entry")
    # Set-up, two lock-ins, the undone reveal and the four reveals that count.
    expect(entries).to_have_count(8)
    # Once the battle is over, the log shows the decks that were locked in.
    expect(entries.nth(1)).to_contain_text(f"{P1} locks in: {', '.join(DECK_1)}")
    expect(entries.nth(2)).to_contain_text(f"{P2} locks in: {', '.join(DECK_2)}")
    undone = entries.filter(has_text="undone, replaced by a new branch")
    expect(undone).to_have_count(1)
    expect(undone).to_contain_text("Round 1")
    expect(undone).to_contain_text(f"{P2} wins. {WORKING[1]}")
    expect(undone.get_by_role("button")).to_have_count(0)  # an abandoned branch cannot be gone to
    applied = page.locator("li.log-applied")
    for number, working in WORKING.items():
        played = applied.filter(has_text=f"{ROUND_WINNER[number]} wins. {working}")
        expect(played).to_have_count(1)
        expect(played).to_contain_text(f"Round {number}")
    expect(applied.last).to_contain_text(f"{P1} wins the battle 3 rounds to 1.")
    page.screenshot(path=screenshot_dir / "card-crush-battle-log.png", full_page=True)


def test_lock_in_and_reveal_work_without_javascript(make_context, catalog, screenshot_dir):
    page = make_context(java_script_enabled=False).new_page()
    htmx_requests = []
    page.on("request", lambda r: htmx_requests.append(r.url) if r.headers.get("hx-request") else None)

    match_id = start_match_from_home(page)
    lock_in(page, P1, DECK_1)
    page.get_by_role("link", name="Back to the match").click()  # from Ben's pass screen, where the lock led
    expect(lock_rows(page)).to_contain_text([f"{P1} is locked in", f"Waiting for {P2}"])
    assert_nowhere_in(page, DECK_1)  # a locked deck, hidden inputs included
    lock_in(page, P2, DECK_2)

    page.get_by_role("button", name="Reveal round 1").click()
    expect(page).to_have_url(re.compile(rf"/matches/{match_id}/$"))
    expect(round_item(page, 1).locator(".working")).to_have_text(WORKING[1])
    expect(page.locator(".score-value")).to_have_text(["0", "1"])
    expect(round_item(page, 2).get_by_role("button", name="Reveal round 2")).to_be_visible()
    expect(page.get_by_text("Step 3", exact=False)).to_be_visible()
    page.screenshot(path=screenshot_dir / "card-crush-no-js-round-1.png", full_page=True)

    assert htmx_requests == []
    assert Match.objects.get(pk=match_id).head == 3


def test_finished_match_in_dark_mode(make_context, catalog, screenshot_dir):
    finished = play_battle((P1, P2), "battle-score", [DECK_1, DECK_2])
    page = make_context(color_scheme="dark").new_page()

    page.goto(finished.get_absolute_url())
    expect(page.locator(".banner")).to_have_text(f"★ {P1} wins the battle 3 rounds to 1")
    assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
    # The dark palette is applied (--bg: #141418), not just requested.
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(20, 20, 24)"
    assert_no_horizontal_scroll(page)
    page.screenshot(path=screenshot_dir / "card-crush-finished-dark.png", full_page=True)


@pytest.mark.parametrize(
    "page_name",
    ["home", "match", "log", "entry", "cards"],
)
def test_no_sideways_scroll_at_phone_width(page: Page, catalog, screenshot_dir, page_name):
    finished = play_battle((P1, P2), "battle-score", [DECK_1, DECK_2])
    waiting = services.match_create(slug="card-crush", player_names=["Chloé", "Dev"], config={})
    url = {
        "home": "/",
        "match": finished.get_absolute_url(),
        "log": f"/matches/{finished.pk}/log/",
        "entry": f"/matches/{waiting.pk}/seat/0/entry/",
        "cards": "/cards/card-crush/",
    }[page_name]

    response = page.goto(url)
    assert response.ok, f"{url} answered {response.status}"
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    page.screenshot(path=screenshot_dir / f"phone-width-{page_name}.png", full_page=True)
    assert_no_horizontal_scroll(page)


def test_catalog_search_narrows_as_you_type(page: Page, catalog):
    page.goto("/cards/card-crush/")
    rows = page.locator("#results tbody tr")
    expect(rows).to_have_count(Card.objects.filter(slug="card-crush").count())
    # A full page load would lose this marker; an htmx swap keeps it.
    page.evaluate("window.sameDocument = true")

    with page.expect_response(lambda r: "q=fox" in r.url and r.request.headers.get("hx-request") == "true"):
        page.get_by_label("Search by name").press_sequentially("fox", delay=50)

    expect(rows).to_have_count(1)
    expect(rows.first.get_by_role("rowheader")).to_have_text("Ember Fox")
    expect(rows.first).to_contain_text("Fire")
    assert page.evaluate("window.sameDocument") is True
    assert page.url.endswith("/cards/card-crush/")


def test_a_tap_leaves_what_it_does_not_change_as_the_phone_shows_it(page: Page, catalog):
    """The htmx answer to a reveal leaves out the title and the share panel (htmx keeps them); the board,
    the step and the seed line come fresh."""
    match_id = start_match_from_home(page)
    for seat, cards in enumerate((DECK_1, DECK_2)):
        services.match_apply_action(match_id=match_id, expected_seq=seat,
                                    action={"type": "lock_deck", "seat": seat, "cards": deck(cards)})
    page.reload()
    share = page.locator("details#share")
    share.locator("summary").click()
    expect(share).to_have_attribute("open", "")
    page.evaluate("window.sameDocument = true")
    with page.expect_response(lambda r: r.request.method == "POST") as answer:
        reveal(page, 1)
    assert "hx-preserve" in answer.value.text(), "the answer left the unchanged parts out"
    for number in range(2, 5):
        reveal(page, number)
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Card Crush #{match_id}")
    expect(page.locator(".match-head .players")).to_have_text(re.compile(rf"{P1}\s+vs\s+{P2}"))
    expect(share).to_have_attribute("open", "")  # kept as the player left it, not redrawn closed
    expect(page.get_by_text("Step 6", exact=False)).to_be_visible()
    expect(page.get_by_text("Seed revealed:")).to_be_visible()
    expect(page.locator(".banner")).to_have_text(f"★ {P1} wins the battle 3 rounds to 1")
    assert page.evaluate("window.sameDocument") is True
    assert page.evaluate("document.querySelectorAll('[hx-preserve]').length") == 0


def test_both_decks_taken_from_last_time_make_a_whole_battle_in_at_most_20_taps(page: Page, catalog, screenshot_dir):
    """Issue 28: against 25-50 s on paper, a battle whose decks are the players' last ones costs two taps a deck
    more than handing the phone over (the cards from last time, in order, then the lock), and one a round."""
    play_battle((P1, P2), "battle-score", [DECK_1, DECK_2])  # last week's battle
    match = services.match_create(slug="card-crush", player_names=[P1, P2], config={})
    page.goto(match.get_absolute_url())
    taps = 0

    def tap(control) -> None:
        nonlocal taps
        control.click()
        taps += 1

    for name, cards in ((P1, DECK_1), (P2, DECK_2)):
        if name == P1:  # Ana's lock-in hands the phone to Ben by itself
            tap(page.get_by_role("link", name=f"Pass the phone to {name}"))
        tap(page.get_by_role("link", name=f"I am {name}: show my entry"))
        expect(page.locator(".last-entry")).to_contain_text(" · ".join(cards))
        tap(page.get_by_role("link", name=f"Take {name}'s cards from last time"))
        for number, card in enumerate(cards, start=1):  # in order, and still editable before the lock
            expect(page.get_by_label(f"Round {number} card", exact=True)).to_have_value(card)
            expect(page.get_by_label(f"Round {number} card", exact=True)).to_be_in_viewport()
        # The filled cards and the button that locks them in, on one screen (it was 70 px below it).
        expect(page.get_by_role("button", name="Lock in my deck")).to_be_in_viewport(ratio=1)
        if name == P1:
            assert_no_horizontal_scroll(page)
            page.screenshot(path=screenshot_dir / "card-crush-last-deck.png", caret="initial")
        tap(page.get_by_role("button", name="Lock in my deck"))
        expect(page.get_by_text(f"{name} is locked in.")).to_be_visible()
    for number in range(1, 6):
        reveal_button = page.get_by_role("button", name=f"Reveal round {number}")
        if not reveal_button.count():
            break
        tap(reveal_button)
        expect(round_item(page, number).locator(".working")).to_have_text(WORKING[number])
    expect(page.locator(".banner")).to_contain_text("Ana wins the battle 3 rounds to 1")
    assert taps <= 20, taps


# Each word of the element's text (a name: its parts between spaces, a hyphenated part with its hyphen) drawn on more
# than one line, with the width it has to fit in.
BROKEN_WORDS = """(el) => {
  const broken = [];
  const texts = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let text = texts.nextNode(); text; text = texts.nextNode()) {
    for (const word of text.data.matchAll(/[^\\s-]+-?/g)) {
      const range = document.createRange();
      range.setStart(text, word.index);
      range.setEnd(text, word.index + word[0].length);
      const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (lines.size > 1) broken.push(`${word[0]} in ${el.clientWidth}px`);
    }
  }
  return broken;
}"""


@pytest.mark.parametrize("players", [
    ("Chloé-Éloïse Vandermeersch Oyelaran-Tana", "Devendra Ramaswamy Subrahmanyam Iyengarr"),
    ("Bartholomew Featherstonehaugh-Cholmondel", "Maximiliane Wolkenstein-Hohenberg-Schwar"),
], ids=["spaces", "hyphens"])
def test_the_score_tiles_break_long_names_between_words(page: Page, catalog, screenshot_dir, players):
    """The play-test: at 360 px the two tiles side by side broke 40-character names inside words ("Vandermeer|sch",
    "Bartholome|w"), as the standings once did. A tile whose words do not fit half the phone takes a row of its
    own, where they do; only a word longer than the whole width (one 40-letter name) is broken, as a last resort."""
    match = services.match_create(slug="card-crush", player_names=list(players), config={})
    page.goto(match.get_absolute_url())
    names = page.locator(".scoreboard .score-name")
    expect(names).to_have_text(list(players))
    for name in names.all():
        assert name.evaluate(BROKEN_WORDS) == [], name.text_content()
    assert_no_horizontal_scroll(page)
    page.locator(".scoreboard").screenshot(path=screenshot_dir / f"card-crush-score-tiles-{players[0][:5]}.png")
