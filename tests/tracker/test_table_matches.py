"""Issue 24: the demo's matches (no owner, no club: the table's) are read-only for visitors.

Only the machine that serves the app (a loopback address: scripts, benchmarks) acts in a table
match; a phone on the Wi-Fi reads it and can reopen, undo, share or play nothing, also behind a
proxy that forwards the phone's address.
"""

import pytest
from django.test import Client
from django.urls import reverse

from tracker.models import Invite, Match

from .helpers import ANA_DECK, entry_data, entry_url, snapshot, text

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

WIFI = "192.168.1.50"


@pytest.fixture
def passer_by() -> Client:
    return Client(REMOTE_ADDR=WIFI)


def everything(match: Match) -> tuple:
    return snapshot(match), Invite.objects.filter(match=match).count()


def test_a_passer_by_reads_a_table_match_but_changes_nothing(passer_by, locked):
    page = passer_by.get(locked.get_absolute_url())
    assert page.status_code == 200 and "Ana" in text(page)
    assert f'action="{reverse("match_act", args=[locked.pk])}"' not in text(page)
    before = everything(locked)
    for url, data in [
        (reverse("match_act", args=[locked.pk]), {"seq": locked.head, "action": "play_round"}),
        (reverse("match_goto", args=[locked.pk]), {"seq": locked.head, "step": 0}),
        (reverse("invite_new", args=[locked.pk]), {"kind": "watch"}),
        (reverse("invite_new", args=[locked.pk]), {"kind": "seat", "seat": 0}),
    ]:
        assert passer_by.post(url, data).status_code == 403, url
    assert everything(locked) == before


def test_a_passer_by_cannot_reopen_or_undo_a_finished_table_match(passer_by, finished):
    before = everything(finished)
    for data in ({"seq": finished.head, "step": finished.head - 1},
                 {"seq": finished.head, "step": 0, "confirm": "reopen"}):
        assert passer_by.post(reverse("match_goto", args=[finished.pk]), data).status_code == 403
    assert everything(finished) == before


def test_a_passer_by_makes_no_secret_entry(passer_by, match):
    before = everything(match)
    assert passer_by.get(entry_url(match, 0)).status_code == 403
    assert passer_by.post(entry_url(match, 0), entry_data(match, 0, ANA_DECK)).status_code == 403
    assert everything(match) == before


def test_behind_a_proxy_the_forwarded_address_decides(settings, locked):
    settings.TRUSTED_PROXY_COUNT = 1
    from_wifi = Client(HTTP_X_FORWARDED_FOR=WIFI)  # the proxy itself connects from 127.0.0.1
    before = everything(locked)
    response = from_wifi.post(reverse("match_act", args=[locked.pk]), {"seq": locked.head, "action": "play_round"})
    assert response.status_code == 403 and everything(locked) == before
    local = Client(HTTP_X_FORWARDED_FOR="127.0.0.1")
    assert local.post(reverse("match_act", args=[locked.pk]), {"seq": locked.head, "action": "play_round"}).status_code == 302


def test_this_machine_still_plays_the_table_match(client, locked):
    assert client.post(reverse("match_act", args=[locked.pk]), {"seq": locked.head, "action": "play_round"}).status_code == 302
    locked.refresh_from_db()
    assert locked.head == 3


def test_a_passer_by_still_owns_their_own_match(passer_by, catalog):
    data = {"player_0": "Ana", "player_1": "Ben", "config-resolution": "battle-score"}
    assert passer_by.post(reverse("match_new", args=["card-crush"]), data).status_code == 302
    mine = Match.objects.get(owner_device__gt="")
    assert passer_by.post(entry_url(mine, 0), entry_data(mine, 0, ANA_DECK)).status_code == 302


def test_the_demo_matches_are_read_only_for_a_passer_by(passer_by, db):
    from tracker import demo

    demo.load()
    table = Match.objects.filter(owner__isnull=True, owner_device="", club__isnull=True, finished__isnull=False)
    assert table.exists()
    for match in table:
        before = everything(match)
        response = passer_by.post(reverse("match_goto", args=[match.pk]),
                                  {"seq": match.head, "step": max(match.head - 1, 0), "confirm": "reopen"})
        assert response.status_code == 403, match
        assert everything(match) == before
