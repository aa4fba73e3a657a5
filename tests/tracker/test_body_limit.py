"""A body larger than any form takes is refused before it is read (tracker/web/body_limit.py)."""

import asyncio

import pytest
from django.test import Client
from django.urls import reverse

from tracker.models import Match
from tracker.web import body_limit

pytestmark = pytest.mark.django_db


def test_a_body_past_the_limit_is_answered_413_in_the_phones_language_and_changes_nothing(client: Client):
    too_much = b"x" * (body_limit.MOST_BYTES + 1)
    response = client.post(reverse("match_import"), too_much, content_type="application/octet-stream")
    assert response.status_code == 413
    page = response.content.decode()
    # The files' limits, as the forms say them (the import form: 2 MB), not the request's 3 MB.
    assert "A match file may be at most 2 MB, a card list 1 MB." in page
    assert f'href="{reverse("match_import")}">Back to the form' in page
    german = client.post(reverse("match_import"), too_much, content_type="application/octet-stream",
                         headers={"Accept-Language": "de"})
    assert "mehr, als dieser Server" in german.content.decode()
    assert not Match.objects.exists()


def test_the_413_page_is_drawn_for_the_phone_as_any_page(db):
    """Signed in, the refusal showed "Sign in" in the top bar: it was drawn before the account was known."""
    from django.contrib.auth import get_user_model

    phone = Client()
    phone.force_login(get_user_model().objects.create_user("ana", password="pw"))
    response = phone.post(reverse("match_import"), b"x" * (body_limit.MOST_BYTES + 1),
                          content_type="application/octet-stream")
    assert response.status_code == 413 and "Sign in" not in response.content.decode()


def test_a_form_within_the_limit_goes_through(client: Client):
    assert client.get(reverse("match_import")).status_code == 200
    response = client.post(reverse("match_import"), {"file": ""})
    assert response.status_code == 422  # the form's own refusal: no file


def served(scope_headers: list, chunks: list[bytes]) -> tuple[list[dict], dict]:
    """What the wrapped application reads of a request sent in `chunks` (then the client leaving), and the
    headers it is handed."""
    read: list[dict] = []
    handed: dict = {}

    async def app(scope, receive, send):
        handed.update(scope["headers"])
        while True:
            message = await receive()
            read.append(message)
            if message["type"] != "http.request" or not message.get("more_body"):
                break
        read.append(await receive())  # Django listens for the client leaving after the body

    sent = iter([*({"type": "http.request", "body": chunk, "more_body": n < len(chunks) - 1}
                   for n, chunk in enumerate(chunks)), {"type": "http.disconnect"}])

    async def receive():
        return next(sent)

    asyncio.run(body_limit.bounded(app)({"type": "http", "headers": scope_headers}, receive, None))
    return read, handed


def test_the_server_reads_nothing_of_a_body_declared_too_large():
    """Django's ASGI handler spooled a 300 MB body to disk before any check; it is now handed none of it, and
    then only the client leaving, however much it sends."""
    chunk = b"x" * 1024 * 1024
    read, _headers = served([(b"content-length", str(300 * len(chunk)).encode())], [chunk] * 4)
    assert read == [{"type": "http.request", "body": b"", "more_body": False}, {"type": "http.disconnect"}]


def test_a_body_sent_without_a_length_is_read_only_past_the_limit_then_refused_by_its_length():
    chunk = b"x" * 1024 * 1024
    read, headers = served([], [chunk] * 5)
    assert read == [{"type": "http.request", "body": b"", "more_body": False}, {"type": "http.disconnect"}]
    assert int(headers[b"content-length"]) > body_limit.MOST_BYTES  # so TooLargeMiddleware answers 413
    small, _headers = served([], [b"hel", b"lo"])
    assert [message.get("body") for message in small] == [b"hel", b"lo", None]
