"""The home page: one button per game, the five most recent matches."""

import pytest
from django.urls import reverse

import rules
from tracker.matches import services

from .helpers import ANA_DECK, lock, lock_both, play_out, text

pytestmark = pytest.mark.django_db


def test_it_offers_a_new_match_for_every_game(client):
    response = client.get(reverse("home"))
    assert response.status_code == 200
    html = text(response)
    for slug, game in rules.GAMES.items():
        assert reverse("match_new", args=[slug]) in html
        assert f"New {game.name} match" in html


def test_it_says_when_there_are_no_matches(client):
    assert "No matches yet." in text(client.get(reverse("home")))


def test_it_lists_the_five_most_recent_matches(client, catalog):
    matches = [
        services.match_create(slug="card-crush", player_names=[f"P{i}a", f"P{i}b"], config={}) for i in range(7)
    ]
    html = text(client.get(reverse("home")))
    shown = [m for m in matches if m.get_absolute_url() in html]
    assert shown == matches[2:]
    # Newest first.
    positions = [html.index(m.get_absolute_url()) for m in reversed(matches[2:])]
    assert positions == sorted(positions)


def test_it_shows_in_progress_and_winner(client, match):
    assert "in progress" in text(client.get(reverse("home")))
    play_out(lock_both(match))
    match.refresh_from_db()
    html = text(client.get(reverse("home")))
    assert f"{match.winner.name} won {match.shown_score}" in html


def test_it_does_not_show_a_locked_deck(client, match):
    lock(match, 0, ANA_DECK)
    html = text(client.get(reverse("home")))
    for name in ANA_DECK:
        assert name not in html


def test_it_refuses_post(client):
    assert client.post(reverse("home")).status_code == 405
