"""Correcting and deleting catalog cards: who may, what is recorded, and what a refusal leaves alone.

Cast, each a phone of its own:
- creator: the phone (no account) that added "Magma Wyrm" through the catalog page.
- other: another phone, no account.
- organiser / member: accounts in the club "Corner Store" (organiser and plain member).
- outsider: an account in no club.
- staff: the site's staff account.

Anyone adds a card. The creator corrects or deletes it while every match that used it is the
creator's own; once another phone, account or club has played it, only someone who answers for
every place that has it (tracker/catalog/changes.py) and staff may. Every refusal says why and
changes nothing. The personas of issue 24 are in test_card_rule.py.
"""

import html
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tracker import demo
from tracker.matches import services
from tracker.models import Card, CardChange, CardUse, Club, CollectionCard, Match, Membership, Player

from .helpers import (
    ANA_OTHER_DECK,
    JUNK,
    JUNK_IDS,
    device_of,
    join,
    lock,
    make_invite,
    phone_like,
    shared_by_the_class,
)

pytestmark = pytest.mark.django_db

WYRM = {"name": "Magma Wyrm", "power": "8", "speed": "4", "affinity": "Fire", "rarity": "Epic", "level": "1"}
WYRM_STATS = {"power": 8, "speed": 4, "affinity": "Fire", "rarity": "Epic", "level": 1}
OTHERS_IN_DECK = ["Tide Runner", "Frost Wisp", "Sky Lancer", "Void Lord"]


def text(response) -> str:
    return html.unescape(response.content.decode())


def account_phone(username: str, **extra) -> Client:
    phone = Client()
    phone.force_login(get_user_model().objects.create_user(username, **extra))
    return phone


def user_of(phone: Client):
    return get_user_model().objects.get(pk=phone.session["_auth_user_id"])


@pytest.fixture
def creator(catalog) -> Client:
    return wyrm_added()


def wyrm_added() -> Client:
    """The phone that added Magma Wyrm to the catalog."""
    phone = Client()
    response = phone.post(reverse("card_new", args=["card-crush"]), {f"new-{k}": v for k, v in WYRM.items()})
    assert response.status_code == 302
    return phone


@pytest.fixture(scope="class")
def creator_for_the_class(django_db_setup, django_db_blocker) -> tuple[Client, int]:
    """`creator` and `wyrm` made once for the tests of a class that share them, each in a savepoint of it (as
    conftest's match_for_the_class): the phone and the card's pk."""
    with shared_by_the_class(django_db_blocker):
        demo.load_catalogs()
        phone = wyrm_added()
        yield phone, Card.objects.get(slug="card-crush", name="Magma Wyrm").pk


@pytest.fixture
def wyrm(creator) -> Card:
    return Card.objects.get(slug="card-crush", name="Magma Wyrm")


@pytest.fixture
def other(catalog) -> Client:
    return Client()


@pytest.fixture
def club(db) -> Club:
    return Club.objects.create(name="Corner Store")


@pytest.fixture
def organiser(club) -> Client:
    phone = account_phone("olga")
    Membership.objects.create(club=club, user=user_of(phone), role=Membership.ORGANISER)
    return phone


@pytest.fixture
def member(club) -> Client:
    phone = account_phone("mia")
    Membership.objects.create(club=club, user=user_of(phone), role=Membership.MEMBER)
    return phone


@pytest.fixture
def outsider(db) -> Client:
    return account_phone("otto")


@pytest.fixture
def staff(db) -> Client:
    return account_phone("sam", is_staff=True)


def edit_url(card: Card) -> str:
    return reverse("card_edit", args=[card.slug, card.pk])


def delete_url(card: Card) -> str:
    return reverse("card_delete", args=[card.slug, card.pk])


def detail_url(card: Card) -> str:
    return reverse("card_detail", args=[card.slug, card.pk])


def edit(phone: Client, card: Card, **changes):
    data = {**WYRM, "name": card.name, **changes}
    return phone.post(edit_url(card), {f"card-{k}": v for k, v in data.items()})


def card_state(card: Card) -> tuple:
    """Everything a refused change must leave alone."""
    fresh = Card.objects.filter(pk=card.pk).values_list("name", "stats").first()
    return fresh, CardChange.objects.count(), Card.objects.count()


def played_in(match: Match, card: Card) -> Match:
    """Lock a deck with the card in seat 0 of the match and another deck in seat 1, through the services (as
    the entry page does). A hidden deck's cards count as used from the reveal on (issue 23), and the second
    lock-in reveals both decks."""
    lock(match, 0, [card.name, *OTHERS_IN_DECK])
    return lock(match, 1, ANA_OTHER_DECK)


def battle(**owner) -> Match:
    return services.match_create(slug="card-crush", player_names=["Ana", "Ben"], config={}, **owner)


# ---------------------------------------------------------------- who added it, and which matches used it


def test_a_card_added_on_a_phone_is_that_phones(creator, wyrm):
    assert wyrm.created_device == device_of(creator) and wyrm.created_by is None
    assert wyrm.stats == WYRM_STATS


def test_a_card_added_while_signed_in_is_the_accounts_not_the_phones(catalog):
    phone = account_phone("ana")
    phone.post(reverse("card_new", args=["card-crush"]), {f"new-{k}": v for k, v in WYRM.items()})
    card = Card.objects.get(name="Magma Wyrm")
    assert card.created_by == user_of(phone) and card.created_device == ""


def test_locking_a_deck_notes_every_catalog_card_it_carries_once_the_reveal_shows_it(creator, other, wyrm):
    match = lock(battle(owner_device=device_of(other)), 0, [wyrm.name, *OTHERS_IN_DECK])
    assert not CardUse.objects.filter(match=match).exists()  # a hidden deck tells the catalog nothing yet
    assert "since you added it" not in text(creator.get(edit_url(wyrm)))
    lock(match, 1, ANA_OTHER_DECK)
    used = set(CardUse.objects.filter(match=match).values_list("card__name", flat=True))
    assert used == {"Magma Wyrm", *OTHERS_IN_DECK, *ANA_OTHER_DECK}
    assert "since you added it" in text(creator.get(edit_url(wyrm)))


def test_actions_without_cards_note_nothing_and_a_second_use_is_noted_once(wyrm):
    match = played_in(battle(), wyrm)
    before = CardUse.objects.count()
    services.match_apply_action(match_id=match.pk, action={"type": "play_round"}, expected_seq=2)
    assert CardUse.objects.count() == before
    assert CardUse.objects.filter(card=wyrm).count() == 1


def test_an_imported_match_notes_its_cards(wyrm):
    from tracker.review import exchange

    match = played_in(battle(), wyrm)
    while match.finished is None:
        services.match_apply_action(match_id=match.pk, action={"type": "play_round"}, expected_seq=match.head)
        match.refresh_from_db()
    copy = exchange.import_match(exchange.export_match(match))
    assert CardUse.objects.filter(match=copy, card=wyrm).exists()


# ---------------------------------------------------------------- correcting


def test_the_creator_corrects_an_unplayed_card_and_the_change_is_recorded(creator, wyrm):
    response = edit(creator, wyrm, name="Magma Wyrm II", power="9")
    assert response.status_code == 302 and response.url == detail_url(wyrm)
    wyrm.refresh_from_db()
    assert (wyrm.name, wyrm.stats["power"]) == ("Magma Wyrm II", 9)
    change = CardChange.objects.get()
    assert (change.card, change.kind, change.user, change.device) == (wyrm, "edit", None, device_of(creator))
    assert (change.old_name, change.old_stats, change.new_name) == ("Magma Wyrm", WYRM_STATS, "Magma Wyrm II")
    assert change.new_stats == {**WYRM_STATS, "power": 9}
    page = text(creator.get(detail_url(wyrm)))
    assert "Corrected" in page and "by this phone" in page
    assert "Name: Magma Wyrm → Magma Wyrm II" in page and "Power: 8 → 9" in page


def test_the_creator_may_still_correct_it_after_playing_it_in_their_own_matches(creator, wyrm):
    played_in(battle(owner_device=device_of(creator)), wyrm)
    assert edit(creator, wyrm, power="9").status_code == 302
    assert Card.objects.get(pk=wyrm.pk).stats["power"] == 9


@pytest.mark.parametrize("persona", ["other", "member", "outsider"])
def test_nobody_else_corrects_the_creators_card(request, wyrm, persona):
    phone = request.getfixturevalue(persona)
    before = card_state(wyrm)
    response = edit(phone, wyrm, power="1")
    assert response.status_code == 403
    page = text(response)
    assert "Magma Wyrm was added by another phone or account" in page
    assert "Nothing was changed; what you typed is still below." in page
    assert 'name="card-power" value="1"' in page  # what was typed is kept
    assert card_state(wyrm) == before


def test_the_page_says_who_may_before_anything_is_typed(other, wyrm):
    response = other.get(edit_url(wyrm))
    assert response.status_code == 200
    assert "Magma Wyrm was added by another phone or account" in text(response)
    assert 'name="card-power" value="8"' in text(response)


def test_once_another_phone_played_it_the_creator_may_not(creator, other, wyrm):
    played_in(battle(owner_device=device_of(other)), wyrm)
    before = card_state(wyrm)
    response = edit(creator, wyrm, power="1")
    assert response.status_code == 403
    assert "has been played in other players' or a club's matches, or collected by them, since you added it" in text(response)
    assert card_state(wyrm) == before


def test_a_phone_seated_in_the_creators_match_counts_as_someone_else(creator, other, wyrm):
    match = played_in(battle(owner_device=device_of(creator)), wyrm)
    join(other, make_invite(creator, match, "seat", 1))
    assert edit(creator, wyrm, power="1").status_code == 403
    assert Card.objects.get(pk=wyrm.pk).stats["power"] == 8


def test_a_watcher_is_not_a_player(creator, other, wyrm):
    match = played_in(battle(owner_device=device_of(creator)), wyrm)
    join(other, make_invite(creator, match, "watch"))
    assert edit(creator, wyrm, power="9").status_code == 302


def test_played_in_a_club_only_its_organisers_correct_it(organiser, member, outsider, club, catalog):
    # Issue 24: the card's origin still counts, so the organiser corrects a card they added themself.
    organiser.post(reverse("card_new", args=["card-crush"]), {f"new-{k}": v for k, v in WYRM.items()})
    wyrm = Card.objects.get(name="Magma Wyrm")
    played_in(battle(owner=user_of(member), club=club), wyrm)
    for phone in (member, outsider):
        before = card_state(wyrm)
        response = edit(phone, wyrm, power="1")
        assert response.status_code == 403, phone
        assert "was added by another phone or account" in text(response)
        assert card_state(wyrm) == before
    assert edit(organiser, wyrm, power="9").status_code == 302
    change = CardChange.objects.get()
    assert change.user == user_of(organiser) and change.device == ""
    assert "by olga" not in text(organiser.get(detail_url(wyrm)))  # an account's login is never shown
    assert "by you" in text(organiser.get(detail_url(wyrm)))


def test_an_organiser_may_not_take_over_a_card_a_phone_added(creator, organiser, member, club, wyrm):
    played_in(battle(owner=user_of(member), club=club), wyrm)
    for phone in (creator, organiser):
        before = card_state(wyrm)
        assert edit(phone, wyrm, power="1").status_code == 403
        assert card_state(wyrm) == before


def test_an_organiser_of_a_club_that_never_played_it_may_not(organiser, other, wyrm):
    played_in(battle(owner_device=device_of(other)), wyrm)
    assert edit(organiser, wyrm, power="1").status_code == 403


def test_a_demo_card_has_no_creator_so_only_staff_change_it(catalog, other, outsider, staff):
    phoenix = catalog["Phoenix"]
    for phone in (other, outsider):
        response = edit(phone, phoenix, power="1", speed="1", affinity="Fire", rarity="Legendary")
        assert response.status_code == 403
        assert "Phoenix has no recorded creator" in text(response)
    assert Card.objects.get(pk=phoenix.pk).stats["power"] == 9
    assert edit(staff, phoenix, power="10", speed="8", affinity="Fire", rarity="Legendary").status_code == 302
    assert Card.objects.get(pk=phoenix.pk).stats["power"] == 10


def test_nothing_different_records_nothing(creator, wyrm):
    response = edit(creator, wyrm)
    assert response.status_code == 302
    assert not CardChange.objects.exists()
    assert "Nothing was different" in text(creator.get(response.url))


@pytest.mark.parametrize("name", ["Ember Fox", "EMBER fox"])
def test_a_name_another_card_has_is_refused(creator, wyrm, name):
    before = card_state(wyrm)
    response = edit(creator, wyrm, name=name)
    assert response.status_code == 422
    assert "Another card is already called" in text(response)
    assert card_state(wyrm) == before


def test_a_new_letter_case_of_its_own_name_is_a_correction(creator, wyrm):
    assert edit(creator, wyrm, name="MAGMA WYRM").status_code == 302
    assert Card.objects.get(pk=wyrm.pk).name == "MAGMA WYRM"


class TestJunk:
    """The 60 junk tests share the card and the phone that added it (creator_for_the_class), each test in a savepoint
    with a phone of its own (phone_like)."""

    @pytest.fixture
    def creator(self, creator_for_the_class) -> Client:
        return phone_like(creator_for_the_class[0])

    @pytest.fixture
    def wyrm(self, creator_for_the_class) -> Card:
        return Card.objects.get(pk=creator_for_the_class[1])

    @pytest.mark.parametrize("junk", JUNK, ids=JUNK_IDS)
    @pytest.mark.parametrize("field", ["name", "power", "affinity"])
    def test_junk_is_refused_by_the_form(self, creator, wyrm, junk, field):
        before = card_state(wyrm)
        response = creator.post(edit_url(wyrm), {**{f"card-{k}": v for k, v in WYRM.items()}, f"card-{field}": junk})
        assert response.status_code in (302, 422)
        if response.status_code == 422:
            assert card_state(wyrm) == before


def test_a_card_of_another_game_or_gone_is_404(creator, wyrm):
    assert creator.get(reverse("card_edit", args=["logos", wyrm.pk])).status_code == 404
    assert creator.get(reverse("card_edit", args=["chess", wyrm.pk])).status_code == 404
    assert creator.get(reverse("card_detail", args=["card-crush", 999_999])).status_code == 404


# ---------------------------------------------------------------- deleting


def test_deleting_asks_first_and_keeps_a_record(creator, wyrm):
    page = creator.get(delete_url(wyrm))
    assert page.status_code == 200 and "Delete Magma Wyrm?" in text(page)
    assert "Matches already played keep it" in text(page)
    assert Card.objects.filter(pk=wyrm.pk).exists()
    response = creator.post(delete_url(wyrm), {"confirm": "yes"})
    assert response.status_code == 302 and response.url == reverse("card_list", args=["card-crush"])
    assert not Card.objects.filter(pk=wyrm.pk).exists()
    change = CardChange.objects.get()
    assert (change.kind, change.card, change.slug, change.old_name) == ("delete", None, "card-crush", "Magma Wyrm")
    assert change.old_stats == WYRM_STATS and change.new_stats is None


def test_a_delete_without_the_confirmation_deletes_nothing(creator, wyrm):
    before = card_state(wyrm)
    response = creator.post(delete_url(wyrm), {})
    assert response.status_code == 400 and "Confirm the deletion" in text(response)
    assert card_state(wyrm) == before


@pytest.mark.parametrize("persona", ["other", "member", "outsider"])
def test_nobody_else_deletes_the_creators_card(request, wyrm, persona):
    phone = request.getfixturevalue(persona)
    page = phone.get(delete_url(wyrm))
    assert "was added by another phone or account" in text(page)
    assert re.search(r'<button[^>]*disabled[^>]*>✕ Yes, delete', text(page))
    before = card_state(wyrm)
    response = phone.post(delete_url(wyrm), {"confirm": "yes"})
    assert response.status_code == 403 and "was added by another phone or account" in text(response)
    assert card_state(wyrm) == before


def test_a_card_in_a_collection_is_not_deleted_whoever_asks(creator, staff, wyrm):
    CollectionCard.objects.create(player=Player.objects.create(name="Cole"), card=wyrm, copies=1)
    for phone, status, says in ((creator, 403, "or collected by them, since you added it"),  # Cole's, not theirs
                                (staff, 409, "Magma Wyrm is in a player's collection, so it cannot be deleted")):
        before = card_state(wyrm)
        response = phone.post(delete_url(wyrm), {"confirm": "yes"})
        assert response.status_code == status
        assert says in text(response)
        assert card_state(wyrm) == before


def test_a_card_in_another_players_collection_is_not_rewritten_by_its_creator(creator, wyrm):
    """Cara added Magma Wyrm; Ana collected and upgraded it. Cara's edit to Power 0 rewrote Ana's copies (found by
    an adversarial run): the collection is a place the card has, which Cara does not answer for."""
    ana = get_user_model().objects.create_user("ana-collector")
    CollectionCard.objects.create(player=Player.objects.create(name="Ana Collector", user=ana), card=wyrm, copies=5,
                                  level=2)
    before = card_state(wyrm)
    response = creator.post(reverse("card_edit", args=["card-crush", wyrm.pk]), {
        "card-name": "Magma Wyrm", "card-power": "0", "card-speed": "0", "card-affinity": "Fire",
        "card-rarity": "Common", "card-level": "5"})
    assert response.status_code == 403 and "or collected by them" in text(response)
    assert card_state(wyrm) == before


def test_a_deleted_card_stays_in_the_matches_that_played_it(creator, wyrm):
    match = played_in(battle(owner_device=device_of(creator)), wyrm)
    assert creator.post(delete_url(wyrm), {"confirm": "yes"}).status_code == 302
    match.refresh_from_db()
    assert match.state["decks"][0][0] == {"name": "Magma Wyrm", **WYRM_STATS}
    assert services.match_replay(match) == match.state


# ---------------------------------------------------------------- the card's page


def test_the_catalog_table_leads_to_the_cards_page_and_its_edit_and_delete(creator, wyrm):
    listing = text(creator.get(reverse("card_list", args=["card-crush"])))
    assert f'<a href="{detail_url(wyrm)}">Magma Wyrm</a>' in listing
    page = text(creator.get(detail_url(wyrm)))
    assert f'href="{edit_url(wyrm)}"' in page and f'href="{delete_url(wyrm)}"' in page
    assert "Added by this phone" in page


def test_the_cards_page_lists_only_matches_the_viewer_may_open(creator, other, outsider, wyrm):
    mine = played_in(battle(owner_device=device_of(creator)), wyrm)
    private = played_in(services.match_create(slug="card-crush", player_names=["Hidden Hana", "Secret Sid"],
                                              config={}, owner_device=device_of(other)), wyrm)
    page = text(creator.get(detail_url(wyrm)))
    assert f'href="{mine.get_absolute_url()}"' in page
    assert f'href="{private.get_absolute_url()}"' not in page and "Hidden Hana" not in page
    assert "Hidden Hana" in text(other.get(detail_url(wyrm)))
    page = text(outsider.get(detail_url(wyrm)))
    assert "Hidden Hana" not in page and "Ana" not in page.split("<h2>Matches", 1)[1]
    assert "Added by a phone without an account" in page


def test_a_correction_counts_from_the_next_match_on(creator, wyrm):
    old = played_in(battle(owner_device=device_of(creator)), wyrm)
    assert edit(creator, wyrm, power="9").status_code == 302
    new = played_in(battle(owner_device=device_of(creator)), wyrm)
    assert Match.objects.get(pk=old.pk).state["decks"][0][0]["power"] == 8
    assert new.state["decks"][0][0]["power"] == 9


def test_an_edit_drawn_before_another_phones_correction_does_not_undo_it(creator, wyrm):
    """The same account on two phones: the second phone's form, drawn before the first phone's correction, sent
    every field and quietly put Power back (found by an adversarial run). It is refused, the typing kept, and
    sent again from the page now drawn it is saved."""
    edit_url = reverse("card_edit", args=["card-crush", wyrm.pk])
    other = Client()
    other.cookies = creator.cookies
    drawn = re.search(r'name="drawn" value="([^"]+)"', text(other.get(edit_url))).group(1)
    fields = {"card-name": "Magma Wyrm", "card-speed": "4", "card-affinity": "Fire", "card-rarity": "Epic",
              "card-level": "1"}
    assert creator.post(edit_url, {**fields, "card-power": "9", "drawn": drawn}).status_code == 302
    refused = other.post(edit_url, {**fields, "card-power": "8", "card-speed": "5", "drawn": drawn})
    assert refused.status_code == 409 and "was corrected on another phone" in text(refused)
    assert 'value="5"' in text(refused)  # what was typed is kept
    assert Card.objects.get(pk=wyrm.pk).stats["power"] == 9
    again = re.search(r'name="drawn" value="([^"]+)"', text(refused)).group(1)
    assert other.post(edit_url, {**fields, "card-power": "8", "card-speed": "5", "drawn": again}).status_code == 302
    assert Card.objects.get(pk=wyrm.pk).stats["speed"] == 5
