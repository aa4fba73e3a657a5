"""The routes and the table the two sweeps (test_secrecy_sweep.py, test_write_sweep.py) go over.

`routes()` enumerates the URL configuration from the resolver, so a new route is swept without
editing a test; `urls(route, ...)` fills every path parameter with every id, slug or token of its
kind that exists. A parameter the table below cannot fill fails the sweep: teach it here.

`Table` builds the same world every time (the same rows in the same order, fixed seeds, tokens,
passwords and device ids), so two builds that differ in one hidden entry have the same ids: a club with
an organiser and members, a club match of each game asked for between the owner's phone (Ana, seat 0)
and Ben's own phone (seat 1), a spectator, a member of another club, an outsider, the account that
added the catalog's cards, a tournament, collections, invites and a name claim, and every catalog of
the demo (each card a page, under its own game).
"""

import itertools
import logging
import re
from contextlib import contextmanager
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.management.color import no_style
from django.db import connection
from django.http import HttpResponse
from django.template.base import Template
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

import rules
from tracker import demo
from tracker.matches import services
from tracker.matches.news import By
from tracker.models import (
    Access,
    Card,
    Club,
    ClubInvite,
    CollectionCard,
    Entrant,
    Invite,
    Match,
    Membership,
    NameClaim,
    Pairing,
    Player,
    Proposal,
    Tournament,
)
from tracker.people.devices import COOKIE

from .helpers import device_of

PK_AFTER = {"matches": Match, "battles": Match, "cards": Card, "clubs": Club, "players": Player,
            "tournaments": Tournament, "collections": Player}
"""What a route's `pk` names, by the literal segment before it (matches/<pk>/, cards/<slug>/<pk>/)."""
PK_IN_ROUTE = {"club_collection_detail": Player, "club_collection_add": Player, "club_collection_upgrade": Player}
"""Routes whose `pk` follows another parameter (collections/clubs/<club>/<pk>/): a player."""


@dataclass(frozen=True)
class Route:
    name: str
    path: str
    params: tuple[str, ...]


def routes() -> list[Route]:
    """Every named route of the URL configuration, includes walked."""
    found: list[Route] = []

    def walk(patterns, prefix: str) -> None:
        for entry in patterns:
            if isinstance(entry, URLResolver):
                walk(entry.url_patterns, prefix + str(entry.pattern))
            elif isinstance(entry, URLPattern):
                assert entry.name, f"an unnamed route {prefix}{entry.pattern}: name it so the sweeps can reverse it"
                path = prefix + str(entry.pattern)
                found.append(Route(entry.name, path, tuple(re.findall(r"<(?:\w+:)?(\w+)>", path))))
    walk(get_resolver().url_patterns, "")
    return found


def _pk_model(route: Route):
    if route.name in PK_IN_ROUTE:
        return PK_IN_ROUTE[route.name]
    literal = route.path.split("<pk>")[0].split("<int:pk>")[0].rstrip("/").split("/")
    literal = [segment for segment in literal if segment and not segment.startswith("<")]
    model = PK_AFTER.get(literal[-1]) if literal else None
    assert model is not None, f"{route.name} ({route.path}): teach tests/tracker/sweep.py what its pk names"
    return model


def values(route: Route, param: str, slug: str | None) -> list:
    """Every value of this kind that exists (cards: of the route's game)."""
    if param == "slug":
        return list(rules.GAMES)
    if param == "pk":
        model = _pk_model(route)
        rows = model.objects.order_by("pk").values_list("pk", flat=True)
        # A card under its own game's slug; a game with no card in the table gets every card (404s).
        return list(rows.filter(slug=slug) if model is Card and slug else []) or list(rows)
    fillers = {
        "token": lambda: [*Invite.objects.order_by("pk").values_list("token", flat=True),
                          *ClubInvite.objects.order_by("pk").values_list("token", flat=True)],
        "seat": lambda: [0, 1],
        "proposal_id": lambda: list(Proposal.objects.order_by("pk").values_list("pk", flat=True)),
        "invite_id": lambda: sorted({*Invite.objects.values_list("pk", flat=True),
                                     *ClubInvite.objects.values_list("pk", flat=True)}),
        "member_id": lambda: list(Membership.objects.order_by("pk").values_list("pk", flat=True)),
        "club_id": lambda: list(Club.objects.order_by("pk").values_list("pk", flat=True)),
        "club": lambda: list(Club.objects.order_by("pk").values_list("pk", flat=True)),
        "entry": lambda: list(CollectionCard.objects.order_by("pk").values_list("pk", flat=True)),
        "claim_id": lambda: list(NameClaim.objects.order_by("pk").values_list("pk", flat=True)),
    }
    assert param in fillers, f"{route.name} ({route.path}): teach tests/tracker/sweep.py to fill <{param}>"
    filled = fillers[param]()
    assert filled, f"{route.name}: nothing exists to fill <{param}> with; the table must hold one"
    return filled


def urls(route: Route) -> list[str]:
    """The route with every combination of existing values for its parameters."""
    if not route.params:
        return [reverse(route.name)]
    slugs = values(route, "slug", None) if "slug" in route.params else [None]
    found = []
    for slug in slugs:
        choices = [[slug] if param == "slug" else values(route, param, slug) for param in route.params]
        assert all(choices), f"{route.name}: a parameter could not be filled"
        for combination in itertools.product(*choices):
            found.append(reverse(route.name, kwargs=dict(zip(route.params, combination, strict=True))))
    return found


@contextmanager
def sweeping():
    """What thousands of requests in a row need, and nothing a test of one page does: Django logs every
    403 and 404 with its traceback (only a 500, which fails the sweep anyway, is still logged), and the
    test environment copies every template's context for `response.context`, which the sweeps never read.
    Pages are drawn as in production."""
    logger = logging.getLogger("django.request")
    level, instrumented = logger.level, Template._render
    logger.setLevel(logging.ERROR)
    Template._render = _render  # type: ignore[method-assign]
    try:
        yield
    finally:
        logger.setLevel(level)
        Template._render = instrumented  # type: ignore[method-assign]


def _render(self, context):
    """django.template.Template._render as Django has it outside tests."""
    return self.nodelist.render(context)


def reset_sequences() -> None:
    """Ids start after the highest stored one, so two builds in rolled-back transactions get the same ids
    (PostgreSQL's sequences are not rolled back with the rows)."""
    from django.apps import apps

    statements = connection.ops.sequence_reset_sql(no_style(), list(apps.get_app_config("tracker").get_models())
                                                   + [get_user_model()])
    with connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)


PASSWORD = "a table password 42"
SEED = "5eed" * 8


def _phone(name: str) -> Client:
    """A phone whose device id is the same in every build (a new phone draws a random one): what is kept
    per device, such as the limits' counters in the cache, then has the same keys in both worlds."""
    signed = HttpResponse()
    signed.set_signed_cookie(COOKIE, f"sweep-{name}", salt=COOKIE)  # as DeviceMiddleware signs it
    client = Client()
    client.cookies[COOKIE] = signed.cookies[COOKIE].value
    return client


def _account(name: str, club: Club | None = None, role: str = Membership.MEMBER) -> Client:
    user = get_user_model().objects.create_user(name, password=PASSWORD)
    Player.objects.get_or_create(name=name.capitalize(), defaults={"user": user})
    if club is not None:
        Membership.objects.create(club=club, user=user, role=role)
    client = _phone(name)
    client.force_login(user)
    client.user = user  # type: ignore[attr-defined]
    return client


class Table:
    """One world of the sweeps (see the module docstring): a club match of each game in `slugs`, in that
    order, between the owner's phone (Ana, seat 0) and Ben's own phone (seat 1); `phones` by persona."""

    def __init__(self, *slugs: str) -> None:
        cache.clear()
        reset_sequences()
        creator = _account("maker")  # added every catalog card: its pages say what it may change
        demo.load_catalogs()  # every game's cards: each is a page to sweep, under its own game
        Card.objects.update(created_by=creator.user, created_device="")  # type: ignore[attr-defined]
        club, other = Club.objects.create(name="Friday Club"), Club.objects.create(name="Other Club")
        owner = _account("ana", club)
        organiser = _account("orga", club, Membership.ORGANISER)
        member = _account("mem", club)
        removed = _account("gone", club)
        far = _account("far", other, Membership.ORGANISER)
        ben, spectator, joined = _phone("ben"), _phone("spectator"), _account("chloe")
        self.matches = {slug: self._match(slug, owner, ben, spectator, joined) for slug in slugs}
        self.slug, self.match = slugs[0], self.matches[slugs[0]]
        signed_out = _phone("chloe")  # the same tablet as `joined`, signed out since it joined
        ClubInvite.objects.create(club=club, token="club-link")
        NameClaim.objects.create(club=club, slug="card-crush", name="Store Dragon")
        Proposal.objects.create(match=self.match, kind=Proposal.GOTO, step=0, payload={"why": "moves"}, at_seq=0,
                                asked_by=1, needs=0, status=Proposal.REFUSED)  # an answered request
        card = Card.objects.filter(slug="card-crush").order_by("name").first()
        ana = Player.objects.get(name="Ana")
        CollectionCard.objects.create(player=ana, card=card)
        CollectionCard.objects.create(player=ana, club=club, card=card)
        tournament = Tournament.objects.create(name="Spring Cup", club=club)
        first = Entrant.objects.create(tournament=tournament, player=ana)
        second = Entrant.objects.create(tournament=tournament, player=Player.objects.get(name="Ben"))
        Pairing.objects.create(tournament=tournament, round=1, table=1, first=first, second=second)
        Membership.objects.filter(user=removed.user).delete()  # type: ignore[attr-defined]
        self.phones = {"owner": owner, "ben": ben, "spectator": spectator, "member": member,
                       "organiser": organiser, "far": far, "outsider": _phone("outsider"), "maker": creator,
                       "signed_out": signed_out, "removed": removed}

    def trim_catalog(self, used: set[tuple[str, str]], others: int = 2) -> None:
        """Only the catalog's cards in `used` (slug, name) and the first `others` by name of each game's rest.

        Each card is a page of every card route. A card no entry uses is answered alike in both worlds
        unless the code every such card goes through leaks, and two of them show that as well as eighty
        do; the lists, searches and pickers around them are still swept. The eighty were half the sweep."""
        kept = set(used)
        for slug in {card_slug for card_slug, _name in Card.objects.values_list("slug", "name")}:
            rest = Card.objects.filter(slug=slug).exclude(name__in=[name for game, name in used if game == slug])
            kept |= {(slug, name) for name in rest.order_by("name").values_list("name", flat=True)[:others]}
        Card.objects.exclude(pk__in=[pk for pk, slug, name in Card.objects.values_list("pk", "slug", "name")
                                     if (slug, name) in kept]).delete()

    @staticmethod
    def _match(slug: str, owner: Client, ben: Client, spectator: Client, joined: Client) -> Match:
        match = services.match_create(slug=slug, player_names=["Ana", "Ben"], config={},
                                      owner=owner.user, club=Club.objects.get(name="Friday Club"))  # type: ignore[attr-defined]
        # The same seed in every build: the page shows its fingerprint.
        Match.objects.filter(pk=match.pk).update(seed=SEED, state=rules.GAMES[slug].new_match({}, SEED))
        match.refresh_from_db()
        seat, watch = (Invite.objects.create(match=match, kind=kind, seat=seat, token=f"{kind}-{match.pk}")
                       for kind, seat in ((Invite.SEAT, 1), (Invite.WATCH, None)))
        Access.objects.create(match=match, device=device_of(ben), role=Access.PLAYER, seat=1, invite=seat)
        Access.objects.create(match=match, device=device_of(spectator), role=Access.SPECTATOR, invite=watch)
        Access.objects.create(match=match, device=device_of(joined), user=joined.user,  # type: ignore[attr-defined]
                              role=Access.SPECTATOR, invite=watch)
        return match

    def enter(self, action: dict, seat: int, slug: str | None = None) -> None:
        """An entry, as that seat's phone makes it, in the match of `slug` (the first game's by default)."""
        match = self.matches[slug or self.slug]
        match.refresh_from_db()
        services.match_apply_action(match=match, action=action, expected_seq=match.head,
                                    by=By(match.players()[seat].name, (seat,)))
        match.refresh_from_db()


def card_names(value) -> list[str]:
    """The names of the cards in an action (a deck, a lineup, a card and its backup)."""
    if isinstance(value, dict):
        return [value["name"]] if isinstance(value.get("name"), str) else [
            name for inner in value.values() for name in card_names(inner)]
    if isinstance(value, list | tuple):
        return [name for inner in value for name in card_names(inner)]
    return []
