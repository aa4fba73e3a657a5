"""Collection pages: copies, upgrades with duplicates, and a battle deck picked from a collection at its levels."""

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from tracker.models import CollectionCard, Match, Player

from .competition_helpers import LOSING_DECK, WINNING_DECK
from .conftest import JUNK, JUNK_IDS, entry_data, entry_url, text

pytestmark = pytest.mark.django_db


@pytest.fixture
def ana(match) -> Player:
    return Player.objects.get(name="Ana")


def add(client: Client, player: Player, card: str, count):
    return client.post(reverse("collection_add", args=[player.pk]), {"card": card, "count": count})


def owned(player: Player) -> list[tuple]:
    return list(CollectionCard.objects.filter(player=player).values_list("card__name", "copies", "level"))


def upgrade(client: Client, player: Player, entry: CollectionCard, **fields):
    data = {"level": entry.level, "copies": entry.copies, **fields}
    return client.post(reverse("collection_upgrade", args=[player.pk, entry.pk]), data)


def test_adding_copies_and_the_page_lists_them(client: Client, ana):
    assert add(client, ana, "Ember Fox", 2).status_code == 302
    assert add(client, ana, "ember fox", 1).status_code == 302
    assert owned(ana) == [("Ember Fox", 3, 1)]
    html = text(client.get(reverse("collection_detail", args=[ana.pk])))
    assert "Ember Fox" in html and "3 copies" in html and "2 of 2 duplicates for level 2" in html
    assert "Upgrade Ember Fox to level 2" in html


@pytest.mark.parametrize("count", ["0", "-1", "-3", "1.5", "", "x"])
def test_zero_or_negative_copies_are_refused(client: Client, ana, count):
    add(client, ana, "Ember Fox", 1)
    response = add(client, ana, "Ember Fox", count)
    assert response.status_code == 422
    assert owned(ana) == [("Ember Fox", 1, 1)]


def test_unknown_card_is_refused(client: Client, ana):
    response = add(client, ana, "No Such Card", 1)
    assert response.status_code == 422 and "No card called" in text(response)
    assert owned(ana) == []


def test_upgrade_spends_duplicates_and_raises_stats(client: Client, ana):
    add(client, ana, "Ember Fox", 3)
    entry = CollectionCard.objects.get(player=ana)
    assert upgrade(client, ana, entry).status_code == 302
    assert owned(ana) == [("Ember Fox", 1, 2)]
    html = text(client.get(reverse("collection_detail", args=[ana.pk])))
    assert "Power 8 · Speed 6" in html  # Ember Fox 7/5 at level 1, +1/+1 at level 2


def test_upgrade_without_enough_duplicates_is_refused(client: Client, ana):
    add(client, ana, "Ember Fox", 2)
    entry = CollectionCard.objects.get(player=ana)
    response = upgrade(client, ana, entry)
    assert response.status_code == 422 and "needs 2 duplicates; you have 1" in text(response)
    assert owned(ana) == [("Ember Fox", 2, 1)]


def test_stale_or_doubled_upgrade_is_refused(client: Client, ana):
    add(client, ana, "Ember Fox", 5)
    entry = CollectionCard.objects.get(player=ana)
    assert upgrade(client, ana, entry).status_code == 302
    response = upgrade(client, ana, entry)  # the same form again
    assert response.status_code == 409 and "changed since the page was loaded" in text(response)
    assert owned(ana) == [("Ember Fox", 3, 2)]


@override_settings(CARD_CRUSH_COMPETITION={"UPGRADE_DUPLICATES": {r: [1] for r in ("Common", "Rare", "Epic", "Legendary")},
                                           "MAX_LEVEL": 2, "UPGRADE_GAINS": {"power": 3, "speed": 0}})
def test_upgrade_table_comes_from_settings(client: Client, ana):
    add(client, ana, "Ember Fox", 4)
    entry = CollectionCard.objects.get(player=ana)
    upgrade(client, ana, entry)
    assert owned(ana) == [("Ember Fox", 3, 2)]
    entry.refresh_from_db()
    response = upgrade(client, ana, entry)
    assert response.status_code == 422 and "top level" in text(response)
    assert "Power 10 · Speed 5" in text(client.get(reverse("collection_detail", args=[ana.pk])))


@pytest.mark.parametrize("value", JUNK, ids=JUNK_IDS)
def test_junk_upgrade_and_add_are_refused(client: Client, ana, value):
    add(client, ana, "Ember Fox", 3)
    entry = CollectionCard.objects.get(player=ana)
    before = owned(ana)
    assert 400 <= upgrade(client, ana, entry, level=value, copies=value).status_code < 500
    assert 400 <= add(client, ana, value, value).status_code < 500
    assert owned(ana) == before


def test_another_players_card_cannot_be_upgraded(client: Client, ana):
    add(client, ana, "Ember Fox", 3)
    ben = Player.objects.get(name="Ben")
    entry = CollectionCard.objects.get(player=ana)
    assert upgrade(client, ben, entry).status_code == 404
    assert owned(ana) == [("Ember Fox", 3, 1)]


# ---------------------------------------------------------------- a battle deck from a collection


def own_deck(client: Client, player: Player, names: list[str], upgrade_first: str | None = None) -> None:
    for name in names:
        add(client, player, name, 3 if name == upgrade_first else 1)
    if upgrade_first:
        upgrade(client, player, CollectionCard.objects.get(player=player, card__name=upgrade_first))


def test_entry_lists_the_collection_with_levels_and_locks_leveled_cards(client: Client, match, ana):
    own_deck(client, ana, WINNING_DECK, upgrade_first="Ember Fox")
    html = text(client.get(entry_url(match, 0)))
    assert "Ana&#x27;s collection at its levels" in html
    assert "Ember Fox (level 2, Power 8, Speed 6)" in html
    response = client.post(entry_url(match, 0), entry_data(match, 0, WINNING_DECK, source="seat-0"))
    assert response.status_code == 302
    deck = Match.objects.get(pk=match.pk).state["decks"][0]
    assert deck[0] == {"name": "Ember Fox", "power": 8, "speed": 6, "affinity": "Fire", "rarity": "Common", "level": 2}
    assert deck[1]["level"] == 1 and deck[1]["power"] == 9  # Phoenix, not upgraded


def test_a_card_missing_from_the_collection_is_refused(client: Client, match, ana):
    own_deck(client, ana, WINNING_DECK[:4] + ["Leviathan"])
    response = client.post(entry_url(match, 0), entry_data(match, 0, WINNING_DECK, source="seat-0"))
    assert response.status_code == 422 and "Ana&#x27;s collection has no Gale Sprite" in text(response)
    assert Match.objects.get(pk=match.pk).head == 0


def test_playing_another_players_collection_is_refused(client: Client, match, ana):
    own_deck(client, ana, WINNING_DECK)
    response = client.post(entry_url(match, 1), entry_data(match, 1, WINNING_DECK, source="seat-0"))
    assert response.status_code == 422 and "Ben can play only their own collection" in text(response)
    assert Match.objects.get(pk=match.pk).head == 0


def test_catalog_cards_are_still_offered(client: Client, match, ana):
    own_deck(client, ana, WINNING_DECK, upgrade_first="Ember Fox")
    response = client.post(entry_url(match, 0), entry_data(match, 0, LOSING_DECK, source="catalog"))
    assert response.status_code == 302
    assert Match.objects.get(pk=match.pk).state["decks"][0][0]["name"] == "Tide Runner"
