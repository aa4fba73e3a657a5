"""Undo and redo: moving along the log; nothing is ever deleted."""

import pytest
from django.urls import reverse

from tracker.matches import services
from tracker.models import Action, Match

from .helpers import (
    JUNK,
    JUNK_IDS,
    assert_csrf_refused,
    assert_every_match_replays,
    csrf_token_from,
    play,
    snapshot,
    text,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def every_match_replays_afterwards(db):
    """After every undo and redo here: each match's state and checkpoints equal re-running its log."""
    yield
    assert_every_match_replays()


def goto_url(match):
    return reverse("match_goto", args=[match.pk])


def goto(client, match, step, seq=None, agreed=False, **headers):
    """Post a move along the log. `agreed`: the confirmation and (in hot-seat) both players' agreement
    that going back before the end, or past a revealed entry, asks for (tracker/people/consent.py)."""
    match.refresh_from_db()
    data = {"step": step, "seq": match.head if seq is None else seq}
    if agreed:
        data.update(confirm="reopen", asker=0, answer="agree")
    return client.post(goto_url(match), data, **headers)


def refused(client, match, data, status):
    before, count = snapshot(match), Action.objects.count()
    response = client.post(goto_url(match), data)
    assert response.status_code == status
    assert snapshot(match) == before
    assert Action.objects.count() == count
    return text(response)


def test_it_undoes_one_step(client, locked):
    play(locked, 2)
    after_one_round = services.match_replay(locked, 3)
    response = goto(client, locked, 3)
    assert response.status_code == 302
    assert response.url == locked.get_absolute_url()
    locked.refresh_from_db()
    assert locked.head == 3
    assert locked.state == after_one_round
    assert len(locked.state["rounds"]) == 1
    assert locked.actions.count() == 4  # nothing deleted
    html = text(client.get(response.url))
    assert "Went back to step 3." in html
    assert "Reveal round 2" in html


def test_it_redoes_an_undone_step(client, locked):
    play(locked, 2)
    two_rounds = locked.state
    goto(client, locked, 3)
    assert "disabled" not in text(client.get(locked.get_absolute_url()))  # redo is offered
    response = goto(client, locked, 4)
    assert response.status_code == 302
    locked.refresh_from_db()
    assert locked.head == 4
    assert locked.state == two_rounds
    assert "Went forward to step 4." in text(client.get(response.url))


def test_the_redo_button_comes_and_goes(client, locked):
    play(locked)
    html = text(client.get(locked.get_absolute_url()))
    assert html.count("disabled") == 1  # undo enabled, redo not
    goto(client, locked, 2)
    html = text(client.get(locked.get_absolute_url()))
    assert "disabled" not in html
    assert 'name="step" value="3"' in html


def test_a_new_action_after_an_undo_starts_a_branch(client, locked):
    play(locked, 2)
    goto(client, locked, 2)  # undo both rounds
    old_round_1, old_round_2 = locked.actions.get(seq=3), locked.actions.get(seq=4)
    response = client.post(reverse("match_act", args=[locked.pk]), {"seq": 2, "action": "play_round"})
    assert response.status_code == 302
    locked.refresh_from_db()
    assert locked.head == 3
    old_round_1.refresh_from_db()
    old_round_2.refresh_from_db()
    assert old_round_1.abandoned and old_round_2.abandoned
    new_round_1 = locked.actions.get(seq=3, abandoned=False)
    assert new_round_1.number == 5
    assert locked.actions.count() == 5
    # Redo has nothing left to redo: the old line was replaced.
    assert text(client.get(locked.get_absolute_url())).count("disabled") == 1
    log = text(client.get(reverse("match_log", args=[locked.pk])))
    assert log.count("undone, replaced by a new branch") == 2
    assert services.match_replay(locked) == locked.state


def test_it_refuses_a_step_beyond_the_line(client, locked):
    html = refused(client, locked, {"step": 3, "seq": 2}, 422)
    assert "There is no step 3 in this match." in html


def test_it_refuses_a_stale_step(client, locked):
    play(locked)
    html = refused(client, locked, {"step": 1, "seq": 2}, 409)
    assert "The match moved on since this page was loaded (step 2, now step 3)" in html


def test_a_doubled_undo_goes_back_only_once(client, locked):
    play(locked, 2)
    data = {"step": 3, "seq": 4}
    assert client.post(goto_url(locked), data).status_code == 302
    refused(client, locked, data, 409)
    locked.refresh_from_db()
    assert locked.head == 3


@pytest.mark.parametrize(
    "data",
    [{}, {"seq": 2}, {"step": 1}, {"step": "-1", "seq": 2}, {"step": 1, "seq": "-1"}, {"step": "one", "seq": 2},
     {"step": "1.5", "seq": "2"}, {"step": "", "seq": ""}],
)
def test_it_refuses_invalid_numbers(client, locked, data):
    html = refused(client, locked, data, 400)
    assert "Choose a step to go to; nothing was changed." in html


def test_undo_after_the_battle_unfinishes_the_match(client, finished):
    assert finished.finished is not None and finished.winner is not None
    response = goto(client, finished, finished.head - 1, agreed=True)
    assert response.status_code == 302
    finished.refresh_from_db()
    assert finished.finished is None
    assert finished.winner is None
    assert finished.score == ""
    assert max(finished.state["wins"]) == 2
    html = text(client.get(finished.get_absolute_url()))
    assert "wins the battle" not in html
    assert f"Seed revealed: <code>{finished.seed}</code>" in html, "an undo cannot hide a seed already shown"
    assert "Reveal round" in html


def test_steps_entered_after_the_seed_was_revealed_are_marked_in_the_log(client, finished):
    """Once the end has shown the seed, anyone could work out the app's next rolls: the log says so."""
    head = finished.head
    goto(client, finished, head - 1, agreed=True)
    finished.refresh_from_db()
    client.post(reverse("match_act", args=[finished.pk]), {"seq": head - 1, "action": "play_round"})
    finished.refresh_from_db()
    assert finished.finished is not None and finished.seed_shown_after == head
    log = text(client.get(reverse("match_log", args=[finished.pk])))
    assert log.count("entered after the seed was revealed") == 1
    assert "[after the seed was revealed]" in text(client.get(reverse("match_export_text", args=[finished.pk])))
    exported = client.get(reverse("match_export_json", args=[finished.pk])).json()
    assert exported["seed"] == finished.seed


def test_a_match_that_never_ended_marks_nothing(client, locked):
    play(locked, rounds=2)
    goto(client, locked, 2)
    locked.refresh_from_db()
    assert locked.seed_shown_after is None and not locked.seed_known
    assert "Seed revealed" not in text(client.get(locked.get_absolute_url()))


def test_redo_to_the_end_finishes_it_again(client, finished):
    winner, score, head = finished.winner, finished.score, finished.head
    goto(client, finished, 2)
    goto(client, finished, head)
    finished.refresh_from_db()
    assert (finished.winner, finished.score, finished.head) == (winner, score, head)
    assert finished.finished is not None


def test_it_can_go_back_to_the_start(client, locked):
    play(locked)
    goto(client, locked, 0, agreed=True)
    locked.refresh_from_db()
    assert locked.head == 0
    assert locked.state["decks"] == [None, None]
    assert "Waiting for Ana" in text(client.get(locked.get_absolute_url()))


def test_it_returns_only_the_match_part_to_htmx(client, locked):
    play(locked)
    response = goto(client, locked, 2, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = text(response)
    assert html.lstrip().startswith('<div id="match"')
    assert "<html" not in html
    assert "Went back to step 2." in html


def test_it_404s_for_an_unknown_match(client, locked):
    assert client.post(reverse("match_goto", args=[locked.pk + 1000]), {"step": 1, "seq": 2}).status_code == 404


def test_it_refuses_get(client, locked):
    head = locked.head
    response = client.get(goto_url(locked))
    assert response.status_code == 302 and response["Location"] == locked.get_absolute_url()  # the page above it
    locked.refresh_from_db()
    assert locked.head == head



# ---------------------------------------------------------------- CSRF and junk


def test_it_refuses_a_post_without_csrf_token(csrf_client, locked):
    before = snapshot(locked)
    assert_csrf_refused(csrf_client.post(goto_url(locked), {"step": 1, "seq": 2}))
    assert snapshot(locked) == before


def test_it_accepts_a_post_with_the_pages_csrf_token(csrf_client, locked):
    play(locked)
    token = csrf_token_from(csrf_client, locked.get_absolute_url())
    response = csrf_client.post(goto_url(locked), {"step": 2, "seq": 3, "csrfmiddlewaretoken": token})
    assert response.status_code == 302
    locked.refresh_from_db()
    assert locked.head == 2


class TestJunk:
    """The junk tests share one battle (conftest.locked_for_the_class), each in a savepoint of it."""

    @pytest.fixture
    def locked(self, locked_for_the_class) -> Match:
        return Match.objects.get(pk=locked_for_the_class)

    @pytest.mark.parametrize("junk", JUNK, ids=JUNK_IDS)
    @pytest.mark.parametrize("shape", ["all-fields", "step", "seq"])
    def test_no_junk_makes_it_fail(self, client, locked, junk, shape):
        data = {"step": 1, "seq": 2}
        if shape == "all-fields":
            data = {"step": junk, "seq": junk, "extra": junk}
        else:
            data[shape] = junk
        before, count = snapshot(locked), Action.objects.count()
        response = client.post(goto_url(locked), data)
        assert 400 <= response.status_code < 500
        assert snapshot(locked) == before
        assert Action.objects.count() == count


# ---------------------------------------------------------------- taking back, reopening


def test_going_back_past_the_reveal_in_hot_seat_asks_who_asks_then_the_other_player(client, locked):
    play(locked)
    before = snapshot(locked)
    first = text(goto(client, locked, 1))
    assert "takes back an entry both players have seen" in first and "I am Ana: I ask" in first
    second = text(client.post(goto_url(locked), {"step": 1, "seq": 3, "asker": 0}))
    assert "Pass the phone to Ben" in second and "I am Ben: I agree" in second and "I am Ben: I refuse" in second
    assert snapshot(locked) == before, "asking changes nothing"
    response = client.post(goto_url(locked), {"step": 1, "seq": 3, "asker": 0, "answer": "refuse"})
    assert response.status_code == 302
    assert snapshot(locked) == before
    assert "Ben refused; nothing was changed." in text(client.get(response.url))
    response = client.post(goto_url(locked), {"step": 1, "seq": 3, "asker": 0, "answer": "agree"})
    locked.refresh_from_db()
    assert locked.head == 1
    log = text(client.get(reverse("match_log", args=[locked.pk])))
    assert "Ana asked: go back to step 1" in log and "Ben refused" in log and "Ben agreed" in log


def test_undo_that_reveals_nothing_stays_one_tap(client, locked):
    play(locked, 2)
    assert goto(client, locked, 3).status_code == 302
    locked.refresh_from_db()
    assert locked.head == 3 and not locked.proposals.exists()


def test_reopening_a_finished_match_says_so_and_asks_first(client, finished):
    before = snapshot(finished)
    page = text(goto(client, finished, finished.head - 1))
    assert "Reopen this finished match" in page and "leaves the statistics" in page
    assert snapshot(finished) == before
    response = client.post(goto_url(finished), {"step": finished.head - 1, "seq": finished.head, "confirm": "reopen"})
    assert response.status_code == 302
    finished.refresh_from_db()
    assert finished.finished is None

