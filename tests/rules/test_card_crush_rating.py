"""Card Crush ratings (rules/card_crush/rating.py): Elo worked by hand, and the season resets at their edges."""

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from rules.card_crush.rating import (
    BASELINE,
    Battle,
    RatingRules,
    battle_change,
    expected_score,
    monthly_reset,
    ratings_from,
    replay,
)

A, B, C = 1, 2, 3


def at(*args) -> datetime:
    return datetime(*args, tzinfo=UTC)


def rating_at(battles, when, tz=UTC, rules: RatingRules | None = None):
    return ratings_from(replay(battles, when, tz, rules or RatingRules()))


# ---------------------------------------------------------------- Elo by hand


def test_even_battle_moves_sixteen_in_open_play():
    # E = 1 / (1 + 10^0) = 0.5; K 32 x (1 - 0.5) = 16.
    assert expected_score(500, 500) == 0.5
    assert battle_change(500, 500, 32) == 16


def test_favourite_gains_less_than_underdog():
    # 600 vs 400: E(600) = 1 / (1 + 10^(-0.5)) = 0.7597; E(400) = 0.2403.
    assert expected_score(600, 400) == pytest.approx(0.75975, abs=1e-5)
    assert expected_score(400, 600) == pytest.approx(0.24025, abs=1e-5)
    # The favourite wins: 32 x 0.2403 = 7.69 -> 8. The underdog wins: 32 x 0.7597 = 24.31 -> 24.
    assert battle_change(600, 400, 32) == 8
    assert battle_change(400, 600, 32) == 24


def test_tournament_weight_multiplies_k():
    rules = RatingRules()
    assert rules.k_for(False) == 32 and rules.k_for(True) == 48
    # Even battle: 48 x 0.5 = 24. Underdog 400 beats 600: 48 x 0.7597 = 36.47 -> 36.
    assert battle_change(500, 500, rules.k_for(True)) == 24
    assert battle_change(400, 600, rules.k_for(True)) == 36


def test_replay_applies_elo_and_is_zero_sum():
    battles = [
        Battle(1, at(2026, 5, 3, 18), winner=A, loser=B),  # 500/500: A 516, B 484
        Battle(2, at(2026, 5, 3, 19), winner=B, loser=A, tournament=True),
        # B 484 beats A 516: E(B) = 1/(1+10^(32/400)) = 0.4540; 48 x 0.5460 = 26.21 -> 26.
    ]
    changes = replay(battles, at(2026, 5, 4), UTC)
    assert [(c.player, c.before, c.after) for c in changes] == [
        (A, 500, 516), (B, 500, 484), (B, 484, 510), (A, 516, 490)]
    worked = changes[2]
    assert worked.battle == 2 and worked.won and worked.tournament and worked.k == 48
    assert worked.expected == pytest.approx(0.4540, abs=1e-4)
    assert sum(rating_at(battles, at(2026, 5, 4)).values()) == 2 * BASELINE


def test_custom_k_and_weight():
    rules = RatingRules(k=20, tournament_weight=2)
    battles = [Battle(1, at(2026, 5, 3), winner=A, loser=B, tournament=True)]
    assert rating_at(battles, at(2026, 5, 3), rules=rules) == {A: 520, B: 480}


# ---------------------------------------------------------------- resets


def test_monthly_reset_moves_halfway_rounding_toward_500():
    assert monthly_reset(700) == 600 and monthly_reset(300) == 400  # the rulebook's example
    assert monthly_reset(701) == 600 and monthly_reset(299) == 400
    assert monthly_reset(501) == 500 and monthly_reset(499) == 500
    assert monthly_reset(500) == 500


def test_battle_just_before_midnight_is_reset_with_its_month():
    # A wins at 23:59:59 on 31 May (516); the June reset halves the distance: 508.
    battles = [Battle(1, at(2026, 5, 31, 23, 59, 59), winner=A, loser=B)]
    assert rating_at(battles, at(2026, 5, 31, 23, 59, 59)) == {A: 516, B: 484}
    assert rating_at(battles, at(2026, 6, 1)) == {A: 508, B: 492}


def test_battle_at_midnight_counts_after_the_reset():
    before = Battle(1, at(2026, 5, 20), winner=A, loser=B)  # A 516, B 484
    midnight = Battle(2, at(2026, 6, 1), winner=A, loser=B)
    changes = replay([before, midnight], at(2026, 6, 2), UTC)
    kinds = [(c.kind, c.player, c.before, c.after) for c in changes]
    # Reset first (516 -> 508, 484 -> 492), then the battle at 508 vs 492.
    assert kinds[2:4] == [("monthly", A, 516, 508), ("monthly", B, 484, 492)]
    assert kinds[4][1:3] == (A, 508)
    assert changes[2].when == at(2026, 6, 1)


def test_quarter_start_is_a_full_reset_and_a_single_entry():
    battles = [Battle(n, at(2026, 6, 10, 12, n), winner=A, loser=B) for n in range(1, 6)]
    june = rating_at(battles, at(2026, 6, 30, 23, 59, 59))
    assert june[A] > 560
    changes = replay(battles, at(2026, 7, 1), UTC)
    july = [c for c in changes if c.when == at(2026, 7, 1)]
    assert [(c.kind, c.after) for c in july] == [("quarterly", 500), ("quarterly", 500)]
    assert ratings_from(changes) == {A: 500, B: 500}


def test_late_entered_battle_lands_in_its_own_month():
    # Entered in July, played in May: it is reset in June like every May battle, then the quarter resets it.
    may = Battle(99, at(2026, 5, 30), winner=A, loser=B)
    june_battle = Battle(10, at(2026, 6, 15), winner=B, loser=C)
    changes = replay([june_battle, may], at(2026, 6, 20), UTC)
    assert [c.battle for c in changes if c.kind == "battle"] == [99, 99, 10, 10]
    assert rating_at([june_battle, may], at(2026, 6, 20)) == {A: 508, B: 492 + 16, C: 484}


def test_each_reset_is_applied_once_however_often_we_ask():
    battles = [Battle(1, at(2026, 1, 5), winner=A, loser=B)]
    for day in (at(2026, 2, 1), at(2026, 2, 15), at(2026, 3, 1), at(2026, 3, 20)):
        assert rating_at(battles, day) == rating_at(battles, day)
    assert rating_at(battles, at(2026, 2, 28)) == {A: 508, B: 492}
    assert rating_at(battles, at(2026, 3, 2)) == {A: 504, B: 496}
    assert rating_at(battles, at(2026, 4, 1)) == {A: 500, B: 500}
    # Resets that change nothing are not listed: after April there is nothing more.
    assert len(replay(battles, at(2026, 12, 31), UTC)) == len(replay(battles, at(2026, 4, 1), UTC))


def test_month_starts_in_the_clubs_time_zone():
    paris = ZoneInfo("Europe/Paris")
    # 22:30 UTC on 31 May is 00:30 on 1 June in Paris: after the Paris month start.
    battles = [Battle(1, at(2026, 5, 20), winner=A, loser=B), Battle(2, at(2026, 5, 31, 22, 30), winner=A, loser=B)]
    changes = replay(battles, at(2026, 6, 2), paris)
    assert [c.kind for c in changes][:4] == ["battle", "battle", "monthly", "monthly"]
    assert replay(battles, at(2026, 6, 2), UTC)[2].kind == "battle"


def test_derived_rating_equals_replaying_history_step_by_step():
    """The rating at any date is the last change's `after`, and every change starts where the last one ended."""
    start = at(2026, 1, 1)
    battles = [
        Battle(n, start + timedelta(days=3 * n, hours=n % 5), winner=(A, B, C)[n % 3], loser=(B, C, A)[n % 3],
               tournament=n % 4 == 0)
        for n in range(1, 70)
    ]
    changes = replay(battles, at(2026, 9, 1), UTC)
    current = {}
    for change in changes:
        assert change.before == current.get(change.player, BASELINE)
        current[change.player] = change.after
    for day in range(0, 240, 11):
        moment = start + timedelta(days=day)
        prefix = [c for c in changes if c.when <= moment]
        assert rating_at(battles, moment) == ratings_from(prefix)
