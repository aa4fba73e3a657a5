"""LOGOS pages: new duel, secret commits through the pass screen, the board's buttons, the log.

Cast: Ana (seat 0) and Ben (seat 1) with the demo LOGOS catalog. A committed card is
its player's secret until both have committed: no page another player can open may
carry it (the catalog's datalist, which lists every card, is the only place a name
may appear).
"""

import re

import pytest
from django.test import Client
from django.urls import reverse

from tracker.games import pages_for
from tracker.matches import services
from tracker.models import Action, Card, Match

from .helpers import (
    JUNK,
    JUNK_IDS,
    device_of,
    entry_token,
    seated_phone,
    shared_by_the_class,
    snapshot,
    text,
    watching_phone,
)

pytestmark = pytest.mark.django_db

SLUG = "logos"


@pytest.fixture
def duel(db) -> Match:
    return fresh_duel()


def fresh_duel() -> Match:
    """A fresh duel, Ana against Ben, with the LOGOS demo catalog (only LOGOS's: quicker)."""
    pages = pages_for(SLUG)
    Card.objects.bulk_create(
        Card(slug=SLUG, name=card["name"], stats=pages.card_stats(card)) for card in pages.demo_cards
    )
    return services.match_create(slug=SLUG, player_names=["Ana", "Ben"], config={})


@pytest.fixture(scope="class")
def duel_for_the_class(django_db_setup, django_db_blocker) -> int:
    """`duel` made once for the tests of a class that share it, each in a savepoint of it (as conftest's
    match_for_the_class): its pk."""
    with shared_by_the_class(django_db_blocker):
        yield fresh_duel().pk


def card(name: str) -> dict:
    return Card.objects.get(slug=SLUG, name=name).as_rules_card()


def apply(match: Match, action: dict) -> Match:
    match.refresh_from_db()
    services.match_apply_action(match_id=match.pk, action=action, expected_seq=match.head)
    match.refresh_from_db()
    return match


def commit(match: Match, seat: int, name: str | None, backup: str | None = None) -> Match:
    match.refresh_from_db()
    number = match.state["round"]
    if name is None:
        return apply(match, {"type": "defenceless", "seat": seat, "round": number})
    action = {"type": "commit", "seat": seat, "round": number, "card": card(name),
              "backup": card(backup) if backup else None}
    return apply(match, action)


def round_of(match: Match, name0: str | None, name1: str | None, backup0: str | None = None) -> Match:
    commit(match, 0, name0, backup0)
    return apply(commit(match, 1, name1), {"type": "fight"})


def entry_url(match: Match, seat: int) -> str:
    return reverse("match_entry", args=[match.pk, seat])


def entry_post(client, match: Match, seat: int, **fields):
    match.refresh_from_db()
    data = {"seq": match.head, "entry_token": entry_token(match, seat), **fields}
    return client.post(entry_url(match, seat), data)


def act(client, match: Match, **fields):
    match.refresh_from_db()
    return client.post(reverse("match_act", args=[match.pk]), {"seq": match.head, **fields})


def refused(client, match: Match, post, status: int) -> str:
    """`post()` is answered with `status` and changes nothing at all."""
    before, count = snapshot(match), Action.objects.count()
    response = post()
    assert response.status_code == status, text(response)[:2000]
    assert snapshot(match) == before
    assert Action.objects.count() == count
    return text(response)


def without_datalist(html: str) -> str:
    return re.sub(r"<datalist.*?</datalist>", "", html, flags=re.S)


# ---------------------------------------------------------------- a new duel


def test_new_duel_page_offers_the_options(client, duel):
    html = text(client.get(reverse("match_new", args=[SLUG])))
    assert "New LOGOS duel" in html
    for label in ("Starting HP", "Card slots at the start", "Regeneration may heal above the starting HP",
                  "A Deadlock adds each card", "When a player resigns"):
        assert label in html


def test_it_starts_a_duel_with_chosen_options(client, duel):
    response = client.post(reverse("match_new", args=[SLUG]), {
        "player_0": "Chloé", "player_1": "Dev", "config-starting_hp": "50000", "config-card_slots": "4",
        "config-heal_above_start": "on", "config-resignation": "draw"})
    assert response.status_code == 302
    match = Match.objects.get(slug=SLUG, seats__player__name="Chloé")
    assert match.state["hp"] == [50_000, 50_000] and match.state["slots"] == [4, 4]
    assert match.config["heal_above_start"] is True and match.config["deadlock_combo"] is False
    html = text(client.get(response.url))
    assert "Starting HP 50,000." in html and "A resignation is a draw for both." in html


@pytest.mark.parametrize("hp", ["0", "-5", "lots", "99999999999"])
def test_it_refuses_bad_starting_hp(client, duel, hp):
    count = Match.objects.count()
    response = client.post(reverse("match_new", args=[SLUG]), {
        "player_0": "Chloé", "player_1": "Dev", "config-starting_hp": hp, "config-card_slots": "3",
        "config-resignation": "opponent-wins"})
    assert response.status_code == 422
    assert Match.objects.count() == count


# ---------------------------------------------------------------- secret commits


def test_the_board_asks_each_player_to_commit(client, duel):
    html = text(client.get(duel.get_absolute_url()))
    assert "Round 1: commit your cards" in html
    assert "Pass the phone to Ana" in html and "Pass the phone to Ben" in html
    assert "100,000" in html and "3 card slots" in html


def test_the_entry_page_shows_the_players_own_side(client, duel):
    round_of(duel, "Granite Fist", "Solar Flare")
    html = text(client.get(entry_url(duel, 0)))
    assert "Ana: commit your card for round 2" in html
    assert 'name="entry_token"' in html and 'name="seq"' in html
    assert "Your combo counter (newest first):" in html
    assert re.search(r'hex-red" aria-hidden="true"></span> red', html)
    assert "I have no playable card" in html


def test_a_commit_stays_secret_until_both_have_committed(client, duel):
    response = entry_post(client, duel, 0, card="Iron Golem", backup="Seraph")
    assert response.status_code == 302
    duel.refresh_from_db()
    assert duel.state["commits"][0]["card"]["name"] == "Iron Golem"
    pages = [
        client.get(duel.get_absolute_url()),
        client.get(reverse("match_pass", args=[duel.pk, 1])),
        client.get(entry_url(duel, 1)),
        client.get(reverse("match_log", args=[duel.pk])),
        client.get(reverse("match_replay", args=[duel.pk]) + "?step=1"),
    ]
    for page in pages:
        assert page.status_code == 200
        html = without_datalist(text(page))
        for secret in ("Iron Golem", "Seraph"):
            assert secret not in html, f"{secret} leaked into {page.request['PATH_INFO']}"
    assert "Ana has committed" in text(pages[0])
    assert "Round 1: Ana commits in secret" in text(pages[3])

    assert entry_post(client, duel, 1, card="Lightning Lance").status_code == 302
    html = text(client.get(duel.get_absolute_url()))
    assert "Iron Golem" in html and "Lightning Lance" in html
    assert "Backup: <strong>Seraph</strong>" in html
    assert "Round 1 revealed: Ana plays Iron Golem" in html
    log = text(client.get(reverse("match_log", args=[duel.pk])))
    assert "Round 1: Ana commits Iron Golem and sends Seraph to the backup slot" in log


def test_a_seated_phone_sees_only_its_own_commit(duel):
    commit(duel, 0, "Iron Golem", backup="Seraph")
    pages = pages_for(SLUG)
    assert pages.own_secret(duel, 0) == ["Iron Golem", "Backup slot: Seraph"]
    assert pages.own_secret(duel, 1) is None
    commit(duel, 1, None)
    assert pages.own_secret(duel, 0) is None  # revealed: no longer a secret


def test_a_declared_defenceless_round_looks_like_any_commit(client, duel):
    response = entry_post(client, duel, 0, defenceless="1")
    assert response.status_code == 302
    duel.refresh_from_db()
    assert duel.state["commits"][0] == {"card": None, "backup": None}
    assert "no playable card" not in text(client.get(reverse("match_log", args=[duel.pk])))
    entry_post(client, duel, 1, card="Granite Fist")
    html = text(client.get(duel.get_absolute_url()))
    assert "Ana has no playable card: Ana empties every card slot and is defenceless this round." in html
    assert "No card: defenceless" in html


def test_an_unplayable_combo_is_refused_naming_the_panel(client, duel):
    html = refused(client, duel, lambda: entry_post(client, duel, 0, card="Rulebook Datacard"), 422)
    assert html.count("Rulebook Datacard cannot be played") == 1
    assert ("Rulebook Datacard cannot be played: combo panel 2 needs blue, and that panel of Ana&#x27;s combo "
            "counter is empty.") in html


@pytest.mark.parametrize(("fields", "message"), [
    ({"card": "No Such Card"}, "No card called “No Such Card” in the catalog"),
    ({"card": ""}, "Name the card you play, or tap “I have no playable card”."),
    ({"card": "Iron Golem", "backup": "Granite Fist"}, "Granite Fist cannot go to the backup slot"),
])
def test_bad_commits_are_refused(client, duel, fields, message):
    html = refused(client, duel, lambda: entry_post(client, duel, 0, **fields), 422)
    assert message in html


@pytest.mark.parametrize(("fields", "said", "focused"), [
    ({"card": "No Such Card"}, "fix the fields marked below:", 'name="card"'),
    ({"card": "Rulebook Datacard"}, "Rulebook Datacard cannot be played: combo panel 2 needs blue", 'id="entry-notice"'),
])
def test_a_refused_commit_opens_on_its_notice_above_the_fields(client, duel, fields, said, focused):
    """Refused by the form or by the rules, the entry says why in one notice just above the fields (the page opens
    on it: picker.js, logos.css: #entry-notice), not in the messages at the top of the page. The focus is on the
    refused field (its error between its label and the field, as every refused form has it), or on the notice when
    the rules refused the card; unrefused, the card field has it, where the page opens."""
    html = refused(client, duel, lambda: entry_post(client, duel, 0, **fields), 422)
    notice = re.search(r'<p class="notice notice-error"[^>]*>.*?</p>', html, re.S).group(0)
    assert 'id="entry-notice"' in notice and 'tabindex="-1"' in notice
    assert "Not committed:" in notice and said.replace("'", "&#x27;") in notice
    assert html.count("notice-error") == 1 and "Not applied:" not in html
    assert html.index('id="entry-notice"') < html.index('name="card"') < html.index("Commit this card")
    autofocus = re.findall(r"<[a-z]+[^>]*\sautofocus\b[^>]*>", html)
    assert len(autofocus) == 1 and focused in autofocus[0], autofocus
    assert ("data-autofocus" in html) == (focused == 'name="card"')
    assert "data-autofocus" in text(client.get(entry_url(duel, 0)))


def test_a_second_backup_card_is_refused(client, duel):
    round_of(duel, "Granite Fist", "Solar Flare", backup0="Seraph")
    html = refused(client, duel, lambda: entry_post(client, duel, 0, card="Iron Golem", backup="Quicksilver"), 422)
    assert "Ana&#x27;s backup slot already holds Seraph; it takes one card." in html


def test_committing_for_the_other_player_is_refused(client, duel):
    def post():
        duel.refresh_from_db()
        data = {"seq": duel.head, "entry_token": entry_token(duel, 1), "card": "Iron Golem"}
        return client.post(entry_url(duel, 0), data)

    refused(client, duel, post, 403)


def test_a_stale_commit_is_refused(client, duel):
    commit(duel, 0, "Iron Golem")

    def post():
        return client.post(entry_url(duel, 1), {"seq": 0, "entry_token": entry_token(duel, 1), "card": "Seraph"})

    assert "The match moved on" in refused(client, duel, post, 409)


# ---------------------------------------------------------------- the battle phase


def test_fight_shows_every_step_of_the_working(client, duel):
    commit(duel, 0, "Granite Fist")
    commit(duel, 1, "Solar Flare")
    response = act(client, duel, action="fight")
    assert response.status_code == 302
    html = text(client.get(response.url))
    for line in (
        "Direction: red (MATTER) beats green (ENERGY): Ana attacks and Ben defends.",
        "Ben&#x27;s Maximize (right field, on Ben): Ben&#x27;s card ATTACK / DEFENSE 30,000 / 15,000 → "
        "30,000 / 30,000.",
        "Ana attacks: ATTACK 35,000 − DEFENSE 30,000 = 5,000 damage; Ben 100,000 → 95,000 HP.",
        "Ana&#x27;s combo counter: red in → red.",
        "Round 1 is over.",
    ):
        assert line in html
    assert "Round 2: commit your cards" in html


def test_calling_the_backup_through_the_board(client, duel):
    commit(duel, 0, "Granite Fist", backup="Seraph")
    commit(duel, 1, "Lightning Lance")
    html = text(client.get(duel.get_absolute_url()))
    assert "Ana calls the backup card" in html and "Ben calls the backup card" not in html
    assert act(client, duel, action="call_backup", seat="0").status_code == 302
    duel.refresh_from_db()
    assert duel.state["table"]["cards"][0]["name"] == "Seraph" and duel.state["backup"][0] is None
    html = text(client.get(duel.get_absolute_url()))
    assert "Ana calls Seraph (Life, ATTACK 60,000 / DEFENSE 20,000 / SPEED 150) from the backup slot" in html
    assert "Direction after the backup call:" in html


def test_calling_a_backup_that_is_not_there_is_refused(client, duel):
    commit(duel, 0, "Granite Fist")
    commit(duel, 1, "Solar Flare")
    html = refused(client, duel, lambda: act(client, duel, action="call_backup", seat="1"), 422)
    assert "Ben has no card in the backup slot." in html


def test_fighting_before_the_reveal_is_refused(client, duel):
    html = refused(client, duel, lambda: act(client, duel, action="fight"), 422)
    assert "Round 1&#x27;s cards are not revealed yet" in html


def test_resigning_ends_the_duel(client, duel):
    commit(duel, 0, "Granite Fist")
    commit(duel, 1, "Solar Flare")
    assert act(client, duel, action="resign", seat="1").status_code == 302
    duel.refresh_from_db()
    assert duel.finished and duel.winner.name == "Ana" and duel.score == "by resignation"
    html = text(client.get(duel.get_absolute_url()))
    assert "Ana wins: Ben resigned." in html
    html = refused(client, duel, lambda: act(client, duel, action="fight"), 422)
    assert "The duel is over; no more actions can be taken." in html


def test_a_resignation_that_is_a_draw_says_how_the_match_ended(db):
    """The engine records it as "draw"; "Match over: a draw, draw." said nothing of how (round 32)."""
    from django.utils import translation

    from tracker.matches.outcome import match_end

    pages = pages_for(SLUG)
    Card.objects.bulk_create(Card(slug=SLUG, name=c["name"], stats=pages.card_stats(c)) for c in pages.demo_cards)
    duel = services.match_create(slug=SLUG, player_names=["Ana", "Ben"], config={"resignation": "draw"})
    commit(duel, 0, "Granite Fist")
    commit(duel, 1, "Solar Flare")
    duel = apply(duel, {"type": "resign", "seat": 0})
    assert duel.finished and duel.winner is None and duel.score == "draw"
    assert match_end(duel) == "Match over: a draw, by resignation."
    with translation.override("de"):
        assert match_end(duel) == "Partie vorbei: unentschieden, durch Aufgabe."


def test_set_hp_is_a_manual_override_in_the_log(client, duel):
    assert act(client, duel, action="set_hp", seat="1", hp="12000").status_code == 302
    duel.refresh_from_db()
    assert duel.state["hp"] == [100_000, 12_000]
    log = text(client.get(reverse("match_log", args=[duel.pk])))
    assert "Ben&#x27;s HP set by hand" in log and "manual override" in log
    assert "Manual correction: Ben&#x27;s HP 100,000 → 12,000." in log


@pytest.mark.parametrize(("fields", "message"), [
    ({"action": "cheat"}, "Choose fight, call backup, resign or set HP"),
    ({"action": "resign"}, "Choose which player"),
    ({"action": "resign", "seat": "2"}, "Choose which player"),
    ({"action": "set_hp", "seat": "0", "hp": "lots"}, "HP must be a whole number"),
    ({"action": "set_hp", "seat": "0", "hp": "-1"}, "HP must be a whole number from 0"),
])
def test_malformed_table_actions_are_refused(client, duel, fields, message):
    assert message in refused(client, duel, lambda: act(client, duel, **fields), 422)


class TestJunk:
    """The 80 junk tests share one duel (duel_for_the_class), each in a savepoint of it."""

    @pytest.fixture
    def duel(self, duel_for_the_class) -> Match:
        return Match.objects.get(pk=duel_for_the_class)

    @pytest.mark.parametrize("junk", JUNK, ids=JUNK_IDS)
    @pytest.mark.parametrize("field", ["action", "seat", "hp"])
    def test_junk_never_breaks_the_board(self, client, duel, junk, field):
        fields = {"action": "set_hp", "seat": "0", "hp": "5000", field: junk}
        before, count = snapshot(duel), Action.objects.count()
        response = act(client, duel, **fields)
        assert response.status_code in (302, 400, 422)
        if response.status_code != 302:
            assert snapshot(duel) == before and Action.objects.count() == count

    @pytest.mark.parametrize("junk", JUNK, ids=JUNK_IDS)
    def test_junk_never_breaks_the_entry(self, client, duel, junk):
        before = snapshot(duel)
        response = entry_post(client, duel, 0, card=junk, backup=junk)
        assert response.status_code in (400, 422)
        assert snapshot(duel) == before


def test_a_stale_fight_is_refused(client, duel):
    commit(duel, 0, "Granite Fist")
    commit(duel, 1, "Solar Flare")

    def post():
        return client.post(reverse("match_act", args=[duel.pk]), {"seq": 1, "action": "fight"})

    assert "The match moved on" in refused(client, duel, post, 409)


# ---------------------------------------------------------------- the catalog


def test_a_datacard_is_added_to_the_catalog_on_the_spot(client, duel):
    response = client.post(reverse("card_new", args=[SLUG]), {
        "new-name": "Prism Hack", "new-class": "INFORMATION", "new-attack": "12000", "new-defense": "8000",
        "new-speed": "64", "new-combo_1": "grey", "new-combo_2": "blue", "new-combo_3": "grey",
        "new-left_effect": "color-change", "new-left_from": "red", "new-left_to": "green",
        "new-right_effect": "", "new-right_from": "", "new-right_to": "",
        "next": entry_url(duel, 0)})
    assert response.status_code == 302 and response.url == entry_url(duel, 0)
    assert card("Prism Hack") == {
        "name": "Prism Hack", "class": "INFORMATION", "attack": 12_000, "defense": 8_000, "speed": 64,
        "combo": ["grey", "blue", "grey"], "left_effect": {"name": "color-change", "from": "red", "to": "green"},
        "right_effect": None}


def test_the_catalog_lists_logos_cards(client, duel):
    response = client.get(reverse("card_list", args=[SLUG]))
    assert response.status_code == 200
    row = re.search(r"<tr><th scope=\"row\"><a [^>]*>Rulebook Datacard</a></th>.*?</tr>", text(response)).group(0)
    assert "<td>INFORMATION</td><td>5000</td><td>20000</td><td>70</td>" in row


@pytest.mark.parametrize(("change", "message"), [
    ({"new-class": "FIRE"}, "Select a valid choice"),
    ({"new-attack": "-1"}, "greater than or equal to 0"),
    ({"new-speed": "fast"}, "Enter a whole number"),
    ({"new-combo_2": "orange"}, "Select a valid choice"),
    ({"new-left_effect": "color-change"}, "Unknown colour"),
])
def test_a_bad_datacard_is_refused(client, duel, change, message):
    count = Card.objects.count()
    data = {"new-name": "Bad", "new-class": "MATTER", "new-attack": "1", "new-defense": "1", "new-speed": "1",
            "new-combo_1": "grey", "new-combo_2": "grey", "new-combo_3": "grey", **change}
    response = client.post(reverse("card_new", args=[SLUG]), data)
    assert response.status_code == 422
    assert message in text(response)
    assert Card.objects.count() == count


def test_the_rulebook_datacard_is_in_the_demo_catalog_and_plays(client, duel):
    assert card("Rulebook Datacard") == {
        "name": "Rulebook Datacard", "class": "INFORMATION", "attack": 5_000, "defense": 20_000, "speed": 70,
        "combo": ["grey", "blue", "blue"], "left_effect": None, "right_effect": {"name": "regeneration"}}
    # Two INFORMATION rounds, then any card: the counter reads (any), blue, blue.
    round_of(duel, "Mirror Code", "Solar Flare")
    round_of(duel, "Data Leak", "Iron Golem")
    round_of(duel, "Granite Fist", "Blank Shield")
    duel.refresh_from_db()
    assert duel.state["combo"][0] == ["red", "blue", "blue"]
    assert duel.state["hp"][0] < 100_000
    assert entry_post(client, duel, 0, card="Rulebook Datacard").status_code == 302
    assert entry_post(client, duel, 1, card="Shuffle Drone").status_code == 302
    html = text(client.get(duel.get_absolute_url()))
    assert "Ana&#x27;s Regeneration (right field, on Ana): heals Ana by ATTACK + DEFENSE = 25,000" in html


# ---------------------------------------------------------------- a whole duel through the pages


def test_a_whole_duel_replays_from_its_log(client, duel):
    pages = [
        ("Granite Fist", "Solar Flare", "Seraph"),
        ("Iron Golem", "Lightning Lance", None),
        (None, "Overload", None),
    ]
    for card0, card1, backup in pages:
        if card0:
            entry_post(client, duel, 0, card=card0, backup=backup or "")
        else:
            entry_post(client, duel, 0, defenceless="1")
        assert entry_post(client, duel, 1, card=card1).status_code == 302
        if card0 == "Iron Golem":
            assert act(client, duel, action="call_backup", seat="0").status_code == 302
        assert act(client, duel, action="fight").status_code == 302
    assert act(client, duel, action="set_hp", seat="1", hp="0").status_code == 302
    duel.refresh_from_db()
    assert duel.finished and duel.winner.name == "Ana"
    assert services.match_replay(duel) == duel.state
    pages = pages_for(SLUG)
    assert pages.cards_played(duel, 0) == ["Granite Fist", "Seraph"]  # round 3: defenceless
    # 1: 35,000 - 30,000 (Maximized Solar Flare); 2: Seraph swapped to 20,000 / 60,000 by Lightning Lance,
    # 20,000 - 10,000; 3: Ana defenceless against Overload's full 55,000.
    assert pages.progress(duel)[1] == {"Ana": [100_000, 100_000, 100_000, 45_000],
                                       "Ben": [100_000, 95_000, 85_000, 85_000]}
    html = text(client.get(duel.get_absolute_url()))
    assert "Ana wins: Ben is at 0 HP." in html
    assert 'value="fight"' not in html


# ---------------------------------------------------------------- two phones, a seat each, and a watcher


@pytest.fixture
def phones(duel) -> dict:
    """The duel set up on a host phone; Ana's and Ben's own phones joined by links, Cleo's watches."""
    host = Client()
    Match.objects.filter(pk=duel.pk).update(owner_device=device_of(host))
    return {"host": host, "ana": seated_phone(host, duel, 0), "ben": seated_phone(host, duel, 1),
            "cleo": watching_phone(host, duel)}


def what_a_phone_loads(phone, match: Match) -> list[str]:
    """The match page, the part live updates swap in, and a poll that has missed every change."""
    url = match.get_absolute_url()
    return [text(phone.get(url)), text(phone.get(url, HTTP_HX_REQUEST="true")),
            text(phone.get(reverse("match_poll", args=[match.pk]), {"v": "-1"}))]


def test_each_seated_phone_commits_its_own_card_and_the_others_see_only_that_it_did(phones, duel):
    ana, ben = phones["ana"], phones["ben"]
    board = text(ana.get(duel.get_absolute_url()))
    # Straight to the player's own entry: no pass screen on a seated phone.
    assert f'href="{entry_url(duel, 0)}">Commit your card</a>' in board
    assert "Pass the phone" not in board and "/pass/" not in board
    assert "Ben commits on their own phone." in board
    ben_board = text(ben.get(duel.get_absolute_url()))
    assert ben_board.count("Commit your card") == 1
    assert f'href="{entry_url(duel, 1)}">Commit your card</a>' in ben_board

    assert entry_post(ana, duel, 0, card="Iron Golem", backup="Seraph").status_code == 302
    for who in ("host", "ben", "cleo"):
        loaded = what_a_phone_loads(phones[who], duel)
        history = [text(phones[who].get(reverse("match_log", args=[duel.pk]))),
                   text(phones[who].get(reverse("match_replay", args=[duel.pk]), {"step": 1}))]
        assert "Round 1: Ana commits in secret" in history[0]
        for html in loaded + history:
            for secret in ("Iron Golem", "Seraph"):
                assert secret not in without_datalist(html), f"{secret} leaked to {who}"
        assert "Ana has committed" in loaded[0] and "Ana has committed" in loaded[1]
    ben_entry = text(ben.get(entry_url(duel, 1)))
    assert "Ben: commit your card for round 1" in ben_entry
    assert "Iron Golem" not in without_datalist(ben_entry) and "Seraph" not in without_datalist(ben_entry)
    own = text(ana.get(duel.get_absolute_url()))
    assert "Your commit (only this phone sees it)" in own
    assert "<li>Iron Golem</li><li>Backup slot: Seraph</li>" in own

    assert entry_post(ben, duel, 1, card="Lightning Lance").status_code == 302
    for who, phone in phones.items():
        html = what_a_phone_loads(phone, duel)[1]
        assert "Round 1 revealed: Ana plays Iron Golem" in html, who
        assert "Your commit" not in html


def test_a_seated_phone_is_told_when_the_other_seat_commits_on_the_hosts_phone(duel):
    host = Client()
    Match.objects.filter(pk=duel.pk).update(owner_device=device_of(host))
    ben = seated_phone(host, duel, 1)
    assert "Ana commits on the host's phone." in text(ben.get(duel.get_absolute_url()))
    assert "Ben commits on their own phone." in text(host.get(duel.get_absolute_url()))


def test_in_the_battle_each_phone_is_offered_only_what_it_may_do(phones, duel):
    commit(duel, 0, "Granite Fist", backup="Seraph")
    commit(duel, 1, "Solar Flare", backup="Quicksilver")
    everything = ["Ana calls the backup card", "Ben calls the backup card", "Ana resigns", "Ben resigns"]
    offered = {who: what_a_phone_loads(phone, duel)[1] for who, phone in phones.items()}
    overrides = ['<option value="0">Ana</option>', '<option value="1">Ben</option>']
    # The host's phone plays neither seat (each is on a phone of its own): it is offered the table's fight and the
    # corrections, which ask the phones, and no seat's own move, which would only be refused.
    for label in overrides + ['value="fight"']:
        assert label in offered["host"], label
    for label in everything:
        assert label not in offered["host"], label
    for who, mine, theirs, their_seat in (("ana", "Ana", "Ben", 1), ("ben", "Ben", "Ana", 0)):
        html = offered[who]
        assert 'value="fight"' in html  # fighting is for the table: either phone may press it
        assert f"{mine} calls the backup card" in html and f"{mine} resigns" in html
        assert f"{theirs} calls the backup card" not in html and f"{theirs} resigns" not in html
        assert f'<option value="{their_seat}">{theirs}</option>' not in html  # no HP override for the other
    assert "<form" not in offered["cleo"] and "<button" not in offered["cleo"]




def test_the_combo_counter_panels_are_labelled_on_screen(client, duel):
    html = text(client.get(duel.get_absolute_url()))
    assert html.count('<span class="small logos-combo-label" aria-hidden="true">Combo counter, newest first</span>') == 2


def test_the_log_says_the_fewest_card_slots_the_engine_keeps():
    event = {"type": "effect", "side": "right_effect", "effect": "remove-card-slot", "via": "card", "seat": 0,
             "target": 1, "outcome": "no-change", "before": 1, "after": 1}
    line = pages_for("logos").describe(event, ["Ana", "Ben"])
    assert line.endswith("Ben keeps 1 card slot (never fewer than 1)."), line


def test_the_backup_field_names_the_engines_speed_in_the_pages_language():
    from django.utils import translation

    from tracker.games.logos.forms import CommitForm

    label = CommitForm.base_fields["backup"].label  # made once, at import: it must stay lazy
    with translation.override("en"):
        assert "(optional: SPEED over 99, no combo requirement)" in str(label)
    with translation.override("de"):
        assert "(optional: SPEED über 99, keine Kombo-Bedingung)" in str(label)
