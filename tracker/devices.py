"""Which device a request comes from, so a match can belong to a phone without an account.

Each browser gets a random device id in a long-lived signed cookie the first time it
visits. A match made without signing in belongs to that device; signing in later
hands the device's matches to the account (see `claim_device_matches`).
"""

import secrets

from django.conf import settings

COOKIE = "tk_device"
MAX_AGE = 60 * 60 * 24 * 730


class DeviceMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        device = request.get_signed_cookie(COOKIE, default=None, salt=COOKIE)
        fresh = device is None
        request.device = device or secrets.token_urlsafe(24)
        response = self.get_response(request)
        if fresh:
            response.set_signed_cookie(COOKIE, request.device, salt=COOKIE, max_age=MAX_AGE, httponly=True,
                                       samesite="Lax", secure=settings.SESSION_COOKIE_SECURE)
        return response


def claim_device_matches(sender, request, user, **kwargs):
    """On sign-in, the matches this device made and the seats it joined go with the account."""
    from .models import Access, Match

    device = getattr(request, "device", None)
    if device:
        Match.objects.filter(owner_device=device, owner__isnull=True).update(owner=user)
        Access.objects.filter(device=device, user__isnull=True).update(user=user)


