"""Opening one match for a request: its row, grants, players and (for a page) head action in one query
(MatchQuerySet.with_people), from SQL compiled once per process (tracker/matches/compiled.py).

Every match page, action, fetch and pushed part opens a match this way, and the SQL is the same each time except
for the id: building and compiling it cost about 0.5 ms, running it less than 0.1 ms (2026-11-30, in-process).
"""

from django.db import DEFAULT_DB_ALIAS

from tracker.models import Match

from .compiled import compiled


@compiled
def _with_head(pk: int):
    return Match.objects.with_people(head=True).filter(pk=pk)


@compiled
def _without_head(pk: int):
    return Match.objects.with_people(head=False).filter(pk=pk)


def match_read(pk: int, head: bool = True, alias: str = DEFAULT_DB_ALIAS) -> Match | None:
    """The match `pk` as `Match.objects.with_people(head=head).get(pk=pk)` reads it, or None if there is none."""
    found = (_with_head if head else _without_head)(pk, alias=alias)
    return found[0] if found else None
