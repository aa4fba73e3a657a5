"""Swiss pairings and standings for Card Crush tournaments (rules/card_crush/swiss.py)."""

from collections import Counter
from fractions import Fraction

import pytest

from rules import IllegalAction
from rules.card_crush.swiss import Entrant, Game, pair_round, recommended_rounds, standings


def field(count: int) -> list[Entrant]:
    """Entrants 1..count, rated from 500 + 10 x count down, so entry order and rating agree."""
    return [Entrant(key=n, rating=500 + 10 * (count - n)) for n in range(1, count + 1)]


def play(entrants, rounds: int, winner=min) -> list[Game]:
    """Pair and play `rounds` rounds; `winner` picks who wins each pair (by default the lower key)."""
    games: list[Game] = []
    for number in range(1, rounds + 1):
        pairings = pair_round(entrants, games)
        games += [Game(number, a, b, winner(a, b)) for a, b in pairings.pairs]
        if pairings.bye is not None:
            games.append(Game(number, pairings.bye, None, pairings.bye))
    return games


def assert_sound(entrants, games, rounds):
    active = {e.key for e in entrants if not e.dropped}
    met = Counter(frozenset((g.first, g.second)) for g in games if not g.bye)
    assert max(met.values()) == 1, "a rematch was paired"
    for number in range(1, rounds + 1):
        this = [g for g in games if g.round == number]
        seated = [k for g in this for k in (g.first, g.second) if k is not None]
        assert len(seated) == len(set(seated)), f"someone plays twice in round {number}"
        byes = [g for g in this if g.bye]
        assert len(byes) == (1 if len(seated) % 2 else 0)
    byes = Counter(g.first for g in games if g.bye)
    assert not byes or max(byes.values()) == 1 or len(byes) == len(active)


@pytest.mark.parametrize(("count", "rounds"), [(2, 1), (4, 2), (7, 3), (8, 3), (9, 4), (16, 4), (17, 5)])
def test_recommended_rounds(count, rounds):
    assert recommended_rounds(count) == rounds


def test_four_entrants_first_round_pairs_by_rating():
    assert pair_round(field(4), []).pairs == [(1, 2), (3, 4)]


def test_four_entrants_second_round_pairs_same_record_without_rematch():
    entrants = field(4)
    games = play(entrants, 1)  # 1 beats 2, 3 beats 4
    assert pair_round(entrants, games).pairs == [(1, 3), (2, 4)]
    games = play(entrants, 2)
    assert_sound(entrants, games, 2)
    assert [s.key for s in standings(entrants, games)][:1] == [1]


def test_four_entrants_third_round_avoids_rematch_by_backtracking():
    entrants = field(4)
    games = play(entrants, 2)
    # 1 (2-0), then 2 and 3 (1-1), 4 (0-2). 1 has met 2 and 3, so 1 meets 4, and 2 meets 3.
    assert pair_round(entrants, games).pairs == [(1, 4), (2, 3)]


def test_seven_entrants_one_bye_per_round_never_twice():
    entrants = field(7)
    games = play(entrants, 3)
    assert_sound(entrants, games, 3)
    byes = [g.first for g in games if g.bye]
    assert len(byes) == 3 and len(set(byes)) == 3
    # Round 1's bye goes to the lowest placed: the lowest rated.
    assert byes[0] == 7


def test_seven_entrants_can_go_on_to_six_rounds_and_still_no_second_bye():
    entrants = field(7)
    games = play(entrants, 6, winner=max)
    assert_sound(entrants, games, 6)
    assert len({g.first for g in games if g.bye}) == 6


def test_sixteen_entrants_four_rounds_leave_one_unbeaten():
    entrants = field(16)
    games = play(entrants, 4)
    assert_sound(entrants, games, 4)
    table = standings(entrants, games)
    assert [s.points for s in table].count(4) == 1
    assert table[0].key == 1 and table[0].wins == 4


def test_sixteen_entrants_round_one_pairs_neighbours():
    assert pair_round(field(16), []).pairs == [(n, n + 1) for n in range(1, 16, 2)]


def test_a_dropped_player_is_never_paired_again():
    entrants = field(5)
    games = play(entrants, 1)
    entrants[1] = Entrant(key=2, rating=entrants[1].rating, dropped=True)
    pairings = pair_round(entrants, games)
    seated = {k for pair in pairings.pairs for k in pair}
    assert 2 not in seated and pairings.bye != 2
    assert len(seated) == 4 and pairings.bye is None
    # Their battle still counts for their opponent's tiebreak.
    row = next(s for s in standings(entrants, games) if s.key == 2)
    assert row.dropped and row.losses == 1


def test_refuses_while_a_battle_is_unfinished():
    entrants = field(4)
    games = [Game(1, 1, 2, 1), Game(1, 3, 4, None)]
    with pytest.raises(IllegalAction) as refused:
        pair_round(entrants, games)
    assert refused.value.rule == "round-unfinished"


def test_refuses_when_every_pairing_is_a_rematch():
    entrants = field(2)
    games = play(entrants, 1)
    with pytest.raises(IllegalAction) as refused:
        pair_round(entrants, games)
    assert refused.value.rule == "no-pairing"


def test_a_search_that_would_run_for_ages_is_refused(monkeypatch):
    """64 entrants whose unplayed pairs form two odd groups (every battle across them played) have no pairing
    without a rematch, which the backtracking search learns only by trying every partial pairing of a group: one
    request would hold a server's worker for good. Past its budget of positions the round is refused."""
    from rules.card_crush import swiss

    entrants = field(64)
    low, high = range(1, 32), range(32, 65)  # 31 and 33 players
    games = [Game(1, a, b, a) for a in low for b in high]
    calls = []
    search = swiss._pair
    monkeypatch.setattr(swiss, "_pair", lambda *args: calls.append(1) or search(*args))
    with pytest.raises(IllegalAction) as refused:
        pair_round(entrants, games)
    assert refused.value.rule == "pairing-search"
    assert len(calls) == 1, "the first search spent the budget: no second is tried"


def test_refuses_fewer_than_two_active_players():
    with pytest.raises(IllegalAction):
        pair_round([Entrant(1, 500), Entrant(2, 500, dropped=True)], [])


def test_standings_tiebreak_is_opponents_win_rate():
    entrants = [Entrant(n, 500) for n in range(1, 5)]
    # Round 1: 1 beats 2, 3 beats 4. Round 2: 1 beats 3, 4 beats 2.
    games = [Game(1, 1, 2, 1), Game(1, 3, 4, 3), Game(2, 1, 3, 1), Game(2, 4, 2, 4)]
    table = standings(entrants, games)
    # 3 and 4 both 1-1. 3 met 4 (1/2) and 1 (2/2): 3/4. 4 met 3 (1/2) and 2 (0/2): 1/4.
    assert [s.key for s in table] == [1, 3, 4, 2]
    assert table[1].opponent_win_rate == Fraction(3, 4) and table[2].opponent_win_rate == Fraction(1, 4)


def test_bye_counts_as_a_win_but_not_as_an_opponent():
    entrants = [Entrant(1, 500), Entrant(2, 500), Entrant(3, 500)]
    games = [Game(1, 1, 2, 2), Game(1, 3, None, 3)]
    table = {s.key: s for s in standings(entrants, games)}
    assert table[3].points == 1 and table[3].byes == 1 and table[3].wins == 0
    assert table[3].opponent_win_rate == 0
    assert table[2].opponent_win_rate == 0  # their only opponent, 1, won nothing


def test_rating_breaks_a_tie_that_win_rate_cannot():
    entrants = [Entrant(1, 480), Entrant(2, 520)]
    assert [s.key for s in standings(entrants, [])] == [2, 1]
