"""Evons pages: the options, the board with its forms, refusals and the log's working.

Personas: Ana (seat 0, first to play, at the bottom) and Ben (seat 1, at the top), with the demo
catalog: Ember Fox (Fire 4/5, arrows N and E), Moss Golem (Nature 3/6, printed N and E, so
pointing W and S while Ben holds it), Boulder Ram (Earth 3/5, Shockwave E), Reef Warden (Water
3/7, four arrows).
"""

import html
import json
import random
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

import rules
from rules import Dice
from rules.evons import GAME
from tests.rules.test_evons import fill_free_choices
from tracker.games import pages_for
from tracker.matches import services
from tracker.models import Action, Card, Match
from tracker.review import exchange

from .helpers import JUNK, JUNK_IDS, shared_by_the_class, snapshot, text

pytestmark = pytest.mark.django_db

SLUG = "evons"
evons = pages_for(SLUG)



def input_tag(html: str, marker: str) -> str:
    """The whole <input> tag holding `marker`: its attributes in whatever order the page writes them."""
    found = re.search(rf"<input[^>]*{re.escape(marker)}[^>]*>", html)
    assert found, marker
    return found[0]

def load_catalog() -> None:
    """The Evons demo cards only (faster than every game's catalog), those not there yet: one query and one
    insert (a get_or_create a card was four queries)."""
    there = set(Card.objects.filter(slug=SLUG).values_list("name", flat=True))
    Card.objects.bulk_create(Card(slug=SLUG, name=card["name"], stats=evons.card_stats(card))
                             for card in evons.demo_cards if card["name"] not in there)


def start(**config) -> Match:
    load_catalog()
    return services.match_create(slug=SLUG, player_names=["Ana", "Ben"], config=config)


def act_url(match):
    return reverse("match_act", args=[match.pk])


def post(client, match, **data):
    match.refresh_from_db()
    data.setdefault("seq", match.head)
    data.setdefault("seat", match.state["seat"])
    return client.post(act_url(match), data)


def done(client, match, **data):
    response = post(client, match, **data)
    assert response.status_code == 302, re.findall(r"Not applied:.*", text(response))
    match.refresh_from_db()
    return match


def refused(client, match, code, **data):
    match.refresh_from_db()
    data.setdefault("seq", match.head)
    before, count = snapshot(match), Action.objects.count()
    response = client.post(act_url(match), data)
    assert response.status_code == code, text(response)[-2000:]
    assert snapshot(match) == before
    assert Action.objects.count() == count
    return html.unescape(text(response))


@pytest.fixture
def facing(client) -> Match:
    """Ben's Moss Golem on C3 faces Ana's Ember Fox on B3: a conflict awaits."""
    match = start()
    done(client, match, action="pass")
    done(client, match, action="play", cell="C3", face="up", card_name="Moss Golem")
    return done(client, match, action="play", cell="B3", face="up", card_name="ember fox")


def test_a_play_reads_the_matchs_catalog_once(client):
    # The form finds the card in the catalog, and the use the play notes looks it up there again: one reading of
    # the catalog of the match's moment for both: the game's cards once, and their changes since once.
    match = start()
    done(client, match, action="pass")
    match.refresh_from_db()
    with CaptureQueriesContext(connection) as captured:
        done(client, match, action="play", cell="C3", face="up", card_name="Moss Golem")
    for table in ("tracker_card", "tracker_cardchange"):  # the game's cards as they are, and their changes since
        reads = [query["sql"] for query in captured.captured_queries
                 if f'FROM "{table}" WHERE' in query["sql"] and f'"{table}"."slug" =' in query["sql"]]
        assert len(reads) == 1, reads
    assert match.actions.get(seq=match.head).payload["card"]["name"] == "Moss Golem"


def test_it_starts_a_game_with_the_options(client):
    load_catalog()
    response = client.post(
        reverse("match_new", args=[SLUG]),
        {
            "player_0": "Ana",
            "player_1": "Ben",
            "config-reach": "2",
            "config-flip_covered": "yes",
            "config-def_reset": "no",
            "config-ties": "second-player",
            "config-starting_hand": "6",
        },
    )
    assert response.status_code == 302
    match = Match.objects.get(slug=SLUG)
    assert match.state["config"] == {
        "reach": 2,
        "flip_covered": True,
        "def_reset": False,
        "ties": "second-player",
        "starting_hand": 6,
    }
    assert match.state["players"][0]["hand"] == 7


def test_it_shows_the_board_with_coordinates_and_the_counters(client):
    match = start()
    html = text(client.get(match.get_absolute_url()))
    for column in "XABCDEY":
        assert f'<th scope="col">{column}</th>' in html
    assert html.count('class="ev-cell ev-main') == 25 and html.count('class="ev-cell ev-out') == 24
    assert "Turn 1: Ana to play" in html
    assert "50 credits · hand 6 · deck 54" in html
    assert "Play the card" in html and "Pass (play no card this turn)" in html


def test_it_plays_a_catalog_card_and_lists_the_conflict_with_its_working(client, facing):
    assert facing.state["players"][0]["credits"] == 52  # 50 + 5 - 3
    html = text(client.get(facing.get_absolute_url()))
    assert "Fight C3 Moss Golem 3/6" in html
    assert "Ember Fox 5 → 2, Moss Golem 6 → 2" in html
    assert (
        'aria-label="B3: Ember Fox; faces Ana; active; ATK 4, DEF 5 of 5; arrows: north Normal, east Normal"'
        in html
    )


def test_an_htmx_play_leaves_out_the_legend_and_redraws_the_corrections_for_the_new_card(client):
    """The legend names only the players and the arrows: the answer to a play leaves it as the phone shows it.
    The corrections list the cards on the board, so a play draws them anew with its cell."""
    match = start()
    page = text(client.get(match.get_absolute_url()))
    shown = " ".join(f"{region}={key}" for region, key in re.findall(r'<div id="(ev-[\w-]+)" data-kept="(\w+)"', page))
    htmx = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "match", "HTTP_X_KEPT": "1", "HTTP_X_SHOWN": shown}
    answer = text(client.post(act_url(match), {"seq": match.head, "seat": 0, "action": "play", "cell": "C3", "face": "up",
                                               "card_name": "Moss Golem"}, **htmx))
    assert re.search(r'<div id="ev-legend" data-kept="\w+" hx-preserve></div>', answer) and "How to read the board" not in answer
    assert "Set DEF" in answer and re.search(r"<option\s*>C3</option>", answer), "the new card can have its DEF corrected"


def test_it_resolves_a_conflict_and_explains_it_on_the_page_and_in_the_log(client, facing):
    match = done(client, facing, action="conflict", target="C3")
    html = text(client.get(match.get_absolute_url()))
    line = "B3 Ember Fox 4/5 vs C3 Moss Golem 3/6 at once: Ember Fox 5 -&gt; 2, Moss Golem 6 -&gt; 2"
    assert line in html
    log = text(client.get(reverse("match_log", args=[match.pk])))
    assert line in log and "Ana resolves the conflict with C3" in log


def test_it_plays_a_card_typed_in_on_the_spot_with_its_arrows(client):
    match = start()
    match = done(
        client,
        match,
        action="play",
        cell="A1",
        face="up",
        card_name="Brand New",
        new_kind="monster",
        new_cost="2",
        new_element="Electric",
        new_atk="1",
        new_def="3",
        new_arrow_SE="Magnetism",
        new_arrow_N="Normal",
    )
    card = match.state["cells"]["A1"]["card"]
    assert card["arrows"] == {"N": "Normal", "SE": "Magnetism"} and card["element"] == "Electric"
    assert match.state["stack"][-1]["phase"] == "ability1"  # it waits with its Magnetism arrow


def test_typed_stats_without_a_card_type_make_a_monster(client):
    match = start()
    match = done(client, match, action="play", cell="A1", face="up", card_name="Quick Pup", new_cost="1",
                 new_element="Fire", new_atk="1", new_def="2", new_arrow_E="Normal")
    assert match.state["cells"]["A1"]["card"]["kind"] == "monster"


def test_it_plays_covered_then_reveals_with_the_cost_due(client):
    match = start()
    match = done(client, match, action="play", cell="D4", face="covered")
    match = done(client, match, action="pass")
    html = text(client.get(match.get_absolute_url()))
    assert "Ana: reveal your covered cards" in html and "Reveal D4" in html
    match = done(client, match, action="reveal", cell="D4", card_name="Reef Warden")
    assert match.state["cells"]["D4"]["covered"] is False
    assert match.state["players"][0]["credits"] == 50  # 50 + 5 - 5


def test_a_plain_post_lands_where_the_next_step_starts(client):
    """Without JavaScript the page a change leads to opens at the form its next step starts with (it opened at
    its top, the board and its forms a screen or more below): the play, then the reveal."""
    match = start()
    for data, lands in (({"action": "play", "cell": "D4", "face": "covered"}, "#ev-play"),
                        ({"action": "pass"}, "#ev-act")):
        response = post(client, match, **data)
        assert response.status_code == 302 and response["Location"] == match.get_absolute_url() + lands
        assert f'id="{lands[1:]}"' in text(client.get(response["Location"]))


def test_it_uses_an_ability_from_the_board(client):
    match = start()
    done(client, match, action="pass")
    done(client, match, action="play", cell="C3", face="up", card_name="Dust Mole")
    match = done(client, match, action="play", cell="B3", face="up", card_name="Boulder Ram")
    html = text(client.get(match.get_absolute_url()))
    assert "Shockwave arrow (east)" in html
    match = done(client, match, action="ability", arrow="E", choice="C3::")
    assert match.state["cells"]["D3"]["card"]["name"] == "Dust Mole"


def test_overrides_are_marked_in_the_log(client):
    match = start()
    match = done(client, match, action="adjust", seat="1", credits="12")
    assert match.state["players"][1]["credits"] == 12
    log = text(client.get(reverse("match_log", args=[match.pk])))
    assert "manual override" in log and "Adjusted Ben: credits 12." in log


def test_it_adds_a_catalog_card_with_arrows(client):
    load_catalog()
    response = client.post(
        reverse("card_new", args=[SLUG]),
        {
            "new-name": "Gale Hawk",
            "new-kind": "monster",
            "new-cost": "3",
            "new-element": "Fire",
            "new-atk": "2",
            "new-def_": "4",
            "new-arrow_NE": "Normal",
            "new-arrow_W": "Swap",
        },
    )
    assert response.status_code == 302
    assert Card.objects.get(slug=SLUG, name="Gale Hawk").stats == {
        "kind": "monster",
        "cost": 3,
        "element": "Fire",
        "atk": 2,
        "def": 4,
        "arrows": {"NE": "Normal", "W": "Swap"},
    }
    response = client.post(
        reverse("card_new", args=[SLUG]),
        {
            "new-name": "Bad Eel",
            "new-kind": "monster",
            "new-cost": "3",
            "new-element": "Fire",
            "new-atk": "2",
            "new-def_": "4",
            "new-arrow_N": "Magnetism",
        },
    )
    assert response.status_code == 422 and "Only Electric cards carry Magnetism" in text(response)
    # A monster sent with its name alone (as a Block card is): each stat it lacks is named at its field, in words; the
    # engine's "Unknown element None: choose one of …" stood above the form, and the cost, ATK and DEF unsaid.
    response = client.post(reverse("card_new", args=[SLUG]), {"new-name": "Bare Eel", "new-kind": "monster"})
    page = text(response)
    assert response.status_code == 422 and "None" not in page
    for field in ("cost", "element", "atk", "def_"):
        assert re.search(rf'<label for="id_new-{field}">[^<]*</label>\s*<p class="error"[^>]*>⚠ '
                         r"A monster needs this; a Block card does not\.", page), field
    assert client.post(reverse("card_new", args=[SLUG]), {"new-name": "Bare Wall", "new-kind": "block"}).status_code == 302


def test_a_finished_game_shows_the_winner(client):
    match = start()
    done(client, match, action="play", cell="B2", face="up", card_name="Spark Wisp")
    match = done(client, match, action="end_game")
    assert match.winner.name == "Ana" and match.score == "1-0"
    assert "Ana wins 1 point to 0" in text(client.get(match.get_absolute_url()))


# ---------------------------------------------------------------- bad input


def test_a_card_on_an_occupied_cell_is_refused(client, facing):
    facing = done(client, facing, action="conflict", target="C3")  # Ana's turn ends; Ben's begins
    html = refused(client, facing, 422, seat=1, action="play", cell="B3", face="covered")
    assert "B3 already holds Ember Fox." in html


def test_a_cell_that_does_not_exist_is_refused(client):
    match = start()
    assert "Choose a cell of the board" in refused(
        client, match, 422, seat=0, action="play", cell="Z9", face="covered"
    )


def test_a_second_card_in_a_turn_is_refused(client, facing):
    assert "Ana has already played a card this turn." in refused(
        client, facing, 422, seat=0, action="play", cell="D2", face="covered"
    )


def test_credits_you_do_not_have_are_refused(client):
    match = start()
    done(client, match, action="adjust", seat="0", credits="2")
    assert "Reef Warden costs 5 credits; Ana has 2." in refused(
        client, match, 422, seat=0, action="play", cell="B2", face="up", card_name="Reef Warden"
    )


def test_a_conflict_that_is_not_pending_is_refused(client, facing):
    assert "There is no conflict pending with D4" in refused(
        client, facing, 422, seat=0, action="conflict", target="D4"
    )


def test_an_ability_used_twice_is_refused(client):
    match = start()
    done(client, match, action="pass")
    done(client, match, action="play", cell="C2", face="up", card_name="Dust Mole")
    match = done(
        client,
        match,
        action="play",
        cell="B2",
        face="up",
        card_name="Twin Quake",
        new_kind="monster",
        new_cost="1",
        new_element="Earth",
        new_atk="1",
        new_def="3",
        new_arrow_E="Shockwave",
        new_arrow_W="Shockwave",
    )
    match = done(client, match, action="ability", arrow="E", choice="C2::")
    assert match.state["cells"]["D2"]["card"]["name"] == "Dust Mole"
    assert "The Shockwave arrow (E) of Twin Quake was already used in this sequence." in refused(
        client, match, 422, seat=0, action="ability", arrow="E", choice="C2::"
    )


def test_acting_out_of_turn_is_refused(client):
    match = start()
    assert "It is Ana's turn." in refused(client, match, 422, seat=1, action="pass")


def test_an_unknown_catalog_name_is_refused(client):
    match = start()
    assert "No card called" in refused(
        client, match, 422, seat=0, action="play", cell="B2", face="up", card_name="Nobody"
    )


def test_a_stale_submission_is_refused(client, facing):
    html = refused(client, facing, 409, seq=facing.head - 1, seat=1, action="pass")
    assert "The match moved on" in html


@pytest.fixture(scope="class")
def started_for_the_class(django_db_setup, django_db_blocker) -> int:
    """A match as `start()` makes it, made once for the class's tests, each in a savepoint of it
    (helpers.shared_by_the_class): its pk."""
    with shared_by_the_class(django_db_blocker):
        yield start().pk


class TestJunk:
    @pytest.fixture
    def started(self, started_for_the_class) -> Match:
        return Match.objects.get(pk=started_for_the_class)

    @pytest.mark.parametrize("junk", JUNK, ids=JUNK_IDS)
    @pytest.mark.parametrize("field", ["action", "cell", "seat", "card_name", "choice", "new_cost"])
    def test_junk_never_causes_a_500(self, client, started, junk, field):
        match = started
        data = {
            "action": "play",
            "cell": "B2",
            "face": "up",
            "seat": "0",
            "card_name": "Ember Fox",
            "new_kind": "monster" if field == "new_cost" else "",
            "choice": "B2::",
            "arrow": "E",
            "target": "C3",
            "credits": "3",
            field: junk,
        }
        before, count = snapshot(match), Action.objects.count()
        response = client.post(act_url(match), {"seq": match.head, **data})
        assert response.status_code < 500
        if response.status_code != 302:
            assert snapshot(match) == before and Action.objects.count() == count


def test_the_entry_page_says_there_is_nothing_secret(client):
    match = start()
    response = client.get(reverse("match_entry", args=[match.pk, 0]))
    assert response.status_code == 302


def test_a_scripted_game_replays_to_the_same_state(client):
    match = start()
    done(client, match, action="pass")
    done(client, match, action="play", cell="C3", face="up", card_name="Moss Golem")
    done(client, match, action="play", cell="B3", face="up", card_name="Ember Fox")
    done(client, match, action="conflict", target="C3")
    done(client, match, action="play", cell="B4", face="covered")
    done(client, match, action="play", cell="C2", face="up", card_name="Boulder Ram")
    done(client, match, action="next")  # Ability Phase 1 unused: Shockwave waits for Phase 2
    done(client, match, action="next")
    done(client, match, action="reveal", cell="B4", card_name="Night Crow")
    done(client, match, action="play", cell="D3", face="up", card_name="Reef Warden")
    match.refresh_from_db()
    assert match.head >= 8
    assert services.match_replay(match) == match.state
    log = text(client.get(reverse("match_log", args=[match.pk])))
    assert re.search(r"Turn \d+: Ben \+5 credits", log)


@pytest.mark.parametrize("seed", range(6))
def test_every_event_of_a_random_game_has_a_log_line(seed):
    rng = random.Random(seed)
    state = GAME.new_match({"reach": 1 + seed % 2}, str(seed))
    names = ["Ana", "Ben"]
    step = 0
    while GAME.legal_actions(state):
        step += 1
        action = fill_free_choices(state, rng.choice(GAME.legal_actions(state)), rng)
        state, events = GAME.apply(state, action, Dice(str(seed), step))
        assert evons.describe_action(action, events, names)
        for event in events:
            line = evons.describe(event, names)
            assert line != event["type"] and "%(" not in line


def test_the_replay_shows_the_board_as_it_stood_after_a_step_without_forms(client, facing):
    match = done(client, facing, action="conflict", target="C3")
    html = text(client.get(reverse("match_replay", args=[match.pk]) + f"?step={match.head - 1}"))
    assert "Fight C3 Moss Golem 3/6" not in html and "Play the card" not in html
    assert 'aria-label="C3: Moss Golem; faces Ben; active; ATK 3, DEF 6 of 6' in html
    html = text(client.get(reverse("match_replay", args=[match.pk]) + "?step=1"))
    assert "Moss Golem" not in html.split("ev-board")[1].split("</table>")[0]


def test_cards_played_counts_face_up_plays_and_reveals(client):
    match = start()
    done(client, match, action="play", cell="B2", face="covered")
    done(client, match, action="play", cell="C3", face="up", card_name="Moss Golem")
    match = done(client, match, action="reveal", cell="B2", card_name="Spark Wisp")
    assert evons.cards_played(match, 0) == ["Spark Wisp"] and evons.cards_played(match, 1) == ["Moss Golem"]


def test_a_stored_match_of_the_retired_rules_plays_and_replays_under_them(client):
    """A match stored under rules version 1, when arrows never turned, keeps those rules: Ben's Moss
    Golem points up and right as printed, so Ember Fox flips it instead of fighting it. Its log
    replays, and its file imports, under version 1."""
    match = start()
    old = rules.game_version(SLUG, "1")
    Match.objects.filter(pk=match.pk).update(rules_version="1", state=old.new_match(match.config, match.seed))
    done(client, match, action="pass")
    done(client, match, action="play", cell="C3", face="up", card_name="Moss Golem")
    match = done(client, match, action="play", cell="B3", face="up", card_name="Ember Fox")
    assert match.rules_version == "1" and match.state["cells"]["C3"]["owner"] == 0
    html = text(client.get(match.get_absolute_url()))
    assert "Fight C3" not in html and "C3 flipped to Ana." in html
    assert services.replay_problems(match) == []
    match = done(client, match, action="end_game")  # a running match's file withholds its seed
    assert match.score == "2-0"
    imported = exchange.import_match(json.loads(json.dumps(exchange.export_match(match))))
    assert imported.rules_version == "1" and imported.state == match.state


# ---------------------------------------------------------------- a refused form keeps what was typed


def test_a_refused_play_keeps_the_tapped_cell_the_name_and_the_typed_stats(client):
    """Ana taps B2, types a card that is not in the catalog with half its stats and an arrow: the
    form is refused, and comes back with B2 still picked, the name, the stats and the arrow as she
    left them (the fold with the stats open)."""
    match = start()
    html = refused(client, match, 422, seat=0, action="play", cell="B2", face="up", card_name="Nobody")
    assert "No card called “Nobody”" in html
    assert re.search(r'name="cell" value="B2" required\s+checked', html)
    assert len(re.findall(r'name="cell" value="\w\d" required\s+checked', html)) == 1
    assert 'value="Nobody"' in input_tag(html, 'id="play-card-name"')
    # Its stats are what to give next: the fold is open, and its slot names it, for an htmx answer (table.js).
    assert '<details class="ev-new-card" id="play-new-card" open>' in html
    assert '<i hidden data-opens="play-new-card"></i>' in html
    html = refused(client, match, 422, seat=0, action="play", cell="D1", face="up", card_name="Half Done",
                   new_kind="monster", new_element="Water", new_atk="2", new_def="0", new_arrow_SW="Swap")
    assert re.search(r'name="cell" value="D1" required\s+checked', html)
    assert re.search(r'name="face" value="up"\s+checked', html)
    assert 'value="Half Done"' in html and '<details class="ev-new-card" id="play-new-card" open>' in html
    assert re.search(r'<option value="monster"\s+selected', html) and re.search(r'<option value="Water"\s+selected', html)
    assert 'value="2"' in input_tag(html, 'name="new_atk"') and 'value="0"' in input_tag(html, 'name="new_def"')
    assert re.search(r'name="new_arrow_SW">.*?<option value="Swap"\s+selected', html, re.S)
    # Any other form on the page starts blank: only the one that was sent is filled in again.
    assert len(re.findall(r'<details class="ev-new-card" id="[\w-]+" open>', html)) == 1


def new_card_fold(html: str, prefix: str = "play") -> str:
    return re.search(rf'<details class="ev-new-card" id="{prefix}-new-card".*?</details>', html, re.S)[0]


def test_the_new_card_fold_is_drawn_once_a_form_and_language_but_a_refused_one_each_time(client):
    """The fold with a new card's stats follows from its form and the language unless its form was refused: kept once
    drawn (`{% memo %}`, card_entry.html). A refused play's fold, open with what was typed, is drawn as sent, and the
    next page's is blank again; a reveal's has its own ids and slots, and German its own words."""
    match = start()
    blank = new_card_fold(text(client.get(match.get_absolute_url())))
    assert 'id="play-cost"' in blank and 'aria-describedby="error-play-new_cost"' in blank and " open>" not in blank
    html = refused(client, match, 422, seat=0, action="play", cell="D1", face="up", card_name="Half Done",
                   new_kind="monster", new_atk="2", new_def="0")
    assert new_card_fold(html).startswith('<details class="ev-new-card" id="play-new-card" open>')
    assert 'value="2"' in input_tag(new_card_fold(html), 'name="new_atk"')
    assert new_card_fold(text(client.get(match.get_absolute_url()))) == blank
    german = new_card_fold(text(client.get(match.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="de")))
    assert "Nicht im Katalog? Gib ihre Werte ein" in german and "Not in the catalog" not in german
    done(client, match, action="play", cell="B2", face="covered")
    match = done(client, match, action="play", cell="D2", face="covered")
    reveal = new_card_fold(text(client.get(match.get_absolute_url())), "reveal-B2")
    assert 'id="reveal-B2-cost"' in reveal and 'aria-describedby="error-reveal-cell-B2-new_cost"' in reveal


def test_a_refused_firestorm_keeps_its_target_and_its_split(client):
    """Pyre Drake's Firestorm (printed up, Ana's, so pointing up at B2) spreads at most its current
    DEF, 6: a split of 5 and 4 is refused and comes back as typed, on the same target."""
    match = start()
    done(client, match, action="play", cell="A2", face="up", card_name="Ember Fox")
    done(client, match, action="play", cell="B2", face="up", card_name="Dust Mole")
    match = done(client, match, action="play", cell="B3", face="up", card_name="Pyre Drake")
    html = refused(client, match, 422, seat=0, action="ability", arrow="N", choice="B2:storm:",
                   damage_B2="5", damage_A2="4")
    assert "Not applied:" in html
    assert re.search(r'<option value="B2:storm:"\s+selected', html)
    assert 'value="5"' in input_tag(html, 'name="damage_B2"') and 'value="4"' in input_tag(html, 'name="damage_A2"')


def test_the_board_names_each_card_shortly_and_turns_the_top_players_arrows(client, facing):
    """Ben's Moss Golem is printed with arrows up and right; he sits at the top, so on the board
    they point down and left. Names are cut to fit a cell but still tell cards apart."""
    html = text(client.get(facing.get_absolute_url()))
    golem = re.search(r'aria-label="C3: Moss Golem[^"]*">(.*?)</div>', html, re.S)
    assert golem and 'ev-a ev-S' in golem[1] and 'ev-a ev-W' in golem[1]
    assert 'ev-a ev-N' not in golem[1] and 'ev-a ev-E' not in golem[1]
    assert '<span class="ev-n">Moss G</span>' in golem[1]
    assert '<span class="ev-n">Ember F</span>' in html


@pytest.mark.parametrize(
    ("name", "short"),
    [("Imp", "Imp"), ("Ember Fox", "Ember F"), ("Boulder Ram", "Boul. R"), ("Thunderclap", "Thunde."),
     ("A Very Long Card Name Here", "AVLCNH")],
)
def test_short_names_fit_a_cell(name, short):
    from tracker.games.evons.board import SHORT_NAME, short_name

    assert short_name(name) == short and len(short) <= SHORT_NAME


def test_the_log_says_the_hand_limit_the_engine_discards_down_to():
    from rules.evons.turns import HAND_LIMIT

    line = pages_for("evons").describe({"type": "discarded", "seat": 1, "count": 2}, ["Ana", "Ben"])
    assert line == f"Ben discards 2 down to {HAND_LIMIT} cards." == "Ben discards 2 down to 8 cards."


def beside_control(page: str, control_id: str) -> str:
    """What the page draws from the control `control_id` to the next control: its errors' slot."""
    after = page[page.index(f'id="{control_id}"'):]
    return after[:re.search(r"<(input|select|button)\b", after[1:]).start() + 1]


@pytest.mark.parametrize(("stats", "field", "said"), [
    ({"new_atk": "200"}, "atk", "ATK must be from 0 to 99."),
    ({"new_cost": "two"}, "cost", "Cost must be a whole number."),
    ({"new_def": ""}, "def", "DEF must be a whole number."),
    ({"new_element": "Plasma"}, "element", "Choose one of the elements."),
])
def test_a_card_typed_in_is_a_form_whose_trouble_stands_beside_the_stat(client, stats, field, said):
    """The stats of a card typed in on the spot are fields of the play form (CardEntryForm), not read from the
    post by hand: a stat refused says so beside that stat, the others kept as typed."""
    match = start()
    typed = {"new_kind": "monster", "new_element": "Water", "new_cost": "1", "new_atk": "2", "new_def": "3", **stats}
    html = refused(client, match, 422, seat=0, action="play", cell="B2", face="up", card_name="Half Done", **typed)
    assert said in beside_control(html, f"play-{field}")
    assert re.search(rf'<(input|select)[^>]*id="play-{field}"[^>]*aria-invalid="true"', html)
    assert "Half Done" in input_tag(html, 'id="play-card-name"') and "No card called" not in html
    assert '<details class="ev-new-card" id="play-new-card" open>' in html


def test_the_card_entry_is_read_from_the_forms_cleaned_data():
    from tracker.games.evons.forms import PlayForm

    match = start()
    form = PlayForm({"seat": "0", "cell": "b2", "face": "up", "card_name": "  Quick   Pup ", "new_cost": " 1 ",
                     "new_element": "Fire", "new_atk": "1", "new_def": "2", "new_arrow_E": "Normal"}, match=match)
    assert form.is_valid(), form.errors
    assert form.action["card"] == {"name": "Quick Pup", "kind": "monster", "cost": 1, "atk": 1, "def": 2,
                                   "element": "Fire", "arrows": {"E": "Normal"}}
    assert form.cleaned_data["new_cost"] == 1
