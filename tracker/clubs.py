"""Clubs: a game store or a group of friends sharing play.

An account starts a club and becomes its organiser; others join with an invite link or its
QR code (accounts only: a membership is what lets a phone see the club's matches, so it
must survive the phone). Organisers make and revoke links, make members organisers, remove
members and choose what the club shows to everyone (its leaderboard, its tournaments).

Decisions (where the rules of a club were open):
- Revoking a link stops new joins; members who joined with it stay (a store's link on the
  wall is replaced every month without emptying the club). An organiser removes a member.
- A club always keeps an organiser: the last one can neither leave nor be made a member.
- A member who leaves or is removed leaves their open club matches behind: those matches lose their
  owner and count nowhere (`Match.orphaned`) until an organiser takes them over (`match_take_over`);
  their finished matches keep counting.
"""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.db.models import F
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from . import access
from .devices import TableRequest
from .models import Club, ClubInvite, Match, Membership
from .once import made_once
from .sharing import TOKEN, qr_svg


class ClubForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Club name"), max_length=60)


class ClubSettingsForm(forms.Form):
    public_leaderboard = forms.BooleanField(label=gettext_lazy("Show the leaderboard to everyone"), required=False)
    public_tournaments = forms.BooleanField(label=gettext_lazy("Show the tournaments to everyone"), required=False)


def club_for(request: TableRequest, pk: int, organiser: bool = False) -> tuple[Club, str | None]:
    """The club and the viewer's role in it; 404 for a club a stranger may not see, 403 for a
    member doing an organiser's job. A club that shows something publicly may be seen by anyone."""
    club = get_object_or_404(Club, pk=pk)
    role = access.club_role(request, club)
    if role is None and not (club.public_leaderboard or club.public_tournaments):
        raise Http404(_("No such club."))
    if organiser and role != Membership.ORGANISER:
        raise access.PermissionDenied(_("Only the club's organisers can do that."))
    return club, role


@require_GET
def club_list(request: TableRequest) -> HttpResponse:
    """The clubs this account belongs to, and the ones that show something to everyone."""
    mine = access.my_clubs(request)
    public = Club.objects.filter(public_leaderboard=True) | Club.objects.filter(public_tournaments=True)
    context = {"mine": mine, "public": public.exclude(pk__in=mine.values("pk")).distinct(), "form": ClubForm()}
    return render(request, "clubs/club_list.html", context)


@login_required
@require_POST
@made_once
def club_new(request: TableRequest) -> HttpResponse:
    form = ClubForm(request.POST)
    if not form.is_valid():
        context = {"mine": access.my_clubs(request), "public": Club.objects.none(), "form": form}
        return render(request, "clubs/club_list.html", context, status=422)
    with transaction.atomic():
        club = Club.objects.create(name=" ".join(form.cleaned_data["name"].split()))
        Membership.objects.create(club=club, user=access.account_of(request), role=Membership.ORGANISER)
    messages.success(request, _("%(name)s is ready: invite its members with a link.") % {"name": club.name})
    return redirect(club)


def _invites(request: TableRequest, club: Club) -> list[dict]:
    now = timezone.now()
    shown = []
    for invite in club.invites.filter(revoked__isnull=True, expires__gt=now).order_by("created"):
        url = request.build_absolute_uri(reverse("club_join", args=[invite.token]))
        shown.append({"invite": invite, "url": url, "qr": qr_svg(url)})
    return shown


@require_GET
def club_detail(request: TableRequest, pk: int) -> HttpResponse:
    club, role = club_for(request, pk)
    context: dict[str, object] = {"club": club, "role": role, "organiser": role == Membership.ORGANISER}
    if role:
        context["members"] = club.memberships.select_related("user", "user__player")
    if role == Membership.ORGANISER:
        context["invites"] = _invites(request, club)
        context["settings_form"] = ClubSettingsForm(initial={"public_leaderboard": club.public_leaderboard,
                                                             "public_tournaments": club.public_tournaments})
    return render(request, "clubs/club_detail.html", context)


@require_POST
def club_invite_new(request: TableRequest, pk: int) -> HttpResponse:
    club, _role = club_for(request, pk, organiser=True)
    ClubInvite.objects.create(club=club)
    messages.success(request, _("Link ready: show the QR code or send the link."))
    return redirect(reverse("club_detail", args=[pk]) + "#invites")


@require_POST
def club_invite_revoke(request: TableRequest, pk: int, invite_id: int) -> HttpResponse:
    club, _role = club_for(request, pk, organiser=True)
    revoked = club.invites.filter(pk=invite_id, revoked__isnull=True).update(revoked=timezone.now())
    if revoked:
        messages.success(request, _("Link revoked: nobody new can join with it. Members who joined with it stay."))
    else:
        messages.info(request, _("That link was already revoked."))
    return redirect(reverse("club_detail", args=[pk]) + "#invites")


@require_POST
def club_settings(request: TableRequest, pk: int) -> HttpResponse:
    club, _role = club_for(request, pk, organiser=True)
    form = ClubSettingsForm(request.POST)
    form.is_valid()  # two checkboxes: absent means off, anything else is refused by the form as off
    club.public_leaderboard = form.cleaned_data.get("public_leaderboard", False)
    club.public_tournaments = form.cleaned_data.get("public_tournaments", False)
    club.save(update_fields=["public_leaderboard", "public_tournaments"])
    messages.success(request, _("Saved: what the club shows to everyone."))
    return redirect(club)


def _organisers_left(club: Club, without: Membership) -> int:
    return club.memberships.filter(role=Membership.ORGANISER).exclude(pk=without.pk).count()


@require_POST
def club_member(request: TableRequest, pk: int, member_id: int) -> HttpResponse:
    """An organiser makes a member an organiser or a member again, or removes them."""
    club, _role = club_for(request, pk, organiser=True)
    membership = club.memberships.select_related("user").filter(pk=member_id).first()
    what = request.POST.get("do")
    if membership is None or what not in ("organiser", "member", "remove"):
        messages.error(request, _("Choose a member and what to do; nothing was changed."))
        return redirect(club)
    if what != "organiser" and membership.role == Membership.ORGANISER and not _organisers_left(club, membership):
        messages.error(request, _("A club keeps at least one organiser; make someone else an organiser first."))
        return redirect(club)
    name = membership.user.get_username()
    if what == "remove":
        _leave(membership)
        messages.success(request, _("%(name)s is no longer a member.") % {"name": name})
    else:
        membership.role = Membership.ORGANISER if what == "organiser" else Membership.MEMBER
        membership.save(update_fields=["role"])
        messages.success(request, _("%(name)s is now an organiser.") % {"name": name} if what == "organiser"
                         else _("%(name)s is now a member.") % {"name": name})
    return redirect(club)


@login_required
@require_POST
def club_leave(request: TableRequest, pk: int) -> HttpResponse:
    club = get_object_or_404(Club, pk=pk)
    membership = club.memberships.filter(user=access.signed_in(request)).first()
    if membership is None:
        raise Http404(_("No such club."))
    if membership.role == Membership.ORGANISER and not _organisers_left(club, membership):
        messages.error(request, _("A club keeps at least one organiser; make someone else an organiser first."))
        return redirect(club)
    _leave(membership)
    messages.success(request, _("You left %(name)s.") % {"name": club.name})
    return redirect("club_list")


@transaction.atomic
def _leave(membership: Membership) -> None:
    """End a membership; the account's open matches in the club wait for an organiser (they count nowhere)."""
    open_matches = Match.objects.filter(club=membership.club_id, owner=membership.user_id, finished__isnull=True)
    open_matches.update(owner=None, owner_device="", orphaned=timezone.now(), version=F("version") + 1)
    membership.delete()


@require_POST
def match_take_over(request: TableRequest, pk: int) -> HttpResponse:
    """An organiser takes over a club match its owner left behind: it is the organiser's, and counts again."""
    match, seen_by = access.match_for(request, pk)
    if not seen_by.organiser:
        raise access.PermissionDenied(_("Only an organiser of the match's club can take it over."))
    if match.orphaned is None:
        messages.info(request, _("This match has an owner; nothing was changed."))
        return redirect(match)
    Match.objects.filter(pk=match.pk).update(owner=access.signed_in(request), orphaned=None,
                                             version=F("version") + 1)
    messages.success(request, _("You took this match over: it is yours to run, and counts in the club again."))
    return redirect(match)


def _join_problem(invite: ClubInvite | None) -> str:
    if invite is None:
        return _("This link is not valid. Ask the club's organiser for a new one.")
    if invite.revoked:
        return _("This link was revoked by the club's organiser. Ask for a new one.")
    if invite.expires <= timezone.now():
        return _("This link has expired. Ask the club's organiser for a new one.")
    return ""


@require_http_methods(["GET", "POST"])
def club_join(request: TableRequest, token: str) -> HttpResponse:
    """Join a club through an invite link: signed in, with one tap."""
    invite = ClubInvite.objects.select_related("club").filter(token=token).first() if TOKEN.fullmatch(token) else None
    problem = _join_problem(invite)
    if problem or invite is None:
        return render(request, "clubs/club_join.html", {"problem": problem}, status=410 if invite else 404)
    club = invite.club
    if not request.user.is_authenticated:
        return render(request, "clubs/club_join.html", {"club": club, "sign_in": True})
    if access.club_role(request, club):
        messages.info(request, _("You are already a member of %(name)s.") % {"name": club.name})
        return redirect(club)
    if request.method == "GET":
        return render(request, "clubs/club_join.html", {"club": club})
    try:
        with transaction.atomic():
            Membership.objects.create(club=club, user=access.account_of(request), role=Membership.MEMBER,
                                      invite=invite)
    except IntegrityError:  # a double tap: the first one made the membership
        pass
    messages.success(request, _("Welcome to %(name)s.") % {"name": club.name})
    return redirect(club)
