"""The newest change to a match and who made it: what the other phones are told.

Once the seats are on phones of their own, nothing happens at the table behind anyone's back:
every change (an action, a correction, an undo or redo, a reopen, a request and its answer) leaves
`Match.news`, and every other phone's page says it as its newest message, naming who did it. It is
written in the same save as the change, so it always describes the board the page shows.

`record` (what changed, by whom) is kept as plain facts; `said` turns them into the sentence when a
page is drawn, in the reader's language and from the log as anyone at the table may see it. This is
the one place the sentence is built: the page, the live poll's refresh and any pushed update use it.
"""

import functools
import re
from dataclasses import dataclass

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from tracker.matches.compiled import compiled, of_match
from tracker.models import Action, Match, Proposal

ACTION, GOTO, ASKED, ANSWERED, RELEASED = "action", "goto", "asked", "answered", "released"
# Changes of who sits where and of the result's standing, told by `tell` (no log entry, no request behind them).
JOINED, SEAT_ENDED, LINK_REVOKED, CONFIRMED, VOIDED, RATED, UNOWNED, TAKEN_OVER = (
    "joined", "seat_ended", "link_revoked", "confirmed", "voided", "rated", "unowned", "taken_over")


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
    # No name: the phone that set up the match, said by `said` in the reader's language (as a sentence's subject).
    return By(named(access.signed_in(request)), seats)


def record(match: Match, kind: str, made_by: By | None, **facts) -> None:
    """Set what just changed on `match` (in memory: the caller saves it with the change, which moves
    `match.version` on by one). A change nobody at the table made (a script, the Showdown AI answering)
    leaves no news."""
    match.news = {"kind": kind, "who": made_by.who, "seats": list(made_by.seats), "version": match.version + 1,
                  **facts} if made_by else {}


def named(user) -> str:
    """An account as news names it: its player's name, else its login; "" for no account."""
    if user is None:
        return ""
    player = getattr(user, "player", None)
    return player.name if player is not None else user.get_username()


def carry_on(match_id: int, told: dict, version: int) -> None:
    """A write that follows a change in the same request (a player's own lock-in confirming her seat) moved the
    version on past the news `told` of `version`: the news stays that change's, now of the new version."""
    if told and told.get("version") == version:
        Match.objects.filter(pk=match_id, version=version + 1).update(news={**told, "version": version + 1})


def tell(match_id: int, kind: str, who: str = "", seats: tuple[int, ...] = (), lapsed: list[int] | None = None,
         **facts) -> None:
    """News of a change that an update just made, moving the match's version on (`live.changed`'s callers that
    change who sits where or what the result counts for), in the same transaction: the version that update made
    is the news's, so the next change, which makes its own news or none, ends it. `lapsed`: the requests that lapsed
    as a seat changed hands (consent.lapse_with_seats), said after the change."""
    if lapsed:
        facts["lapsed"] = lapsed
    version = Match.objects.filter(pk=match_id).values_list("version", flat=True).first()
    if version is not None:
        Match.objects.filter(pk=match_id, version=version).update(
            news={"kind": kind, "who": who, "seats": list(seats), "version": version, **facts})


def _told(match: Match, news: dict) -> str:
    """A change of seats or of the result's standing (`tell`), as any phone of the match may read it."""
    kind, who = news["kind"], news["who"]
    seat = news.get("seat")
    players = match.players()
    player = players[seat].name if isinstance(seat, int) and 0 <= seat < len(players) else ""
    if kind == JOINED and player:
        if who and who != player:
            return _("%(who)s joined as %(player)s, on a phone of their own.") % {"who": who, "player": player}
        return _("%(player)s joined on a phone of their own.") % {"player": player}
    if kind == JOINED:
        return _("%(who)s is watching the match now.") % {"who": who} if who else _("Another phone is watching the match now.")
    if kind == SEAT_ENDED and player:
        return _("%(player)s's seat is back on the phone that set up the match.") % {"player": player}
    if kind in (SEAT_ENDED, LINK_REVOKED):
        return _("A link to this match was revoked.")
    if kind == CONFIRMED:
        said = _("%(who)s confirmed the result for %(player)s.") % {"who": who, "player": player} if who != player \
            else _("%(player)s confirmed the result.") % {"player": player}
        return said + (" " + _("Every player has confirmed: the battle counts.") if news.get("all") else "")
    if kind == VOIDED:
        return _("%(who)s voided the result: it counts nowhere.") % {"who": who}
    if kind == RATED:
        return (_("%(who)s made this battle count toward ratings.") if news.get("rated")
                else _("%(who)s made this battle count toward no ratings.")) % {"who": who}
    if kind == UNOWNED:
        return _("%(who)s left the club: this match counts nowhere until an organiser takes it over.") % {"who": who}
    if kind == TAKEN_OVER:
        return _("%(who)s took this match over: it counts in the club again.") % {"who": who}
    return ""


def said(match: Match, seen_by, newest=None) -> str:
    """The newest change as this viewer's page says it; "" when there is none, or it was this phone's own.
    `seen_by` None: as any phone of the match is told it (the live push, tracker/matches/live.py), which
    has read the match's newest action already (`newest`): the news of an action is most often of that one.

    News is of the version its change made: once another write moved the match on without news of its
    own (a script's step, the Showdown AI), it is no longer the newest change. A join, a seat or a link ended, a
    confirmation, a void, a rating changed, a match left or taken over tell theirs (`tell`)."""
    news = match.news or {}
    if not news or news.get("version", match.version) != match.version or (
            news.get("seats") and seen_by is not None and sorted(seen_by.controls(match.game.seats)) == news["seats"]):
        return ""
    told = _said(match, news, newest)
    if told and news.get("lapsed"):  # a change of who sits where: the requests it made lapse, said after it
        from tracker.people.consent import lapsed  # consent builds on the match

        names = [player.name for player in match.players()]
        told = " ".join([told, *(lapsed(proposal, names) for proposal in match.proposals.filter(pk__in=news["lapsed"]))])
    return told


@functools.cache
def _unnamed() -> frozenset[str]:
    """How news kept before the reader's language said it named the phone that set up the match: in the language of
    the phone that made the change, lower-case."""
    said = set()
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            said.add(_("the phone that set up the match"))
    return frozenset(said)


def _by(who: str, named: str, unnamed: str, **values) -> str:
    """A sentence naming who made a change: `named` with their name, or, for the phone that set up the match when it
    has no name (no account, playing no seat or every seat), `unnamed`, the sentence of its own that each language
    words with that phone as its subject (German's needs its commas), capitalised as every other."""
    return named % {"who": who, **values} if who else unnamed % values


def _said(match: Match, news: dict, newest=None) -> str:
    who, kind = news["who"], news["kind"]
    if kind in (JOINED, SEAT_ENDED, LINK_REVOKED, CONFIRMED, VOIDED, RATED, UNOWNED, TAKEN_OVER):
        return _told(match, news)
    if who in _unnamed():
        who = ""
    if kind == ACTION:
        return _action(match, who, news["number"], newest)
    if kind == GOTO:
        values = {"from": news["from"], "to": news["to"]}
        said = _by(who, _("%(who)s went back from step %(from)s to step %(to)s."),
                   _("The phone that set up the match went back from step %(from)s to step %(to)s."), **values) \
            if news["to"] < news["from"] else \
            _by(who, _("%(who)s went forward from step %(from)s to step %(to)s."),
                _("The phone that set up the match went forward from step %(from)s to step %(to)s."), **values)
        if news.get("reopened"):
            said += " " + _("The match is open again.")
        return said
    proposal = match.proposals.filter(pk=news.get("proposal") or 0).first()
    if proposal is None:
        return ""
    from tracker.people.consent import asks, describe  # consent builds on the match

    names = [player.name for player in match.players()]
    what = describe(proposal, names)
    if kind == ASKED and proposal.asked_by is None:  # the owner's phone, playing no seat: named as the pages name it
        return asks(proposal, names, what)
    if kind == ASKED:
        said = _by(who, _("%(who)s asks: %(what)s."), _("The phone that set up the match asks: %(what)s."), what=what)
    elif kind == RELEASED:  # made by the seat's own phone, which a name says
        said = _("%(who)s gave up the seat: %(what)s.") % {"who": who, "what": what}
    else:
        named, unnamed = {
            Proposal.AGREED: (_("%(who)s agreed: %(what)s."), _("The phone that set up the match agreed: %(what)s.")),
            Proposal.REFUSED: (_("%(who)s refused: %(what)s."), _("The phone that set up the match refused: %(what)s.")),
            Proposal.WITHDRAWN: (_("%(who)s withdrew the request: %(what)s."),
                                 _("The phone that set up the match withdrew the request: %(what)s.")),
            Proposal.LAPSED: (_("%(who)s answered, but the match had moved on: %(what)s."),
                              _("The phone that set up the match answered, but the match had moved on: %(what)s.")),
        }.get(proposal.status, (_("%(who)s answered: %(what)s."), _("The phone that set up the match answered: %(what)s.")))
        said = _by(who, named, unnamed, what=what)
    if kind == ANSWERED and proposal.status == Proposal.AGREED and proposal.kind == Proposal.ACTION:
        # The phone that asked is told what its request did once carried out (a LOGOS fight's damage), as the
        # phone that agreed is shown it in its box.
        from tracker.matches.outcome import step_said
        from tracker.review.log import log_entries  # review builds on the match pages

        done = match.actions.filter(abandoned=False, seq=proposal.at_seq + 1).first()
        if done is not None:
            said = " ".join([said, *step_said(match, log_entries(match, [done])[0])["lines"]])
    return said


@compiled
def _action_numbered(match_id: int, number: int):
    return Action.objects.filter(match_id=match_id, number=number)


def numbered(match: Match, number: int):
    """The match's action `number`: most often the one that made its current step, which a page's read of the match
    carries (no query, where Django's queryset took a fifth of the other phone's part to build), else read. The
    streams' read of a change asks it for the newest (`live.read_change`)."""
    from tracker.matches.services import head_action  # services records news

    head = head_action(match, ask=False)
    if head is not None and head.number == number:
        return head
    return next(iter(of_match(_action_numbered(match.pk, number), match)), None)


def _action(match: Match, who: str, number: int, newest=None) -> str:
    """An action as the log shows it to anyone at the table; a correction with every value it changed."""
    from tracker.matches.outcome import to_act_on
    from tracker.review.log import log_entries  # review builds on the match pages

    action = newest if newest is not None and newest.number == number else numbered(match, number)
    if action is None:
        return ""
    entry = log_entries(match, [action])[0]
    if entry["override"]:
        return _by(who, _("%(who)s corrected: %(what)s"), _("The phone that set up the match corrected: %(what)s"),
                   what=" ".join(entry["lines"]) or entry["what"])
    # "Ben locks in…" or "Round 1: Ben commits…" (a clause led by the actor) names them already: once is enough.
    if who and re.search(rf"(?:^|: ){re.escape(who)}\b", entry["what"]):
        return " ".join([f"{entry['what']}.", *to_act_on(match, entry)])
    return " ".join([_by(who, _("%(who)s: %(what)s."), _("The phone that set up the match: %(what)s."), what=entry["what"]),
                     *to_act_on(match, entry)])

