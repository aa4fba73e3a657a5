"""Lonely Star pages: new match options, the board's forms, dice entry, refusals and the log.

Personas: Ana (seat 0, whose turn it is first) and Ben (seat 1). Ana fields Comet
Wanderer (LK 8: sure crits, mills 2) and Ember Drifter (LK 3); Ben fields Nebula Warden
(HP 8, RS 3), all from the demo catalog.
"""

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

import rules
from perf.tables import screen
from tracker.games import pages_for
from tracker.matches import services
from tracker.models import Action, Card, Invite, Match
from tracker.review import exchange

from .helpers import JUNK, JUNK_IDS, entry_token, pushed_part, shared_by_the_class, snapshot, text

pytestmark = pytest.mark.django_db

SLUG = "lonely-star"
lonely_star = pages_for(SLUG)
GAME_DEFAULTS = rules.GAMES[SLUG].default_config


def load_catalog() -> None:
    """Only this game's demo units (the other games' catalogs would only slow every test down), those not there
    yet: one query and one insert (a get_or_create a card was four queries, in the setup of 200 tests)."""
    there = set(Card.objects.filter(slug=SLUG).values_list("name", flat=True))
    Card.objects.bulk_create(Card(slug=SLUG, name=card["name"], stats=lonely_star.card_stats(card))
                             for card in lonely_star.demo_cards if card["name"] not in there)


def start(**config) -> Match:
    load_catalog()
    return services.match_create(slug=SLUG, player_names=["Ana", "Ben"], config=config)


def act_url(match):
    return reverse("match_act", args=[match.pk])


def post(client, match, **data):
    match.refresh_from_db()
    data.setdefault("seq", match.head)
    return client.post(act_url(match), data)


def done(client, match, **data):
    response = post(client, match, **data)
    assert response.status_code == 302, refusal(response)
    match.refresh_from_db()
    return match


def refusal(response) -> str:
    """The refusal message on a match page."""
    found = re.search(r"<strong>Not applied:</strong>([^<]*)", text(response))
    return found.group(1).strip() if found else text(response)[:500]


def refused(client, match, code, **data):
    match.refresh_from_db()
    data.setdefault("seq", match.head)
    before, count = snapshot(match), Action.objects.count()
    response = client.post(act_url(match), data)
    assert response.status_code == code
    assert snapshot(match) == before
    assert Action.objects.count() == count
    return text(response)


def unit_id(match, name):
    return next(u["id"] for u in match.state["units"] if u["name"] == name)


@pytest.fixture
def fielded(client) -> Match:
    """Comet Wanderer and Ember Drifter (Ana) against Nebula Warden (Ben)."""
    return fielded_match()


def fielded_match() -> Match:
    match = start()
    for seat, name in ((0, "Comet Wanderer"), (0, "Ember Drifter"), (1, "Nebula Warden")):
        card = Card.objects.get(slug=SLUG, name=name).as_rules_card()
        services.match_apply_action(
            match_id=match.pk,
            action={"type": "play_unit", "seat": seat, "card": card},
            expected_seq=match.head,
        )
        match.refresh_from_db()
    return match


# ---------------------------------------------------------------- starting a match


def test_it_starts_a_match_with_the_options(client):
    load_catalog()
    response = client.post(
        reverse("match_new", args=[SLUG]),
        {
            "player_0": "Ana",
            "player_1": "Ben",
            "config-who_rolls": "players",
            "config-deck": "30",
            "config-hand": "6",
            "config-empty_deck": "table",
            "config-lethal_to": "removed",
            "config-status_penalty": "per-counter",
            "config-counter_cap": "3",
            "config-stat_floor": "none",
        },
    )
    assert response.status_code == 302
    match = Match.objects.get(slug=SLUG)
    assert match.state["options"] == {
        "who_rolls": "players",
        "deck": 30,
        "hand": 6,
        "empty_deck": "table",
        "lethal_to": "removed",
        "status_penalty": "per-counter",
        "counter_cap": 3,
        "stat_floor": "none",
    }
    assert match.state["players"][0] == {"deck": 30, "hand": 6, "discard": 0, "removed": 0}
    html = text(client.get(match.get_absolute_url()))
    assert "Turn 1: Ana" in html and "players roll real dice" in html


def test_the_new_match_page_offers_the_options(client):
    html = text(client.get(reverse("match_new", args=[SLUG])))
    assert "New Lonely Star match" in html
    for words in ("The app rolls", "Players roll real dice", "Removed from the game", "1 for each counter"):
        assert words in html


# ---------------------------------------------------------------- units from the catalog or on the spot


def test_units_come_from_the_catalog_or_are_typed_in(client, fielded):
    done(client, fielded, action="play_unit", seat=0, name="comet wanderer")
    comet = fielded.state["units"][-1]
    assert comet["name"] == "Comet Wanderer" and comet["base"] == {
        "hp": 5,
        "at": 3,
        "lk": 8,
        "rs": 1,
        "reach": 2,
    }
    done(client, fielded, action="play_unit", seat=1, name="Pocket Moon", hp=3, at=1, lk=2, rs=0, reach=1)
    assert fielded.state["units"][-1]["base"] == {"hp": 3, "at": 1, "lk": 2, "rs": 0, "reach": 1}
    assert [p["hand"] for p in fielded.state["players"]] == [2, 3]
    html = text(client.get(fielded.get_absolute_url()))
    assert "Pocket Moon" in html and "Luck 8: crit and Luck rolls always succeed (6 or more)." in html
    assert "Attack damage also mills 2 from the defender's deck." in html


def test_it_refuses_an_unknown_unit_and_bad_stats(client, fielded):
    html = refused(client, fielded, 422, action="play_unit", seat=0, name="Nobody")
    assert "No unit called “Nobody” in the catalog" in html
    html = refused(
        client, fielded, 422, action="play_unit", seat=0, name="Bad", hp=3, at=-1, lk=1, rs=1, reach=1
    )
    assert "AT must be from 0 to 99." in html
    html = refused(
        client, fielded, 422, action="play_unit", seat=0, name="Bad\x00", hp=3, at=1, lk=1, rs=1, reach=1
    )
    assert "The unit&#x27;s name needs 1 to 60 characters." in html
    html = refused(
        client, fielded, 422, action="play_unit", seat=0, name="Bad", hp=0, at=1, lk=1, rs=1, reach=1
    )
    assert "HP must be between 1 and 99; 0 is out of range." in html
    html = refused(client, fielded, 422, action="play_unit", seat=0, name="Newcomer", hp=3, at=1, rs=1, reach=1)
    assert "No unit called “Newcomer” in the catalog, so all its stats are needed (missing: LK)." in html
    html = refused(client, fielded, 422, action="play_unit", seat=0, name="Comet Wanderer", hp=3)
    assert "is in the catalog: leave every stat blank to take its stats, or type them all" in html


def stat_input(html: str, stat: str) -> str:
    """Seat 0's input of `stat` in the play-a-unit form, and what is drawn after it up to the next control."""
    at = html.index(f'id="unit-{stat}-0"')
    start, end = html.rindex("<input", 0, at), re.search(r"<(input|select|button)\b", html[at:]).start() + at
    return html[start:end]


def test_each_missing_stat_of_a_unit_typed_in_is_marked(client, fielded):
    """Stats typed for a unit, some left out: the reason stands across the form, and each stat left out is
    marked where it is typed (invalid, a word in its slot), the ones typed not; the outcome box says it once."""
    html = refused(client, fielded, 422, action="play_unit", seat=0, name="Newcomer", hp=3, at=1, reach=1)
    assert html.count("so all its stats are needed (missing: LK, RS).") == 2  # the outcome box and the form's slot
    for stat in ("lk", "rs"):
        marked = stat_input(html, stat)
        assert 'aria-invalid="true"' in marked and "Missing." in marked, marked
    for stat in ("hp", "at", "reach"):
        assert 'aria-invalid' not in stat_input(html, stat) and "Missing." not in stat_input(html, stat)
    assert "autofocus" in stat_input(html, "lk")  # the first stat to type is brought into view
    assert refusal_of(html) == "No unit called “Newcomer” in the catalog, so all its stats are needed (missing: LK, RS)."
    hx = client.post(act_url(fielded), {"seq": fielded.head, "action": "play_unit", "seat": 0, "name": "Newcomer",
                                        "hp": 3, "at": 1, "reach": 1}, headers={"HX-Request": "true"})
    said = text(hx)  # htmx: the slots filled out of band (table.js marks each control its slot describes)
    assert hx.status_code == 422
    assert re.search(r'<span id="error-play_unit-seat-0-lk" hx-swap-oob="innerHTML">.*Missing\.</span>', said)
    assert "Missing." not in said.split("Not applied:")[1]


def refusal_of(html: str) -> str:
    return re.search(r"<strong>Not applied:</strong>([^<]*)", html).group(1).strip()


def test_the_catalog_takes_lonely_star_units(client):
    response = client.post(
        reverse("card_new", args=[SLUG]),
        {
            "new-name": "Far Light",
            "new-hp": "4",
            "new-at": "2",
            "new-lk": "7",
            "new-rs": "1",
            "new-reach": "3",
        },
    )
    assert response.status_code == 302
    assert Card.objects.get(slug=SLUG, name="Far Light").stats == {
        "hp": 4,
        "at": 2,
        "lk": 7,
        "rs": 1,
        "reach": 3,
    }
    response = client.post(
        reverse("card_new", args=[SLUG]),
        {
            "new-name": "Negative",
            "new-hp": "4",
            "new-at": "-2",
            "new-lk": "7",
            "new-rs": "1",
            "new-reach": "3",
        },
    )
    assert response.status_code == 422 and not Card.objects.filter(name="Negative").exists()


# ---------------------------------------------------------------- attacks and dice


def test_the_rulebook_example_through_the_board(client, fielded):
    comet, warden = unit_id(fielded, "Comet Wanderer"), unit_id(fielded, "Nebula Warden")
    done(client, fielded, action="attack", unit=comet, target=warden)
    assert fielded.state["players"][1]["deck"] == 38 and fielded.state["players"][1]["discard"] == 2
    log = text(client.get(reverse("match_log", args=[fielded.pk])))
    assert "Comet Wanderer attacks Nebula Warden" in log
    assert "Crit roll for Comet Wanderer: Luck 8 is 6 or more, so it always succeeds (no die)." in log
    assert "Luck over 6 mills: 2 cards from Ben&#x27;s Deck to Discard pile." in log


def shown_parts(html: str, *sent_from: str) -> str:
    """What the page's script sends with a tap: each part as the page shows it (id=digest), but those the
    tap came from (it is drawn anew)."""
    return " ".join(f"{region}={key}" for region, key in re.findall(r'<(?:div|li) id="([\w-]+)" data-kept="(\w+)"', html)
                    if region not in sent_from)


def kept_parts(answer: str) -> list[str]:
    return re.findall(r'<(?:div|li) id="([\w-]+)" data-kept="\w+" hx-preserve></(?:div|li)>', answer)


def test_an_htmx_answer_leaves_out_the_units_the_action_did_not_change(client, fielded):
    """A plain D6 changes no unit: they stay as the phone shows them, forms included (htmx sends the page's
    step from #match in place of the step a kept form was drawn with). An attack redraws the two units in it."""
    comet, ember, warden = (unit_id(fielded, name) for name in ("Comet Wanderer", "Ember Drifter", "Nebula Warden"))
    page = text(client.get(fielded.get_absolute_url()))
    assert f"hx-vals='{{\"seq\": \"{fielded.board_mark}\"}}'" in page, "every htmx form sends the page's step"
    htmx = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "match", "HTTP_X_KEPT": "1"}
    answer = text(client.post(act_url(fielded), {"seq": fielded.head, "action": "d6", "seat": 0},
                              HTTP_X_SHOWN=shown_parts(page, "ls-controls", "ls-d6"), **htmx))
    assert kept_parts(answer) == [f"ls-unit-{comet}", f"ls-unit-{ember}", "ls-play-unit-0", "ls-damage", "ls-inflict",
                                  f"ls-unit-{warden}", "ls-play-unit-1", "ls-overrides"]
    assert "Deal the damage" not in answer and "Inflict a status" not in answer, "the turn's other forms are kept"
    assert '<h3>' not in answer and 'id="overrides-title"' not in answer, "no unit and no correction is drawn"
    fielded.refresh_from_db()
    assert "Roll the D6" in answer and f"hx-vals='{{\"seq\": \"{fielded.board_mark}\"}}'" in answer, "the controls are drawn anew"
    # The attack form the phone kept was drawn before the D6, with the step before; htmx sends the page's (as here).
    answer = text(client.post(act_url(fielded), {"seq": fielded.head, "action": "attack", "unit": comet, "target": warden},
                              HTTP_X_SHOWN=shown_parts(page, f"ls-unit-{comet}"), **htmx))
    assert re.search(r"Damage [1-9]\d* of 8 HP", answer), "Nebula Warden is drawn with its damage"
    assert f'id="unit-{comet}"' in answer and f'id="unit-{warden}"' in answer
    assert kept_parts(answer) == [f"ls-unit-{ember}", "ls-play-unit-0", "ls-controls", "ls-play-unit-1",
                                  "ls-overrides"], "the rest list the same units"
    # A phone that shows something else (another language, an older page) gets the units drawn.
    fielded.refresh_from_db()
    answer = text(client.post(act_url(fielded), {"seq": fielded.head, "action": "d6", "seat": 0},
                              HTTP_X_SHOWN=f"ls-unit-{comet}=000000000000 ls-unit-{ember}=000000000000", **htmx))
    assert f'id="unit-{comet}"' in answer and 'data-kept="000000000000"' not in answer


def test_the_pushed_part_leaves_out_what_the_last_pushed_part_showed(client, fielded):
    """A phone's stream draws its part as its fetch would, saying it shows the kept parts of the part it pushed
    last: the first push draws them all, the next, after a D6, leaves every unit and the turn's forms out."""
    comet, ember, warden = (unit_id(fielded, name) for name in ("Comet Wanderer", "Ember Drifter", "Nebula Warden"))
    client.get(fielded.get_absolute_url())  # the phone's page: its cookies
    first, shown = pushed_part(client, fielded.get_absolute_url())
    assert kept_parts(first) == [] and f"ls-unit-{comet}=" in shown and "ls-damage=" in shown
    services.match_apply_action(match_id=fielded.pk, action={"type": "d6", "seat": 0}, expected_seq=fielded.head)
    second, _shown = pushed_part(client, fielded.get_absolute_url(), shown)
    assert {f"ls-unit-{comet}", f"ls-unit-{ember}", f"ls-unit-{warden}", "ls-controls"} <= set(kept_parts(second))
    assert "D6" in second and "Deal the damage" not in second


def test_the_live_fetch_leaves_out_the_units_another_phone_s_change_did_not_touch(client, fielded):
    """After another phone's change, the page fetches its #match saying what it shows: the units that change
    left as they were come back as placeholders (htmx keeps them), and the screen then offers what a fetch of
    the whole part would. The parts no action changes are drawn: a change that is not an action (a seat
    joined) may have changed them. Without the header every part is drawn."""
    comet, ember = unit_id(fielded, "Comet Wanderer"), unit_id(fielded, "Ember Drifter")
    htmx = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "match", "HTTP_X_KEPT": "1"}
    page = text(client.get(fielded.get_absolute_url()))
    services.match_apply_action(match_id=fielded.pk, action={"type": "d6", "seat": 1}, expected_seq=fielded.head)
    answer = text(client.get(fielded.get_absolute_url(), HTTP_X_SHOWN=shown_parts(page, ""), **htmx))
    assert {f"ls-unit-{comet}", f"ls-unit-{ember}", "ls-overrides"} <= set(kept_parts(answer))  # Ana's units
    assert re.search(r'<div id="match-title">\s*<h1>', answer), "a part no action changes is drawn"
    whole = text(client.get(fielded.get_absolute_url(), **htmx))
    assert kept_parts(whole) == []
    # Each form as htmx sends it: the CSRF and one-time tokens are masked anew at each drawing, the step is
    # #match's; a digest may differ as the news box beside the part did (the whole part came second).
    drawing = re.compile(r'(name="(?:csrfmiddlewaretoken|once|seq)" value|data-kept)="[^"]*"')

    def part(html):
        start, end = screen.span(html, "match")
        return drawing.sub("", html[start:end])

    assert part(screen.keep(page, answer)) == part(whole)


def test_a_physical_roll_is_used_and_logged_as_the_players(client, fielded):
    ember, warden = unit_id(fielded, "Ember Drifter"), unit_id(fielded, "Nebula Warden")
    done(client, fielded, action="attack", unit=ember, target=warden, roll="4")
    action = fielded.actions.get(seq=fielded.head)
    assert action.rolls == [{"sides": 6, "value": 4, "by": "player", "why": "crit: Ember Drifter (3)"}]
    assert next(u for u in fielded.state["units"] if u["id"] == warden)["damage"] == 1  # 4 AT - 3 RS
    assert services.match_replay(fielded) == fielded.state
    log = text(client.get(reverse("match_log", args=[fielded.pk])))
    assert "Crit roll for Ember Drifter: 4 against Luck 3: failed." in log
    assert "4 damage - Resist 3 = 1 dealt to Nebula Warden." in log
    # The board shows the step just taken with its working and who rolled.
    page = text(client.get(fielded.get_absolute_url()))
    assert "Step 4: Ember Drifter attacks Nebula Warden" in page
    assert "4 damage - Resist 3 = 1 dealt to Nebula Warden." in page
    assert "⚄ a die rolled at the table: 4" in page


def test_an_app_roll_is_logged_as_the_apps(client, fielded):
    ember, warden = unit_id(fielded, "Ember Drifter"), unit_id(fielded, "Nebula Warden")
    done(client, fielded, action="attack", unit=ember, target=warden, roll="")
    assert fielded.actions.get(seq=fielded.head).rolls[0]["by"] == "app"
    assert services.match_replay(fielded) == fielded.state


@pytest.mark.parametrize("roll", ["0", "7", "-1", "2.5", "six"])
def test_it_refuses_a_roll_outside_1_to_6(client, fielded, roll):
    ember, warden = unit_id(fielded, "Ember Drifter"), unit_id(fielded, "Nebula Warden")
    html = refused(client, fielded, 422, action="attack", unit=ember, target=warden, roll=roll)
    assert "A D6 shows 1 to 6" in html


def test_a_die_typed_where_none_is_needed_is_refused(client, fielded):
    comet, warden = unit_id(fielded, "Comet Wanderer"), unit_id(fielded, "Nebula Warden")
    html = refused(client, fielded, 422, action="attack", unit=comet, target=warden, roll="3")
    assert "No die is needed here" in html
    html = refused(
        client,
        fielded,
        422,
        action="inflict",
        seat=1,
        target=comet,
        status="burn",
        ignore_resist="1",
        roll="3",
    )
    assert "No die is needed here" in html


def test_when_players_roll_the_die_is_required_unless_the_app_is_asked(client):
    match = start(who_rolls="players")
    done(client, match, action="play_unit", seat=0, name="Ember Drifter")
    done(client, match, action="play_unit", seat=1, name="Nebula Warden")
    ember, warden = unit_id(match, "Ember Drifter"), unit_id(match, "Nebula Warden")
    html = refused(client, match, 422, action="attack", unit=ember, target=warden)
    assert "In this match players roll: type the die you rolled" in html
    html = refused(client, match, 422, action="attack", unit=ember, target=warden, roll="2", app_rolls="1")
    assert "choose one" in html
    done(client, match, action="attack", unit=ember, target=warden, app_rolls="1")
    assert match.actions.get(seq=match.head).rolls[0]["by"] == "app"
    # A sure roll needs no die even when players roll.
    done(client, match, action="play_unit", seat=0, name="Comet Wanderer")
    done(client, match, action="attack", unit=unit_id(match, "Comet Wanderer"), target=warden)
    assert match.actions.get(seq=match.head).rolls == []


def test_it_refuses_attacking_with_a_unit_not_in_play_or_for_the_other_player(client, fielded):
    comet, warden = unit_id(fielded, "Comet Wanderer"), unit_id(fielded, "Nebula Warden")
    html = refused(client, fielded, 422, action="attack", unit=99, target=warden)
    assert "That unit is not in play." in html
    html = refused(client, fielded, 422, action="attack", unit=warden, target=comet)
    assert "It is not Ben&#x27;s turn." in html
    html = refused(client, fielded, 422, action="attack", seat=0, unit=warden, target=comet)
    assert "Nebula Warden is not controlled by Ana." in html


def test_it_refuses_a_stale_step(client, fielded):
    html = refused(client, fielded, 409, action="d6", seat=0, seq=fielded.head - 1)
    assert "The match moved on since this page was loaded" in html


# ---------------------------------------------------------------- statuses and the end of the turn


def test_a_status_then_the_end_of_turn_resist(client, fielded):
    comet = unit_id(fielded, "Comet Wanderer")
    done(client, fielded, action="inflict", seat=1, target=comet, status="burn", roll="6")
    done(client, fielded, action="inflict", seat=1, target=comet, status="hex", ignore_resist="1")
    unit = next(u for u in fielded.state["units"] if u["id"] == comet)
    assert unit["statuses"] == {"burn": 1, "hex": 1}
    html = text(client.get(fielded.get_absolute_url()))
    assert "Burn ×1 (lowers AT)" in html and "Hexed: attacking first removes" in html
    done(client, fielded, action="end_turn", seat=0)
    html = text(client.get(fielded.get_absolute_url()))
    assert "Roll Resist for Comet Wanderer" in html and "Each player draws; next turn" in html
    done(client, fielded, action="resist_roll", unit=comet, status="hex", roll="1")
    unit = next(u for u in fielded.state["units"] if u["id"] == comet)
    assert unit["statuses"] == {"burn": 1}
    done(client, fielded, action="finish_turn", seat=0)
    assert fielded.state["turn"] == 1 and [p["hand"] for p in fielded.state["players"]] == [4, 5]
    log = text(client.get(reverse("match_log", args=[fielded.pk])))
    assert "Comet Wanderer removes its 1 Hex counter." in log


def test_it_refuses_an_unknown_status(client, fielded):
    html = refused(
        client,
        fielded,
        422,
        action="inflict",
        seat=1,
        target=unit_id(fielded, "Comet Wanderer"),
        status="Sleep",
    )
    assert "There is no status called &#x27;Sleep&#x27; in this match" in html


def test_a_table_status_and_overrides_are_marked_in_the_log(client, fielded):
    comet = unit_id(fielded, "Comet Wanderer")
    done(client, fielded, action="define_status", name="Freeze", stat="at")
    done(client, fielded, action="inflict", seat=1, target=comet, status="freeze", ignore_resist="1")
    done(client, fielded, action="adjust", what="counters", unit=comet, counter="damage", change="2")
    done(client, fielded, action="adjust", what="stat", unit=comet, stat="rs", change="-1")
    done(client, fielded, action="adjust", what="cards", seat=1, source="deck", target="removed", count="3")
    assert fielded.state["players"][1]["removed"] == 3
    assert [a.payload.get("override") for a in fielded.actions.order_by("seq")][-5:] == [
        True,
        None,
        True,
        True,
        True,
    ]
    log = text(client.get(reverse("match_log", args=[fielded.pk])))
    assert log.count("manual override") >= 4
    assert "Comet Wanderer: damage counters 0 → 2." in log


def test_milling_more_than_the_deck_holds_says_so(client):
    match = start(deck=1)
    done(client, match, action="play_unit", seat=0, name="Comet Wanderer")
    done(client, match, action="play_unit", seat=1, name="Nebula Warden")
    done(
        client,
        match,
        action="attack",
        unit=unit_id(match, "Comet Wanderer"),
        target=unit_id(match, "Nebula Warden"),
    )
    assert match.state["players"][1]["deck"] == 0
    for url in (reverse("match_log", args=[match.pk]), match.get_absolute_url()):
        assert "2 were asked for; only 1 was there." in text(client.get(url))


@pytest.mark.parametrize(("asked", "moved", "english", "german"), [
    (2, 1, "2 were asked for; only 1 was there.", "2 wurden verlangt; nur 1 war da."),
    (3, 2, "3 were asked for; only 2 were there.", "3 wurden verlangt; nur 2 waren da."),
    (1, 0, "1 was asked for; none was there.", "1 wurde verlangt; keine war da."),
])
def test_cards_asked_for_and_moved_are_each_counted_in_their_plural(asked, moved, english, german):
    from django.utils import translation

    from tracker.games.lonely_star.narration import describe

    event = {"type": "cards_moved", "seat": 1, "source": "deck", "target": "discard", "asked": asked, "moved": moved,
             "why": "luck-mill"}
    for language, said in (("en", english), ("de", german)):
        with translation.override(language):
            assert describe(event, ["Ana", "Ben"]).endswith(" " + said), language


def test_the_match_ends_by_deck_out_or_declaration(client):
    match = start(deck=0)
    done(client, match, action="end_turn", seat=0)
    done(client, match, action="finish_turn", seat=0)
    assert match.finished and match.winner is None and match.score == "both decked out"
    match = start()
    done(client, match, action="declare_winner", winner=1)
    assert match.winner.name == "Ben" and match.score == "by table call"
    assert "Ben wins by table call" in text(client.get(match.get_absolute_url()))


def test_declaring_the_winner_starts_with_no_seat_chosen(client):
    """A play-test ended a match with player 1 winning by one tap on "End the match": the form chose for them."""
    match = start()
    board = client.get(match.get_absolute_url()).content.decode()
    form = re.search(r'<input type="hidden" name="action" value="declare_winner">(.*?)</form>', board, re.S).group(1)
    radios = re.findall(r'<input type="radio" name="winner"[^>]*>', form)
    assert len(radios) == 2 and not any("checked" in radio for radio in radios) and all("required" in r for r in radios)
    assert "<option" not in form and "selected" not in form
    html = refused(client, match, 422, action="declare_winner")
    error = re.search(r'<fieldset class="field" role="radiogroup"[^>]*>(.*?)</fieldset>', html, re.S).group(1)
    assert "Choose the winner." in error  # beside the seats, and nothing was ended
    assert Match.objects.get(pk=match.pk).finished is None


def test_a_long_match_replays_to_its_state(client, fielded):
    comet, ember, warden = (unit_id(fielded, n) for n in ("Comet Wanderer", "Ember Drifter", "Nebula Warden"))
    steps = [
        {"action": "inflict", "seat": 1, "target": ember, "status": "poison"},
        {"action": "attack", "unit": ember, "target": warden},
        {"action": "luck_roll", "unit": ember, "roll": "3"},
        {"action": "d6", "seat": 1},
        {"action": "end_turn", "seat": 0},
        {"action": "finish_turn", "seat": 0},
        {"action": "damage", "source": warden, "target": comet, "amount": "3"},
        {"action": "inflict", "seat": 1, "target": comet, "status": "blind", "roll": "5"},
        {"action": "end_turn", "seat": 1},
        {"action": "finish_turn", "seat": 1},
        {"action": "attack", "unit": comet, "target": warden},
    ]
    for data in steps:
        done(client, fielded, **data)
    assert fielded.head == 3 + len(steps)
    assert services.match_replay(fielded) == fielded.state
    for page in ("match_log", "match_export_json", "match_export_text"):
        assert client.get(reverse(page, args=[fielded.pk])).status_code == 200, page
    replay = client.get(reverse("match_replay", args=[fielded.pk]), {"step": 4})
    assert replay.status_code == 200
    assert "Attack with" not in text(replay)  # a replayed board offers no forms


def test_a_finished_match_file_imports_to_the_same_match(client, fielded):
    comet, ember, warden = (unit_id(fielded, n) for n in ("Comet Wanderer", "Ember Drifter", "Nebula Warden"))
    done(client, fielded, action="attack", unit=ember, target=warden, roll="2")
    done(client, fielded, action="inflict", seat=1, target=comet, status="hex")
    done(client, fielded, action="adjust", what="stat", unit=comet, stat="at", change="1")
    done(client, fielded, action="declare_winner", winner=0)
    data = json.loads(json.dumps(exchange.export_match(fielded)))
    imported = Match.objects.get(pk=exchange.import_match(data).pk)
    assert (imported.state, imported.head, imported.score) == (fielded.state, fielded.head, fielded.score)
    assert [a.rolls for a in imported.actions.order_by("seq")] == [
        a.rolls for a in fielded.actions.order_by("seq")
    ]
    assert imported.winner == fielded.winner


def test_the_entry_page_says_there_is_nothing_secret(client, fielded):
    url = reverse("match_entry", args=[fielded.pk, 0])
    assert client.get(url).status_code == 302  # no seat is ever waited for
    before = snapshot(fielded)
    response = client.post(url, {"seq": fielded.head, "entry_token": entry_token(fielded, 0)})
    assert response.status_code == 422
    assert "Lonely Star has nothing secret to enter" in text(response)
    assert snapshot(fielded) == before


# ---------------------------------------------------------------- junk


JUNK_FIELDS = [
    ("damage", "action"),
    ("damage", "source"),
    ("damage", "seat"),
    ("damage", "roll"),
    ("damage", "amount"),
    ("inflict", "status"),
    ("adjust", "what"),
    ("adjust", "change"),
    ("play_unit", "hp"),
]
# Junk that is a fine answer for that field: a blank seat is the unit's controller, a blank roll
# is the app's, and -1 is a change.
ACCEPTED = {
    ("damage", "seat", "empty"),
    ("damage", "seat", "spaces"),
    ("damage", "roll", "empty"),
    ("damage", "roll", "spaces"),
    ("adjust", "change", "negative"),
}
JUNK_CASES = [
    (kind, field, junk, junk_id)
    for kind, field in JUNK_FIELDS
    for junk, junk_id in zip(JUNK, JUNK_IDS, strict=True)
    if (kind, field, junk_id) not in ACCEPTED
]


@pytest.fixture(scope="class")
def fielded_for_the_class(django_db_setup, django_db_blocker) -> int:
    """`fielded`'s match made once for the class's tests, each in a savepoint of it (helpers.shared_by_the_class):
    the junk tests below built it 175 times, a tenth of a second each."""
    with shared_by_the_class(django_db_blocker):
        yield fielded_match().pk


class TestJunk:
    @pytest.fixture
    def fielded(self, fielded_for_the_class, client) -> Match:
        """The class's match as made (each test's changes are rolled back after it)."""
        return Match.objects.get(pk=fielded_for_the_class)

    @pytest.mark.parametrize(
        "kind, field, junk, junk_id", JUNK_CASES, ids=[f"{k}-{f}-{j}" for k, f, _, j in JUNK_CASES]
    )
    def test_no_junk_makes_it_fail(self, client, fielded, kind, field, junk, junk_id):
        ember, warden = unit_id(fielded, "Ember Drifter"), unit_id(fielded, "Nebula Warden")
        data = {
            "damage": {"source": ember, "target": warden, "amount": 2},
            "inflict": {"seat": 0, "target": warden, "status": "burn"},
            "adjust": {"what": "stat", "unit": ember, "stat": "at", "change": 1},
            "play_unit": {"seat": 0, "name": "New", "hp": 1, "at": 1, "lk": 1, "rs": 1, "reach": 1},
        }[kind]
        data = {"seq": fielded.head, "action": kind, **data, field: junk}
        before, count = snapshot(fielded), Action.objects.count()
        response = client.post(act_url(fielded), data)
        assert 400 <= response.status_code < 500
        assert snapshot(fielded) == before and Action.objects.count() == count


def test_a_joined_phone_sees_and_acts_only_for_its_own_seat():
    owner, bens_phone = Client(), Client()
    load_catalog()
    options = {f"config-{key}": value for key, value in GAME_DEFAULTS.items()}
    response = owner.post(
        reverse("match_new", args=[SLUG]), {"player_0": "Ana", "player_1": "Ben", **options}
    )
    assert response.status_code == 302
    match = Match.objects.get(slug=SLUG)
    done(owner, match, action="play_unit", seat=0, name="Ember Drifter")
    done(owner, match, action="play_unit", seat=1, name="Nebula Warden")
    assert owner.post(reverse("invite_new", args=[match.pk]), {"kind": "seat", "seat": 1}).status_code == 302
    assert bens_phone.post(reverse("join", args=[Invite.objects.get(match=match).token])).status_code == 302

    html = text(bens_phone.get(match.get_absolute_url()))
    assert "Ben plays a unit" in html and "More for Nebula Warden" in html
    assert "Ana plays a unit" not in html and "Attack with Ember Drifter" not in html
    ember, warden = unit_id(match, "Ember Drifter"), unit_id(match, "Nebula Warden")
    refused(bens_phone, match, 403, action="attack", unit=ember, target=warden)


def test_the_log_words_made_at_import_name_the_engines_figures_in_the_pages_language():
    from django.utils import translation

    from tracker.games.evons.narration import ENDINGS
    from tracker.games.lonely_star.narration import WHY_DAMAGE, WHY_MOVED

    with translation.override("en"):
        assert (str(WHY_MOVED["luck-mill"]), str(WHY_DAMAGE["poison-again"]), str(ENDINGS["board-full"])) == (
            "Luck over 6 mills", "Poisoned again, fewer than 2 cards in the deck",
            "All 25 main-zone cells are full: the game ends at once.")
    with translation.override("de"):
        assert (str(WHY_MOVED["luck-mill"]), str(WHY_DAMAGE["poison-again"])) == (
            "Luck über 6 wirft ab", "Erneut Poison, weniger als 2 Karten im Deck")


def test_a_part_has_one_digest_whatever_order_its_state_keys_come_in():
    """PostgreSQL's jsonb gives a state's keys back in its own order, not the engine's: a unit drawn from the
    state the engine just made and the same unit read back must not look changed (or no part is ever kept)."""
    from django.template import Context

    from tracker.templatetags.regions import digest

    unit = {"id": 2, "name": "Nebula Warden", "hp": 8, "damage": 0, "statuses": [], "seat": 1}
    read_back = dict(sorted(unit.items(), key=lambda item: (len(item[0]), item[0])))  # jsonb: shorter keys first
    assert list(read_back) != list(unit)
    assert digest([unit, {"turn": 0, "end_step": 3}], Context()) == digest([read_back, {"end_step": 3, "turn": 0}],
                                                                           Context())
    assert digest([unit], Context()) != digest([{**unit, "damage": 1}], Context())
