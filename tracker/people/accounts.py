"""Accounts: sign up, sign in (both limited: tracker/web/limits.py), sign out, change password.

Playing needs no account. When the phone has matches from before, the sign-in and sign-up
forms ask whether to keep them in the account (a checkbox, ticked by default); kept, they
open on every phone signed in to it, otherwise they stay with this phone alone.
"""

import hashlib
import unicodedata
from typing import TypeVar

from django import forms
from django.contrib import messages
from django.contrib.auth import login, logout, update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm, PasswordChangeForm, UserCreationForm
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_POST

from tracker.matches import services
from tracker.matches.once import made_once
from tracker.people import devices
from tracker.web import limits

from .devices import TableRequest


def name_key(username: str) -> str:
    """One key per user name as the sign-in form reads it: spaces around it dropped, Unicode
    width folded (NFKC, as Django's UsernameField does) and case ignored, so " name", "NAME" and
    "ｎａｍｅ" share one limit. Hashed, so any text (a NUL, a huge paste) makes a safe cache key."""
    name = unicodedata.normalize("NFKC", username.strip()).strip().casefold()
    return hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()


KeptForm = TypeVar("KeptForm", bound=forms.BaseForm)


def _offer_keeping(form: KeptForm, request: TableRequest) -> KeptForm:
    """Add the "keep this phone's matches" checkbox, only when the phone has some to keep."""
    count = devices.matches_on_device(request.device)
    if count:
        form.fields["keep_matches"] = forms.BooleanField(
            required=False, initial=True,
            label=ngettext("Keep the %(count)s match played on this phone",
                           "Keep the %(count)s matches played on this phone", count) % {"count": count},
            help_text=_("Ticked: kept in your account, open on every phone you sign in on. "
                        "Unticked: left with this phone only."),
            widget=forms.CheckboxInput(attrs={"aria-describedby": "id_keep_matches_help"}),
        )
    return form


def _settle_matches(request: TableRequest, form: forms.BaseForm, user) -> str:
    """Keep the phone's matches in the account if the player ticked the box; what to tell them."""
    if "keep_matches" not in form.fields:
        return ""
    if form.cleaned_data["keep_matches"]:
        kept = devices.keep_device_matches(request.device, user)
        return ngettext("%(count)s match from this phone is now in your account.",
                        "%(count)s matches from this phone are now in your account.", kept) % {"count": kept}
    return _("The matches played here before stay with this phone only.")


def _next(request: TableRequest) -> str:
    target = request.POST.get("next") or request.GET.get("next") or "/"
    return target if url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()) else "/"


@require_http_methods(["GET", "POST"])
def sign_in(request: TableRequest) -> HttpResponse:
    form = _offer_keeping(AuthenticationForm(request, data=request.POST or None), request)
    status = 200
    if request.method == "POST":
        name = name_key(request.POST.get("username", ""))
        if wait := limits.sign_in_wait(request, name):
            form = _offer_keeping(AuthenticationForm(request), request)
            messages.error(request, " ".join([_("Too many failed attempts for this name from here."),
                                              limits.wait_text(wait)]))
            response = render(request, "accounts/sign_in.html", {"form": form, "next": _next(request)}, status=429)
            response["Retry-After"] = str(wait)
            return response
        if form.is_valid():
            login(request, form.get_user())
            if news := _settle_matches(request, form, form.get_user()):
                messages.info(request, news)
            return redirect(_next(request))
        limits.count_sign_in_failure(request, name)
        status = 422
    return render(request, "accounts/sign_in.html", {"form": form, "next": _next(request)}, status=status)


@require_POST
def sign_out(request: TableRequest) -> HttpResponse:
    logout(request)
    messages.success(request, _("Signed out."))
    return redirect("home")


class SignUpForm(UserCreationForm):
    player_name = forms.CharField(
        label=gettext_lazy("Your player name"), max_length=40,
        help_text=gettext_lazy("The name you play under; your matches under this name become yours."),
    )

    def clean_player_name(self):
        name = " ".join(self.cleaned_data["player_name"].split())
        from tracker.models import Player

        existing = Player.named(name)
        if existing is not None and existing.user_id is not None:
            raise forms.ValidationError(_("That player name belongs to another account."))
        return name


@transaction.atomic
def _new_account(form: SignUpForm):
    user = form.save()
    player = services.player_named(form.cleaned_data["player_name"])
    if player.user_id is not None:
        raise PermissionDenied(_("That player name belongs to another account."))
    player.user = user
    player.save(update_fields=["user"])
    return user, player


@require_http_methods(["GET", "POST"])
@made_once
@limits.costly("sign-up")
def sign_up(request: TableRequest) -> HttpResponse:
    form = _offer_keeping(SignUpForm(request.POST or None), request)
    if request.method == "POST" and form.is_valid():
        try:
            user, player = _new_account(form)
        except (IntegrityError, PermissionDenied):  # the name or the player taken between the check and now
            form.add_error(None, _("That user name or player name was just taken; choose another."))
            return render(request, "accounts/sign_up.html", {"form": form, "next": _next(request)}, status=422)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, " ".join(filter(None, [_("Welcome, %(name)s.") % {"name": player.name},
                                                        _settle_matches(request, form, user)])))
        return redirect(_next(request))
    return render(request, "accounts/sign_up.html", {"form": form, "next": _next(request)},
                  status=422 if form.errors else 200)


@login_required
@require_http_methods(["GET", "POST"])
def password_change(request: TableRequest) -> HttpResponse:
    form = PasswordChangeForm(request.user, request.POST or None)  # type: ignore[arg-type]  # login_required: a User
    if request.method == "POST" and form.is_valid():
        user = form.save()
        update_session_auth_hash(request, user)
        messages.success(request, _("Password changed."))
        return redirect("home")
    return render(request, "accounts/password_change.html", {"form": form}, status=422 if form.errors else 200)
