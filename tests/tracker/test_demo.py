"""`manage.py demo`: catalogs and finished matches for every game, and nothing more the second time."""

from collections import Counter
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import transaction
from django.test import Client

import rules
from tracker import demo
from tracker.games import ADAPTERS, pages_for
from tracker.matches import services
from tracker.models import Action, Card, Match, Player
from tracker.review import exchange

from .helpers import assert_every_match_replays

pytestmark = pytest.mark.django_db

# Every scripted match, and the club tournament's battles (4 players, 2 rounds: 4 battles).
TOURNAMENT_BATTLES = 4
DEMO_MATCHES = len(demo.matches()) + TOURNAMENT_BATTLES


def run_demo() -> str:
    out = StringIO()
    call_command("demo", stdout=out)
    return out.getvalue()


def assert_every_games_demo_loaded(output: str) -> None:
    """Every game in the registry, the sample game too when it is registered (a single demo, no options): its
    demo is played. Checked on the demo TestTheDemoAsLoaded shares, and with the sample game just below."""
    demo_matches = len(demo.matches()) + TOURNAMENT_BATTLES
    for slug in rules.GAMES:
        assert Card.objects.filter(slug=slug).exists(), slug
    for slug, pages in ADAPTERS.items():
        assert Card.objects.filter(slug=slug).count() == len(pages.demo_cards), slug
    finished = Counter(Match.objects.filter(finished__isnull=False).values_list("slug", flat=True))
    assert set(finished) == set(rules.GAMES)
    assert finished == Counter(slug for slug, *_ in demo.matches()) + Counter({"card-crush": TOURNAMENT_BATTLES})
    assert Match.objects.count() == sum(finished.values()) == demo_matches
    assert all(match.score for match in Match.objects.all())
    assert set(Player.objects.values_list("name", flat=True)) == set(demo.PLAYERS)
    assert f"{Card.objects.count()} demo cards added, {demo_matches} demo matches played." in output


@pytest.mark.sample_game
def test_it_loads_catalogs_and_finished_matches_of_every_game_the_sample_game_too():
    assert_every_games_demo_loaded(run_demo())


def test_a_database_from_before_gets_the_other_games_matches_only():
    """Card Crush's battles were loaded by an older demo: they are not played again."""
    demo.load_catalogs()
    battles = [(script, players) for slug, script, players in demo.matches() if slug == "card-crush"]
    for script, players in battles:
        pages_for("card-crush").demo_matches[script](players)
    output = run_demo()
    assert Match.objects.filter(slug="card-crush").count() == len(battles)
    assert Match.objects.count() == DEMO_MATCHES - TOURNAMENT_BATTLES
    assert f"0 demo cards added, {DEMO_MATCHES - TOURNAMENT_BATTLES - len(battles)} demo matches played." in output


def test_a_game_already_played_gets_no_demo_matches():
    demo.load_catalogs()
    pages_for("evons").demo_matches["by-passes"](("Zed", "Yara"))
    run_demo()
    assert [player.name for player in Match.objects.get(slug="evons").players()] == ["Zed", "Yara"]
    assert Match.objects.count() == DEMO_MATCHES - sum(slug == "evons" for slug, *_ in demo.matches()) + 1


def test_a_demo_player_renamed_in_the_club_is_left_alone(monkeypatch):
    """Serving again after the club renamed a demo player (Ben is Benjamin now) starts, as it stands: loading
    again made a new "Ben" and gave it Ben's account, which already played as Benjamin (an IntegrityError)."""
    for slug in rules.GAMES:  # every game played already: nothing is played again, so this costs no demo match
        Match.objects.create(slug=slug, config={}, state={})
    monkeypatch.setattr(demo, "play_tournament", lambda *args: pytest.fail("played again"))
    demo.load()
    Player.objects.filter(name="Ben").update(name="Benjamin")
    demo.load()
    assert Player.objects.get(user__username="ben").name == "Benjamin"
    assert not Player.objects.filter(name="Ben").exists()


def assert_the_first_demo_match_shows_an_undo_in_its_log() -> None:
    first = Match.objects.order_by("pk").first()
    assert first.actions.filter(abandoned=True).count() == 1
    assert Match.objects.filter(config={"resolution": "power-only"}).count() == 1


@pytest.mark.sample_game
def test_the_first_demo_match_shows_an_undo_in_its_log_the_sample_game_too():
    run_demo()
    assert_the_first_demo_match_shows_an_undo_in_its_log()


class _Rollback(Exception):
    pass


@pytest.fixture(scope="class")
def demo_loaded(django_db_setup, django_db_blocker) -> str:
    """`manage.py demo` run once for the tests of a class, which read what it made: its output. Rolled back after
    them; each test runs in a savepoint of it, rolled back after the test (as test_write_sweep.py's table). Each
    test ran the demo itself before, 1.5 s of CPU each."""
    with django_db_blocker.unblock():
        try:
            with transaction.atomic():
                yield run_demo()
                raise _Rollback
        except _Rollback:
            pass


@pytest.mark.xdist_group("demo")  # one worker, one demo (--dist loadgroup)
class TestTheDemoAsLoaded:
    """What one run of the demo made, read by each test; a test that changes something changes it in its own
    savepoint."""

    def test_it_loads_catalogs_and_finished_matches_of_every_game(self, demo_loaded):
        assert_every_games_demo_loaded(demo_loaded)

    def test_the_first_demo_match_shows_an_undo_in_its_log(self, demo_loaded):
        assert_the_first_demo_match_shows_an_undo_in_its_log()

    def test_the_demo_plays_every_scripted_match(self, demo_loaded):
        played = {(slug, script) for slug, script, _players in demo.matches()}
        assert played == {(slug, script) for slug, pages in ADAPTERS.items() for script in pages.demo_matches}

    def test_every_player_plays_every_game_but_card_crush(self, demo_loaded):
        """Statistics per player have something to show for each game."""
        for slug in (slug for slug in rules.GAMES if slug != "card-crush"):
            names = {seat.player.name for match in Match.objects.filter(slug=slug)
                     for seat in match.seats.all()}
            assert names == set(demo.PLAYERS), slug

    def test_every_card_is_valid_for_its_game(self, demo_loaded):
        for card in Card.objects.all():
            assert rules.GAMES[card.slug].validate_card(card.as_rules_card()) == card.as_rules_card()

    def test_running_it_again_adds_nothing(self, demo_loaded):
        counts = (Card.objects.count(), Match.objects.count(), Action.objects.count(), Player.objects.count())
        output = run_demo()
        assert (Card.objects.count(), Match.objects.count(), Action.objects.count(),
                Player.objects.count()) == counts
        assert "0 demo cards added, 0 demo matches played." in output

    def test_every_demo_match_replays_to_its_state_and_through_its_file(self, demo_loaded):
        for match in Match.objects.all():
            assert services.match_replay(match) == match.state
            outcome = match.game.outcome(match.state)
            assert outcome is not None
            assert match.winner == (None if outcome.winner is None else match.players()[outcome.winner])
            assert match.score == outcome.score
            assert match.head == len(services.live_actions(match))
            assert exchange.replay(exchange.export_match(match)).states[-1] == match.state
        assert_every_match_replays()

    def test_the_demo_pages_render(self, demo_loaded, client):
        """Every demo match opens for a club member; the club's own stay hidden from an outsider."""
        from django.contrib.auth import get_user_model

        member = Client()
        member.force_login(get_user_model().objects.get(username="ben"))
        for match in Match.objects.all():
            assert member.get(match.get_absolute_url()).status_code == 200
            assert member.get(f"/matches/{match.pk}/log/").status_code == 200
            assert member.get(f"/matches/{match.pk}/replay/").status_code == 200
            assert client.get(match.get_absolute_url()).status_code == (404 if match.club_id else 200)

    def test_the_demo_club_shows_its_leaderboard_and_tournament_to_everyone(self, demo_loaded, client):
        from tracker.models import Club, Tournament

        club = Club.objects.get(name=demo.CLUB)
        assert club.memberships.count() == len(demo.ACCOUNTS)
        assert Match.objects.filter(club=club).count() == len(
            [m for m in demo.matches() if m[0] == 'card-crush']) + TOURNAMENT_BATTLES
        board = client.get(f"/clubs/{club.pk}/ratings/")
        assert board.status_code == 200 and len(board.context["board"]) == 4
        cup = Tournament.objects.get(club=club)
        assert cup.finished is not None
        assert "wins the tournament" in client.get(cup.get_absolute_url()).content.decode()

    def test_every_games_stats_have_figures(self, demo_loaded, client):
        from django.contrib.auth import get_user_model

        # A club member sees every demo match.
        client.force_login(get_user_model().objects.get(username="dev"))
        for slug in rules.GAMES:
            response = client.get("/stats/", {"game": slug})
            assert response.status_code == 200
            # The demo's matches decided while a manual correction stood are listed apart and counted nowhere
            # (issue 23); every game has at least one plain result to count.
            plain, corrected = (Match.objects.filter(slug=slug, corrected=flag).count()
                                for flag in (False, True))
            assert response.context["match_count"] == plain >= 1, slug
            assert len(response.context["corrected"]) == corrected and plain + corrected >= 2, slug
            assert response.context["figures"], slug
            assert len(response.context["board"]) >= 2, slug
