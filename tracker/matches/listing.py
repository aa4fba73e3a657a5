"""Rows of the match lists (all matches, home's recent ones, a card's matches), built in Python.

A row needs a few columns of the match, its players' names, the result in words and the date: the
rows are read as plain values (no state or options, no model objects) with the names in one more
query, and each row is put together here once, so templates/tracker/match_rows.html only prints
it. Drawn by the template instead (an include, a `dictsort`, a URL reversed, a date formatted
and a `blocktranslate` per row), a page of 25 rows cost about as much as the rest of the page.
"""

from collections import defaultdict
from datetime import datetime
from typing import cast

from django.core.paginator import Page, Paginator
from django.db.models import QuerySet
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext

from tracker.models import Match, Seat

COLUMNS = ("pk", "slug", "created", "finished", "score", "winner__name", "corrected", "unconfirmed")
"""What a row shows of a match."""
LINK = 987654321
"""A match number no real match has, to reverse the link of a match once and fill in each row's number."""


def result_words(finished: datetime | None, winner: str | None, shown_score: str, corrected: bool = False) -> str:
    """How a match stands, in a few words: who won and by what, a draw, or still going; a result reached
    while a manual correction stood says so (statistics list it apart)."""
    if finished and corrected:
        said = gettext("%(name)s won %(score)s") % {"name": winner, "score": shown_score} if winner else \
            gettext("Draw (%(score)s)") % {"score": shown_score}
        return "✎ " + gettext("%(result)s, decided with manual corrections") % {"result": said}
    if finished and winner:
        return "✓ " + gettext("%(name)s won %(score)s") % {"name": winner, "score": shown_score}
    if finished:
        return "= " + gettext("Draw (%(score)s)") % {"score": shown_score}
    return "▶ " + gettext("in progress")


def match_result(match: Match) -> str:
    return result_words(match.finished, match.winner.name if match.winner else None, match.shown_score,
                        match.corrected)


def page(matches: QuerySet, number: str | None, per: int) -> tuple[Page, list[dict]]:
    """Page `number` of `matches` (visible matches) and its rows.

    Always counted, even when the list fits on one page: skipping the COUNT there saved a query on
    short lists but made a long list's first page cost two more (a list's queries must not grow
    with the data: tests/tracker/test_query_counts.py, the benchmark's goal 5)."""
    shown = Paginator(matches, per).get_page(number)
    return shown, rows(cast(QuerySet, shown.object_list))


def rows(matches: QuerySet) -> list[dict]:
    """One dict a match of `matches` (visible matches, sliced to what is shown): its link, title,
    players, result and date, as the row shows them."""
    return _rows(list(matches.values(*COLUMNS)))


def _rows(found: list[dict]) -> list[dict]:
    from tracker.games import pages_for  # the games' pages build on this package: asked for when drawn

    names: dict[int, list[str]] = defaultdict(list)
    seats = Seat.objects.filter(match_id__in=[match["pk"] for match in found]).order_by("match_id", "position")
    for match_id, name in seats.values_list("match_id", "player__name") if found else ():
        names[match_id].append(name)
    before, after = reverse("match_detail", args=[LINK]).split(str(LINK))
    vs = f" {gettext('vs')} "
    shown = []
    for match in found:
        created = timezone.localtime(match["created"])
        pages = pages_for(match["slug"])
        shown.append({
            "url": f"{before}{match['pk']}{after}",
            "title": f"{pages.game.name} #{match['pk']}",
            "players": vs.join(names[match["pk"]]),
            "result": result_words(match["finished"], match["winner__name"], pages.shown_score(match["score"]),
                                   match["corrected"])
            + (" · ◔ " + gettext("unconfirmed") if match["finished"] and match["unconfirmed"] else ""),
            "iso": created.isoformat(),
            "when": formats.date_format(created, "DATETIME_FORMAT"),
        })
    return shown
