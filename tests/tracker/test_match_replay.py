"""The replay page: step through a match from its start, the board as it stood at each step.

The rulebook battle (Ana vs Ben, Ben wins 3-2): step 1 and 2 lock the decks, steps 3 to 7
reveal rounds 1 to 5, won by Ben, Ana, Ben, Ana, Ben.
"""

import html as htmllib
import re

import pytest
from django.urls import reverse

from tracker.models import Match

from .helpers import ANA_DECK, BEN_DECK, lock, text
from .test_exchange import play_script

pytestmark = pytest.mark.django_db


def replay_url(match: Match, step=None) -> str:
    url = reverse("match_replay", args=[match.pk])
    return url if step is None else f"{url}?step={step}"


def page_at(client, match: Match, step=None, **headers) -> str:
    response = client.get(replay_url(match, step), **headers)
    assert response.status_code == 200
    return text(response)


def position(html: str) -> str:
    """The "Step N of M: ..." line, as read on screen."""
    found = re.search(r'<p class="replay-position"[^>]*>(.*?)</p>', html, flags=re.S)
    assert found, "no step counter on the page"
    return " ".join(htmllib.unescape(re.sub(r"<[^>]+>", " ", found.group(1))).split())


def scores(html: str) -> list[str]:
    return re.findall(r'<span class="score-value">(\d+)</span>', html)


def round_text(html: str, number: int) -> str:
    found = re.search(rf'<li class="round [^"]*" id="round-{number}">(.*?)</li>', html, flags=re.S)
    assert found, f"no round {number} on the board"
    return " ".join(htmllib.unescape(re.sub(r"<[^>]+>", " ", found.group(1))).split())


@pytest.fixture
def rulebook(catalog) -> Match:
    return play_script("card-crush", "rulebook")


def test_step_0_shows_the_match_as_set_up(client, rulebook):
    html = page_at(client, rulebook)
    assert position(html) == "Step 0 of 7: the match as it was set up"
    assert f"Replay of Card Crush #{rulebook.pk}" in html
    assert "Waiting for Ana" in html and "Waiting for Ben" in html
    assert scores(html) == ["0", "0"]
    for name in ANA_DECK + BEN_DECK:
        assert name not in html


def test_step_1_shows_the_first_lock(client, rulebook):
    html = page_at(client, rulebook, 1)
    assert position(html).startswith("Step 1 of 7: Ana locks in")
    assert "Ana is locked in" in html and "Waiting for Ben" in html


def test_after_round_2_the_board_is_as_it_stood_then(client, rulebook):
    html = page_at(client, rulebook, 4)
    assert position(html) == "Step 4 of 7: Round 2 revealed"
    assert scores(html) == ["1", "1"]
    assert round_text(html, 1).endswith("Tide Runner Power 6 · Speed 8 Water ✓ wins "
                                        "Water over Fire +3: 6 + 3 = 9 beats 7 + 0 = 7.")
    assert "Storm Caller" in round_text(html, 2) and "Frost Wisp" in round_text(html, 2)
    for number in (3, 4, 5):
        assert round_text(html, number) == f"Round {number} Not revealed yet."
    assert "wins the battle" not in html
    # The step's own working is shown above the board.
    assert "Ana wins. Lightning over Ice +1: 7 + 1 = 8 beats 4 + 0 = 4." in html


def test_the_last_step_shows_the_result(client, rulebook):
    html = page_at(client, rulebook, 7)
    assert position(html) == "Step 7 of 7: Round 5 revealed"
    assert scores(html) == ["2", "3"]
    assert "Ben wins the battle 3 rounds to 2" in html


def test_a_3_0_battle_marks_the_rounds_never_played(client, catalog):
    match = play_script("card-crush", "power-only")
    html = page_at(client, match, match.head)
    assert round_text(html, 4) == "Round 4 Not played: the battle was already decided."
    html = page_at(client, match, 3)
    assert round_text(html, 4) == "Round 4 Not revealed yet."


@pytest.mark.parametrize(("asked", "shown"), [
    ("-3", 0), ("999", 7), ("8", 7), ("abc", 0), ("", 0), ("1.5", 0), ("1e3", 0), ("9" * 5000, 0),
    ("%00", 0), (" 3", 3),
])
def test_out_of_range_and_garbage_steps_clamp(client, rulebook, asked, shown):
    html = page_at(client, rulebook, asked)
    assert position(html).startswith(f"Step {shown} of 7")


def test_no_step_parameter_means_step_0(client, rulebook):
    assert position(page_at(client, rulebook)).startswith("Step 0 of 7")


@pytest.mark.parametrize("step", [0, 1, 2, 3, 4, 7])
def test_the_replay_offers_no_action(client, rulebook, step):
    html = page_at(client, rulebook, step)
    assert "Reveal round" not in html
    assert "Pass the phone" not in html
    assert reverse("match_act", args=[rulebook.pk]) not in html
    assert reverse("match_goto", args=[rulebook.pk]) not in html
    assert 'method="post"' not in html.lower()


def test_a_running_match_in_lock_in_offers_no_action_either(client, match):
    lock(match, 0, ANA_DECK)
    html = page_at(client, match, 1)
    assert position(html).startswith("Step 1 of 1: Ana locks in a hidden deck")
    assert "Pass the phone" not in html
    for name in ANA_DECK:
        assert name not in html


def test_htmx_gets_only_the_replay_part(client, rulebook):
    html = page_at(client, rulebook, 4, HTTP_HX_REQUEST="true")
    assert html.lstrip().startswith('<div id="replay" data-replay hx-history="false">')
    assert "<html" not in html and "<body" not in html and "replay.js" not in html
    assert position(html).startswith("Step 4 of 7")


def test_a_step_back_goes_to_is_the_whole_page_again(client, rulebook):
    """htmx keeps no copy of a step (hx-history="false": on a shared tablet Back brought the last account's steps
    back after it signed out); Back asks for the step again, and gets the page as a whole."""
    html = page_at(client, rulebook, 4, HTTP_HX_REQUEST="true", HTTP_HX_HISTORY_RESTORE_REQUEST="true")
    assert "<body" in html and "/static/js/replay." in html and position(html).startswith("Step 4 of 7")


def test_the_full_page_loads_the_keyboard_and_swipe_script(client, rulebook):
    html = page_at(client, rulebook, 4)
    assert '<div id="replay" data-replay hx-history="false">' in html
    assert re.search(r'<script src="/static/js/replay\.[0-9a-f]+\.js" defer>', html)


def test_the_steps_link_to_their_neighbours(client, rulebook):
    url = replay_url(rulebook)
    html = page_at(client, rulebook, 4)
    for key, step in (("Home", 0), ("ArrowLeft", 3), ("ArrowRight", 5), ("End", 7)):
        assert f'data-key="{key}" href="{url}?step={step}" hx-get="{url}?step={step}"' in html
    assert html.count('hx-push-url="true"') == 5  # four links and the jump form
    # The jump is a number from 0 to the last step, not a list of every step (which grew with the log).
    assert re.search(r'<input id="jump-step" name="step" type="number" inputmode="numeric" min="0" max="7" value="4"', html)
    assert "<option" not in html


def test_step_0_cannot_go_back_and_the_last_step_cannot_go_on(client, rulebook):
    first = page_at(client, rulebook, 0)
    assert 'data-key="ArrowLeft"' not in first and 'data-key="Home"' not in first
    assert 'data-key="ArrowRight"' in first
    last = page_at(client, rulebook, 7)
    assert 'data-key="ArrowRight"' not in last and 'data-key="End"' not in last
    assert 'data-key="ArrowLeft"' in last


def test_it_shows_each_steps_rolls(client, catalog):
    match = play_script("card-crush", "coin-flip-tie")
    coin = match.state["rounds"][0]["coin"]
    html = page_at(client, match, 3)
    assert f"Coin flip from the seed: {coin} (who wins round 1)" in html
    assert "the coin flip from the match seed went to" in html
    assert "Coin flip from the seed" not in page_at(client, match, 4)


def test_an_undo_branch_replays_the_applied_line(client, catalog):
    match = play_script("card-crush", "undo-branch")
    html = page_at(client, match, 3)
    assert position(html) == "Step 3 of 7: Round 1 revealed"
    assert scores(html) == ["0", "1"]


def test_an_undone_tail_is_not_replayed(client, catalog):
    match = play_script("card-crush", "undone-tail")
    html = page_at(client, match, 7)
    assert position(html) == "Step 4 of 4: Round 2 revealed"
    assert "wins the battle" not in html


def test_a_fresh_match_has_only_step_0(client, match):
    html = page_at(client, match, 3)
    assert position(html) == "Step 0 of 0: the match as it was set up"


def test_the_log_links_the_replay(client, rulebook):
    html = text(client.get(reverse("match_log", args=[rulebook.pk])))
    assert f'href="{replay_url(rulebook)}"' in html
    assert "Replay step by step" in html


def test_it_404s_for_an_unknown_match(client, rulebook):
    assert client.get(replay_url(rulebook).replace(str(rulebook.pk), str(rulebook.pk + 1000))).status_code == 404


def test_it_refuses_post(client, rulebook):
    assert client.post(replay_url(rulebook)).status_code == 405
