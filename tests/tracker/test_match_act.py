"""Open actions at the table: revealing the next round, made against a step."""

import pytest
from django.urls import reverse

from tracker.models import Action, Match

from .helpers import (
    ANA_DECK,
    JUNK,
    JUNK_IDS,
    assert_csrf_refused,
    csrf_token_from,
    lock,
    play,
    snapshot,
    text,
)

pytestmark = pytest.mark.django_db


def act_url(match):
    return reverse("match_act", args=[match.pk])


def reveal(client, match, seq=None, **extra):
    data = {"seq": match.head if seq is None else seq, "action": "play_round"}
    data.update(extra)
    return client.post(act_url(match), data)


def refused(client, match, data, status, **headers):
    before, count = snapshot(match), Action.objects.count()
    response = client.post(act_url(match), data, **headers)
    assert response.status_code == status
    assert snapshot(match) == before
    assert Action.objects.count() == count
    return text(response)


def test_it_reveals_the_next_round(client, locked):
    response = reveal(client, locked)
    assert response.status_code == 302
    assert response.url == locked.get_absolute_url()
    locked.refresh_from_db()
    assert locked.head == 3
    assert len(locked.state["rounds"]) == 1
    assert locked.state["wins"] == [0, 1]
    action = locked.actions.get(seq=3)
    assert action.payload == {"type": "play_round"}
    assert action.events[0]["type"] == "round"
    html = text(client.get(response.url))
    assert "Water over Fire +3: 6 + 3 = 9 beats 7 + 0 = 7." in html
    assert "Reveal round 2" in html


def test_it_plays_the_battle_to_the_end(client, locked):
    while True:
        locked.refresh_from_db()
        if locked.finished:
            break
        assert reveal(client, locked).status_code == 302
    assert locked.winner is not None
    assert locked.score in ("3-0", "3-1", "3-2")
    assert max(locked.state["wins"]) == 3


def test_it_refuses_a_stale_step(client, locked):
    html = refused(client, locked, {"seq": 1, "action": "play_round"}, 409)
    assert "The match moved on since this page was loaded (step 1, now step 2). Nothing was applied" in html
    assert "Reveal round 1" in html  # the fresh state comes with the refusal


def test_it_applies_a_doubled_submission_once(client, locked):
    data = {"seq": 2, "action": "play_round"}
    assert client.post(act_url(locked), data).status_code == 302
    response = client.post(act_url(locked), data, follow=True)  # answered as done: the first copy counted
    assert response.status_code == 200 and "Not applied" not in text(response)
    assert "That tap was already recorded (sent twice, or tapped on another phone too): it counts once." in text(response)
    assert "(log entry 3)" in text(response)  # the box tells the step that holds the tap
    locked.refresh_from_db()
    assert locked.head == 3
    assert len(locked.state["rounds"]) == 1
    assert locked.actions.count() == 3


def test_it_refuses_an_unknown_action(client, locked):
    html = refused(client, locked, {"seq": 2, "action": "dance"}, 422)
    assert "Card Crush has no action" in html and "dance" in html


def test_it_refuses_a_missing_action(client, locked):
    html = refused(client, locked, {"seq": 2}, 422)
    assert "Card Crush has no action" in html


def test_it_refuses_a_deck_lock_through_the_table_buttons(client, match):
    html = refused(client, match, {"seq": 0, "action": "lock_deck"}, 422)
    assert "Not applied:" in html


def test_it_refuses_a_round_before_lock_in(client, match):
    lock(match, 0, ANA_DECK)
    html = refused(client, match, {"seq": 1, "action": "play_round"}, 422)
    assert "Both players must lock in their decks before round 1." in html


def test_it_refuses_a_round_after_the_battle(client, finished):
    html = refused(client, finished, {"seq": finished.head, "action": "play_round"}, 422)
    assert "The battle is over; no more actions can be taken." in html


@pytest.mark.parametrize("seq", [None, "", "two", "-1", "1.5"])
def test_it_refuses_a_missing_or_bad_step(client, locked, seq):
    data = {"action": "play_round"}
    if seq is not None:
        data["seq"] = seq
    html = refused(client, locked, data, 400)
    assert "The form is missing its step number; nothing was applied." in html


def test_it_returns_only_the_match_part_to_htmx(client, locked):
    response = client.post(act_url(locked), {"seq": 2, "action": "play_round"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = text(response)
    assert html.lstrip().startswith('<div id="match"')
    assert "<html" not in html
    assert "Water over Fire +3" in html
    locked.refresh_from_db()
    assert locked.head == 3


def test_it_returns_only_the_match_part_with_a_refusal_to_htmx(client, locked):
    html = refused(client, locked, {"seq": 1, "action": "play_round"}, 409, HTTP_HX_REQUEST="true")
    assert html.lstrip().startswith('<div id="match"')
    assert "<html" not in html
    assert "moved on" in html


MATCH_FORM = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "match", "HTTP_X_KEPT": "1"}  # what a form inside #match sends


def test_the_answer_to_a_tap_on_the_page_leaves_out_what_no_action_changes(client, locked):
    response = client.post(act_url(locked), {"seq": 2, "action": "play_round"}, **MATCH_FORM)
    assert response.status_code == 200
    html = text(response)
    assert "Water over Fire +3" in html and "Step 3" in html, "the board and the step are fresh"
    assert 'name="seq" value="3-3"' in html, "the undo and redo forms are for the new step"
    assert '<div id="match-title" hx-preserve></div>' in html, "the title stays as the page shows it"
    assert "<h1>" not in html and 'class="players"' not in html


def test_a_page_drawn_before_the_kept_regions_gets_the_whole_match(client, locked):
    """A phone that opened the page before a deploy brought the regions: no placeholder could find its pair."""
    older_page = {key: value for key, value in MATCH_FORM.items() if key != "HTTP_X_KEPT"}
    html = text(client.post(act_url(locked), {"seq": 2, "action": "play_round"}, **older_page))
    assert "Water over Fire +3" in html and "<h1>" in html and "hx-preserve" not in html


def test_the_page_the_poll_and_a_refusal_get_the_whole_match(client, locked):
    assert "<h1>" in text(client.get(locked.get_absolute_url(), **MATCH_FORM)), "the live poll's fetch"
    html = refused(client, locked, {"seq": 1, "action": "play_round"}, 409, **MATCH_FORM)
    assert "<h1>" in html and "hx-preserve" not in html
    reveal(client, locked)
    assert "<h1>" in text(client.get(locked.get_absolute_url()))


def test_it_404s_for_an_unknown_match(client, locked):
    response = client.post(reverse("match_act", args=[locked.pk + 1000]), {"seq": 2, "action": "play_round"})
    assert response.status_code == 404
    assert locked.actions.count() == 2


def test_its_address_opened_as_a_page_leads_to_the_match(client, locked):
    """A refused form without JavaScript is drawn at this address; opened again later (a tab restored), the GET
    lands on the match page with why, not on a blank 405 (tracker/web/form_addresses.py)."""
    response = client.get(act_url(locked))
    assert response.status_code == 302 and response.url == locked.get_absolute_url()
    assert "That address takes a form sent from its page" in client.get(response.url).content.decode()
    assert locked.actions.count() == 2


def test_a_played_round_stays_played_after_a_refusal(client, locked):
    play(locked)
    before = snapshot(locked)
    # The same tap again (its answer lost): answered as recorded, and nothing is applied twice.
    assert client.post(act_url(locked), {"seq": 2, "action": "play_round"}).status_code == 302
    assert snapshot(locked) == before
    locked.refresh_from_db()
    assert len(locked.state["rounds"]) == 1




# ---------------------------------------------------------------- CSRF and junk


def test_it_refuses_a_post_without_csrf_token(csrf_client, locked):
    before = snapshot(locked)
    assert_csrf_refused(csrf_client.post(act_url(locked), {"seq": 2, "action": "play_round"}))
    assert snapshot(locked) == before


def test_it_accepts_a_post_with_the_pages_csrf_token(csrf_client, locked):
    token = csrf_token_from(csrf_client, locked.get_absolute_url())
    response = csrf_client.post(act_url(locked), {"seq": 2, "action": "play_round", "csrfmiddlewaretoken": token})
    assert response.status_code == 302
    locked.refresh_from_db()
    assert locked.head == 3


class TestJunk:
    """The junk tests share one battle (conftest.locked_for_the_class), each in a savepoint of it."""

    @pytest.fixture
    def locked(self, locked_for_the_class) -> Match:
        return Match.objects.get(pk=locked_for_the_class)

    @pytest.mark.parametrize("junk", JUNK, ids=JUNK_IDS)
    @pytest.mark.parametrize("shape", ["all-fields", "seq", "action"])
    def test_no_junk_makes_it_fail(self, client, locked, junk, shape):
        data = {"seq": 2, "action": "play_round"}
        if shape == "all-fields":
            data = {"seq": junk, "action": junk, "extra": junk}
        else:
            data[shape] = junk
        before, count = snapshot(locked), Action.objects.count()
        response = client.post(act_url(locked), data)
        assert 400 <= response.status_code < 500
        assert snapshot(locked) == before
        assert Action.objects.count() == count


@pytest.mark.parametrize("sent", ["5", "5-7", " 5-7\n", "0", "", "  ", "5-", "-7", "x", "5-7-9", "1234567890", "٣",
                                  "5\x00", "5.0", None, ["4", "5-6"]])
def test_the_step_an_action_sent_is_read_as_its_form_reads_it(sent):
    """SeqForm.sent, the action's quick read of `seq`, answers as SeqForm does: the step and line, or None where the
    form is invalid."""
    from django.http import QueryDict

    from tracker.matches.forms import SeqForm

    data = QueryDict(mutable=True)
    if sent is not None:
        data.setlist("seq", sent if isinstance(sent, list) else [sent])
    form = SeqForm(data)
    expected = form.cleaned_data["seq"] if form.is_valid() else None
    got = SeqForm.sent(data)
    assert (got, getattr(got, "number", None)) == (expected, getattr(expected, "number", None))
