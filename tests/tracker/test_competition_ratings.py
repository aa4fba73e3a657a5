"""Ratings pages: leaderboard, a player's history with its working, a battle's rating and the rated flag."""

import re
from datetime import UTC, datetime

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from tracker.competition import ratings
from tracker.matches import services
from tracker.models import Club, Match, Player

from .helpers import battle_won, lock_both, play, text

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(member) -> Client:
    """Ratings belong to a club: its members read them."""
    return member


def at(*args) -> datetime:
    return datetime(*args, tzinfo=UTC)


@pytest.fixture
def league(catalog, club):
    """Ana beats Ben twice, Cid beats Ana once, all in May 2026, in the club."""
    return [battle_won("Ana", "Ben", at(2026, 5, 2, 18), club=club), battle_won("Ana", "Ben", at(2026, 5, 3, 18), club=club),
            battle_won("Cid", "Ana", at(2026, 5, 4, 18), club=club)]


def test_leaderboard_ranks_by_rating_with_battles_and_win_rate(client: Client, league):
    html = text(client.get(reverse("leaderboard", args=[league[0].club_id])))
    board = ratings.leaderboard(ratings.history(league[0].club_id, at(2026, 5, 5)))
    # Ana 516; then E(516 vs 484) = 0.546, 32 x 0.454 = 14.5 -> 15: Ana 531, Ben 469;
    # Cid 500 beats Ana 531: E(Cid) = 0.4555, 32 x 0.5445 = 17.4 -> 17: Cid 517, Ana 514.
    assert [(r.player.name, r.rating, r.played, r.wins) for r in board] == [
        ("Cid", 517, 1, 1), ("Ana", 514, 3, 2), ("Ben", 469, 2, 0)]
    for name in ("Cid", "Ana", "Ben"):
        assert name in html
    assert "67%" in html  # Ana: 2 wins in 3


def test_ratings_today_include_every_reset_since_may(client: Client, league):
    # By now (after 1 July 2026) the quarterly reset has brought everyone back to 500.
    assert set(ratings.current_ratings(league[0].club_id).values()) == {500}
    html = text(client.get(reverse("player_rating", args=[league[0].club_id, Player.objects.get(name="Ana").pk])))
    assert "Quarterly reset" in html and "Monthly reset" in html


def test_player_page_shows_each_change_with_its_working_and_battle_link(client: Client, league):
    ana = Player.objects.get(name="Ana")
    html = text(client.get(reverse("player_rating", args=[league[0].club_id, ana.pk])))
    assert "Beat Ben (rated 500)" in html
    assert "Expected score 50% · K 32" in html and "32 × (100% − 50%) = +16" in html
    assert "Lost to Cid (rated 500)" in html
    assert reverse("match_detail", args=[league[2].pk]) in html
    assert reverse("battle_rating", args=[league[2].pk]) in html
    assert '<svg class="chart"' in html and "Show as a table" in html


def test_battle_page_shows_both_sides(client: Client, league):
    html = text(client.get(reverse("battle_rating", args=[league[0].pk])))
    assert "<td>500</td><td>50%</td><td>32</td>" in html  # before, expected, K, after the change and the new rating
    assert "+16" in html and "-16" in html


def test_unrated_battle_does_not_count_and_can_be_rated_again(organiser: Client, member: Client, league):
    url = reverse("battle_rating", args=[league[2].pk])
    assert member.post(url, {"rated": "0"}).status_code == 403, "only an organiser takes a battle out of ratings"
    assert Match.objects.get(pk=league[2].pk).rated is True
    client = organiser
    response = client.post(url, {"rated": "0"})
    assert response.status_code == 302
    unrated = Match.objects.get(pk=league[2].pk)
    assert unrated.rated is False
    assert unrated.version > league[2].version, "open pages of the battle are told"
    who = organiser.user.get_username()
    assert f"Marked unrated by {who} on " in text(client.get(url)), "who took it out of ratings, and when, stays"
    board = {r.player.name: r.rating for r in ratings.leaderboard(ratings.history(league[0].club_id, at(2026, 5, 5)))}
    assert "Cid" not in board and board["Ana"] == 531
    client.post(url, {"rated": "1"})
    assert Match.objects.get(pk=league[2].pk).rated is True
    assert f"Counted toward ratings again by {who} on " in text(client.get(url))


def test_rating_an_unfinished_battle_is_refused(organiser: Client, club, catalog):
    match = services.match_create(slug="card-crush", player_names=["Ana", "Ben"], config={}, club=club)
    match = play(lock_both(match), 1)
    response = organiser.post(reverse("battle_rating", args=[match.pk]), {"rated": "1"})
    assert response.status_code == 422
    assert "not finished" in text(response)
    assert ratings.history(club) == []


@pytest.mark.parametrize("value", ["", "2", "yes", "x" * 1000])
def test_junk_rated_value_is_refused(organiser: Client, league, value):
    response = organiser.post(reverse("battle_rating", args=[league[0].pk]), {"rated": value})
    assert response.status_code == 400
    assert Match.objects.get(pk=league[0].pk).rated is True


def test_another_game_is_not_rated(client: Client, db):
    assert client.get(reverse("battle_rating", args=[999999])).status_code == 404


@override_settings(CARD_CRUSH_COMPETITION={"K": 20, "TOURNAMENT_WEIGHT": 3})
def test_k_comes_from_settings(client: Client, league):
    changes = ratings.history(league[0].club_id, at(2026, 5, 2, 19))
    assert [(c.before, c.after, c.k) for c in changes] == [(500, 510, 20), (500, 490, 20)]
    assert "K is 20 in open play and 60 in tournaments" in text(client.get(reverse("leaderboard", args=[league[0].club_id])))


def test_battle_entered_late_lands_in_its_month(catalog, club):
    may = battle_won("Ana", "Ben", at(2026, 5, 20), club=club)
    june = battle_won("Ben", "Ana", at(2026, 6, 10), club=club)
    late = battle_won("Ana", "Ben", at(2026, 5, 21), club=club)  # entered after the June battle, played in May
    order = [c.battle for c in ratings.history(club, at(2026, 6, 30)) if c.kind == "battle"]
    assert order == [may.pk, may.pk, late.pk, late.pk, june.pk, june.pk]


def test_derived_ratings_equal_a_step_by_step_replay(catalog, club):
    """The leaderboard agrees with walking the history, and each change starts where the last ended."""
    for day in range(1, 20):
        names = [("Ana", "Ben"), ("Ben", "Cid"), ("Cid", "Ana")][day % 3]
        battle_won(*names, at(2026, 4, day * 3 % 28 + 1, 12), club=club)
    changes = ratings.history(club, at(2026, 6, 1))
    current = {}
    for change in changes:
        assert change.before == current.get(change.player, 500)
        current[change.player] = change.after
    assert {r.player.pk: r.rating for r in ratings.leaderboard(changes)} == current


def test_only_the_clubs_own_battles_move_its_ratings(catalog, club, league):
    """A private battle, another club's battle and an imported one never reach the club's leaderboard."""
    from tracker.review import exchange

    private = battle_won("Ana", "Ben", at(2026, 5, 5, 18))
    elsewhere = battle_won("Ana", "Ben", at(2026, 5, 5, 19), club=Club.objects.create(name="Elsewhere"))
    imported = exchange.import_match(exchange.export_match(league[0]))
    keys = {c.battle for c in ratings.history(club, at(2026, 5, 6))}
    assert keys == {m.pk for m in league}
    assert not {private.pk, elsewhere.pk, imported.pk} & keys
    assert imported.club_id is None


def test_undo_and_redo_inside_a_finished_battle_never_re_date_it(catalog, club, organiser, league):
    """Reopening a finished battle (an organiser, with confirmation) and finishing it again keeps its place."""
    before = [(c.battle, c.player, c.after) for c in ratings.history(club, at(2026, 5, 6))]
    first = league[0]
    head = first.head
    url = reverse("match_goto", args=[first.pk])
    assert organiser.post(url, {"seq": head, "step": head - 1, "confirm": "reopen"}).status_code == 302
    assert organiser.post(url, {"seq": head - 1, "step": head}).status_code == 302
    first.refresh_from_db()
    assert first.finished == first.first_finished == at(2026, 5, 2, 18)
    assert [(c.battle, c.player, c.after) for c in ratings.history(club, at(2026, 5, 6))] == before


def test_reopening_a_club_battle_needs_an_organiser_and_a_confirmation(catalog, club, organiser, member, league):
    first = league[0]
    Match.objects.filter(pk=first.pk).update(owner=member.user)  # the member who started it owns it
    head = first.head
    url = reverse("match_goto", args=[first.pk])
    refused = member.post(url, {"seq": head, "step": head - 1, "confirm": "reopen"})
    assert refused.status_code == 403 and "only an organiser of the club can reopen it" in text(refused)
    response = organiser.post(url, {"seq": head, "step": head - 1})
    page = text(response)
    assert response.status_code == 200 and "Reopen this finished match" in page
    assert "ratings in Friday Club lose this battle" in page
    first.refresh_from_db()
    assert first.head == head and first.finished is not None, "asking changes nothing"


def test_the_undo_button_of_a_finished_club_battle_is_only_the_organisers(catalog, club, organiser, member, league):
    """Its owner, a plain member, is not offered a tap that can only be refused, and is told why."""
    first = league[0]
    Match.objects.filter(pk=first.pk).update(owner=member.user)
    page = text(member.get(first.get_absolute_url()))
    button = page.split('name="step"', 1)[1].split("</button>", 1)[0]
    assert "disabled" in button and 'aria-describedby="undo-why"' in button
    assert "only an organiser of the club can reopen it" in page
    page = text(organiser.get(first.get_absolute_url()))
    assert "disabled" not in page.split('name="step"', 1)[1].split("</button>", 1)[0]
    assert "only an organiser of the club can reopen it" not in page


@pytest.mark.parametrize("overrides", [{"KAY": 32}, {"K": 0}, {"K": "32"}, {"TOURNAMENT_WEIGHT": -1}, {"MAX_LEVEL": 0},
                                       {"UPGRADE_DUPLICATES": {"Common": [1]}}])
def test_a_wrong_competition_setting_is_reported_clearly(overrides):
    from django.core.exceptions import ImproperlyConfigured

    from tracker.competition import config

    with override_settings(CARD_CRUSH_COMPETITION=overrides), pytest.raises(ImproperlyConfigured):
        config.rating_rules()
        config.upgrade_rules()


def test_every_rating_line_checks_by_hand(client: Client, league):
    """K × (result − expected) as shown gives the shown change: the expected score is not rounded to a whole
    percent first (32 × (100% − 45%) = +17 did not check against 45.4%)."""
    html = text(client.get(reverse("player_rating", args=[league[0].club_id, Player.objects.get(name="Ana").pk])))
    lines = re.findall(r"([\d.]+) × \((100|0)% − ([\d.]+)%\) = ([+−-]?[\d.]+)(?:, rounded ([+−-]?\d+))?", html)
    assert lines and any(rounded for *_rest, rounded in lines), lines
    for k, result, expected, shown, rounded in lines:
        exact = float(k) * (int(result) - float(expected)) / 100
        assert abs(exact - float(shown.replace("−", "-"))) < 0.02 * float(k) / 100 + 0.006, (k, expected, shown)
        change = int((rounded or shown).replace("−", "-"))
        assert change == round(float(shown.replace("−", "-"))), (shown, rounded)
