"""The replay and the Evons board with the keyboard alone, at phone size: Tab, Shift+Tab, Enter, Space
and the arrow keys. Focus is always shown (an outline) and, after an htmx swap, lands on a control of
the new content, never on <body>.

The replayed battle (demo catalog, Ana vs Ben with the rulebook decks) ends 3-2 for Ben in 7 steps.
"""

import re

import pytest
from playwright.sync_api import Page, expect

from tracker.games.card_crush.demo import play_battle
from tracker.matches import services

from .phone import has_focus
from .test_match_review import ANA_DECK, BEN_DECK, counter

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FOCUSED = """() => {
    const el = document.activeElement;
    if (!el || el === document.body) return null;
    const style = getComputedStyle(el);
    return {tag: el.tagName, id: el.id, name: el.name || "", value: el.value || "", text: el.textContent.trim(),
            key: el.dataset.key || "", outline: style.outlineStyle, width: parseFloat(style.outlineWidth),
            visible: el.matches(":focus-visible"), inForm: el.form ? el.form.id : ""};
}"""


def focused(page: Page) -> dict:
    """What has the focus, and how it is shown; fails if the focus is lost to <body>.

    An htmx answer settles a moment after its content shows: the focus is given that moment.
    """
    for _ in range(40):  # polled from here: the page's content policy forbids Playwright's wait_for_function
        found = page.evaluate(FOCUSED)
        if found is not None:
            return found
        page.wait_for_timeout(50)
    raise AssertionError("the focus is lost to <body>")


def assert_focus_shown(page: Page) -> dict:
    found = focused(page)
    assert found["visible"] and found["outline"] != "none" and found["width"] >= 2, found  # app.css: 3px
    return found


def tab_to(page: Page, wanted, *, back: bool = False, limit: int = 60) -> dict:
    """Press Tab (Shift+Tab with `back`) until `wanted(focused)` holds."""
    for _ in range(limit):
        page.keyboard.press("Shift+Tab" if back else "Tab")
        found = page.evaluate(FOCUSED)
        if found and wanted(found):
            return found
    raise AssertionError(f"never reached by {'Shift+Tab' if back else 'Tab'}; last focused: {found}")


@pytest.fixture
def battle(catalog):
    return play_battle(("Ana", "Ben"), "battle-score", [ANA_DECK, BEN_DECK])


def test_a_replay_stepped_forward_and_back_with_the_keyboard(page: Page, battle):
    page.goto(f"/matches/{battle.pk}/replay/")
    expect(counter(page)).to_contain_text("Step 0 of 7")

    # Tab to the Next step button (Start and Back are not buttons yet) and press it with Enter, twice.
    tab_to(page, lambda el: el["key"] == "ArrowRight")
    assert_focus_shown(page)
    page.keyboard.press("Enter")
    expect(counter(page)).to_contain_text("Step 1 of 7")
    assert assert_focus_shown(page)["key"] == "ArrowRight"  # still on Next: Enter again steps again
    page.keyboard.press("Enter")
    expect(counter(page)).to_contain_text("Step 2 of 7")
    assert assert_focus_shown(page)["key"] == "ArrowRight"

    # Shift+Tab to Back one step, and back with Enter.
    tab_to(page, lambda el: el["key"] == "ArrowLeft", back=True)
    page.keyboard.press("Enter")
    expect(counter(page)).to_contain_text("Step 1 of 7")
    assert assert_focus_shown(page)["key"] == "ArrowLeft"

    # The arrow keys step wherever the focus is (outside a field), and the focus stays where it was.
    page.keyboard.press("ArrowRight")
    expect(counter(page)).to_contain_text("Step 2 of 7")
    page.keyboard.press("ArrowRight")
    expect(counter(page)).to_contain_text("Step 3 of 7")
    assert assert_focus_shown(page)["key"] == "ArrowLeft"

    # The jump: Tab to the step number, count up with the arrow keys, Tab to Go, Space.
    tab_to(page, lambda el: el["id"] == "jump-step")
    assert_focus_shown(page)
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    expect(page.locator("#jump-step")).to_have_value("5")
    expect(counter(page)).to_contain_text("Step 3 of 7")  # the arrows in the field count, they do not step
    go = tab_to(page, lambda el: el["text"] == "Go")
    assert go["tag"] == "BUTTON"
    page.keyboard.press("Space")
    expect(counter(page)).to_contain_text("Step 5 of 7: Round 3 revealed")
    # htmx gives the focus back to the control of the same id once the swapped part settles, a moment after
    # the new text is in (CI once looked in between and found it on <body>).
    has_focus(page.locator("#jump-go"))
    assert assert_focus_shown(page)["text"] == "Go"

    # Next to the last step: Next is no longer a link there, and the focus stays in its place.
    tab_to(page, lambda el: el["key"] == "ArrowRight", back=True)
    page.keyboard.press("Enter")
    expect(counter(page)).to_contain_text("Step 6 of 7")
    page.keyboard.press("Enter")
    expect(counter(page)).to_contain_text("Step 7 of 7")
    expect(page.locator(".banner")).to_have_text(re.compile(r"Ben wins the battle 3 rounds to 2"))
    last = assert_focus_shown(page)
    assert last["id"] == "replay-next" and last["tag"] == "SPAN", last
    page.keyboard.press("Enter")  # nothing further to step to
    expect(counter(page)).to_contain_text("Step 7 of 7")
    # From there Shift+Tab reaches Back one step, and Home goes back to the start.
    assert tab_to(page, lambda el: el["key"] == "ArrowLeft", back=True, limit=3)
    page.keyboard.press("Home")
    expect(counter(page)).to_contain_text("Step 0 of 7")
    assert_focus_shown(page)
    assert page.url.endswith("?step=0")


def test_an_evons_card_played_with_the_keyboard(page: Page, catalog):
    match = services.match_create(slug="evons", player_names=["Ana", "Ben"], config={})
    page.goto(match.get_absolute_url())
    expect(page.get_by_text("Turn 1: Ana to play")).to_be_visible()

    # Tab into the board: the first empty cell takes the focus, the arrow keys move along the cells.
    first = tab_to(page, lambda el: el["name"] == "cell")
    assert first["value"] == "X0"
    assert_focus_shown(page)
    for _ in range(8):
        page.keyboard.press("ArrowRight")
    cell = assert_focus_shown(page)
    assert cell["value"] == "A1"
    expect(page.get_by_role("radio", name=re.compile(r"^A1\b"))).to_be_checked()
    # Up and down move a whole row, in the same column.
    for key, expected in (("ArrowDown", "A2"), ("ArrowDown", "A3"), ("ArrowUp", "A2"), ("ArrowDown", "A3"),
                          ("ArrowDown", "A4"), ("ArrowDown", "A5")):
        page.keyboard.press(key)
        assert assert_focus_shown(page)["value"] == expected
    expect(page.get_by_role("radio", name=re.compile(r"^A5\b"))).to_be_checked()

    # Back to the card's name, just over the board: typed, then taken from the list.
    tab_to(page, lambda el: el["name"] == "card_name", back=True, limit=2)
    assert_focus_shown(page)
    page.keyboard.type("Ember")
    expect(page.locator(".pick").first).to_contain_text("Ember Fox")  # the list for what was typed
    tab_to(page, lambda el: el["text"].startswith("Ember Fox"), limit=2)
    assert_focus_shown(page)
    page.keyboard.press("Enter")
    expect(page.get_by_label("Card name")).to_have_value("Ember Fox")
    # The form is complete, so the picker has moved on to its button; the face is one key on (face-up is chosen).
    assert assert_focus_shown(page)["text"] == "Play the card"
    face = tab_to(page, lambda el: el["name"] == "face", limit=2)
    assert face["value"] == "up"
    assert_focus_shown(page)
    tab_to(page, lambda el: el["text"] == "Play the card", back=True, limit=2)
    page.keyboard.press("Enter")

    expect(page.get_by_text("Turn 2: Ben to play")).to_be_visible()
    expect(page.get_by_role("img", name=re.compile(r"^A5: Ember Fox; faces Ana"))).to_be_visible()
    # The board was swapped for the new one; the focus starts Ben's turn: his form's first field, the card's name
    # over the board (a tap on a cell brings the focus there too).
    after = assert_focus_shown(page)
    assert after["name"] == "card_name" and after["inForm"] == "ev-play", after
    # The outcome of the play, above the board: its close button, reached with Tab, takes the focus back to the board.
    expect(page.locator("#outcome")).to_contain_text("(log entry 1)")
    tab_to(page, lambda el: el["text"].endswith("Close"))
    assert_focus_shown(page)
    page.keyboard.press("Enter")
    expect(page.locator("#outcome .outcome-box")).to_have_count(0)
    back = assert_focus_shown(page)
    assert back["name"] == "card_name" and back["inForm"] == "ev-play", back

    # Ben: the name typed, a cell along the first row, Space on it, and Space on the button.
    page.keyboard.type("Moss Golem")
    tab_to(page, lambda el: el["name"] == "cell", limit=20)  # past the list of cards, if still open
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")
    expect(page.get_by_role("radio", name=re.compile(r"^A0\b"))).to_be_checked()
    tab_to(page, lambda el: el["text"] == "Play the card")
    assert_focus_shown(page)
    page.keyboard.press("Space")
    expect(page.get_by_text("Turn 3: Ana to play")).to_be_visible()
    expect(page.get_by_role("img", name=re.compile(r"^A0: Moss Golem; faces Ben"))).to_be_visible()
    assert focused(page)["inForm"] == "ev-play"


def test_after_the_deciding_reveal_the_focus_goes_to_the_result(page: Page, catalog):
    """The battle's last round revealed with the keyboard: the form is gone, and the focus lands on the result."""
    from tracker.models import Card

    match = services.match_create(slug="card-crush", player_names=["Ana", "Ben"], config={})
    for seat, names in enumerate((ANA_DECK, BEN_DECK)):
        services.match_apply_action(match_id=match.pk, expected_seq=seat, action={
            "type": "lock_deck", "seat": seat, "cards": [Card.named("card-crush", name).as_rules_card() for name in names]})
    for seq in range(2, 6):  # rounds 1-4: 2-2
        services.match_apply_action(match_id=match.pk, expected_seq=seq, action={"type": "play_round"})
    page.goto(match.get_absolute_url())
    tab_to(page, lambda el: el["text"] == "Reveal round 5")
    page.keyboard.press("Enter")
    expect(page.locator("#outcome")).to_contain_text("Match over:")
    result = assert_focus_shown(page)
    assert "Match over:" in result["text"], result
