"""A page's CSRF token masked with one read of randomness (tracker/web/csrf_mask.py) is Django's token: it unmasks to
the phone's secret, its mask is new for every answer and uniformly drawn, and the middleware takes it."""

from collections import Counter

from django.middleware.csrf import CSRF_ALLOWED_CHARS, _get_new_csrf_string, _unmask_cipher_token
from django.urls import reverse

from tracker.models import Match
from tracker.web import csrf_mask

from .helpers import csrf_token_from


def test_a_masked_secret_unmasks_to_itself_with_a_new_mask_each_time():
    secret = _get_new_csrf_string()
    tokens = [csrf_mask.masked(secret) for _ in range(200)]
    assert all(len(token) == 64 and set(token) <= set(CSRF_ALLOWED_CHARS) for token in tokens)
    assert all(_unmask_cipher_token(token) == secret for token in tokens)
    assert len({token[:32] for token in tokens}) == 200


def test_every_letter_of_a_mask_is_as_likely():
    drawn = Counter("".join(csrf_mask._mask() for _ in range(2000)))  # 64,000 letters, about 1,032 of each
    assert set(drawn) == set(CSRF_ALLOWED_CHARS)
    assert min(drawn.values()) > 850 and max(drawn.values()) < 1250, drawn.most_common()


def test_a_pages_forms_carry_the_phones_secret_masked_anew_and_are_taken(locked, csrf_client):
    first = csrf_token_from(csrf_client, locked.get_absolute_url())  # a first visit: Django's get_token makes the secret
    second = csrf_token_from(csrf_client, locked.get_absolute_url())  # masked here, the cookie renewed
    secret = csrf_client.cookies["csrftoken"].value
    assert _unmask_cipher_token(first) == _unmask_cipher_token(second) == secret and first != second
    seq = Match.objects.get(pk=locked.pk).board_mark
    taken = csrf_client.post(reverse("match_act", args=[locked.pk]),
                             {"seq": seq, "action": "play_round", "csrfmiddlewaretoken": second})
    assert taken.status_code == 302 and Match.objects.get(pk=locked.pk).head == 3
