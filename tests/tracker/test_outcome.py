"""The result comes to the player: after a tap the outcome (the step's working, or the refusal and why)
is in the outcome region, and a refused form comes back as the player left it, with or without htmx.

Lonely Star stands in for every game's board: its forms are many (one attack form per unit, folds
with typed stats), so picking out the form that was sent matters. Ana (seat 0) plays first.
"""

import re

import pytest
from django.urls import reverse

from tracker.matches import services
from tracker.models import Card, Match

from .helpers import entry_data, entry_token, entry_url, text

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
NEW_UNIT = {"action": "play_unit", "seat": "0", "name": "Brand New Unit", "hp": "5", "at": "2", "lk": "", "rs": "1"}


def start(**config) -> Match:
    from tracker.games.lonely_star.demo import CARDS

    for card in CARDS:
        Card.objects.get_or_create(slug="lonely-star", name=card["name"],
                                   defaults={"stats": {k: v for k, v in card.items() if k != "name"}})
    return services.match_create(slug="lonely-star", player_names=["Ana", "Ben"], config=config)


def fielded(**config) -> Match:
    """Ana's Quiet Moon (id 1) and Ember Drifter (id 2) against Ben's Dust Knight (id 3)."""
    match = start(**config)
    for seat, name in ((0, "Quiet Moon"), (0, "Ember Drifter"), (1, "Dust Knight")):
        card = Card.objects.get(slug="lonely-star", name=name).as_rules_card()
        services.match_apply_action(match_id=match.pk, expected_seq=match.head, action={
            "type": "play_unit", "seat": seat, "card": card})
        match.refresh_from_db()
    return match


def post(client, match, data, **headers):
    return client.post(reverse("match_act", args=[match.pk]), {"seq": match.head, **data}, **headers)


def field(page: str, element_id: str) -> str:
    """The start tag of the element with this id."""
    return re.search(rf'<[^>]*id="{element_id}"[^>]*>', page).group(0)


def outcome(page: str) -> str:
    return re.search(r'<div id="outcome".*?</div>\s*</div>|<div id="outcome"[^>]*></div>', page, re.S).group(0)


# --- the match page -----------------------------------------------------------------------------


def test_a_plain_post_refused_comes_back_with_the_new_unit_typed_in_and_its_fold_open(client):
    match = start()
    response = post(client, match, NEW_UNIT)
    assert response.status_code == 422
    page = text(response)
    assert "in the catalog, so all its stats are needed (missing: LK" in outcome(page)
    assert 'value="Brand New Unit"' in field(page, "unit-name-0")
    assert 'value="5"' in field(page, "unit-hp-0") and 'value="1"' in field(page, "unit-rs-0")
    assert re.search(r'<details class="ls-more" open>\s*<summary>\+ Ana plays a unit', page)
    assert 'value="Brand New Unit"' not in field(page, "unit-name-1")  # Ben's fold is untouched


def test_htmx_refused_at_the_current_step_changes_only_the_outcome(client):
    match = fielded(who_rolls="players")
    response = post(client, match, {"action": "attack", "unit": "1", "target": "3", "roll": ""}, **HTMX)
    assert response.status_code == 422
    assert response["HX-Reswap"] == "none"  # the board and every form stay as they are
    page = text(response)
    assert 'id="match"' not in page
    assert 'hx-swap-oob="innerHTML"' in page and "Not applied:" in page and "players roll" in page


def test_htmx_refused_from_an_old_step_brings_the_fresh_board_with_the_form_filled_in(client):
    match = fielded()
    stale = match.head - 1
    response = client.post(reverse("match_act", args=[match.pk]),
                           {"seq": stale, "action": "attack", "unit": "2", "target": "3", "roll": "4"}, **HTMX)
    assert response.status_code == 409
    page = text(response)
    assert 'id="match"' in page and "Not applied:" in outcome(page)
    assert 'value="4"' in field(page, "roll-attack-2")
    assert 'value="4"' not in field(page, "roll-attack-1")


def test_htmx_success_shows_the_step_and_its_working_in_the_outcome(client):
    match = fielded()
    response = post(client, match, {"action": "attack", "unit": "1", "target": "3", "roll": "1"}, **HTMX)
    assert response.status_code == 200
    page = text(response)
    shown = outcome(page)
    assert 'hx-swap-oob="innerHTML"' in shown and 'role="status"' in shown and 'aria-live="polite"' in shown
    assert "(log entry 4)" in shown
    # The board's own last-step section may be scrolled away: the box says the working too, where the eyes are.
    assert "Crit roll for Quiet Moon: 1 against Luck 4: success." in page.replace(shown, "")
    assert "<strong>Quiet Moon attacks Dust Knight</strong>" in shown
    assert "Crit roll for Quiet Moon: 1 against Luck 4: success." in shown
    assert "Done: the board shows what happened." not in shown


def test_a_plain_post_success_redirects_and_the_page_then_tells_the_step(client):
    match = fielded()
    response = post(client, match, {"action": "attack", "unit": "1", "target": "3", "roll": "1"})
    assert response.status_code == 302
    shown = outcome(text(client.get(response["Location"])))
    assert "(log entry 4)" in shown
    assert "(log entry 4)" not in outcome(text(client.get(response["Location"])))  # told once


def test_the_live_refresh_leaves_the_outcome_alone(client):
    match = fielded()
    page = text(client.get(match.get_absolute_url(), **HTMX))
    assert 'id="match"' in page and 'id="outcome"' not in page



# --- Card Crush deck entry: adding a card on the spot keeps the deck typed so far ---------------------


WYRM = {"new-name": "Magma Wyrm", "new-power": "8", "new-speed": "4", "new-affinity": "Fire", "new-rarity": "Epic",
        "new-level": "1"}


def test_adding_a_card_from_the_deck_entry_keeps_the_deck_typed_so_far(client, match):
    typed = entry_data(match, 0, ["Ember Fox", "Storm Caller"], add_card="1", **WYRM)
    response = client.post(entry_url(match, 0), typed)
    assert response.status_code == 200
    page = text(response)
    assert Card.objects.filter(slug="card-crush", name="Magma Wyrm").exists()
    assert "Magma Wyrm added to the catalog." in page
    assert 'value="Ember Fox"' in field(page, "id_card_1") and 'value="Storm Caller"' in field(page, "id_card_2")
    assert not re.search(r'value="[^"]', field(page, "id_new-name"))  # the card form is ready for the next one: empty
    match.refresh_from_db()
    assert match.head == 0  # nothing locked


def test_a_refused_card_from_the_deck_entry_keeps_the_deck_and_the_card(client, match):
    typed = entry_data(match, 0, ["Ember Fox"], add_card="1", **{**WYRM, "new-name": "Phoenix"})  # already there
    response = client.post(entry_url(match, 0), typed)
    assert response.status_code == 422
    page = text(response)
    assert 'value="Ember Fox"' in field(page, "id_card_1") and 'value="Phoenix"' in field(page, "id_new-name")
    assert 'value="8"' in field(page, "id_new-power")
    assert Card.objects.filter(slug="card-crush", name__iexact="phoenix").count() == 1


# --- every game's box: the step in short, the match's end with what its score counts ----------------------


def test_a_cardmaster_attack_says_its_damage_and_folds_its_formula(client, catalog):
    from tracker.games.cardmaster.demo import STONE_LINEUP, STORM_LINEUP, locked

    match = locked([STORM_LINEUP, STONE_LINEUP])
    response = post(client, match, {"card": "A1", "action": "a1", "target": "B1"}, **HTMX)
    shown = outcome(text(response))
    assert "<strong>Gale Harrier: A1 on Stonewarden</strong>" in shown
    opened, folded = shown.split("<details")
    assert "<li>Gale Harrier hits Stonewarden: 115 damage (×2 ➶ Gale); Stonewarden has 985 HP left.</li>" in opened
    assert "ATK 300 × 0.33 × 2 (➶ Gale) × (1 − DEF 420/1000) = 115 damage" in folded  # the whole working


def test_a_logos_deadlock_at_the_reveal_is_told_in_the_box(client, catalog):
    match = services.match_create(slug="logos", player_names=["Ana", "Ben"], config={})
    for seat in (0, 1):
        match.refresh_from_db()
        response = client.post(reverse("match_entry", args=[match.pk, seat]), {
            "seq": match.head, "entry_token": entry_token(match, seat), "card": "Iron Golem", "backup": ""})
        assert response.status_code == 302
    shown = outcome(text(client.get(response["Location"])))
    assert "Ben is locked in.</p>" in shown and "Ben is locked in. The entry is hidden." not in shown  # revealed
    assert "<strong>The entries are revealed</strong>" in shown and "(log entry 2)" in shown
    assert "Both cards are red (MATTER) with SPEED 20: Deadlock." in shown
    assert "Round 1 is over." in shown


def test_a_locked_entry_that_reveals_nothing_says_only_that_it_is_hidden(client, match):
    response = client.post(entry_url(match, 0), entry_data(
        match, 0, ["Ember Fox", "Storm Caller", "Stone Golem", "Phoenix", "Gale Sprite"]))
    # Hot-seat: the phone is handed on to Ben's pass screen, which tells it (and nothing of a log entry).
    assert response["Location"] == reverse("match_pass", args=[match.pk, 1])
    shown = text(client.get(response["Location"]))
    assert "Ana is locked in. The entry is hidden." in shown and "log entry" not in shown


def test_the_step_that_ends_the_match_says_who_won_and_what_the_score_counts(client, match):
    from tracker.games.card_crush.demo import deck

    for seat, names in enumerate((["Ember Fox", "Storm Caller", "Stone Golem", "Phoenix", "Gale Sprite"],
                                  ["Tide Runner", "Frost Wisp", "Sky Lancer", "Void Lord", "Thorn Sprout"])):
        services.match_apply_action(match_id=match.pk, expected_seq=seat,
                                    action={"type": "lock_deck", "seat": seat, "cards": deck(names)})
    for seq in range(2, 6):
        services.match_apply_action(match_id=match.pk, expected_seq=seq, action={"type": "play_round"})
    match.refresh_from_db()
    shown = outcome(text(post(client, match, {"action": "play_round"}, **HTMX)))
    assert "<strong>Match over: Ben wins 3 rounds to 2.</strong>" in shown
    assert "Ben wins the battle 3 rounds to 2." in shown
    match.refresh_from_db()
    assert match.shown_score == "3 rounds to 2"


@pytest.mark.parametrize(("slug", "score", "shown"), [
    ("card-crush", "3-1", "3 rounds to 1"),
    ("logos", "15,000-0", "15,000 HP left to 0"),
    ("cardmaster", "1-0", "1 card standing to 0"),
    ("cardmaster", "3-0", "3 cards standing to 0"),
    ("evons", "2-2", "2 points to 2"),
    ("lonely-star", "by deck-out", "by deck-out"),
])
def test_a_score_says_what_its_numbers_count_in_the_games_words(slug, score, shown):
    from tracker.games import pages_for
    from tracker.matches import numbers

    assert numbers.shown_score(score, pages_for(slug).score_counted) == shown
