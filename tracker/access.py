"""Who may see and do what in a match. Every match view asks here, never the template.

Roles, strongest first:
- owner: the device (or account) that created the match. A match with no owner belongs to
  the table, and everyone is its owner (demo data, scripted matches).
- player: a device seated through a join link; acts only for its own seat.
- spectator: joined through a watch link, or anyone for a match its owner shared.
- nobody: gets 404, not 403, so a private match's existence does not leak.
"""

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied  # noqa: F401  (re-exported for views)
from django.db.models import Q
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from .devices import TableRequest
from .models import Access, Match

OWNER, PLAYER, SPECTATOR = "owner", "player", "spectator"


@dataclass(frozen=True)
class Viewer:
    """What one request may do in one match."""

    role: str
    seat: int | None = None
    """The seat a seated player holds (None for owners and spectators)."""
    claimed: frozenset[int] = frozenset()
    """Seats held by joined devices; the owner's phone no longer enters for them."""

    @property
    def can_act(self) -> bool:
        return self.role in (OWNER, PLAYER)

    def can_enter_for(self, seat: int) -> bool:
        """May this device make the secret entry of `seat`?"""
        if self.role == PLAYER:
            return seat == self.seat
        return self.role == OWNER and seat not in self.claimed


def _owns(request: TableRequest, match: Match) -> bool:
    if not match.owner_id and not match.owner_device:
        return True
    if match.owner_id and request.user.is_authenticated and match.owner_id == request.user.pk:
        return True
    # Signed in or not, the phone that made a match owns it; a match not kept at sign-in
    # (no owner account) thus stays with that phone alone, out of reach of the account's other phones.
    return bool(match.owner_device) and match.owner_device == getattr(request, "device", None)


def _grants(request: TableRequest):
    """The Access rows that belong to this device or account."""
    mine = Q(device=getattr(request, "device", "") or "-")
    if request.user.is_authenticated:
        mine |= Q(user=request.user)
    return Access.objects.filter(mine, revoked__isnull=True)


def viewer_claims(match: Match) -> frozenset[int]:
    """Seats held by joined phones."""
    seats = match.accesses.filter(role=Access.PLAYER, revoked__isnull=True).values_list("seat", flat=True)
    return frozenset(seat for seat in seats if seat is not None)


def viewer(request: TableRequest, match: Match) -> Viewer | None:
    claimed = viewer_claims(match)
    if _owns(request, match):
        return Viewer(OWNER, claimed=claimed)
    grants = list(_grants(request).filter(match=match))
    # A seat beats a spectator's place (an account may hold both, from two phones).
    grant = next((g for g in grants if g.role == Access.PLAYER), grants[0] if grants else None)
    if grant is not None and grant.role == Access.PLAYER:
        return Viewer(PLAYER, seat=grant.seat, claimed=claimed)
    if grant is not None or match.shared:
        return Viewer(SPECTATOR, claimed=claimed)
    return None


def match_for(request: TableRequest, pk: int, act: bool = False, only: tuple[str, ...] = ()) -> tuple[Match, Viewer]:
    """The match and the viewer's rights; 404 for outsiders, 403 for a spectator trying to act.

    `only` loads just those fields (the live-update poll needs no state).
    """
    match = get_object_or_404(Match.objects.only(*only) if only else Match.objects, pk=pk)
    seen_by = viewer(request, match)
    if seen_by is None:
        raise Http404(_("No such match."))
    if act and not seen_by.can_act:
        raise PermissionDenied(_("Spectators can watch this match but not play in it."))
    return match, seen_by


def visible_matches(request: TableRequest):
    """Every match this device or account may see, for lists."""
    device = getattr(request, "device", "") or "-"
    mine = Q(owner__isnull=True, owner_device="") | Q(owner_device=device) | Q(shared=True)
    if request.user.is_authenticated:
        mine |= Q(owner=request.user)
    joined = _grants(request).values("match")
    return Match.objects.filter(mine | Q(pk__in=joined))


def organises(request: TableRequest, tournament) -> bool:
    """Whether this device or account runs the tournament: the same test as owning a match.

    Tournaments are public (anyone may read standings and watch their battles); only the
    organiser adds and drops entrants, pairs rounds and declares the final standings.
    """
    return _owns(request, tournament)
