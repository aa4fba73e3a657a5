"""Live updates between phones: the cheap poll, secrets kept out of every refresh, and races.

Cast as in test_access: the owner's phone (hot-seat for Ana, seat 0), Ben's own phone
(seat 1, joined by link), a spectator (watch link) and an outsider.
"""

from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tracker.matches import live
from tracker.models import Access, Action

from .helpers import (
    ANA_DECK,
    ANA_OTHER_DECK,
    BEN_DECK,
    entry_data,
    lock,
    lock_both,
    play,
    play_out,
    pushed_part,
    seated_phone,
    snapshot,
    watching_phone,
)
from .helpers import page_text as text

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

HX = {"HTTP_HX_REQUEST": "true"}  # how table.js asks for the fresh #match part


def poll(client: Client, match, version=None):
    data = {} if version is None else {"v": version}
    return client.get(reverse("match_poll", args=[match.pk]), data)


def version_of(match) -> int:
    match.refresh_from_db()
    return match.version


def lock_on_phone(phone: Client, match, seat: int, names: list[str]):
    """A phone locks a deck through the entry page, as it would in the browser."""
    response = phone.post(reverse("match_entry", args=[match.pk, seat]), entry_data(match, seat, names))
    assert response.status_code == 302, text(response)
    return response


# ---------------------------------------------------------------- the poll


def test_poll_answers_204_with_no_body_when_nothing_changed(owner, battle):
    response = poll(owner, battle, version_of(battle))
    assert response.status_code == 204
    assert response.content == b""
    assert not response.cookies  # nothing new to remember either


def test_poll_answers_the_version_when_asked_without_one(owner, battle):
    response = poll(owner, battle)
    assert response.status_code == 200
    assert response.json() == {"version": version_of(battle), "finished": False}


def test_poll_answers_200_with_the_new_version_after_another_phone_changed_the_match(owner, battle, player):
    seen = version_of(battle)
    assert poll(owner, battle, seen).status_code == 204
    lock_on_phone(player, battle, 1, BEN_DECK)
    response = poll(owner, battle, seen)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"version": version_of(battle), "finished": False}
    assert response.json()["version"] > seen
    assert poll(owner, battle, response.json()["version"]).status_code == 204


@pytest.mark.parametrize("who", ["player", "spectator"])
def test_every_joined_phone_sees_the_owners_change(owner, battle, player, spectator, who):
    phone = {"player": player, "spectator": spectator}[who]
    seen = version_of(battle)
    assert poll(phone, battle, seen).status_code == 204
    lock_on_phone(owner, battle, 0, ANA_DECK)
    assert poll(phone, battle, seen).json()["version"] == version_of(battle)


def test_undo_and_redo_are_changes_too(owner, battle, player):
    lock_both(battle)
    seen = version_of(battle)
    owner.post(reverse("match_goto", args=[battle.pk]), {"seq": 2, "step": 1})
    assert poll(player, battle, seen).status_code == 200


def test_poll_says_when_the_match_is_finished(owner, battle):
    play_out(lock_both(battle))
    assert poll(owner, battle, 0).json()["finished"] is True


def test_a_garbage_version_just_gets_the_current_one(owner, battle):
    for junk in ("", "abc", "-1", "9" * 40, "<script>"):
        response = poll(owner, battle, junk)
        assert response.status_code == 200
        assert response.json()["version"] == version_of(battle)


def test_poll_is_404_for_outsiders_and_for_unknown_matches(battle):
    outsider = Client()
    assert poll(outsider, battle, version_of(battle)).status_code == 404
    assert poll(outsider, battle).status_code == 404
    assert outsider.get(reverse("match_poll", args=[battle.pk + 1000])).status_code == 404


def test_poll_refuses_post(owner, battle):
    assert owner.post(reverse("match_poll", args=[battle.pk])).status_code == 405


def test_a_quiet_poll_costs_a_handful_of_queries(owner, battle, player, spectator, django_assert_max_num_queries):
    seen = version_of(battle)
    for phone in (owner, player, spectator):
        with django_assert_max_num_queries(6):
            assert poll(phone, battle, seen).status_code == 204


def test_the_match_page_tells_live_js_where_to_poll(owner, battle):
    html = text(owner.get(battle.get_absolute_url()))
    assert f'data-live-url="{reverse("match_poll", args=[battle.pk])}"' in html
    assert f'data-live-version="{version_of(battle)}"' in html
    assert 'data-live-target="#match"' in html
    assert "data-finished" not in html


def test_a_finished_match_page_says_so_to_live_js(owner, battle):
    """table.js then lets the screen sleep, stops polling and hides how it listens, but keeps the stream."""
    play_out(lock_both(battle))
    html = text(owner.get(battle.get_absolute_url()))
    assert "data-finished" in html and "data-live-stop" not in html


def test_live_js_polls_every_two_seconds_pauses_when_hidden_and_stops_at_the_end():
    from django.contrib.staticfiles import finders

    script = Path(finders.find("js/table.js")).read_text(encoding="utf-8")
    assert "2000" in script
    assert 'visibilityState !== "visible"' in script
    assert "data-live-stop" in script and "data-finished" in script
    assert "eval(" not in script and "innerHTML" not in script


def test_the_live_refresh_is_only_the_match_part(owner, battle, player):
    html = text(owner.get(battle.get_absolute_url(), **HX))
    assert html.lstrip().startswith('<div id="match"')
    assert "<html" not in html


# ---------------------------------------------------------------- secrets in pages and refreshes


def pages_as(phone: Client, match) -> dict[str, str]:
    """Every page of the match a phone can open, and the live refresh of the match part."""
    urls = {
        "detail": match.get_absolute_url(),
        "refresh": match.get_absolute_url(),
        "log": reverse("match_log", args=[match.pk]),
        "replay": reverse("match_replay", args=[match.pk]),
        "replay-step-1": reverse("match_replay", args=[match.pk]) + "?step=1",
        "export-txt": reverse("match_export_text", args=[match.pk]),
    }
    pages = {}
    for name, url in urls.items():
        response = phone.get(url, **(HX if name == "refresh" else {}))
        assert response.status_code == 200, (name, response.status_code)
        pages[name] = text(response)
    # What the match's stream pushes to every phone now, in each language (tracker/live.py), and the parts it
    # pushes to this phone with it, on the match page and on the log.
    change = live.read_change(match.pk)
    pages["pushed"] = "".join(change.event(code) for code, _name in settings.LANGUAGES)
    for name, part in (("detail", "match"), ("log", "log")):
        pages[f"pushed {name}"] = pushed_part(phone, urls[name])[0]
        assert pages[f"pushed {name}"].lstrip().startswith(f'<div id="{part}"'), name
    return pages


def assert_none_of(cards: list[str], pages: dict[str, str], who: str) -> None:
    for name, html in pages.items():
        for card in cards:
            assert card not in html, f"{card!r} (a locked card) leaked to the {who} on {name}"


def test_ben_locking_first_keeps_his_deck_off_the_owners_and_spectators_pages(owner, battle, player, spectator):
    lock_on_phone(player, battle, 1, BEN_DECK)
    assert "Ben is locked in" in text(owner.get(battle.get_absolute_url(), **HX))
    assert_none_of(BEN_DECK, pages_as(owner, battle), "owner")
    assert_none_of(BEN_DECK, pages_as(spectator, battle), "spectator")
    own = text(player.get(battle.get_absolute_url()))
    assert "Your deck (only this phone sees it)" in own
    assert all(card in own for card in BEN_DECK)


def test_ana_locking_first_on_the_owners_phone_keeps_her_deck_off_bens_and_spectators_pages(
        owner, battle, player, spectator):
    lock_on_phone(owner, battle, 0, ANA_DECK)
    assert "Ana is locked in" in text(player.get(battle.get_absolute_url(), **HX))
    assert_none_of(ANA_DECK, pages_as(player, battle), "other seat's phone")
    assert_none_of(ANA_DECK, pages_as(spectator, battle), "spectator")
    assert_none_of(ANA_DECK, pages_as(owner, battle), "owner's phone after the hot-seat entry")


def test_bens_phone_never_shows_anas_deck_while_his_own_is_shown(owner, battle, player):
    lock_on_phone(owner, battle, 0, ANA_DECK)
    lock_on_phone(player, battle, 1, BEN_DECK)
    # Both locked: the decks are revealed round by round; round 1 only once it is played.
    before_round = text(player.get(battle.get_absolute_url()))
    assert "Ember Fox" not in before_round and "Tide Runner" not in before_round
    play(battle)
    after_round = text(player.get(battle.get_absolute_url(), **HX))
    assert "Ember Fox" in after_round and "Tide Runner" in after_round
    assert_none_of(ANA_DECK[1:], {"refresh": after_round}, "other seat's phone")


def test_a_spectator_sees_no_deck_until_the_reveal_in_either_order(owner, battle, player, spectator):
    lock_on_phone(player, battle, 1, BEN_DECK)
    assert_none_of(BEN_DECK, pages_as(spectator, battle), "spectator")
    assert "Your deck" not in text(spectator.get(battle.get_absolute_url()))


def test_a_stale_entry_comes_back_to_confirm_without_the_other_deck(owner, battle, player):
    stale = entry_data(battle, 0, ANA_DECK)  # Ana's form, loaded at step 0
    lock_on_phone(player, battle, 1, BEN_DECK)  # meanwhile Ben locks in on his phone
    before = snapshot(battle)
    response = owner.post(reverse("match_entry", args=[battle.pk, 0]), stale)
    assert response.status_code == 409
    html = text(response)
    assert "The match moved on while you were entering" in html
    assert 'name="seq" value="1-1"' in html  # ready to confirm against the fresh step
    for name in ANA_DECK:
        assert f'value="{name}"' in html
    for name in BEN_DECK:  # the catalog list names every card; no field carries Ben's choice
        assert f'value="{name}"' not in html.split('<datalist id="catalog"')[0]
    assert snapshot(battle) == before


def test_an_old_entry_form_sent_again_is_refused_and_applied_once(owner, battle, player):
    form = entry_data(battle, 1, BEN_DECK)
    lock_on_phone(player, battle, 1, BEN_DECK)
    before = snapshot(battle)
    response = player.post(reverse("match_entry", args=[battle.pk, 1]), form)
    assert response.status_code == 409
    assert "Nothing was applied" in text(response)
    assert snapshot(battle) == before and Action.objects.filter(match=battle).count() == 1


# ---------------------------------------------------------------- two phones at once


def test_two_phones_revealing_against_the_same_step_apply_it_once(owner, battle, player):
    lock_both(battle)
    data = {"seq": 2, "action": "play_round"}
    first = owner.post(reverse("match_act", args=[battle.pk]), data)
    second = player.post(reverse("match_act", args=[battle.pk]), data, **HX)
    assert first.status_code == 302
    assert second.status_code == 200  # the same tap from two phones: done once, and neither reads as refused
    html = text(second)
    assert "That tap was already recorded (sent twice, or tapped on another phone too): it counts once." in html and "Not applied" not in html
    assert "Water over Fire +3: 6 + 3 = 9 beats 7 + 0 = 7." in html  # the fresh state: round 1 revealed
    battle.refresh_from_db()
    assert battle.head == 3 and Action.objects.filter(match=battle, seq=3).count() == 1


def test_an_undo_against_a_step_another_phone_moved_past_is_refused_with_the_fresh_state(owner, battle, player):
    lock_both(battle)
    owner.post(reverse("match_act", args=[battle.pk]), {"seq": 2, "action": "play_round"})
    before = snapshot(battle)
    response = player.post(reverse("match_goto", args=[battle.pk]), {"seq": 2, "step": 1}, **HX)
    assert response.status_code == 409
    html = text(response)
    assert "The match moved on since this page was loaded (step 2, now step 3)." in html
    assert "Nothing was applied; here is the current state." in html
    assert "Water over Fire +3" in html
    assert snapshot(battle) == before


def test_a_reveal_against_a_step_another_phone_undid_is_refused(owner, battle, player):
    play(lock_both(battle))
    owner.post(reverse("match_goto", args=[battle.pk]), {"seq": 3, "step": 2})
    before = snapshot(battle)
    response = player.post(reverse("match_act", args=[battle.pk]), {"seq": 3, "action": "play_round"})
    assert response.status_code == 409
    assert "The match was taken back since this page was loaded (step 3, now step 2)." in text(response)
    assert snapshot(battle) == before


def test_the_other_seat_locking_in_meanwhile_asks_the_second_to_confirm(owner, battle, player):
    """Lock-ins from two phones against the same step: the second is told and keeps its entry."""
    ana_form, ben_form = entry_data(battle, 0, ANA_OTHER_DECK), entry_data(battle, 1, BEN_DECK)
    assert owner.post(reverse("match_entry", args=[battle.pk, 0]), ana_form).status_code == 302
    response = player.post(reverse("match_entry", args=[battle.pk, 1]), ben_form)
    assert response.status_code == 409
    html = text(response)
    assert "The match moved on while you were entering" in html
    for name in ANA_OTHER_DECK:
        assert f'value="{name}"' not in html.split('<datalist id="catalog"')[0]
    battle.refresh_from_db()
    assert battle.state["decks"][1] is None and battle.head == 1
    assert player.post(reverse("match_entry", args=[battle.pk, 1]), {**ben_form, "seq": "1"}).status_code == 302


def test_a_spectator_watching_with_a_stale_version_is_told_to_refresh(owner, battle):
    spectator = watching_phone(owner, battle)
    seen = version_of(battle)
    lock(battle, 0, ANA_DECK)
    assert poll(spectator, battle, seen).status_code == 200
    assert poll(spectator, battle, version_of(battle)).status_code == 204


def test_a_revoked_phone_stops_getting_updates(owner, battle):
    phone = seated_phone(owner, battle, 1)
    assert poll(phone, battle, version_of(battle)).status_code == 204
    seat_invite = Access.objects.get(match=battle, seat=1).invite
    owner.post(reverse("invite_revoke", args=[battle.pk, seat_invite.pk]))
    assert poll(phone, battle, version_of(battle)).status_code == 403  # told why it lost access


def test_a_phone_seated_after_the_entry_is_not_shown_it(owner, battle):
    """Hot-seat: Ana locks in on the owner's phone and passes it. Ben, holding it, makes a join link for Ana's seat
    and opens it on his own phone: that phone plays her seat now, but it was not there when she locked in, so it is
    not shown her deck as "Your deck" (round 29 read it so). It sees it at the reveal, as everyone does."""
    lock_on_phone(owner, battle, 0, ANA_DECK)
    bens_own = seated_phone(owner, battle, 0)
    assert "Ana is locked in" in text(bens_own.get(battle.get_absolute_url()))
    assert_none_of(ANA_DECK, pages_as(bens_own, battle), "phone seated after the entry")
    lock_on_phone(owner, battle, 1, BEN_DECK)
    assert all(card in text(bens_own.get(reverse("match_log", args=[battle.pk]))) for card in ANA_DECK)
