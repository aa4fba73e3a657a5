"""`manage.py demo`: catalogs for every game, three finished battles, and nothing more the second time."""

from io import StringIO

import pytest
from django.core.management import call_command

import rules
from tracker import demo, services
from tracker.games import ADAPTERS
from tracker.models import Action, Card, Match, Player

pytestmark = pytest.mark.django_db


def run_demo() -> str:
    out = StringIO()
    call_command("demo", stdout=out)
    return out.getvalue()


def test_it_loads_catalogs_and_finished_matches():
    output = run_demo()
    for slug in rules.GAMES:
        assert Card.objects.filter(game=slug).exists(), slug
    for slug, pages in ADAPTERS.items():
        assert Card.objects.filter(game=slug).count() == len(pages.DEMO_CARDS), slug
    assert Match.objects.count() == 3
    assert Match.objects.filter(finished__isnull=False).count() == 3
    assert all(match.winner is not None and match.score for match in Match.objects.all())
    assert set(demo.PLAYERS) <= set(Player.objects.values_list("name", flat=True))
    assert f"{Card.objects.count()} demo cards added, 3 demo matches played." in output


def test_every_card_is_valid_for_its_game():
    run_demo()
    for card in Card.objects.all():
        assert rules.GAMES[card.game].validate_card(card.as_rules_card()) == card.as_rules_card()


def test_running_it_again_adds_nothing():
    run_demo()
    counts = (Card.objects.count(), Match.objects.count(), Action.objects.count(), Player.objects.count())
    output = run_demo()
    assert (Card.objects.count(), Match.objects.count(), Action.objects.count(), Player.objects.count()) == counts
    assert "0 demo cards added, 0 demo matches played." in output


def test_every_demo_match_replays_to_its_state():
    run_demo()
    for match in Match.objects.all():
        assert services.match_replay(match) == match.state
        outcome = match.rules.outcome(match.state)
        assert outcome is not None
        assert match.winner == match.players()[outcome.winner]
        assert match.score == outcome.score
        assert match.head == len(services.live_actions(match))


def test_the_first_demo_match_shows_an_undo_in_its_log():
    run_demo()
    assert Action.objects.filter(abandoned=True).count() == 1
    assert Match.objects.filter(config={"resolution": "power-only"}).count() == 1


def test_the_demo_pages_render(client):
    run_demo()
    for match in Match.objects.all():
        assert client.get(match.get_absolute_url()).status_code == 200
        assert client.get(f"/matches/{match.pk}/log/").status_code == 200
