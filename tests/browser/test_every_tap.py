"""Every kind of tap in every game, on a 360x740 and a 390x844 phone: the outcome box tells what came of it
(the step and its working, not a generic sentence) wholly in view and within about a third of the screen;
a refused form keeps what was typed; no page scrolls sideways with the longest player and card names; no
tap target is under 44x44 px; nothing is logged as an error (CSP refusals included).

One match per game and size, played from the demo catalog (tests/browser/conftest.py: catalog); players
have the longest names a name may have and one card the longest card name (tests/browser/phone.py).
"""

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from tracker.matches import services
from tracker.models import Card, Club, Membership

from .phone import (
    LONG_CARD,
    LONG_PLAYERS,
    check_page,
    fill_card,
    form_with_button,
    hand_to,
    handed_on,
    has_focus,
    in_view,
    outcome_says,
    sign_in,
    watch_errors,
)
from .test_match_review import BEN_DECK

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ANA, BEN = LONG_PLAYERS


@pytest.fixture(params=[pytest.param({"width": 360, "height": 740}, id="360x740"),
                        pytest.param({"width": 390, "height": 844}, id="390x844")])
def phone(request, make_context, catalog) -> Page:
    return make_context(viewport=request.param).new_page()


@pytest.fixture
def shot(phone: Page, screenshot_dir):
    """Keep what the phone shows now as var/screenshots/outcome-<name>-<size>.png, to look at the box."""
    size = f"{phone.viewport_size['width']}x{phone.viewport_size['height']}"
    # caret="initial": hiding the caret would add an inline style, which the CSP refuses.
    return lambda name: phone.screenshot(path=screenshot_dir / f"outcome-{name}-{size}.png", caret="initial")


def catalog_card(slug: str, name: str) -> dict:
    return Card.objects.get(slug=slug, name=name).as_rules_card()


# --- Lonely Star ---------------------------------------------------------------------------------------


def test_lonely_star(phone: Page, shot):
    """A new unit (refused without its LK, then played), a catalog unit, an attack with a die rolled at the
    table, one the app rolls, a status inflicted and damage from a card effect."""
    page, errors = phone, watch_errors(phone)
    match = services.match_create(slug="lonely-star", player_names=list(LONG_PLAYERS), config={})
    page.goto(match.get_absolute_url())
    side = page.locator("#side-0-section")
    side.locator("summary").first.click()
    fill_card(side.get_by_label("Unit card (from the catalog, or a new name)"), LONG_CARD)
    for stat, value in (("hp", "5"), ("at", "2"), ("rs", "1"), ("reach", "1")):  # LK left out: refused
        page.locator(f"#unit-{stat}-0").fill(value)
    play = side.get_by_role("button", name="Play the unit (takes a card from the hand)")
    play.click()
    outcome_says(page, None, "Not applied:", "LK", "in the catalog, so all its stats are needed")
    shot("lonely-star-unit-refused")  # the reason across the form, the stats left to type on the screen
    expect(page.locator("#unit-name-0")).to_have_value(LONG_CARD)
    for stat, value in (("hp", "5"), ("at", "2"), ("rs", "1"), ("reach", "1")):
        expect(page.locator(f"#unit-{stat}-0")).to_have_value(value)
    page.locator("#unit-lk-0").fill("2")
    play.click()
    outcome_says(page, 1, f"{ANA} plays {LONG_CARD}")

    for seq, (seat, unit) in enumerate(((1, "Nebula Warden"), (0, "Quiet Moon")), start=1):
        services.match_apply_action(match_id=match.pk, expected_seq=seq, action={
            "type": "play_unit", "seat": seat, "card": catalog_card("lonely-star", unit)})
    page.reload()

    attack = form_with_button(page, f"Attack with {LONG_CARD}")
    attack.get_by_label("Die rolled at the table (1–6)").fill("2")
    attack.get_by_role("button", name=f"Attack with {LONG_CARD}").click()
    # With the longest names the box holds the roll; the damage (on the board too) folds.
    outcome_says(page, 4, f"{LONG_CARD} attacks Nebula Warden", f"Crit roll for {LONG_CARD}: 2 against Luck 2: success.",
                 "The whole working (2 more lines)")
    shot("lonely-star")
    check_page(page)

    form_with_button(page, "Attack with Quiet Moon").get_by_role("button", name="Attack with Quiet Moon").click()
    # The app rolls: a crit or not, the box says the roll (what was dealt folds or not, as the lines fit the box).
    outcome_says(page, 5, "Quiet Moon attacks Nebula Warden", "Crit roll for Quiet Moon: ")

    page.get_by_text("Inflict a status").click()
    inflict = form_with_button(page, "Inflict")
    inflict.get_by_label("Player inflicting it").select_option(label=BEN)
    inflict.get_by_label("Unit receiving it").select_option(label=f"Quiet Moon ({ANA})")
    inflict.get_by_label("Status", exact=True).select_option(label="Burn (lowers AT)")
    inflict.get_by_label("Die rolled at the table (1–6)").fill("4")
    inflict.get_by_role("button", name="Inflict").click()
    outcome_says(page, 6, f"{BEN} inflicts Burn on Quiet Moon", "Resist roll for Quiet Moon: 4 against Resist 2")

    page.get_by_text("Damage from a card effect").click()
    effect = form_with_button(page, "Deal the damage")
    effect.get_by_label("Unit taking the damage").select_option(label=f"Nebula Warden ({BEN})")
    effect.get_by_label("Damage", exact=True).fill("2")
    effect.get_by_label("The effect ignores Resist (no crit roll)").check()
    effect.get_by_role("button", name="Deal the damage").click()
    # Under the title with the card's name, the HP left (on the board too) folds.
    outcome_says(page, 7, "2 damage ignoring Resist: 2 dealt to Nebula Warden.", "The whole working (1 more line)")
    check_page(page)
    assert errors == []


# --- Card Crush and LOGOS: a secret entry on a handed-over phone, then the reveal ------------------------


def secret_entry(page: Page, name: str, fields: dict[str, str], button: str) -> None:
    """Hand the phone to `name`, fill in the secret entry's fields by label and send it."""
    hand_to(page, name)
    page.get_by_role("link", name=f"I am {name}: show my entry").click()
    for label, value in fields.items():
        fill_card(page.get_by_label(label, exact=True), value)
    page.get_by_role("button", name=button).click()


def deck(cards: list[str]) -> dict[str, str]:
    return {f"Round {number} card": card for number, card in enumerate(cards, start=1)}


def test_card_crush(phone: Page, shot):
    """A deck refused (a card twice) keeps every card typed; two decks locked in, revealed; five rounds, the
    fourth decided by the Speed tiebreak, the fifth ending the battle (the demo's rulebook-like battle)."""
    page, errors = phone, watch_errors(phone)
    storm = Card.objects.get(slug="card-crush", name="Storm Caller")
    Card.objects.create(slug="card-crush", name=LONG_CARD, stats=storm.stats)
    match = services.match_create(slug="card-crush", player_names=list(LONG_PLAYERS), config={})
    page.goto(match.get_absolute_url())
    twice = ["Ember Fox", LONG_CARD, "Stone Golem", "Phoenix", "Phoenix"]
    secret_entry(page, ANA, deck(twice), "Lock in my deck")
    expect(page.get_by_role("alert")).to_contain_text("Not locked")
    # It opens on the refused card, why just above it (refused_forms, as every refused form).
    has_focus(page.get_by_label("Round 5 card", exact=True))
    in_view(page, "#id_card_5_error")
    for label, card in deck(twice).items():
        expect(page.get_by_label(label, exact=True)).to_have_value(card)
    check_page(page)
    fill_card(page.get_by_label("Round 5 card", exact=True), "Gale Sprite")
    page.get_by_role("button", name="Lock in my deck").click()
    handed_on(page, BEN, f"{ANA} is locked in. The entry is hidden.")

    secret_entry(page, BEN, deck(BEN_DECK),
                 "Lock in my deck")
    outcome_says(page, 2, "The entries are revealed", "Both decks revealed. Team Initiative:")
    expect(page.locator("#outcome")).not_to_contain_text("Tide Runner")  # later rounds stay face down
    for number, working in ((1, "Water over Fire +3: 6 + 3 = 9 beats 7 + 0 = 7."), (2, f"{ANA} wins."),
                            (3, f"{BEN} wins."), (4, "Fire over Shadow +1: 9 + 1 = 10 ties 10 + 0 = 10; Speed 8 beats 5."),
                            (5, "Nature over Air +1: 5 + 1 = 6 beats 4 + 0 = 4.")):
        page.get_by_role("button", name=f"Reveal round {number}").click()
        outcome_says(page, number + 2, f"Round {number} revealed", working, next_control=page.get_by_role(
            "button", name=f"Reveal round {number + 1}") if number < 5 else None)
    outcome_says(page, 7, f"Match over: {BEN} wins 3 rounds to 2.", f"{BEN} wins the battle 3 rounds to 2.")
    shot("card-crush")
    check_page(page)
    assert errors == []


def commit(page: Page, name: str, card: str, backup: str = "") -> None:
    fields = {"Card to play": card}
    if backup:
        fields["Card to send to the backup slot (optional)"] = backup
    secret_entry(page, name, fields, "Commit this card")


def test_logos(phone: Page, shot):
    """A commit refused (the combo's colours are not on the counter) keeps the card typed; two commits
    revealed, the fight; then two cards alike in class and SPEED: a Deadlock ends the round at the reveal."""
    page, errors = phone, watch_errors(phone)
    Card.objects.create(slug="logos", name=LONG_CARD, stats=Card.objects.get(slug="logos", name="Granite Fist").stats)
    match = services.match_create(slug="logos", player_names=list(LONG_PLAYERS), config={})
    page.goto(match.get_absolute_url())
    commit(page, ANA, "Rulebook Datacard")
    expect(page.get_by_role("alert")).to_contain_text("combo panel 2 needs blue")
    in_view(page, "[role=alert]")
    expect(page.get_by_label("Card to play", exact=True)).to_have_value("Rulebook Datacard")
    check_page(page)
    fill_card(page.get_by_label("Card to play", exact=True), LONG_CARD)
    page.get_by_role("button", name="Commit this card").click()
    handed_on(page, BEN, f"{ANA} is locked in. The entry is hidden.")
    commit(page, BEN, "Solar Flare")
    # Who attacks, with both 40-letter names, is four rows: under the lock-in's message it folds (the board says it).
    outcome_says(page, 2, "The entries are revealed", f"{BEN} is locked in.", "The whole working (4 more lines)",
                 next_control=page.get_by_role("button", name="Fight"))
    page.get_by_role("button", name="Fight").click()
    # The round's end stands open; the damage, four rows with both names, folds (the board shows the HP).
    outcome_says(page, 3, "Fight", "Round 1 is over.", "The whole working (3 more lines)")
    check_page(page)

    commit(page, ANA, "Iron Golem")
    commit(page, BEN, "Iron Golem")
    # Under the lock-in's message with both names, the round's end stands open and why (the Deadlock) folds.
    outcome_says(page, 5, "The entries are revealed", "Round 2 is over.", "The whole working (2 more lines)")
    shot("logos-deadlock")
    check_page(page)
    assert errors == []


# --- Evons ---------------------------------------------------------------------------------------------


def tap_and_play(page: Page, cell: str, card: str) -> None:
    page.get_by_role("radio", name=re.compile(rf"^{cell}\b")).tap()
    fill_card(page.get_by_label("Card name"), card)
    page.get_by_role("button", name="Play the card").tap()


def test_evons(phone: Page, shot):
    """A card played on a tapped cell (a mistyped name refused first, keeping the cell and the name), the
    other side's card, and a card whose arrow flips it."""
    page, errors = phone, watch_errors(phone)
    Card.objects.create(slug="evons", name=LONG_CARD, stats=Card.objects.get(slug="evons", name="Ember Fox").stats)
    match = services.match_create(slug="evons", player_names=list(LONG_PLAYERS), config={})
    page.goto(match.get_absolute_url())
    tap_and_play(page, "E5", "Dust Mol")
    outcome_says(page, None, "Not applied:", "No card called “Dust Mol”")
    expect(page.get_by_role("radio", name=re.compile(r"^E5\b"))).to_be_checked()
    expect(page.get_by_label("Card name")).to_have_value("Dust Mol")
    fill_card(page.get_by_label("Card name"), "Dust Mole")
    page.get_by_role("button", name="Play the card").tap()
    # Evons' box is a quarter of the screen: with the longest names the score (above the board too) folds.
    outcome_says(page, 1, f"{ANA} plays Dust Mole on E5", "The whole working")
    tap_and_play(page, "C3", "Night Crow")
    outcome_says(page, 2, f"{BEN} plays Night Crow on C3", "The whole working")
    tap_and_play(page, "B3", LONG_CARD)
    outcome_says(page, 3, f"{ANA} plays {LONG_CARD} on B3", f"C3 flipped to {ANA}.", "The whole working")
    shot("evons-flip")
    check_page(page)
    assert errors == []


# --- Cardmaster ----------------------------------------------------------------------------------------


def cardmaster_card(page: Page, name: str):
    return page.locator("article.cm-card").filter(has=page.get_by_role("heading", name=name, exact=True))


def test_cardmaster(phone: Page, shot):
    """A 6v6 (three in reserve): a correction refused (HP over the card's most) keeps the card and value
    picked, then made; an A1 attack, a STACK and a Shift in Ana's possession; Ben's SPC, an A1 that fells a
    card carrying a stacked gem (the gem gamble: raided) and the raided gem deposited."""
    page, errors = phone, watch_errors(phone)
    Card.objects.create(slug="cardmaster", name=LONG_CARD,
                        stats=Card.objects.get(slug="cardmaster", name="Storm Kite").stats)
    match = services.match_create(slug="cardmaster", player_names=list(LONG_PLAYERS), config={"size": 6})
    lineups = (["Gale Harrier", LONG_CARD, "Volt Lancer", "Cinder Wolf", "Spark Imp", "Umbral Shade"],
               ["Stonewarden", "Granite Brute", "Reef Sentinel", "Ember Titan", "Glacier Knight", "Tidecaller"])
    for seat, names in enumerate(lineups):
        services.match_apply_action(match_id=match.pk, expected_seq=seat, action={
            "type": "lock_lineup", "seat": seat, "cards": [catalog_card("cardmaster", name) for name in names]})
    page.goto(match.get_absolute_url())

    page.get_by_text("Correct HP or gems by hand (manual override)").click()
    correction = form_with_button(page, "Correct the card")
    correction.get_by_label("Card", exact=True).select_option("A2")  # the long-named card
    correction.get_by_label("New value").fill("99999")
    correction.get_by_role("button", name="Correct the card").click()
    outcome_says(page, None, "Not applied:")
    expect(correction.get_by_label("Card", exact=True)).to_have_value("A2")
    expect(correction.get_by_label("New value")).to_have_value("99999")
    correction.get_by_label("New value").fill("1")
    correction.get_by_role("button", name="Correct the card").click()
    outcome_says(page, 3, "Correction by hand", f"{LONG_CARD}'s HP set by hand: 480 → 1.")

    gale = cardmaster_card(page, "Gale Harrier")
    gale.get_by_role("radio", name=re.compile("^Stonewarden")).check()
    gale.get_by_role("button", name=re.compile(r"^A1\b")).click()
    outcome_says(page, 4, "Gale Harrier: A1 on Stonewarden",
                 "Gale Harrier hits Stonewarden: 115 damage (×2 ➶ Gale); Stonewarden has 985 HP left.")
    check_page(page)
    cardmaster_card(page, LONG_CARD).get_by_role("button", name=re.compile(r"^STACK\b")).click()
    outcome_says(page, 5, f"{LONG_CARD}: STACK", f"{LONG_CARD} stacks a gem: 2 shown.")
    volt = cardmaster_card(page, "Volt Lancer")
    volt.get_by_label("Shift in").select_option("A4")  # Cinder Wolf
    volt.get_by_role("button", name=re.compile(r"^Shift\b")).click()
    outcome_says(page, 6, "Volt Lancer: Shift, Cinder Wolf comes in", "Volt Lancer shifts out for Cinder Wolf", f"{BEN} has possession.")

    stone = cardmaster_card(page, "Stonewarden")
    stone.get_by_label(re.compile("^SPC boost")).select_option(label="ATK")
    stone.get_by_role("button", name=re.compile(r"^SPC\b")).click()
    outcome_says(page, 7, "Stonewarden: SPC", "Stonewarden uses SPC: ATK +12")
    brute = cardmaster_card(page, "Granite Brute")
    brute.get_by_role("radio", name=re.compile(rf"^{LONG_CARD}")).check()
    brute.get_by_role("button", name=re.compile(r"^A1\b")).click()
    # The fall and its raided gem stand open; the damage that felled it and who steps in fold.
    outcome_says(page, 8, f"Granite Brute: A1 on {LONG_CARD}",
                 f"{LONG_CARD} falls. Its 1 stacked gem is raided into {BEN}'s pool.", "The whole working (2 more lines)")
    shot("cardmaster-fall")
    cardmaster_card(page, "Reef Sentinel").get_by_role("button", name=re.compile("^Deposit 1 raided gem")).click()
    outcome_says(page, 9, "One raided gem deposited on Reef Sentinel: 2 shown, 0 left in the pool.")
    check_page(page)
    assert errors == []


# --- the match list ------------------------------------------------------------------------------------

# Each filter whose chosen option does not fit its select (the text, measured in the select's font, against
# its width less padding and about 20 px for the arrow): a phone would cut it, "Any club or n…".
CUT_SELECTS = """() => [...document.querySelectorAll('.filters select')].filter(select => {
  const style = getComputedStyle(select), pen = document.createElement('canvas').getContext('2d');
  pen.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
  return pen.measureText(select.options[select.selectedIndex].text).width > room;
}).map(select => select.name)"""


def test_the_match_lists_filters_and_scores_read_whole(phone: Page, live_server):
    """As a member of a club with the longest allowed name: only a phone in a club gets the club filter."""
    from tracker.games.evons.demo import MATCHES

    page, errors = phone, watch_errors(phone)
    next(iter(MATCHES.values()))(LONG_PLAYERS)
    member = get_user_model().objects.create_user("member")
    club = Club.objects.create(name="C" * Club._meta.get_field("name").max_length)
    Membership.objects.create(club=club, user=member, role=Membership.MEMBER)
    sign_in(page.context, live_server.url, "member")
    page.goto("/matches/")
    expect(page.get_by_label("Club")).to_have_value("")
    assert page.evaluate(CUT_SELECTS) == []
    expect(page.locator(".row-meta").first).to_contain_text(re.compile(r"\d+ points? to \d+"))  # what is counted
    check_page(page)
    assert errors == []
