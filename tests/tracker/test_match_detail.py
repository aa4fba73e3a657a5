"""The match page: who plays, who is locked in, the rounds and their working, undo/redo."""

import re

import pytest
from django.urls import reverse

from tracker.games import ADAPTERS, pages_for
from tracker.matches import services

from .helpers import ANA_DECK, BEN_DECK, lock, play, play_out, text

pytestmark = pytest.mark.django_db


def test_it_shows_a_fresh_match(client, match):
    response = client.get(match.get_absolute_url())
    assert response.status_code == 200
    html = text(response)
    assert f"Card Crush #{match.pk}" in html
    assert "Ana" in html and "Ben" in html
    assert "Waiting for Ana" in html and "Waiting for Ben" in html
    assert reverse("match_pass", args=[match.pk, 0]) in html
    assert reverse("match_pass", args=[match.pk, 1]) in html
    assert "Step 0" in html


def test_it_shows_who_is_locked_in(client, match):
    lock(match, 0, ANA_DECK)
    html = text(client.get(match.get_absolute_url()))
    assert "Ana is locked in" in html
    assert "Waiting for Ben" in html
    assert reverse("match_pass", args=[match.pk, 0]) not in html


def test_it_offers_round_one_once_both_are_locked(client, locked):
    html = text(client.get(locked.get_absolute_url()))
    assert "Lock in your decks" not in html
    assert "Reveal round 1" in html
    assert 'name="action" value="play_round"' in html
    assert f'name="seq" value="{locked.board_mark}"' in html
    # Team Initiative: the sums of Speed (5+8+2+8+9 and 8+7+6+5+5).
    assert "Ana 32" in html and "Ben 31" in html


def test_it_shows_a_revealed_round_with_its_working(client, locked):
    play(locked)
    html = text(client.get(locked.get_absolute_url()))
    assert "Ember Fox" in html and "Tide Runner" in html
    assert "Water over Fire +3: 6 + 3 = 9 beats 7 + 0 = 7." in html
    assert "Reveal round 2" in html
    # Round 2's cards are still face down.
    assert ANA_DECK[1] not in html and BEN_DECK[1] not in html


def test_each_played_round_shows_each_seats_card_and_which_won(client, locked):
    """A played round's two cards as the board draws them (tracker/games/card_crush/board.py `sides`): the seat's
    player, the card, its affinity as a class and in the page's language, and the winner's marked."""
    import re

    from tracker.models import Match

    finished = play_out(locked)
    state = Match.objects.get(pk=finished.pk).state
    names = [player.name for player in finished.players()]
    for language, fire in (("en", "Fire"), ("de", "Feuer")):
        html = text(client.get(finished.get_absolute_url(), headers={"Accept-Language": language}))
        for number, result in enumerate(state["rounds"], start=1):
            part = html.split(f'id="round-{number}"', 1)[1].split("</li>", 1)[0]
            cards = re.findall(r'<div class="cc-card( cc-card-won)?">\s*<span class="cc-owner">([^<]*)</span>\s*'
                               r'<strong class="cc-name">([^<]*)</strong>.*?class="cc-affinity affinity-([a-z]+)">([^<]*)'
                               r'</span>\s*<span class="cc-result">([✓✗])', part, re.S)
            assert [(bool(won), owner, name, kind, mark) for won, owner, name, kind, _said, mark in cards] == [
                (seat == result["winner"], names[seat], card["name"], card["affinity"].lower(),
                 "✓" if seat == result["winner"] else "✗") for seat, card in enumerate(result["cards"])]
            assert all(said == fire for *_rest, kind, said, _mark in cards if kind == "fire")


def test_it_shows_the_winner_and_reveals_the_seed_when_finished(client, locked):
    before = text(client.get(locked.get_absolute_url()))
    assert locked.seed_fingerprint in before
    assert locked.seed not in before
    finished = play_out(locked)
    html = text(client.get(finished.get_absolute_url()))
    assert f"{finished.winner.name} wins the battle {finished.shown_score}" in html
    assert f"Seed revealed: <code>{finished.seed}</code>" in html
    assert "Reveal round" not in html


def test_it_disables_undo_at_step_zero_and_redo_without_undone_steps(client, match):
    html = text(client.get(match.get_absolute_url()))
    assert html.count("disabled") == 2


def test_it_returns_only_the_match_part_to_htmx(client, match):
    response = client.get(match.get_absolute_url(), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = text(response)
    assert html.lstrip().startswith('<div id="match"')
    assert "<html" not in html and "<body" not in html


def test_it_404s_for_an_unknown_match(client, match):
    assert client.get(reverse("match_detail", args=[match.pk + 1000])).status_code == 404


def test_it_refuses_post(client, match):
    assert client.post(match.get_absolute_url()).status_code == 405


@pytest.mark.parametrize("slug", sorted(ADAPTERS))
def test_a_games_stylesheet_is_linked_once_outside_what_a_tap_redraws(client, slug):
    """A <link> in the part an answer replaces is removed and loaded again with every tap: until it applied, the
    board was laid out without it, and the outcome box, just scrolled to the top, ended above the screen."""
    match = services.match_create(slug=slug, player_names=["Ana", "Ben"], config={})
    page = text(client.get(match.get_absolute_url()))
    redrawn = [text(client.get(match.get_absolute_url(), HTTP_HX_REQUEST="true")),
               text(client.get(reverse("match_replay", args=[match.pk]), HTTP_HX_REQUEST="true"))]
    assert all("<link" not in part for part in redrawn)
    sheet = pages_for(slug).stylesheet
    if sheet:
        linked = re.findall(rf'<link rel="stylesheet" href="/static/{sheet.removesuffix(".css")}\.', page)
        assert len(linked) == 1 and page.index(linked[0]) < page.index('<div id="match"')
