"""The pages of who may see and act: accounts (sign in, sign up, sign out, password), a
match's join and watch links, clubs and their links, and the pages where the table agrees
before a change (reopening a finished match, taking back a revealed entry in hot-seat,
answering or withdrawing the other phone's request). What they decide is in the modules
beside this one: accounts, sharing, clubs, consent, access."""

from django.contrib import messages
from django.contrib.auth import login, logout, update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm, PasswordChangeForm
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

import rules
from rules import RuleError
from tracker.catalog import changes as card_changes
from tracker.catalog.changes import CardRefused, Editor
from tracker.matches import live, news, services, steps_told
from tracker.matches.once import made_once
from tracker.models import Access, Club, ClubInvite, Invite, Match, Membership, Player, Proposal
from tracker.people import access, accounts, clubs, consent, locks, sharing
from tracker.people.forms import ClubForm, ClubSettingsForm, NameClaimForm, SignUpForm
from tracker.web import limits
from tracker.web.next_page import back_to, next_page

from .access import Viewer
from .devices import TableRequest
from .sharing import TOKEN


def _page(request: TableRequest, match: Match, context: dict, status: int = 200) -> HttpResponse:
    """The question in place of the match board (htmx swaps it into #match), or as a page."""
    template = "tracker/agreement.html#match" if request.htmx else "tracker/agreement.html"
    return render(request, template, {"match": match, "players": match.players(), **context}, status=status)


def confirm_reopen(request: TableRequest, match: Match, seen_by: Viewer, step: int) -> HttpResponse:
    """Going back before the end of a finished match: say what it affects, and ask."""
    return _page(request, match, {"question": "reopen", "step": step, "affects": locks.reopen_affects(match, step)})


def hot_seat_goto(request: TableRequest, match: Match, seen_by: Viewer, step: int) -> HttpResponse:
    """One phone, both players: who asks, then the phone goes to the other player, who answers."""
    players = match.players()
    context = {"step": step, "confirm": request.POST.get("confirm", "")}
    try:
        asker = int(request.POST.get("asker", ""))
    except ValueError:
        return _page(request, match, {"question": "who_asks", **context})
    if not 0 <= asker < len(players):
        return _page(request, match, {"question": "who_asks", **context}, status=422)
    other = consent.other_seat(match, asker, seen_by)
    answer = request.POST.get("answer")
    if answer not in ("agree", "refuse"):
        return _page(request, match, {"question": "pass_to_agree", "asker": players[asker], "asker_seat": asker,
                                      "other": players[other], **context})
    try:
        proposal = consent.agree_in_hot_seat(
            match_id=match.pk, seen_by=seen_by, expected_seq=match.head, asked_by=asker, agree=answer == "agree",
            kind=Proposal.GOTO, step=step)
    except services.StaleSubmission as stale:
        messages.error(request, str(stale))
        return redirect(match)
    return _answered(request, match, proposal)


def _answered(request: TableRequest, match: Match, proposal: Proposal) -> HttpResponse:
    names = [player.name for player in match.players()]
    if proposal.status == Proposal.AGREED:
        messages.success(request, _("%(name)s agreed: %(what)s.") % {
            "name": names[proposal.needs], "what": consent.describe(proposal, names)})
        if proposal.kind == Proposal.ACTION:  # carried out as the step after the one it was asked at: its working
            steps_told.tell(request, match.pk, proposal.at_seq + 1)
    elif proposal.status == Proposal.LAPSED:
        messages.error(request, _("The match moved on since this was asked; nothing was changed."))
    else:
        messages.info(request, _("%(name)s refused; nothing was changed.") % {"name": names[proposal.needs]})
    return redirect(match)


@require_POST
def proposal_answer(request: TableRequest, pk: int, proposal_id: int) -> HttpResponse:
    """The other side agrees to a request (which is then carried out) or refuses it."""
    match, seen_by = access.match_for(request, pk, act=True)
    agree = request.POST.get("answer") == "agree"
    if request.POST.get("answer") not in ("agree", "refuse"):
        messages.error(request, _("Agree or refuse; nothing was changed."))
        return redirect(match)
    try:
        proposal = consent.answer(proposal_id=proposal_id, match_id=pk, seen_by=seen_by, agree=agree,
                                  made_by=news.by(request, match, seen_by))
    except consent.Refused as refused:
        messages.error(request, str(refused))
        return redirect(match)
    except (services.StaleSubmission, services.NoSuchStep) as stale:
        messages.error(request, str(stale))
        return redirect(match)
    except RuleError as error:
        messages.error(request, _("Not applied: %(why)s") % {"why": services.explain(error, match.players(), match.slug)})
        return redirect(match)
    return _answered(request, match, proposal)


@require_POST
def proposal_withdraw(request: TableRequest, pk: int, proposal_id: int) -> HttpResponse:
    match, seen_by = access.match_for(request, pk, act=True)
    try:
        consent.withdraw(proposal_id=proposal_id, match_id=pk, seen_by=seen_by, made_by=news.by(request, match, seen_by))
    except consent.Refused as refused:
        messages.error(request, str(refused))
    else:
        messages.info(request, _("Request withdrawn; nothing was changed."))
    return redirect(match)


def _next(request: TableRequest) -> str:
    return next_page(request, "/")


@require_http_methods(["GET", "POST"])
@limits.costly("password-check", labels=lambda request: [accounts.offer_keeping(AuthenticationForm(request), request)])
def sign_in(request: TableRequest) -> HttpResponse:
    form = accounts.offer_keeping(AuthenticationForm(request, data=request.POST or None), request)
    status = 200
    if request.method == "POST":
        name = accounts.name_key(request.POST.get("username", ""))
        wait, reason = limits.password_check_refusal(request, name)
        if wait:  # the name typed is kept (the password is never written into a page: the focus goes to it)
            form = accounts.offer_keeping(AuthenticationForm(request, initial={"username": request.POST.get("username", "")}),
                                          request)
            form.fields["username"].widget.attrs.pop("autofocus", None)
            form.fields["password"].widget.attrs["autofocus"] = True
            messages.error(request, " ".join([reason, limits.wait_text(wait)]))
            response = render(request, "accounts/sign_in.html", {"form": form, "next": _next(request)}, status=429)
            response["Retry-After"] = str(wait)
            return response
        if form.is_valid():
            login(request, form.get_user())
            limits.remember_sign_in(request, name)
            if news := accounts.settle_matches(request, form, form.get_user()):
                messages.info(request, news)
            return back_to(request, "/")
        # Django checks (hashes) the password only for a name and a password: a form without them counts nowhere.
        if form.is_bound and form.cleaned_data.get("username") and form.data.get("password"):
            limits.count_sign_in_failure(request, name)
            limits.spent(request)  # the password was hashed to be checked
        status = 422
    return render(request, "accounts/sign_in.html", {"form": form, "next": _next(request)}, status=status)


@require_POST
def sign_out(request: TableRequest) -> HttpResponse:
    logout(request)
    messages.success(request, _("Signed out."))
    response = redirect("home")
    # A store's shared tablet: the browser drops the pages it keeps of this site, so Back after signing out does not
    # show the last account's match list or board from the back/forward cache (round 27; over HTTPS, as served).
    response["Clear-Site-Data"] = '"cache"'
    return response


@transaction.atomic
def _new_account(form: SignUpForm):
    user = form.save()
    player = services.player_named(form.cleaned_data["player_name"])
    if player.user_id is not None or player.in_club_records():  # taken, or put in a club's battle, since the check
        raise PermissionDenied(_("That player name belongs to another account."))
    player.user = user
    player.save(update_fields=["user"])
    return user, player


@require_http_methods(["GET", "POST"])
@made_once
@limits.costly("sign-up", labels=lambda request: [accounts.offer_keeping(SignUpForm(), request)])
def sign_up(request: TableRequest) -> HttpResponse:
    # A POST is a form sent, even an empty one: refused as incomplete (422), which counts nowhere (limits.did_work).
    form = accounts.offer_keeping(SignUpForm(request.POST if request.method == "POST" else None), request)
    if request.method == "POST" and form.is_valid():
        try:
            user, player = _new_account(form)
        except (IntegrityError, PermissionDenied):  # the name or the player taken between the check and now
            limits.spent(request)  # the password was hashed
            form.add_error(None, _("That user name or player name was just taken; choose another."))
            return render(request, "accounts/sign_up.html", {"form": form, "next": _next(request)}, status=422)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, " ".join(filter(None, [_("Welcome, %(name)s.") % {"name": player.name},
                                                        accounts.settle_matches(request, form, user)])))
        return back_to(request, "/")
    return render(request, "accounts/sign_up.html", {"form": form, "next": _next(request)},
                  status=422 if form.errors else 200)


@login_required
@require_http_methods(["GET", "POST"])
@limits.costly("password-check")
def password_change(request: TableRequest) -> HttpResponse:
    """Guessing the old password is limited as signing in is (a stolen session would otherwise guess on forever)."""
    form = PasswordChangeForm(request.user, request.POST or None)  # type: ignore[arg-type]  # login_required: a User
    if request.method == "POST":
        name = accounts.name_key(request.user.get_username())
        wait, reason = limits.password_check_refusal(request, name)
        if wait:
            messages.error(request, " ".join([reason, limits.wait_text(wait)]))
            response = render(request, "accounts/password_change.html",
                              {"form": PasswordChangeForm(request.user)}, status=429)  # type: ignore[arg-type]
            response["Retry-After"] = str(wait)
            return response
        if form.is_valid():
            user = form.save()
            update_session_auth_hash(request, user)
            messages.success(request, _("Password changed."))
            return redirect("home")
        if form.data.get("old_password"):  # checked (hashed), right or wrong
            limits.spent(request)
        if "old_password" in form.errors and form.data.get("old_password"):  # checked and wrong
            limits.count_sign_in_failure(request, name)
    return render(request, "accounts/password_change.html", {"form": form}, status=422 if form.errors else 200)


def _owner_only(request: TableRequest, pk: int) -> Match:
    match, seen_by = access.match_for(request, pk, act=True)
    if seen_by.role != access.OWNER:
        raise access.PermissionDenied(_("Only the phone that set up this match can manage its links."))
    return match


@require_POST
@made_once
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
    with transaction.atomic():
        sharing.lock(match)  # two taps at once both count the links as they stand after the other
        if sharing.open_invites(match).count() >= sharing.LINKS_MOST:
            invite = None
        else:
            invite = Invite.objects.create(match=match, kind=kind, seat=seat)
    if invite is None:
        messages.error(request, _("This match already has %(most)s open links, the most it may: revoke one to make "
                                  "another. Nothing was changed.") % {"most": sharing.LINKS_MOST})
        return redirect(reverse("match_detail", args=[pk]) + "#share")
    messages.success(request, _("Link ready: show the QR code or send the link."))
    # To the new link itself: the panel lists the links oldest first, so with others there it lies far below the
    # panel's top. The match page shows the message just above it (table.js: where the address points).
    return redirect(reverse("match_detail", args=[pk]) + f"#link-{invite.pk}")


@require_POST
def invite_revoke(request: TableRequest, pk: int, invite_id: int) -> HttpResponse:
    """Revoke a link. A seat whose phone has a say in the match (it played, or a request involves it) is
    not taken back behind its back: the phone is asked to give it up, and keeps it until it agrees. In a
    club, an organiser who does not play in the match decides instead (the club's referee)."""
    match, seen_by = access.match_for(request, pk)
    if seen_by.role != access.OWNER and not seen_by.referee:
        raise access.PermissionDenied(_("Only the phone that set up this match can manage its links."))
    try:
        with transaction.atomic():
            sharing.lock(match)  # the link's say is judged as it stands: a move or a join sent with it waits, or is seen
            invite = match.invites.filter(pk=invite_id, revoked__isnull=True).first()
            if invite is None:
                messages.info(request, _("That link was already revoked."))
            elif not seen_by.referee and consent.has_say(match, invite):
                consent.ask_release(match=match, seen_by=seen_by, invite=invite, made_by=news.by(request, match, seen_by))
                messages.info(request, _("%(name)s has a say in this match: their phone was asked to give up the seat, "
                                         "and keeps it until they agree.") % {"name": match.players()[invite.seat or 0].name})
            else:
                sharing.revoke(invite)
                messages.success(request, _("Link revoked; phones that joined with it lost their access."))
    except consent.Refused as refused:
        messages.error(request, str(refused))
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
        try:
            if sharing.held_by_another_account(match, request.device, user):  # that place is that account's
                raise sharing.PlaceHeld
            with transaction.atomic():
                sharing.lock(match)  # the link is checked again as it stands: a revoke sent with this waits, or is seen
                problem = _link_problem(Invite.objects.filter(pk=invite.pk).first())
                if not problem:
                    sharing.take_place(match, request.device, user, role, invite.seat if player else None, invite)
                    sharing.touch(match)
                    seat = invite.seat if player else None
                    sharing.seat_changed(match.pk, news.JOINED, seat, news.named(user), (seat,) if seat is not None else ())
        except IntegrityError:
            return render(request, "tracker/join.html", {"problem": _("That seat was taken a moment ago.")}, status=409)
        except sharing.PlaceHeld as held:  # before the link was read, or a moment ago under its lock
            return render(request, "tracker/join.html", {"problem": str(held)}, status=409)
        if problem:
            return render(request, "tracker/join.html", {"problem": problem}, status=410)
        messages.success(request, _("You play as %(name)s on this phone.") % {"name": player.name} if player
                         else _("You are watching this match."))
        return redirect(match)
    return render(request, "tracker/join.html", {"match": match, "player": player, "invite": invite})


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
@limits.costly("club-new", labels=lambda request: [ClubForm()])
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


def _club_page(request: TableRequest, club: Club, role: str | None, status: int = 200,
               claim_form: NameClaimForm | None = None, given: tuple[int, str, str] = (0, "", "")) -> HttpResponse:
    context: dict[str, object] = {"club": club, "role": role, "organiser": role == Membership.ORGANISER,
                                  "given_to": given[0], "given_typed": given[1], "given_refused": given[2]}
    if role:
        context["members"] = club.memberships.select_related("user", "user__player", "role_changed_by__player",
                                                             "plays_as", "given_by__player")
        context["claims"] = [(claim, rules.GAMES[claim.slug].name) for claim in club.name_claims.all()]
        context["claim_form"] = claim_form or NameClaimForm()
        context["claims_most"] = card_changes.CLAIMS_PER_CLUB
    if role == Membership.ORGANISER:
        context["invites"] = clubs.invites(request, club)
        context["unnamed"] = clubs.names_without_account(club)
        context["links_most"] = clubs.LINKS_MOST
        context["settings_form"] = ClubSettingsForm(initial={"public_leaderboard": club.public_leaderboard,
                                                             "public_tournaments": club.public_tournaments})
    return render(request, "clubs/club_detail.html", context, status=status)


@require_GET
def club_detail(request: TableRequest, pk: int) -> HttpResponse:
    club, role = clubs.club_for(request, pk)
    return _club_page(request, club, role)


@require_POST
@made_once
@limits.costly("name-claim", labels=lambda request, pk: [NameClaimForm()])
def club_claim(request: TableRequest, pk: int) -> HttpResponse:
    """An organiser claims a card name for the club (tracker/catalog/changes.py says what a claim means)."""
    club, role = clubs.club_for(request, pk, organiser=True)
    form = NameClaimForm(request.POST)
    if form.is_valid():
        try:
            claim = card_changes.name_claim(Editor.of(request), club, form.cleaned_data["slug"], form.cleaned_data["name"])
        except CardRefused as refused:
            form.add_error("name", str(refused))
            return _club_page(request, club, role, status=refused.status, claim_form=form)
        messages.success(request, _("%(name)s is claimed for the club: only its members can add a card by that "
                                    "name.") % {"name": claim.name})
        return redirect(reverse("club_detail", args=[pk]) + "#claims")
    return _club_page(request, club, role, status=422, claim_form=form)


@require_POST
def club_claim_release(request: TableRequest, pk: int, claim_id: int) -> HttpResponse:
    club, _role = clubs.club_for(request, pk, organiser=True)
    released = card_changes.name_release(Editor.of(request), club, claim_id)
    if released:
        messages.success(request, _("%(name)s is no longer claimed by the club.") % {"name": released.name})
    else:
        messages.info(request, _("That name was already given up."))
    return redirect(reverse("club_detail", args=[pk]) + "#claims")


@require_POST
@made_once
def club_invite_new(request: TableRequest, pk: int) -> HttpResponse:
    club, _role = clubs.club_for(request, pk, organiser=True)
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=club.pk).first()  # two organisers' taps count one after the other
        full = clubs.open_invites(club).count() >= clubs.LINKS_MOST
        if not full:
            ClubInvite.objects.create(club=club)
    if full:
        messages.error(request, _("The club already has %(most)s open invite links, the most it may: revoke one to "
                                  "make another. Nothing was changed.") % {"most": clubs.LINKS_MOST})
        return redirect(reverse("club_detail", args=[pk]) + "#invites")
    messages.success(request, _("Link ready: show the QR code or send the link."))
    return redirect(reverse("club_detail", args=[pk]) + "#invites")


@require_POST
def club_invite_revoke(request: TableRequest, pk: int, invite_id: int) -> HttpResponse:
    club, _role = clubs.club_for(request, pk, organiser=True)
    revoked = club.invites.filter(pk=invite_id, revoked__isnull=True).update(revoked=timezone.now())
    if revoked:
        messages.success(request, _("Link revoked: nobody new can join with it. Members who joined with it stay."))
    else:
        messages.info(request, _("That link was already revoked."))
    return redirect(reverse("club_detail", args=[pk]) + "#invites")


@require_POST
def club_settings(request: TableRequest, pk: int) -> HttpResponse:
    club, _role = clubs.club_for(request, pk, organiser=True)
    form = ClubSettingsForm(request.POST)
    form.is_valid()  # two checkboxes: absent means off, anything else is refused by the form as off
    # Only a box changed on this form is saved: another organiser may have changed the other since it was
    # drawn (the form says what each box showed then), and sending the page again would quietly undo that.
    changed = [name for name in form.fields
               if request.POST.get(f"drawn_{name}") != ("1" if form.cleaned_data.get(name) else "0")]
    for name in changed:
        setattr(club, name, form.cleaned_data.get(name, False))
    club.save(update_fields=changed)
    messages.success(request, _("Saved: what the club shows to everyone."))
    return redirect(club)


@require_POST
def club_member(request: TableRequest, pk: int, member_id: int) -> HttpResponse:
    """An organiser makes a member an organiser or a member again, or removes them."""
    club, _role = clubs.club_for(request, pk, organiser=True)
    with transaction.atomic():
        return _club_member(request, club, member_id)


def _club_name(request: TableRequest, club: Club, membership: Membership, name: str) -> HttpResponse:
    """An organiser gives a member a name of the club's records, or takes it back (clubs.give_name)."""
    organiser = access.signed_in(request)
    try:
        if request.POST.get("do") == "unname":
            taken = clubs.take_name_back(club, organiser, membership)
            messages.success(request, _("%(member)s no longer plays as %(name)s in the club.")
                             % {"member": name, "name": taken.name})
            return redirect(club)
        given = clubs.give_name(club, organiser, membership, request.POST.get("name", ""))
    except clubs.NameRefused as refused:
        if membership.user == organiser or request.POST.get("do") == "unname":  # no field to stand beside
            messages.error(request, str(refused))
            return redirect(club)
        # The page again, why beside the name as typed, in view.
        return _club_page(request, club, Membership.ORGANISER, status=409,
                          given=(membership.pk, request.POST.get("name", "")[:100], str(refused)))
    messages.success(request, _("%(member)s now plays as %(name)s in the club, from the battles set up from now on.")
                     % {"member": name, "name": given.name})
    return redirect(club)


def _club_member(request: TableRequest, club: Club, member_id: int) -> HttpResponse:
    # Judged on the organisers as they stand once another organiser's change sent at the same moment landed: two
    # organisers making each other members at once left the club with none.
    clubs.lock_organisers(club)
    if not club.memberships.filter(user=access.signed_in(request), role=Membership.ORGANISER).exists():
        raise access.PermissionDenied(_("Only the club's organisers can do that."))
    membership = club.memberships.select_related("user").filter(pk=member_id).first()
    what = request.POST.get("do")
    if membership is None or what not in ("organiser", "member", "remove", "name", "unname"):
        messages.error(request, _("Choose a member and what to do; nothing was changed."))
        return redirect(club)
    # Named as the members' list names them: by their player, else their account.
    name = getattr(Player.objects.filter(user=membership.user).first(), "name", membership.user.get_username())
    if what in ("name", "unname"):
        return _club_name(request, club, membership, name)
    # The role the page showed: another organiser may have changed it since (a stale "Remove" took out an
    # organiser just made one).
    if request.POST.get("was", membership.role) != membership.role:
        messages.error(request, _("%(name)s's role changed since this page was drawn, so nothing was changed: "
                                  "look again first.") % {"name": name})
        return redirect(club)
    if what != "organiser" and membership.role == Membership.ORGANISER and not clubs.organisers_left(club, membership):
        messages.error(request, _("A club keeps at least one organiser; make someone else an organiser first."))
        return redirect(club)
    # The referees of a tournament she plays in: demoting or removing the one organiser who does not play left her
    # battles, and her rivals', with no one to void or confirm them (adversarial round 16); so did an organiser she
    # made meanwhile, a second account of hers (round 17).
    organiser = access.signed_in(request)
    if what != "organiser" and membership.role == Membership.ORGANISER and membership.user != organiser \
            and clubs.keeps_the_referees(club, organiser):
        messages.error(request, _("While a tournament of the club runs, an organiser who plays in it, or was made an "
                                  "organiser after it began, changes no other organiser. Nothing was changed."))
        return redirect(club)
    if what == "remove" and clubs.takes_no_entrant_out(club, organiser, membership.user):
        messages.error(request, _("%(name)s plays in a tournament of the club that is running, and you play in one or "
                                  "were made an organiser after it began: another organiser removes them.")
                       % {"name": name})
        return redirect(club)
    if what == "remove" and (refusal := clubs.seat_refusal(club, organiser, membership.user, name)):
        messages.error(request, refusal)
        return redirect(club)
    if what == "remove":
        clubs.remove(membership, organiser)
        messages.success(request, _("%(name)s is no longer a member.") % {"name": name})
    else:
        # Who made whom an organiser stays on the club page: a club sees, say, an organiser making a second
        # account of theirs an organiser to referee their own battles.
        membership.role = Membership.ORGANISER if what == "organiser" else Membership.MEMBER
        membership.role_changed, membership.role_changed_by = timezone.now(), access.signed_in(request)
        membership.save(update_fields=["role", "role_changed", "role_changed_by"])
        messages.success(request, _("%(name)s is now an organiser.") % {"name": name} if what == "organiser"
                         else _("%(name)s is now a member.") % {"name": name})
    return redirect(club)


@login_required
@require_POST
def club_leave(request: TableRequest, pk: int) -> HttpResponse:
    club = get_object_or_404(Club, pk=pk)
    with transaction.atomic():
        clubs.lock_organisers(club)  # as in club_member: the last two organisers leaving at once
        membership = club.memberships.filter(user=access.signed_in(request)).first()
        if membership is None:
            raise Http404(_("No such club."))
        if membership.role == Membership.ORGANISER and not clubs.organisers_left(club, membership):
            messages.error(request, _("A club keeps at least one organiser; make someone else an organiser first."))
            return redirect(club)
        clubs.leave(membership)
    messages.success(request, _("You left %(name)s.") % {"name": club.name})
    return redirect("club_list")


@require_POST
def match_take_over(request: TableRequest, pk: int) -> HttpResponse:
    """An organiser who does not play in it takes over a club match its owner left behind: it is the
    organiser's, and counts again."""
    match, seen_by = access.match_for(request, pk)
    if not seen_by.referee:
        raise access.PermissionDenied(_("You play in this match or its tournament: another organiser of its club "
                                        "takes it over.")
                                      if seen_by.organiser else _("Only an organiser of the match's club can take it over."))
    if not match.left_open:
        messages.info(request, _("This match has an owner; nothing was changed."))
        return redirect(match)
    with transaction.atomic():
        # Under the organiser's membership row (leaving the club meanwhile takes it first), one update of a match
        # still left to no one: of taps at once, by one organiser or two, one takes it over.
        if not access.member_now(access.signed_in(request), match.club_id or 0, organiser=True):
            raise access.PermissionDenied(_("Only an organiser of the match's club can take it over."))
        taken = Match.objects.filter(Q(orphaned__isnull=False) | Q(finished__isnull=True), pk=match.pk,
                                     owner__isnull=True).update(
            owner=access.signed_in(request), orphaned=None, version=F("version") + 1)
        if taken:
            live.changed(match.pk, access_changed=True)
            lapsed = consent.lapse_with_seats(match.pk)  # the owner's phone's seats are the organiser's now
            news.tell(match.pk, news.TAKEN_OVER, news.named(access.signed_in(request)), lapsed=lapsed)
    if not taken:
        messages.info(request, _("This match has an owner; nothing was changed."))
        return redirect(match)
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
    if clubs.removed_since(club, access.account_of(request), invite):
        return render(request, "clubs/club_join.html", {"problem": _(
            "An organiser removed you from %(name)s after this link was made: ask them for a new link if you are to "
            "join again.") % {"name": club.name}}, status=403)
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
