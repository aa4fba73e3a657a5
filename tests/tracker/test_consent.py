"""No one alone takes back a revealed secret, and table actions need the table's authority.

Cast: the owner's phone plays Ana (seat 0); Ben (seat 1) plays on his own phone, seated by a
join link; a spectator watches. The cheating sequences from the issue are played here and
must now fail to cheat.
"""

import re

import pytest
from django.test import Client
from django.urls import reverse

from tracker.matches import services
from tracker.models import Action, Card, Match, Membership, Proposal

from .helpers import (
    ANA_DECK,
    ANA_OTHER_DECK,
    BEN_DECK,
    club_account,
    device_of,
    entry_data,
    lock,
    lock_both,
    play_out,
    seated_phone,
    snapshot,
    watching_phone,
)
from .helpers import page_text as text

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner() -> Client:
    return Client()


@pytest.fixture
def battle(owner, catalog) -> Match:
    return services.match_create(slug="card-crush", player_names=["Ana", "Ben"], config={},
                                 owner_device=device_of(owner))


@pytest.fixture
def ben(owner, battle) -> Client:
    return seated_phone(owner, battle, 1)


def goto(client: Client, match: Match, step: int, **extra):
    match.refresh_from_db()
    return client.post(reverse("match_goto", args=[match.pk]), {"step": step, "seq": match.head, **extra})


def answer(client: Client, proposal: Proposal, verdict: str):
    return client.post(reverse("proposal_answer", args=[proposal.match_id, proposal.pk]), {"answer": verdict})


def test_a_seat_that_saw_the_other_deck_cannot_undo_its_lock_in_alone(owner, battle, ben):
    """The cheat: lock in second, see Ana's deck, undo your own lock-in, lock in a better deck."""
    lock(battle, 0, ANA_DECK)
    response = ben.post(reverse("match_entry", args=[battle.pk, 1]), entry_data(battle, 1, BEN_DECK))
    assert response.status_code == 302
    battle.refresh_from_db()
    assert battle.state["decks"][0] is not None and battle.head == 2, "both decks are revealed"
    before = snapshot(battle)
    response = goto(ben, battle, 1)
    assert response.status_code == 302 and snapshot(battle) == before, "his own move, but a reveal: only a request"
    assert "Asked Ana to agree" in text(ben.get(response.url))
    request = Proposal.objects.get()
    assert (request.kind, request.asked_by, request.needs, request.step) == (Proposal.GOTO, 1, 0, 1)
    assert "Ben asks: go back to step 1, taking back a revealed entry" in text(owner.get(battle.get_absolute_url()))

    assert answer(ben, request, "agree").status_code == 302 and snapshot(battle) == before
    request.refresh_from_db()
    assert request.status == Proposal.PENDING, "Ben cannot agree to his own request"
    answer(owner, request, "refuse")
    request.refresh_from_db()
    assert request.status == Proposal.REFUSED and snapshot(battle) == before
    log = text(owner.get(reverse("match_log", args=[battle.pk])))
    assert "Ben asked: go back to step 1, taking back a revealed entry." in log and "Ana refused" in log


def test_with_the_other_sides_agreement_the_reveal_is_taken_back_and_the_log_says_who(owner, battle, ben):
    lock(battle, 0, ANA_DECK)
    lock(battle, 1, BEN_DECK)
    goto(ben, battle, 1)
    answer(owner, Proposal.objects.get(), "agree")
    battle.refresh_from_db()
    assert battle.head == 1 and battle.state["decks"][1] is None
    assert "Ana agreed" in text(owner.get(reverse("match_log", args=[battle.pk])))
    response = ben.post(reverse("match_entry", args=[battle.pk, 1]), entry_data(battle, 1, ANA_OTHER_DECK))
    assert response.status_code == 302, "agreed, Ben may lock in again"


def test_a_deck_the_table_saw_stays_seen_after_an_agreed_step_back(owner, battle, ben):
    """Round 30: Ben asked to take back his own lock-in and Ana agreed (step 1: her deck still locked, his
    undone). Her deck, hidden again by the state, read as never revealed: she undid it alone, one tap, and
    could lock a deck against his, which she had seen; and both phones' logs showed the two decks the table
    had seen as hidden ones."""
    lock(battle, 0, ANA_DECK)
    lock(battle, 1, BEN_DECK)
    goto(ben, battle, 1)
    answer(owner, Proposal.objects.get(), "agree")
    battle.refresh_from_db()
    assert battle.head == 1
    for phone in (owner, ben):
        log = text(phone.get(reverse("match_log", args=[battle.pk])))
        assert all(card in log for card in ANA_DECK + BEN_DECK), "what the table saw stays in the log"
    before = snapshot(battle)
    goto(owner, battle, 0)
    assert snapshot(battle) == before, "her deck was revealed: taking it back asks Ben"
    request = Proposal.objects.get(status=Proposal.PENDING)
    assert (request.asked_by, request.needs, request.step) == (0, 1, 0)
    assert "taking back a revealed entry" in text(ben.get(battle.get_absolute_url()))


def test_the_owners_phone_also_needs_the_seated_players_agreement(owner, battle, ben):
    lock(battle, 0, ANA_DECK)
    lock(battle, 1, BEN_DECK)
    before = snapshot(battle)
    goto(owner, battle, 0)
    assert snapshot(battle) == before
    request = Proposal.objects.get()
    assert (request.asked_by, request.needs) == (0, 1)
    assert answer(owner, request, "agree").status_code == 302 and snapshot(battle) == before
    answer(ben, request, "agree")
    battle.refresh_from_db()
    assert battle.head == 0


def test_the_owners_phone_with_both_seats_elsewhere_is_told_before_it_taps_undo(owner, battle, ben):
    """Once both seats are on phones of their own, the owner's phone plays no side and asks nothing: an undo that
    needs a player's agreement is refused. A play-test found Undo offered there and refused only after the tap; the
    button now says why beforehand, and the refusal stands."""
    ana = seated_phone(owner, battle, 0)
    lock(battle, 0, ANA_DECK)
    why = "Both seats are on phones of their own: one of the players asks from their phone."
    page = text(owner.get(battle.get_absolute_url()))
    assert re.search(r'type="submit"\s+disabled\s+aria-describedby="undo-why"', page)
    assert f"✗ {why}" in page
    assert why not in text(ana.get(battle.get_absolute_url())), "Ana's own undo is hers to take, or to ask"
    before = snapshot(battle)
    goto(owner, battle, 0)
    assert snapshot(battle) == before and not Proposal.objects.exists()


def test_a_request_lapses_when_the_match_moves_on(owner, battle, ben):
    lock(battle, 0, ANA_DECK)
    lock(battle, 1, BEN_DECK)
    goto(ben, battle, 1)
    owner.post(reverse("match_act", args=[battle.pk]), {"seq": 2, "action": "play_round"})
    battle.refresh_from_db()
    before = snapshot(battle)
    response = answer(owner, Proposal.objects.get(), "agree")
    assert "moved on" in text(owner.get(response.url))
    assert snapshot(battle) == before
    assert Proposal.objects.get().status == Proposal.LAPSED


def test_answers_come_only_from_the_seat_asked(owner, battle, ben):
    lock(battle, 0, ANA_DECK)
    lock(battle, 1, BEN_DECK)
    goto(ben, battle, 1)
    request = Proposal.objects.get()
    watcher = watching_phone(owner, battle)
    assert answer(watcher, request, "agree").status_code == 403
    assert answer(Client(), request, "agree").status_code == 404
    for junk in ("", "yes", "agree " * 50):
        answer(owner, request, junk)
    request.refresh_from_db()
    assert request.status == Proposal.PENDING and Match.objects.get(pk=battle.pk).head == 2
    withdraw = reverse("proposal_withdraw", args=[battle.pk, request.pk])
    owner.post(withdraw)
    request.refresh_from_db()
    assert request.status == Proposal.PENDING, "only the asker withdraws"
    ben.post(withdraw)
    request.refresh_from_db()
    assert request.status == Proposal.WITHDRAWN
    answer(owner, request, "agree")
    assert Match.objects.get(pk=battle.pk).head == 2, "a withdrawn request cannot be agreed to"


def test_undo_that_reveals_nothing_stays_one_tap_for_a_seated_phone(owner, battle, ben):
    lock(battle, 0, ANA_DECK)
    lock(battle, 1, BEN_DECK)
    ben.post(reverse("match_act", args=[battle.pk]), {"seq": 2, "action": "play_round"})
    assert goto(ben, battle, 2).status_code == 302
    battle.refresh_from_db()
    assert battle.head == 2 and not Proposal.objects.exists()


# ---------------------------------------------------------------- LOGOS: commits and the fight


@pytest.fixture
def duel(owner, db) -> Match:
    from tracker.games import pages_for

    pages = pages_for("logos")
    Card.objects.bulk_create(Card(slug="logos", name=c["name"], stats=pages.card_stats(c)) for c in pages.demo_cards)
    return services.match_create(slug="logos", player_names=["Ana", "Ben"], config={}, owner_device=device_of(owner))


def commit(match: Match, seat: int, name: str) -> None:
    match.refresh_from_db()
    card = Card.objects.get(slug="logos", name=name).as_rules_card()
    services.match_apply_action(match_id=match.pk, expected_seq=match.head, action={
        "type": "commit", "seat": seat, "round": match.state["round"], "card": card, "backup": None})


def test_a_logos_commit_cannot_be_changed_after_the_reveal_alone(owner, duel):
    ben = seated_phone(owner, duel, 1)
    commit(duel, 0, "Granite Fist")
    commit(duel, 1, "Solar Flare")
    duel.refresh_from_db()
    before = snapshot(duel)
    goto(ben, duel, 1)
    assert snapshot(duel) == before
    assert Proposal.objects.get().needs == 0


def test_a_logos_card_the_table_saw_stays_seen_after_an_agreed_step_back(owner, duel):
    """Round 30 in LOGOS: Ben's commit taken back by agreement hid Ana's revealed card again in the state; it stays
    in both logs, and taking it back into her hand asks Ben."""
    ben = seated_phone(owner, duel, 1)
    commit(duel, 0, "Granite Fist")
    commit(duel, 1, "Solar Flare")
    goto(ben, duel, 1)
    answer(owner, Proposal.objects.get(), "agree")
    duel.refresh_from_db()
    assert duel.head == 1
    log = text(ben.get(reverse("match_log", args=[duel.pk])))
    assert "Granite Fist" in log and "Solar Flare" in log
    before = snapshot(duel)
    goto(owner, duel, 0)
    assert snapshot(duel) == before
    assert Proposal.objects.get(status=Proposal.PENDING).needs == 1


def test_the_fight_from_a_seated_phone_waits_for_the_other_side(owner, duel):
    """Pressing Fight ends the other side's chance to call a backup card: the other side confirms it."""
    ben = seated_phone(owner, duel, 1)
    commit(duel, 0, "Granite Fist")
    commit(duel, 1, "Solar Flare")
    duel.refresh_from_db()
    before = snapshot(duel)
    response = ben.post(reverse("match_act", args=[duel.pk]), {"seq": duel.head, "action": "fight"})
    assert response.status_code == 302 and snapshot(duel) == before
    request = Proposal.objects.get()
    assert (request.kind, request.payload, request.asked_by, request.needs) == (
        Proposal.ACTION, {"type": "fight"}, 1, 0)
    answer(owner, request, "agree")
    duel.refresh_from_db()
    assert duel.head == before[0] + 1
    fought = Action.objects.get(match=duel, seq=duel.head)
    assert fought.proposal_id == request.pk
    assert "Asked by Ben, agreed by Ana." in text(owner.get(reverse("match_log", args=[duel.pk])))


def test_a_fight_the_table_agreed_to_is_not_taken_back_alone(owner, duel):
    """Round 30: a step that is both sides' (a fight, a declared winner, a table status) was nobody's to undo, so one
    tap. Ana agreed to Ben's fight, read its damage, undid it alone and had her chance to call a backup card again,
    the chance the fight had ended for both; redoing it alone would undo an agreed undo in the same way."""
    ben = seated_phone(owner, duel, 1)
    commit(duel, 0, "Granite Fist")
    commit(duel, 1, "Solar Flare")
    duel.refresh_from_db()
    ben.post(reverse("match_act", args=[duel.pk]), {"seq": duel.head, "action": "fight"})
    answer(owner, Proposal.objects.get(), "agree")
    duel.refresh_from_db()
    assert duel.head == 3
    before = snapshot(duel)
    goto(owner, duel, 2)
    assert snapshot(duel) == before, "the fight is both sides': undoing it asks Ben"
    request = Proposal.objects.get(status=Proposal.PENDING)
    assert (request.asked_by, request.needs, request.step) == (0, 1, 2)
    assert "taking back or redoing a step that is both players' to decide" in text(ben.get(duel.get_absolute_url()))
    answer(ben, request, "agree")
    duel.refresh_from_db()
    assert duel.head == 2
    goto(owner, duel, 3)
    duel.refresh_from_db()
    assert duel.head == 2, "nor is it redone alone"


def test_the_owners_phone_asks_the_seated_phone_before_a_fight(owner, duel):
    # Issue 23: once Ben is on his own phone the owner is a seat like any other; pressing the fight
    # ends Ben's chance to call a backup, so it is his to agree to (it used to be taken alone).
    ben = seated_phone(owner, duel, 1)
    commit(duel, 0, "Granite Fist")
    commit(duel, 1, "Solar Flare")
    duel.refresh_from_db()
    response = owner.post(reverse("match_act", args=[duel.pk]), {"seq": duel.head, "action": "fight"})
    assert response.status_code == 302
    duel.refresh_from_db()
    request = Proposal.objects.get()
    assert duel.head == 2 and (request.asked_by, request.needs, request.status) == (0, 1, Proposal.PENDING)
    answer(ben, request, "agree")
    duel.refresh_from_db()
    assert duel.head == 3


def test_correcting_the_other_sides_hp_needs_their_agreement_and_ones_own_does_not(owner, duel):
    ben = seated_phone(owner, duel, 1)
    url = reverse("match_act", args=[duel.pk])
    ben.post(url, {"seq": 0, "action": "set_hp", "seat": "0", "hp": "5"})
    duel.refresh_from_db()
    assert duel.head == 0 and Proposal.objects.get().needs == 0
    ben.post(url, {"seq": 0, "action": "set_hp", "seat": "1", "hp": "90000"})
    duel.refresh_from_db()
    assert duel.head == 1


# ---------------------------------------------------------------- hot-seat


def test_in_hot_seat_a_declared_winner_is_the_owners_call(db):
    """Lonely Star's declared winner is the table's: the owner's phone takes it alone."""
    owner = Client()
    match = services.match_create(slug="lonely-star", player_names=["Ana", "Ben"], config={},
                                  owner_device=device_of(owner))
    response = owner.post(reverse("match_act", args=[match.pk]), {"seq": 0, "action": "declare_winner", "winner": "1"})
    match.refresh_from_db()
    assert response.status_code == 302 and match.finished is not None


def test_a_seated_phone_asks_before_declaring_a_winner(db):
    owner = Client()
    match = services.match_create(slug="lonely-star", player_names=["Ana", "Ben"], config={},
                                  owner_device=device_of(owner))
    ben = seated_phone(owner, match, 1)
    ben.post(reverse("match_act", args=[match.pk]), {"seq": 0, "action": "declare_winner", "winner": "1"})
    match.refresh_from_db()
    assert match.finished is None and Proposal.objects.get().payload["type"] == "declare_winner"
    answer(owner, Proposal.objects.get(), "refuse")
    match.refresh_from_db()
    assert match.finished is None


# ---------------------------------------------------------------- the other games' table actions and corrections


def _two_phone_match(slug: str):
    from tracker import demo

    demo.load_catalogs()
    owner = Client()
    match = services.match_create(slug=slug, player_names=["Ana", "Ben"], config={}, owner_device=device_of(owner))
    return owner, match, seated_phone(owner, match, 1)


def test_ending_an_evons_game_from_a_seated_phone_waits_for_the_other_side(db):
    owner, match, ben = _two_phone_match("evons")
    before = snapshot(match)
    response = ben.post(reverse("match_act", args=[match.pk]), {"seq": 0, "action": "end_game"})
    assert response.status_code == 302 and snapshot(match) == before
    request = Proposal.objects.get()
    assert (request.payload["type"], request.asked_by, request.needs) == ("end_game", 1, 0)
    answer(owner, request, "refuse")
    assert snapshot(match) == before and Match.objects.get(pk=match.pk).finished is None


def _two_lonely_star_units():
    """A Lonely Star match on two phones with a unit of each side in play: Ana's Comet Wanderer, Ben's Nebula Warden."""
    owner, match, ben = _two_phone_match("lonely-star")
    for seat, name in ((0, "Comet Wanderer"), (1, "Nebula Warden")):
        match.refresh_from_db()
        card = Card.objects.get(slug="lonely-star", name=name).as_rules_card()
        services.match_apply_action(match_id=match.pk, action={"type": "play_unit", "seat": seat, "card": card},
                                    expected_seq=match.head)
    match.refresh_from_db()
    return owner, match, ben


def test_adjusting_the_other_sides_lonely_star_unit_needs_their_agreement(db):
    owner, match, ben = _two_lonely_star_units()
    units = {unit["name"]: unit["id"] for unit in match.state["units"]}
    before = snapshot(match)
    adjust = {"seq": match.head, "action": "adjust", "what": "counters", "counter": "damage", "change": "2"}
    ben.post(reverse("match_act", args=[match.pk]), {**adjust, "unit": units["Comet Wanderer"]})
    assert snapshot(match) == before, "Ana's unit: only a request"
    assert Proposal.objects.get().needs == 0
    ben.post(reverse("match_act", args=[match.pk]), {**adjust, "unit": units["Nebula Warden"]})
    match.refresh_from_db()
    assert match.head == before[0] + 1, "his own unit: applied at once"


def test_a_correction_stays_its_sides_once_its_unit_has_left_play(db):
    """Round 30: whose a correction is was read from the board as it stands now. Ben corrected his own unit, then
    sent it to his discard pile (his own correction too); gone from play, both read as nobody's, and Ana went back
    past them alone, one tap. A step is its side's as the board stood when it was made."""
    owner, match, ben = _two_lonely_star_units()
    warden = next(unit["id"] for unit in match.state["units"] if unit["seat"] == 1)
    for change in ({"what": "stat", "stat": "at", "change": "3"}, {"what": "leave", "to": "discard"}):
        match.refresh_from_db()
        response = ben.post(reverse("match_act", args=[match.pk]),
                            {"seq": match.head, "action": "adjust", "unit": warden, **change})
        assert response.status_code == 302
    match.refresh_from_db()
    assert match.head == 4 and not Proposal.objects.exists(), "his own unit: applied at once"
    before = snapshot(match)
    for step in (3, 2):
        goto(owner, match, step)
        assert snapshot(match) == before, "Ben's corrections: only a request"
        assert Proposal.objects.get(status=Proposal.PENDING).needs == 1


def test_an_agreement_cannot_change_a_result_voided_since_it_was_asked(club, organiser, catalog):
    """Ben's phone must not carry out a reopening the club's referee (an organiser who does not play in it) set
    aside by voiding the result."""
    battle = services.match_create(slug="card-crush", player_names=["Ana", "Ben"], config={}, club=club,
                                   owner=organiser.user)
    ben = seated_phone(organiser, battle, 1)
    play_out(lock_both(battle))
    response = goto(organiser, battle, 1, confirm="reopen")
    assert response.status_code == 302
    request = Proposal.objects.get()
    referee = club_account("ref", club, Membership.ORGANISER)
    referee.post(reverse("match_void", args=[battle.pk]), {"reason": "marked cards"})
    before = snapshot(battle)
    response = answer(ben, request, "agree")
    assert "voided this result" in text(ben.get(response.url))
    assert snapshot(battle) == before and Match.objects.get(pk=battle.pk).finished is not None


def test_a_cardmaster_lineup_cannot_be_changed_after_the_reveal_alone(db):
    """Ben locks his lineup second, sees Ana's, and would like another: only a request, which Ana refuses."""
    from tracker import demo

    from .test_cardmaster_pages import ANA as ANA_LINEUP
    from .test_cardmaster_pages import BEN as BEN_LINEUP
    from .test_cardmaster_pages import lineup_data

    demo.load_catalogs()
    owner = Client()
    match = services.match_create(slug="cardmaster", player_names=["Ana", "Ben"], owner_device=device_of(owner), config={
        "size": 3, "who_rolls": "app", "type_names": ["Ember", "Tide", "Gale", "Stone", "Volt", "Frost", "Bloom",
                                                      "Venom", "Radiance", "Umbra"],
        "overcook_turns": 3, "undershock_turns": 3, "risen_revivable": False})
    ben = seated_phone(owner, match, 1)
    assert owner.post(reverse("match_entry", args=[match.pk, 0]), lineup_data(match, 0, ANA_LINEUP)).status_code == 302
    assert ben.post(reverse("match_entry", args=[match.pk, 1]), lineup_data(match, 1, BEN_LINEUP)).status_code == 302
    match.refresh_from_db()
    assert all(name in text(ben.get(match.get_absolute_url())) for name in ANA_LINEUP), "Ben has seen Ana's lineup"
    before = snapshot(match)
    goto(ben, match, match.head - 1)
    assert snapshot(match) == before
    request = Proposal.objects.get()
    assert (request.kind, request.asked_by, request.needs) == (Proposal.GOTO, 1, 0)
    answer(owner, request, "refuse")
    assert snapshot(match) == before


def test_a_phone_that_saw_the_apps_die_cannot_undo_its_roll_alone(db):
    """Ana rolls a plain D6 on her phone and sees the seed's die for that step. Undoing her own roll was one
    tap, and the same step played again rolls the same die: she took back a low die and attacked at that step
    for a crit on demand. Going back past a die the app rolled now asks Ben; a player's own die does not."""
    owner, match, _ben = _two_phone_match("lonely-star")
    owner.post(reverse("match_act", args=[match.pk]), {"seq": 0, "action": "d6", "seat": 0})
    match.refresh_from_db()
    assert match.head == 1 and match.actions.get(seq=1).rolls[0]["by"] != "player"
    before = snapshot(match)
    goto(owner, match, 0)
    assert snapshot(match) == before, "only a request"
    request = Proposal.objects.get()
    assert (request.kind, request.needs, request.payload["why"]) == (Proposal.GOTO, 0 + 1, "dice")
    assert "taking back a die the app rolled" in text(owner.get(match.get_absolute_url()))

    services.match_apply_action(match_id=match.pk, action={"type": "d6", "seat": 0}, expected_seq=1, rolls=[4])
    match.refresh_from_db()
    assert match.actions.get(seq=2).rolls[0]["by"] == "player"
    goto(owner, match, 1)
    assert Match.objects.get(pk=match.pk).head == 1, "a die rolled at the table is taken back in one tap"


MOLE = {"name": "Mole", "kind": "monster", "cost": 1, "element": "Earth", "atk": 1, "def": 1, "arrows": {}}
WALL = {"name": "Wall", "kind": "block"}


def _ben_asks_to_end_at_step_3(owner) -> tuple[Match, Proposal]:
    """Evons, Ana on the owner's phone and Ben on his own: Ana's Wall, Ben's Mole (he leads), Ana's Wall; then Ben
    asks to end the game, at step 3."""
    match = services.match_create(slug="evons", player_names=["Ana", "Ben"], config={}, owner_device=device_of(owner))
    ben = seated_phone(owner, match, 1)
    for action in ({"type": "play", "seat": 0, "cell": "A1", "covered": False, "card": WALL},
                   {"type": "play", "seat": 1, "cell": "E5", "covered": False, "card": MOLE},
                   {"type": "play", "seat": 0, "cell": "A2", "covered": False, "card": WALL}):
        match.refresh_from_db()
        services.match_apply_action(match=match, action=action, expected_seq=match.head)
    match.refresh_from_db()
    ben.post(reverse("match_act", args=[match.pk]), {"seq": match.head, "action": "end_game"})
    request = Proposal.objects.get(match=match)
    return match, request


def test_a_request_is_not_agreed_to_on_another_line(owner):
    """Round 25: Ben, ahead 1-0 at Evons, asked to end the game at step 3, which was Ana's. Ana undid her own step 3
    (one tap), played another there that drew level, and agreed to his request, which showed again at step 3: the
    game ended a draw, on a board Ben never asked to end. A request answers for the line it was asked on: a new
    step instead of undone ones lapses those asked after them."""
    match, request = _ben_asks_to_end_at_step_3(owner)
    assert (request.at_seq, request.asked_by, request.status) == (3, 1, Proposal.PENDING)
    goto(owner, match, 2)  # her own step: one tap
    match.refresh_from_db()
    assert match.head == 2
    services.match_apply_action(match=match, expected_seq=2,
                                action={"type": "play", "seat": 0, "cell": "B2", "covered": False, "card": MOLE})
    match.refresh_from_db()
    assert match.head == 3 and match.state["cells"]["B2"]["owner"] == 0, "level at 1-1, on a new line"
    assert "Ben asks" not in text(owner.get(match.get_absolute_url()))
    answer(owner, request, "agree")
    request.refresh_from_db()
    match.refresh_from_db()
    assert request.status == Proposal.LAPSED and match.finished is None and match.head == 3


def test_a_request_still_stands_after_an_undo_and_redo_of_the_same_line(owner):
    match, request = _ben_asks_to_end_at_step_3(owner)
    goto(owner, match, 2)
    goto(owner, match, 3)  # the same step again: the board Ben asked about
    assert "Ben asks" in text(owner.get(match.get_absolute_url()))
    answer(owner, request, "agree")
    request.refresh_from_db()
    match.refresh_from_db()
    assert request.status == Proposal.AGREED and match.finished is not None


def _evons_to_step_3(owner) -> tuple[Match, Client]:
    """Ana (the owner's phone) and Ben (his own phone) at Evons: Ana passes, Ben plays a Mole on E5, Ana passes."""
    match = services.match_create(slug="evons", player_names=["Ana", "Ben"], config={}, owner_device=device_of(owner))
    ben = seated_phone(owner, match, 1)
    for action in ({"type": "pass", "seat": 0},
                   {"type": "play", "seat": 1, "cell": "E5", "covered": False, "card": MOLE},
                   {"type": "pass", "seat": 0}):
        match.refresh_from_db()
        services.match_apply_action(match=match, action=action, expected_seq=match.head)
    match.refresh_from_db()
    return match, ben


def _ben_plays_from(ben: Client, match: Match, drawn: str):
    return ben.post(reverse("match_act", args=[match.pk]), {
        "seq": drawn, "seat": 1, "action": "play", "cell": "D4", "face": "up", "new_kind": "monster", "new_cost": "1",
        "card_name": "Shrew", "new_element": "Earth", "new_atk": "1", "new_def": "1"})


def _drawn_step(page: str) -> str:
    found = re.search(r'hx-vals=\'\{"seq": "([^"]+)"\}\'', page)
    assert found, "the page says which board its forms were drawn on"
    return found[1]


def test_a_form_drawn_on_another_line_to_the_same_step_is_stale(owner):
    """Round 26: a form was current whenever the match stood at the step number it was drawn at, whatever line led
    there. Ben's page was drawn after Ana's step 3 (a pass); Ana undid it (one tap) and played another step 3 in its
    place; Ben's move, chosen on the board she took back, was then played on hers. A form answers for the board it
    was drawn on: the step and the line to it."""
    match, ben = _evons_to_step_3(owner)
    drawn = _drawn_step(text(ben.get(match.get_absolute_url())))
    goto(owner, match, 2)  # her own pass: one tap
    match.refresh_from_db()
    services.match_apply_action(match=match, expected_seq=2, action={
        "type": "play", "seat": 0, "cell": "B2", "covered": False, "card": MOLE})
    match.refresh_from_db()
    before = snapshot(match)
    assert match.head == 3
    response = _ben_plays_from(ben, match, drawn)
    assert response.status_code == 409 and snapshot(match) == before, "refused, nothing applied"
    assert "went another way since this page was loaded" in text(response)
    # Drawn again, the same move is his to make on the board he now sees.
    assert _ben_plays_from(ben, match, _drawn_step(text(ben.get(match.get_absolute_url())))).status_code == 302
    match.refresh_from_db()
    assert match.head == 4 and match.state["cells"]["D4"]["owner"] == 1


def test_a_form_drawn_before_a_step_played_and_taken_back_says_so(owner):
    """A form drawn on a board the match left and came back to (a step played after it, then undone) is refused
    too (a tap kept while the phone was offline would otherwise play twice), but says what happened: nothing was
    played in its step's place."""
    match, ben = _evons_to_step_3(owner)
    drawn = _drawn_step(text(ben.get(match.get_absolute_url())))
    services.match_apply_action(match=match, expected_seq=3, action={  # from Ben's other tab
        "type": "play", "seat": 1, "cell": "D5", "covered": False, "card": MOLE})
    services.match_goto(match_id=match.pk, step=3, expected_seq=4)
    match.refresh_from_db()
    before = snapshot(match)
    response = _ben_plays_from(ben, match, drawn)
    assert response.status_code == 409 and snapshot(match) == before
    page = text(response)
    assert "moved on and came back since this page was loaded" in page and "went another way" not in page


def test_a_form_still_stands_after_an_undo_and_redo_of_the_same_line(owner):
    match, ben = _evons_to_step_3(owner)
    drawn = _drawn_step(text(ben.get(match.get_absolute_url())))
    goto(owner, match, 2)
    goto(owner, match, 3)  # the same step again: the board Ben's page shows
    assert _ben_plays_from(ben, match, drawn).status_code == 302
    match.refresh_from_db()
    assert match.head == 4 and match.state["cells"]["D4"]["owner"] == 1


def test_a_double_tap_is_told_recorded_only_for_its_own_copy(owner):
    """The second copy of a tap is answered as recorded when the entry after the board it was drawn on is its first
    copy; another step played there after an undo is not that copy, and the stale form is refused."""
    match, ben = _evons_to_step_3(owner)
    drawn = _drawn_step(text(ben.get(match.get_absolute_url())))
    assert _ben_plays_from(ben, match, drawn).status_code == 302
    response = _ben_plays_from(ben, match, drawn)
    assert response.status_code == 302 and Action.objects.filter(match=match).count() == 4
    assert "That tap was already recorded" in text(ben.get(response.url))


def test_a_request_to_move_forward_lapses_when_its_steps_are_replaced(owner):
    """Round 26: a request to move forward (redo) to an undone step names a step number, and a new line instead of
    the undone steps has steps of that number too: back at the step it was asked at, it would show again and redo
    the new line, not the steps asked for. Like any request on steps a new line replaces, it lapses."""
    match, ben = _evons_to_step_3(owner)
    services.match_apply_action(match=match, expected_seq=3, action={
        "type": "play", "seat": 1, "cell": "D4", "covered": False, "card": MOLE})
    goto(owner, match, 2)  # Ana takes back her pass, and Ben's move with it (his agreement)
    request = Proposal.objects.get(match=match)
    answer(ben, request, "agree")
    match.refresh_from_db()
    assert (match.head, match.line_length) == (2, 4)
    response = ben.post(reverse("match_goto", args=[match.pk]), {"step": 4, "seq": match.head})
    assert response.status_code == 302
    redo = Proposal.objects.get(match=match, status=Proposal.PENDING)
    assert (redo.kind, redo.step, redo.at_seq, redo.needs) == (Proposal.GOTO, 4, 2, 0)
    match.refresh_from_db()
    services.match_apply_action(match=match, expected_seq=2, action={
        "type": "play", "seat": 0, "cell": "B2", "covered": False, "card": MOLE})
    redo.refresh_from_db()
    assert redo.status == Proposal.LAPSED, "its step 4 is no longer on the line"
