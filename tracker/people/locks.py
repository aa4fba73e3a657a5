"""Matches whose result may not change, and who may reopen a finished match.

- A battle of an ended tournament is locked: the final standings and the winner banner are
  built from these results, so they stay as they are until an organiser reopens the tournament.
- A voided result stays as it was, marked in the log.
- Going back before the end of a finished match reopens it. The page first says what that
  affects and asks to confirm; in a club only an organiser may reopen, since the result
  counts in the club's ratings, statistics and tournaments.
"""

from django.utils.translation import gettext as _

from tracker.games import pages_for
from tracker.models import Match, Pairing

from .access import Viewer


def tournament_table(match: Match, fresh: bool = False) -> Pairing | None:
    """The tournament table this match was played at, if any (only a club match of a game that competes can be).
    `fresh`: read again, with its tournament as it stands now."""
    if not match.club_id or not pages_for(match.slug).competes:
        return None
    if fresh or "_pairing" not in match.__dict__:  # asked several times per page: one query
        match.__dict__["_pairing"] = Pairing.objects.select_related("tournament").filter(match=match).first()
    return match.__dict__["_pairing"]


def why_locked(match: Match, fresh: bool = False) -> str:
    """Why nothing in this match may change now, or "" when it may.

    A page asks with the match as it read it. The change itself asks again (`fresh`, its tournament read again)
    in the transaction that writes the match, once it holds the match's row (its write, or select_for_update):
    ending a tournament locks its battles' rows before it reads their results (tournaments.tournament_finish), so
    a battle reopened or voided at the same moment is either seen by the ending, which is then refused, or sees
    the tournament ended, and is refused itself. A change of a battle holds its row and only reads the
    tournament; the ending holds the tournament, then the battles: neither waits on the other in a circle."""
    if match.voided:
        return _("An organiser voided this result; the match stays as it was.")
    pairing = tournament_table(match, fresh)
    if pairing and pairing.tournament.finished:
        return _("This battle belongs to %(tournament)s, which has ended: its result is final unless an organiser "
                 "reopens the tournament.") % {"tournament": pairing.tournament.name}
    return ""


def why_not_reopen(match: Match, seen_by: Viewer) -> str:
    """Why this viewer may not reopen the finished match, or ""."""
    # An organiser who plays reopens only as a side, with the other side's agreement from its own phone (a
    # result the other side won, consent.py): on one phone nobody else would say yes.
    seats = match.game.seats
    if match.club_id and seen_by.party and len(seen_by.controls(seats)) in (0, seats):
        return _("You play in this match or its tournament: another organiser of %(club)s reopens it, as its "
                 "referee.") % {
            "club": getattr(match.club, "name", "")}
    if match.club_id and not seen_by.organiser:
        return _("This match counts in %(club)s's results: only an organiser of the club can reopen it.") % {
            "club": getattr(match.club, "name", "")}
    return ""


def reopen_affects(match: Match, step: int) -> list[str]:
    """What reopening the finished match at `step` changes, in the words the confirmation shows."""
    affects = [_("The match is no longer finished, and its result leaves the statistics until it ends again.")]
    pairing = tournament_table(match)
    if match.club_id and pages_for(match.slug).competes and match.rated:
        affects.append(_("Its players' ratings in %(club)s lose this battle until it ends again; it keeps its "
                         "place by the date it first ended.") % {"club": getattr(match.club, "name", "")})
        if match.actions.filter(abandoned=False, secret=True, seq__gt=step).exists():
            affects.append(_("It takes back a hidden entry both players have seen: whoever enters it again knows the "
                             "other side's. Should that happen, no player's own lock-in confirms the battle any more: "
                             "it waits for its players' word."))
    if pairing:
        affects.append(_("It is a battle of %(tournament)s, round %(round)s: the next round cannot be paired, "
                         "nor the tournament ended, until it ends again.") % {"tournament": pairing.tournament.name, "round": pairing.round})
    return affects
