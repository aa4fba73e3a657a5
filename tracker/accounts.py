"""Accounts: sign up, sign in (rate-limited), sign out, change password.

Playing needs no account. Signing in keeps a player's matches across devices: the
matches this device made before are handed to the account (devices.claim_device_matches).
"""

from django import forms
from django.contrib import messages
from django.contrib.auth import login, logout, update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm, PasswordChangeForm, UserCreationForm
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from . import services

FAILURES_ALLOWED = 5
LOCKOUT_SECONDS = 15 * 60


def _failure_keys(request: HttpRequest) -> list[str]:
    username = request.POST.get("username", "")[:150].casefold()
    return [f"login-fail:ip:{request.META.get('REMOTE_ADDR', '')}", f"login-fail:user:{username}"]


def _locked_out(request: HttpRequest) -> bool:
    return any((cache.get(key) or 0) >= FAILURES_ALLOWED for key in _failure_keys(request))


def _count_failure(request: HttpRequest) -> None:
    for key in _failure_keys(request):
        cache.add(key, 0, LOCKOUT_SECONDS)
        cache.incr(key)


def _next(request: HttpRequest) -> str:
    target = request.POST.get("next") or request.GET.get("next") or "/"
    return target if url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()) else "/"


@require_http_methods(["GET", "POST"])
def sign_in(request: HttpRequest) -> HttpResponse:
    form = AuthenticationForm(request, data=request.POST or None)
    status = 200
    if request.method == "POST":
        if _locked_out(request):
            form = AuthenticationForm(request)
            messages.error(request, _("Too many failed attempts. Wait 15 minutes and try again."))
            return render(request, "accounts/sign_in.html", {"form": form, "next": _next(request)}, status=429)
        if form.is_valid():
            login(request, form.get_user())
            for key in _failure_keys(request)[1:]:
                cache.delete(key)
            return redirect(_next(request))
        _count_failure(request)
        status = 422
    return render(request, "accounts/sign_in.html", {"form": form, "next": _next(request)}, status=status)


@require_POST
def sign_out(request: HttpRequest) -> HttpResponse:
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
        from .models import Player

        existing = Player.named(name)
        if existing is not None and existing.user_id is not None:
            raise forms.ValidationError(_("That player name belongs to another account."))
        return name


@require_http_methods(["GET", "POST"])
def sign_up(request: HttpRequest) -> HttpResponse:
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            user = form.save()
            player = services.player_named(form.cleaned_data["player_name"])
            if player.user_id is not None:  # taken between the form check and now
                raise PermissionDenied(_("That player name belongs to another account."))
            player.user = user
            player.save(update_fields=["user"])
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome, %(name)s. Matches made on this phone are now kept in your account.")
                         % {"name": player.name})
        return redirect("home")
    return render(request, "accounts/sign_up.html", {"form": form}, status=422 if form.errors else 200)


@login_required
@require_http_methods(["GET", "POST"])
def password_change(request: HttpRequest) -> HttpResponse:
    form = PasswordChangeForm(request.user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        update_session_auth_hash(request, user)
        messages.success(request, _("Password changed."))
        return redirect("home")
    return render(request, "accounts/password_change.html", {"form": form}, status=422 if form.errors else 200)
