"""Every write is either someone's to make or refused, for every route, persona and state.

Every route of the URL configuration (tests/tracker/sweep.py) is sent a POST with a plausible body
(the step it was made against, a step to go to, an answer..., and a `next` no header carries as it is: every
redirect's Location must be a URI) by every persona of the table, in
the states that matter: a secret entry made (before the reveal), the entries revealed, the match
finished, and its tournament ended. Either (route, persona) is on the reviewed allow-list below,
with the reason it may change something, or the answer is a refusal (a 4xx with a page, or a
redirect carrying an error message) and a dump of every table is unchanged. A route that takes
POST without an entry here, or a persona of the table that the list does not know, fails the test.
Each POST runs in a savepoint rolled back after it, so every request meets the same state; the table
is built once for the module (each state is made from it, in a transaction rolled back after its test).
"""

import copy
import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.urls import reverse
from django.utils import timezone

from tracker.games import ADAPTERS
from tracker.models import Tournament

from .sweep import Table, routes, sweeping, urls

pytestmark = pytest.mark.django_db

EVERYONE = "*"
PLAYERS = {"owner": "the owner's phone plays seat 0", "ben": "Ben's phone plays seat 1"}
ALLOWED: dict[str, dict[str, str]] = {
    "set_theme": {EVERYONE: "a phone's own theme, kept in its cookie"},
    "set_language": {EVERYONE: "a phone's own language, kept in its cookie"},
    "sign_in": {EVERYONE: "signs in (a failed sign-in changes nothing stored)"},
    "sign_out": {EVERYONE: "ends this phone's own session"},
    "sign_up": {EVERYONE: "a new account of one's own"},
    "password_change": {EVERYONE: "one's own password"},
    "match_new": {EVERYONE: "anyone starts a match of their own"},
    "match_import": {EVERYONE: "an imported match is the importer's own"},
    "match_act": PLAYERS,
    "match_goto": {**PLAYERS, "organiser": "an organiser referees the club's matches"},
    "match_entry": PLAYERS,
    "proposal_answer": PLAYERS,
    "proposal_withdraw": PLAYERS,
    "cardmaster_ai_turn": PLAYERS,
    "cardmaster_hint": PLAYERS,
    "cardmaster_analysis": PLAYERS,
    "invite_new": {"owner": "the owner's phone hands out links"},
    "invite_revoke": {"owner": "the owner's phone takes links back (a seat with a say is asked)",
                      "organiser": "an organiser decides for the club's matches"},
    "join": {EVERYONE: "a link is for whoever holds it: that is how a phone joins"},
    "club_new": {EVERYONE: "any account starts a club of its own"},
    "club_invite_new": {"organiser": "organisers hand out the club's links"},
    "club_invite_revoke": {"organiser": "organisers take the club's links back"},
    "club_settings": {"organiser": "organisers choose what the club shows"},
    "club_member": {"organiser": "organisers manage members"},
    "club_leave": {"owner": "a member leaves (Ana is one)", "member": "a member leaves",
                   "organiser": "an organiser leaves while another remains"},
    "club_join": {EVERYONE: "a club link is for whoever holds it"},
    "match_take_over": {"organiser": "an organiser takes over a match its owner left"},
    "match_void": {"organiser": "organisers void the club's results"},
    "tournament_reopen": {"organiser": "organisers run the club's tournaments"},
    "tournament_pair": {"organiser": "organisers run the club's tournaments"},
    "tournament_entrant": {"organiser": "organisers run the club's tournaments"},
    "tournament_drop": {"organiser": "organisers run the club's tournaments"},
    "tournament_finish": {"organiser": "organisers run the club's tournaments"},
    "collection_add": {"owner": "Ana's own collection", "organiser": "organisers change club collections"},
    "collection_upgrade": {"owner": "Ana's own collection", "organiser": "organisers change club collections"},
    "club_collection_add": {"owner": "Ana's own club collection", "organiser": "organisers change club collections"},
    "club_collection_upgrade": {"owner": "Ana's own club collection",
                                "organiser": "organisers change club collections"},
    "card_new": {EVERYONE: "anyone adds a card at the table"},
    "card_import": {EVERYONE: "anyone adds cards; changes to others' cards are refused row by row"},
    "card_edit": {"maker": "the account that added the cards corrects them", "organiser": "a club that used it"},
    "card_delete": {"maker": "the account that added the cards removes them", "organiser": "a club that used it"},
    "battle_rating": {"organiser": "organisers mark the club's battles rated or not"},
    "battle_confirm": {"owner": "Ana confirms she played the club battle (her account is seated)",
                       "organiser": "an organiser confirms on a player's behalf, marked"},
    "card_club_correction": {"organiser": "organisers set the club's own stats for its new matches"},
    "club_claim": {"organiser": "organisers claim a card name for the club"},
    "club_claim_release": {"organiser": "organisers give a club's claim up"},
    "tournament_list": {"organiser": "organisers start the club's tournaments"},
}
PERSONAS = {"owner", "ben", "spectator", "member", "organiser", "far", "outsider", "maker", "signed_out", "removed"}
STATES = ("secret", "revealed", "finished", "tournament ended")
NEXTS = ["/\r\nSet-Cookie: x=1", "/\x00", "/x\x0b", "/日?q=ü"]
"""A `next` each POST carries (a form's page to go back to; tracker/web/next_page.py), one of these by persona:
a CR and LF, a NUL and a vertical tab, which no header can carry, and letters a header carries only encoded."""
URI = re.compile(r"[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]*")
"""What a Location may hold: a URI's characters (a header given "/日" sends it MIME-encoded, "=?utf-8?b?...?=")."""


def body(name: str, table: Table) -> dict:
    """A POST a persona who may would have its way with (the match read again only for the two that name its step:
    reading it for each of some 500 POSTs a state was a tenth of the sweep's own time)."""
    match = table.match
    if name in ("match_act", "match_goto"):
        match.refresh_from_db()
    step = {"seq": match.head}
    return {
        "match_act": {**step, "action": "play_round"},
        "match_goto": {**step, "step": max(match.head - 1, 0), "confirm": "reopen"},
        "proposal_answer": {"answer": "agree"},
        "invite_new": {"kind": "watch"},
        "club_member": {"do": "remove"},
        "match_void": {"reason": "a sweep"},
        "tournament_entrant": {"name": "Dora"},
        "set_theme": {"theme": "dark"},
        "set_language": {"language": "de"},
        "club_new": {"name": "Sweep Club"},
        "collection_add": {"card": "1", "copies": "1"},
        "card_delete": {"confirm": "yes"},
    }.get(name, {})


def _dumped() -> list:
    """The models whose tables a refused POST must leave alone: the app's and its accounts (sessions and the
    cache are a request's own)."""
    return [*apps.get_app_config("tracker").get_models(), get_user_model()]


def dump() -> dict:
    """Every stored row of the app and its accounts, read as the database returns it (no model is built)."""
    rows = {}
    with connection.cursor() as cursor:
        for model in _dumped():
            table, pk = connection.ops.quote_name(model._meta.db_table), connection.ops.quote_name(model._meta.pk.column)
            cursor.execute(f"SELECT * FROM {table} ORDER BY {pk}")  # noqa: S608 - the app's own table names
            rows[model.__name__] = cursor.fetchall()
    return rows


READS = re.compile(r"\s*(SELECT|SAVEPOINT|RELEASE|ROLLBACK TO|PRAGMA)\b", re.IGNORECASE)
WRITE = re.compile(r'\s*(?:INSERT\s+(?:OR\s+\w+\s+)?INTO|UPDATE|DELETE\s+FROM|REPLACE\s+INTO)\s+"?(\w+)"?', re.IGNORECASE)


@contextmanager
def writes_seen() -> Iterator[set[str]]:
    """The dumped tables a statement sent in the block may have changed, as the statements name them (any
    statement that is neither a read nor a write to a named table counts as changing every one). No statement
    that could change a row: the dump is unchanged without reading it, so only a POST that wrote is dumped
    again, and the dump then decides (a write may put back what was there)."""
    dumped = {model._meta.db_table for model in _dumped()}
    seen: set[str] = set()

    def watch(execute, sql, params, many, context):
        if not READS.match(sql):
            written = WRITE.match(sql)
            seen.update({written.group(1)} & dumped if written else dumped)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(watch):
        yield seen


def _to_state(table: Table, state: str) -> None:
    pages = ADAPTERS[table.slug]
    table.match.refresh_from_db()  # as the module's table has it: an earlier test's state was rolled back
    first, _second = pages.entry_examples(table.match, 0)
    table.enter(first, seat=0)
    if state == "secret":
        return
    table.enter(pages.entry_examples(table.match, 1)[1], seat=1)
    if state == "revealed":
        return
    while table.match.finished is None:
        table.enter({"type": "play_round"}, seat=0)
    if state == "tournament ended":
        Tournament.objects.update(finished=timezone.now())
        Tournament.objects.get().pairings.update(match=table.match)


class _Rollback(Exception):
    pass


def _refused(response) -> bool:
    """A 4xx page, a redirect to sign in first, or a redirect that carries what went wrong."""
    if response.status_code >= 400:
        return True
    return response.status_code == 302 and (response.url.startswith(reverse("sign_in"))
                                            or "messages" in response.cookies)


def test_the_allow_list_knows_every_persona_and_names_only_real_routes():
    names = {route.name for route in routes()}
    assert set(ALLOWED) <= names, set(ALLOWED) - names
    for allowed in ALLOWED.values():
        assert set(allowed) <= PERSONAS | {EVERYONE} and all(allowed.values())


def test_a_write_of_any_kind_to_a_dumped_table_is_seen():
    """The sweep skips the dump after a POST that sent no statement able to change a dumped table: that
    judgement must see every kind of write, raw SQL included, and nothing else."""
    card = get_user_model().objects.create_user("someone")
    with writes_seen() as written:
        get_user_model().objects.filter(pk=card.pk).exists()
        connection.cursor().execute("UPDATE django_session SET expire_date = expire_date")
    assert written == set()
    with writes_seen() as written:
        Tournament.objects.create(name="Seen")
    assert written == {Tournament._meta.db_table}
    with writes_seen() as written:
        get_user_model().objects.filter(pk=card.pk).delete()
    assert get_user_model()._meta.db_table in written
    with writes_seen() as written, connection.cursor() as cursor:
        cursor.execute(f"insert or replace into {Tournament._meta.db_table} (name) select 'x' where 0"
                       if connection.vendor == "sqlite" else
                       f"insert into {Tournament._meta.db_table} (name) select 'x' where false")
    assert written == {Tournament._meta.db_table}


@pytest.fixture(scope="module")
def table(django_db_setup, django_db_blocker):
    """The table, built once for the module and rolled back after it: each state's test builds on it in a
    transaction of its own (a savepoint of this one), rolled back after the test."""
    with django_db_blocker.unblock():
        try:
            with transaction.atomic():
                yield Table("card-crush")
                raise _Rollback
        except _Rollback:
            pass


@pytest.mark.parametrize("state", STATES)
def test_every_write_is_someones_or_refused_and_changes_nothing(table, state):
    assert set(table.phones) == PERSONAS, "a new persona: say in ALLOWED what it may change"
    _to_state(table, state)
    problems: list[str] = []
    before = dump()
    with sweeping():
        for route in routes():
            url = urls(route)[0]
            allowed = ALLOWED.get(route.name, {})
            for index, (persona, phone) in enumerate(table.phones.items()):
                cookies = copy.deepcopy(phone.cookies)  # signing out, a language: the phone's own, undone
                sent = {**body(route.name, table), "next": NEXTS[index % len(NEXTS)]}
                try:
                    with transaction.atomic():
                        with writes_seen() as written:
                            response = phone.post(url, sent)
                        if response.status_code == 405:
                            break  # a page only read: it answers every persona so
                        if response.status_code >= 500:
                            problems.append(f"{state}: {persona} POST {url}: {response.status_code}")
                        elif response.has_header("Location") and (
                                not URI.fullmatch(response["Location"]) or response["Location"].startswith("=?")):
                            problems.append(f"{state}: {persona} POST {url} next={sent['next']!r}: "
                                            f"Location {response['Location']!r}")
                        elif route.name not in ALLOWED:
                            problems.append(f"{route.name} takes POST: add it to ALLOWED with who may")
                        elif persona not in allowed and EVERYONE not in allowed:
                            if not _refused(response):
                                problems.append(f"{state}: {persona} POST {url}: {response.status_code}, "
                                                "not a refusal")
                            if written and dump() != before:
                                problems.append(f"{state}: {persona} POST {url} changed {sorted(written)}")
                        raise _Rollback
                except _Rollback:
                    pass
                finally:
                    phone.cookies = cookies
    assert not problems, "\n".join(sorted(set(problems))[:40])
