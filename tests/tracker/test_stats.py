"""Statistics from known matches: records, streaks, win rate over time, favourite cards, Card Crush
figures, the leaderboard, and the pages and charts that show them.

The known matches, in the order they finish:

    1  Ana vs Ben     rulebook decks           Ben wins 3-2 (round 4 on Speed, the rest on Battle Score)
    2  Chloé vs Dev   demo battle 2            Dev wins 3-2
    3  Ben vs Chloé   demo battle 3, power-only Ben wins 3-0
    4  Ana vs Ben     the browser test's decks Ana wins 3-1
and one running match (Ana vs Dev) that must not count.
"""

import html as htmllib
import re

import pytest
from django.urls import reverse

import rules
from tracker import demo
from tracker.games.card_crush.demo import BATTLES, play_battle
from tracker.matches import services
from tracker.models import Match, Player
from tracker.review import charts, stats

from .helpers import ANA_DECK, BEN_DECK, JUNK, JUNK_IDS, lock_both, text

pytestmark = pytest.mark.django_db

DECK_1 = ["Ember Fox", "Phoenix", "Mountain Titan", "Void Lord", "Gale Sprite"]
DECK_2 = ["Tide Runner", "Flame Knight", "Stone Golem", "Shade Rat", "Sky Lancer"]


@pytest.fixture
def season(catalog):
    """The four known matches and a running one."""
    played = [
        play_battle(("Ana", "Ben"), "battle-score", [ANA_DECK, BEN_DECK]),
        play_battle(("Chloé", "Dev"), *BATTLES["rulebook"]),
        play_battle(("Ben", "Chloé"), *BATTLES["power-only"]),
        play_battle(("Ana", "Ben"), "battle-score", [DECK_1, DECK_2]),
    ]
    assert [(m.winner.name, m.score) for m in played] == [("Ben", "3-2"), ("Dev", "3-2"), ("Ben", "3-0"), ("Ana", "3-1")]
    running = services.match_create(slug="card-crush", player_names=["Ana", "Dev"], config={})
    lock_both(running, DECK_1, ANA_DECK)
    return played


def player(name: str) -> Player:
    return Player.objects.get(name=name)


def record_of(name: str, game: str | None = None) -> stats.Record:
    return stats.records(stats.finished_matches(Match.objects.all(), game, player(name)))[player(name).pk]


def words(html: str) -> str:
    return " ".join(htmllib.unescape(re.sub(r"<[^>]+>", " ", html)).split())


# --- Record, without the database ----------------------------------------------------------------


def record(*results: bool | str) -> stats.Record:
    """A record from wins (True) and losses (False), or the result names themselves."""
    names = [result if isinstance(result, str) else stats.WON if result else stats.LOST for result in results]
    return stats.Record(Player(name="Ana"), results=names)


def test_a_record_before_any_match():
    empty = record()
    assert (empty.played, empty.wins, empty.win_rate) == (0, 0, 0.0)
    assert empty.current_streak == ("", 0)
    assert empty.longest_win_streak == 0
    assert empty.win_rate_over_time() == []


def test_a_record_counts_wins_and_streaks():
    r = record(True, True, False, True, True, True, False, False)
    assert (r.played, r.wins) == (8, 5)
    assert r.win_rate == 5 / 8
    assert r.current_streak == ("lost", 2)
    assert r.longest_win_streak == 3
    assert r.win_rate_over_time() == [100.0, 100.0, 66.7, 75.0, 80.0, 83.3, 71.4, 62.5]


def test_a_winning_streak_at_the_end():
    r = record(False, True, True)
    assert r.current_streak == ("won", 2)
    assert r.longest_win_streak == 2


def test_a_draw_is_neither_a_win_nor_a_loss():
    r = record(True, "drew", "drew")
    assert (r.played, r.wins, r.win_rate) == (3, 1, 1 / 3)
    assert r.current_streak == ("drew", 2)
    assert r.longest_win_streak == 1
    assert r.win_rate_over_time() == [100.0, 50.0, 33.3]


def test_all_losses():
    r = record(False, False, False)
    assert r.current_streak == ("lost", 3)
    assert r.longest_win_streak == 0
    assert r.win_rate_over_time() == [0.0, 0.0, 0.0]


# --- computed from the known matches -------------------------------------------------------------


def test_only_finished_matches_count(season):
    assert stats.finished_matches(Match.objects.all()).count() == 4
    assert list(stats.finished_matches(Match.objects.all())) == season
    assert stats.finished_matches(Match.objects.all(), "card-crush", player("Dev")).count() == 1
    assert stats.finished_matches(Match.objects.all(), "cardmaster").count() == 0


def test_each_players_record(season):
    ben = record_of("Ben")
    assert (ben.played, ben.wins, ben.results) == (3, 2, ["won", "won", "lost"])
    assert ben.current_streak == ("lost", 1)
    assert ben.longest_win_streak == 2
    assert ben.win_rate_over_time() == [100.0, 100.0, 66.7]
    ana = record_of("Ana")
    assert (ana.played, ana.wins, ana.results) == (2, 1, ["lost", "won"])
    assert ana.current_streak == ("won", 1)
    assert ana.win_rate_over_time() == [0.0, 50.0]
    chloe = record_of("Chloé")
    assert (chloe.played, chloe.wins, chloe.current_streak) == (2, 0, ("lost", 2))
    dev = record_of("Dev")
    assert (dev.played, dev.wins, dev.win_rate) == (1, 1, 1.0)


def test_most_played_cards(season):
    ben = record_of("Ben")
    assert ben.cards["Tide Runner"] == ben.cards["Sky Lancer"] == ben.cards["Void Lord"] == 2
    assert sum(ben.cards.values()) == 15
    assert {name for name, count in ben.cards.most_common(3)} == {"Tide Runner", "Sky Lancer", "Void Lord"}
    assert record_of("Dev").cards == {name: 1 for name in BATTLES["rulebook"][1][1]}


def test_the_leaderboard_orders_by_win_rate(season):
    board = stats.leaderboard(stats.finished_matches(Match.objects.all()))
    assert [(r.player.name, r.played, r.wins) for r in board] == [
        ("Dev", 1, 1), ("Ben", 3, 2), ("Ana", 2, 1), ("Chloé", 2, 0)]


def test_the_leaderboard_breaks_ties_by_wins_then_name(catalog):
    """Gus 2/2 and Eve 1/1 share 100%: more wins first. fay 0/1 and Hal 0/2: by name, any case."""
    play_battle(("Eve", "fay"), "battle-score", [DECK_1, DECK_2])
    play_battle(("Gus", "Hal"), "battle-score", [DECK_1, DECK_2])
    play_battle(("Gus", "Hal"), "battle-score", [DECK_1, DECK_2])
    board = stats.leaderboard(stats.finished_matches(Match.objects.all()))
    assert [r.player.name for r in board] == ["Gus", "Eve", "fay", "Hal"]


def test_card_crush_figures_for_one_match(catalog):
    play_battle(("Ana", "Ben"), "battle-score", [ANA_DECK, BEN_DECK])
    (by_affinity_title, by_affinity), (decided_title, decided) = stats.game_figures(
        "card-crush", stats.finished_matches(Match.objects.all(), "card-crush"))
    assert by_affinity_title == "Rounds won, by the winning card's affinity"
    # Round winners: Tide Runner (Water), Storm Caller (Lightning), Sky Lancer (Air), Phoenix (Fire),
    # Thorn Sprout (Nature).
    assert dict(by_affinity) == {"Water": 1, "Lightning": 1, "Air": 1, "Fire": 1, "Nature": 1}
    assert decided_title == "How rounds were decided"
    assert decided == [("Battle Score or Power", 4), ("Speed tiebreak", 1)]


def test_card_crush_figures_for_the_season(season):
    (_t1, by_affinity), (_t2, decided) = stats.game_figures("card-crush", stats.finished_matches(Match.objects.all(), "card-crush"))
    assert sum(count for _name, count in by_affinity) == 17  # 5 + 5 + 3 + 4 rounds
    assert decided == [("Battle Score or Power", 16), ("Speed tiebreak", 1)]


def test_coin_flips_are_counted(catalog):
    decks = [[f"Mirror {side}{n}" for n in range(1, 6)] for side in "AB"]
    from .helpers import make_card
    for names in decks:
        for name in names:
            make_card(name, 5, 5)
    match = play_battle(("Ana", "Ben"), "battle-score", decks)
    (_t1, by_affinity), (_t2, decided) = stats.game_figures("card-crush", stats.finished_matches(Match.objects.all()))
    assert decided == [("Coin flip", len(match.state["rounds"]))]
    assert by_affinity == [("Air", len(match.state["rounds"]))]


def test_the_match_progress_chart_series(catalog):
    match = play_battle(("Ana", "Ben"), "battle-score", [ANA_DECK, BEN_DECK])
    title, series = stats.match_progress(match)
    assert title == "Round wins after each round"
    assert series == {"Ana": [0, 0, 1, 1, 2, 2], "Ben": [0, 1, 1, 2, 2, 3]}


# --- the pages -----------------------------------------------------------------------------------


STATS_URL = reverse("stats")


def player_url(name: str) -> str:
    return reverse("stats_player", args=[player(name).pk])


def leaderboard_rows(html: str) -> list[str]:
    body = re.search(r"<tbody>(.*?)</tbody>", html, flags=re.S).group(1)
    return [words(row) for row in re.findall(r"<tr>(.*?)</tr>", body, flags=re.S)]


def test_the_stats_page_without_matches(client, db):
    response = client.get(STATS_URL)
    assert response.status_code == 200
    html = text(response)
    assert "0 finished matches." in html
    assert "No finished matches yet." in html


@pytest.mark.parametrize("slug", list(rules.GAMES))
def test_every_games_stats_page_renders_without_matches(client, db, slug):
    response = client.get(STATS_URL, {"game": slug})
    assert response.status_code == 200
    assert 'aria-current="page"' in text(response)


@pytest.mark.parametrize("junk", JUNK, ids=JUNK_IDS)
def test_no_junk_club_or_game_breaks_the_stats_page(client, db, junk):
    for params in ({"club": junk}, {"game": junk}, {"club": junk, "game": "card-crush"}):
        assert client.get(STATS_URL, params).status_code == 200


def test_card_crush_figures_without_matches(client, db):
    html = text(client.get(STATS_URL, {"game": "card-crush"}))
    assert "Rounds won, by the winning card&#x27;s affinity" in html
    assert html.count("Nothing yet.") == 2


def test_the_stats_page_with_matches(client, season):
    response = client.get(STATS_URL)
    assert response.status_code == 200
    html = text(response)
    assert "4 finished matches." in html
    assert leaderboard_rows(html) == [
        "Dev 1 1 100% ▲ won 1",
        "Ben 3 2 67% ▼ lost 1",
        "Ana 2 1 50% ▲ won 1",
        "Chloé 2 0 0% ▼ lost 2",
    ]
    assert f'href="{player_url("Chloé")}"' in html
    assert "How rounds were decided" not in html  # the game's own figures only for one game


def test_the_card_crush_stats_page_shows_its_figures(client, season):
    html = words(text(client.get(STATS_URL, {"game": "card-crush"})))
    assert "How rounds were decided Battle Score or Power 16 Speed tiebreak 1" in html
    assert "Rounds won, by the winning card's affinity" in html


@pytest.mark.parametrize("slug", ["chess", "", "card-crush'--", "<b>"])
def test_an_unknown_game_filter_is_ignored(client, season, slug):
    response = client.get(STATS_URL, {"game": slug})
    assert response.status_code == 200
    html = text(response)
    assert "4 finished matches." in html
    assert re.search(r'class="button button-primary" href="/stats/" aria-current="page">All games<', html)


def test_a_game_without_matches_counts_none(client, season):
    other = next((slug for slug in rules.GAMES if slug != "card-crush"), None)
    if other is None:
        pytest.skip("only Card Crush is installed")
    html = text(client.get(STATS_URL, {"game": other}))
    assert "0 finished matches." in html


def test_a_players_page(client, season):
    response = client.get(player_url("Ben"))
    assert response.status_code == 200
    html = text(response)
    assert "2 won of 3 matches · 67% · longest win streak 2" in words(html)
    assert "Card Crush 3 2 67%" in words(html)
    assert "Win rate over time" in html
    top = re.search(r"Most played cards</h2>(.*?)</ul>", html, flags=re.S).group(1)
    assert words(top).startswith(("Tide Runner 2 matches", "Sky Lancer 2 matches", "Void Lord 2 matches"))
    assert words(top).count("2 matches") == 3
    assert words(top).count("1 match") == 5  # 8 cards shown
    assert f'href="{reverse("match_list")}?player={player("Ben").pk}"' in html


def test_the_win_rate_chart_is_an_accessible_svg_with_a_table(client, season):
    html = text(client.get(player_url("Ben")))
    svg = re.search(r"<svg .*?</svg>", html, flags=re.S).group(0)
    assert 'role="img"' in svg
    labelled = re.search(r'aria-labelledby="([^"]+)"', svg).group(1)
    assert f'<title id="{labelled}">Ben&#x27;s win rate after each match (%)</title>' in svg
    assert "<polyline" in svg
    assert "Show as a table" in html
    table = re.search(r'<figure class="chart-box">.*?<table.*?</table>', html, flags=re.S).group(0)
    assert "100.0" in table and "66.7" in table


def test_the_win_rate_table_has_one_cell_per_column(client, season):
    html = text(client.get(player_url("Ben")))
    table = re.search(r'<figure class="chart-box">.*?(<table.*?</table>)', html, flags=re.S).group(1)
    headers = re.findall(r"<th scope=\"col\">(.*?)</th>", table)
    rows = re.findall(r"<tr><th scope=\"row\">(.*?)</th>(.*?)</tr>", table, flags=re.S)
    assert [label for label, _cells in rows] == ["1", "2", "3"]  # match numbers, from 1
    for _label, cells in rows:
        assert len(re.findall(r"<td>", cells)) + 1 == len(headers)


def test_one_match_gives_no_chart(client, season):
    html = text(client.get(player_url("Dev")))
    assert "1 won of 1 match" in words(html)
    assert "<svg" not in html
    assert "Most played cards" in html


def test_a_player_without_finished_matches(client, catalog):
    running = services.match_create(slug="card-crush", player_names=["Ana", "Ben"], config={})
    lock_both(running)
    response = client.get(player_url("Ana"))
    assert response.status_code == 200
    assert "No finished matches yet." in text(response)


def test_an_unknown_player_404s(client, season):
    assert client.get(reverse("stats_player", args=[Player.objects.order_by("-pk")[0].pk + 1])).status_code == 404


def test_stats_pages_refuse_post(client, season):
    assert client.post(STATS_URL).status_code == 405
    assert client.post(player_url("Ben")).status_code == 405


def test_the_match_log_chart(client, catalog):
    match = play_battle(("Ana", "Ben"), "battle-score", [ANA_DECK, BEN_DECK])
    html = text(client.get(reverse("match_log", args=[match.pk])))
    assert "<h2>Round wins after each round</h2>" in html
    svg = re.search(r"<svg .*?</svg>", html, flags=re.S).group(0)
    assert 'role="img"' in svg and "<title id=\"chart-round-wins-after-each-round\">" in svg
    assert svg.count("<polyline") == 2
    table = re.search(r"<table.*?</table>", html[html.index("chart-box"):], flags=re.S).group(0)
    assert words(re.search(r"<thead>.*?</thead>", table, flags=re.S).group(0)) == "After round or turn Ana Ben"
    rows = [words(row) for row in re.findall(r"<tr><th scope=\"row\">.*?</tr>", table, flags=re.S)]
    assert rows == ["0 0 0", "1 0 1", "2 1 1", "3 1 2", "4 2 2", "5 2 3"]


# --- the SVG itself ------------------------------------------------------------------------------


def test_a_line_chart_is_labelled_and_escaped():
    svg = str(charts.line_chart("Wins <&> losses", {"<Ana>": [0, 1, 2], "Ben": [0, 0, 1]}, 0, 2, "turn"))
    assert svg.startswith('<svg class="chart" viewBox="0 0 320 180" role="img" aria-labelledby="chart-wins-losses">')
    assert '<title id="chart-wins-losses">Wins &lt;&amp;&gt; losses</title>' in svg
    assert "&lt;Ana&gt;" in svg and "<Ana>" not in svg
    assert svg.count("<polyline") == 2
    # Lines differ by dash pattern too, so colour is never the only difference.
    dashes = re.findall(r'stroke-dasharray="([^"]*)"', svg)
    assert len(set(dashes)) == 2


def test_a_line_chart_copes_with_flat_and_empty_series():
    flat = str(charts.line_chart("Flat", {"Ana": [0]}, 0, 0, "turn"))
    assert "nan" not in flat.lower() and "inf" not in flat.lower()
    empty = str(charts.line_chart("Empty", {"Ana": []}, 0, 100, "match"))
    assert "<polyline" not in empty and 'role="img"' in empty


def test_end_labels_of_tied_lines_do_not_overlap(client, locked):
    services.match_apply_action(match_id=locked.pk, action={"type": "play_round"}, expected_seq=2)
    services.match_apply_action(match_id=locked.pk, action={"type": "play_round"}, expected_seq=3)
    html = text(client.get(reverse("match_log", args=[locked.pk])))
    svg = re.search(r"<svg .*?</svg>", html, flags=re.S).group(0)
    labels = dict((name, (x, y)) for x, y, name in re.findall(r'<text x="([\d.]+)" y="([\d.]+)" text-anchor="end" '
                                                               r'font-size="10" fill="currentColor">(Ana|Ben)</text>', svg))
    assert set(labels) == {"Ana", "Ben"}
    assert labels["Ana"] != labels["Ben"]


@pytest.mark.parametrize("value, label", [(0, "0"), (950, "950"), (1500, "1.5k"), (100_000, "100k"),
                                          (2_000_000, "2M"), (-3000, "-3k")])
def test_chart_axis_labels_fit_the_margin(value, label):
    from tracker.review.charts import axis_label

    assert axis_label(value) == label


def test_the_stats_page_shows_a_run_of_draws_as_draws(client, db):
    from tracker.games.common import play_steps
    from tracker.games.evons.demo import play

    demo.load_catalogs()
    # A card each, then both pass: 1-1, played to its end (a game the table ends is an override, counted apart).
    drawn = services.match_create(slug="evons", player_names=["Ana", "Ben"], config={"reach": 2, "def_reset": False})
    drawn = play_steps(drawn, [play(0, "B2", "Spark Wisp"), play(1, "D4", "Reef Warden"),
                               {"type": "pass", "seat": 0}, {"type": "pass", "seat": 1}])
    assert (drawn.finished is not None, drawn.winner, drawn.score, drawn.corrected) == (True, None, "1-1", False)
    page = words(client.get(reverse("stats"), {"game": "evons"}).content.decode())
    assert "Ana 1 0 0% = drew 1" in page and "Ben 1 0 0% = drew 1" in page
    assert "lost 1" not in page
