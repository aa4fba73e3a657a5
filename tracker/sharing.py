"""A match on several phones: join links and QR codes, watch links, revoking, sharing.

The owner makes a link per seat (seats one other phone as that player) or a watch link
(any number of spectators). Revoking a link also ends the access it granted.
"""

import io
import re

import segno
from django.contrib import messages
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from . import access, consent, news
from .devices import TableRequest
from .models import Access, Invite, Match

TOKEN = re.compile(r"[A-Za-z0-9_-]{1,40}")
"""What an invite token can look like (models.new_token: URL-safe base64)."""


def qr_svg(url: str) -> str:
    """The link as a QR code: inline SVG, dark on light so phones scan it in dark mode too."""
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=4, border=2, dark="#000", light="#fff",
                                    xmldecl=False, svgclass="qr", title=_("QR code for this link"))
    return mark_safe(out.getvalue().decode())  # segno writes only the escaped URL and our own markup


def invites_for(request: TableRequest, match: Match) -> list[dict]:
    """The live invites of a match with their links and QR codes, for the owner's share panel."""
    players = match.players()
    now = timezone.now()
    shown = []
    live = match.invites.filter(revoked__isnull=True).filter(
        Q(expires__gt=now) | Q(accesses__revoked__isnull=True, accesses__isnull=False)
    ).distinct()
    for invite in live.order_by("created"):
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
    return {"share_panel": True, "invites": invites,
            "invited_seats": {item["invite"].seat for item in invites if item["invite"].seat is not None}}


def _touch(match: Match) -> None:
    """Who sits where changed: live views of the match refresh."""
    Match.objects.filter(pk=match.pk).update(version=F("version") + 1)


def _owner_only(request: TableRequest, pk: int) -> Match:
    match, seen_by = access.match_for(request, pk, act=True)
    if seen_by.role != access.OWNER:
        raise access.PermissionDenied(_("Only the phone that set up this match can manage its links."))
    return match


@require_POST
def invite_new(request: TableRequest, pk: int) -> HttpResponse:
    match = _owner_only(request, pk)
    kind = request.POST.get("kind")
    seat = None
    if kind == Invite.SEAT:
        try:
            seat = int(request.POST.get("seat", ""))
        except ValueError:
            seat = -1
        if not 0 <= seat < len(match.players()):
            messages.error(request, _("Choose a seat of this match."))
            return redirect(reverse("match_detail", args=[pk]) + "#share")
    elif kind != Invite.WATCH:
        messages.error(request, _("Choose a join link or a watch link."))
        return redirect(reverse("match_detail", args=[pk]) + "#share")
    Invite.objects.create(match=match, kind=kind, seat=seat)
    messages.success(request, _("Link ready: show the QR code or send the link."))
    return redirect(reverse("match_detail", args=[pk]) + "#share")


def revoke(invite: Invite) -> None:
    """End the link and every place it gave (in the caller's transaction)."""
    now = timezone.now()
    Invite.objects.filter(pk=invite.pk).update(revoked=now)
    Access.objects.filter(invite=invite, revoked__isnull=True).update(revoked=now)
    _touch(invite.match)


@require_POST
def invite_revoke(request: TableRequest, pk: int, invite_id: int) -> HttpResponse:
    """Revoke a link. A seat whose phone has a say in the match (it played, or a request involves it) is
    not taken back behind its back: the phone is asked to give it up, and keeps it until it agrees. In a
    club, an organiser decides instead (the club's referee)."""
    match, seen_by = access.match_for(request, pk)
    if seen_by.role != access.OWNER and not seen_by.organiser:
        raise access.PermissionDenied(_("Only the phone that set up this match can manage its links."))
    invite = match.invites.filter(pk=invite_id, revoked__isnull=True).first()
    if invite is None:
        messages.info(request, _("That link was already revoked."))
        return redirect(reverse("match_detail", args=[pk]) + "#share")
    if not seen_by.organiser and consent.has_say(match, invite):
        try:
            consent.ask_release(match=match, seen_by=seen_by, invite=invite, made_by=news.by(request, match, seen_by))
        except consent.Refused as refused:
            messages.error(request, str(refused))
        else:
            messages.info(request, _("%(name)s has a say in this match: their phone was asked to give up the seat, "
                                     "and keeps it until they agree.") % {"name": match.players()[invite.seat or 0].name})
        return redirect(reverse("match_detail", args=[pk]) + "#share")
    with transaction.atomic():
        revoke(invite)
    messages.success(request, _("Link revoked; phones that joined with it lost their access."))
    return redirect(reverse("match_detail", args=[pk]) + "#share")


def _link_problem(invite: Invite | None) -> str:
    if invite is None:
        return _("This link is not valid. Ask for a new one.")
    if invite.revoked:
        return _("This link was revoked by the match's owner. Ask for a new one.")
    if invite.expires <= timezone.now():
        return _("This link has expired. Ask for a new one.")
    return ""


@require_http_methods(["GET", "POST"])
def join(request: TableRequest, token: str) -> HttpResponse:
    """Take a seat (or a spectator's place) in a match through an invite link."""
    # Only a token's own characters reach the query: PostgreSQL refuses a NUL in text outright.
    well_formed = TOKEN.fullmatch(token) is not None
    invite = Invite.objects.select_related("match").filter(token=token).first() if well_formed else None
    problem = _link_problem(invite)
    if problem or invite is None:
        return render(request, "tracker/join.html", {"problem": problem}, status=410 if invite else 404)
    match = invite.match
    seen_by = access.viewer(request, match)
    if seen_by is not None and seen_by.role in (access.OWNER, access.PLAYER):
        messages.info(request, _("This phone is already part of the match."))
        return redirect(match)
    player = match.players()[invite.seat] if invite.kind == Invite.SEAT and invite.seat is not None else None
    if player is not None and invite.seat in (seen_by.claimed if seen_by else access.viewer_claims(match)):
        return render(request, "tracker/join.html", {"problem": _("%(name)s's seat is already taken by another phone.")
                                                     % {"name": player.name}}, status=409)
    if request.method == "POST":
        role = Access.PLAYER if player is not None else Access.SPECTATOR
        user = access.signed_in(request)
        theirs = match.accesses.filter(device=request.device).exclude(user=None)
        if user is not None:
            theirs = theirs.exclude(user=user)
        if theirs.exists():  # the place another account joined from this phone is that account's
            return render(request, "tracker/join.html", {"problem": _(
                "Another account joined this match from this phone; sign in as that account, or use another "
                "phone.")}, status=409)
        try:
            with transaction.atomic():
                Access.objects.filter(match=match, device=request.device).delete()  # a spectator taking a seat
                Access.objects.create(match=match, device=request.device, user=user, role=role,
                                      seat=invite.seat if player else None, invite=invite)
                _touch(match)
        except IntegrityError:
            return render(request, "tracker/join.html", {"problem": _("That seat was taken a moment ago.")}, status=409)
        messages.success(request, _("You play as %(name)s on this phone.") % {"name": player.name} if player
                         else _("You are watching this match."))
        return redirect(match)
    return render(request, "tracker/join.html", {"match": match, "player": player, "invite": invite})
