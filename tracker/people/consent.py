"""When one side alone may not change a match, and how the other side agrees.

Three things need the other side's agreement (DESIGN.md, "Who may see and change what"):
- Going back past a revealed secret entry (a Card Crush deck, a LOGOS commit or backup, a
  Cardmaster lineup): whoever saw the other side's entry could otherwise enter a new one.
  Undo of steps that reveal nothing stays a single tap.
- A table action (the engine's `authority` says TABLE: a fight, a declared winner, the end
  of the game) sent from a seated phone. The owner's phone is the table's authority and
  takes these alone.
- A correction (`"override": true`) of the other side's cards sent from a seated phone.

The other side answers on the phone that holds its seat; a seat no phone holds is played on
the owner's phone, which answers for it. In hot-seat (one phone holds every seat) the phone
is passed to the other player, who agrees or refuses on it. Every request is kept as a
`Proposal`, whatever the answer, so the log shows who asked and who agreed.

Every game here has two seats, so a request waits for exactly one seat.
"""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import rules
from tracker.games import pages_for
from tracker.matches import live, services
from tracker.models import Action, Match, Proposal
from tracker.people import locks

from .access import OWNER, PLAYER, Viewer


class Refused(Exception):
    """A request that cannot be made or answered; the message says why. Nothing changed."""


def takes_back_reveal(match: Match, step: int) -> bool:
    """Whether going back to `step` would undo or hide again a secret entry that is revealed now."""
    if step >= match.head:
        return False
    secrets = list(match.actions.filter(abandoned=False, secret=True, seq__lte=match.head).only("seq", "payload"))
    game = match.game
    revealed = [action for action in secrets if game.public_action(match.state, action.payload) == action.payload]
    if not revealed:
        return False
    if any(action.seq > step for action in revealed):
        return True
    before = services.match_replay(match, step)
    return any(game.public_action(before, action.payload) != action.payload for action in revealed)


def needs_agreement(match: Match, seen_by: Viewer, action: dict) -> bool:
    """Whether a seated phone must ask the other side before taking `action` (see the module docstring).

    Raises Refused for another seat's own move, which is never that phone's to take.
    """
    if seen_by.role != PLAYER:
        return False
    whose = match.game.authority(match.state, action)
    if whose in (rules.OPEN, seen_by.seat):
        return False
    if whose == rules.TABLE or action.get("override") is True:
        return True
    raise Refused(_("You can act only for your own seat; nothing was applied."))


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


def pending(match: Match) -> list[Proposal]:
    """Requests still waiting at the current step (one asked at another step has lapsed)."""
    return list(match.proposals.filter(status=Proposal.PENDING, at_seq=match.head))


def _touch(match: Match) -> None:
    """Both phones' live pages refresh to show the request or its answer."""
    Match.objects.filter(pk=match.pk).update(version=match.version + 1)
    live.changed(match.pk)


@transaction.atomic
def propose(*, match_id: int, seen_by: Viewer, expected_seq: int, kind: str, step: int | None = None,
            action: dict | None = None, rolls: list[int] | None = None) -> Proposal:
    """Ask the other side; one open request per match at a time (a new one replaces the asker's old one)."""
    match = Match.objects.select_for_update().get(pk=match_id)
    if match.head != expected_seq:
        raise services.StaleSubmission(match, expected_seq, doubled=False)
    asked_by = asking_seat(match, seen_by)
    if asked_by is None:
        raise Refused(_("Say who asks: in hot-seat the other player agrees on this phone."))
    needs = other_seat(match, asked_by, seen_by)
    if match.proposals.filter(status=Proposal.PENDING, at_seq=match.head, asked_by=needs).exists():
        raise Refused(_("The other player is already asking something; answer that first."))
    match.proposals.filter(status=Proposal.PENDING, asked_by=asked_by).update(status=Proposal.WITHDRAWN,
                                                                              answered=timezone.now())
    proposal = Proposal.objects.create(match=match, kind=kind, step=step, payload=action, rolls=rolls or [],
                                       at_seq=match.head, asked_by=asked_by, needs=needs)
    _touch(match)
    return proposal


def _carry_out(proposal: Proposal) -> Match:
    if proposal.kind == Proposal.GOTO:
        return services.match_goto(match_id=proposal.match_id, step=proposal.step or 0, expected_seq=proposal.at_seq)
    recorded = services.match_apply_action(match_id=proposal.match_id, action=proposal.payload or {},
                                           expected_seq=proposal.at_seq, rolls=proposal.rolls, proposal=proposal)
    return recorded.match


@transaction.atomic
def answer(*, proposal_id: int, match_id: int, seen_by: Viewer, agree: bool) -> Proposal:
    """The other side's answer; agreeing carries the request out at the step it was asked at.

    Raises Refused (not this phone's to answer, or already answered) or RuleError (the engine
    refuses it now; nothing changes). A request whose match moved on comes back LAPSED.
    """
    match = Match.objects.select_for_update().get(pk=match_id)
    proposal = match.proposals.select_for_update().filter(pk=proposal_id).first()
    if proposal is None or proposal.status != Proposal.PENDING:
        raise Refused(_("That request was already answered or withdrawn; nothing was changed."))
    if proposal.needs not in answers_for(match, seen_by):
        raise Refused(_("Only %(name)s can answer this request.") % {"name": match.players()[proposal.needs].name})
    # Voided, or its tournament ended, since it was asked: the result is final now.
    if agree and (locked := locks.why_locked(match)):
        raise Refused(locked)
    return _settle(match, proposal, agree)


def _settle(match: Match, proposal: Proposal, agree: bool) -> Proposal:
    proposal.answered = timezone.now()
    if proposal.at_seq != match.head:  # the match moved on since it was asked: nothing to carry out
        proposal.status = Proposal.LAPSED
        proposal.save(update_fields=["status", "answered"])
        _touch(match)
        return proposal
    if agree:
        proposal.status = Proposal.AGREED
        proposal.save(update_fields=["status", "answered"])
        _carry_out(proposal)
    else:
        proposal.status = Proposal.REFUSED
        proposal.save(update_fields=["status", "answered"])
        _touch(match)
    return proposal


@transaction.atomic
def withdraw(*, proposal_id: int, match_id: int, seen_by: Viewer) -> None:
    match = Match.objects.select_for_update().get(pk=match_id)
    proposal = match.proposals.filter(pk=proposal_id, status=Proposal.PENDING).first()
    if proposal is None:
        raise Refused(_("That request was already answered or withdrawn; nothing was changed."))
    if proposal.asked_by not in seen_by.controls(match.game.seats) or hot_seat(match, seen_by):
        raise Refused(_("Only the player who asked can withdraw the request."))
    proposal.status, proposal.answered = Proposal.WITHDRAWN, timezone.now()
    proposal.save(update_fields=["status", "answered"])
    _touch(match)


@transaction.atomic
def agree_in_hot_seat(*, match_id: int, seen_by: Viewer, expected_seq: int, asked_by: int, agree: bool,
                      kind: str, step: int | None = None, action: dict | None = None,
                      rolls: list[int] | None = None) -> Proposal:
    """One phone, both players: the asker said who they are, the phone was passed, the other answered."""
    match = Match.objects.select_for_update().get(pk=match_id)
    if not hot_seat(match, seen_by):
        raise Refused(_("Each player answers on their own phone here."))
    if match.head != expected_seq:
        raise services.StaleSubmission(match, expected_seq, doubled=False)
    if not 0 <= asked_by < match.game.seats:
        raise Refused(_("Say which player asks."))
    proposal = Proposal.objects.create(match=match, kind=kind, step=step, payload=action, rolls=rolls or [],
                                       at_seq=match.head, asked_by=asked_by,
                                       needs=other_seat(match, asked_by, seen_by))
    return _settle(match, proposal, agree)


def describe(proposal: Proposal, names: list[str]) -> str:
    """What was asked, as the page and the log say it."""
    if proposal.kind == Proposal.GOTO:
        return _("go back to step %(step)s, taking back a revealed entry") % {"step": proposal.step}
    return pages_for(proposal.match.slug).describe_action(proposal.payload or {}, [], names)


def agreement_of(action: Action, names: list[str]) -> str:
    """For the log: who asked for an action taken by agreement, and who agreed."""
    proposal = action.proposal
    if proposal is None:
        return ""
    return _("Asked by %(asker)s, agreed by %(answerer)s.") % {
        "asker": names[proposal.asked_by], "answerer": names[proposal.needs]}
