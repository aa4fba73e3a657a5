"""The newest change to a match and who made it: what the other phones are told.

Once the seats are on phones of their own, nothing happens at the table behind anyone's back:
every change (an action, a correction, an undo or redo, a reopen, a request and its answer) leaves
`Match.news`, and every other phone's page says it as its newest message, naming who did it. It is
written in the same save as the change, so it always describes the board the page shows.

`record` (what changed, by whom) is kept as plain facts; `said` turns them into the sentence when a
page is drawn, in the reader's language and from the log as anyone at the table may see it. This is
the one place the sentence is built: the page, the live poll's refresh and any pushed update use it.
"""

import re
from dataclasses import dataclass

from django.utils.translation import gettext as _

from tracker.models import Match, Proposal

ACTION, GOTO, ASKED, ANSWERED, RELEASED = "action", "goto", "asked", "answered", "released"


@dataclass(frozen=True)
class By:
    """Who made a change: the player's name as the other phones read it, and the seats that phone plays
    (its own change is not news to a phone that plays the same seats)."""

    who: str
    seats: tuple[int, ...] = ()


def by(request, match: Match, seen_by) -> By:
    """The phone behind `request`, as news names it: its seat's player, else the account, else the host."""
    from tracker.people import access  # who may act is decided there, above the match

    seats = tuple(sorted(seen_by.controls(match.game.seats))) if seen_by is not None else ()
    players = match.players()
    if len(seats) == 1:
        return By(players[seats[0]].name, seats)
    user = access.signed_in(request)
    player = getattr(user, "player", None) if user is not None else None
    if player is not None:
        return By(player.name, seats)
    if user is not None:
        return By(user.get_username(), seats)
    return By(_("the phone that set up the match"), seats)


def record(match: Match, kind: str, made_by: By | None, **facts) -> None:
    """Set what just changed on `match` (in memory: the caller saves it with the change, which moves
    `match.version` on by one). A change nobody at the table made (a script, the Showdown AI answering)
    leaves no news."""
    match.news = {"kind": kind, "who": made_by.who, "seats": list(made_by.seats), "version": match.version + 1,
                  **facts} if made_by else {}


def said(match: Match, seen_by, newest=None) -> str:
    """The newest change as this viewer's page says it; "" when there is none, or it was this phone's own.
    `seen_by` None: as any phone of the match is told it (the live push, tracker/matches/live.py), which
    has read the match's newest action already (`newest`): the news of an action is most often of that one.

    News is of the version its change made: once another write moved the match on without news of its
    own (an organiser's void, a confirmation, a link revoked), it is no longer the newest change."""
    news = match.news or {}
    if not news or news.get("version", match.version) != match.version or (
            news.get("seats") and seen_by is not None and sorted(seen_by.controls(match.game.seats)) == news["seats"]):
        return ""
    who, kind = news["who"], news["kind"]
    if kind == ACTION:
        return _action(match, who, news["number"], newest)
    if kind == GOTO:
        verb = _("%(who)s went back from step %(from)s to step %(to)s.") if news["to"] < news["from"] else \
            _("%(who)s went forward from step %(from)s to step %(to)s.")
        said = verb % {"who": who, "from": news["from"], "to": news["to"]}
        if news.get("reopened"):
            said += " " + _("The match is open again.")
        return said
    proposal = match.proposals.filter(pk=news.get("proposal") or 0).first()
    if proposal is None:
        return ""
    from tracker.people.consent import describe  # consent builds on the match

    what = describe(proposal, [player.name for player in match.players()])
    if kind == ASKED:
        sentence = _("%(who)s asks: %(what)s.")
    elif kind == RELEASED:
        sentence = _("%(who)s gave up the seat: %(what)s.")
    else:
        sentence = {Proposal.AGREED: _("%(who)s agreed: %(what)s."),
                    Proposal.REFUSED: _("%(who)s refused: %(what)s."),
                    Proposal.WITHDRAWN: _("%(who)s withdrew the request: %(what)s."),
                    Proposal.LAPSED: _("%(who)s answered, but the match had moved on: %(what)s.")
                    }.get(proposal.status, _("%(who)s answered: %(what)s."))
    said = sentence % {"who": who, "what": what}
    if kind == ANSWERED and proposal.status == Proposal.AGREED and proposal.kind == Proposal.ACTION:
        # The phone that asked is told what its request did once carried out (a LOGOS fight's damage), as the
        # phone that agreed is shown it in its box.
        from tracker.matches.outcome import step_said
        from tracker.review.log import log_entries  # review builds on the match pages

        done = match.actions.filter(abandoned=False, seq=proposal.at_seq + 1).first()
        if done is not None:
            said = " ".join([said, *step_said(match, log_entries(match, [done])[0])["lines"]])
    return said


def _action(match: Match, who: str, number: int, newest=None) -> str:
    """An action as the log shows it to anyone at the table; a correction with every value it changed."""
    from tracker.matches.outcome import to_act_on
    from tracker.review.log import log_entries  # review builds on the match pages

    action = newest if newest is not None and newest.number == number else match.actions.filter(number=number).first()
    if action is None:
        return ""
    entry = log_entries(match, [action])[0]
    if entry["override"]:
        return _("%(who)s corrected: %(what)s") % {"who": who, "what": " ".join(entry["lines"]) or entry["what"]}
    if re.match(rf"{re.escape(who)}\b", entry["what"]):  # "Ben locks in…" names the actor already: once is enough
        return " ".join([f"{entry['what']}.", *to_act_on(match, entry)])
    return " ".join([_("%(who)s: %(what)s.") % {"who": who, "what": entry["what"]}, *to_act_on(match, entry)])

