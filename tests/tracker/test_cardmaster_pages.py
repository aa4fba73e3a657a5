"""Cardmaster pages: a 3v3 Custom Match set up, entered in hot-seat and played through the board forms.

Ana (seat 0) fields Gale Harrier (SPD 170), Storm Kite, Volt Lancer; Ben (seat 1) the
slower Stonewarden, Granite Brute, Reef Sentinel. So Ana has possession in round 1.
"""

import re
from html import unescape

import pytest
from django.urls import reverse

import rules
from tracker.demo import load_catalogs
from tracker.matches import services
from tracker.models import Action, Card, Match

from .helpers import JUNK, JUNK_IDS, entry_token, snapshot, text

pytestmark = pytest.mark.django_db

ANA = ["Gale Harrier", "Storm Kite", "Volt Lancer"]
BEN = ["Stonewarden", "Granite Brute", "Reef Sentinel"]


@pytest.fixture
def cm_catalog(db):
    load_catalogs()
    return {card.name: card for card in Card.objects.filter(slug="cardmaster")}


@pytest.fixture
def cm_match(cm_catalog) -> Match:
    return services.match_create(slug="cardmaster", player_names=["Ana", "Ben"], config={
        "size": 3, "who_rolls": "app", "type_names": ["Ember", "Tide", "Gale", "Stone", "Volt", "Frost", "Bloom",
                                                      "Venom", "Radiance", "Umbra"],
        "overcook_turns": 3, "undershock_turns": 3, "risen_revivable": False})


def lineup_data(match, seat, names):
    match.refresh_from_db()
    data = {"seq": match.head, "entry_token": entry_token(match, seat)}
    data.update({f"card_{n}": name for n, name in enumerate(names, start=1)})
    return data


@pytest.fixture
def playing(client, cm_match) -> Match:
    for seat, names in enumerate((ANA, BEN)):
        response = client.post(reverse("match_entry", args=[cm_match.pk, seat]), lineup_data(cm_match, seat, names))
        assert response.status_code == 302
    cm_match.refresh_from_db()
    return cm_match


def act(client, match, **data):
    match.refresh_from_db()
    return client.post(reverse("match_act", args=[match.pk]), {"seq": match.head, **data})


def refused(client, match, data, status):
    match.refresh_from_db()
    before, count = snapshot(match), Action.objects.count()
    response = client.post(reverse("match_act", args=[match.pk]), data)
    assert response.status_code == status
    assert snapshot(match) == before and Action.objects.count() == count
    return text(response)


def test_it_starts_a_custom_match_from_the_new_match_page(client, cm_catalog):
    page = text(client.get(reverse("match_new", args=["cardmaster"])))
    assert "New Cardmaster Custom Match" in page and "6v6" in page
    response = client.post(reverse("match_new", args=["cardmaster"]), {
        "player_0": "Ana", "player_1": "Ben", "config-size": "6", "config-who_rolls": "player",
        "config-type_names": "Fire, Water, Wind, Rock, Spark, Ice, Leaf, Poison, Light, Dark",
        "config-overcook_turns": "2", "config-undershock_turns": "4"})
    assert response.status_code == 302
    match = Match.objects.get()
    assert match.state["config"]["type_names"][0] == "Fire" and match.state["config"]["size"] == 6
    assert match.state["config"]["who_rolls"] == "player" and match.state["config"]["risen_revivable"] is False


def test_it_refuses_nine_type_names_with_a_message(client, cm_catalog):
    response = client.post(reverse("match_new", args=["cardmaster"]), {
        "player_0": "Ana", "player_1": "Ben", "config-size": "3", "config-who_rolls": "app",
        "config-type_names": "A, B, C, D, E, F, G, H, I",
        "config-overcook_turns": "3", "config-undershock_turns": "3"})
    assert response.status_code == 422
    assert "ten different type names" in text(response)
    assert not Match.objects.exists()


def test_lineups_are_entered_in_hot_seat_and_hidden_until_both_are_locked(client, cm_match):
    page = text(client.get(cm_match.get_absolute_url()))
    assert "Pass the phone to Ana" in page and "Pass the phone to Ben" in page
    entry = text(client.get(reverse("match_entry", args=[cm_match.pk, 0])))
    assert "Active 1" in entry and "Active 3" in entry and "Reserve 1" not in entry
    client.post(reverse("match_entry", args=[cm_match.pk, 0]), lineup_data(cm_match, 0, ANA))
    page = text(client.get(cm_match.get_absolute_url()))
    assert "Ana is locked in" in page
    for name in ANA:
        assert name not in page
    assert "Gale Harrier" not in text(client.get(reverse("match_log", args=[cm_match.pk])))


def test_a_lineup_with_an_unknown_card_is_refused_and_kept(client, cm_match):
    response = client.post(reverse("match_entry", args=[cm_match.pk, 0]),
                           lineup_data(cm_match, 0, ["Gale Harrier", "Nobody", "Gale Harrier"]))
    assert response.status_code == 422
    html = text(response)
    assert "No card called “Nobody”" in html and "already in this lineup" in html
    cm_match.refresh_from_db()
    assert cm_match.head == 0


def test_the_board_shows_possession_handover_cards_and_gem_prices(client, playing):
    html = text(client.get(playing.get_absolute_url()))
    assert "Pass the phone to Ana" in html
    assert "Round 1 · <strong>Ana</strong> has possession" in html
    assert "Still to move: Gale Harrier, Storm Kite, Volt Lancer" in html
    assert "HP 1100/1100" in html and "◆ 1 shown (1 + 0 stacked)" in html
    assert "➶ Gale / ✹ Ember" in html  # Gale Harrier's types by symbol and name
    assert "Needs 3 shown: Gale Harrier shows 1, raided pool 0." in html
    assert "Needs 5 shown" in html
    assert "Round 1 (fastest: Storm Kite SPD 180, Reef Sentinel SPD 75): higher SPD goes first" in html


def test_a1_shows_its_working_and_possession_passes_after_every_card_moved(client, playing):
    response = act(client, playing, action="a1", card="A1", target="B1")
    assert response.status_code == 302
    html = text(client.get(playing.get_absolute_url()))
    # Gale Harrier (ATK 300, Gale) on Stonewarden (Stone/Stone, DEF 420): Gale beats Stone, counted once.
    assert "Gale Harrier hits Stonewarden with A1: ATK 300 × 0.33 × 2 (➶ Gale) × (1 − DEF 420/1000) = 115 damage" in html
    assert "Pass the phone to" not in html
    act(client, playing, action="stack", card="A2")
    act(client, playing, action="stack", card="A3")
    html = text(client.get(playing.get_absolute_url()))
    assert "Pass the phone to Ben" in html and "<strong>Ben</strong> has possession" in html


def test_a_whole_match_played_to_the_end_replays_from_its_log(client, playing):
    """Every move through the services, the way the board posts them: the strongest affordable
    attack on the weakest target, else STACK; one undo and a new branch on the way."""
    playing.refresh_from_db()
    undone = False
    while playing.finished is None:
        legal = playing.game.legal_actions(playing.state)
        attacks = [a for a in legal if a["type"] in ("a3", "a2", "a1")]
        hp = {card_id: card["hp"] for card_id, card in playing.state["cards"].items()}
        choice = min(attacks, key=lambda a: (("a3", "a2", "a1").index(a["type"]), hp[a["target"]]),
                     default=None) or next(a for a in legal if a["type"] == "stack")
        services.match_apply_action(match_id=playing.pk, action=choice, expected_seq=playing.head)
        playing.refresh_from_db()
        if playing.head == 10 and not undone:
            services.match_goto(match_id=playing.pk, step=8, expected_seq=10)
            playing.refresh_from_db()
            undone = True
        assert playing.head < 500
    assert services.match_replay(playing) == playing.state
    html = text(client.get(playing.get_absolute_url()))
    assert "MVPs" in html and "Seed revealed" in html
    assert playing.actions.filter(abandoned=True).count() == 2


def test_htmx_gets_the_board_partial(client, playing):
    response = client.post(reverse("match_act", args=[playing.pk]), {"seq": playing.head, "action": "stack", "card": "A1"},
                           headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert 'id="match"' in text(response) and "<html" not in text(response)


def test_an_htmx_stack_leaves_the_cards_it_did_not_change_as_the_phone_shows_them(client, playing):
    """A STACK changes the card that moved and the one whose moves unfold next: Volt Lancer and Ben's cards
    stay as Ana's phone shows them. An A1 on Stonewarden changes it and the targets of Ana's cards still to
    move: only Ben's two other cards are left as they were."""
    page = text(client.get(playing.get_absolute_url()))
    # What table.js sends: every part but the one around the form tapped (Gale Harrier's).
    shown = " ".join(f"{region}={key}" for region, key in re.findall(r'<div id="(cm-[\w-]+)" data-kept="(\w+)"', page)
                     if region != "cm-card-A1")
    htmx = {"HX-Request": "true", "HX-Target": "match", "X-Kept": "1", "X-Shown": shown}
    url = reverse("match_act", args=[playing.pk])
    answer = text(client.post(url, {"seq": playing.head, "action": "stack", "card": "A1"}, headers=htmx))
    kept = re.findall(r'<div id="(cm-[\w-]+)" data-kept="\w+" hx-preserve></div>', answer)
    assert kept == ["cm-card-A3", "cm-card-B1", "cm-card-B2", "cm-card-B3", "cm-overrides"], "and the corrections"
    assert 'id="card-B1"' not in answer and 'id="team-1"' in answer, "Ben's team is drawn around his kept cards"
    assert "◆ 2 shown (1 + 1 stacked)" in answer, "Gale Harrier is drawn with its new gem"
    assert 'id="card-A2"' in answer and "Moves for Storm Kite" in answer, "Storm Kite's moves unfold now"
    answer = text(client.post(url, {"seq": playing.head + 1, "action": "a1", "card": "A2", "target": "B1"}, headers=htmx))
    assert 'id="card-B1"' in answer, "Stonewarden took damage"
    assert 'id="card-A3"' in answer, "Volt Lancer's targets show Stonewarden's new HP"
    kept = re.findall(r'<div id="(cm-[\w-]+)" data-kept="\w+" hx-preserve></div>', answer)
    assert kept == ["cm-card-B2", "cm-card-B3", "cm-overrides"], "Ben's other cards did not change"


def test_entered_rolls_are_used_and_logged(client, playing):
    for _ in range(2):  # two rounds in which every card stacks
        for card in ("A1", "A2", "A3", "B1", "B2", "B3"):
            act(client, playing, action="stack", card=card)
    # Round 3: Gale Harrier shows 3 gems; A2 with a hand-rolled 100 (no backfire) and 1 (status lands).
    playing.refresh_from_db()
    assert (playing.state["round"], playing.state["possession"]) == (3, 0)
    response = client.post(reverse("match_act", args=[playing.pk]),
                           {"seq": playing.head, "action": "a2", "card": "A1", "target": "B1", "roll": ["100", "1"]})
    assert response.status_code == 302, re.findall(r"Not applied:.{0,300}", text(response))
    action = Action.objects.get(match=playing, seq=playing.head + 1)
    assert [roll["by"] for roll in action.rolls] == ["player", "player"]
    log = text(client.get(reverse("match_log", args=[playing.pk])))
    # Gale Harrier: tier 1, SPC 60: backfire 10% - 6% = 4%; Brainlock lands on 5.5%.
    assert "Backfire chance 4%, rolled 100: misses. Status chance 5.5%, rolled 1: lands." in log
    assert "Stonewarden gets Brainlock" in log
    assert "1 on a d100" in log


@pytest.mark.parametrize("data, message", [
    ({"action": "a2", "card": "A1", "target": "B1"}, "A2 costs 2 gems beyond the baseline (3 shown)"),
    ({"action": "a1", "card": "B1", "target": "A1"}, "It is Ana&#x27;s possession"),
    ({"action": "revive", "card": "A1", "ally": "A2"}, "Storm Kite has not fallen"),
    ({"action": "deposit", "card": "A1"}, "The raided pool is empty"),
    ({"action": "shift", "card": "A1", "reserve": "A2"}, "not in this team"),
    ({"action": "fly", "card": "A1"}, "Choose a move"),
    ({"action": "a1", "card": "A1"}, "Choose a target"),
    ({"action": "spc", "card": "A1", "stat": "luck"}, "Choose the stat SPC boosts"),
    ({"action": "a1", "card": "A1", "target": "B1", "roll": ["", "5"]}, "backfire roll before the status roll"),
    ({"action": "a2", "card": "A1", "target": "B1", "roll": "abc"}, "A die roll must be a whole number"),
])
def test_bad_moves_are_refused_with_a_message_and_nothing_changes(client, playing, data, message):
    playing.refresh_from_db()
    html = refused(client, playing, {"seq": playing.head, **data}, 422)
    assert message in html


def test_a_card_that_has_moved_cannot_move_again(client, playing):
    act(client, playing, action="stack", card="A1")
    playing.refresh_from_db()
    html = refused(client, playing, {"seq": playing.head, "action": "stack", "card": "A1"}, 422)
    assert "Gale Harrier has already moved this possession." in html


def test_a_stale_submission_is_refused(client, playing):
    act(client, playing, action="stack", card="A1")
    html = refused(client, playing, {"seq": playing.head - 1, "action": "stack", "card": "A2"}, 409)
    assert "moved on" in html or "already recorded" in html


@pytest.mark.parametrize("field", ["action", "card", "target", "roll", "seq"])
def test_junk_in_any_field_is_a_4xx_never_a_500(client, playing, field):
    for junk, name in zip(JUNK, JUNK_IDS, strict=True):
        if field == "roll" and name in ("empty", "spaces"):
            continue  # a blank roll means the app rolls: a valid move
        data = {"seq": playing.head, "action": "a2", "card": "A1", "target": "B1", field: junk}
        before, count = snapshot(playing), Action.objects.count()
        response = client.post(reverse("match_act", args=[playing.pk]), data)
        assert 400 <= response.status_code < 500, f"{field}={name}: {response.status_code}"
        assert snapshot(playing) == before and Action.objects.count() == count, f"{field}={name}"


def test_the_catalog_takes_a_cardmaster_card_and_refuses_bad_stats(client, cm_catalog):
    url = reverse("card_new", args=["cardmaster"])
    card = {"new-name": "Test Golem", "new-spd": "50", "new-hp": "900", "new-def": "300", "new-atk": "200",
            "new-spc": "40", "new-type1": "4", "new-type2": "7", "new-tier": "2", "new-status": "gridfreeze"}
    assert client.post(url, card).status_code == 302
    stored = Card.objects.get(slug="cardmaster", name="Test Golem")
    assert stored.stats["def"] == 300 and stored.stats["type1"] == 4
    response = client.post(url, {**card, "new-name": "Bad", "new-def": "1000", "new-type1": "11"})
    assert response.status_code == 422
    assert not Card.objects.filter(name="Bad").exists()
    assert re.search(r"Ensure this value is less than or equal to 999", text(response))


def test_the_acting_seat_of_a_move_is_the_owner_of_the_card_that_moves(playing):
    authority = playing.game.authority

    assert authority(playing.state, {"type": "a1", "card": "A2", "target": "B1"}) == 0
    assert authority(playing.state, {"type": "stack", "card": "B3"}) == 1
    assert authority(playing.state, {"type": "stack", "card": "C1"}) == rules.TABLE, "no such card: nobody's alone"


# ---------------------------------------------------------------- manual overrides


def test_a_correction_by_hand_is_applied_and_marked_as_an_override_in_the_log(client, playing):
    assert "Correct HP or gems by hand (manual override)" in text(client.get(playing.get_absolute_url()))
    assert act(client, playing, action="adjust", card="B2", what="hp", value="321").status_code == 302
    assert act(client, playing, action="adjust", seat="0", what="raided", value="2").status_code == 302
    playing.refresh_from_db()
    assert playing.state["cards"]["B2"]["hp"] == 321 and playing.state["teams"][0]["raided"] == 2
    log = unescape(text(client.get(reverse("match_log", args=[playing.pk]))))
    assert "Granite Brute's HP set by hand: " in log and "→ 321." in log
    assert "Ana's raided pool set by hand: ◆ 0 → 2." in log
    assert log.count("manual override") == 2


def test_hp_set_to_0_by_hand_makes_the_card_fall(client, playing):
    act(client, playing, action="adjust", card="B1", what="hp", value="0")
    playing.refresh_from_db()
    assert "B1" in playing.state["teams"][1]["fallen"]
    assert "Stonewarden falls." in text(client.get(reverse("match_log", args=[playing.pk])))


@pytest.mark.parametrize("data, message", [
    ({"what": "hp", "card": "A1", "value": "99999"}, "Enter a whole number from 0 to"),
    ({"what": "hp", "card": "A1", "value": "-3"}, "The new value must be a whole number"),
    ({"what": "hp", "card": "A1", "value": "²"}, "The new value must be a whole number"),
    ({"what": "luck", "card": "A1", "value": "3"}, "Choose what to correct"),
    ({"what": "gems", "card": "Z9", "value": "3"}, "Choose which card to correct"),
    ({"what": "raided", "seat": "2", "value": "3"}, "Choose whose raided pool"),
    ({"what": "raided", "seat": "0", "value": "100"}, "Enter a whole number from 0 to 99"),
])
def test_a_bad_correction_is_refused_with_a_message_and_nothing_changes(client, playing, data, message):
    playing.refresh_from_db()
    html = refused(client, playing, {"seq": playing.head, "action": "adjust", **data}, 422)
    assert message in html


def test_with_a_seat_on_its_own_phone_neither_phone_is_told_to_pass_itself_on(playing):
    """The hand-over banner is for a phone that plays both sides: with Ben on his own phone, Ana's phone was
    told "Pass the phone to Ben" after her possession, and Ben's "Pass the phone to Ben" on his own."""
    from django.test import Client

    from .helpers import device_of, seated_phone

    owner = Client()
    Match.objects.filter(pk=playing.pk).update(owner_device=device_of(owner))
    ben = seated_phone(owner, playing, 1)
    for card in ("A1", "A2", "A3"):
        act(owner, playing, action="stack", card=card)
    assert "<strong>Ben</strong> has possession" in text(owner.get(playing.get_absolute_url()))
    for phone in (owner, ben):
        assert "cm-handover" not in text(phone.get(playing.get_absolute_url()))


def test_a_seated_phone_asks_before_correcting_the_other_sides_cards_and_spectators_see_no_controls(playing):
    from django.test import Client

    from .helpers import device_of, seated_phone, watching_phone

    owner = Client()
    playing.owner_device = device_of(owner)
    playing.save(update_fields=["owner_device"])
    ben, watcher = seated_phone(owner, playing, 1), watching_phone(owner, playing)
    from tracker.models import Proposal

    for data in ({"action": "adjust", "card": "A1", "what": "hp", "value": "5"},
                 {"action": "adjust", "seat": "0", "what": "raided", "value": "5"}):
        before = snapshot(playing)
        response = ben.post(reverse("match_act", args=[playing.pk]), {"seq": playing.head, **data})
        assert response.status_code == 302 and snapshot(playing) == before, "a request, not a change"
        assert "Asked Ana to agree" in unescape(text(ben.get(response.url)))
    asked = Proposal.objects.filter(match=playing, status=Proposal.PENDING).order_by("pk")
    assert asked.count() == 1, "a new request from Ben replaces his older one"
    owner_page = unescape(text(owner.get(playing.get_absolute_url())))
    assert "Ben asks:" in owner_page and ">✓ Agree<" in owner_page.replace("\n", "")
    refused_answer = ben.post(reverse("proposal_answer", args=[playing.pk, asked[0].pk]), {"answer": "agree"})
    assert refused_answer.status_code == 302 and snapshot(playing) == before, "Ben cannot agree to his own request"
    owner.post(reverse("proposal_answer", args=[playing.pk, asked[0].pk]), {"answer": "agree"})
    playing.refresh_from_db()
    assert playing.head == before[0] + 1 and playing.state["teams"][0]["raided"] == 5
    log = unescape(text(owner.get(reverse("match_log", args=[playing.pk]))))
    assert "Asked by Ben, agreed by Ana." in log
    assert act(ben, playing, action="adjust", card="B1", what="gems", value="2").status_code == 302
    playing.refresh_from_db()
    assert playing.head == before[0] + 2, "his own cards: no one to ask"

    ben_html = unescape(text(ben.get(playing.get_absolute_url())))
    assert 'value="B1"' in ben_html and 'option value="A1"' not in ben_html
    assert 'name="action" value="a1"' not in ben_html, "Ana's move buttons are not Ben's to press"
    watcher_html = unescape(text(watcher.get(playing.get_absolute_url())))
    assert "manual override" not in watcher_html and 'name="action"' not in watcher_html


def test_a_replay_shows_no_move_buttons(client, playing):
    page = text(client.get(reverse("match_replay", args=[playing.pk]), {"step": playing.head}))
    assert "Gale Harrier" in page and 'name="action"' not in page


def test_a_seated_phones_undo_of_the_other_players_card_move_asks_that_player(playing):
    """Cardmaster moves name a card, not a seat: the card's owner decides whether its move is undone.
    Since issue 23 the other phone's undo is a request to that player, not a refusal."""
    from django.test import Client

    from tracker.models import Proposal

    from .helpers import device_of, seated_phone

    owner = Client()
    playing.owner_device = device_of(owner)
    playing.save(update_fields=["owner_device"])
    ben = seated_phone(owner, playing, 1)
    assert act(owner, playing, action="stack", card="A1").status_code == 302  # Ana's move, on the owner's phone
    assert 'aria-describedby="undo-why"' not in text(ben.get(playing.get_absolute_url()))  # Ben may ask
    playing.refresh_from_db()
    before = snapshot(playing)
    response = ben.post(reverse("match_goto", args=[playing.pk]), {"seq": playing.head, "step": playing.head - 1})
    assert response.status_code == 302 and snapshot(playing) == before  # asked, nothing undone yet
    request = Proposal.objects.get(match=playing)
    assert (request.kind, request.asked_by, request.needs, request.payload) == (Proposal.GOTO, 1, 0, {"why": "moves"})
    assert "Ben asks: move to step" in text(owner.get(playing.get_absolute_url()))


def card_section(page: str, name: str) -> str:
    """The board's article of one card, by its name."""
    return re.search(rf'<article class="cm-card[^"]*"[^>]*>\s*<header class="cm-card-head">\s*<h3[^>]*>{name}.*?</article>',
                     page, re.S).group(0)


def test_the_d100_ranges_are_shown_before_an_a2_or_a3(client, playing):
    # Gale Harrier: tier 1, SPC 60, inflicts Brainlock. Backfire (10 - 6)% = 4%: 1–4; A2 5.5%: 1–5; A3 11%: 1–11.
    page = unescape(text(client.get(playing.get_absolute_url())))
    harrier = card_section(page, "Gale Harrier")
    assert "d100: backfire on 1–4 (4%); if not, Brainlock on 1–5 (5.5%)" in harrier
    assert "d100: backfire on 1–4 (4%); if not, Brainlock on 1–11 (11%)" in harrier
    kite = card_section(page, "Storm Kite")  # inflicts nothing: no roll to make
    assert "backfire on" not in kite


def test_a_brainlocked_card_says_why_before_the_tap(client, playing):
    state = playing.state
    kite = next(card for card in state["cards"].values() if card["name"] == "Storm Kite")
    kite["status"] = {"name": "brainlock", "strength": 55, "turns": 2, "source": None, "fresh": False,
                      "ticks": 0}
    Match.objects.filter(pk=playing.pk).update(state=state)
    page = unescape(text(client.get(playing.get_absolute_url())))
    section = card_section(page, "Storm Kite")
    assert "Storm Kite is Brainlocked: A1 only for now." in section
    assert 'value="spc"' not in section  # no SPC button to be refused
    for move in ("a2", "a3", "stack"):
        assert re.search(rf'value="{move}" disabled', section), move


def test_card_names_are_escaped_wherever_the_board_draws_them(client, playing):
    """The cards are drawn in Python (tracker/games/cardmaster/card.py), not by the template's autoescape."""
    state = playing.state
    names = {"A1": '<b>Gale</b> & "Harrier"\'s', "B1": "Stone's <warden> & co", "A2": "Kite & <i>"}
    for card_id, name in names.items():
        state["cards"][card_id]["name"] = name
    Match.objects.filter(pk=playing.pk).update(state=state)
    page = text(client.get(playing.get_absolute_url()))
    assert "<b>Gale" not in page and "<warden>" not in page and "<i>" not in page
    gale = "&lt;b&gt;Gale&lt;/b&gt; &amp; &quot;Harrier&quot;&#x27;s"
    assert f'<h3 id="card-A1-name">{gale}</h3>' in page
    assert f"Moves for {gale}</summary>" in page  # a card that moves: its box of moves
    assert "<span>Stone&#x27;s &lt;warden&gt; &amp; co <span" in page  # a target of the attacks
    assert '<h3 id="card-A2-name">Kite &amp; &lt;i&gt;</h3>' in page


def test_one_gem_and_one_turn_are_singular():
    from tracker.games.cardmaster.board import _status
    from tracker.games.cardmaster.narration import describe

    fall = {"type": "fall", "card": "A2", "card_name": "Storm Kite", "raided": 1}
    assert describe(fall, ["Ana", "Ben"]) == "Storm Kite falls. Its 1 stacked gem is raided into Ben's pool."
    shift = {"type": "shift", "card_name": "Storm Kite", "reserve_name": "Spark Imp", "gems": 1}
    assert describe(shift, ["Ana", "Ben"]) == "Storm Kite shifts out for Spark Imp, who brings 1 stacked gem."
    status = _status({"status": {"name": "brainlock", "strength": 55, "turns": 1}})
    assert status["left"] == "1 turn left"


def test_a_replay_is_not_told_to_pass_the_phone(client, playing):
    assert "Pass the phone to Ana" in text(client.get(playing.get_absolute_url()))
    replay = text(client.get(reverse("match_replay", args=[playing.pk]), {"step": playing.head}))
    assert "Pass the phone to" not in replay and "<strong>Ana</strong> has possession" in replay


def test_the_board_states_stack_and_revive_as_the_engine_plays_them(client, playing, monkeypatch):
    page = unescape(text(client.get(playing.get_absolute_url())))
    assert "+1 gem, uses the move" in page and "a fallen ally returns at 50% HP" in page
    # A house rule changed in the engine alone shows on the board, and the engine plays it so.
    monkeypatch.setattr("rules.cardmaster.gems.STACK_GAIN", 2)
    monkeypatch.setattr("rules.cardmaster.moves.STACK_GAIN", 2)
    monkeypatch.setattr("rules.cardmaster.moves.REVIVE_HP", 750)
    page = unescape(text(client.get(playing.get_absolute_url())))
    assert "+2 gems, uses the move" in page and "a fallen ally returns at 75% HP" in page
    assert act(client, playing, action="stack", card="A1").status_code in (200, 302)
    playing.refresh_from_db()
    assert playing.state["cards"]["A1"]["gems"] == 2


def test_the_match_options_name_the_engines_sizes_in_the_pages_language():
    from django.utils import translation

    from tracker.games.cardmaster.forms import ConfigForm

    size, faction = ConfigForm.base_fields["size"].label, ConfigForm.base_fields["ai_faction"].label
    with translation.override("en"):
        assert str(size) == "Custom Match length (cards a side; 3 active, the rest in reserve)"
        assert str(faction) == "Showdown (9 cards a side, player 2 is the AI): the AI's faction"
    with translation.override("de"):
        assert str(size) == "Länge eines Custom Match (Karten pro Seite; 3 aktiv, der Rest in Reserve)"
        assert str(faction).startswith("Showdown (9 Karten pro Seite")


@pytest.mark.parametrize(("size", "told"), [(None, False), ("6", False), ("9", False), ("3", True)])
def test_a_showdown_tells_of_its_length_only_when_another_was_chosen(size, told):
    """A Showdown is 9 cards a side whatever the length (a Custom Match's) says. Left at its default, the length
    was never the player's choice, and a note about it would be noise on every Showdown."""
    from tracker.games.cardmaster.forms import ConfigForm

    untouched = ConfigForm(prefix="config")
    sent = {f.html_name: f.value() for f in untouched if f.value() is not None and f.value() is not False}
    sent["config-opponent"] = "hard"
    if size:
        sent["config-size"] = size
    form = ConfigForm(sent, prefix="config")
    assert form.is_valid(), form.errors
    assert form.cleaned_data["size"] == 9
    assert bool(form.notes) is told


def test_a_three_a_side_match_says_it_can_never_shift(client, playing):
    """Every card is active with 3 a side: no greyed-out Shift on each card, one line that says why."""
    page = text(client.get(playing.get_absolute_url()))
    assert "3 a side: every card is active, so there is no reserve and no Shift." in page
    assert 'value="shift"' not in page
