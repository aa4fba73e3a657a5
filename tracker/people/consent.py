"""When one side alone may not change a match, and how the other side agrees.

Once a seat is on a phone of its own, the owner's phone is a seat like any other: whatever decides
the match for both sides needs the other phone's agreement (DESIGN.md, "Who may see and change
what"). From any phone, owner's or seated:
- A table action (the engine's `authority` says TABLE: a fight, a declared winner, a new table
  status, the end of the game), and a correction (`"override": true`) of the other side's cards.
- Going back past a revealed secret entry (a Card Crush deck, a LOGOS commit or backup, a
  Cardmaster lineup): whoever saw the other side's entry could otherwise enter a new one.
- Undoing or redoing the other side's moves or a table action, and reopening a finished match the other side won
  or drew (a draw is their result too; only one's own win is one's own to reopen).
- Going back past a step the app rolled a die for, even one's own: the same step played again rolls
  the same die (the seed and the step number make it), so whoever saw it could play that step as
  whatever the die suits.
- Taking back the other side's seat link once that phone has a say (sharing.invite_revoke).
Moves, corrections and undo of one's own side's steps without dice are one tap; the other phone is
told (news.py).
In hot-seat (one phone holds every seat) the phone is passed to the other player, who agrees or
refuses on it, for a revealed entry; the rest is the table's own business on one phone. A club's
organiser referees the club's matches and needs nobody's agreement.

Every request is checked by the engine before it is stored (a dry run), kept as a `Proposal`
whatever the answer, and the log shows who asked and who agreed. Every game here has two seats,
so a request waits for exactly one seat. It lapses when the match moves on, or when that seat or its asker's
changes hands (`lapse_with_seats`): whoever holds the seat now did not see it asked.
"""

from collections.abc import Iterable

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

import rules
from rules import Dice
from tracker.games import pages_for
from tracker.matches import live, news, services
from tracker.matches.compiled import compiled, of_match
from tracker.models import Access, Action, Invite, Match, Proposal
from tracker.people import locks

from .access import OWNER, PLAYER, Viewer


class Refused(Exception):
    """A request that cannot be made or answered; the message says why. Nothing changed."""


REVEAL, MOVES, TABLE_STEP, REOPEN, DRAWN, DICE = "reveal", "moves", "table", "reopen", "drawn", "dice"
"""Why a move along the log waits for the other phone (kept with the request, which says it)."""


@compiled
def _secrets_up_to(match_id: int, head: int):
    return Action.objects.filter(match_id=match_id, abandoned=False, secret=True, seq__lte=head).only(
        "seq", "payload", "face_down")


def takes_back_reveal(match: Match, step: int) -> bool:
    """Whether going back to `step` would undo or hide again a secret entry the table has seen (`services.seen`:
    revealed once, though an agreed step back may have hidden it in the state again)."""
    if step >= match.head:
        return False
    secrets = _secrets_up_to(match.pk, match.head)
    game = match.game
    revealed = [action for action in secrets if services.seen(action)]
    if not revealed:
        return False
    if any(action.seq > step for action in revealed):
        return True
    before = services.match_replay(match, step)
    return any(game.public_action(before, action.payload) != action.payload for action in revealed)


def _others(match: Match, seen_by: Viewer) -> frozenset[int]:
    """The seats another phone plays (empty in hot-seat, where this phone holds them all)."""
    return frozenset(range(match.game.seats)) - seen_by.controls(match.game.seats)


def needs_agreement(match: Match, seen_by: Viewer, action: dict) -> bool:
    """Whether this phone must ask the other side before taking `action` (see the module docstring).

    Raises Refused for another seat's own move, which is never this phone's to take.
    """
    if not seen_by.can_act or not _others(match, seen_by):
        return False
    whose = match.game.authority(match.state, action)
    if whose == rules.OPEN or whose in seen_by.controls(match.game.seats):
        return False
    if whose == rules.TABLE or action.get("override") is True:
        return True
    raise Refused(_("You can act only for your own seat; nothing was applied."))


def steps_of_others(match: Match, seen_by: Viewer, low: int, high: int) -> str:
    """Whether steps low+1..high hold a move of a seat another phone plays (MOVES) or a table action (TABLE_STEP:
    a fight, a declared winner, a table status, the end of an Evons game, both players' to decide, so both players'
    to take back or redo), else "". The engine's `authority` says whose, as the board stood when the step was made
    (`Action.whose`); open actions belong to nobody. Round 30: read from the board as it stands now, Ben's
    corrections of a unit he had since sent to his discard pile were nobody's, and Ana went back past them alone (a
    flipped Evons card alike); and Ana undid a fight she had agreed to, alone, to call a backup card after all."""
    others = _others(match, seen_by)
    if not others:
        return ""
    game = match.game
    found = ""
    steps = match.actions.filter(abandoned=False, seq__gt=low, seq__lte=high).only("seat", "payload", "whose")
    for action in steps:
        # A step stored before `whose` was kept is judged on the board as it stands (as it was then).
        whose = action.whose if action.whose is not None else game.authority(match.state, action.payload)
        if type(whose) is int and whose in others:
            return MOVES
        if whose == rules.TABLE:
            found = TABLE_STEP
    return found


def takes_back_a_die(match: Match, step: int) -> bool:
    """Whether going back to `step` undoes a step the app rolled a die for. A die comes from the seed and the
    step's number, so the same step played again rolls the same: having seen it, a player could undo their own
    roll and play that step as whatever the die suits (a crit on demand)."""
    if step >= match.head:
        return False
    undone = match.actions.filter(abandoned=False, seq__gt=step, seq__lte=match.head).exclude(rolls=[])
    return any(roll.get("by") != "player" for rolls in undone.values_list("rolls", flat=True) for roll in rolls)




def goto_needs_agreement(match: Match, seen_by: Viewer, step: int) -> str:
    """Why moving this match to `step` from this phone waits for the other phone ("" when it does not):
    it takes back a revealed entry, undoes or redoes the other side's moves or a table action, takes back a die the app
    rolled, or reopens a match the other side won or drew. A club's organiser, refereeing without a seat, needs
    nobody's agreement."""
    if not seen_by.can_act or not _others(match, seen_by):
        return ""
    if takes_back_reveal(match, step):
        return REVEAL
    if why := steps_of_others(match, seen_by, min(step, match.head), max(step, match.head)):
        return why
    if takes_back_a_die(match, step):
        return DICE
    if match.finished is not None and step < match.head:
        # A result that is not this side's own win is the other side's too: a draw as much as their win (round 32:
        # Ana resigned into a draw with her own step, took it back alone and played on for a win).
        seats = [player.pk for player in match.players()]
        if match.winner_id not in seats:
            return DRAWN
        if seats.index(match.winner_id) in _others(match, seen_by):
            return REOPEN
    return ""


def has_say(match: Match, invite: Invite) -> bool:
    """Whether the phone a seat link seated has a say: the match moved on since it joined, or a request
    involves its seat. Its link is then taken back only with its agreement."""
    if invite.kind != Invite.SEAT or invite.seat is None:
        return False
    held = Access.objects.filter(invite=invite, role=Access.PLAYER, revoked__isnull=True).order_by("created").first()
    return held is not None and seat_has_say(match, held)


def seat_has_say(match: Match, held: Access) -> bool:
    """Whether the phone holding a seat by `held` (a link's, or a club member's who opened the battle) has a say:
    the match moved since it took the seat (a step, or a move along the log: `Match.updated` moves with every step
    and every undo, redo or reopening, and with nothing else), or a request involves its seat. Round 34: counting
    new steps alone, Ben's phone that joined after the last step and undid his own move (or reopened his own win)
    had no say, and the owner took his link back alone and held both seats again."""
    return (Match.objects.filter(pk=match.pk, updated__gte=held.created).exists()
            or match.proposals.filter(Q(asked_by=held.seat) | Q(needs=held.seat), created__gte=held.created)
            .exists())


def other_seat(match: Match, seat: int | None, seen_by: Viewer) -> int:
    """The seat whose agreement a request from `seat` waits for."""
    others = [s for s in range(match.game.seats) if s != seat]
    if len(others) != 1:
        raise Refused(_("Both seats are on phones of their own: one of the players asks from their phone."))
    return others[0]


def asking_seat(match: Match, seen_by: Viewer) -> int | None:
    """The seat a request comes from: a seated phone's own, or the one seat the owner's phone still plays."""
    if seen_by.role == PLAYER:
        return seen_by.seat
    mine = seen_by.controls(match.game.seats)
    if len(mine) == 1:
        return next(iter(mine))
    if not mine:
        raise Refused(_("Both seats are on phones of their own: one of the players asks from their phone."))
    return None  # hot-seat: the players say who asks (pass_phone_agreement)


def hot_seat(match: Match, seen_by: Viewer) -> bool:
    """This phone holds every seat: agreement is given by passing it to the other player."""
    return seen_by.role == OWNER and len(seen_by.controls(match.game.seats)) == match.game.seats


def answers_for(match: Match, seen_by: Viewer) -> frozenset[int]:
    """The seats whose pending requests this phone answers (not in hot-seat, which answers by passing)."""
    if hot_seat(match, seen_by):
        return frozenset()
    return seen_by.controls(match.game.seats)


@compiled
def _waiting(match_id: int, head: int):
    return Proposal.objects.filter(match_id=match_id, status=Proposal.PENDING, at_seq=head)


def pending(match: Match) -> list[Proposal]:
    """Requests still waiting at the current step (one asked at another step has lapsed)."""
    return of_match(_waiting(match.pk, match.head), match)


def lapse_with_seats(match_id: int, seats: Iterable[int] | None = None) -> list[int]:
    """A request lapses when a seat it involves changes hands: the seat it awaits, or its asker's (as it lapses when
    the match moves on). The one rule, kept in the request's status (RESEATED) in the transaction that changes who
    sits where, so every page, the push and an answer read it alike: wherever a seat is taken by a link or by a
    member's open, given up or taken back, or the owner's phone changes hands (`seats` None: the seats no other phone
    holds, and the requests it asked playing none). Found after round 34: Ben gave his seat back to the owner's phone, which was
    then offered Ana's request to Ben to agree to, for a player who never saw it. The ids lapsed, for the news."""
    waiting = Proposal.objects.filter(match_id=match_id, status=Proposal.PENDING, at_seq=F("match__head"))
    if seats is None:
        held = Access.objects.filter(match_id=match_id, role=Access.PLAYER, revoked__isnull=True, seat__isnull=False)
        every = range(Match.objects.only("slug", "rules_version").get(pk=match_id).game.seats)
        seats = set(every) - set(held.values_list("seat", flat=True))
        waiting = waiting.filter(Q(asked_by__in=seats) | Q(needs__in=seats) | Q(asked_by__isnull=True))
    else:
        waiting = waiting.filter(Q(asked_by__in=seats) | Q(needs__in=seats))
    lapsed = list(waiting.values_list("pk", flat=True))
    Proposal.objects.filter(pk__in=lapsed).update(status=Proposal.RESEATED, answered=timezone.now())
    return lapsed


def _touch(match: Match, kind: str, made_by: news.By | None, proposal: Proposal, lapsed: list[int] | None = None) -> None:
    """Both phones' live pages refresh to show the request or its answer, and the other phone is told (and of the
    requests that lapsed as a release carried out changed who sits where)."""
    # Carrying a request out saved the match meanwhile: the news is of the version after it.
    match.version = Match.objects.values_list("version", flat=True).get(pk=match.pk)
    news.record(match, kind, made_by, proposal=proposal.pk, **({"lapsed": lapsed} if lapsed else {}))
    Match.objects.filter(pk=match.pk).update(version=F("version") + 1, news=match.news)
    live.changed(match.pk)


def _dry_run(match: Match, action: dict, rolls: list[int] | None) -> list[dict]:
    """What the action would do now: the engine's events, or its RuleError (nothing is stored then)."""
    if not isinstance(action, dict) or not action.get("type"):
        raise Refused(_("Say which action to take; nothing was asked."))
    _state, events = match.game.apply(match.state, action, Dice(match.seed, match.head + 1, rolls))
    return events


def _ask(match: Match, asked_by: int | None, needs: int, **fields) -> Proposal:
    """The request, replacing the asker's own open one; refused while the other side is asking.

    The owner's phone playing no seat (`asked_by` None: it asks only releases) is neither side: it replaces
    only its own open request of the same seat, and leaves the seats' requests as they are."""
    if asked_by is None:
        mine = match.proposals.filter(asked_by__isnull=True, needs=needs)
    elif match.proposals.filter(status=Proposal.PENDING, at_seq=match.head, asked_by=needs).exists():
        raise Refused(_("The other player is already asking something; answer that first."))
    else:
        mine = match.proposals.filter(asked_by=asked_by)
    mine.filter(status=Proposal.PENDING).update(status=Proposal.WITHDRAWN, answered=timezone.now())
    return Proposal.objects.create(match=match, at_seq=match.head, asked_by=asked_by, needs=needs, **fields)


@transaction.atomic
def propose(*, match_id: int, seen_by: Viewer, expected_seq: int, kind: str, step: int | None = None,
            action: dict | None = None, rolls: list[int] | None = None, made_by: news.By | None = None) -> Proposal:
    """Ask the other side; one open request per match at a time (a new one replaces the asker's old one).

    An action the engine refuses now is refused here (RuleError, or Refused for no action at all), so a
    request always describes something that can be carried out.
    """
    match = Match.objects.select_for_update().get(pk=match_id)
    if not services.stands_at(match, expected_seq):
        raise services.StaleSubmission(match, expected_seq, doubled=False)
    asked_by = asking_seat(match, seen_by)
    if asked_by is None:
        raise Refused(_("Say who asks: in hot-seat the other player agrees on this phone."))
    events = _dry_run(match, action or {}, rolls) if kind == Proposal.ACTION else []
    proposal = _ask(match, asked_by, other_seat(match, asked_by, seen_by), kind=kind, step=step, payload=action,
                    rolls=rolls or [], events=events)
    _touch(match, news.ASKED, made_by, proposal)
    return proposal


@transaction.atomic
def ask_release(*, match: Match, seen_by: Viewer, invite: Invite, made_by: news.By | None = None) -> Proposal:
    """Ask the phone on `invite`'s seat to give it up; its link is revoked once it agrees. Asked by the other
    seat when the owner's phone plays it, else by the owner's phone itself (round 34: filed in the other seat's
    name, it read "Ana asks" though Ana never asked, withdrew Ana's own request, and was Ana's to withdraw)."""
    match = Match.objects.select_for_update().get(pk=match.pk)
    other = other_seat(match, invite.seat, seen_by)
    proposal = _ask(match, other if other in seen_by.controls(match.game.seats) else None, invite.seat or 0,
                    kind=Proposal.RELEASE, payload={"invite": invite.pk})
    _touch(match, news.ASKED, made_by, proposal)
    return proposal


def _carry_out(proposal: Proposal) -> list[int]:
    """Do what was agreed; the requests that lapsed with it (a release: the seat changed hands)."""
    if proposal.kind == Proposal.GOTO:
        services.match_goto(match_id=proposal.match_id, step=proposal.step or 0, expected_seq=proposal.at_seq)
    elif proposal.kind == Proposal.RELEASE:
        from .sharing import revoke  # the links' page builds on these requests

        invite = Invite.objects.filter(pk=(proposal.payload or {}).get("invite") or 0, match_id=proposal.match_id).first()
        if invite is not None:
            return revoke(invite)
    else:
        services.match_apply_action(match_id=proposal.match_id, action=proposal.payload or {},
                                    expected_seq=proposal.at_seq, rolls=proposal.rolls, proposal=proposal)
    return []


def _still_waiting(proposal: Proposal | None) -> Proposal:
    """The request, refused saying why unless it still waits for an answer."""
    if proposal is not None and proposal.status == Proposal.RESEATED:
        raise Refused(_("That request lapsed: a seat it involves changed hands since it was asked. Nothing was changed."))
    if proposal is None or proposal.status != Proposal.PENDING:
        raise Refused(_("That request was already answered or withdrawn; nothing was changed."))
    return proposal


@transaction.atomic
def answer(*, proposal_id: int, match_id: int, seen_by: Viewer, agree: bool,
           made_by: news.By | None = None) -> Proposal:
    """The other side's answer; agreeing carries the request out at the step it was asked at.

    Raises Refused (not this phone's to answer, or already answered) or RuleError (the engine
    refuses it now; nothing changes). A request whose match moved on comes back LAPSED.
    """
    match = Match.objects.select_for_update().get(pk=match_id)
    proposal = _still_waiting(match.proposals.select_for_update().filter(pk=proposal_id).first())
    if proposal.needs not in answers_for(match, seen_by):
        raise Refused(_("Only %(name)s can answer this request.") % {"name": match.players()[proposal.needs].name})
    # Voided, or its tournament ended, since it was asked: the result is final now.
    if agree and (locked := locks.why_locked(match)):
        raise Refused(locked)
    return _settle(match, proposal, agree, made_by)


def _settle(match: Match, proposal: Proposal, agree: bool, made_by: news.By | None = None) -> Proposal:
    proposal.answered, lapsed = timezone.now(), []
    if proposal.at_seq != match.head:  # the match moved on since it was asked: nothing to carry out
        proposal.status = Proposal.LAPSED
    elif agree:
        proposal.status = Proposal.AGREED
        proposal.save(update_fields=["status", "answered"])
        lapsed = _carry_out(proposal)
    else:
        proposal.status = Proposal.REFUSED
    proposal.save(update_fields=["status", "answered"])
    _touch(match, news.RELEASED if agree and proposal.kind == Proposal.RELEASE else news.ANSWERED, made_by, proposal,
           lapsed)
    return proposal


def may_withdraw(match: Match, seen_by: Viewer, proposal: Proposal) -> bool:
    """Whether this phone asked `proposal`: it plays the asking seat (not in hot-seat, which answers by passing), or
    it is the owner's, for a release it asked playing no seat."""
    if proposal.asked_by is None:
        return seen_by.role == OWNER
    return proposal.asked_by in seen_by.controls(match.game.seats) and not hot_seat(match, seen_by)


@transaction.atomic
def withdraw(*, proposal_id: int, match_id: int, seen_by: Viewer, made_by: news.By | None = None) -> None:
    match = Match.objects.select_for_update().get(pk=match_id)
    proposal = _still_waiting(match.proposals.filter(pk=proposal_id).first())
    if not may_withdraw(match, seen_by, proposal):
        raise Refused(_("Only the player who asked can withdraw the request."))
    proposal.status, proposal.answered = Proposal.WITHDRAWN, timezone.now()
    proposal.save(update_fields=["status", "answered"])
    _touch(match, news.ANSWERED, made_by, proposal)


@transaction.atomic
def agree_in_hot_seat(*, match_id: int, seen_by: Viewer, expected_seq: int, asked_by: int, agree: bool,
                      kind: str, step: int | None = None, action: dict | None = None,
                      rolls: list[int] | None = None) -> Proposal:
    """One phone, both players: the asker said who they are, the phone was passed, the other answered."""
    match = Match.objects.select_for_update().get(pk=match_id)
    if not hot_seat(match, seen_by):
        raise Refused(_("Each player answers on their own phone here."))
    if not services.stands_at(match, expected_seq):
        raise services.StaleSubmission(match, expected_seq, doubled=False)
    if not 0 <= asked_by < match.game.seats:
        raise Refused(_("Say which player asks."))
    proposal = Proposal.objects.create(match=match, kind=kind, step=step, payload=action, rolls=rolls or [],
                                       at_seq=match.head, asked_by=asked_by,
                                       needs=other_seat(match, asked_by, seen_by))
    return _settle(match, proposal, agree)


def describe(proposal: Proposal, names: list[str]) -> str:
    """What was asked, as the page and the log say it: always after a colon ("Ana asks: …", "Ana asked: …").

    An action's is the engine's log title, a sentence or title of its own with its capital ("The table declares Ana
    the winner"; German's nouns keep theirs), so no sentence runs on into it ("Ana asked to The table…" did); a
    colon lets each language write what follows as it would (a lower-case fragment, "go back to step 3", or a
    whole sentence, capitalised in German: "Das Handy von Ben gibt den Platz ab")."""
    if proposal.kind == Proposal.GOTO:
        why = (proposal.payload or {}).get("why", REVEAL)
        if why == MOVES:
            return _("move to step %(step)s, taking back or redoing %(name)s's moves") % {
                "step": proposal.step, "name": names[proposal.needs]}
        if why == TABLE_STEP:
            return _("move to step %(step)s, taking back or redoing a step that is both players' to decide") % {
                "step": proposal.step}
        if why == DICE:
            return _("go back to step %(step)s, taking back a die the app rolled") % {"step": proposal.step}
        if why == DRAWN:
            return _("go back to step %(step)s, reopening the drawn match") % {"step": proposal.step}
        if why == REOPEN:
            return _("go back to step %(step)s, reopening the match %(name)s won") % {
                "step": proposal.step, "name": names[proposal.needs]}
        return _("go back to step %(step)s, taking back a revealed entry") % {"step": proposal.step}
    if proposal.kind == Proposal.RELEASE:
        return _("%(name)s's phone gives up the seat (its link is revoked)") % {"name": names[proposal.needs]}
    return pages_for(proposal.match.slug).describe_action(proposal.payload or {}, proposal.events, names)


def asker(proposal: Proposal, names: list[str]) -> str:
    """Who asked, as the pages name them: the asking seat's player; for a release the owner's phone asked playing
    no seat, the owner's account as news names one, or "" (the pages say "the phone that set up the match")."""
    if proposal.asked_by is not None:
        return names[proposal.asked_by]
    return news.named(proposal.match.owner)


def asks(proposal: Proposal, names: list[str], what: str) -> str:
    """"Ana asks: …", as the news and the live push say a request waiting."""
    if who := asker(proposal, names):
        return _("%(asker)s asks: %(what)s.") % {"asker": who, "what": what}
    return _("The phone that set up the match asks: %(what)s.") % {"what": what}


def lapsed(proposal: Proposal, names: list[str]) -> str:
    """"Ana's request lapsed, …", as the news of a change of seats says a request it made lapse (lapse_with_seats)."""
    what = describe(proposal, names)
    if who := asker(proposal, names):
        return _("%(asker)s's request lapsed, as a seat changed hands: %(what)s.") % {"asker": who, "what": what}
    return _("The request of the phone that set up the match lapsed, as a seat changed hands: %(what)s.") % {
        "what": what}


def agreement_of(action: Action, names: list[str]) -> str:
    """For the log: who asked for an action taken by agreement, and who agreed."""
    proposal = action.proposal
    if proposal is None:
        return ""
    return _("Asked by %(asker)s, agreed by %(answerer)s.") % {
        "asker": asker(proposal, names) or _("the phone that set up the match"), "answerer": names[proposal.needs]}
