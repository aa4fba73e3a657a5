"""Accounts: the sign-in limit, and keeping a phone's matches in the account (views.py has the pages).

Playing needs no account. When the phone has matches from before, the sign-in and sign-up
forms ask whether to keep them in the account (a checkbox, ticked by default); kept, they
open on every phone signed in to it, otherwise they stay with this phone alone.
"""

import hashlib
import unicodedata

from django import forms
from django.core.cache import cache
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tracker.people import devices

from .devices import TableRequest

FAILURES_ALLOWED = 5
LOCKOUT_SECONDS = 15 * 60


def name_key(username: str) -> str:
    """One key per user name as the sign-in form reads it: spaces around it dropped, Unicode
    width folded (NFKC, as Django's UsernameField does) and case ignored, so " name", "NAME" and
    "ｎａｍｅ" share one limit. Hashed, so any text (a NUL, a huge paste) makes a safe cache key."""
    name = unicodedata.normalize("NFKC", username.strip()).strip().casefold()
    return hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()


def failure_keys(request: TableRequest) -> list[str]:
    return [f"login-fail:ip:{devices.client_address(request)}",
            f"login-fail:user:{name_key(request.POST.get('username', ''))}"]


def locked_out(request: TableRequest) -> bool:
    return any((cache.get(key) or 0) >= FAILURES_ALLOWED for key in failure_keys(request))


def count_failure(request: TableRequest) -> None:
    for key in failure_keys(request):
        cache.add(key, 0, LOCKOUT_SECONDS)
        cache.incr(key)


def offer_keeping[KeptForm: forms.BaseForm](form: KeptForm, request: TableRequest) -> KeptForm:
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


def settle_matches(request: TableRequest, form: forms.BaseForm, user) -> str:
    """Keep the phone's matches in the account if the player ticked the box; what to tell them."""
    if "keep_matches" not in form.fields:
        return ""
    if form.cleaned_data["keep_matches"]:
        kept = devices.keep_device_matches(request.device, user)
        return ngettext("%(count)s match from this phone is now in your account.",
                        "%(count)s matches from this phone are now in your account.", kept) % {"count": kept}
    return _("The matches played here before stay with this phone only.")
