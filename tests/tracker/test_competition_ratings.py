"""Ratings pages: leaderboard, a player's history with its working, a battle's rating and the rated flag."""

from datetime import UTC, datetime

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from tracker.competition import ratings
from tracker.models import Match, Player

from .competition_helpers import battle
from .conftest import lock_both, play, text

pytestmark = pytest.mark.django_db


def at(*args) -> datetime:
    return datetime(*args, tzinfo=UTC)


@pytest.fixture
def league(catalog):
    """Ana beats Ben twice, Cid beats Ana once, all in May 2026."""
    return [battle("Ana", "Ben", at(2026, 5, 2, 18)), battle("Ana", "Ben", at(2026, 5, 3, 18)),
            battle("Cid", "Ana", at(2026, 5, 4, 18))]


def test_leaderboard_ranks_by_rating_with_battles_and_win_rate(client: Client, league):
    html = text(client.get(reverse("leaderboard")))
    board = ratings.leaderboard(ratings.history(at(2026, 5, 5)))
    # Ana 516; then E(516 vs 484) = 0.546, 32 x 0.454 = 14.5 -> 15: Ana 531, Ben 469;
    # Cid 500 beats Ana 531: E(Cid) = 0.4555, 32 x 0.5445 = 17.4 -> 17: Cid 517, Ana 514.
    assert [(r.player.name, r.rating, r.played, r.wins) for r in board] == [
        ("Cid", 517, 1, 1), ("Ana", 514, 3, 2), ("Ben", 469, 2, 0)]
    for name in ("Cid", "Ana", "Ben"):
        assert name in html
    assert "67%" in html  # Ana: 2 wins in 3


def test_ratings_today_include_every_reset_since_may(client: Client, league):
    # By now (after 1 July 2026) the quarterly reset has brought everyone back to 500.
    assert set(ratings.current_ratings().values()) == {500}
    html = text(client.get(reverse("player_rating", args=[Player.objects.get(name="Ana").pk])))
    assert "Quarterly reset" in html and "Monthly reset" in html


def test_player_page_shows_each_change_with_its_working_and_battle_link(client: Client, league):
    ana = Player.objects.get(name="Ana")
    html = text(client.get(reverse("player_rating", args=[ana.pk])))
    assert "Beat Ben (rated 500)" in html
    assert "Expected score 50% · K 32" in html and "32 × (100% − 50%) = +16" in html
    assert "Lost to Cid (rated 500)" in html
    assert reverse("match_detail", args=[league[2].pk]) in html
    assert reverse("battle_rating", args=[league[2].pk]) in html
    assert '<svg class="chart"' in html and "Show as a table" in html


def test_battle_page_shows_both_sides(client: Client, league):
    html = text(client.get(reverse("battle_rating", args=[league[0].pk])))
    assert "<td>500</td><td>50%</td><td>32</td>" in html
    assert "+16" in html and "-16" in html


def test_unrated_battle_does_not_count_and_can_be_rated_again(client: Client, league):
    url = reverse("battle_rating", args=[league[2].pk])
    response = client.post(url, {"rated": "0"})
    assert response.status_code == 302
    assert Match.objects.get(pk=league[2].pk).rated is False
    board = {r.player.name: r.rating for r in ratings.leaderboard(ratings.history(at(2026, 5, 5)))}
    assert "Cid" not in board and board["Ana"] == 531
    client.post(url, {"rated": "1"})
    assert Match.objects.get(pk=league[2].pk).rated is True


def test_rating_an_unfinished_battle_is_refused(client: Client, match):
    match = play(lock_both(match), 1)
    response = client.post(reverse("battle_rating", args=[match.pk]), {"rated": "1"})
    assert response.status_code == 422
    assert "not finished" in text(response)
    assert ratings.history() == []


@pytest.mark.parametrize("value", ["", "2", "yes", "x" * 1000])
def test_junk_rated_value_is_refused(client: Client, league, value):
    response = client.post(reverse("battle_rating", args=[league[0].pk]), {"rated": value})
    assert response.status_code == 400
    assert Match.objects.get(pk=league[0].pk).rated is True


def test_another_game_is_not_rated(client: Client, db):
    assert client.get(reverse("battle_rating", args=[999999])).status_code == 404


@override_settings(CARD_CRUSH_COMPETITION={"K": 20, "TOURNAMENT_WEIGHT": 3})
def test_k_comes_from_settings(client: Client, league):
    changes = ratings.history(at(2026, 5, 2, 19))
    assert [(c.before, c.after, c.k) for c in changes] == [(500, 510, 20), (500, 490, 20)]
    assert "K is 20 in open play and 60 in tournaments" in text(client.get(reverse("leaderboard")))


def test_battle_entered_late_lands_in_its_month(catalog):
    may = battle("Ana", "Ben", at(2026, 5, 20))
    june = battle("Ben", "Ana", at(2026, 6, 10))
    late = battle("Ana", "Ben", at(2026, 5, 21))  # entered after the June battle, played in May
    order = [c.battle for c in ratings.history(at(2026, 6, 30)) if c.kind == "battle"]
    assert order == [may.pk, may.pk, late.pk, late.pk, june.pk, june.pk]


def test_derived_ratings_equal_a_step_by_step_replay(catalog):
    """The leaderboard agrees with walking the history, and each change starts where the last ended."""
    for day in range(1, 20):
        names = [("Ana", "Ben"), ("Ben", "Cid"), ("Cid", "Ana")][day % 3]
        battle(*names, at(2026, 4, day * 3 % 28 + 1, 12))
    changes = ratings.history(at(2026, 6, 1))
    current = {}
    for change in changes:
        assert change.before == current.get(change.player, 500)
        current[change.player] = change.after
    assert {r.player.pk: r.rating for r in ratings.leaderboard(changes)} == current


@pytest.mark.parametrize("overrides", [{"KAY": 32}, {"K": 0}, {"K": "32"}, {"TOURNAMENT_WEIGHT": -1}, {"MAX_LEVEL": 0},
                                       {"UPGRADE_DUPLICATES": {"Common": [1]}}])
def test_a_wrong_competition_setting_is_reported_clearly(overrides):
    from django.core.exceptions import ImproperlyConfigured

    from tracker.competition import config

    with override_settings(CARD_CRUSH_COMPETITION=overrides), pytest.raises(ImproperlyConfigured):
        config.rating_rules()
        config.upgrade_rules()
