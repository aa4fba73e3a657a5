"""The log: every action with its working, undone and abandoned ones marked, the seed revealed at the end."""

import html as htmllib
import re

import pytest
from django.urls import reverse
from django.utils import translation

from tracker.matches import services

from .helpers import (
    ANA_DECK,
    ANA_OTHER_DECK,
    BEN_DECK,
    PLAY,
    lock,
    lock_both,
    make_card,
    play,
    play_out,
    text,
)

pytestmark = pytest.mark.django_db


def log_url(match):
    return reverse("match_log", args=[match.pk])


def entries(html: str) -> list[tuple[str, str]]:
    """The log's entries in order, as (status, text as read on screen)."""
    found = []
    for status, body in re.findall(r'<li class="log-entry log-(\w+)">(.*?)</li>', html, flags=re.S):
        words = htmllib.unescape(re.sub(r"<[^>]+>", " ", body))
        found.append((status, " ".join(words.split())))
    return found


def log_of(client, match) -> list[tuple[str, str]]:
    response = client.get(log_url(match))
    assert response.status_code == 200
    return entries(text(response))


def test_it_shows_a_fresh_match(client, match):
    response = client.get(log_url(match))
    assert response.status_code == 200
    html = text(response)
    assert f"Log of Card Crush #{match.pk}" in html
    assert "in progress" in html
    assert "Rules version 1." in html
    assert [text for _status, text in entries(html)] == ["0 Match set up."]
    assert "No step matches the filter." not in html  # there is no filter: the match has no step yet
    assert '<figure class="chart-box">' not in html  # no round yet: nothing to chart


def test_it_shows_each_round_with_its_working(client, locked):
    play(locked, 2)
    log = log_of(client, locked)
    assert len(log) == 5
    assert all(status == "applied" for status, _ in log)
    assert "Ana" in log[1][1] and "Ben" in log[2][1]
    assert "Team Initiative: Ana 32, Ben 31." in log[2][1]
    # Round 1, the rulebook's example: Fire 7/5 (Ember Fox) against Water 6/8 (Tide Runner).
    assert log[3][1].startswith("3 ")
    assert "Ben wins" in log[3][1]
    assert "Water over Fire +3: 6 + 3 = 9 beats 7 + 0 = 7" in log[3][1]
    # Round 2: Storm Caller (Lightning 7/8) against Frost Wisp (Ice 4/7).
    assert "Ana wins" in log[4][1]
    assert "Lightning over Ice +1: 7 + 1 = 8 beats 4 + 0 = 4" in log[4][1]


def test_it_shows_the_battle_result(client, finished):
    log = log_of(client, finished)
    assert f"{finished.winner.name} wins the battle {finished.shown_score}" in log[-1][1]
    assert f"{finished.winner.name} won {finished.shown_score}" in text(client.get(log_url(finished)))


def test_it_hides_a_deck_until_both_are_locked(client, match):
    lock(match, 0, ANA_DECK)
    html = text(client.get(log_url(match)))
    assert "Ana locks in a hidden deck" in html
    for name in ANA_DECK:
        assert name not in html
    lock(match, 1, BEN_DECK)
    html = text(client.get(log_url(match)))
    assert "Ana locks in: Ember Fox, Storm Caller, Stone Golem, Phoenix, Gale Sprite" in html
    assert "Ben locks in: Tide Runner, Frost Wisp, Sky Lancer, Void Lord, Thorn Sprout" in html


def test_it_marks_undone_and_abandoned_entries(client, locked):
    play(locked, 3)
    services.match_goto(match_id=locked.pk, step=3, expected_seq=5)  # undo rounds 2 and 3
    log = log_of(client, locked)
    assert [status for status, _ in log] == ["applied"] * 4 + ["undone"] * 2
    assert all("undone (can be redone)" in text for _, text in log[4:])
    assert "replaced by a new branch" not in text(client.get(log_url(locked)))

    services.match_apply_action(match_id=locked.pk, action=PLAY, expected_seq=3)  # a new round 2
    log = log_of(client, locked)
    # Nothing is deleted: 2 locks, the 3 first rounds, and the new round 2, in the order played.
    assert [status for status, _ in log] == ["applied"] * 4 + ["abandoned"] * 2 + ["applied"]
    assert all("undone, replaced by a new branch" in text for _, text in log[4:6])
    assert "undone (can be redone)" not in text(client.get(log_url(locked)))


def test_a_deck_taken_back_before_the_reveal_stays_hidden_for_good(client, match):
    """Round 29: Ana locked in a deck, undid it before Ben locked in (her own step, one tap) and locked in another;
    once Ben's lock-in revealed the second, the log showed her first one too, "undone, replaced by a new branch"."""
    lock(match, 0, ANA_OTHER_DECK)
    services.match_goto(match_id=match.pk, step=0, expected_seq=1)
    lock(match, 0, ANA_DECK)
    lock(match, 1, BEN_DECK)
    log = log_of(client, match)
    assert log[1][0] == "abandoned" and "Ana locks in a hidden deck ✗ undone, replaced by a new branch" in log[1][1]
    assert "Ana locks in: Ember Fox, Storm Caller" in log[2][1]
    for name in ANA_OTHER_DECK:
        assert name not in text(client.get(log_url(match)))
        assert name not in text(client.get(reverse("match_export_text", args=[match.pk])))


def test_a_deck_revealed_and_then_taken_back_stays_shown(client, locked):
    """Seen at the table, it stays in the log: Ben's first deck, which Ana saw before they went back (on her request,
    agreed), is there beside the deck he locked in instead."""
    services.match_goto(match_id=locked.pk, step=1, expected_seq=2)
    lock(locked, 1, ANA_OTHER_DECK)
    log = log_of(client, locked)
    assert "Ben locks in: Tide Runner, Frost Wisp" in log[2][1] and log[2][0] == "abandoned"
    assert "Ben locks in: Leviathan, Sun Paladin" in log[3][1]


def test_it_shows_the_seed_fingerprint_until_the_end(client, locked):
    html = text(client.get(log_url(locked)))
    assert locked.seed_fingerprint in html
    assert locked.seed not in html
    finished = play_out(locked)
    html = text(client.get(log_url(finished)))
    assert f"<code>{finished.seed}</code>" in html


def test_it_keeps_showing_the_seed_after_an_undo_of_the_end(client, finished):
    """A seed once shown cannot be hidden again; hiding it would only pretend the rolls are still secret."""
    services.match_goto(match_id=finished.pk, step=2, expected_seq=finished.head)
    assert f"<code>{finished.seed}</code>" in text(client.get(log_url(finished)))


def test_it_shows_a_coin_flip(client, match, mirror_decks):
    play(lock_both(match, *mirror_decks))
    round_1 = match.state["rounds"][0]
    winner = ["Ana", "Ben"][round_1["winner"]]
    log = log_of(client, match)
    assert (
        f"Tied at 5, Speed 5 each, Team Initiative 25 each; the coin flip from the match seed went to {winner}."
        in log[3][1]
    )
    assert f"Coin flip from the seed: {round_1['coin']} (who wins round 1)" in log[3][1]  # not the engine's words


def test_it_shows_the_speed_and_initiative_tiebreaks(client, match, catalog):
    fast, slow = make_card("Quick Blade", 5, 9), make_card("Slow Blade", 5, 3)
    pair_a, pair_b = make_card("Twin A", 5, 5), make_card("Twin B", 5, 5)
    fillers = [make_card(f"Filler {n}", 1, n) for n in range(1, 7)]
    ana_deck = [fast.name, pair_a.name] + [c.name for c in fillers[:3]]
    ben_deck = [slow.name, pair_b.name] + [c.name for c in fillers[3:]]
    play(lock_both(match, ana_deck, ben_deck), 2)
    log = log_of(client, match)
    assert "Ana wins" in log[3][1] and "Tied at 5; Speed 9 beats 3." in log[3][1]
    # Team Initiative: Ana 9+5+1+2+3 = 20, Ben 3+5+4+5+6 = 23.
    assert "Ben wins" in log[4][1] and "Tied at 5, Speed 5 each; Team Initiative 23 beats 20." in log[4][1]


def test_it_shows_power_only_working(client, catalog):
    match = services.match_create(slug="card-crush", player_names=["Ana", "Ben"], config={"resolution": "power-only"})
    play(lock_both(match))
    log = log_of(client, match)
    assert "Ana wins" in log[3][1] and "Power 7 beats 6." in log[3][1]


def test_it_offers_to_go_to_any_other_step(client, locked):
    play(locked)
    html = text(client.get(log_url(locked)))
    for step in (0, 1, 2):
        assert f'name="step" value="{step}"' in html
    assert 'name="step" value="3"' not in html  # the current step
    assert 'name="seq" value="3-3"' in html


def test_it_404s_for_an_unknown_match(client, match):
    assert client.get(reverse("match_log", args=[match.pk + 1000])).status_code == 404


def test_it_refuses_post(client, match):
    assert client.post(log_url(match)).status_code == 405


def chart_table(html: str) -> list[list[str]]:
    """The rows of the log's chart, as its table reads them."""
    table = re.search(r'<figure class="chart-box">.*?<tbody>(.*?)</tbody>', html, flags=re.S).group(1)
    return [re.findall(r"<t[hd][^>]*>([^<]*)</t[hd]>", row) for row in re.findall(r"<tr>(.*?)</tr>", table, flags=re.S)]


def test_the_chart_follows_every_change_and_the_language(client, locked):
    # The chart is kept between views of the log (a game may re-run the whole match for it):
    # a round revealed, undone or redone, or another language, draws it again.
    play(locked, 1)
    assert chart_table(text(client.get(log_url(locked)))) == [["0", "0", "0"], ["1", "0", "1"]]
    play(locked, 1)
    after_two = [["0", "0", "0"], ["1", "0", "1"], ["2", "1", "1"]]
    assert chart_table(text(client.get(log_url(locked)))) == after_two
    services.match_goto(match_id=locked.pk, step=3, expected_seq=4)
    assert chart_table(text(client.get(log_url(locked)))) == [["0", "0", "0"], ["1", "0", "1"]]
    services.match_goto(match_id=locked.pk, step=4, expected_seq=3)
    html = text(client.get(log_url(locked)))
    assert chart_table(html) == after_two and "Round wins after each round" in html
    client.cookies["django_language"] = "de"
    with translation.override("en"):  # the German request's language ends with it
        assert "Rundensiege" in text(client.get(log_url(locked)))


def test_a_tie_the_affinity_bonus_made_shows_the_bonus():
    """Power 6 Water against Power 7 Nature ties at 7 only with Water's +1: the working says so."""
    from tracker.games.card_crush.narration import round_working

    result = {"winner": 0, "cards": [{"affinity": "Water", "power": 6}, {"affinity": "Nature", "power": 7}],
              "bonus": [1, 0], "scores": [7, 7], "decided_by": "speed", "resolution": "affinity", "speeds": [8, 5]}
    assert round_working(result, ["Ana", "Ben"]) == "Water over Nature +1: 6 + 1 = 7 ties 7 + 0 = 7; Speed 8 beats 5."


# ---------------------------------------------------------------- pages of a long log


@pytest.fixture
def long_match(db):
    """A Lonely Star match of 250 plain D6 rolls: three pages of the log."""
    from tracker.review.views import LOG_STEPS

    match = services.match_create(slug="lonely-star", player_names=["Ana", "Ben"], config={})
    for step in range(2 * LOG_STEPS + 50):
        services.match_apply_action(match_id=match.pk, action={"type": "d6", "seat": step % 2}, expected_seq=step)
    match.refresh_from_db()
    return match


def steps_shown(html: str) -> list[int]:
    return [int(step) for step in re.findall(r'<span class="log-step">(\d+)</span>', html)]


def test_a_long_log_comes_a_page_at_a_time_and_every_page_is_its_own(client, long_match):
    first = text(client.get(log_url(long_match)))
    assert steps_shown(first) == list(range(0, 101))  # "Match set up." is step 0, on the first page only
    assert "Page 1 of 3" in first
    third = client.get(log_url(long_match), {"page": 3})
    assert steps_shown(text(third)) == list(range(201, 251))
    assert "Page 3 of 3" in text(third)
    assert 'href="?page=2#log-steps"' in text(third)  # landing on the steps, not the page's top
    assert steps_shown(text(client.get(log_url(long_match), {"page": 99}))) == list(range(201, 251))  # the last
    assert steps_shown(text(client.get(log_url(long_match), {"page": "x"}))) == list(range(0, 101))  # the first


def test_a_filtered_log_pages_the_filtered_steps_and_keeps_the_filter(client, long_match):
    response = text(client.get(log_url(long_match), {"player": 1, "page": 2}))
    assert steps_shown(response) == list(range(202, 251, 2))  # Ben's rolls 101 to 125
    assert "Page 2 of 2" in response
    assert 'href="?player=1&amp;page=1#log-steps"' in response


def test_a_turn_filter_holds_the_turn_s_steps_and_re_runs_the_log_once_a_version(client, db):
    """A turn holds the steps played in it: Ana's to its finish (her end-of-turn step and the finish that starts Ben's
    turn are hers), then Ben's. The rounds come from the log re-run (the engine's round_of before each step), about
    a second of CPU for a 10,000-step log: kept for the match's version, so a second request re-runs nothing."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tracker.review.views import LOG_STEPS

    match = services.match_create(slug="lonely-star", player_names=["Ana", "Ben"], config={})
    ending = {60: "end_turn", 61: "finish_turn"}  # Ana's turn ends with steps 61 and 62; Ben's starts at step 63
    for step in range(LOG_STEPS + 20):
        action = {"type": ending.get(step, "d6"), "seat": 0 if step <= 61 else 1}
        services.match_apply_action(match_id=match.pk, action=action, expected_seq=step)
    assert steps_shown(text(client.get(log_url(match), {"round": 1}))) == list(range(1, 63))
    assert steps_shown(text(client.get(log_url(match), {"round": 2}))) == list(range(63, LOG_STEPS + 21))
    with CaptureQueriesContext(connection) as read:
        client.get(log_url(match), {"round": 2})
    re_run = [query["sql"] for query in read.captured_queries  # every step's play and dice
              if all(column in query["sql"] for column in ('"tracker_action"."payload"', '"tracker_action"."rolls"'))
              and " IN (" not in query["sql"]]
    assert not re_run, "the log re-run again for a version already read"
    shown = client.get(log_url(match), {"round": 9999})
    assert "No step matches the filter." in text(shown)


def test_a_costly_chart_is_drawn_again_at_most_every_few_seconds_and_says_which_step_it_shows(client, db, monkeypatch):
    """One phone tapping and reading its 10,000-step log in turn had the server re-run the log (0.6 s) for
    each tap; a chart that costly is drawn again at most every CHART_FRESH seconds."""
    from tracker import demo
    from tracker.models import Card
    from tracker.review import views as review

    demo.load_catalogs()
    unit = Card.objects.get(slug="lonely-star", name="Comet Wanderer").as_rules_card()
    match = services.match_create(slug="lonely-star", player_names=["Ana", "Ben"], config={})
    steps = [{"type": "play_unit", "seat": 0, "card": unit}, {"type": "end_turn", "seat": 0},
             {"type": "finish_turn", "seat": 0}]
    for step, action in enumerate(steps):
        services.match_apply_action(match_id=match.pk, action=action, expected_seq=step)
    monkeypatch.setattr(review, "CHART_SLOW", float("inf"))  # every chart cheap, however busy the machine
    drawn = []
    real = review._draw_chart
    monkeypatch.setattr(review, "_draw_chart", lambda m: drawn.append(m.head) or real(m))
    assert "As it stood" not in text(client.get(log_url(match)))
    services.match_apply_action(match_id=match.pk, action={"type": "d6", "seat": 1}, expected_seq=3)
    text(client.get(log_url(match)))
    assert drawn == [3, 4], "a cheap chart is drawn again after every change"

    monkeypatch.setattr(review, "CHART_SLOW", -1)  # every chart costly from now on
    services.match_apply_action(match_id=match.pk, action={"type": "d6", "seat": 1}, expected_seq=4)
    page = text(client.get(log_url(match)))
    assert drawn == [3, 4] and "As it stood at step 4: a log this long is charted again every few seconds." in page
    monkeypatch.setattr(review, "CHART_FRESH", 0)  # the few seconds have passed
    page = text(client.get(log_url(match)))
    assert drawn == [3, 4, 5] and "As it stood" not in page


def test_a_chart_of_nothing_but_zeros_is_not_drawn(client, db):
    """Turns ended with no Lonely Star unit in play drew an axis from 0 to 0 with the names on top of each other."""
    match = services.match_create(slug="lonely-star", player_names=["Ana", "Ben"], config={})
    for step, kind in enumerate(["end_turn", "finish_turn"]):
        services.match_apply_action(match_id=match.pk, action={"type": kind, "seat": 0}, expected_seq=step)
    assert '<svg class="chart"' not in text(client.get(log_url(match)))
