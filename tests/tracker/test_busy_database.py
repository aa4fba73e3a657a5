"""A database too busy to answer in time (tracker/web/busy.py) is a 503 with Retry-After that changes
nothing; any other database error stays a server error."""

import pytest
from django.db import OperationalError, transaction
from django.http import HttpResponse
from django.test import override_settings
from django.urls import path

from tracker.models import Match
from tracker.web.busy import busy


class PsycopgLockTimeout(Exception):
    sqlstate = "55P03"


def locked(request):
    with transaction.atomic():  # as every change is made (tracker/matches/services.py)
        Match.objects.create(slug="card-crush", rules_version="1")
        raise OperationalError("database is locked")


def broken(request):
    raise OperationalError("no such table: tracker_nothing")


def fine(request):
    return HttpResponse("ok")


urlpatterns = [path("locked/", locked), path("broken/", broken), path("fine/", fine)]


def test_it_tells_busy_from_broken():
    timeout = OperationalError("canceling statement due to lock timeout")
    timeout.__cause__ = PsycopgLockTimeout()
    assert busy(OperationalError("database is locked")) and busy(OperationalError("database table is locked"))
    assert busy(timeout)
    assert not busy(OperationalError("no such table: x")) and not busy(ValueError("database is locked"))


@pytest.mark.django_db(transaction=True)
@override_settings(ROOT_URLCONF=__name__)
def test_a_busy_database_is_a_503_that_changed_nothing(client):
    client.raise_request_exception = False
    response = client.post("/locked/", headers={"Accept-Language": "de"})
    assert response.status_code == 503 and response["Retry-After"] == "2"
    assert "Nichts wurde geändert" in response.content.decode()
    assert Match.objects.count() == 0
    assert client.get("/fine/").status_code == 200


@override_settings(ROOT_URLCONF=__name__)
def test_another_database_error_is_still_a_server_error(client):
    client.raise_request_exception = False
    assert client.get("/broken/").status_code == 500
