"""The strength report's command, in a tiny version: it prints a win rate with its interval and the
decision times, and says whether each goal it measures is met (times are not asserted)."""

import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command


def test_a_tiny_strength_report_prints_rates_intervals_goals_and_times():
    out = StringIO()
    call_command("ai_strength", "--pairs", "hard:random", "--matches", "2", "--size", "3", stdout=out, stderr=StringIO())
    report = out.getvalue()
    assert re.search(r"hard vs random: \d won, \d lost, \d drawn of 2; win rate [\d.]+% \(95% interval", report)
    assert re.search(r"goal: at least 98%: (met|NOT met)", report)
    assert re.search(r"hard: \d+ decisions, median [\d.]+ s, slowest [\d.]+ s", report)


def test_an_unknown_player_is_refused_by_name():
    with pytest.raises(CommandError, match="'hard:perfect'"):
        call_command("ai_strength", "--pairs", "hard:perfect", "--matches", "2", stdout=StringIO())
