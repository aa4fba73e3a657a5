"""Forms that make something (an account, a match, a card, a club, an invite, copies in a collection, a
tournament) are safe against a double tap.

Such a form carries a one-time token (`{% once %}` from tracker/templatetags/once.py, a hidden field
named "once"). The first POST with a token claims it in the shared cache (the database cache, so every
app server sees it) and runs the view; when the view made something (it redirects there), the token
remembers where, and what the answer said. A second POST with the same token never runs the view: it waits for the first to
finish and is sent to the same place. A refused form (no redirect) frees its token, so the corrected
form can be sent again.
"""

import re
import secrets
import time
from collections.abc import Callable
from functools import wraps

from django.contrib import messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.translation import gettext as _

FIELD = "once"
KEPT = 60 * 60
"""Seconds a token remembers what it made: longer than any hand hesitates over a second tap."""
WAIT = 10.0
"""Seconds a second tap waits for the first to finish; about the htmx timeout (base.html)."""
PENDING = "…"


SHAPE = re.compile(r"[A-Za-z0-9_-]{16}")
"""What new_token gives: 12 random bytes in URL-safe base64."""


def new_token() -> str:
    return secrets.token_urlsafe(12)


def _issued(token: str) -> str:
    """The token if it has the shape a page gives, else "" (no token): it goes into a cache key, and
    PostgreSQL's text (the database cache) cannot hold a NUL."""
    return token if SHAPE.fullmatch(token) else ""


def _key(token: str) -> str:
    return f"once:{token}"


def made_once(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The view runs once per token; every later POST with the token goes where the first one went."""

    @wraps(view)
    def once_only(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        token = _issued(request.POST.get(FIELD, "")) if request.method == "POST" else ""
        if not token:
            return view(request, *args, **kwargs)
        key = _key(token)
        deadline = time.monotonic() + WAIT
        while not cache.add(key, PENDING, KEPT):
            made = cache.get(key)
            if isinstance(made, str) and made != PENDING:  # remembered before an upgrade: where, not what was said
                made = {"to": made, "said": []}
            if made not in (None, PENDING):
                # The browser may have dropped the first answer (and the message it carried, such as
                # "Match started.") for this one: tell it again.
                for level, text in made["said"]:
                    messages.add_message(request, level, text)
                return HttpResponseRedirect(made["to"])  # a URL this view answered, never a URL name
            if time.monotonic() > deadline:
                messages.warning(request, _("This was already sent and is still being made; look again in a moment."))
                return HttpResponseRedirect(request.get_full_path())
            time.sleep(0.1)
        try:
            response = view(request, *args, **kwargs)
        except BaseException:
            cache.delete(key)
            raise
        if response.status_code in (301, 302, 303) and response.has_header("Location"):
            storage = getattr(request, "_messages", None)  # the messages this answer adds (Django's storage)
            said = [(message.level, str(message.message)) for message in getattr(storage, "_queued_messages", [])]
            cache.set(key, {"to": response["Location"], "said": said}, KEPT)
        else:
            cache.delete(key)
        return response

    once_only.made_once = True  # type: ignore[attr-defined]  # read by the sweep over every route (tests)
    return once_only
