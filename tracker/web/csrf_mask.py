"""A page's CSRF token as Django makes it, its mask drawn from one read of the system's randomness.

Every page with a form carries the phone's CSRF secret masked with 32 random letters and digits, drawn anew for each
answer (against BREACH, as Django does). Django draws the mask with `secrets.choice` 32 times, a read of the system's
randomness each: about 0.1 ms of a Card Crush reveal's 4, which the floor (GET /healthz, no form) does not pay. Here
the 32 come from one read of random bytes, each byte taken if it is below 248 (four times the 62 letters and digits)
as the letter at its remainder, so every letter is as likely as Django's; Django's middleware unmasks it as its own.

`csrf` is a context processor listed after Django's own (settings.TEMPLATES): its `csrf_token` is the one a template
reads. A phone without a secret yet gets one from Django's `get_token` (which sets the cookie), as before.
"""

import secrets

from django.http import HttpRequest
from django.middleware.csrf import CSRF_ALLOWED_CHARS, CSRF_SECRET_LENGTH, get_token
from django.utils.functional import SimpleLazyObject

_INDEX = {letter: number for number, letter in enumerate(CSRF_ALLOWED_CHARS)}
_LETTERS = frozenset(CSRF_ALLOWED_CHARS)
_KINDS = len(CSRF_ALLOWED_CHARS)
_TAKEN = 256 - 256 % _KINDS
"""Bytes at or above this would make the first letters likelier: drawn again."""


def _mask() -> str:
    """CSRF_SECRET_LENGTH letters and digits, each uniformly random (as Django's `_get_new_csrf_string`)."""
    letters: list[str] = []
    while len(letters) < CSRF_SECRET_LENGTH:
        letters += [CSRF_ALLOWED_CHARS[byte % _KINDS] for byte in secrets.token_bytes(CSRF_SECRET_LENGTH + 8)
                    if byte < _TAKEN]
    return "".join(letters[:CSRF_SECRET_LENGTH])


def masked(secret: str) -> str:
    """`secret` masked as Django's `_mask_cipher_secret` masks it: the mask, then each letter moved on by the mask's."""
    mask = _mask()
    return mask + "".join(CSRF_ALLOWED_CHARS[(_INDEX[letter] + _INDEX[key]) % _KINDS]
                          for letter, key in zip(secret, mask, strict=True))


def token(request: HttpRequest) -> str:
    """As `django.middleware.csrf.get_token`: the secret the middleware read, masked anew, and the cookie renewed."""
    secret = request.META.get("CSRF_COOKIE")
    if secret is None or len(secret) != CSRF_SECRET_LENGTH or not _LETTERS.issuperset(secret):
        return get_token(request)  # a new secret (the middleware checked the one it read)
    request.META["CSRF_COOKIE_NEEDS_UPDATE"] = True
    return masked(secret)


def csrf(request: HttpRequest) -> dict:
    """Context processor: `csrf_token` as Django's built-in one gives it, masked here."""
    return {"csrf_token": SimpleLazyObject(lambda: token(request))}
