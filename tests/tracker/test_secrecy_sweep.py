"""Secrecy is non-interference: two worlds that differ only in a hidden entry look the same to
everyone else, on every page, until the reveal.

For every game whose pages declare a secret entry (`SecretEntryPages`, read from the registry, and
the sample game of tests/sample_game/), the
same table is built twice (tests/tracker/sweep.py: same rows, same order, same ids), and seat 0
makes one of the two entries the game offers (`entry_examples`: different catalog cards). Then, as
the other seat's phone, a spectator, a club member, a member of another club, an outsider and the
account that added the catalog's cards, every route of the URL configuration is requested with every
value its parameters can take, plus the poll, the picker and the catalog search for each letter.
The two worlds' answers must be equal once what differs per request is masked (CSRF tokens, the
entry form's signed token, nonces, times). So must what the database offers other viewers: the
card uses a card's page and its editing rights read, and the cache.
"""

import re
import string

import pytest
from django.db import connection, transaction
from django.urls import reverse

from tests.sample_game import every_pages, marked
from tracker.games import ADAPTERS
from tracker.games.base import SecretEntryPages
from tracker.models import CardUse

from .sweep import Table, routes, urls

pytestmark = pytest.mark.django_db

SECRET_GAMES = sorted(slug for slug, pages in every_pages().items() if isinstance(pages, SecretEntryPages))
VIEWERS = ("ben", "spectator", "member", "far", "outsider", "maker")
"""Everyone but the seat that entered: the other seat's phone, a spectator, a club member, a member of
another club, an outsider, and the account that added the catalog cards the entries use."""

PER_REQUEST = [
    (re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]+'), r"\1-"),
    (re.compile(r'("x-csrftoken": ?")[^"]+'), r"\1-"),
    (re.compile(r'(name="entry_token" value=")[^"]+'), r"\1-"),  # signed with the time it was issued
    (re.compile(r'(name="once" value=")[^"]+'), r"\1-"),  # a new one-time token every time a form is drawn
    (re.compile(r'(nonce=")[^"]+'), r"\1-"),
    (re.compile(r'(datetime=")[^"]+'), r"\1-"),
    (re.compile(r"<time[^>]*>[^<]*</time>"), "<time>"),
    (re.compile(r"\b\d{1,2}:\d{2}(:\d{2})?( ?[ap]\.m\.)?"), "hh:mm"),
    (re.compile(r"\b\d{4}-\d\d-\d\d[T ][\d:.+Z-]+"), "iso-time"),
]


def masked(body: bytes) -> str:
    text = body.decode(errors="replace")
    for pattern, replacement in PER_REQUEST:
        text = pattern.sub(replacement, text)
    return text


def test_every_game_with_a_secret_entry_is_swept():
    assert {"card-crush", "logos", "cardmaster"} <= set(SECRET_GAMES)


def _requests(table: Table, slug: str) -> list[tuple[str, dict]]:
    """Every GET the sweep sends: every route filled every way, the poll at the current version and
    before it, the picker (htmx) and the catalog search for every letter."""
    sent = [(url, {}) for route in routes() for url in urls(route)]
    poll = reverse("match_poll", args=[table.match.pk])
    sent += [(f"{poll}?v={version}", {}) for version in range(table.match.version + 1)]
    for letter in string.ascii_lowercase:
        sent.append((f"/cards/{slug}/pick/?q={letter}", {"HTTP_HX_REQUEST": "true"}))
        sent.append((f"/cards/{slug}/?q={letter}", {"HTTP_HX_REQUEST": "true"}))
    return sent


class _Rollback(Exception):
    pass


def _world(slug: str, which: int) -> dict:
    """Build the table, make entry `which` for seat 0, and record what every viewer is answered."""
    seen: dict = {}
    try:
        with transaction.atomic():
            table = Table(slug)
            table.enter(ADAPTERS[slug].entry_examples(table.match, 0)[which], seat=0)
            assert 0 not in ADAPTERS[slug].seats_to_enter(table.match) and \
                1 in ADAPTERS[slug].seats_to_enter(table.match), "the sweep runs before the reveal"
            for url, headers in _requests(table, slug):
                for persona in VIEWERS:
                    response = table.phones[persona].get(url, **headers)
                    assert response.status_code < 500, (persona, url)
                    seen[(persona, url)] = (response.status_code, masked(response.content))
            seen["card uses"] = sorted(CardUse.objects.values_list("card__name", "match_id"))
            with connection.cursor() as cursor:  # what the database cache holds (settings.CACHES)
                cursor.execute("SELECT cache_key, value FROM tracker_cache ORDER BY cache_key")
                keys = [key for key, _value in cursor.fetchall()]
            # The limits' counters (tracker/web/limits.py) are keyed by each world's own phones and the
            # time window, and hold a count of requests, no match: their number must agree, the rest exactly.
            seen["cache"] = [key for key in keys if ":rl:" not in key]
            seen["limit counters"] = sum(":rl:" in key for key in keys)
            raise _Rollback
    except _Rollback:
        pass
    return seen


@pytest.mark.parametrize("slug", [marked(slug, slug, id=slug) for slug in SECRET_GAMES])
def test_nobody_else_can_tell_which_entry_was_made_before_the_reveal(slug):
    first, second = _world(slug, 0), _world(slug, 1)
    assert first.keys() == second.keys()
    leaks = [key for key in first if first[key] != second[key]]
    where = sorted({key[1] if isinstance(key, tuple) else key for key in leaks})
    assert not leaks, f"{len(leaks)} answers differ between the worlds, at {where}; first {leaks[0]}: " + _diff(
        first[leaks[0]], second[leaks[0]])


def _diff(one, two) -> str:
    import difflib

    if not isinstance(one, tuple):
        return f"{one!r} != {two!r}"
    lines = difflib.unified_diff(one[1].splitlines(), two[1].splitlines(), lineterm="", n=1)
    return f"status {one[0]} / {two[0]}\n" + "\n".join(list(lines)[:40])
