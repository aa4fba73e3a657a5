"""A Cardmaster Custom Match played on one phone in hot-seat, at phone size.

Ana fields Gale Harrier, Storm Kite (SPD 180) and Volt Lancer; Ben the slower
Stonewarden, Granite Brute and Reef Sentinel (demo catalog). Ana has possession in
round 1; after her three moves the board tells her to pass the phone to Ben.
"""

import re

import pytest
from playwright.sync_api import Page, expect

from tracker.matches import services
from tracker.models import Match

from .phone import LONG_PLAYERS, assert_no_horizontal_scroll, forty, hand_to, in_the_box, in_view

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ANA = ["Gale Harrier", "Storm Kite", "Volt Lancer"]
BEN = ["Stonewarden", "Granite Brute", "Reef Sentinel"]


def lock_in(page: Page, name: str, cards: list[str]) -> None:
    hand_to(page, name)
    page.get_by_role("link", name=f"I am {name}: show my entry").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"{name}: lock in your lineup")
    for number, card in enumerate(cards, start=1):
        page.get_by_label(f"Active {number}", exact=True).fill(card)
    page.get_by_role("button", name="Lock in my lineup").click()
    said = f"{name} is locked in."  # the handover's banner writes the name whole, the outcome box cut short
    expect(page.get_by_text(said).or_(page.get_by_text(in_the_box(said))).first).to_be_visible()


def card(page: Page, name: str):
    return page.locator("article.cm-card").filter(has=page.get_by_role("heading", name=name, exact=True))


def move(page: Page, name: str, button: str, target: str | None = None) -> None:
    panel = card(page, name)
    if target:
        panel.get_by_role("radio", name=re.compile(rf"^{target}")).check()
    panel.get_by_role("button", name=re.compile(rf"^{button}\b")).click()


# Screenshots keep the caret (caret="initial"): hiding it leaves style="" on every input, which htmx copies
# onto swapped-in inputs that have an id, and Chromium reports that as a CSP violation of the test's making.
def test_possessions_in_hot_seat_on_a_phone(page: Page, catalog, screenshot_dir):
    from tracker.demo import load_catalogs

    load_catalogs()
    console_errors = []
    page.on("console", lambda message: message.type == "error" and console_errors.append(message.text))
    page.goto("/matches/new/cardmaster/")
    expect(page.get_by_role("heading", level=1)).to_have_text("New Cardmaster Custom Match")
    page.get_by_label("Player 1", exact=True).fill("Ana")
    page.get_by_label("Player 2", exact=True).fill("Ben")
    page.get_by_label("3v3").check()
    page.get_by_role("button", name="Start").click()
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))
    match_id = int(re.search(r"/matches/(\d+)/$", page.url).group(1))

    lock_in(page, "Ana", ANA)
    for name in ANA:  # Ana's lineup stays hidden from Ben
        assert name not in page.content()
    lock_in(page, "Ben", BEN)

    handover = page.locator(".cm-handover")
    expect(handover).to_have_text("⇄ Pass the phone to Ana")
    expect(page.locator(".cm-turn")).to_contain_text("Round 1 · Ana has possession")
    # A2 says what it needs and why it is unavailable.
    gale = card(page, "Gale Harrier")
    expect(gale.get_by_role("button", name=re.compile("^A2"))).to_be_disabled()
    expect(gale.locator(".cm-why").first).to_contain_text("Needs 3 shown: Gale Harrier shows 1")
    assert_no_horizontal_scroll(page)
    page.screenshot(path=screenshot_dir / "cardmaster-round-1.png", caret="initial")
    gale.scroll_into_view_if_needed()
    page.screenshot(path=screenshot_dir / "cardmaster-moves.png", caret="initial")
    page.screenshot(path=screenshot_dir / "cardmaster-board-full.png", full_page=True, caret="initial")

    move(page, "Gale Harrier", "A1", target="Stonewarden")
    expect(page.locator(".cm-last")).to_contain_text(
        "Gale Harrier hits Stonewarden with A1: ATK 300 × 0.33 × 2 (➶ Gale) × (1 − DEF 420/1000) = 115 damage")
    expect(handover).to_have_count(0)
    expect(card(page, "Gale Harrier")).to_contain_text("✓ moved")
    expect(card(page, "Stonewarden").locator("meter")).to_have_attribute("value", "985")
    card(page, "Stonewarden").screenshot(path=screenshot_dir / "cardmaster-card.png", caret="initial")
    move(page, "Storm Kite", "STACK")
    expect(card(page, "Storm Kite")).to_contain_text("◆ 2 shown (1 + 1 stacked)")
    move(page, "Volt Lancer", "A1", target="Granite Brute")

    expect(handover).to_have_text("⇄ Pass the phone to Ben")
    expect(handover).to_be_in_viewport()  # scrolled up to it, though the last tap was far below
    expect(page.locator(".cm-turn")).to_contain_text("Ben has possession")
    page.screenshot(path=screenshot_dir / "cardmaster-handover.png", caret="initial")
    move(page, "Stonewarden", "A1", target="Storm Kite")
    expect(page.locator(".cm-last")).to_contain_text("Stonewarden hits Storm Kite with A1")
    move(page, "Granite Brute", "STACK")
    move(page, "Reef Sentinel", "A1", target="Volt Lancer")
    expect(handover).to_have_text("⇄ Pass the phone to Ana")
    expect(page.locator(".cm-turn")).to_contain_text("Round 2 · Ana has possession")

    # Undo takes the last move back, and the handover banner goes with it.
    page.get_by_role("button", name="Undo last step").click()
    expect(page.locator(".cm-turn")).to_contain_text("Round 1 · Ben has possession")
    assert_no_horizontal_scroll(page)
    page.screenshot(path=screenshot_dir / "cardmaster-undo.png", caret="initial")
    match = Match.objects.get(pk=match_id)
    assert match.state["possession"] == 1 and match.head == 7
    assert console_errors == []  # e.g. nothing refused by the Content Security Policy


def test_a_correction_half_typed_outlasts_the_other_phones_moves(make_context, catalog, screenshot_dir):
    """Ana starts correcting Stonewarden's HP by hand on one phone while the other phone makes Ana's moves: the
    fold stays open with what she picked and typed (the corrections list the cards by name, so a move leaves
    it as it is), and the correction then applies at the step the match is at."""
    from tracker.games.cardmaster import demo as cm_demo

    from .test_two_phones import Phone

    match = cm_demo.locked([cm_demo.STORM_LINEUP, cm_demo.STONE_LINEUP])
    correcting, moving = Phone(make_context(), "correcting"), Phone(make_context(), "moving")
    correcting.page.goto(match.get_absolute_url())
    moving.page.goto(match.get_absolute_url())
    fold = correcting.page.locator("details.cm-overrides")
    fold.locator("summary").click()
    correction = fold.locator("form").filter(has=correcting.page.get_by_role("button", name="Correct the card"))
    correction.get_by_label("Card", exact=True).select_option("B1")
    correction.get_by_label("New value").fill("250")

    move(moving.page, "Gale Harrier", "STACK")
    expect(card(moving.page, "Gale Harrier")).to_contain_text("◆ 2 shown (1 + 1 stacked)")
    correcting.next_poll()
    expect(card(correcting.page, "Gale Harrier")).to_contain_text("◆ 2 shown (1 + 1 stacked)")
    expect(fold).to_have_attribute("open", "")
    expect(correction.get_by_label("Card", exact=True)).to_have_value("B1")
    expect(correction.get_by_label("New value")).to_have_value("250")
    correcting.shot(screenshot_dir, "cm-correction-kept")
    correction.get_by_role("button", name="Correct the card").click()
    expect(card(correcting.page, "Stonewarden")).to_contain_text("250")
    assert Match.objects.get(pk=match.pk).head == match.head + 2


def test_the_handover_banner_leaves_the_lock_ins_result_in_view_with_the_longest_names(page: Page, catalog,
                                                                                        screenshot_dir):
    """With a 40-character name the sticky banner wrapped to three tall lines, over the top of the result the
    page had just scrolled to (the room kept for it was 5rem): the room now holds the banner's three lines."""
    from tracker.demo import load_catalogs

    load_catalogs()
    match = services.match_create(slug="cardmaster", player_names=list(LONG_PLAYERS), config={"size": 3})
    page.goto(match.get_absolute_url())
    lock_in(page, LONG_PLAYERS[0], ANA)
    lock_in(page, LONG_PLAYERS[1], BEN)
    banner = page.locator(".cm-handover")
    expect(banner).to_contain_text("Pass the phone to")
    page.screenshot(path=screenshot_dir / "cardmaster-handover-long-names.png", caret="initial")
    edge = banner.bounding_box()
    box = in_view(page)
    assert box["y"] >= edge["y"] + edge["height"], f"the banner {edge} covers the outcome box {box}"
    expect(banner).to_contain_text(LONG_PLAYERS[0])  # whole: not cut short


def test_after_both_lineups_lock_the_result_and_the_first_attack_are_in_view_with_the_longest_names(
        page: Page, catalog, screenshot_dir):
    """The play-test: with 40-character players and cards, the page the second lock-in led to showed the result
    under the banner, then the first card's A1 at y 704 to 752, cut by the screen's bottom. Above it were the
    target list's legend, the card's name again ("Moves for" says it just above), the target lines at the page's
    line height and the banner's room with some 11 px to spare: now the result and A1 are both wholly in view."""
    from tracker.demo import load_catalogs
    from tracker.models import Card

    from .phone import next_step_in_view

    load_catalogs()
    for name in ANA + BEN:
        Card.objects.create(slug="cardmaster", name=forty(name), stats=Card.objects.get(slug="cardmaster", name=name).stats)
    match = services.match_create(slug="cardmaster", player_names=list(LONG_PLAYERS), config={"size": 3})
    page.goto(match.get_absolute_url())
    lock_in(page, LONG_PLAYERS[0], [forty(name) for name in ANA])
    lock_in(page, LONG_PLAYERS[1], [forty(name) for name in BEN])
    page.wait_for_load_state("load")
    expect(page.locator(".cm-handover")).to_contain_text(LONG_PLAYERS[0])
    banner = page.locator(".cm-handover").bounding_box()
    box = in_view(page)
    assert box["y"] >= banner["y"] + banner["height"], f"the banner {banner} covers the outcome box {box}"
    attack = page.locator("details.cm-movebox[open]").first.get_by_role("button", name=re.compile(r"^A1\b"))
    next_step_in_view(page, attack)
    page.screenshot(path=screenshot_dir / "cardmaster-locked-long-names.png", caret="initial")


# Every line of the element's text shown cut: as much of a line as is inside every box that clips it must be all of
# the line or none of it.
CUT_LINES = """(el) => {
  const cut = [];
  const texts = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let text = texts.nextNode(); text; text = texts.nextNode()) {
    const clips = [];
    for (let box = text.parentElement; box; box = box.parentElement) {
      if (getComputedStyle(box).overflow !== 'visible') clips.push(box.getBoundingClientRect());
    }
    const top = Math.max(...clips.map((r) => r.top)), bottom = Math.min(...clips.map((r) => r.bottom));
    const range = document.createRange();
    range.selectNodeContents(text);
    for (const r of range.getClientRects()) {
      const shown = Math.min(r.bottom, bottom) - Math.max(r.top, top);
      if (r.height > 0 && shown > 0.5 && shown < r.height - 0.5) cut.push(`${text.data.trim()}: ${shown} of ${r.height}px`);
    }
  }
  return cut;
}"""


def test_the_longest_names_overlap_nothing_on_the_board(page: Page, catalog, screenshot_dir):
    """A 40-character player name that wraps into four lines in the handover banner shows three whole lines (no
    half of a fourth under them), and a target of 60 characters keeps its HP clear of the odds under it."""
    from tracker.demo import load_catalogs
    from tracker.games.cardmaster import demo as cm_demo
    from tracker.models import Card

    from .phone import LONG_CARD

    load_catalogs()
    Card.objects.create(slug="cardmaster", name=LONG_CARD, stats=Card.objects.get(slug="cardmaster", name="Stonewarden").stats)
    ana, ben = "Bartholomew Featherstonehaugh-Cholmondel", "Maximiliane Wolkenstein-Hohenberg-Schwar"
    match = cm_demo.locked([ANA, [LONG_CARD, "Granite Brute", "Reef Sentinel"]], players=(ana, ben))
    page.goto(match.get_absolute_url())
    banner = page.locator(".cm-handover")
    expect(banner).to_contain_text(f"Pass the phone to {ana[:20]}")
    assert banner.evaluate(CUT_LINES) == []
    gale = card(page, "Gale Harrier")
    target = gale.locator(".cm-targets label").filter(has_text=LONG_CARD)
    target.scroll_into_view_if_needed()
    page.screenshot(path=screenshot_dir / "cardmaster-long-target.png", caret="initial")
    hp, odds = target.locator(".small").first.bounding_box(), target.locator(".cm-odds").bounding_box()
    assert hp["y"] + hp["height"] <= odds["y"] + 0.5, (hp, odds)
    radio = target.get_by_role("radio").bounding_box()
    assert radio["x"] + radio["width"] <= odds["x"], (radio, odds)
    assert_no_horizontal_scroll(page)
