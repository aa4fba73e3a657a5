"""Where a request comes from: the device (so a match can belong to a phone without an
account) and the client's network address (for the sign-in limits).

Each browser gets a random device id in a long-lived signed cookie the first time it sends
a form (a match made, a seat taken, a card added, a sign-in): until then it holds nothing a
device id could find, and a first visit goes without the cookie (some 150 bytes of its first
page, and no id handed to a phone that only looked). A match made without signing in belongs
to that device. When the player signs in
or up, they choose whether the device's matches join the account (`keep_device_matches`).
"""

import functools
import hashlib
import ipaddress
import secrets
from contextvars import ContextVar

from django.conf import settings
from django.db import transaction
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails

from tracker.either_mode import EitherMode

COOKIE = "tk_device"
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")  # they change nothing, so nothing can belong to their device yet
MAX_AGE = 60 * 60 * 24 * 730

acting: ContextVar[str] = ContextVar("acting", default="")
"""The `mark` of the phone whose request is being answered: the live streams tell a change's own phone by it."""


def mark(device: str) -> str:
    """A short one-way mark of a device id, for telling one phone from another without passing the id around."""
    return hashlib.blake2b(device.encode(), digest_size=8).hexdigest() if device else ""


class TableRequest(HttpRequest):
    """A request as the middleware leaves it for our views: the phone's device id (DeviceMiddleware)
    and what htmx asked (django-htmx's HtmxMiddleware). Only for type checking: Django builds the request."""

    device: str
    keeps_device: bool  # a page only opened stored the device id (`kept`): a new phone is given it
    htmx: HtmxDetails


@functools.lru_cache(maxsize=4096)
def _signed(value: str, signing: tuple) -> str | None:
    """The device id a cookie's value carries if its signature is ours (Django's own check), else None; by the value
    and what signing depends on (`_signing`). Every request of a phone carries the same value, and the check (a key
    derived and an HMAC) was most of this middleware's time, on each action and each part pushed to the phone."""
    carrier = HttpRequest()
    carrier.COOKIES = {COOKIE: value}
    return carrier.get_signed_cookie(COOKIE, default=None, salt=COOKIE)


def _signing() -> tuple:
    return (settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS, settings.SIGNING_BACKEND,
            getattr(settings, "SIGNED_COOKIE_LEGACY_SALT_FALLBACK", None))


class DeviceMiddleware(EitherMode):
    def arrive(self, request):
        value = request.COOKIES.get(COOKIE)
        device = _signed(value, _signing()) if value else None
        request.fresh_device = device is None
        request.device = device or secrets.token_urlsafe(24)
        return None, acting.set(mark(request.device))

    def depart(self, kept):
        acting.reset(kept)

    def leave(self, request, response):
        if request.fresh_device and (request.method not in SAFE_METHODS or getattr(request, "keeps_device", False)):
            response.set_signed_cookie(COOKIE, request.device, salt=COOKIE, max_age=MAX_AGE, httponly=True,
                                       samesite="Lax", secure=settings.SESSION_COOKIE_SECURE)
        return response


def kept(request: TableRequest) -> str:
    """The phone's device id, to be stored by a page that is only opened (a club member's seat taken on opening the
    battle): a phone new to the site keeps it (its cookie is set), as a form sent would."""
    request.keeps_device = True
    return request.device


def _left_on_device(device: str):
    """What the device holds with no account: the matches it made and the seats (or watch
    places) it joined. Collections and statistics belong to players, not devices; tournaments
    belong to clubs."""
    from tracker.models import Access, Match

    return (Match.objects.filter(owner_device=device, owner__isnull=True),
            Access.objects.filter(device=device, user__isnull=True))


def matches_on_device(device: str) -> int:
    """How many matches signing in could hand to an account (made or joined here, counted once)."""
    if not device:
        return 0
    made, joined = _left_on_device(device)
    return len(set(made.values_list("pk", flat=True)) | set(joined.values_list("match_id", flat=True)))


def keep_device_matches(device: str, user) -> int:
    """Hand the device's matches and seats to `user`; how many matches changed hands.

    Callers pass `request.device` (from the signed cookie), never anything from the form,
    so a player can only ever hand over the matches of the phone they are holding.
    """
    if not device:
        return 0
    with transaction.atomic():
        count = matches_on_device(device)
        made, joined = _left_on_device(device)
        # Kept matches belong to the account alone: signing out leaves this phone no hold on them
        # (a store's shared tablet must not keep control of an account's matches).
        made.update(owner=user, owner_device="")
        joined.update(user=user)
    return count


def client_address(request: HttpRequest) -> str:
    """The address of the client, for per-address limits.

    With TRUSTED_PROXY_COUNT = 0 the app faces clients directly and X-Forwarded-For is
    ignored (anyone can send one). With N proxies in front, each appends the address it
    was reached from, so the Nth entry from the right was written by our outermost proxy;
    the entries left of it come from the client and are never used. A header too short
    or not an address falls back to REMOTE_ADDR (the proxy itself): stricter, never looser.
    """
    remote = request.META.get("REMOTE_ADDR", "")
    hops = settings.TRUSTED_PROXY_COUNT
    if hops <= 0:
        return remote
    entries = [entry.strip() for entry in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    if len(entries) < hops:
        return remote
    try:
        return str(ipaddress.ip_address(entries[-hops]))
    except ValueError:
        return remote
