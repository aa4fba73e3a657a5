"""An Evons turn at phone size: cards placed from the board's forms, two conflicts
resolved in the order the player picks, and a flip seen on the board and in the log.

The table (demo catalog, tracker/games/evons.py):
    turn 1  Ana plays Ember Fox (4/5) on A5                     (in the browser)
    turn 2  Ben plays Moss Golem (3/6, arrows W and S) on D3    (in the browser)
    turns 3-6  Ana plays a covered card on E1, Ben plays Dust Mole (1/4, N and S) on C4,
               Ana reveals Volt Eel (Magnetism east) on E1, leaves its ability unused and
               passes, Ben plays Spark Wisp (1/2, NE and SW) on B3   (through the services)
    turn 7  Ana plays Reef Warden (3/7, N E S W) on C3: Moss Golem and Dust Mole point
            back (two conflicts), Spark Wisp does not (a flip once Reef Warden survives).
            She fights C4 first: Reef Warden 7 -> 6, Dust Mole 4 -> 1; then D3: 6 -> 3,
            Moss Golem 6 -> 3. Spark Wisp flips to Ana: 4 points to 2.
"""

import re

import pytest
from playwright.sync_api import Page, expect

from tracker.matches import services
from tracker.models import Card, Match

from .phone import LONG_PLAYERS, OUTCOME, assert_no_horizontal_scroll, fill_card, in_view

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def tap_cell(page: Page, cell: str) -> None:
    """Tap an empty cell of the board, as a player picks where a card goes."""
    page.get_by_role("radio", name=re.compile(rf"^{cell}\b")).tap()
    expect(page.get_by_role("radio", name=re.compile(rf"^{cell}\b"))).to_be_checked()


def play(page: Page, cell: str, card: str) -> None:
    tap_cell(page, cell)
    fill_card(page.get_by_label("Card name"), card)  # its list shown before the tap, which it would move
    page.get_by_role("button", name="Play the card").tap()


def test_place_cards_fight_in_a_chosen_order_and_see_a_flip(page: Page, catalog, screenshot_dir):
    match = services.match_create(slug="evons", player_names=["Ana", "Ben"], config={})
    page.goto(match.get_absolute_url())
    expect(page.get_by_text("Turn 1: Ana to play")).to_be_visible()
    assert_no_horizontal_scroll(page)
    # The direction picker for a card not in the catalog fits the phone too.
    page.get_by_text("Not in the catalog? Enter its stats").click()
    expect(page.get_by_role("combobox", name="Arrow NE (north-east)")).to_be_visible()
    assert_no_horizontal_scroll(page)
    page.locator("#ev-play .ev-new-card").screenshot(path=screenshot_dir / "evons-new-card.png", caret="initial")
    page.get_by_text("Not in the catalog? Enter its stats").click()

    play(page, "A5", "Ember Fox")
    expect(page.get_by_text("Turn 2: Ben to play")).to_be_visible()
    play(page, "D3", "Moss Golem")
    expect(page.get_by_text("Turn 3: Ana to play")).to_be_visible()
    expect(
        page.get_by_role("img", name=re.compile(r"^D3: Moss Golem; faces Ben; active; ATK 3, DEF 6 of 6"))
    ).to_be_visible()
    page.screenshot(path=screenshot_dir / "evons-placed.png", full_page=True)

    for seat, action in (
        (0, {"type": "play", "cell": "E1", "covered": True}),
        (1, {"type": "play", "cell": "C4", "covered": False, "card": _card("Dust Mole")}),
        (0, {"type": "reveal", "cell": "E1", "card": _card("Volt Eel")}),
        (0, {"type": "next"}),
        (0, {"type": "next"}),
        (0, {"type": "pass"}),
        (1, {"type": "play", "cell": "B3", "covered": False, "card": _card("Spark Wisp")}),
    ):
        match.refresh_from_db()
        services.match_apply_action(
            match_id=match.pk, action={**action, "seat": seat}, expected_seq=match.head
        )
    page.reload()
    expect(page.get_by_text("Turn 7: Ana to play")).to_be_visible()

    play(page, "C3", "Reef Warden")
    conflicts = page.get_by_role("button", name=re.compile("^⚔ Fight"))
    expect(conflicts).to_have_text(["⚔ Fight D3 Moss Golem 3/6", "⚔ Fight C4 Dust Mole 1/4"])
    expect(page.get_by_text("Reef Warden 7 → 6, Dust Mole 4 → 1")).to_be_visible()
    assert_no_horizontal_scroll(page)
    page.screenshot(path=screenshot_dir / "evons-conflicts.png", full_page=True)

    page.get_by_role("button", name="⚔ Fight C4 Dust Mole 1/4").click()  # the second listed, first fought
    expect(
        page.get_by_text(
            "C3 Reef Warden 3/7 vs C4 Dust Mole 1/4 at once: Reef Warden 7 -> 6, Dust Mole 4 -> 1"
        ).first  # the board's last step says it, and the outcome box too
    ).to_be_visible()
    # Damage carries over: the remaining conflict starts from Reef Warden's 6 DEF.
    expect(conflicts).to_have_text(["⚔ Fight D3 Moss Golem 3/6"])
    expect(page.get_by_text("Reef Warden 6 → 3, Moss Golem 6 → 3")).to_be_visible()
    page.get_by_role("button", name="⚔ Fight D3 Moss Golem 3/6").click()

    expect(page.get_by_text("B3 flipped to Ana.").first).to_be_visible()
    expect(page.get_by_role("img", name=re.compile(r"^B3: Spark Wisp; faces Ana; active"))).to_be_visible()
    expect(page.locator(".score-value")).to_have_text(["4", "2"])
    expect(page.get_by_text("Turn 8: Ben to play")).to_be_visible()
    assert_no_horizontal_scroll(page)
    page.screenshot(path=screenshot_dir / "evons-flipped.png", full_page=True)
    page.locator(".ev-board").screenshot(path=screenshot_dir / "evons-board.png")

    page.get_by_role("link", name="Log", exact=True).click()
    expect(page.get_by_text("Ana resolves the conflict with C4")).to_be_visible()
    expect(
        page.get_by_text(
            "C3 Reef Warden 3/6 vs D3 Moss Golem 3/6 at once: Reef Warden 6 -> 3, Moss Golem 6 -> 3"
        )
    ).to_be_visible()
    page.screenshot(path=screenshot_dir / "evons-log.png", full_page=True)
    assert services.match_replay(Match.objects.get(pk=match.pk)) == Match.objects.get(pk=match.pk).state


def _card(name: str) -> dict:
    return Card.objects.get(slug="evons", name=name).as_rules_card()


# Every control a player can tap on the Evons board, with its size in CSS pixels.
SMALL_TAP_TARGETS = """
() => [...document.querySelectorAll(
    '#match a[href], #match button, #match input:not([type=hidden]), #match select, #match summary, #match textarea')]
  .filter(el => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden')
  .map(el => { const r = el.getBoundingClientRect(); return [el.outerHTML.slice(0, 90), Math.round(r.width), Math.round(r.height)]; })
  .filter(([, w, h]) => w < 44 || h < 44)
"""


def test_a_game_played_by_tapping_cells_where_a_flipped_card_defends_with_its_turned_arrows(page: Page, catalog, screenshot_dir):
    """Rulebook: "Flipping means rotating the card 180 degrees so it now faces you."

    Night Crow is printed with arrows to its left and upper left. Ben, at the top of the board,
    holds it turned: on C3 it points right (D3) and down-right (D4). Ana's Ember Fox on B3 points
    right at it and nothing points back, so Night Crow flips to Ana and turns: now it points left
    (B3) and up-left (B2). When Ben then plays a second Night Crow on B2, pointing down-right at
    C3, the flipped card's turned arrow points straight back: a conflict, which before the flip
    could not have happened. Every card is placed by tapping its cell, and a mistyped card name is
    refused without losing the tapped cell or the name typed.
    """
    problems: list[str] = []
    # A refusal is answered 422 by design (it carries the page with the reason), which Chromium logs
    # as a failed resource; anything else logged as an error is a problem.
    refusal = "Failed to load resource: the server responded with a status of 422 (Unprocessable Content)"
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" and m.text != refusal else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    match = services.match_create(slug="evons", player_names=["Ana", "Ben"], config={})
    page.goto(match.get_absolute_url())
    expect(page.get_by_text("Turn 1: Ana to play")).to_be_visible()
    assert page.evaluate(SMALL_TAP_TARGETS) == []
    assert_no_horizontal_scroll(page)

    # A mistyped name is refused; the tapped cell and the name stay, so one correction plays it.
    tap_cell(page, "E5")
    fill_card(page.get_by_label("Card name"), "Dust Mol")
    page.get_by_role("button", name="Play the card").tap()
    expect(page.get_by_text("No card called “Dust Mol”").first).to_be_visible()
    expect(page.get_by_role("radio", name=re.compile(r"^E5\b"))).to_be_checked()
    expect(page.get_by_label("Card name")).to_have_value("Dust Mol")
    page.get_by_label("Card name").press("End")
    page.get_by_label("Card name").press_sequentially("e")
    page.get_by_role("button", name="Play the card").tap()
    expect(page.get_by_text("Turn 2: Ben to play")).to_be_visible()
    expect(page.get_by_role("img", name=re.compile(r"^E5: Dust Mole; faces Ana"))).to_be_visible()

    play(page, "C3", "Night Crow")
    expect(page.get_by_text("Turn 3: Ana to play")).to_be_visible()
    crow = page.get_by_role("img", name=re.compile(r"^C3: Night Crow"))
    expect(crow).to_have_accessible_name(re.compile(r"faces Ben; .*arrows: east Normal, south-east Normal$"))
    expect(crow.locator(".ev-a")).to_have_class([re.compile(r"\bev-E\b"), re.compile(r"\bev-SE\b")])

    play(page, "B3", "Ember Fox")
    expect(page.get_by_text("C3 flipped to Ana.").first).to_be_visible()
    expect(page.get_by_text("Turn 4: Ben to play")).to_be_visible()
    expect(crow).to_have_accessible_name(re.compile(r"faces Ana; .*arrows: west Normal, north-west Normal$"))
    expect(crow.locator(".ev-a")).to_have_class([re.compile(r"\bev-W\b"), re.compile(r"\bev-NW\b")])
    expect(page.locator(".score-value")).to_have_text(["3", "0"])
    assert_no_horizontal_scroll(page)
    # caret="initial": hiding the caret would make Playwright add an inline style, which the CSP refuses.
    page.locator(".ev-board").screenshot(path=screenshot_dir / "evons-board-flipped.png", caret="initial")

    play(page, "B2", "Night Crow")
    fight = page.get_by_role("button", name=re.compile("^⚔ Fight"))
    expect(fight).to_have_text(["⚔ Fight C3 Night Crow 3/3"])
    expect(page.get_by_text("Night Crow 3 → 0, Night Crow 3 → 0")).to_be_visible()
    assert page.evaluate(SMALL_TAP_TARGETS) == []
    fight.tap()
    # In the box, open or in its fold (a quarter of the screen holds the two cards destroyed first).
    expect(page.locator(OUTCOME)).to_contain_text("B2 Night Crow 3/3 vs C3 Night Crow 3/3 at once")
    expect(page.get_by_role("img", name=re.compile(r"^(B2|C3): "))).to_have_count(0)  # both destroyed
    expect(page.get_by_text("Turn 5: Ana to play")).to_be_visible()
    assert_no_horizontal_scroll(page)
    page.screenshot(path=screenshot_dir / "evons-tapped-game.png", full_page=True, caret="initial")
    assert problems == [], "\n".join(problems)
    assert services.match_replay(Match.objects.get(pk=match.pk)) == Match.objects.get(pk=match.pk).state


def test_a_half_typed_new_catalog_card_survives_a_play(page: Page, catalog):
    """The answer to a play leaves the add-a-card form out (it never changes with a play): the fold the
    player opened and what they typed in it stay as they were, and the board moves on."""
    match = services.match_create(slug="evons", player_names=["Ana", "Ben"], config={})
    page.goto(match.get_absolute_url())
    fold = page.locator("details.new-card")
    fold.locator("summary").tap()
    fold.get_by_label("Name").fill("Gloom Newt")
    with page.expect_response(lambda r: r.request.method == "POST") as answer:
        play(page, "A5", "Ember Fox")
    expect(page.get_by_text("Turn 2: Ben to play")).to_be_visible()
    assert "hx-preserve" in answer.value.text()
    expect(fold).to_have_attribute("open", "")
    expect(fold.get_by_label("Name")).to_have_value("Gloom Newt")


# Every arrow of every card on the board, each with its ability's letter if it has one, and the box of the
# initial of the player the card faces.
PIECE_BOXES = """
() => [...document.querySelectorAll('.ev-board .ev-p')].map((piece) => {
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  return { label: piece.getAttribute('aria-label').slice(0, 30), who: box(piece.querySelector('.ev-who')),
           arrows: [...piece.querySelectorAll('.ev-a')].map((arrow) => ({ box: box(arrow),
             letter: arrow.nextElementSibling && arrow.nextElementSibling.matches('.ev-l')
               ? [arrow.nextElementSibling.textContent, box(arrow.nextElementSibling)] : null })) };
})
"""


CUT_SHORT = """(selector) => [...document.querySelectorAll(selector)].filter((el) => {
  const text = document.createRange(); text.selectNodeContents(el);
  const box = el.getBoundingClientRect(), style = getComputedStyle(el);
  return text.getBoundingClientRect().width > box.width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) + 0.5;
}).map((el) => el.textContent)"""


def _overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_the_board_marks_what_a_step_changed_and_its_arrows_and_letters_read_clearly(page: Page, catalog,
                                                                                    screenshot_dir):
    """A card with an ability arrow in each of the eight directions, on both sides of the board: every arrow is at
    least 10 px, no ability letter lies on the owner's initial, the name or the stats. Each step marks the cells
    it changed; a Firestorm with one card in reach comes with the damage filled in."""
    compass = {"name": "Compass Rose", "kind": "monster", "cost": 0, "element": "Fire", "atk": 1, "def": 9,
               "arrows": {"N": "Firestorm", "NE": "Swap", "E": "Remove", "SE": "Block", "S": "Firestorm",
                          "SW": "Swap", "W": "Remove", "NW": "Block"}}
    match = services.match_create(slug="evons", player_names=["Ana", "Ben"], config={})

    def apply(action: dict) -> None:
        match.refresh_from_db()
        services.match_apply_action(match_id=match.pk, action=action, expected_seq=match.head)
        match.refresh_from_db()

    apply({"type": "adjust", "seat": 0, "credits": 20, "override": True})
    for seat, cell in ((0, "E5"), (1, "A1")):  # each plays a Compass Rose and uses none of its abilities
        apply({"type": "play", "seat": seat, "cell": cell, "covered": False, "card": compass})
        while match.state["stack"]:
            apply({"type": "next", "seat": seat})
    page.goto(match.get_absolute_url())
    expect(page.get_by_text("Turn 3: Ana to play")).to_be_visible()

    page.locator(".ev-board").screenshot(path=screenshot_dir / "evons-arrows.png", caret="initial")
    pieces = page.evaluate(PIECE_BOXES)
    # The owner's initial and ATK/DEF show whole, not cut short with "…".
    assert page.evaluate(CUT_SHORT, ".ev-s") == []
    assert len(pieces) == 2 and all(len(piece["arrows"]) == 8 for piece in pieces)
    for piece in pieces:
        for arrow in piece["arrows"]:
            box = arrow["box"]
            assert box[2] - box[0] >= 10 and box[3] - box[1] >= 10, (piece["label"], arrow)
            letter, inside = arrow["letter"]
            assert box[0] <= inside[0] and inside[2] <= box[2] and box[1] <= inside[1] and inside[3] <= box[3], \
                (piece["label"], arrow)  # the letter lies on its own arrow...
            assert not _overlap(inside, piece["who"]), (piece["label"], arrow, piece["who"])  # ...not on the initial

    # Ana's Pyre Drake on A2 points its Firestorm at Ben's Compass Rose on A1, the one card in its reach.
    play(page, "A2", "Pyre Drake")
    changed = page.locator(".ev-changed")
    expect(changed).to_have_count(1)
    expect(changed.get_by_role("img")).to_have_accessible_name(re.compile(r"^A2: Pyre Drake"))
    expect(changed).to_contain_text("Changed by the last step")
    expect(page.get_by_label("A1", exact=True)).to_have_value("6")  # its whole DEF on the one card
    page.get_by_role("button", name="Use Firestorm").tap()
    expect(changed.get_by_role("img")).to_have_accessible_name(re.compile(r"^A1: Compass Rose; .*DEF 3 of 9"))
    expect(changed).to_have_count(1)


def test_on_two_phones_the_player_not_in_turn_is_told_whose_step_it_is(make_context, catalog, screenshot_dir):
    """Evons showed its whole play area (cells to tap, the card field, Pass) to either phone, and the engine then
    refused the other seat's tap. The phone not in turn says who plays the step on their phone instead."""
    from .test_two_phones import Phone, ben_seated

    ana, ben = Phone(make_context(), "ana"), Phone(make_context(), "ben")
    match_id = ben_seated(ana, ben, "evons")
    waiting = ben.page.get_by_text("Ana plays this step on their phone.")
    expect(waiting).to_be_visible()
    expect(ben.page.get_by_role("button", name=re.compile("^Pass"))).to_have_count(0)
    expect(ben.page.locator("input[name=cell]")).to_have_count(0)
    ana.page.goto(f"/matches/{match_id}/")
    expect(ana.page.get_by_role("button", name=re.compile("^Pass"))).to_be_visible()
    waiting.scroll_into_view_if_needed()
    ben.page.screenshot(path=screenshot_dir / "evons-other-phone-waits.png", caret="initial")
    assert_no_horizontal_scroll(ben.page)


BOARD = "() => document.querySelector('table.ev-board').outerHTML.replace(/ data-kept=\"\\w+\"/g, '')"
"""The board as the page shows it, but each row's digest (a row kept from an earlier answer keeps the digest it was
drawn with, the same row)."""


def test_another_phones_change_leaves_the_board_as_a_fresh_page_draws_it(make_context, catalog, screenshot_dir):
    """The board's rows are kept parts: Ben's change brings Ana's phone only the rows it changed, and her board is then
    the one a fresh page draws. A cell she had picked is cleared by it, as the card she was typing is (table.js marks
    the picked row as changed, so it is drawn anew), and her next play is drawn as the page would draw it."""
    from .test_two_phones import Phone, ben_seated

    ana, ben = Phone(make_context(), "ana"), Phone(make_context(), "ben")
    match_id = ben_seated(ana, ben, "evons")
    ana.page.goto(f"/matches/{match_id}/")
    play(ana.page, "C3", "Moss Golem")
    expect(ana.page.get_by_text("Turn 2: Ben to play")).to_be_visible()
    ben.page.reload()
    play(ben.page, "D2", "Dust Mole")
    ana.next_poll()
    expect(ana.page.get_by_text("Turn 3: Ana to play")).to_be_visible()
    ana.mark()
    tap_cell(ana.page, "A5")
    ana.page.get_by_label("Card name").fill("Ember")
    ben.page.locator("details.ev-overrides summary").click()
    ben.page.get_by_label("Player", exact=True).select_option("1")
    ben.page.get_by_label("Credits", exact=True).fill("40")
    ben.page.get_by_role("button", name="Set these counts").click()
    ana.next_poll()
    expect(ana.page.get_by_text("40 credits")).to_be_visible()
    assert ana.was_not_reloaded()
    expect(ana.page.locator("table.ev-board input:checked")).to_have_count(0)
    expect(ana.page.get_by_label("Card name")).to_have_value("")
    fresh = ana.page.context.new_page()
    fresh.goto(f"/matches/{match_id}/")
    assert ana.page.evaluate(BOARD) == fresh.evaluate(BOARD)
    play(ana.page, "B3", "Ember Fox")
    expect(ana.page.get_by_text("Turn 4: Ben to play")).to_be_visible()
    fresh.reload()
    assert ana.page.evaluate(BOARD) == fresh.evaluate(BOARD)
    ana.page.locator(".ev-board").screenshot(path=screenshot_dir / "evons-board-kept-rows.png", caret="initial")


@pytest.mark.parametrize("javascript", [True, False], ids=["with javascript", "without"])
def test_after_a_play_the_next_player_can_play_or_pass_in_view(make_context, catalog, screenshot_dir, javascript):
    """After a play the page opens on its result and the next player's board; Play the card and Pass stand side by
    side under the board, in view (Pass was some 400 px further down, under the face choice and the new card's
    fold), and Pass, its own form's (form="ev-pass"), works from there, with or without JavaScript. Without it the
    page opened at its top, the board at y 821 under the result held at the screen's foot: the redirect now lands
    on the play form (#ev-play), its card field, board and buttons in view above the result."""
    page = make_context(java_script_enabled=javascript).new_page()
    match = services.match_create(slug="evons", player_names=["Ana", "Ben"], config={})
    page.goto(match.get_absolute_url())
    play(page, "A5", "Ember Fox")
    expect(page.get_by_text("Turn 2: Ben to play")).to_be_visible()
    page.screenshot(path=screenshot_dir / f"evons-after-a-play-{'js' if javascript else 'no-js'}.png", caret="initial")
    play_button = page.get_by_role("button", name="Play the card")
    pass_button = page.get_by_role("button", name="Pass (play no card this turn)")
    if javascript:
        for shown in (page.locator("#outcome .outcome-box"), play_button, pass_button):
            in_view(page, shown)
    else:
        expect(page).to_have_url(re.compile(r"#ev-play$"))
        box = in_view(page, "#outcome .outcome-box")  # held at the bottom of the screen
        for shown in (page.get_by_label("Card name"), page.locator(".ev-board"), play_button, pass_button):
            found = in_view(page, shown)
            assert found["y"] + found["height"] <= box["y"], f"{shown} is under the result: {found}, {box}"
    assert play_button.bounding_box()["y"] == pass_button.bounding_box()["y"]
    assert_no_horizontal_scroll(page)
    if javascript:
        page.evaluate("window.samePage = true")
    pass_button.tap()
    expect(page.get_by_text("Turn 3: Ana to play")).to_be_visible()
    if javascript:  # sent by htmx, as every board form, not as a plain POST
        assert page.evaluate("window.samePage === true")
    assert Match.objects.get(pk=match.pk).state["seat"] == 0


@pytest.mark.parametrize(("locale", "words"), [
    ("en-US", ("Card name", "Play the card", "Pass (play no card this turn)")),
    ("de-DE", ("Kartenname", "Karte spielen", "Passen (keine Karte spielen)")),
], ids=["English", "German"])
def test_with_javascript_a_refusal_and_a_play_keep_play_and_pass_in_view_with_the_longest_names(
        make_context, catalog, screenshot_dir, locale, words):
    """With 40-character players the result docked above the card field took its third of the screen, and Play and
    Pass ended at y 788: the docked result is a quarter of the screen on Evons, with the board under it. A name not
    in the catalog, refused: why, in the box, was said again under the card field, and Play ended at y 748 (German:
    810); the box says it alone. After a play in German, Pass's four lines ended at y 790: its words are shorter."""
    name, play_it, pass_it = words
    page = make_context(locale=locale).new_page()
    match = services.match_create(slug="evons", player_names=list(LONG_PLAYERS), config={})
    page.goto(match.get_absolute_url())
    buttons = (page.get_by_role("button", name=play_it, exact=True), page.get_by_role("button", name=pass_it))
    tap_cell(page, "A5")
    fill_card(page.get_by_label(name), "Ember Fo")
    buttons[0].tap()
    expect(page.locator("#outcome .outcome-refused")).to_contain_text("Ember Fo")
    page.wait_for_timeout(300)  # the box docked and scrolled to, once the swap has settled
    page.screenshot(path=screenshot_dir / f"evons-js-refused-long-names-{locale}.png")
    for shown in (page.locator("#outcome .outcome-box"), page.get_by_label(name), *buttons):
        in_view(page, shown)
    expect(page.get_by_label(name)).to_have_value("Ember Fo")
    fill_card(page.get_by_label(name), "Ember Fox")
    buttons[0].tap()
    expect(page.locator(".ev-now")).to_contain_text(LONG_PLAYERS[1])
    page.wait_for_timeout(300)
    for shown in (page.locator("#outcome .outcome-box"), page.get_by_label(name), *buttons):
        in_view(page, shown)
    page.screenshot(path=screenshot_dir / f"evons-js-after-a-play-long-names-{locale}.png")


def test_without_javascript_a_play_lands_on_the_board_with_the_longest_names(make_context, catalog, screenshot_dir):
    """With 40-character players the result held at the screen's foot takes its third of the screen: the card field
    and the whole board, where the next play starts (a cell tapped), are in view above it."""
    page = make_context(java_script_enabled=False).new_page()
    match = services.match_create(slug="evons", player_names=list(LONG_PLAYERS), config={})
    page.goto(match.get_absolute_url())
    play(page, "A5", "Ember Fox")
    expect(page.locator(".ev-now")).to_contain_text(f"Turn 2: {LONG_PLAYERS[1]} to play")
    box = in_view(page, "#outcome .outcome-box")
    for shown in (page.get_by_label("Card name"), page.locator(".ev-board")):
        found = in_view(page, shown)
        assert found["y"] + found["height"] <= box["y"], f"{shown} is under the result: {found}, {box}"
    page.screenshot(path=screenshot_dir / "evons-no-js-after-a-play-long-names.png")


def test_a_name_not_in_the_catalog_opens_the_fold_for_its_stats(page: Page, catalog, screenshot_dir):
    """The refusal says to enter the card's stats: with htmx too (the page is left as it was, only why is sent) the
    fold that holds them opens, and a card played from it goes through."""
    match = services.match_create(slug="evons", player_names=["Ana", "Ben"], config={})
    page.goto(match.get_absolute_url())
    fold = page.locator("#ev-play details.ev-new-card")
    expect(fold).not_to_have_attribute("open", "")
    play(page, "B3", "Gloom Newt")
    expect(page.locator("#outcome")).to_contain_text("No card called “Gloom Newt” in the catalog")
    expect(fold).to_have_attribute("open", "")
    expect(page.get_by_label("Card name")).to_have_value("Gloom Newt")
    page.screenshot(path=screenshot_dir / "evons-refused-name-fold-open.png", caret="initial")
    fold.get_by_label("Cost").fill("0")
    fold.get_by_label("ATK").fill("2")
    fold.get_by_label("DEF").fill("3")
    page.get_by_role("button", name="Play the card").tap()
    expect(page.get_by_text("Turn 2: Ben to play")).to_be_visible()


@pytest.mark.parametrize("button", ["Play the card", "Pass (play no card this turn)"])
def test_a_tap_the_connection_lost_says_so_under_its_button_in_view(page: Page, catalog, screenshot_dir, button):
    """Offline, a tap on Play the card or Pass says it is kept and not sent yet (table.js) just under the two buttons,
    on the screen with them: the note went to its form's end, some 250 px under the screen's foot at 360x740 (under
    the face choice and the new card's fold), and for Pass (form="ev-pass") to its own empty form's place. Back
    online, the tap counts once."""
    from .phone import fill_card, go_offline, go_online
    from .test_at_the_table import WAITING

    match = services.match_create(slug="evons", player_names=["Ana", "Ben"], config={})
    page.goto(match.get_absolute_url())
    play(page, "A5", "Ember Fox")
    expect(page.get_by_text("Turn 2: Ben to play")).to_be_visible()
    fill_card(page.get_by_label("Card name"), "Moss Golem")
    tap_cell(page, "D3")  # which closes the card's list
    expect(page.locator(".picks-list:visible")).to_have_count(0)
    tapped = page.get_by_role("button", name=button)
    go_offline(page)
    tapped.tap()
    note = page.locator("form .net-note")
    expect(note).to_contain_text(WAITING)
    page.screenshot(path=screenshot_dir / f"evons-offline-{button.split()[0].lower()}.png", caret="initial")
    for shown in (note, tapped):
        in_view(page, shown)
    assert note.bounding_box()["y"] > tapped.bounding_box()["y"], "the note is not under the button"
    go_online(page)
    expect(page.get_by_text("Turn 3: Ana to play")).to_be_visible()
    match.refresh_from_db()
    assert (match.head, match.last_number) == (2, 2)


def test_a_stale_pass_is_refused_with_the_board_and_both_buttons_in_view(page: Page, catalog, screenshot_dir):
    """A phone that heard nothing for a while (its stream and poll cut) taps Pass on a board the match left and came
    back to: refused, and the answer's box docks above the play form, so why, the board and both buttons are in
    view. The refused form is Pass's own, empty (its button stands in the play form: form="ev-pass"), and the box
    went above that form, under the board, with Pass some 360 px above the screen."""
    match = services.match_create(slug="evons", player_names=list(LONG_PLAYERS), config={})
    services.match_apply_action(match=match, expected_seq=0, action={"type": "pass", "seat": 0})
    page.route("**/events**", lambda route: route.abort())
    page.route("**/poll**", lambda route: route.abort())
    page.goto(match.get_absolute_url())
    match.refresh_from_db()
    services.match_apply_action(match=match, expected_seq=1, action={
        "type": "play", "seat": 1, "cell": "C3", "covered": False,
        "card": {"name": "Mole", "kind": "monster", "cost": 1, "element": "Earth", "atk": 1, "def": 1, "arrows": {}}})
    services.match_goto(match_id=match.pk, step=1, expected_seq=2)
    page.get_by_role("button", name="Pass (play no card this turn)").tap()
    box = page.locator("#outcome .outcome-box")
    expect(box).to_contain_text("moved on and came back")
    page.screenshot(path=screenshot_dir / "evons-stale-pass.png", caret="initial")
    for shown in (box, page.get_by_role("button", name="Play the card"),
                  page.get_by_role("button", name="Pass (play no card this turn)")):
        in_view(page, shown)
    match.refresh_from_db()
    assert (match.head, match.last_number) == (1, 2), "nothing applied"
