"""A Lonely Star turn played in a phone browser: units from the catalog, an attack with a real
die tapped in, a status, and the end-of-turn Resist roll that clears it.

Units (demo catalog, tracker/games/lonely_star.py):
    Ana  Dust Knight    HP 7, AT 3, LK 2, RS 2, reach 1
    Ben  Nebula Warden  HP 8, AT 2, LK 2, RS 3, reach 1

    1. Dust Knight attacks; Ana rolled a 2 at the table: at most Luck 2, a crit, so
       Resist 3 is ignored and all 3 damage lands.
    2. Ben burns Dust Knight; Ana's Resist die shows 4, over Resist 2: Burn applies, AT 3 -> 2.
    3. Ana ends her turn; Dust Knight's Resist die shows 1: success, the Burn counter goes.
    4. Each player draws; Ben's turn begins.
"""

import re

import pytest
from playwright.sync_api import Page, expect

from tracker.matches import services
from tracker.models import Card, Match

from .phone import LONG_PLAYERS, assert_no_horizontal_scroll, fill_card, form_with_button, forty, outcome_says
from .test_two_phones import Phone, ben_seated

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def unit_card(page: Page, name: str):
    return page.locator(".ls-unit").filter(has=page.get_by_role("heading", name=name, exact=True))


def play_unit(page: Page, seat: int, player: str, unit: str) -> None:
    side = page.locator(f"#side-{seat}-section")
    side.get_by_text(f"{player} plays a unit").click()
    side.get_by_label("Unit card (from the catalog, or a new name)").fill(unit)
    side.get_by_role("button", name="Play the unit (takes a card from the hand)").click()
    expect(page.locator(f"#side-{seat}-section .ls-unit h3")).to_have_text([unit])


def test_attack_with_a_real_die_a_status_and_the_end_of_turn_resist(page: Page, catalog, screenshot_dir):
    page.goto("/")
    page.get_by_role("link", name="New Lonely Star match").click()
    page.get_by_label("Player 1", exact=True).fill("Ana")
    page.get_by_label("Player 2", exact=True).fill("Ben")
    expect(page.get_by_label("The app rolls (type a real die to use it instead)")).to_be_checked()
    assert_no_horizontal_scroll(page)
    page.screenshot(path=screenshot_dir / "lonely-star-new-match.png", full_page=True)
    page.get_by_role("button", name="Start").click()
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))
    match_id = int(re.search(r"/matches/(\d+)/$", page.url).group(1))
    expect(page.locator(".ls-turn")).to_have_text("▶ Turn 1: Ana")
    assert page.evaluate("typeof window.htmx") == "object"

    play_unit(page, 0, "Ana", "Dust Knight")
    play_unit(page, 1, "Ben", "Nebula Warden")

    # 1. The attack, with the die Ana rolled at the table.
    attack = form_with_button(page, "Attack with Dust Knight")
    expect(attack.get_by_label("Dust Knight attacks")).to_have_value(re.compile(r"\d+"))
    attack.get_by_label("Die rolled at the table (1–6)").fill("2")
    attack.get_by_role("button", name="Attack with Dust Knight").click()
    warden = unit_card(page, "Nebula Warden")
    expect(warden.locator(".ls-health")).to_have_text("♥ Damage 3 of 8 HP")
    expect(page.locator(".ls-last")).to_contain_text(
        "Critical Damage: Resist is ignored, 3 dealt to Nebula Warden."
    )
    expect(page.locator(".ls-last")).to_contain_text("⚄ a die rolled at the table: 2")
    page.screenshot(path=screenshot_dir / "lonely-star-attack.png", full_page=True)

    # 2. Ben burns Dust Knight; Ana's Resist die shows 4.
    page.get_by_text("Inflict a status").click()
    inflict = form_with_button(page, "Inflict")
    inflict.get_by_label("Player inflicting it").select_option(label="Ben")
    inflict.get_by_label("Unit receiving it").select_option(label="Dust Knight (Ana)")
    inflict.get_by_label("Status", exact=True).select_option(label="Burn (lowers AT)")
    inflict.get_by_label("Die rolled at the table (1–6)").fill("4")
    inflict.get_by_role("button", name="Inflict").click()
    knight = unit_card(page, "Dust Knight")
    expect(knight.locator(".ls-status")).to_have_text("◆ Burn ×1 (lowers AT)")
    expect(knight.locator("tbody tr").nth(1)).to_contain_text("2*")  # AT total 3 -> 2, marked
    page.screenshot(path=screenshot_dir / "lonely-star-status.png", full_page=True)
    assert_no_horizontal_scroll(page)

    # 3. End of turn: the Resist roll clears the Burn.
    page.get_by_role("button", name="End Ana's turn").click()
    expect(page.locator(".ls-turn")).to_contain_text("end of turn")
    resist = form_with_button(page, "Roll Resist for Dust Knight")
    resist.get_by_label("Status to remove on a success").select_option(label="Burn ×1")
    resist.get_by_label("Die rolled at the table (1–6)").fill("1")
    page.screenshot(path=screenshot_dir / "lonely-star-end-of-turn.png", full_page=True)
    resist.get_by_role("button", name="Roll Resist for Dust Knight").click()
    expect(knight.locator(".ls-status")).to_have_count(0)
    expect(page.get_by_role("button", name="Roll Resist for Dust Knight")).to_have_count(0)

    # 4. Each player draws, and it is Ben's turn.
    page.get_by_role("button", name="Each player draws; next turn").click()
    expect(page.locator(".ls-turn")).to_have_text("▶ Turn 2: Ben")
    expect(page.locator("#side-0-section .ls-zone-hand dd")).to_have_text("5")

    match = Match.objects.get(pk=match_id)
    rolls = [roll for action in match.actions.order_by("seq") for roll in action.rolls]
    assert [(r["value"], r["by"]) for r in rolls] == [(2, "player"), (4, "player"), (1, "player")]

    page.get_by_role("link", name="Log", exact=True).click()
    entries = page.locator("li.log-entry")
    expect(entries.filter(has_text="Dust Knight attacks Nebula Warden")).to_contain_text(
        "Crit roll for Dust Knight: 2 against Luck 2: success."
    )
    expect(entries.filter(has_text="Ben inflicts Burn on Dust Knight")).to_contain_text("Burn applies.")
    expect(entries.filter(has_text="End of turn: Resist roll")).to_contain_text(
        "Dust Knight removes its 1 Burn counter."
    )
    assert_no_horizontal_scroll(page)
    page.screenshot(path=screenshot_dir / "lonely-star-log.png", full_page=True)


def test_after_a_step_the_first_units_attack_is_in_view_with_the_result_with_the_longest_names(page: Page, catalog,
                                                                                                 screenshot_dir):
    """The play-test, with 40-character players and units: the result docked above the side in turn, and under it
    the side's name, its deck and hand, then the first unit's name, state and target: its Attack button was at y
    ~830 (976 to 1074 here). The result now docks above that Attack form (which names the unit): both in view."""
    quiet, dust, nebula = forty("Quiet Moon"), forty("Dust Knight"), forty("Nebula Warden")
    for name in (quiet, dust, nebula):
        model = Card.objects.get(slug="lonely-star", name=name.split(" of ")[0])
        Card.objects.create(slug="lonely-star", name=name, stats=model.stats)
    match = services.match_create(slug="lonely-star", player_names=list(LONG_PLAYERS), config={})
    for seq, (seat, unit) in enumerate(((0, quiet), (1, nebula))):
        services.match_apply_action(match_id=match.pk, expected_seq=seq, action={
            "type": "play_unit", "seat": seat, "card": Card.objects.get(slug="lonely-star", name=unit).as_rules_card()})
    page.goto(match.get_absolute_url())
    attack = page.get_by_role("button", name=f"Attack with {quiet}")

    side = page.locator("#side-0-section")
    side.get_by_text(f"{LONG_PLAYERS[0]} plays a unit").click()
    fill_card(side.get_by_label("Unit card (from the catalog, or a new name)"), dust)
    side.get_by_role("button", name="Play the unit (takes a card from the hand)").click()
    outcome_says(page, 3, f"{LONG_PLAYERS[0]} plays {dust}", next_control=attack)

    attack.click()
    outcome_says(page, 4, f"{quiet} attacks {nebula}", next_control=attack)
    page.screenshot(path=screenshot_dir / "lonely-star-attack-long-names.png", caret="initial")


def test_a_d6_leaves_the_units_as_the_phone_shows_them_and_their_forms_still_act(page: Page, catalog):
    """A plain D6 changes no unit: the answer leaves them out and the phone keeps them as they are (an open
    fold stays open). The attack form kept from before the D6 then acts on the step after it (the page's step
    goes with every form), and the attack redraws the units in it."""
    page.goto("/")
    page.get_by_role("link", name="New Lonely Star match").click()
    page.get_by_label("Player 1", exact=True).fill("Ana")
    page.get_by_label("Player 2", exact=True).fill("Ben")
    page.get_by_role("button", name="Start").click()
    play_unit(page, 0, "Ana", "Dust Knight")
    play_unit(page, 1, "Ben", "Nebula Warden")
    more = page.locator("#side-0-section details").filter(has_text="More for Dust Knight")
    more.locator("summary").click()
    expect(more).to_have_attribute("open", "")
    page.get_by_text("Plain D6").click()
    with page.expect_response(lambda r: r.request.method == "POST") as answer:
        form_with_button(page, "Roll the D6").get_by_role("button", name="Roll the D6").click()
    assert answer.value.text().count('hx-preserve></li>') == 2, "both units left out"
    expect(page.locator(".ls-last")).to_contain_text("D6")
    expect(more).to_have_attribute("open", "")
    attack = form_with_button(page, "Attack with Dust Knight")
    expect(attack.locator("[name=seq]")).to_have_value("2-2")  # drawn before the D6, at step 2 (its second log entry)
    attack.get_by_label("Die rolled at the table (1–6)").fill("2")
    with page.expect_response(lambda r: r.request.method == "POST") as answer:
        attack.get_by_role("button", name="Attack with Dust Knight").click()
    assert answer.value.status == 200 and "seq=3-3" in answer.value.request.post_data
    expect(unit_card(page, "Nebula Warden").locator(".ls-health")).to_have_text("♥ Damage 3 of 8 HP")
    expect(page.locator("#side-0-section [name=seq]").first).to_have_value("4-4")


def test_a_busy_board_fits_a_phone_in_dark_mode(make_context, catalog, screenshot_dir):
    from tracker.matches import services
    from tracker.models import Card

    match = services.match_create(slug="lonely-star", player_names=["Ana", "Bartholomew"], config={})
    actions = [
        {
            "type": "play_unit",
            "seat": seat,
            "card": Card.objects.get(slug="lonely-star", name=name).as_rules_card(),
        }
        for seat, name in ((0, "Lonely Star"), (0, "Void Spark"), (1, "Orbit Keeper"), (1, "Quiet Moon"))
    ]
    actions += [
        {"type": "equip", "seat": 1, "unit": 3, "accessory": "Starlit Mirror"},
        {"type": "inflict", "seat": 0, "target": 3, "status": "poison", "ignore_resist": True},
        {"type": "inflict", "seat": 0, "target": 3, "status": "blind", "ignore_resist": True},
        {"type": "inflict", "seat": 1, "target": 1, "status": "hex", "ignore_resist": True},
        {"type": "adjust", "override": True, "what": "stat", "unit": 2, "stat": "at", "change": 2},
        {"type": "attack", "seat": 0, "unit": 2, "target": 4},
    ]
    for seq, action in enumerate(actions):
        services.match_apply_action(match_id=match.pk, action=action, expected_seq=seq)

    page = make_context(color_scheme="dark").new_page()
    page.goto(match.get_absolute_url())
    expect(unit_card(page, "Lonely Star")).to_contain_text(
        "Luck 6: crit and Luck rolls always succeed (6 or more)."
    )
    expect(unit_card(page, "Void Spark")).to_contain_text("Luck 6: the crit always succeeds (the die shows 6 at most), no die needed.")
    expect(unit_card(page, "Orbit Keeper")).to_contain_text("Poisoned: attacking, moving or playing a card")
    expect(unit_card(page, "Orbit Keeper")).to_contain_text("Accessories: Starlit Mirror")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(20, 20, 24)"
    assert_no_horizontal_scroll(page)
    page.screenshot(path=screenshot_dir / "lonely-star-busy-dark.png", full_page=True)


def test_the_side_in_turn_comes_first_with_its_turn_controls_under_it(page: Page, catalog):
    """Half-way through the demo "deck-out" match it is Ana's turn: her side, then End turn, then Ben's side;
    each unit's totals stay in sight while its base values and rule reminders open from a fold."""
    from tracker.games import pages_for
    from tracker.matches import services

    match = pages_for("lonely-star").demo_matches["deck-out"](("Ana", "Ben"))
    match = services.match_goto(match=match, step=match.head // 2, expected_seq=match.head)
    page.goto(match.get_absolute_url())
    expect(page.locator(".ls-turn")).to_have_text("▶ Turn 1: Ana")
    sides = page.locator(".ls-side")
    expect(sides.first).to_have_id("side-0-section")
    expect(sides.first).to_have_class(re.compile(r"\bls-side-turn\b"))
    end_turn = page.get_by_role("button", name="End Ana's turn")
    tops = [sides.first.bounding_box(), end_turn.bounding_box(), page.locator("#side-1-section").bounding_box()]
    assert tops[0]["y"] + tops[0]["height"] <= tops[1]["y"] < tops[2]["y"], tops

    wanderer = unit_card(page, "Comet Wanderer")
    totals = wanderer.locator("details.ls-stats-box")
    expect(totals.locator("summary")).to_be_visible()
    expect(totals.locator("summary")).to_contain_text("LK 7*")  # the Hex lowers Luck: changed, starred
    expect(totals.locator("table")).to_be_hidden()
    totals.locator("summary").click()
    expect(totals.locator("table")).to_be_visible()
    rules = wanderer.locator("details.ls-notes-box")
    expect(rules.get_by_text("Hexed: attacking first removes")).to_be_hidden()
    rules.locator("summary").click()
    expect(rules.get_by_text("Hexed: attacking first removes")).to_be_visible()
    assert_no_horizontal_scroll(page)


def test_the_other_phones_tap_leaves_a_half_typed_form_as_it_is(make_context, catalog, screenshot_dir):
    """Ben is typing the unit he will play on his own phone when Ana rolls a D6 on hers. His page fetches the
    fresh board by itself; the form he is filling in stays open with what he typed, since the D6 did not change
    it, and it then plays the unit at the new step."""
    ana, ben = Phone(make_context(), "ana"), Phone(make_context(), "ben")
    match_id = ben_seated(ana, ben, "lonely-star")
    ana.page.goto(f"/matches/{match_id}/")

    side = ben.page.locator("#side-1-section")
    side.get_by_text("Ben plays a unit").click()
    side.get_by_label("Unit card (from the catalog, or a new name)").fill("Nebula Ward")
    ana.page.get_by_text("Plain D6").click()
    form_with_button(ana.page, "Roll the D6").get_by_role("button", name="Roll the D6").click()
    expect(ana.page.locator(".ls-last")).to_contain_text("D6")
    ben.next_poll()
    expect(ben.page.locator(".ls-last")).to_contain_text("D6")
    expect(side.locator("details.ls-more")).to_have_attribute("open", "")
    expect(side.get_by_label("Unit card (from the catalog, or a new name)")).to_have_value("Nebula Ward")
    ben.shot(screenshot_dir, "ls-half-typed-kept")
    side.get_by_label("Unit card (from the catalog, or a new name)").fill("Nebula Warden")
    side.get_by_role("button", name="Play the unit (takes a card from the hand)").click()
    expect(side.locator(".ls-unit h3")).to_have_text(["Nebula Warden"])
    # Ana's turn: Ben's phone is offered no "End Ana's turn" (his phone would only be refused it), and says whose
    # tap it is; the D6 rolls for his own seat alone.
    expect(ben.page.get_by_role("button", name="End Ana's turn")).to_have_count(0)
    expect(ben.page.get_by_text("Ana ends the turn on their phone.")).to_be_visible()
    expect(ben.page.locator("#d6-seat option")).to_have_text(["Ben"])
    expect(ana.page.get_by_role("button", name="End Ana's turn")).to_be_visible()
    ben.page.get_by_text("Ana ends the turn on their phone.").scroll_into_view_if_needed()
    ben.page.screenshot(path=screenshot_dir / "ls-other-phone-waits-for-the-turn.png", caret="initial")


def test_another_phones_tap_leaves_the_page_where_the_player_is_reading(make_context, catalog):
    """Ben is reading the table's forms further down his own phone when Ana plays a unit on hers. His page shows the
    news where the next step starts, but what he was reading stays where it was: only his own taps scroll the page
    to their result."""
    ana, ben = Phone(make_context(), "ana"), Phone(make_context(), "ben")
    match_id = ben_seated(ana, ben, "lonely-star")
    ana.page.goto(f"/matches/{match_id}/")
    reading = "document.getElementById('ls-overrides').getBoundingClientRect().top"
    ben.page.evaluate("document.getElementById('ls-overrides').scrollIntoView({ block: 'center' })")
    before = ben.page.evaluate(reading)
    side = ana.page.locator("#side-0-section")
    side.get_by_text("Ana plays a unit").click()
    side.get_by_label("Unit card (from the catalog, or a new name)").fill("Nebula Warden")
    side.get_by_role("button", name="Play the unit (takes a card from the hand)").click()
    expect(ana.page.locator("#outcome")).to_contain_text("(log entry 1)")
    ben.next_poll()
    expect(ben.page.locator("#outcome")).to_contain_text("Nebula Warden")
    ben.page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    assert abs(ben.page.evaluate(reading) - before) <= 2, "the other phone's news moved what Ben was reading"


def test_undoing_a_d6_the_app_rolled_asks_the_other_phone(make_context, catalog, screenshot_dir):
    """Ana rolls a plain D6 on her phone and sees the die. The same step played again rolls the same die, so taking
    it back alone would let her play that step as whatever the die suits: her Undo asks Ben, who refuses."""
    ana, ben = Phone(make_context(), "ana"), Phone(make_context(), "ben")
    match_id = ben_seated(ana, ben, "lonely-star")
    ana.page.goto(f"/matches/{match_id}/")
    ana.page.get_by_text("Plain D6").click()
    form_with_button(ana.page, "Roll the D6").get_by_role("button", name="Roll the D6").click()
    expect(ana.page.locator(".ls-last")).to_contain_text("D6")
    ana.page.get_by_role("button", name="Undo last step").click()
    expect(ana.page.get_by_text("Asked Ben to agree; nothing changes until they do.")).to_be_visible()
    ana.shot(screenshot_dir, "ls-undo-a-die-asks")
    request = ben.page.locator(".requests")
    ben.next_poll()
    expect(request).to_contain_text("Ana asks: go back to step 0, taking back a die the app rolled.")
    ben.shot(screenshot_dir, "ls-asked-to-take-back-a-die")
    request.get_by_role("button", name="Refuse").click()
    expect(ben.page.get_by_text("Ben refused; nothing was changed.")).to_be_visible()
    assert Match.objects.get(pk=match_id).head == 1
