"""Opening a match is one query: the match, its grants, its players and its head action together
(MatchQuerySet.with_people), and `{% url %}` reverses each address once per process (tracker/templatetags/reversed.py)."""

import pytest
from django.db import connection
from django.template import engines
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse, set_script_prefix

from tracker.matches import services
from tracker.matches.match_read import match_read
from tracker.models import Action, Match
from tracker.people import access

from .helpers import ANA_DECK, BEN_DECK, device_of, lock, play, seated_phone, start_battle, watching_phone

pytestmark = pytest.mark.django_db


def _request(client: Client):
    request = RequestFactory().get("/", REMOTE_ADDR="203.0.113.9")
    request.device = device_of(client)
    request.user = type("Anonymous", (), {"is_authenticated": False})()
    return request


def test_it_reads_the_match_its_grants_and_its_players_in_one_query():
    owner = Client(REMOTE_ADDR="203.0.113.9")
    match = start_battle(owner, "Ana", "Ben")
    player = seated_phone(owner, match, 1)
    watching_phone(owner, match)
    with CaptureQueriesContext(connection) as read:
        opened, seen_by = access.match_for(_request(player), match.pk)
        names = [seated.name for seated in opened.players()]
    assert len(read) == 1
    assert names == ["Ana", "Ben"]
    assert (seen_by.role, seen_by.seat, seen_by.claimed, seen_by.shared) == (access.PLAYER, 1, frozenset({1}), True)


def _fields(action: Action | None) -> dict | None:
    return None if action is None else {field.attname: getattr(action, field.attname)
                                        for field in Action._meta.concrete_fields}


def test_the_head_action_is_read_with_the_match_as_its_own_query_reads_it(catalog):
    """Every page and part of a match shows the step just taken (services.head_action): read with the match, at
    the start (none), after a secret entry, a reveal, and an undo that leaves the undone action in the log."""
    owner = Client(REMOTE_ADDR="203.0.113.9")
    match = start_battle(owner, "Ana", "Ben")
    steps = [lambda: None, lambda: lock(match, 0, ANA_DECK), lambda: lock(match, 1, BEN_DECK), lambda: play(match),
             lambda: services.match_goto(match_id=match.pk, step=2, expected_seq=3)]
    for step in steps:
        step()
        with CaptureQueriesContext(connection) as read:
            opened, _seen_by = access.match_for(_request(owner), match.pk)
            head = services.head_action(opened)
        assert len(read) == 1
        asked = Match.objects.get(pk=match.pk)
        assert _fields(head) == _fields(services.head_action(asked))
        assert head is None or head.match is opened
    assert opened.head == 2 and head is not None and head.secret and head.created is not None


def test_the_head_action_read_with_the_match_is_not_taken_for_another_step(catalog):
    owner = Client(REMOTE_ADDR="203.0.113.9")
    match = lock(lock(start_battle(owner, "Ana", "Ben"), 0, ANA_DECK), 1, BEN_DECK)
    opened = Match.objects.with_people().get(pk=match.pk)
    play(match)
    opened.refresh_from_db()  # the step moved on since the match was read
    assert services.head_action(opened).seq == 3


def test_the_match_read_from_sql_compiled_once_is_the_querysets(catalog):
    """match_read runs SQL compiled once per process: each field and each annotation as the queryset gives them, for
    each match it is asked for, in both forms; none for an id that is no match's."""
    owner = Client(REMOTE_ADDR="203.0.113.9")
    fresh = start_battle(owner, "Ana", "Ben")
    played = play(lock(lock(start_battle(owner, "Cleo", "Dan"), 0, ANA_DECK), 1, BEN_DECK))
    seated_phone(owner, played, 1)
    Match.objects.filter(pk=played.pk).update(finished="2026-11-30T01:02:03Z")  # a date and a winner's id read too
    for match in (fresh, played):
        for head in (True, False):
            read, asked = match_read(match.pk, head=head), Match.objects.with_people(head=head).get(pk=match.pk)
            assert type(read) is Match and not read._state.adding and read._state.db == asked._state.db
            assert read.__dict__.keys() - {"_state"} == asked.__dict__.keys() - {"_state"}
            assert {name: value for name, value in read.__dict__.items() if name != "_state"} == {
                name: value for name, value in asked.__dict__.items() if name != "_state"}
    assert match_read(played.pk + 1000) is None


def _same(read: list, asked: list) -> None:
    assert [type(row) for row in read] == [type(row) for row in asked]
    for row, expected in zip(read, asked, strict=True):
        assert not row._state.adding and row._state.db == expected._state.db
        assert {name: value for name, value in row.__dict__.items() if name not in ("_state", "match")} == {
            name: value for name, value in expected.__dict__.items() if name not in ("_state", "match")}


def test_every_read_compiled_once_gives_what_its_queryset_gives(catalog):
    """The reads compiled once (tracker/matches/compiled.py): the change the live streams read (the requests waiting,
    the newest action; the match's is match_read's, above), an undo's (the line with its kept states, the secret entries
    it takes back), and a read of a few fields, ordered and sliced, each with several values in turn (a value
    compiled in by mistake would show as the first one's rows)."""
    from tracker.matches import live, news
    from tracker.matches.compiled import compiled
    from tracker.people import consent

    owner = Client(REMOTE_ADDR="203.0.113.9")
    fresh = start_battle(owner, "Ana", "Ben")
    played = play(lock(lock(start_battle(owner, "Cleo", "Dan"), 0, ANA_DECK), 1, BEN_DECK))
    services.match_goto(match_id=played.pk, step=2, expected_seq=3)
    few = compiled(lambda match_id, upto: Action.objects.filter(match_id=match_id, seq__lte=upto)
                   .only("seq", "payload", "face_down").order_by("-seq")[:2])
    for match in (fresh, played, Match.objects.get(pk=played.pk)):
        _same(consent.pending(match), list(match.proposals.filter(status="pending", at_seq=match.head)))
        for number in (1, 3, 99):
            _same(news._action_numbered(match.pk, number), list(match.actions.filter(number=number)))
        _same(consent._secrets_up_to(match.pk, match.head), list(match.actions.filter(
            abandoned=False, secret=True, seq__lte=match.head).only("seq", "payload", "face_down")))
        for upto in (0, 1, 3):
            _same(services._line_from(match.pk, 1, upto), list(services._line_from.__wrapped__(match.pk, 1, upto)))
            _same(few(match.pk, upto), list(Action.objects.filter(match_id=match.pk, seq__lte=upto)
                                             .only("seq", "payload", "face_down").order_by("-seq")[:2]))
    assert live.read_change(played.pk + 1000) is None
    rolled = services.match_create(slug="lonely-star", player_names=["Ana", "Ben"], config={})
    for step in range(services.CHECKPOINT_EVERY + 1):
        services.match_apply_action(match_id=rolled.pk, action={"type": "d6", "seat": step % 2}, expected_seq=step)
    line = services._line_from(rolled.pk, services.CHECKPOINT_EVERY, services.CHECKPOINT_EVERY + 1)
    assert line[0].kept_state == rolled.checkpoints.get().state and line[1].kept_state is None
    _same(line, list(services._line_from.__wrapped__(rolled.pk, services.CHECKPOINT_EVERY, services.CHECKPOINT_EVERY + 1)))


def test_the_other_phones_fetch_tells_the_news_from_the_matchs_own_read(catalog):
    """The fetch (or pushed part) of #match after another phone's action says who did what from the head action
    its read of the match carried: no read of the log (Django's queryset for it was a fifth of the part's time)."""
    from django.utils.html import escape

    from tracker.matches import news

    owner = Client(REMOTE_ADDR="203.0.113.9")
    match = lock(lock(start_battle(owner, "Ana", "Ben"), 0, ANA_DECK), 1, BEN_DECK)
    spectator = watching_phone(owner, match)
    match.refresh_from_db()
    htmx = {"HX-Request": "true", "HX-Target": "match", "X-Kept": "1"}
    assert owner.post(reverse("match_act", args=[match.pk]), {"seq": match.head, "action": "play_round"},
                      headers=htmx).status_code == 200
    told = news.said(Match.objects.get(pk=match.pk), None)
    assert told
    with CaptureQueriesContext(connection) as captured:
        part = spectator.get(reverse("match_detail", args=[match.pk]), headers=htmx)
    assert part.status_code == 200 and escape(told) in part.content.decode()
    assert not [query["sql"] for query in captured if query["sql"].startswith('SELECT "tracker_action"')]


def test_a_read_that_cannot_be_compiled_once_is_refused_not_read_wrong():
    from tracker.matches.compiled import compiled

    with pytest.raises(TypeError, match="plain querysets"):
        compiled(lambda pk: Action.objects.select_related("match").filter(pk=pk))(1)
    with pytest.raises(TypeError, match="plain querysets"):
        compiled(lambda pk: Action.objects.filter(pk=pk).values("seq"))(1)
    # A value not passed as it was given (on PostgreSQL, out of a seat's small range: compiled away), or twice.
    with pytest.raises(RuntimeError, match="must stand once"):
        compiled(lambda seat: Action.objects.filter(seat=seat * 10))(1)
    with pytest.raises(RuntimeError, match="must stand once"):
        compiled(lambda number: Action.objects.filter(number=number, seq=number))(1)


def test_the_grants_read_with_the_match_are_used_once_so_a_later_question_sees_a_new_grant():
    owner = Client(REMOTE_ADDR="203.0.113.9")
    match = start_battle(owner, "Ana", "Ben")
    opened = Match.objects.with_people().get(pk=match.pk)
    assert access.viewer(_request(owner), opened).claimed == frozenset()
    seated_phone(owner, match, 1)
    assert access.viewer(_request(owner), opened).claimed == frozenset({1})


def test_a_match_without_grants_or_seats_reads_them_as_empty():
    match = Match.objects.create(slug="card-crush", rules_version="1", config={}, state={})
    opened = Match.objects.with_people().get(pk=match.pk)
    assert opened.players() == []
    assert access.viewer(_request(Client()), opened) is not None  # a table match: everyone watches


def test_each_address_is_reversed_for_its_own_arguments_and_script_prefix():
    page = engines["django"].from_string("{% url 'match_detail' pk %}|{% url 'match_log' pk as log %}{{ log }}")
    assert page.render({"pk": 1}) == f"{reverse('match_detail', args=[1])}|{reverse('match_log', args=[1])}"
    assert page.render({"pk": 2}) == f"{reverse('match_detail', args=[2])}|{reverse('match_log', args=[2])}"
    set_script_prefix("/club/")
    try:
        assert page.render({"pk": 2}) == "/club/matches/2/|/club/matches/2/log/"
    finally:
        set_script_prefix("/")
    assert page.render({"pk": 2}).startswith("/matches/2/")
