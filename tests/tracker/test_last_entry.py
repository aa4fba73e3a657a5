"""A player's cards from last time, offered on their entry page (tracker/matches/last_entry.py): one tap fills the
deck in order, still editable; never an entry still hidden elsewhere, nor one from a match this phone cannot open."""

import pytest
from django.test import Client

from tracker.matches import services

from .helpers import ANA_DECK, ANA_OTHER_DECK, BEN_DECK, device_of, entry_url, lock, lock_both, play_out, text

pytestmark = pytest.mark.django_db

OFFER = "cards from last time"


def test_ana_takes_her_last_deck_in_one_tap_and_ben_his(client, match):
    play_out(lock_both(services.match_create(slug="card-crush", player_names=["Ana", "Ben"], config={})))
    for seat, name, cards in ((0, "Ana", ANA_DECK), (1, "Ben", BEN_DECK)):
        page = text(client.get(entry_url(match, seat)))
        assert f"Take {name}'s {OFFER}" in page and " · ".join(cards) in page
        filled = text(client.get(entry_url(match, seat) + "?reuse=last"))
        for number, card in enumerate(cards, start=1):  # in order, in the fields (editable), not locked
            assert f'name="card_{number}" value="{card}"' in filled
        assert OFFER not in filled
    match.refresh_from_db()
    assert match.head == 0


def test_the_latest_deck_is_offered(client, match):
    for deck in (ANA_DECK, ANA_OTHER_DECK):
        play_out(lock_both(services.match_create(slug="card-crush", player_names=["Ana", "Ben"], config={}), deck))
    assert " · ".join(ANA_OTHER_DECK) in text(client.get(entry_url(match, 0)))


def test_a_deck_still_hidden_in_another_match_is_never_offered(client, match):
    other = services.match_create(slug="card-crush", player_names=["Ana", "Ben"], config={})
    lock(other, 0, ANA_DECK)  # Ben has not locked in there: Ana's deck is still secret
    page = text(client.get(entry_url(match, 0)))
    assert OFFER not in page and "Stone Golem" not in page.split("<form")[0]
    assert OFFER not in text(client.get(entry_url(match, 0) + "?reuse=last"))


def test_a_match_this_phone_cannot_open_lends_no_deck(client, match):
    owner = Client()
    owner.get("/")  # a phone of its own: the match it makes is its alone
    other = services.match_create(slug="card-crush", player_names=["Ana", "Ben"], config={},
                                  owner_device=device_of(owner))
    play_out(lock_both(other))
    assert OFFER in text(owner.get(entry_url(match, 0)))
    assert OFFER not in text(client.get(entry_url(match, 0)))
