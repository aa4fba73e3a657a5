"""Board actions are Django forms (tracker/games/board_forms.py): a refused one comes back bound, as the
player left it, with why beside the field it concerns; a forged post gets a clear message, never a 500.

Plain posts (no htmx): the page is drawn anew with the refused form in it. Each game's own refusal.
"""

import html
import re

import pytest
from django.urls import reverse

from tests.sample_game import every_game
from tracker.games import pages_for
from tracker.matches import services
from tracker.models import Match

from .helpers import lock_both, snapshot, text

pytestmark = pytest.mark.django_db


def post(client, match: Match, data: dict, status: int) -> str:
    """A refused post: its status, nothing changed, and the page as HTML."""
    match.refresh_from_db()
    before = snapshot(match)
    response = client.post(reverse("match_act", args=[match.pk]), {"seq": match.head, **data})
    assert response.status_code == status, re.findall(r"Not applied:.*", text(response))
    assert snapshot(match) == before
    return text(response)


def form_of(page: str, marker: str) -> str:
    """The <form> element holding `marker`."""
    at = page.index(marker)
    return page[page.rindex("<form", 0, at):page.index("</form>", at)]


def tag(page: str, element_id: str) -> str:
    return re.search(rf'<[^>]*id="{element_id}"[^>]*>', page).group(0)


def beside(page: str, element_id: str, message: str) -> bool:
    """Whether `message` is the error drawn right after the control `element_id` (before the next control)."""
    after = page[page.index(f'id="{element_id}"'):]
    after = after[:re.search(r"<(input|select|button)\b", after[1:]).start() + 1]
    return bool(re.search(r'<p class="error" role="alert">.*?' + re.escape(html.escape(message, quote=True)), after, re.S))


def test_lonely_star_moving_cards_to_the_same_zone_comes_back_picked_with_why_beside_the_zone(client, catalog):
    match = services.match_create(slug="lonely-star", player_names=["Ana", "Ben"], config={})
    page = post(client, match, {"action": "adjust", "what": "cards", "seat": "1", "source": "hand", "target": "hand",
                                "count": "2"}, 422)
    form = form_of(page, 'name="what" value="cards"')
    assert 'value="2"' in tag(form, "cards-count")
    assert re.search(r'<option value="1"\s+selected>Ben</option>', form)
    assert re.search(r'<option value="hand"\s+selected>', form[form.index('id="cards-source"'):form.index('id="cards-target"')])
    assert beside(form, "cards-target", "Cards must move to a different zone.")
    assert re.search(r'<details class="ls-more" open>\s*<summary>Move cards between zones', page)
    assert 'name="seq" value="0-0"' in form  # the step number is the fresh one, drawn anew


def test_lonely_star_a_die_that_is_no_d6_stands_beside_the_die_field(client, catalog):
    match = services.match_create(slug="lonely-star", player_names=["Ana", "Ben"], config={})
    page = post(client, match, {"action": "d6", "seat": "1", "roll": "9"}, 422)
    assert 'value="9"' in tag(page, "roll-d6")
    assert beside(page, "roll-d6", "A D6 shows 1 to 6; “9” is not a roll.")
    assert re.search(r'<option value="1"\s+selected>Ben</option>', form_of(page, 'id="roll-d6"'))


def test_logos_hp_out_of_range_comes_back_typed_with_why_beside_it(client, catalog):
    match = services.match_create(slug="logos", player_names=["Ana", "Ben"], config={})
    page = post(client, match, {"action": "set_hp", "seat": "1", "hp": "-1"}, 422)
    assert 'value="-1"' in tag(page, "override-hp") and 'aria-invalid="true"' in tag(page, "override-hp")
    assert beside(page, "override-hp", "HP must be a whole number from 0")
    assert re.search(r'<option value="1"\s+selected>Ben</option>', form_of(page, 'id="override-hp"'))
    assert '<details class="logos-override" open>' in page


def test_cardmaster_a_correction_the_engine_refuses_keeps_the_card_the_stat_and_the_value(client, catalog):
    from tracker.games.cardmaster.demo import STONE_LINEUP, STORM_LINEUP, locked

    match = locked([STORM_LINEUP, STONE_LINEUP])
    page = post(client, match, {"action": "adjust", "what": "gems", "card": "B2", "value": "999999"}, 422)
    form = form_of(page, 'id="adjust-card-value"')
    assert 'value="999999"' in tag(form, "adjust-card-value")
    assert re.search(r'<option value="B2"\s+selected>', form)
    assert re.search(r'<input type="radio" name="what" value="gems"\s+checked>', form)
    assert re.search(r'value="adjust">\s*<p class="error" role="alert">', form), "the engine's reason tops the form"
    assert '<details class="cm-overrides" open>' in page


def test_cardmaster_a_move_without_its_target_says_so_beside_the_targets(client, catalog):
    from tracker.games.cardmaster.demo import STONE_LINEUP, STORM_LINEUP, locked

    match = locked([STORM_LINEUP, STONE_LINEUP])
    page = post(client, match, {"action": "a1", "card": "A1"}, 422)
    form = form_of(page, 'name="card" value="A1"')
    assert re.search(r'<p class="error" role="alert">.*Choose a target to attack.*</p>\s*</fieldset>', form)
    assert '<details class="cm-movebox" open>' in form


def test_evons_an_unknown_card_comes_back_named_on_its_cell_with_why(client, catalog):
    match = services.match_create(slug="evons", player_names=["Ana", "Ben"], config={})
    page = post(client, match, {"action": "play", "seat": "0", "cell": "B3", "face": "up", "card_name": "Glass Wyvern"}, 422)
    form = form_of(page, 'value="play"')
    assert 'value="Glass Wyvern"' in form
    assert re.search(r'<input type="radio" name="cell" value="B3"[^>]*checked', form)
    name_field = form[form.index('id="play-card-name"'):form.index('name="cell"')]
    assert "No card called “Glass Wyvern” in the catalog" in html.unescape(name_field), "said beside the name"
    assert "Not applied:" not in form  # nothing else to say beside the form


def test_evons_a_def_out_of_range_stands_beside_the_def(client, catalog):
    match = services.match_create(slug="evons", player_names=["Ana", "Ben"], config={})
    services.match_apply_action(match_id=match.pk, expected_seq=0, action={
        "type": "play", "seat": 0, "cell": "B3", "covered": False,
        "card": {"name": "Ember Fox", "kind": "monster", "cost": 1, "element": "Fire", "atk": 2, "def": 3,
                 "arrows": {"N": "Normal"}}})
    page = post(client, match, {"action": "set_def", "cell": "B3", "def": "0"}, 422)
    assert 'value="0"' in tag(page, "def-value")
    assert beside(page, "def-value", "DEF must be from 1 to")


def test_card_crush_a_stale_reveal_says_why_beside_the_button(client, catalog):
    match = lock_both(services.match_create(slug="card-crush", player_names=["Ana", "Ben"], config={}))
    page = post(client, match, {"action": "play_round", "seq": match.head - 1}, 409)
    form = form_of(page, 'value="play_round"')
    assert '<p class="error" role="alert">' in form and f'name="seq" value="{match.board_mark}"' in form


# ---------------------------------------------------------------- forged posts

GARBAGE = ["-1", "9" * 40, "💥<b>1.5</b>"]
GENERIC = ("This field is required", "Enter a whole number", "Select a valid choice", "Ensure this value")


def forged(slug: str, match: Match) -> list[dict]:
    """For every board form of the game: each action it sends with nothing, then with every field (and a
    die) set to each garbage value; and actions no form sends."""
    posts: list[dict] = [{}, {"action": ""}, {"action": "x" * 500}, {"action": ["play", "pass"]}]
    for form_class in pages_for(slug).modules.forms.BOARD_FORMS.classes:
        names = list(form_class(match=match).fields) + ["roll"]
        for kind in form_class.kinds:
            sent = {"action": kind, **({form_class.variant[0]: form_class.variant[1]} if form_class.variant else {})}
            posts.append(sent)
            posts += [{**sent, **{name: value for name in names if name not in sent}} for value in GARBAGE]
    return posts


@pytest.mark.parametrize("slug", every_game())
def test_a_forged_post_gets_a_clear_message_and_never_a_500(client, catalog, slug):
    match = services.match_create(slug=slug, player_names=["Ana", "Ben"], config={})
    for data in forged(slug, match):
        match.refresh_from_db()
        before = snapshot(match)
        response = client.post(reverse("match_act", args=[match.pk]), {"seq": match.head, **data})
        page = html.unescape(text(response))
        assert response.status_code in (302, 403, 409, 422), (data, response.status_code)
        assert snapshot(match) == before or response.status_code == 302, data
        if response.status_code != 302:
            said = re.search(r"Not applied:</strong> (.*?)</p>", page, re.S)
            assert said and said.group(1).strip(), (data, "no reason given")
            assert not any(generic in page for generic in GENERIC), (data, said.group(1))
