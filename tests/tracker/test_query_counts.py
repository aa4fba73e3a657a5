"""Queries per page do not grow with the number of matches or the length of a log (benchmark goal 5).

Each test counts the queries of the same pages with little data and with more, and asks
for the same count: a query per match or per action (an N+1) would make the second larger.
Not timed, so the counts are exact on any machine.
"""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from perf import wire
from tracker import demo
from tracker.games.evons.demo import table_ends as evons_table_ends
from tracker.matches import services
from tracker.models import Match, Player

from .helpers import ANA_DECK, BEN_DECK, deck

pytestmark = pytest.mark.django_db


def queries(client: Client, url: str, data: dict | None = None, **headers) -> int:
    client.get(url, data or {}, **headers)  # first-use caches are not the page's cost
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, data or {}, **headers)
    assert response.status_code == 200, (url, response.status_code)
    return len(captured)


def rolls(match: Match, upto: int) -> Match:
    """Plain D6 rolls until the log is `upto` steps long (Lonely Star's D6 never runs out)."""
    match.refresh_from_db()
    for step in range(match.head, upto):
        services.match_apply_action(match_id=match.pk, action={"type": "d6", "seat": step % 2},
                                    expected_seq=step)
    match.refresh_from_db()
    return match


def battle(names: tuple[str, str]) -> Match:
    match = services.match_create(slug="card-crush", player_names=list(names), config={})
    for seat, cards in enumerate((ANA_DECK, BEN_DECK)):
        services.match_apply_action(match_id=match.pk, expected_seq=seat,
                                    action={"type": "lock_deck", "seat": seat, "cards": deck(cards)})
    match.refresh_from_db()
    while match.finished is None:
        services.match_apply_action(match_id=match.pk, action={"type": "play_round"}, expected_seq=match.head)
        match.refresh_from_db()
    return match


def finished_lonely_star(names: tuple[str, str]) -> Match:
    match = rolls(services.match_create(slug="lonely-star", player_names=list(names), config={}), 3)
    services.match_apply_action(match_id=match.pk, action={"type": "declare_winner", "winner": 0},
                                expected_seq=3)
    return match


def match_pages(match: Match) -> dict[str, int]:
    client = Client()
    return {
        "match page": queries(client, match.get_absolute_url()),
        "match part (htmx)": queries(client, match.get_absolute_url(), HTTP_HX_REQUEST="true"),
        "log": queries(client, reverse("match_log", args=[match.pk])),
        "replay, middle step": queries(client, reverse("match_replay", args=[match.pk]),
                                       {"step": match.head // 2}),
        "replay, last step": queries(client, reverse("match_replay", args=[match.pk]), {"step": match.head}),
        "text export": queries(client, reverse("match_export_text", args=[match.pk])),
    }


def action_queries(match: Match) -> int:
    """Queries of one htmx action POST at the match's current step (then taken back)."""
    client = Client()
    with CaptureQueriesContext(connection) as captured:
        response = client.post(reverse("match_act", args=[match.pk]),
                               {"seq": match.head, "action": "d6", "seat": match.head % 2},
                               HTTP_HX_REQUEST="true")
    assert response.status_code == 200, response.content[:500]
    services.match_goto(match_id=match.pk, step=match.head, expected_seq=match.head + 1)
    return len(captured)


def test_a_long_log_costs_no_more_queries_than_a_short_one(catalog):
    demo.load_catalogs()
    short = rolls(services.match_create(slug="lonely-star", player_names=["Ana", "Ben"], config={}), 6)
    long = rolls(services.match_create(slug="lonely-star", player_names=["Ana", "Ben"], config={}), 80)
    assert match_pages(long) == match_pages(short)
    # Appending never reads the whole log back: the 81st action queries as the 7th does.
    assert action_queries(long) == action_queries(short)


def list_and_statistics_pages() -> dict[str, int]:
    client = Client()
    ana = Player.objects.get(name="Ana")
    return {
        "home": queries(client, reverse("home")),
        "match list": queries(client, reverse("match_list")),
        "statistics": queries(client, reverse("stats")),
        "statistics, Card Crush": queries(client, reverse("stats"), {"game": "card-crush"}),
        "statistics, Lonely Star": queries(client, reverse("stats"), {"game": "lonely-star"}),
        "statistics, Evons": queries(client, reverse("stats"), {"game": "evons"}),
        "a player's statistics": queries(client, reverse("stats_player", args=[ana.pk])),
    }


def test_more_matches_cost_no_more_queries_on_lists_and_statistics(catalog):
    demo.load_catalogs()
    battle(("Ana", "Ben"))
    finished_lonely_star(("Ana", "Chloé"))
    evons_table_ends(("Ana", "Dev"))
    few = list_and_statistics_pages()
    for number in range(9):  # 30 matches in all: more than the match list's page of 25
        battle(("Ana", f"Rival {number}"))
        finished_lonely_star((f"Rival {number}", "Ana"))
        evons_table_ends(("Ana", f"Rival {number}"))
    assert list_and_statistics_pages() == few


def test_the_live_update_check_answers_in_under_300_bytes_when_nothing_changed(finished):
    """Every open phone asks every 2 s: status line, every header (gunicorn's too) and body."""
    checked = wire.poll(Client(), finished)
    assert checked.response.total < 300, checked.headers
    assert checked.response.body == 0
    # Nothing there for a policy to govern; pages, and refusals, still carry it.
    assert not any(header.startswith(("Content-Security-Policy", "X-Frame-Options", "Content-Type"))
                   for header in checked.headers)
    refusal = Client().get(reverse("match_poll", args=[finished.pk + 1000]))
    assert refusal.status_code == 404 and "default-src 'self'" in refusal["Content-Security-Policy"]
