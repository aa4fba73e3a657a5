"""A match on several phones: join links and QR codes, watch links, revoking, sharing (pages in views.py).

The owner makes a link per seat (seats one other phone as that player) or a watch link
(any number of spectators). Revoking a link also ends the access it granted.
"""

import io
import re

import segno
from django.contrib import messages
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from tracker.competition.confirmations import seat_of
from tracker.matches import live, news
from tracker.models import Access, Invite, Match
from tracker.people import access, consent, devices

from .devices import TableRequest

TOKEN = re.compile(r"[A-Za-z0-9_-]{1,40}")
"""What an invite token can look like (models.new_token: URL-safe base64)."""

LINKS_MOST = 8
"""Open links a match may hold: one per seat and a few to watch, with room to make a lost one again before
revoking it. The share panel draws each with its QR code on every visit of the owner's match page."""


def qr_svg(url: str) -> str:
    """The link as a QR code: inline SVG, dark on light so phones scan it in dark mode too."""
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=4, border=2, dark="#000", light="#fff",
                                    xmldecl=False, svgclass="qr", title=_("QR code for this link"))
    return mark_safe(out.getvalue().decode())  # segno writes only the escaped URL and our own markup


def open_invites(match: Match):
    """The links the share panel shows: not revoked, and not expired or still holding a phone's place."""
    return match.invites.filter(revoked__isnull=True).filter(
        Q(expires__gt=timezone.now()) | Q(accesses__revoked__isnull=True, accesses__isnull=False)
    ).distinct()


def invites_for(request: TableRequest, match: Match) -> list[dict]:
    """The live invites of a match with their links and QR codes, for the owner's share panel."""
    players = match.players()
    now = timezone.now()
    shown = []
    for invite in open_invites(match).order_by("created"):
        url = request.build_absolute_uri(reverse("join", args=[invite.token]))
        taken = invite.accesses.filter(revoked__isnull=True).count()
        shown.append({"invite": invite, "url": url, "qr": qr_svg(url), "used": taken, "expired": invite.expires <= now,
                      "player": players[invite.seat] if invite.seat is not None else None})
    return shown


def share_context(request: TableRequest, match: Match, seen_by: access.Viewer) -> dict:
    """The owner's share panel; a table match (no owner) has none, since everyone may play it."""
    if seen_by.role != access.OWNER or not (match.owner_device or match.owner_id):
        return {"share_panel": False, "invites": [], "invited_seats": set()}
    invites = invites_for(request, match)
    return {"share_panel": True, "invites": invites, "links_full": len(invites) >= LINKS_MOST, "links_most": LINKS_MOST,
            "invited_seats": {item["invite"].seat for item in invites if item["invite"].seat is not None}}


def lock(match: Match) -> None:
    """Hold the match's row until the transaction ends (PostgreSQL; SQLite's transactions hold the whole
    database from their start): a change of who sits where is judged on what stands once a move, a lock-in
    or another change of seats sent at the same moment has committed, never on what stood before it."""
    Match.objects.select_for_update().only("pk").get(pk=match.pk)


def touch(match: Match) -> None:
    """Who sits where changed: live views of the match refresh."""
    Match.objects.filter(pk=match.pk).update(version=F("version") + 1)
    live.changed(match.pk, access_changed=True)


def seat_changed(match_id: int, kind: str, seat: int | None, who: str = "", seats: tuple[int, ...] = ()) -> list[int]:
    """Who sits where changed (`kind`: JOINED, SEAT_ENDED, LINK_REVOKED; `seat` None for a spectator's place or a
    link that seated nobody): the seat's waiting requests lapse (consent.lapse_with_seats), and the news says both.
    Every change of a seat's phone is told here. The ids lapsed."""
    lapsed = consent.lapse_with_seats(match_id, [seat]) if seat is not None else []
    news.tell(match_id, kind, who, seats, seat=seat, lapsed=lapsed)
    return lapsed


def revoke(invite: Invite) -> list[int]:
    """End the link and every place it gave (in the caller's transaction); the requests that lapsed with its seat."""
    now = timezone.now()
    Invite.objects.filter(pk=invite.pk).update(revoked=now)
    ended = Access.objects.filter(invite=invite, revoked__isnull=True).update(revoked=now)
    touch(invite.match)
    seated = ended and invite.kind == Invite.SEAT and invite.seat is not None
    return seat_changed(invite.match_id, news.SEAT_ENDED if seated else news.LINK_REVOKED, invite.seat if seated else None)


class PlaceHeld(Exception):
    """Another account holds a place in the match from this phone; says so, as the phone is told."""

    def __init__(self) -> None:
        super().__init__(_("Another account joined this match from this phone; sign in as that account, or use "
                           "another phone."))


def held_by_another_account(match: Match, device: str, user) -> bool:
    """Whether an account other than `user` (any account, for a phone not signed in) holds a place in the match
    from this phone, or held one (its link revoked since). A place taken while signed in is that account's alone
    (access._mine), and a phone has one place a match (Access: one_access_per_device)."""
    held = Access.objects.filter(match=match, device=device).exclude(user=None)
    return (held.exclude(user=user) if user is not None else held).exists()


def take_place(match: Match, device: str, user, role: str, seat: int | None, invite: Invite | None = None) -> Access:
    """This phone's place in the match, made anew in the caller's transaction (a spectator's taking a seat): the
    one place a place is made. Only the phone's own place is replaced, never another account's: on a store's shared
    tablet Ben opening the club battle Ana had played there deleted her seat (round 27), so the phone that set it up
    held her seat again and undid her lock-in without her. Raises PlaceHeld then: the new account gets no place here."""
    if held_by_another_account(match, device, user):
        raise PlaceHeld
    Access.objects.filter(match=match, device=device).delete()  # this phone's own: a watch link's, a revoked one
    return Access.objects.create(match=match, device=device, user=user, role=role, seat=seat, invite=invite)


def member_seats(club_id: int, user, player_id: int | None = None):
    """The seats a member took in the club's open battles by opening them (`seat_club_member`): all of them, or
    those of one player (a given name)."""
    seats = Access.objects.filter(user=user, invite__isnull=True, role=Access.PLAYER, revoked__isnull=True,
                                  match__club_id=club_id, match__finished__isnull=True)
    if player_id is not None:
        seats = seats.filter(match__seats__player_id=player_id, match__seats__position=F("seat"))
    return seats


def unseat_member(club_id: int, user, player_id: int | None = None) -> None:
    """End the seats a member took in the club's open battles by opening them (`seat_club_member`: by their
    membership, with no link): all of them when they leave or are removed, or those of one given name taken back.
    The owner's phone enters for the seat again."""
    held = list(member_seats(club_id, user, player_id).values_list("pk", "match_id", "seat"))
    Access.objects.filter(pk__in=[pk for pk, _match, _seat in held]).update(revoked=timezone.now())
    for match in Match.objects.filter(pk__in={match for _pk, match, _seat in held}):
        touch(match)
        seat_changed(match.pk, news.SEAT_ENDED, next(seat for _pk, held_match, seat in held if held_match == match.pk))


def seat_club_member(request: TableRequest, match: Match, seen_by: access.Viewer) -> int | None:
    """A club member opening an unfinished club battle that names them takes their seat on this phone by
    their account (not a spectator's place), as a join link would seat them; the seat, or None.

    Only a seat no other phone holds: the owner's phone stops entering for it from then on. Not on a phone from
    which another account holds a place in the battle (a shared tablet): that place stays theirs (`take_place`).
    """
    if (match.club_id is None or seen_by.role != access.SPECTATOR or match.finished is not None
            or not access.club_role(request, match.club_id)):
        return None
    user = access.signed_in(request)
    seat = seat_of(match, user)
    if seat is None or seat in seen_by.claimed:
        return None
    try:
        if held_by_another_account(match, request.device, user):  # asked first: no lock taken each time it is opened
            raise PlaceHeld
        with transaction.atomic():
            # The membership's row first, as leaving and a name taken back hold it (then the match's): the name is
            # judged again as it stands once they committed, or they find this seat to end.
            if not access.member_now(user, match.club_id) or seat_of(match, user) != seat:
                return None
            # Judged again on the seat as it stands once the other phones' opens have committed (eight at once
            # deleted each other's new seat to make it again, moving the version each time): taken only when no
            # phone holds it, so the version moves once, for the seat made.
            lock(match)
            held = Access.objects.filter(match=match, role=Access.PLAYER, seat=seat, revoked__isnull=True).first()
            if held is not None:  # this phone's own open a moment ago is shown as seated; another's keeps it
                return seat if held.device == request.device and held.user_id == getattr(user, "pk", None) else None
            take_place(match, devices.kept(request), user, Access.PLAYER, seat)
            touch(match)
            seat_changed(match.pk, news.JOINED, seat, news.named(user), (seat,))
    except IntegrityError:  # another phone took the seat a moment ago
        return None
    except PlaceHeld as held:  # another account played here from this phone (a shared tablet): it keeps its place
        if not request.htmx:
            messages.info(request, str(held))
        return None
    return seat
