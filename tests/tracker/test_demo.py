"""`manage.py demo`: catalogs and finished matches for every game, and nothing more the second time."""

from collections import Counter
from io import StringIO

import pytest
from django.core.management import call_command

import rules
from tracker import demo, demo_matches, exchange, services
from tracker.games import ADAPTERS
from tracker.models import Action, Card, Match, Player

from .conftest import assert_every_match_replays

pytestmark = pytest.mark.django_db

# Card Crush's battles, then the other games' matches.
DEMO_MATCHES = len(demo.BATTLES) + len(demo.MATCHES)


def run_demo() -> str:
    out = StringIO()
    call_command("demo", stdout=out)
    return out.getvalue()


def test_it_loads_catalogs_and_finished_matches_of_every_game():
    output = run_demo()
    for slug in rules.GAMES:
        assert Card.objects.filter(slug=slug).exists(), slug
    for slug, pages in ADAPTERS.items():
        assert Card.objects.filter(slug=slug).count() == len(pages.DEMO_CARDS), slug
    finished = Counter(Match.objects.filter(finished__isnull=False).values_list("slug", flat=True))
    assert set(finished) == set(rules.GAMES)
    assert all(count >= 2 for count in finished.values()), finished
    assert Match.objects.count() == sum(finished.values()) == DEMO_MATCHES
    assert all(match.score for match in Match.objects.all())
    assert set(Player.objects.values_list("name", flat=True)) == set(demo.PLAYERS)
    assert f"{Card.objects.count()} demo cards added, {DEMO_MATCHES} demo matches played." in output


def test_the_demo_plays_every_scripted_match():
    run_demo()
    played = {(slug, script) for slug, script, _players in demo.MATCHES}
    assert played == {(slug, script) for slug, scripts in demo_matches.MATCHES.items() for script in scripts}


def test_every_player_plays_every_game_but_card_crush():
    """Statistics per player have something to show for each game."""
    run_demo()
    for slug in demo_matches.MATCHES:
        names = {seat.player.name for match in Match.objects.filter(slug=slug) for seat in match.seats.all()}
        assert names == set(demo.PLAYERS), slug


def test_every_card_is_valid_for_its_game():
    run_demo()
    for card in Card.objects.all():
        assert rules.GAMES[card.slug].validate_card(card.as_rules_card()) == card.as_rules_card()


def test_running_it_again_adds_nothing():
    run_demo()
    counts = (Card.objects.count(), Match.objects.count(), Action.objects.count(), Player.objects.count())
    output = run_demo()
    assert (Card.objects.count(), Match.objects.count(), Action.objects.count(), Player.objects.count()) == counts
    assert "0 demo cards added, 0 demo matches played." in output


def test_every_demo_match_replays_to_its_state_and_through_its_file():
    run_demo()
    for match in Match.objects.all():
        assert services.match_replay(match) == match.state
        outcome = match.game.outcome(match.state)
        assert outcome is not None
        assert match.winner == (None if outcome.winner is None else match.players()[outcome.winner])
        assert match.score == outcome.score
        assert match.head == len(services.live_actions(match))
        assert exchange.replay(exchange.export_match(match)).states[-1] == match.state
    assert_every_match_replays()


def test_a_database_from_before_gets_the_other_games_matches_only():
    """Card Crush's battles were loaded by an older demo: they are not played again."""
    demo.load_catalogs()
    for index, (players, resolution, deck_a, deck_b) in enumerate(demo.BATTLES):
        demo.play_battle(players, resolution, [deck_a, deck_b], undo_once=index == 0)
    output = run_demo()
    assert Match.objects.filter(slug="card-crush").count() == len(demo.BATTLES)
    assert Match.objects.count() == DEMO_MATCHES
    assert f"0 demo cards added, {len(demo.MATCHES)} demo matches played." in output


def test_a_game_already_played_gets_no_demo_matches():
    demo.load_catalogs()
    demo_matches.evons_by_passes(("Zed", "Yara"))
    run_demo()
    assert [player.name for player in Match.objects.get(slug="evons").players()] == ["Zed", "Yara"]
    assert Match.objects.count() == DEMO_MATCHES - sum(slug == "evons" for slug, *_ in demo.MATCHES) + 1


def test_the_first_demo_match_shows_an_undo_in_its_log():
    run_demo()
    assert Action.objects.filter(abandoned=True).count() == 1
    assert Match.objects.filter(config={"resolution": "power-only"}).count() == 1


def test_the_demo_pages_render(client):
    run_demo()
    for match in Match.objects.all():
        assert client.get(match.get_absolute_url()).status_code == 200
        assert client.get(f"/matches/{match.pk}/log/").status_code == 200
        assert client.get(f"/matches/{match.pk}/replay/").status_code == 200


def test_every_games_stats_have_figures(client):
    run_demo()
    for slug in rules.GAMES:
        response = client.get("/stats/", {"game": slug})
        assert response.status_code == 200
        assert response.context["match_count"] == Match.objects.filter(slug=slug).count() >= 2, slug
        assert response.context["figures"], slug
        assert len(response.context["board"]) >= 2, slug
