"""Lonely Star and Evons statistics: the figures on the stats page and each match's chart.

Every die is tapped in by hand, so the numbers below are worked out from the rules:
a check against total T passes on a D6 showing T or less, with chance T/6.

Lonely Star, match 1 (Ana seat 0, Ben seat 1), Ana declared the winner at the start of turn 4:
    turn 1  Ana: Ember Drifter (HP 4, AT 4, LK 3) attacks Nebula Warden (HP 8, RS 3): crit on a 2
            (an attack first rolled with a 6 and undone must not count); Comet Wanderer (LK 8,
            a sure crit, no die, not counted) hits for 3: Warden 7 of 8
    turn 2  Ben: Warden attacks Drifter: 5 against LK 2 fails, 2 - RS 0 = 2 damage; Ben's Burn on
            Comet Wanderer: Ana's Resist 1 on a 1 passes; Ben's Poison on Drifter (RS 0: no die)
    turn 3  Ana: Drifter attacks Warden: 4 against LK 3 fails, 4 - 3 = 1 damage, lethal;
            Ana's Luck roll for Drifter: 3 against LK 3 passes
Lonely Star, match 2 (Ben seat 0, Ana seat 1), Ben declared the winner in mid-turn 1:
    Ben's Dust Knight (HP 7, AT 3, LK 2) attacks Quiet Moon (HP 6, RS 2, LK 4): crit on a 1, 3 damage;
    Ben's effect from the Knight, 2 to the Moon: 6 fails, 2 - 2 = 0; Ana's effect from the Moon,
    3 to the Knight: 4 against LK 4 crits; Ben's Burn on the Moon: Ana's Resist 2 on a 2 passes

    crits   Ana 2 of 3 (3/6 + 3/6 + 4/6 = 1.67 expected)   Ben 1 of 3 (2/6 x 3 = 1.0)
    Resist  Ana 2 of 2 (1/6 + 2/6 = 0.5)                      Luck  Ana 1 of 1 (3/6 = 0.5)

Evons, game A (Ana seat 0, Ben seat 1): Spark Wisp B2, Dust Mole D4, Spark Wisp A4, both pass: 2-1.
Evons, game B (Ben seat 0, Ana seat 1): Spark Wisp B2, Ana passes, Dust Mole D2, the table ends it: 2-0.
    average final score   Ben (1 + 2) / 2 = 1.5   Ana (2 + 0) / 2 = 1.0;   best   Ana 2, Ben 2
"""

import html as htmllib
import re

import pytest
from django.urls import reverse

from tracker.games import pages_for
from tracker.matches import services
from tracker.models import Match
from tracker.review import stats

from .helpers import text

pytestmark = pytest.mark.django_db

UNITS = {card["name"]: card for card in pages_for("lonely-star").demo_cards}
EVONS_CARDS = {card["name"]: card for card in pages_for("evons").demo_cards}
STATS_URL = reverse("stats")


def words(html: str) -> str:
    return " ".join(htmllib.unescape(re.sub(r"<[^>]+>", " ", html)).split())


def step(match: Match, action: dict, *dice: int) -> Match:
    """Apply one action with these dice tapped in, checking the engine rolled exactly them."""
    match.refresh_from_db()
    recorded = services.match_apply_action(
        match_id=match.pk, action=action, expected_seq=match.head, rolls=list(dice)
    )
    assert [(roll["value"], roll["by"]) for roll in recorded.rolls] == [(value, "player") for value in dice]
    match.refresh_from_db()
    return match


def unit(match: Match, name: str) -> int:
    return next(u["id"] for u in match.state["units"] if u["name"] == name)


def field(match: Match, seat: int, name: str) -> int:
    step(match, {"type": "play_unit", "seat": seat, "card": UNITS[name]})
    return unit(match, name)


def end_turn(match: Match, seat: int) -> None:
    step(match, {"type": "end_turn", "seat": seat})
    step(match, {"type": "finish_turn", "seat": seat})


def lonely_star_match_1() -> Match:
    match = services.match_create(slug="lonely-star", player_names=["Ana", "Ben"], config={})
    drifter, comet = field(match, 0, "Ember Drifter"), field(match, 0, "Comet Wanderer")
    warden = field(match, 1, "Nebula Warden")
    # A failed crit that the table takes back: abandoned, so never counted.
    step(match, {"type": "attack", "seat": 0, "unit": drifter, "target": warden}, 6)
    services.match_goto(match_id=match.pk, step=match.head - 1, expected_seq=match.head)
    step(match, {"type": "attack", "seat": 0, "unit": drifter, "target": warden}, 2)
    step(match, {"type": "attack", "seat": 0, "unit": comet, "target": warden})
    end_turn(match, 0)
    step(match, {"type": "attack", "seat": 1, "unit": warden, "target": drifter}, 5)
    step(match, {"type": "inflict", "seat": 1, "target": comet, "status": "burn"}, 1)
    step(match, {"type": "inflict", "seat": 1, "target": drifter, "status": "poison"})
    end_turn(match, 1)
    step(match, {"type": "attack", "seat": 0, "unit": drifter, "target": warden}, 4)
    assert not any(u["name"] == "Nebula Warden" for u in match.state["units"])
    step(match, {"type": "luck_roll", "seat": 0, "unit": drifter}, 3)
    end_turn(match, 0)
    return step(match, {"type": "declare_winner", "winner": 0})


def lonely_star_match_2() -> Match:
    match = services.match_create(slug="lonely-star", player_names=["Ben", "Ana"], config={})
    knight, moon = field(match, 0, "Dust Knight"), field(match, 1, "Quiet Moon")
    step(match, {"type": "attack", "seat": 0, "unit": knight, "target": moon}, 1)
    step(match, {"type": "damage", "seat": 0, "source": knight, "target": moon, "amount": 2}, 6)
    step(match, {"type": "damage", "seat": 1, "source": moon, "target": knight, "amount": 3}, 4)
    step(match, {"type": "inflict", "seat": 0, "target": moon, "status": "burn"}, 2)
    return step(match, {"type": "declare_winner", "winner": 0})


@pytest.fixture
def lonely_star_season(db) -> list[Match]:
    played = [lonely_star_match_1(), lonely_star_match_2()]
    assert [m.winner.name for m in played] == ["Ana", "Ben"]
    running = services.match_create(slug="lonely-star", player_names=["Ana", "Ben"], config={})
    moon, knight = field(running, 0, "Quiet Moon"), field(running, 1, "Dust Knight")
    step(running, {"type": "attack", "seat": 0, "unit": moon, "target": knight}, 1)  # a crit that must not count
    return played


def lonely_star_figures() -> dict[str, list[tuple[str, str]]]:
    return dict(stats.game_figures("lonely-star", stats.finished_matches(Match.objects.all(), "lonely-star")))


# --- Lonely Star -----------------------------------------------------------------------------------


def test_crits_rolled_against_expected(lonely_star_season):
    figures = lonely_star_figures()
    assert figures["Crits rolled, against the number expected"] == [
        ("Ana", "2 of 3 rolls, 1.7 expected"),
        ("Ben", "1 of 3 rolls, 1.0 expected"),
    ]


def test_resist_and_luck_rolls_against_expected(lonely_star_season):
    figures = lonely_star_figures()
    # Ben never rolled Resist or Luck: the Poison on a unit with Resist 0 needed no die.
    assert figures["Resist rolls passed, against the number expected"] == [("Ana", "2 of 2 rolls, 0.5 expected")]
    assert figures["Luck rolls passed, against the number expected"] == [("Ana", "1 of 1 roll, 0.5 expected")]


def test_a_rolled_check_counts_for_the_units_controller_not_the_seat_acting(db):
    """Ben inflicts Burn on Ana's unit: the Resist roll is Ana's."""
    match = services.match_create(slug="lonely-star", player_names=["Ana", "Ben"], config={})
    moon = field(match, 0, "Quiet Moon")
    step(match, {"type": "inflict", "seat": 1, "target": moon, "status": "burn"}, 5)
    step(match, {"type": "declare_winner", "winner": 1})
    figures = lonely_star_figures()
    assert figures["Resist rolls passed, against the number expected"] == [("Ana", "0 of 1 roll, 0.3 expected")]
    assert figures["Crits rolled, against the number expected"] == []


def test_lonely_star_figures_without_matches(db):
    figures = stats.game_figures("lonely-star", [])
    assert [title for title, _rows in figures] == [
        "Crits rolled, against the number expected",
        "Resist rolls passed, against the number expected",
        "Luck rolls passed, against the number expected",
    ]
    assert all(rows == [] for _title, rows in figures)


def test_hp_left_after_each_turn(lonely_star_season):
    first, second = lonely_star_season
    title, series = stats.match_progress(first)
    assert title == "HP left on each player's units after each turn"
    # Ana: Drifter 4 + Comet 5, then Drifter down to 2. Ben: Warden 8 - 7 = 1, then lethal.
    # The winner was declared before anything happened in turn 4: no extra point.
    assert series == {"Ana": [0, 9, 7, 7], "Ben": [0, 1, 1, 0]}
    # Ended in mid-turn 1: one point for where it stopped (Knight 7 - 3, Moon 6 - 3).
    assert stats.match_progress(second)[1] == {"Ben": [0, 4], "Ana": [0, 3]}


def test_hp_left_follows_the_step_the_match_is_at(lonely_star_season):
    first = lonely_star_season[0]
    services.match_goto(match_id=first.pk, step=7, expected_seq=first.head)  # back into turn 2
    first.refresh_from_db()
    assert stats.match_progress(first)[1] == {"Ana": [0, 9], "Ben": [0, 1]}


def test_the_lonely_star_stats_page_shows_the_figures(client, lonely_star_season):
    html = words(text(client.get(STATS_URL, {"game": "lonely-star"})))
    assert "2 finished matches." in html
    assert (
        "Crits rolled, against the number expected Ana 2 of 3 rolls, 1.7 expected Ben 1 of 3 rolls, 1.0 expected"
        in html
    )
    assert "Resist rolls passed, against the number expected Ana 2 of 2 rolls, 0.5 expected" in html
    assert "Luck rolls passed, against the number expected Ana 1 of 1 roll, 0.5 expected" in html


def test_the_lonely_star_match_log_charts_hp_with_a_table(client, lonely_star_season):
    html = text(client.get(reverse("match_log", args=[lonely_star_season[0].pk])))
    assert "<h2>HP left on each player&#x27;s units after each turn</h2>" in html
    svg = re.search(r"<svg .*?</svg>", html, flags=re.S).group(0)
    assert 'role="img"' in svg and svg.count("<polyline") == 2
    table = re.search(r"<table.*?</table>", html[html.index("chart-box"):], flags=re.S).group(0)
    assert words(re.search(r"<thead>.*?</thead>", table, flags=re.S).group(0)) == "After round or turn Ana Ben"
    rows = [words(row) for row in re.findall(r"<tr><th scope=\"row\">.*?</tr>", table, flags=re.S)]
    assert rows == ["0 0 0", "1 9 1", "2 7 1", "3 7 0"]


# --- Evons -----------------------------------------------------------------------------------------


def evons_step(match: Match, action: dict) -> Match:
    return step(match, {"seat": match.state["seat"], **action})


def place(match: Match, cell: str, name: str) -> Match:
    return evons_step(match, {"type": "play", "cell": cell, "covered": False, "card": EVONS_CARDS[name]})


@pytest.fixture
def evons_season(db) -> list[Match]:
    game_a = services.match_create(slug="evons", player_names=["Ana", "Ben"], config={})
    place(game_a, "B2", "Spark Wisp")
    place(game_a, "D4", "Dust Mole")
    place(game_a, "A4", "Spark Wisp")
    evons_step(game_a, {"type": "pass"})
    evons_step(game_a, {"type": "pass"})
    game_b = services.match_create(slug="evons", player_names=["Ben", "Ana"], config={})
    place(game_b, "B2", "Spark Wisp")
    evons_step(game_b, {"type": "pass"})
    place(game_b, "D2", "Dust Mole")
    evons_step(game_b, {"type": "end_game", "override": True})
    played = [game_a, game_b]
    assert [(m.winner.name, m.score) for m in played] == [("Ana", "2-1"), ("Ben", "2-0")]
    # Ending early is a manual override: game B is decided with a correction, listed apart and counted
    # nowhere (issue 23). Game C is the same game played to its end, both players passing: a plain result.
    game_c = services.match_create(slug="evons", player_names=["Ben", "Ana"], config={})
    place(game_c, "B2", "Spark Wisp")
    evons_step(game_c, {"type": "pass"})
    place(game_c, "D2", "Dust Mole")
    evons_step(game_c, {"type": "pass"})
    evons_step(game_c, {"type": "pass"})
    assert (game_b.corrected, game_c.corrected, game_c.winner.name, game_c.score) == (True, False, "Ben", "2-0")
    running = services.match_create(slug="evons", player_names=["Ana", "Ben"], config={})
    place(running, "C3", "Reef Warden")  # a score that must not count
    return played


def test_evons_final_scores_per_player(evons_season):
    figures = stats.game_figures("evons", stats.finished_matches(Match.objects.all(), "evons"))
    assert [title for title, _rows in figures] == ["Average final score", "Best final score", "How games ended"]
    (_t1, average), (_t2, best), (_t3, ended) = figures
    # Ben scored 1 and 2 (average 1.5) and ranks above Ana's 2 and 0 (average 1.0); both have a best of 2.
    # Game B, which the table ended, is not among them: a match ended by an override is counted apart.
    assert average == [("Ben", "1.5 over 2 games"), ("Ana", "1.0 over 2 games")]
    assert best == [("Ana", 2), ("Ben", 2)]
    assert dict(ended) == {"Both players passed": 2}


def test_an_evons_average_rounds_half_up(db):
    """Ana scores 1, 2, 2 and 0: an average of 1.25 over 4 games, shown as 1.3. Each game ends as played,
    both players passing (a game the table ends is an override, counted apart)."""
    for points in (1, 2, 2, 0):
        game = services.match_create(slug="evons", player_names=["Ana", "Ben"], config={})
        for cell in ("B2", "D2")[:points]:
            place(game, cell, "Spark Wisp")
            evons_step(game, {"type": "pass"})
        evons_step(game, {"type": "pass"})
        if points == 0:
            evons_step(game, {"type": "pass"})
        assert game.finished and not game.corrected
    (_t1, average), (_t2, best), _ended = stats.game_figures("evons", stats.finished_matches(Match.objects.all(), "evons"))
    assert average == [("Ana", "1.3 over 4 games"), ("Ben", "0.0 over 4 games")]
    assert best == [("Ana", 2), ("Ben", 0)]


def test_one_game_is_counted_in_the_singular_and_the_higher_score_comes_first(db):
    game = services.match_create(slug="evons", player_names=["Ana", "Ben"], config={})
    evons_step(game, {"type": "pass"})
    place(game, "B2", "Spark Wisp")
    evons_step(game, {"type": "pass"})
    evons_step(game, {"type": "pass"})
    assert game.finished and not game.corrected
    (_t1, average), (_t2, best), _ended = stats.game_figures("evons", stats.finished_matches(Match.objects.all(), "evons"))
    assert average == [("Ben", "1.0 over 1 game"), ("Ana", "0.0 over 1 game")]
    assert best == [("Ben", 1), ("Ana", 0)]


def test_evons_score_after_each_turn(evons_season):
    game_a, game_b = evons_season
    title, series = stats.match_progress(game_a)
    assert title == "Score at the end of each turn"
    # Four turns end with a score, then the second pass ends the game.
    assert series == {"Ana": [0, 1, 1, 2, 2, 2], "Ben": [0, 0, 1, 1, 1, 1]}
    # Three turns, then the table ends the game at the start of turn 4.
    assert stats.match_progress(game_b)[1] == {"Ben": [0, 1, 1, 2, 2], "Ana": [0, 0, 0, 0, 0]}


def test_the_evons_stats_page_shows_the_figures(client, evons_season):
    html = words(text(client.get(STATS_URL, {"game": "evons"})))
    assert "2 finished matches." in html
    assert "Average final score Ben 1.5 over 2 games Ana 1.0 over 2 games" in html
    assert "Best final score Ana 2 Ben 2" in html
    assert "How games ended Both players passed 2" in html and "The table ended it" not in html
    assert "Ben won 2 points to 0, decided with manual corrections" in html  # game B, listed apart


def test_evons_figures_without_matches(client, db):
    html = words(text(client.get(STATS_URL, {"game": "evons"})))
    assert "Average final score Nothing yet. Best final score Nothing yet. How games ended Nothing yet." in html


def test_the_evons_match_log_charts_the_score_with_a_table(client, evons_season):
    html = text(client.get(reverse("match_log", args=[evons_season[0].pk])))
    assert "<h2>Score at the end of each turn</h2>" in html
    svg = re.search(r"<svg .*?</svg>", html, flags=re.S).group(0)
    assert 'role="img"' in svg and svg.count("<polyline") == 2
    table = re.search(r"<table.*?</table>", html[html.index("chart-box"):], flags=re.S).group(0)
    rows = [words(row) for row in re.findall(r"<tr><th scope=\"row\">.*?</tr>", table, flags=re.S)]
    assert rows == ["0 0 0", "1 1 0", "2 1 1", "3 2 1", "4 2 1", "5 2 1"]
