"""The strength report's command, in a tiny version: it prints a win rate with its interval and the
decision times, and says whether each goal it measures is met (times are not asserted)."""

import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from rules.cardmaster.ai import players


def test_a_tiny_strength_report_prints_rates_intervals_goals_and_times(monkeypatch):
    monkeypatch.setattr(players, "HARD_SIMULATIONS", 20)  # the report's shape, not the AI's strength
    out = StringIO()
    call_command("ai_strength", "--pairs", "hard:random", "--matches", "2", "--size", "3", stdout=out, stderr=StringIO())
    report = out.getvalue()
    assert re.search(r"hard vs random: \d won, \d lost, \d drawn of 2; win rate [\d.]+% \(95% interval", report)
    assert re.search(r"goal: at least 98%: (met|NOT met)", report)
    assert re.search(r"hard: \d+ decisions, median [\d.]+ s, slowest [\d.]+ s", report)


def test_an_unknown_player_is_refused_by_name():
    with pytest.raises(CommandError, match="'hard:perfect'"):
        call_command("ai_strength", "--pairs", "hard:perfect", "--matches", "2", stdout=StringIO())


def test_the_small_report_plays_every_size_and_prints_the_habits_of_each_level(monkeypatch):
    monkeypatch.setattr(players, "HARD_SIMULATIONS", 20)  # the report's shape, not the AI's strength
    out = StringIO()
    call_command("ai_strength", "--pairs", "hard:greedy", "--matches", "2", stdout=out, stderr=StringIO())
    report = out.getvalue()
    for size in (3, 6, 9):
        assert (f"Cardmaster AI strength: {size}v{size}, factions generated at power 5 to 9 in turn, "
                "both sides the same faction") in report
    assert len(re.findall(r"goal: at least 95%, interval from 90%: (met|NOT met)", report)) == 3
    habits = re.findall(r"  hard: (\d+) moves \(A1 \d+%.*SHIFT \d+%\); shift cycles (\d+) \(([\d.]+)%\)", report)
    assert len(habits) == 3 and all(int(moves) > 0 for moves, _cycles, _rate in habits)
    assert re.search(r"goal \(cycles < 2%, promises kept >= 80%\): (met|NOT met)", report)


@pytest.mark.parametrize("first", ["3", "-2"])
def test_a_first_match_that_would_split_a_twin_is_refused_before_any_is_played(first):
    with pytest.raises(CommandError, match="--first must be even and not negative"):
        call_command("ai_strength", "--pairs", "easy:random", "--matches", "2", "--first", first, stdout=StringIO())


def test_a_later_run_says_which_matches_it_played():
    out = StringIO()
    call_command("ai_strength", "--pairs", "easy:random", "--matches", "2", "--size", "3", "--first", "4",
                 stdout=out, stderr=StringIO())
    assert "the players swap seats between the two; matches 4 to 5." in out.getvalue()
