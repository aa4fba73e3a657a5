"""Which catalog cards a match used: what it tells the catalog, which then decides who may still
change a card (tracker/catalog/changes.py). Below the catalog, so recording a use needs nothing of it."""

from django.core.exceptions import EmptyResultSet
from django.db import connection

from tracker.matches.club_cards import match_catalog
from tracker.models import Card, CardUse, Match


def card_names(payload) -> list[str]:
    """The names of the cards an action carries, in its order (a deck's round order), each once: every
    dict with a "name", not looking inside it (a LOGOS card's effects have names of their own)."""
    if isinstance(payload, dict):
        if isinstance(payload.get("name"), str):
            return [payload["name"]]
        values = list(payload.values())
    elif isinstance(payload, list):
        values = payload
    else:
        return []
    return list(dict.fromkeys(name for value in values for name in card_names(value)))


def record_uses(match: Match, payloads) -> None:
    """Note every catalog card of the match's game that these action payloads carry.

    No query for an action without cards; otherwise the match's catalog, one to hold them and one to note them.
    """
    names = set().union(*(card_names(payload) for payload in payloads))
    if not names:
        return
    # By the names of the match's moment (club_cards): a card renamed since is the one it played (round 22).
    catalog = match_catalog(match)
    played = {catalog[name.casefold()].pk for name in names if name.casefold() in catalog}
    cards = _held(Card.objects.filter(pk__in=played).order_by("pk").values_list("pk", flat=True))
    CardUse.objects.bulk_create([CardUse(card_id=pk, match=match) for pk in cards], ignore_conflicts=True)


def _held(cards) -> list[int]:
    """The cards' ids, each row held against deletion until the transaction ends (PostgreSQL's FOR KEY SHARE: what
    the use's foreign key takes itself, taken at the read; readers and other matches noting the same card do not
    wait). A card deleted at the same moment (catalog/changes.card_delete holds its row) is then either gone, and
    not noted, or waits for this use and decides with it: never noted after it went, which failed the whole
    change (a 500). SQLite's transactions hold the whole database from their start."""
    if not connection.features.has_select_for_update:
        return list(cards)
    try:
        sql, params = cards.query.sql_with_params()
    except EmptyResultSet:  # asked for no card (none named is in the match's catalog): Django's own answer, []
        return []
    with connection.cursor() as cursor:
        cursor.execute(f"{sql} FOR KEY SHARE", params)
        return [pk for (pk,) in cursor.fetchall()]
