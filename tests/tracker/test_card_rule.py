"""Issue 24: the catalog means one thing to each community.

One rule (tracker/catalog/changes.py `refusal`): a card is changed (edited, deleted, overwritten by a
CSV row, claimed) only by someone who answers for every place it has: its origin (the club that
claimed its name, else who added it, else the installation) and every match that used it (a club
match: the club's organisers; any other: its owner and each phone seated by a link). Staff always
may. A club that needs other stats keeps its own correction.

Cast (each a phone of its own, signed in unless said):
- cara: added "Magma Wyrm" herself and plays it in her own matches only (the creator alone).
- store: Thursday Club, whose organiser olga added "Store Drake" and whose member mia plays it; the
  demo cards Phoenix and Shade Rat were played in the club's battles.
- mallory: a new account that starts its own club from the page and puts Phoenix in one club battle
  (the hole the issue found).
- otto: an outsider in no club. staff: the site's staff.
"""

import html
import re
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from tracker.catalog import changes as card_changes
from tracker.matches import services
from tracker.models import Card, CardChange, Club, ClubCorrection, Match, Membership, NameClaim

from .helpers import (
    ANA_OTHER_DECK,
    BEN_DECK,
    club_account,
    device_of,
    entry_data,
    entry_url,
    join,
    lock,
    make_invite,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

WYRM = {"name": "Magma Wyrm", "power": "8", "speed": "4", "affinity": "Fire", "rarity": "Epic", "level": "1"}
DRAKE = {**WYRM, "name": "Store Drake"}
HEADER = "name,power,speed,affinity,rarity,level"
FILLERS = ["Tide Runner", "Frost Wisp", "Sky Lancer", "Void Lord"]


def text(response) -> str:
    return html.unescape(response.content.decode())


def add_card(phone: Client, card: dict):
    return phone.post(reverse("card_new", args=["card-crush"]), {f"new-{k}": v for k, v in card.items()})


def card(name: str) -> Card:
    return Card.objects.get(slug="card-crush", name=name)


def battle(**where) -> Match:
    return services.match_create(slug="card-crush", player_names=["Ana", "Ben"], config={}, **where)


def played(match: Match, name: str) -> Match:
    """Both decks locked, the card in seat 0's: a hidden deck's cards count as used from the reveal on."""
    lock(match, 0, [name, *FILLERS])
    return lock(match, 1, ANA_OTHER_DECK)


def edit(phone: Client, target: Card, **changes):
    stats = {k: str(v) for k, v in target.stats.items()}
    data = {"name": target.name, **stats, **changes}
    return phone.post(reverse("card_edit", args=[target.slug, target.pk]), {f"card-{k}": v for k, v in data.items()})


def delete(phone: Client, target: Card):
    return phone.post(reverse("card_delete", args=[target.slug, target.pk]), {"confirm": "yes"})


def import_rows(phone: Client, *rows: str):
    raw = ("\r\n".join([HEADER, *rows]) + "\r\n").encode()
    response = phone.post(reverse("card_import", args=["card-crush"]),
                          {"file": SimpleUploadedFile("cards.csv", raw, content_type="text/csv")})
    assert response.status_code == 302, text(response)
    return text(phone.get(response.url))


def catalog_state() -> list:
    return sorted(Card.objects.values_list("slug", "name", "stats")) + [CardChange.objects.count()]


@pytest.fixture
def cara(catalog) -> Client:
    phone = club_account("cara")
    assert add_card(phone, WYRM).status_code == 302
    played(battle(owner=phone.user), "Magma Wyrm")
    return phone


@pytest.fixture
def store(catalog) -> Club:
    return Club.objects.create(name="Thursday Club")


@pytest.fixture
def olga(store) -> Client:
    return club_account("olga", store, Membership.ORGANISER)


@pytest.fixture
def mia(store) -> Client:
    return club_account("mia", store)


@pytest.fixture
def store_played(store, olga, mia) -> Club:
    """The store's battles: Store Drake (olga's), Phoenix and Shade Rat (demo cards) played in the club."""
    assert add_card(olga, DRAKE).status_code == 302
    for name in ("Store Drake", "Phoenix", "Shade Rat"):
        played(battle(owner=mia.user, club=store), name)
    return store


@pytest.fixture
def mallory(catalog) -> Client:
    """A new account that starts its own club and puts Phoenix in one of its club battles."""
    phone = club_account("mallory")
    response = phone.post(reverse("club_new"), {"name": "Mallory's Own"})
    assert response.status_code == 302
    own = Club.objects.get(name="Mallory's Own")
    played(battle(owner=phone.user, club=own), "Phoenix")
    phone.club = own
    return phone


@pytest.fixture
def otto(db) -> Client:
    return club_account("otto")


@pytest.fixture
def staff(db) -> Client:
    phone = club_account("sam")
    phone.user.is_staff = True
    phone.user.save()
    return phone


# ---------------------------------------------------------------- the personas


def test_the_creator_alone_changes_their_card_and_imports_over_it(cara):
    assert edit(cara, card("Magma Wyrm"), power="9").status_code == 302
    assert "1 updated" in import_rows(cara, "Magma Wyrm,7,4,Fire,Epic,1")
    assert card("Magma Wyrm").stats["power"] == 7
    assert CardChange.objects.filter(card__name="Magma Wyrm", kind=CardChange.EDIT).count() == 2


def test_the_creator_after_others_used_it_changes_nothing(cara):
    other = Client()
    played(battle(owner_device=device_of(other)), "Magma Wyrm")
    before = catalog_state()
    response = edit(cara, card("Magma Wyrm"), power="1")
    assert response.status_code == 403
    assert "since you added it, so you can no longer change it alone" in text(response)
    assert delete(cara, card("Magma Wyrm")).status_code == 403
    page = import_rows(cara, "Magma Wyrm,1,1,Fire,Common,1")
    assert "Not changed: Line 2: Magma Wyrm has been played in other players' or a club's matches" in page
    assert catalog_state() == before


def test_a_seat_taken_by_a_link_in_the_creators_own_match_counts_as_another_player(cara):
    match = played(battle(owner=cara.user), "Magma Wyrm")
    join(Client(), make_invite(cara, match, "seat", 1))
    assert edit(cara, card("Magma Wyrm"), power="1").status_code == 403


def test_the_organiser_of_the_club_that_alone_used_their_card_changes_it(store_played, olga, mia):
    drake = card("Store Drake")
    assert edit(olga, drake, power="9").status_code == 302
    assert "1 updated" in import_rows(olga, "Store Drake,7,4,Fire,Epic,1")
    before = catalog_state()
    assert edit(mia, card("Store Drake"), power="1").status_code == 403  # a member does not run the club
    assert catalog_state() == before


def test_the_organiser_of_a_club_that_used_a_demo_card_keeps_a_correction_instead(store_played, olga):
    before = catalog_state()
    response = edit(olga, card("Phoenix"), power="1")
    assert response.status_code == 403 and "Phoenix has no recorded creator" in text(response)
    assert "Not changed: Line 2: Shade Rat has no recorded creator" in import_rows(olga, "Shade Rat,1,1,Shadow,Common,1")
    assert catalog_state() == before


def test_an_organiser_does_not_change_a_card_another_club_also_used(store_played, olga, catalog):
    other = Club.objects.create(name="Elsewhere")
    played(battle(owner=club_account("eve", other, Membership.ORGANISER).user, club=other), "Store Drake")
    before = catalog_state()
    assert edit(olga, card("Store Drake"), power="1").status_code == 403
    assert "Not changed: Line 2" in import_rows(olga, "Store Drake,1,1,Fire,Common,1")
    assert catalog_state() == before


def test_the_organiser_of_a_self_made_club_changes_nothing_others_used(store_played, mallory):
    """The hole: a new account starts a club, plays Phoenix once in it, then edits Phoenix and deletes Shade Rat."""
    before = catalog_state()
    response = edit(mallory, card("Phoenix"), power="1", speed="1", rarity="Common")
    assert response.status_code == 403
    assert delete(mallory, card("Shade Rat")).status_code == 403
    played(battle(owner=mallory.user, club=mallory.club), "Store Drake")
    assert edit(mallory, card("Store Drake"), power="1").status_code == 403
    page = import_rows(mallory, "Phoenix,1,1,Fire,Common,1", "Shade Rat,1,1,Shadow,Common,1",
                       "Store Drake,1,1,Fire,Common,1")
    assert "Catalog imported: 0 added, 0 updated." in page and page.count("Not changed: Line") == 3
    assert catalog_state() == before


def test_an_outsider_changes_nothing(store_played, cara, otto):
    before = catalog_state()
    for name in ("Phoenix", "Store Drake", "Magma Wyrm", "Ember Fox"):
        assert edit(otto, card(name), power="1").status_code == 403, name
        assert delete(otto, card(name)).status_code == 403, name
    page = import_rows(otto, "Phoenix,1,1,Fire,Common,1", "Store Drake,1,1,Fire,Common,1",
                       "Magma Wyrm,1,1,Fire,Common,1", "Ember Fox,1,1,Fire,Common,1")
    assert page.count("Not changed: Line") == 4
    assert catalog_state() == before


def test_staff_change_any_card_and_it_is_recorded(store_played, staff):
    assert edit(staff, card("Phoenix"), power="10").status_code == 302
    change = CardChange.objects.get(card__name="Phoenix")
    assert (change.user, change.old_stats["power"], change.new_stats["power"]) == (staff.user, 9, 10)


def test_a_match_keeps_the_stats_it_was_played_with(cara):
    old = Match.objects.get(owner=cara.user)
    assert edit(cara, card("Magma Wyrm"), power="9").status_code == 302
    old.refresh_from_db()
    assert old.state["decks"][0][0]["power"] == 8


# ---------------------------------------------------------------- one rule for every write path


def test_every_write_path_asks_the_one_rule(monkeypatch, store_played, staff):
    """Staff may do anything, so a refusal here can only come from the patched rule."""
    monkeypatch.setattr(card_changes, "refusal", lambda editor, target: f"The rule says no to {target.name}.")
    before = catalog_state()
    response = edit(staff, card("Phoenix"), power="1")
    assert response.status_code == 403 and "The rule says no to Phoenix." in text(response)
    response = delete(staff, card("Shade Rat"))
    assert response.status_code == 403 and "The rule says no to Shade Rat." in text(response)
    assert "Line 2: The rule says no to Store Drake." in import_rows(staff, "Store Drake,1,1,Fire,Common,1")
    assert catalog_state() == before
    with pytest.raises(card_changes.CardRefused, match="The rule says no to Store Drake"):
        card_changes.card_edit(card_changes.Editor(staff.user, "x"), card("Store Drake").pk, "Store Drake", {})
    with pytest.raises(card_changes.CardRefused, match="The rule says no to Store Drake"):
        card_changes.card_delete(card_changes.Editor(staff.user, "x"), card("Store Drake").pk)
    staff_club = Club.objects.create(name="Staff Club")
    Membership.objects.create(club=staff_club, user=staff.user, role=Membership.ORGANISER)
    with pytest.raises(card_changes.CardRefused, match="The rule says no to Store Drake"):
        card_changes.name_claim(card_changes.Editor(staff.user, "x"), staff_club, "card-crush", "Store Drake")


@pytest.mark.engine_agnostic  # reads the URLs or the source, no database: CI runs it once, on SQLite
def test_the_card_routes_that_write_are_the_ones_checked_above():
    """A new route that changes a card must join the test above (and ask the rule)."""
    from tracker.urls import urlpatterns

    card_routes = {p.name for p in urlpatterns if getattr(p, "name", "") and str(p.pattern).startswith("cards/")}
    assert card_routes == {"card_games", "card_list", "card_new", "card_picks", "card_detail", "card_edit",
                           "card_delete", "card_export", "card_import", "card_club_correction"}


# ---------------------------------------------------------------- club corrections


def correct(phone: Client, club: Club, target: Card, **stats):
    data = {**{k: str(v) for k, v in target.stats.items()}, **stats}
    return phone.post(reverse("card_club_correction", args=[target.slug, target.pk, club.pk]),
                      {f"card-{k}": v for k, v in data.items()})


def enter(phone: Client, match: Match, names: list[str]) -> Match:
    """Lock seat 0's deck through the entry page, as a player does; then seat 1's through the services."""
    response = phone.post(entry_url(match, 0), entry_data(match, 0, names))
    assert response.status_code == 302, text(response)
    return lock(match, 1, BEN_DECK)


def test_a_club_correction_counts_in_its_new_matches_only(store_played, olga, mia, mallory):
    phoenix = card("Phoenix")
    response = correct(olga, store_played, phoenix, power="7")
    assert response.status_code == 302
    assert card("Phoenix").stats["power"] == 9  # nobody else's card changed
    deck = ["Phoenix", *FILLERS]
    club_match = enter(mia, battle(owner=mia.user, club=store_played), deck)
    elsewhere = enter(mallory, battle(owner=mallory.user, club=mallory.club), deck)
    private = enter(olga, battle(owner=olga.user), deck)
    assert club_match.state["decks"][0][0]["power"] == 7
    assert elsewhere.state["decks"][0][0]["power"] == 9 and private.state["decks"][0][0]["power"] == 9
    change = CardChange.objects.get(kind=CardChange.CLUB)
    assert (change.club, change.user, change.old_stats["power"], change.new_stats["power"]) == (
        store_played, olga.user, 9, 7)


def test_a_correction_made_while_a_match_is_played_leaves_that_match_as_it_began(store_played, olga, mia):
    """Round 19: an organiser who played set her cards' club stats to 999 after the other side locked in. A match
    plays the corrections as they stood when it was made; the club's next match plays the new ones."""
    phoenix = card("Phoenix")
    assert correct(olga, store_played, phoenix, power="7").status_code == 302
    under_way = battle(owner=mia.user, club=store_played)  # made with Phoenix at 7
    assert correct(olga, store_played, phoenix, power="99").status_code == 302
    deck = ["Phoenix", *FILLERS]
    assert enter(mia, under_way, deck).state["decks"][0][0]["power"] == 7
    assert enter(mia, battle(owner=mia.user, club=store_played), deck).state["decks"][0][0]["power"] == 99
    assert correct(olga, store_played, phoenix, power="9").status_code == 302  # the catalog's again: none
    assert enter(mia, battle(owner=mia.user, club=store_played), deck).state["decks"][0][0]["power"] == 9


def test_an_edit_of_the_catalog_card_made_while_a_match_is_played_leaves_that_match_as_it_began(cara):
    """Round 20: with corrections held (round 19), the card's own edit, a CSV row over it, or deleting it and adding
    it again still changed a match between its entries. Each plays from the match's making on only."""
    deck = ["Magma Wyrm", *FILLERS]
    made = battle(owner=cara.user)
    assert edit(cara, card("Magma Wyrm"), power="99").status_code == 302
    assert enter(cara, made, deck).state["decks"][0][0]["power"] == 8
    assert enter(cara, battle(owner=cara.user), deck).state["decks"][0][0]["power"] == 99

    made = battle(owner=cara.user)
    import_rows(cara, "Magma Wyrm,98,4,Fire,Epic,1")
    assert card("Magma Wyrm").stats["power"] == 98
    assert enter(cara, made, deck).state["decks"][0][0]["power"] == 99

    made = battle(owner=cara.user)
    assert delete(cara, card("Magma Wyrm")).status_code == 302
    assert add_card(cara, {**WYRM, "power": "97"}).status_code == 302
    assert enter(cara, made, deck).state["decks"][0][0]["power"] == 98  # the card deleted since, as it stood
    assert enter(cara, battle(owner=cara.user), deck).state["decks"][0][0]["power"] == 97


def test_renames_and_an_edit_before_a_deletion_leave_a_match_as_it_began(cara, otto):
    """Round 21: the card was looked up by its name now and its stats undone by its id, so an edit before deleting
    it, a rename away with a new card under the old name, or two cards swapping names, each changed a match
    under way; and a card deleted meanwhile could not be entered at all. A match reads names as they stood too."""
    deck = ["Magma Wyrm", *FILLERS]
    made = battle(owner=cara.user)
    assert edit(cara, card("Magma Wyrm"), power="99").status_code == 302
    assert delete(cara, card("Magma Wyrm")).status_code == 302
    assert add_card(cara, {**WYRM, "power": "99"}).status_code == 302
    assert enter(cara, made, deck).state["decks"][0][0]["power"] == 8

    made = battle(owner=cara.user)
    assert edit(cara, card("Magma Wyrm"), name="Magma Wyrm Old").status_code == 302
    assert add_card(cara, {**WYRM, "power": "97"}).status_code == 302
    assert enter(cara, made, deck).state["decks"][0][0]["power"] == 99  # the Wyrm of its moment

    assert add_card(cara, {**WYRM, "name": "Twig", "power": "1"}).status_code == 302
    made = battle(owner=cara.user)
    for first, second in (("Magma Wyrm", "Swap"), ("Twig", "Magma Wyrm"), ("Swap", "Twig")):
        assert edit(cara, card(first), name=second).status_code == 302
    assert card("Magma Wyrm").stats["power"] == 1
    assert enter(cara, made, deck).state["decks"][0][0]["power"] == 97
    assert enter(cara, battle(owner=cara.user), deck).state["decks"][0][0]["power"] == 1

    made = battle(owner=cara.user)
    assert delete(cara, card("Twig")).status_code == 302  # the Wyrm of 97, under the name Twig since the swap
    assert enter(cara, made, ["Twig", *FILLERS]).state["decks"][0][0]["power"] == 97  # deleted, not denied


def test_a_member_keeps_the_clubs_correction_of_his_card_in_its_matches(store, olga, mia):
    """Round 21: a member deleted his card the club had corrected and added it again at his stats, shedding the
    correction in a match under way and in every later one. The correction is one of the card's places now: the
    club's organisers answer for it, so he changes it no more alone; and a match plays the card of its moment."""
    assert add_card(mia, {**WYRM, "name": "Titan"}).status_code == 302
    titan = card("Titan")
    assert correct(olga, store, titan, power="5").status_code == 302
    made = battle(owner=mia.user, club=store)
    refused = delete(mia, titan)
    assert refused.status_code in (403, 422) and Card.objects.filter(pk=titan.pk).exists()
    assert edit(mia, titan, name="Titan Old").status_code in (403, 422)
    assert enter(mia, made, ["Titan", *FILLERS]).state["decks"][0][0]["power"] == 5


def test_a_look_alike_added_since_is_no_card_of_the_match_and_a_use_is_the_played_cards(cara):
    """Round 22: a card renamed away and one added since under its name drawn in Cyrillic letters ("Асе8") played
    as added, though the catalog holds the two names for one; and a use was noted on the card called so now, not
    the card the match played."""
    assert add_card(cara, {**WYRM, "name": "Ace8", "power": "2"}).status_code == 302
    made = battle(owner=cara.user)
    ace = card("Ace8")
    assert edit(cara, ace, name="Ace8 Old").status_code == 302
    assert add_card(cara, {**WYRM, "name": "\u0410\u0441\u04358", "power": "99"}).status_code == 302
    refused = cara.post(entry_url(made, 0), entry_data(made, 0, ["\u0410\u0441\u04358", *FILLERS]))
    assert refused.status_code != 302 and Match.objects.get(pk=made.pk).state["decks"][0] is None
    assert enter(cara, made, ["Ace8", *FILLERS]).state["decks"][0][0]["power"] == 2  # its moment's: renamed since
    assert list(made.card_uses.filter(card__name__startswith="A").values_list("card", flat=True)) == [ace.pk]


def test_a_card_renamed_since_is_found_by_its_new_name_too(cara):
    """Round 23: a typo fixed after the match was made ("Magma Wyrm" to "Magma Wyrm II") left the card findable only
    by the old name, which no list offered; the new name was refused, and could not be added either."""
    made = battle(owner=cara.user)
    assert edit(cara, card("Magma Wyrm"), name="Magma Wyrm II", power="50").status_code == 302
    assert enter(cara, made, ["Magma Wyrm II", *FILLERS]).state["decks"][0][0]["power"] == 8


def test_a_kept_moment_still_plays_its_cards_and_finds_those_added_or_deleted_since(cara, monkeypatch):
    """A process keeps the catalog of a moment once it is KEPT_AFTER old (`_stood`). Kept before the card was edited,
    deleted and added again, it still plays the card of its moment, and finds a card added since by its name."""
    from tracker.matches import club_cards

    monkeypatch.setattr(club_cards, "KEPT_AFTER", timedelta(0))  # every moment already past: kept at once
    made = battle(owner=cara.user)
    assert club_cards.match_catalog(made)["magma wyrm"].stats["power"] == 8
    assert club_cards._stood.cache_info().currsize == 1
    assert edit(cara, card("Magma Wyrm"), power="99").status_code == 302
    assert delete(cara, card("Magma Wyrm")).status_code == 302
    assert add_card(cara, {**WYRM, "power": "97"}).status_code == 302
    assert add_card(cara, {**WYRM, "name": "Fresh Imp", "power": "3"}).status_code == 302
    played = enter(cara, made, ["Magma Wyrm", "Fresh Imp", *FILLERS[:3]]).state["decks"][0]
    assert [card["power"] for card in played[:2]] == [8, 3]
    assert club_cards._stood.cache_info().hits >= 1  # the entry read the kept moment, not the records again
    assert enter(cara, battle(owner=cara.user), ["Magma Wyrm", *FILLERS]).state["decks"][0][0]["power"] == 97


def test_the_card_list_of_a_private_match_shows_the_stats_it_plays(cara):
    """Round 21: only a club match's card list was told its match, so a private match's list showed an edit made
    since (Power 10) while the lock-in played the card as it stood (Power 2)."""
    made = battle(owner=cara.user)
    assert edit(cara, card("Magma Wyrm"), power="10").status_code == 302
    assert f'hx-vals=\'{{"match": "{made.pk}"}}\'' in text(cara.get(entry_url(made, 0)))
    response = cara.get(reverse("card_picks", args=["card-crush"]), {"field": "q", "q": "Magma", "match": made.pk},
                        HTTP_HX_REQUEST="true")
    assert re.search(r"Power[^0-9]*(\d+)", text(response)).group(1) == "8"


def test_a_correction_set_back_lets_the_catalogs_later_edits_reach_the_club(store_played, olga, mia):
    """Round 20: setting a correction back to the catalog's stats was read as a correction to those stats, so a
    later edit of the card never reached the club, while every page said it had no correction."""
    drake = card("Store Drake")
    assert correct(olga, store_played, drake, power="3").status_code == 302
    assert correct(olga, store_played, drake, power="8").status_code == 302  # the catalog's: no correction
    assert not ClubCorrection.objects.filter(card=drake).exists()
    assert edit(olga, drake, power="9").status_code == 302
    deck = ["Store Drake", *FILLERS]
    assert enter(mia, battle(owner=mia.user, club=store_played), deck).state["decks"][0][0]["power"] == 9


def test_an_organiser_who_plays_in_a_running_tournament_corrects_no_card(store_played, olga, store):
    """Round 19: she would set the stats her next round's battles play. Another organiser does; she may again
    once the tournament ends. Round 20: nor does she edit a card the club answers for (her own Store Drake, played
    in the club), nor claim names, by the same rule (changes._organised)."""
    from tracker.competition import tournaments
    from tracker.models import Player

    phoenix = card("Phoenix")
    Player.objects.create(name="Olga", user=olga.user)
    cup = tournaments.tournament_create(name="Cup", player_names=["Olga", "Cid"], club=store)
    url = reverse("card_club_correction", args=[phoenix.slug, phoenix.pk, store.pk])
    said = "changes none of the club's cards, corrections or claimed names"
    assert said in text(olga.get(url))
    refused = correct(olga, store, phoenix, power="99")
    assert refused.status_code in (403, 422) and said in text(refused)
    assert not ClubCorrection.objects.filter(card=phoenix).exists()
    drake = card("Store Drake")
    assert edit(olga, drake, power="99").status_code in (403, 422) and card("Store Drake").stats["power"] == 8
    claimed = olga.post(reverse("club_claim", args=[store.pk]), {"slug": "card-crush", "name": "House Golem"},
                        follow=True)
    assert said in text(claimed) and not NameClaim.objects.filter(name="House Golem").exists()
    referee = club_account("rex", store, Membership.ORGANISER)
    assert correct(referee, store, phoenix, power="8").status_code == 302
    cup.finished = cup.created
    cup.save(update_fields=["finished"])
    assert correct(olga, store, phoenix, power="7").status_code == 302
    assert edit(olga, drake, power="9").status_code == 302


def test_the_entry_pages_card_list_shows_the_stats_the_match_plays(store_played, olga, mia, otto):
    """Round 19: a player entering a club deck was shown the catalog's Power while the club played another."""
    phoenix = card("Phoenix")
    assert correct(olga, store_played, phoenix, power="3").status_code == 302
    match = battle(owner=mia.user, club=store_played)
    page = text(mia.get(entry_url(match, 0)))
    assert f'hx-vals=\'{{"match": "{match.pk}"}}\'' in page

    def power(phone: Client, **asked) -> str:
        response = phone.get(reverse("card_picks", args=["card-crush"]), {"field": "q", "q": "Phoenix", **asked},
                             HTTP_HX_REQUEST="true")
        assert response.status_code == 200
        return re.search(r"Power[^0-9]*(\d+)", text(response)).group(1)

    assert power(mia, match=match.pk) == "3"
    assert power(mia) == "9"  # the catalog's, on its own
    assert power(otto, match=match.pk) == "9"  # an outsider learns nothing of the club through it
    join(otto, make_invite(mia, match, "watch"))
    assert otto.get(match.get_absolute_url()).status_code == 200
    assert power(otto, match=match.pk) == "9"  # nor a watcher outside the club (round 20)
    assert power(mia, match="x") == "9"


def test_a_correction_drawn_before_another_organisers_does_not_undo_it(store_played, olga):
    """As with a card's own edit: a club correction form drawn before another phone's correction is refused."""
    phoenix = card("Phoenix")
    url = reverse("card_club_correction", args=[phoenix.slug, phoenix.pk, store_played.pk])
    drawn = re.search(r'name="drawn" value="([^"]+)"', text(olga.get(url))).group(1)
    data = {f"card-{k}": str(v) for k, v in phoenix.stats.items()}
    assert olga.post(url, {**data, "card-power": "7", "drawn": drawn}).status_code == 302
    stale = olga.post(url, {**data, "card-power": "5", "drawn": drawn})
    assert stale.status_code == 409 and text(stale).count("was corrected on another phone") == 1  # said once
    assert ClubCorrection.objects.get(card=phoenix, club=store_played).stats["power"] == 7


@pytest.mark.engine_agnostic  # reads the URLs or the source, no database: CI runs it once, on SQLite
def test_every_games_entry_reads_the_club_catalog():
    """Each game's pages look catalog cards up through tracker/matches/club_cards.py (match_catalog, match_card)."""
    import pathlib

    games = pathlib.Path(services.__file__).parent.parent / "games"
    for source in games.glob("*/*.py"):
        assert "Card.objects" not in source.read_text() or source.name == "demo.py" or (
            source.name == "forms.py" and "Card.objects.filter(slug=SLUG).count()" in source.read_text()), source


def test_only_the_clubs_organisers_correct_for_it_and_outsiders_learn_nothing(store_played, olga, mia, otto):
    phoenix = card("Phoenix")
    url = reverse("card_club_correction", args=[phoenix.slug, phoenix.pk, store_played.pk])
    page = mia.get(url)
    assert page.status_code == 200 and "Only an organiser of Thursday Club can correct a card" in text(page)
    assert correct(mia, store_played, phoenix, power="1").status_code == 403
    assert otto.get(url).status_code == 404 and correct(otto, store_played, phoenix, power="1").status_code == 404
    assert not ClubCorrection.objects.exists()
    correct(olga, store_played, phoenix, power="7")
    detail = reverse("card_detail", args=[phoenix.slug, phoenix.pk])
    assert "Corrected for Thursday Club" in text(mia.get(detail)) and "In Thursday Club's matches" in text(mia.get(detail))
    assert "Thursday Club" not in text(otto.get(detail))


def test_the_catalogs_stats_again_remove_the_correction_and_that_is_recorded(store_played, olga):
    phoenix = card("Phoenix")
    correct(olga, store_played, phoenix, power="7")
    assert correct(olga, store_played, phoenix, power="9").status_code == 302
    assert not ClubCorrection.objects.exists()
    assert list(CardChange.objects.filter(kind=CardChange.CLUB).values_list("new_stats__power", flat=True)) == [9, 7]


def test_the_cards_page_offers_the_correction_to_its_organisers(store_played, olga, mia):
    phoenix = card("Phoenix")
    link = reverse("card_club_correction", args=[phoenix.slug, phoenix.pk, store_played.pk])
    assert link in text(olga.get(reverse("card_detail", args=[phoenix.slug, phoenix.pk])))
    assert link not in text(mia.get(reverse("card_detail", args=[phoenix.slug, phoenix.pk])))


# ---------------------------------------------------------------- name claims


def claim(phone: Client, club: Club, name: str, slug: str = "card-crush"):
    return phone.post(reverse("club_claim", args=[club.pk]), {"slug": slug, "name": name})


def test_a_claimed_name_is_the_clubs_outsiders_cannot_squat_it(store, olga, mia, otto):
    assert claim(olga, store, "Night Owl").status_code == 302
    assert "Night Owl" in text(mia.get(reverse("club_detail", args=[store.pk])))
    before = catalog_state()
    response = add_card(otto, {**WYRM, "name": "night owl"})
    assert response.status_code == 422
    assert "night owl is a name Thursday Club has claimed for its cards" in text(response)
    assert "Line 2: Night Owl is a name Thursday Club has claimed" in import_rows(otto, "Night Owl,1,1,Fire,Common,1")
    assert catalog_state() == before
    assert add_card(mia, {**WYRM, "name": "Night Owl"}).status_code == 302  # a member adds the store's card
    owl = card("Night Owl")
    response = edit(mia, owl, power="1")  # the club answers for it: its organisers change it
    assert response.status_code == 403 and "only that club's organisers can change it" in text(response)
    assert edit(olga, owl, power="9").status_code == 302


@pytest.mark.parametrize(("twin", "says"), [
    ("Νονα Drake", "Thursday Club has claimed"),  # Greek letters, one word: drawn as Nova
    ("\ua4e0ova Drake", "cannot mix Latin letters with those of another script"),  # a Lisu N in a Latin word
    ("N\u043eva Drake", "cannot mix Latin letters with those of another script"),  # a Cyrillic o
])
def test_a_claimed_name_has_no_lookalike_twin(store, olga, otto, twin, says):
    """Names drawn like the claimed one in letters of another script were added by outsiders beside it: a second
    Nova Drake nobody could tell apart. A look-alike is the claimed name, or refused as typed."""
    claim(olga, store, "Nova Drake")
    before = catalog_state()
    response = add_card(otto, {**WYRM, "name": twin})
    assert response.status_code == 422 and says in text(response)
    imported = import_rows(otto, f"{twin},1,1,Fire,Common,1")  # refused, whichever reason it is told first
    assert "Line 2: " in imported and ("Thursday Club has claimed" in imported or says in imported)
    assert catalog_state() == before


def test_a_card_has_no_lookalike_twin_in_the_catalog(store, olga, otto):
    assert add_card(olga, {**WYRM, "name": "Tao Drake"}).status_code == 302
    assert add_card(olga, {**WYRM, "name": "Mystic Imp"}).status_code == 302
    before = catalog_state()
    response = add_card(otto, {**WYRM, "name": "Ταο Drake"})  # Greek T, a and o: drawn as Tao
    assert response.status_code == 422 and "Tao Drake is already in the catalog" in text(response)
    response = add_card(otto, {**WYRM, "name": "Myst\u0131\u0307c Imp"})  # a dotless i with a dot above
    assert response.status_code == 422 and "Mystic Imp is already in the catalog" in text(response)
    assert catalog_state() == before


def test_renaming_a_card_into_a_claimed_name_is_refused(store, olga, cara):
    claim(olga, store, "Night Owl")
    wyrm = card("Magma Wyrm")
    response = edit(cara, wyrm, name="Night Owl")
    assert response.status_code == 403 and "Thursday Club has claimed" in text(response)
    assert card("Magma Wyrm").stats == wyrm.stats


def test_a_claim_never_takes_a_card_from_anyone(store_played, olga, mallory, otto):
    before = (catalog_state(), NameClaim.objects.count())
    response = claim(olga, store_played, "Phoenix")  # a demo card: staff's
    assert response.status_code == 403 and "you may not change it, so the club cannot claim it" in text(response)
    response = claim(mallory, mallory.club, "store drake")  # olga's card, played by the store
    assert response.status_code == 403
    assert (catalog_state(), NameClaim.objects.count()) == before
    assert claim(olga, store_played, "store drake").status_code == 302  # her own card, only her club played it
    assert NameClaim.objects.get().name == "Store Drake"
    assert claim(mallory, mallory.club, "Store Drake").status_code == 422  # claimed already


def test_only_organisers_claim_and_give_up_names(store, olga, mia, otto):
    assert claim(mia, store, "Night Owl").status_code == 403
    assert claim(otto, store, "Night Owl").status_code == 404
    assert not NameClaim.objects.exists()
    claim(olga, store, "Night Owl")
    held = NameClaim.objects.get()
    assert mia.post(reverse("club_claim_release", args=[store.pk, held.pk])).status_code == 403
    assert olga.post(reverse("club_claim_release", args=[store.pk, held.pk])).status_code == 302
    assert not NameClaim.objects.exists()


@pytest.mark.parametrize("name", ["", "   ", "x" * 61, "a\x00b"])
def test_a_bad_claim_says_what_is_wrong_and_claims_nothing(store, olga, name):
    response = claim(olga, store, name)
    assert response.status_code == 422 and re.search(r'class="error"', text(response))
    assert not NameClaim.objects.exists()
    assert claim(olga, store, "Owl", slug="chess").status_code == 422


def test_a_club_holds_a_bounded_number_of_claims(store, olga, monkeypatch):
    monkeypatch.setattr(card_changes, "CLAIMS_PER_CLUB", 2)
    assert claim(olga, store, "A").status_code == 302 and claim(olga, store, "B").status_code == 302
    response = claim(olga, store, "C")
    assert response.status_code == 422 and "the most a club may" in text(response)
    assert NameClaim.objects.count() == 2


@pytest.mark.parametrize("look_alike", [
    "Store\u200bDrake", "Store Drake\u2060", "Ｓtore Drake", "Store\u00a0Drake",
    # found by an adversarial run: a variation selector, a grapheme joiner, a Hangul filler, a blank braille cell,
    # a Cyrillic о or е among Latin letters
    "Store Drake\ufe0f", "Store\u034fDrake", "Store\u3164Drake", "Store\u2800Drake", "St\u043ere Drake",
    "Store Drak\u0435"])
def test_a_name_that_looks_like_another_is_that_name_or_refused(store, olga, otto, look_alike):
    """A claimed or taken name cannot be had again by typing it with invisible, full-width or look-alike characters."""
    assert claim(olga, store, "Store Drake").status_code == 302
    before = catalog_state()
    response = add_card(otto, {**WYRM, "name": look_alike})
    assert response.status_code in (403, 422)
    assert any(why in text(response) for why in ("Thursday Club has claimed", "invisible or control characters",
                                                 "cannot mix Latin letters with those of another script"))
    assert catalog_state() == before
    own = Club.objects.create(name="Otto's Own")
    Membership.objects.create(club=own, user=otto.user, role=Membership.ORGANISER)
    assert claim(otto, own, look_alike).status_code == 422
    assert NameClaim.objects.filter(club=own).count() == 0


def test_a_full_width_name_is_kept_as_the_plain_one(catalog, otto):
    assert add_card(otto, {**WYRM, "name": "Ｍagma  Ｗyrm"}).status_code == 302
    assert card("Magma Wyrm").created_by == otto.user
    assert add_card(otto, {**WYRM, "name": "MAGMA WYRM"}).status_code == 422
