"""Secrecy is non-interference: two worlds that differ only in hidden entries look the same to
everyone else, on every page, until the reveal.

The same table is built twice (tests/tracker/sweep.py: same rows, same order, same ids), holding a
match of every game whose pages declare a secret entry (`SecretEntryPages`, read from the registry,
with the sample game of tests/sample_game/ registered too), and in each match seat 0 makes one of
the two entries the game offers (`entry_examples`: different catalog cards), the first in one world
and the second in the other. The catalog holds the cards either entry uses and two others of each game
(`Table.trim_catalog`). Then, as the other seat's phone, a spectator, a club member, its organiser, a
member of another club, an outsider and the account that added the catalog's cards, every route of the URL
configuration is requested with every value its parameters can take, plus each match's poll, each
secret game's picker and catalog search for each way a letter matches its names (`_letters`). The two
worlds' answers must be equal once what differs per request is masked (CSRF tokens, the entry form's
signed token, nonces, times); they are kept as digests, and a difference is shown by building both
worlds again. So must what the database offers other viewers: the card uses a card's page and its editing
rights read, and the cache.
Besides an entry just made, the worlds may differ in one undone or taken back before its reveal (`_told`), and
in hot-seat the viewer is the phone that took the entry, now in the next player's hands.
"""

import difflib
import hashlib
import re
import string

import pytest
from django.conf import settings
from django.contrib.messages.storage.cookie import CookieStorage
from django.db import connection, transaction
from django.urls import reverse

from tests.sample_game import every_pages, sample
from tracker.games import ADAPTERS
from tracker.games.base import SecretEntryPages
from tracker.matches import live, services
from tracker.models import Access, Card, CardUse

from .sweep import Table, card_names, routes, sweeping, urls
from .test_alone_sweep import act_bodies, entry_bodies, goto_steps

pytestmark = pytest.mark.django_db

SECRET_GAMES = sorted(slug for slug, pages in every_pages().items() if isinstance(pages, SecretEntryPages))
VIEWERS = ("ben", "spectator", "member", "organiser", "far", "outsider", "maker")
"""Everyone but the seat that entered: the other seat's phone, a spectator, a club member, the club's organiser
(its referee there: pages drawn with the steps to go back to, the void and take-over forms), a member of another
club, an outsider, and the account that added the catalog cards the entries use."""

PER_REQUEST = {  # what differs from one request to the next, and what it is masked as
    r'name="csrfmiddlewaretoken" value="[^"]+': 'name="csrfmiddlewaretoken" value="-',
    r'"x-csrftoken": ?"[^"]+': '"x-csrftoken": "-',
    r'name="entry_token" value="[^"]+': 'name="entry_token" value="-',  # signed with the time it was issued
    r'name="once" value="[^"]+': 'name="once" value="-',  # a new one-time token every time a form is drawn
    r'nonce="[^"]+': 'nonce="-',
    r'datetime="[^"]+': 'datetime="-',
    r"<time[^>]*>[^<]*</time>": "<time>",
    r"\b\d{4}-\d\d-\d\d[T ][\d:.+Z-]+": "iso-time",
    r"\b\d{1,2}:\d{2}(?::\d{2})?(?: ?[ap]\.m\.)?": "hh:mm",
}
# Every pattern starts with one of these characters: the lookahead lets the scan skip the others at once
# (five times faster than trying each pattern at every character).
_MASK = re.compile('(?=[n"d<0-9])(?:' + "|".join(f"(?P<m{number}>{pattern})"
                                                 for number, pattern in enumerate(PER_REQUEST)) + ")")
_AS = {f"m{number}": masked_as for number, masked_as in enumerate(PER_REQUEST.values())}


def masked(body: bytes) -> str:
    """The page with what differs per request masked, in one pass (a sweep masks thousands of pages)."""
    return _MASK.sub(lambda found: _AS[found.lastgroup], body.decode(errors="replace"))


def test_each_mask_starts_where_the_scan_looks():
    for pattern in PER_REQUEST:
        assert re.match(r'[n"d<]|\\b\\d', pattern), f"{pattern}: add its first character to _MASK's lookahead"


def test_every_game_with_a_secret_entry_is_swept():
    assert {"card-crush", "logos", "cardmaster"} <= set(SECRET_GAMES)


def _headers(response) -> bytes:
    """The answer's headers as the page's first lines (a redirect's Location, a file's name, htmx's instructions)."""
    cookies = "".join(f"Set-Cookie: {name}={_cookie(name, morsel.value)}\n" for name, morsel in sorted(response.cookies.items()))
    return ("".join(f"{name}: {value}\n" for name, value in sorted(response.items())) + cookies + "\n").encode()


def _cookie(name: str, value: str) -> str:
    """A cookie as the sweep compares it: a CSRF token is new every time, and the messages to show next are signed
    with the time (what they say is kept: a message set by a redirect is shown on the next page)."""
    if name == settings.CSRF_COOKIE_NAME:
        return "-"
    return value.rsplit(":", 2)[0] if name == CookieStorage.cookie_name else value


def _requests(table: Table) -> list[tuple[str, dict]]:
    """Every GET the sweep sends: every route filled every way, each match's poll at its current version
    and before it, the part of the match page and of its log that a change draws anew (what the phone's
    live fetch gets, and what its stream pushes: tracker/matches/live.py draws it as that fetch), each secret
    game's picker (htmx) and catalog search for a letter of each way letters match its names."""
    sent = [(url, {}) for route in routes() for url in urls(route)]
    for match in table.matches.values():
        poll = reverse("match_poll", args=[match.pk])
        sent += [(f"{poll}?v={version}", {}) for version in range(match.version + 1)]
        for page, part in ((match.get_absolute_url(), "match"), (reverse("match_log", args=[match.pk]), "log")):
            sent.append((page, {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": part, "HTTP_X_KEPT": "1"}))
    for slug in table.matches:
        for letter in _letters(Card.objects.filter(slug=slug).values_list("name", flat=True)):
            sent.append((f"/cards/{slug}/pick/?q={letter}", {"HTTP_HX_REQUEST": "true"}))
            sent.append((f"/cards/{slug}/?q={letter}", {"HTTP_HX_REQUEST": "true"}))
    return sent


def _letters(names) -> list[str]:
    """One letter for each way a letter can match the catalog's names: the same names, each matched the same way
    (at its start, at a word's start, inside). Two such letters are answered alike but for the letter itself, in
    either world; a third of the sweep's searches were such repeats (q, x and z found nothing alike)."""
    folded = [" ".join(name.split()).casefold() for name in names]
    ways: dict[tuple, str] = {}
    for letter in string.ascii_lowercase:
        way = tuple((name, name.startswith(letter), any(word.startswith(letter) for word in name.split()))
                    for name in folded if letter in name)
        ways.setdefault(way, letter)
    return sorted(ways.values())


class _Rollback(Exception):
    pass


def _answers_to_ben(table: Table, examples: dict, keep: frozenset) -> dict:
    """What the other seat's phone is answered when it writes before the reveal: every form its board offers (as the
    alone sweep fills them), a go-to to every step, and its own entry made of each example entry of either seat (the
    cards the hidden one may hold too), each as a plain post and as htmx, in a savepoint rolled back after it. The
    sweeps compared pages only, so a refusal worded from the hidden entry, or a request's wording from a dry run on
    it, went unseen. An entry locked in reveals them all: its answer is compared by where it leads."""
    ben, answered = table.phones["ben"], {}
    for slug, match in table.matches.items():
        match.refresh_from_db()
        mark, writes = act_bodies(match, {"ben": ben})
        writes += [(reverse("match_goto", args=[match.pk]), {"seq": mark, "step": step, "confirm": "reopen"})
                   for step in goto_steps(match)]
        entry_forms = entry_bodies(match, {"ben": ben})
        entries = {url for url, _body in entry_forms}
        for url, body in entry_forms:
            for example in [*examples[slug], *ADAPTERS[slug].entry_examples(match, 1)]:
                cards = iter(card_names(example))
                writes.append((url, {name: [next(cards, "")] if name.startswith(("card", "backup")) else value
                                     for name, value in body.items()}))
        for number, (url, body) in enumerate(writes):
            for headers in ({}, {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "match"}):
                try:
                    with transaction.atomic():
                        response = ben.post(url, body, **headers)
                        page = masked(_headers(response) + response.content)
                        if url in entries and response.status_code in (302, 303):  # locked in: the reveal, rightly
                            page = response["Location"]
                        key = ("ben", url, number, bool(headers))
                        answered[key] = (response.status_code,
                                         page if key in keep else hashlib.sha256(page.encode()).digest())
                        raise _Rollback
                except _Rollback:
                    pass
    return answered


def _told(table: Table, examples: dict, which: int, story: str) -> None:
    """Seat 0 makes entry `which` in every secret game's match, and then, by `story`:
    "entered": nothing more, before the reveal;
    "undone": it is undone (it can be redone), never revealed;
    "taken back": it is undone and the first entry made instead, and the other seat makes its first entry (the
    reveal, in a game whose last entry reveals): the worlds differ in an entry taken back before it was ever shown.
    """
    for slug, match in table.matches.items():
        table.enter(examples[slug][which], seat=0, slug=slug)
        if story == "entered":
            assert 0 not in ADAPTERS[slug].seats_to_enter(match) and \
                1 in ADAPTERS[slug].seats_to_enter(match), "the sweep runs before the reveal"
            continue
        match.refresh_from_db()
        services.match_goto(step=match.head - 1, expected_seq=match.head, match=match)
        if story == "taken back":
            table.enter(examples[slug][0], seat=0, slug=slug)
            match.refresh_from_db()
            table.enter(ADAPTERS[slug].entry_examples(match, 1)[0], seat=1, slug=slug)
        match.refresh_from_db()


def _world(which: int, viewers: tuple[str, ...], keep: frozenset = frozenset(), story: str = "entered",
           hot_seat: bool = False) -> dict:
    """Build the table, make entry `which` for seat 0 in every secret game's match as `story` tells (`_told`), and
    record what each of `viewers` is answered: the status and a digest of the masked page (the whole page for the
    keys in `keep`, to show a difference). `hot_seat`: Ben plays on the owner's phone, which holds both seats."""
    seen: dict = {}
    try:
        with sweeping(), transaction.atomic():
            table = Table(*SECRET_GAMES)
            if hot_seat:
                Access.objects.filter(role=Access.PLAYER).delete()
            examples = {slug: ADAPTERS[slug].entry_examples(match, 0) for slug, match in table.matches.items()}
            table.trim_catalog({(slug, name) for slug, pair in examples.items() for name in card_names(pair)})
            _told(table, examples, which, story)
            for url, headers in _requests(table):
                for persona in viewers:
                    response = table.phones[persona].get(url, **headers)
                    assert response.status_code < 500, (persona, url)
                    # A form's address opened as a page leads to one (tracker/web/form_addresses.py): every route.
                    assert response.status_code != 405, (persona, url)
                    page = masked(_headers(response) + response.content)
                    # The headers in the key: the match page and its htmx part share a URL, and the part alone was
                    # compared (the title, the share panel and the outcome region of the page never were).
                    key = (persona, url, headers.get("HTTP_HX_TARGET", ""))
                    seen[key] = (response.status_code, page if key in keep else hashlib.sha256(page.encode()).digest())
            if "ben" in viewers and story == "entered":
                seen.update(_answers_to_ben(table, examples, keep))
            # What every phone's live stream is pushed of each match's newest change (tracker/matches/live.py): not a
            # route's answer, the same sentence to every phone of the match.
            seen["pushed"] = [live.read_change(match.pk) for match in table.matches.values()]
            seen["card uses"] = sorted(CardUse.objects.values_list("card__name", "match_id"))
            with connection.cursor() as cursor:  # what the database cache holds (settings.CACHES)
                cursor.execute("SELECT cache_key, value FROM tracker_cache ORDER BY cache_key")
                # But the limits' counters (django-ratelimit, "rl:"): their keys hash the phone or account
                # with the hour's window, which moves on between the two builds; they count requests.
                seen["cache"] = [key for key, _value in cursor.fetchall() if not key.startswith(":1:rl:")]
            raise _Rollback
    except _Rollback:
        pass
    return seen


@pytest.mark.parametrize("viewer", [sample(viewer, id=viewer) for viewer in VIEWERS])
def test_nobody_else_can_tell_which_entries_were_made_before_the_reveal(viewer):
    """One pair of worlds for every secret game at once: each world holds a match of each, and the worlds
    differ in every one of their hidden entries, so a leak of any of them shows as a difference. Each viewer
    is its own test, so that the workers share the sweep evenly (building a world takes a second; sweeping
    it as one viewer, a thousand requests)."""
    viewers = (viewer,)
    first, second = _world(0, viewers), _world(1, viewers)
    assert first.keys() == second.keys()
    leaks = [key for key in first if first[key] != second[key]]
    if not leaks:
        return
    where = sorted({key[1] if isinstance(key, tuple) else key for key in leaks})
    shown = frozenset(leaks[:1])  # built again, keeping the first difference's pages whole, to show it
    one, two = _world(0, viewers, shown)[leaks[0]], _world(1, viewers, shown)[leaks[0]]
    pytest.fail(f"As {viewer}, {len(leaks)} answers differ between the worlds, at {where}; first {leaks[0]}: "
                + _diff(one, two))


@pytest.mark.sample_game
@pytest.mark.parametrize("story", ["undone", "taken back"])
def test_an_entry_taken_back_before_its_reveal_is_never_shown(story):
    """An entry undone before anyone saw it, or replaced by another, stays hidden on every page for good, the
    revealed entries after it included: the log keeps it as a hidden entry. Round 29 read Ana's deck, undone and
    replaced before the reveal, in Ben's log and its text export once her second deck was revealed (Card Crush,
    LOGOS and Cardmaster alike). As the other seat's phone, which reads every page a spectator does and more."""
    _same_in_both_worlds("ben", story)


@pytest.mark.sample_game
@pytest.mark.parametrize("story", ["entered", "undone", "taken back"])
def test_on_one_phone_the_next_player_reads_nothing_of_the_entry(story):
    """Hot-seat, the core use: the phone that took Ana's entry is passed to Ben, and holds his seat too. Whatever
    it opens then (the log, the replay, an export, the next entry page, a card's page) is the same whichever entry
    Ana made; undone ones too (the sample game showed an undone pick in the log at once)."""
    _same_in_both_worlds("owner", story, hot_seat=True)


def _same_in_both_worlds(viewer: str, story: str, hot_seat: bool = False) -> None:
    first, second = (_world(which, (viewer,), story=story, hot_seat=hot_seat) for which in (0, 1))
    assert first.keys() == second.keys()
    leaks = [key for key in first if first[key] != second[key]]
    if not leaks:
        return
    where = sorted({key[1] if isinstance(key, tuple) else key for key in leaks})
    shown = frozenset(leaks[:1])
    one, two = (_world(which, (viewer,), shown, story, hot_seat)[leaks[0]] for which in (0, 1))
    pytest.fail(f"{story}: {len(leaks)} answers differ between the worlds, at {where}; first {leaks[0]}: "
                + _diff(one, two))


def _diff(one, two) -> str:
    if not isinstance(one, tuple):
        return f"{one!r} != {two!r}"
    lines = difflib.unified_diff(one[1].splitlines(), two[1].splitlines(), lineterm="", n=1)
    return f"status {one[0]} / {two[0]}\n" + "\n".join(list(lines)[:40])
