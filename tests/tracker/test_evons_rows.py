"""The Evons board's rows are kept parts (tracker/games/evons/grid.py): the answer to a tap, the other phone's
fetch and its pushed part leave out each row the phone shows as it would be drawn now, and the screen is then
the board the whole part drawn anew shows.

The board (demo catalog): Ana's Ember Fox on B4, then Ben's turn on the same phone, every empty cell a radio button
of the play form. Ben's covered card on D2 changes row 2, and row 4, whose cell B4 is no longer the one the last step
changed; the other five rows stay as they were.
"""

import re

import pytest
from django.test import Client
from django.urls import reverse

from perf.tables import screen
from tracker.games.common import play_steps
from tracker.games.evons.demo import play
from tracker.matches import services
from tracker.models import Card, Match

from .helpers import pushed_part, watching_phone
from .test_evons_pages import load_catalog

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true", "HX-Target": "match", "X-Kept": "1"}
UNCHANGED = ["ev-row-0", "ev-row-1", "ev-row-3", "ev-row-5", "ev-row-6"]
"""The rows Ben's covered card on D2 leaves as they were."""


def left_out(answer: str) -> list[str]:
    return re.findall(r'<tr id="(ev-row-\d)" data-kept="\w+" hx-preserve></tr>', answer)


def drawn(answer: str) -> list[str]:
    return re.findall(r'<tr id="(ev-row-\d)" data-kept="\w+">', answer)


def board_of(page: str) -> str:
    """The board's table as the page shows it."""
    return page[page.index('<table class="ev-board"'):page.index("</table>") + len("</table>")]


def owned(client: Client) -> Match:
    """A match the phone started (so it may hand out a seat), Ana's Ember Fox on B4: Ben to play."""
    load_catalog()
    response = client.post(reverse("match_new", args=["evons"]), {
        "player_0": "Ana", "player_1": "Ben", "config-reach": "1", "config-flip_covered": "no", "config-def_reset": "yes",
        "config-ties": "draw", "config-starting_hand": "6"})
    assert response.status_code == 302
    return play_steps(Match.objects.get(slug="evons"), [play(0, "B4", "Ember Fox")])


def covered_on_d2(client: Client, match: Match, page: str, shown: str | None = None) -> str:
    """Ben's covered card on D2, tapped on `page` as table.js sends it: every kept part it shows (the play form is in
    none), unless `shown` says otherwise."""
    shown = screen.shown(page) if shown is None else shown
    return client.post(reverse("match_act", args=[match.pk]),
                       {"seq": match.board_mark, "seat": 1, "action": "play", "cell": "D2", "face": "covered"},
                       headers={**HTMX, "X-Shown": shown}).content.decode()


def test_a_play_answer_leaves_out_the_rows_it_did_not_change(client):
    """The answer draws the two rows the card changed and leaves out the rest; the phone then shows the board the
    whole part drawn anew shows, every radio button of the next play in place."""
    match = owned(client)
    page = client.get(match.get_absolute_url()).content.decode()
    assert len(drawn(page)) == 7 and page.count('type="radio" name="cell"') == 48
    answer = covered_on_d2(client, match, page)
    assert left_out(answer) == UNCHANGED and drawn(answer) == ["ev-row-2", "ev-row-4"]
    fresh = client.get(match.get_absolute_url(), headers=HTMX).content.decode()
    assert left_out(fresh) == [] and "Turn 3: Ana to play" in fresh
    assert board_of(screen.keep(page, answer)) == board_of(fresh)
    assert board_of(fresh).count('type="radio" name="cell"') == 47


def test_a_row_the_phone_shows_otherwise_is_drawn_anew(client):
    """A row whose digest the phone sends is not the row's now (a stale one, another language's) is drawn: only a row
    shown as it would be drawn is left out."""
    match = owned(client)
    page = client.get(match.get_absolute_url()).content.decode()
    stale = screen.shown(page).replace("ev-row-5=", "ev-row-5=0").replace("ev-row-6=", "ev-row-x=")
    answer = covered_on_d2(client, match, page, stale)
    assert left_out(answer) == ["ev-row-0", "ev-row-1", "ev-row-3"]
    assert drawn(answer) == ["ev-row-2", "ev-row-4", "ev-row-5", "ev-row-6"]
    german = client.get(match.get_absolute_url(), headers={"Accept-Language": "de"}).content.decode()
    match.refresh_from_db()
    assert left_out(covered_on_d2(client, match, german)) == []  # the rows in English are drawn


def test_another_phone_is_pushed_only_the_rows_a_step_changed(client):
    """A spectator's phone (no radio buttons: a player's phone has them on its turn, and so gets every row then) is
    pushed the part the change draws anew: the rows the step left as the part pushed last showed them come as
    placeholders, and its screen is then the whole board."""
    match = owned(client)
    watching = watching_phone(client, match)
    page = watching.get(match.get_absolute_url()).content.decode()
    first, shown = pushed_part(watching, match.get_absolute_url())
    assert left_out(first) == [] and "ev-row-3=" in shown
    match.refresh_from_db()
    services.match_apply_action(match_id=match.pk, expected_seq=match.head,
                                action={"type": "play", "seat": 1, "cell": "D2", "covered": True})
    second, _shown = pushed_part(watching, match.get_absolute_url(), shown)
    assert left_out(second) == UNCHANGED
    fresh = watching.get(match.get_absolute_url(), headers=HTMX).content.decode()
    assert board_of(screen.pushed(first, second)) == board_of(fresh) != board_of(page)


def test_a_card_name_is_written_as_text_on_the_board(client):
    """What a card shows on its cell (its name, shortened, and the description read out) is text, whatever it holds."""
    load_catalog()
    name = 'Fox <b>"&'
    Card.objects.create(slug="evons", name=name, stats=Card.objects.get(slug="evons", name="Ember Fox").stats)
    match = play_steps(services.match_create(slug="evons", player_names=["Ana", "Ben"], config={}),
                       [play(0, "B4", name)])
    board = board_of(client.get(match.get_absolute_url()).content.decode())
    assert "<b>" not in board and 'aria-label="B4: Fox &lt;b&gt;&quot;&amp;; faces Ana' in board
    assert '<span class="ev-n">Fox &lt;</span>' in board  # "Fox <b>…" cut to seven characters
