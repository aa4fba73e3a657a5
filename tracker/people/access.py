"""Who may see and do what. Every view asks here, never the template.

A match is seen through one rule, `Match.objects.visible_to(request)` (tracker/models.py):
its owner, the phones it seated or let watch, the members of its club, and for the table's
own matches (no owner, no club: demo data and scripts) everyone. Nobody else learns it
exists: its pages answer 404, and no list, count or statistic includes it.

Roles in one match, strongest first:
- owner: the device or account that created the match. It acts for every seat no other
  phone holds, and has the table's authority. A table match (demo data, scripts) has no
  owner: only this machine itself (a request from a loopback address: scripts, benchmarks,
  the tests) acts in it; every other phone sees it read-only, so a network-served `serve`
  never lets a passer-by reopen, undo, share or play the demo matches. Behind a proxy the
  address is the one it forwards (TRUSTED_PROXY_COUNT), as for every per-address rule.
- player: a device seated through a join link; it acts for its own seat. What belongs to
  no seat, or to the other seat, it proposes and the other side agrees (consent.py).
- spectator: a watch link, or a member of the match's club.
A club organiser referees the club's matches they play no part in (`Viewer.referee`): reopens, voids,
takes over, moves along the log and takes back links with nobody's agreement. An organiser who plays in
a match is one of its sides like any other player there (a referee cannot also be a side).
"""

import ipaddress
from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING, NoReturn, cast

from django.conf import settings
from django.contrib import auth
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from tracker.matches.match_read import match_read
from tracker.models import Access, Club, Match, Membership, Proposal

from .devices import TableRequest, client_address

if TYPE_CHECKING:
    from django.contrib.auth.models import User

OWNER, PLAYER, SPECTATOR = "owner", "player", "spectator"


@dataclass(frozen=True)
class Viewer:
    """What one request may do in one match."""

    role: str
    seat: int | None = None
    """The seat a seated player holds (None for owners and spectators)."""
    claimed: frozenset[int] = frozenset()
    """Seats held by joined devices; the owner's phone no longer enters for them."""
    organiser: bool = False
    """An organiser of the match's club."""
    party: bool = False
    """This request is a side of the match: its account's player is one of the match's or an entrant of the
    tournament it is a battle of (`Match.sided_with`), or its phone plays a seat while another phone plays
    another."""
    shared: bool = False
    """Another phone has joined or watched the match (its link used, even if revoked since): only then
    can a request wait for the other side (consent.py asks only with a seat on another phone)."""

    @property
    def referee(self) -> bool:
        """An organiser of the match's club who plays no part in it: the club's referee there."""
        return self.organiser and not self.party

    @property
    def can_act(self) -> bool:
        return self.role in (OWNER, PLAYER)

    def can_enter_for(self, seat: int) -> bool:
        """May this device make the secret entry of `seat`?"""
        if self.role == PLAYER:
            return seat == self.seat
        return self.role == OWNER and seat not in self.claimed

    def plays(self, seat: int | None) -> bool:
        """Does this device play `seat` (one of `controls`)? The board offers a seat's controls only where so."""
        if self.role == PLAYER:
            return seat == self.seat
        return self.role == OWNER and seat is not None and seat not in self.claimed

    def controls(self, seats: int) -> frozenset[int]:
        """The seats this device plays: its own seat, or for the owner every seat no other phone holds."""
        if self.role == PLAYER and self.seat is not None:
            return frozenset({self.seat})
        if self.role == OWNER:
            return frozenset(range(seats)) - self.claimed
        return frozenset()


def device_of(request: HttpRequest) -> str:
    return getattr(request, "device", "") or "-"


def signed_in(request: HttpRequest) -> "User | None":
    """The request's account, or None."""
    user = getattr(request, "user", None)
    return cast("User", user) if user is not None and user.is_authenticated else None


def account_of(request: HttpRequest) -> "User":
    """The request's account; 403 for a phone that is not signed in (views that need one say so first)."""
    user = signed_in(request)
    if user is None:
        raise PermissionDenied(_("Sign in first: this needs an account."))
    return user


def table_match(match: Match) -> bool:
    """A match of the whole table: no owner, no club (demo data, matches made by scripts)."""
    return not match.owner_id and not match.owner_device and not match.club_id


def from_this_machine(request: HttpRequest) -> bool:
    """Whether the request comes from the machine that serves the app (a loopback address)."""
    try:
        return ipaddress.ip_address(client_address(request)).is_loopback
    except ValueError:
        return False


def _owns(request: TableRequest, match: Match) -> bool:
    if table_match(match):
        return from_this_machine(request)
    user = signed_in(request)
    if match.owner_id and user is not None and match.owner_id == user.pk:
        return True
    # A match made on a phone without an account belongs to that phone. One made while signed
    # in has no device owner, so signing out of a shared tablet leaves it nothing.
    return bool(match.owner_device) and match.owner_device == device_of(request)


def _mine(request: TableRequest, device: str, user_id: int | None) -> bool:
    """Whether an Access row of that device and account belongs to this request: a place joined while
    signed in is the account's alone (signing out of a shared tablet leaves the tablet nothing of it);
    one joined without an account is the phone's."""
    user = signed_in(request)
    if user_id is not None:
        return user is not None and user_id == user.pk
    return device == device_of(request)


def _match_grants(match: Match, every: bool = False) -> list[tuple]:
    """The match's standing Access rows as (role, seat, device, user id): one query tells both the seats
    joined phones hold and this request's own grants. `every`: revoked ones too, as (..., revoked)."""
    if every:
        return list(match.accesses.values_list("role", "seat", "device", "user_id", "revoked"))
    return list(match.accesses.filter(revoked__isnull=True).values_list("role", "seat", "device", "user_id"))


def _claims(grants: list[tuple]) -> frozenset[int]:
    return frozenset(seat for role, seat, _device, _user in grants if role == Access.PLAYER and seat is not None)


def viewer_claims(match: Match) -> frozenset[int]:
    """Seats held by joined phones."""
    return _claims(_match_grants(match))


def club_role(request: HttpRequest, club: Club | int | None) -> str | None:
    """Membership.ORGANISER, Membership.MEMBER, or None for this request's account in `club`."""
    user = signed_in(request)
    if club is None or user is None:
        return None
    club_id = club if isinstance(club, int) else club.pk
    cache = request.__dict__.setdefault("_club_roles", {})
    if club_id not in cache:
        cache[club_id] = Membership.objects.filter(club_id=club_id, user=user).values_list("role", flat=True).first()
    return cache[club_id]


def forget(request: HttpRequest) -> None:
    """Ask the database again who the request is and about the account's clubs: a stream's request lives on while
    its session ends (signed out, or a password changed on another phone) and memberships change."""
    request.__dict__.pop("_club_roles", None)
    if hasattr(request, "session"):
        request.session = import_module(settings.SESSION_ENGINE).SessionStore(request.session.session_key)
        request.user = auth.get_user(request)


def organises(request: HttpRequest, club: Club | int | None) -> bool:
    return club_role(request, club) == Membership.ORGANISER


def member_now(user, club_id: int, organiser: bool = False) -> bool:
    """Whether the account belongs to the club (as an organiser, with `organiser`) as it stands now, its membership's
    row held until the transaction ends: asked in the transaction that writes what only a member (or an organiser)
    may. Leaving takes that row first (clubs.leave), so a club match made, or taken over, at the same moment is
    either in place before and orphaned with the account's others, or refused: never left to an account outside
    the club, counting. (A page's role, club_role, was read before; this is the one that decides.)"""
    if user is None:
        return False
    held = Membership.objects.select_for_update().filter(club_id=club_id, user=user)
    if organiser:
        held = held.filter(role=Membership.ORGANISER)
    return bool(list(held.values_list("pk", flat=True)))


def referees(request: TableRequest, match: Match) -> bool:
    """Whether this request is the club's referee in the match (`Viewer.referee`): an organiser of its club
    whose account's player is none of the match's and whose phone plays no seat against another phone.
    (Asking the account alone let an organiser playing on her phone under a table name unrate the battle
    and confirm the other side's part.)"""
    seen = viewer(request, match)
    return seen is not None and seen.referee


def my_clubs(request: HttpRequest):
    """The clubs this request's account belongs to."""
    user = signed_in(request)
    return Club.objects.filter(memberships__user=user) if user is not None else Club.objects.none()


def viewer(request: TableRequest, match: Match) -> Viewer | None:
    """This request's rights in `match`, or None when it may not see it.

    The same rule as `Match.objects.visible_to` (owner, a standing seat or watch grant, a club member,
    everyone for the table's own matches), decided from the match row already loaded and the match's
    grants read once, so opening one match needs no second, compiled visibility query.
    tests/tracker/test_access.py checks the two agree.
    """
    read = match.__dict__.pop("grants_read", None)  # read with the match (match_for): once, never kept stale
    every = ([(role, seat, device, user_id, True if revoked else None) for role, seat, device, user_id, revoked in read]
             if read is not None else _match_grants(match, every=True))
    grants = [grant[:4] for grant in every if grant[4] is None]
    claimed = _claims(grants)
    organiser, shared = organises(request, match.club_id), bool(every)
    mine = [(role, seat) for role, seat, device, user_id in grants if _mine(request, device, user_id)]
    # A seat beats a spectator's place (an account may hold both, from two phones).
    seated = [seat for role, seat in mine if role == Access.PLAYER]
    if _owns(request, match):
        role, seat = OWNER, None
    elif seated:
        role, seat = PLAYER, seated[0]
    elif mine or club_role(request, match.club_id) or table_match(match):
        role, seat = SPECTATOR, None
    else:
        return None
    # Whether an organiser plays here is asked only of organisers: for anyone else it changes nothing.
    party = organiser and (role == PLAYER or (role == OWNER and 0 < len(claimed) < match.game.seats)
                           or match.sided_with(signed_in(request)))
    return Viewer(role, seat=seat, claimed=claimed, organiser=organiser, party=party, shared=shared)


def may_see(request: TableRequest, match: Match) -> bool:
    """Whether this request may see `match` (loaded with its owner and club fields): `visible_to`'s rule
    for one match, asking the database only what the row cannot tell."""
    if table_match(match) or _owns(request, match) or (match.club_id and club_role(request, match.club_id)):
        return True
    return any(_mine(request, device, user_id) for _role, _seat, device, user_id in _match_grants(match))


VISIBILITY_FIELDS = ("owner", "owner_device", "club")
"""What `may_see` reads from the match row."""


def visible_match(request: TableRequest, pk: int, only: tuple[str, ...] = ()) -> Match:
    """The match if this request may see it, else 404. `only` loads just those fields (the poll's)."""
    matches = Match.objects.only(*only, *VISIBILITY_FIELDS) if only else Match.objects.all()
    match = get_object_or_404(matches, pk=pk)
    if not may_see(request, match):
        _refuse(request, match)
    return match


def _refuse(request: TableRequest, match: Match) -> NoReturn:
    """404 for a phone that never had a place in the match; a phone whose link was revoked is told why."""
    for device, user_id, invite_id in match.accesses.filter(revoked__isnull=False).values_list(
            "device", "user_id", "invite_id"):
        if _mine(request, device, user_id):
            if match.proposals.filter(kind=Proposal.RELEASE, status=Proposal.AGREED,
                                      payload__invite=invite_id).exists():
                raise PermissionDenied(_("You gave up your seat in this match, so this phone no longer follows it. "
                                         "Ask for a new link to come back."))
            raise PermissionDenied(_("The link that gave this phone its place in this match was revoked, so it no "
                                     "longer follows the match. Ask the match's owner for a new link to come back."))
    raise Http404(_("No such match."))


def match_for(request: TableRequest, pk: int, act: bool = False) -> tuple[Match, Viewer]:
    """The match and the viewer's rights; 404 for outsiders, 403 for a spectator trying to act."""
    # One query: the match, its grants (for `viewer`), its players (Match.players, the winner among them) and, for
    # a page, the step just taken (services.head_action); a change leaves its own step on the match.
    match = match_read(pk, head=not act)
    if match is None:
        raise Http404(_("No such match."))
    seen_by = viewer(request, match)
    if seen_by is None:
        _refuse(request, match)
    if act and not seen_by.can_act:
        raise PermissionDenied(_("Spectators can watch this match but not play in it."))
    return match, seen_by


def entry_player(match: Match, seat: int, seen_by: Viewer):
    """The player of `seat`, if this device may make that seat's secret entry: 404 for no such seat, 403
    for a phone that may not (the entry page, and the card list that shows the seat's collection)."""
    players = match.players()
    if not 0 <= seat < len(players):
        raise Http404(_("No such seat."))
    if not seen_by.can_enter_for(seat):
        raise PermissionDenied(_("Only %(name)s's own phone can make this entry.") % {"name": players[seat].name})
    return players[seat]
