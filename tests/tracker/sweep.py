"""The routes and the table the two sweeps (test_secrecy_sweep.py, test_write_sweep.py) go over.

`routes()` enumerates the URL configuration from the resolver, so a new route is swept without
editing a test; `urls(route, ...)` fills every path parameter with every id, slug or token of its
kind that exists. A parameter the table below cannot fill fails the sweep: teach it here.

`Table` builds the same world every time (the same rows in the same order, fixed seeds, tokens
and passwords), so two builds that differ in one hidden entry have the same ids: a club with an
organiser and members, a club match between the owner's phone (Ana, seat 0) and Ben's own phone
(seat 1), a spectator, a member of another club, an outsider, the account that added the
catalog's cards, a tournament, collections and invites, and every catalog of the demo.
"""

import itertools
import re
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.management.color import no_style
from django.db import connection
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


def _account(name: str, club: Club | None = None, role: str = Membership.MEMBER) -> Client:
    user = get_user_model().objects.create_user(name, password=PASSWORD)
    Player.objects.get_or_create(name=name.capitalize(), defaults={"user": user})
    if club is not None:
        Membership.objects.create(club=club, user=user, role=role)
    client = Client()
    client.force_login(user)
    client.user = user  # type: ignore[attr-defined]
    return client


@dataclass
class Table:
    """One world of the sweeps (see the module docstring); `phones` by persona."""

    slug: str
    match: Match = field(init=False)
    phones: dict[str, Client] = field(init=False)

    def __post_init__(self) -> None:
        cache.clear()
        reset_sequences()
        creator = _account("maker")  # added every catalog card: its pages say what it may change
        demo.load_catalogs()
        # This game's catalog, and the Card Crush card the collections hold: every card is a page to sweep.
        keep = Card.objects.filter(slug="card-crush").order_by("name").values_list("pk", flat=True)[:1]
        Card.objects.exclude(slug=self.slug).exclude(pk__in=list(keep)).delete()
        Card.objects.update(created_by=creator.user, created_device="")  # type: ignore[attr-defined]
        club, other = Club.objects.create(name="Friday Club"), Club.objects.create(name="Other Club")
        owner = _account("ana", club)
        organiser = _account("orga", club, Membership.ORGANISER)
        member = _account("mem", club)
        removed = _account("gone", club)
        far = _account("far", other, Membership.ORGANISER)
        self.match = services.match_create(slug=self.slug, player_names=["Ana", "Ben"], config={},
                                           owner=owner.user, club=club)  # type: ignore[attr-defined]
        # The same seed in every build: the page shows its fingerprint.
        Match.objects.filter(pk=self.match.pk).update(seed=SEED, state=rules.GAMES[self.slug].new_match({}, SEED))
        self.match.refresh_from_db()
        seat, watch = (Invite.objects.create(match=self.match, kind=kind, seat=seat, token=f"{kind}-{self.match.pk}")
                       for kind, seat in ((Invite.SEAT, 1), (Invite.WATCH, None)))
        ben, spectator, joined = Client(), Client(), _account("chloe")
        Access.objects.create(match=self.match, device=device_of(ben), role=Access.PLAYER, seat=1, invite=seat)
        Access.objects.create(match=self.match, device=device_of(spectator), role=Access.SPECTATOR, invite=watch)
        Access.objects.create(match=self.match, device=device_of(joined), user=joined.user,  # type: ignore[attr-defined]
                              role=Access.SPECTATOR, invite=watch)
        signed_out = Client()  # the same tablet as `joined`, signed out since it joined
        signed_out.cookies[COOKIE] = joined.cookies[COOKIE].value
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
                       "organiser": organiser, "far": far, "outsider": Client(), "maker": creator,
                       "signed_out": signed_out, "removed": removed}

    def enter(self, action: dict, seat: int) -> None:
        """A secret entry, as that seat's phone makes it."""
        self.match.refresh_from_db()
        services.match_apply_action(match=self.match, action=action, expected_seq=self.match.head,
                                    by=By(self.match.players()[seat].name, (seat,)))
        self.match.refresh_from_db()
