"""What Tablekeeper stores: players, each game's card catalog, and matches as logs.

A match is its seed plus its list of actions. `Match.state` is only a cached
snapshot of folding the engine over the live actions up to `Match.head`, and each
`Checkpoint` a cached state after one live action; the actions are the truth
(services.replay_problems re-runs them from the seed and compares).
"""

import hashlib
import secrets
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import NamedTuple

from django.conf import settings
from django.db import connection, models
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext_lazy as _

import rules
from tracker.matches import names


def game_choices() -> list[tuple[str, str]]:
    return [(slug, game.name) for slug, game in rules.GAMES.items()]


def new_seed() -> str:
    return secrets.token_hex(16)


class Player(models.Model):
    """Someone who sits at matches, known by name."""

    name = models.CharField(_("name"), max_length=40)
    user = models.OneToOneField(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="player", help_text="The account that plays as this player, if any.")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(Lower("name"), name="player_name_unique")]

    def __str__(self) -> str:
        return self.name

    @staticmethod
    def in_records_of(club: "Club | None" = None) -> models.Q:
        """Players others have put in a club's records (of `club`, or of any): a seat in a club's battle, a
        tournament's entrant, a club collection. Such a name is not taken by signing up with it, since anyone may
        sign up: an organiser of the club gives it, in that club, to the account of the person they know
        (Membership.plays_as)."""
        if club is None:
            return (models.Q(seats__match__club__isnull=False) | models.Q(entries__tournament__club__isnull=False)
                    | models.Q(collection__club__isnull=False))
        return models.Q(seats__match__club=club) | models.Q(entries__tournament__club=club) | models.Q(collection__club=club)

    def in_club_records(self, club: "Club | None" = None) -> bool:
        return Player.objects.filter(Player.in_records_of(club), pk=self.pk).exists()

    @classmethod
    def named(cls, name: str) -> "Player | None":
        """The player called `name` in any letter case (SQLite's lower() folds only ASCII)."""
        return _named(cls.objects.all(), name)


def _named(queryset, name: str, ask_first: bool = True):
    """The row of `queryset` whose name equals `name` ignoring case, Unicode-aware; else one whose name nobody
    could tell from it on a page (names.look: "ꓮna" with a Lisu A is Ana), so a look-alike is never a second
    player, card or claim. `ask_first`: an ASCII name is asked of the database before every row is read (a few
    rows, as a game's claimed names, are read at once)."""
    if "\x00" in name:  # no stored name holds one, and PostgreSQL refuses to compare with it
        return None
    key = name.strip().casefold()
    if ask_first and name.isascii() and (found := queryset.filter(name__iexact=name.strip()).first()) is not None:
        return found
    rows = list(queryset)
    looks = names.look(name)
    return (next((row for row in rows if row.name.casefold() == key), None)
            or next((row for row in rows if names.look(row.name) == looks), None))


def hold_names(kind: str, typed: Iterable[str]) -> None:
    """Until the transaction ends, be the only one who may create a row of `kind` ("player"; "card" for cards and
    claimed names alike, catalog.changes.CARD_NAMES) under any of these names or names drawn like them
    (names.look): whoever creates one reads again by look after this, and creates only what is still absent. The database's constraints
    hold only lower(name), so without this two phones sending "Weiß" and "WEISS", or "KOXA" and Greek "ΚΟΧΑ", at the
    same moment made two players, two cards or two clubs' claims of one name; one phone's claim and another's card
    of one name both stood.

    PostgreSQL: a transaction-scoped advisory lock per name, keyed on a stable hash of (kind, look), taken in key
    order (so two creators of the same names never wait on each other in a circle). SQLite needs nothing: its
    write transaction (BEGIN IMMEDIATE, settings.SQLITE_OPTIONS) already lets one writer in at a time. Called
    inside the creating transaction (transaction.atomic), since the lock ends with it."""
    if not connection.in_atomic_block:
        raise RuntimeError("hold_names outside a transaction holds nothing")
    if connection.vendor != "postgresql":
        return
    keys = sorted({name_key(kind, name) for name in typed})
    with connection.cursor() as cursor:
        for key in keys:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])


def name_key(kind: str, name: str) -> int:
    """The advisory lock's key of a name: the same in every process for names drawn alike (a signed 64-bit
    number, as PostgreSQL takes it)."""
    digest = hashlib.blake2b(f"{kind}\x00{names.look(name)}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


class Card(models.Model):
    """A card in one game's catalog; `stats` is what that game's engine validates."""

    slug = models.CharField(max_length=20, choices=game_choices, help_text="The game, as in rules.GAMES.")
    name = models.CharField(_("name"), max_length=60)
    stats = models.JSONField(default=dict)
    created = models.DateTimeField(auto_now_add=True)
    # Who added it (tracker/catalog/changes.py): an account, else the phone. Neither for the demo
    # catalog and cards from before this was kept; such cards only organisers and staff change.
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_device = models.CharField(max_length=40, blank=True)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint("slug", Lower("name"), name="card_name_unique_per_game")]

    def __str__(self) -> str:
        return self.name

    @classmethod
    def named(cls, slug: str, name: str) -> "Card | None":
        """The catalog card called `name` in any letter case (SQLite's lower() folds only ASCII)."""
        return _named(cls.objects.filter(slug=slug), name)

    def as_rules_card(self) -> dict:
        """The card as the engine takes it: its stats plus its name."""
        return {"name": self.name, **self.stats}


class CardUse(models.Model):
    """A match whose log carries this catalog card (filled as actions are applied or imported).

    The match keeps the card's stats in its actions; this only says who has played the card,
    which decides who may still change it (tracker/catalog/changes.py).
    """

    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="uses")
    match = models.ForeignKey("Match", on_delete=models.CASCADE, related_name="card_uses")

    class Meta:
        constraints = [models.UniqueConstraint("card", "match", name="one_use_per_card_and_match")]

    def __str__(self) -> str:
        return f"card {self.card_id} used in match {self.match_id}"


class CardChange(models.Model):
    """One edit or deletion of a catalog card, or a club's correction of it: who, when, and the values
    before and after.

    Kept when the card is deleted (`card` becomes null; `slug` and `old_name` still say which).
    A club's correction (`club` set) changes the card in that club's new matches only.
    """

    EDIT, DELETE, CLUB = "edit", "delete", "club"
    card = models.ForeignKey(Card, null=True, blank=True, on_delete=models.SET_NULL, related_name="changes")
    slug = models.CharField(max_length=20, choices=game_choices)
    kind = models.CharField(max_length=10, choices=[(EDIT, _("edited")), (DELETE, _("deleted")),
                                                    (CLUB, _("corrected for a club"))])
    club = models.ForeignKey("Club", null=True, blank=True, on_delete=models.CASCADE, related_name="+",
                             help_text="The club whose correction this is (kind CLUB).")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="+")
    device = models.CharField(max_length=40, blank=True, help_text="The phone, when no account was signed in.")
    at = models.DateTimeField(auto_now_add=True)
    old_name = models.CharField(max_length=60)
    old_stats = models.JSONField(default=dict)
    new_name = models.CharField(max_length=60, blank=True)
    new_stats = models.JSONField(null=True, blank=True)
    # The card's id and when it was added, kept when it is deleted (`card` becomes null): a match reads the catalog
    # as it stood when it was made by undoing every change since (tracker/matches/club_cards.py).
    card_key = models.PositiveBigIntegerField(null=True, blank=True, db_index=True)
    card_created = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.kind} of card {self.card_id} at {self.at:%Y-%m-%d %H:%M}"


def new_token() -> str:
    return secrets.token_urlsafe(18)


def invite_expiry():
    from django.utils import timezone

    return timezone.now() + timedelta(days=7)


class Club(models.Model):
    """A game store or a group of friends: how play becomes shared.

    Members (accounts) see the club's matches; the club's statistics, ratings, leaderboards
    and tournaments count only its matches. Organisers run its tournaments, void results,
    reopen finished battles, manage members and invite links. The two `public_` switches let
    anyone read the leaderboard or the tournaments; matches themselves stay members-only.
    """

    name = models.CharField(_("name"), max_length=60)
    created = models.DateTimeField(auto_now_add=True)
    public_leaderboard = models.BooleanField(_("Show the leaderboard to everyone"), default=False)
    public_tournaments = models.BooleanField(_("Show the tournaments to everyone"), default=False)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("club_detail", args=[self.pk])


class Membership(models.Model):
    """An account's place in a club."""

    ORGANISER, MEMBER = "organiser", "member"
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=10, choices=[(ORGANISER, _("organiser")), (MEMBER, _("member"))])
    joined = models.DateTimeField(auto_now_add=True)
    invite = models.ForeignKey("ClubInvite", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    role_changed = models.DateTimeField(null=True, blank=True, help_text="When an organiser last changed the role "
                                                                         "(the club page says who and when).")
    role_changed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                        related_name="+")
    plays_as = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="given_to",
                                 help_text="A name of the club's records without an account that an organiser gave "
                                           "the member: theirs in this club only (tracker/people/clubs.give_name).")
    given_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="+")
    given_at = models.DateTimeField(null=True, blank=True, help_text="When: the member speaks for that player in "
                                                                     "the club's battles set up after it.")

    class Meta:
        ordering = ["joined", "id"]
        constraints = [models.UniqueConstraint("club", "user", name="one_membership_per_club"),
                       models.UniqueConstraint("club", "plays_as", name="one_member_per_given_name")]

    def __str__(self) -> str:
        return f"user {self.user_id} {self.role} of club {self.club_id}"


class Held(NamedTuple):
    """How an account holds a player: since when, and given by which organiser (None: the account's own name)."""

    since: datetime
    given_by: int | None


def players_of(user, club_id: int | None) -> dict[int, Held]:
    """The players an account plays as in a club (club_id None: outside any club), each with how it holds it: its
    own player (the name it signed up with) from its sign-up, and in a club the name an organiser gave it there
    from then on. The one place "this account is that player" is decided: confirmations, seats taken by opening a
    battle, sides of a match or tournament, collections; clubs._playing_in_running asks the same of the database."""
    if user is None or not user.pk:
        return {}
    mine = {pk: Held(user.date_joined, None) for pk in Player.objects.filter(user=user).values_list("pk", flat=True)}
    if club_id is not None:
        for player, since, giver in Membership.objects.filter(club_id=club_id, user=user, plays_as__isnull=False
                                                              ).values_list("plays_as", "given_at", "given_by"):
            mine[player] = Held(since or user.date_joined, giver)  # given_at is set with plays_as
    return mine


class ClubInvite(models.Model):
    """A link (and QR code) that lets a signed-in account join a club as a member, until revoked or expired."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invites")
    token = models.CharField(max_length=40, unique=True, default=new_token)
    created = models.DateTimeField(auto_now_add=True)
    expires = models.DateTimeField(default=invite_expiry)
    revoked = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"invite to club {self.club_id}"


class ClubRemoval(models.Model):
    """An organiser removed an account from the club (leaving of one's own accord is none): the club's links made
    before it no longer let that account in (tracker/people/views.club_join); a link made after it is the organisers'
    new word. Round 35: a removed member tapped the link he had joined by, still open, and was a member again."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="removals")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"user {self.user_id} removed from club {self.club_id}"


class ClubCorrection(models.Model):
    """A club's own stats for a catalog card: its new matches play the card with these, nobody else's change.

    Written only by the club's organisers (tracker/catalog/changes.py), each change kept as a CardChange.
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="corrections")
    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="corrections")
    stats = models.JSONField()

    class Meta:
        constraints = [models.UniqueConstraint("club", "card", name="one_correction_per_club_and_card")]

    def __str__(self) -> str:
        return f"club {self.club_id}'s correction of card {self.card_id}"


class NameClaim(models.Model):
    """A card name a club has claimed in one game's catalog (tracker/catalog/changes.py says what that means)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="name_claims")
    slug = models.CharField(max_length=20, choices=game_choices)
    name = models.CharField(_("name"), max_length=60)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                           related_name="+")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["slug", "name"]
        constraints = [models.UniqueConstraint("slug", Lower("name"), name="one_claim_per_card_name")]

    def __str__(self) -> str:
        return f"{self.name} ({self.slug}) claimed by club {self.club_id}"

    @classmethod
    def named(cls, slug: str, name: str) -> "NameClaim | None":
        # A game's claimed names are few, and most cards have none: one query reads them all.
        return _named(cls.objects.filter(slug=slug).select_related("club"), name, ask_first=False)


class _MatchRows(models.Expression):
    """Rows of another table that belong to the match, read in the match's own query as one JSON array (a
    correlated subquery): opening a match reads its grants and players with it, not in queries of their own."""

    output_field = models.JSONField()

    def __init__(self, source: str, columns: str, link: str):
        super().__init__()
        self.source, self.columns, self.link = source, columns, link

    def as_sql(self, compiler, connection):
        outer = compiler.quote_name(compiler.query.get_initial_alias())
        if connection.vendor == "postgresql":
            rows = f"COALESCE(jsonb_agg(jsonb_build_array({self.columns})), '[]'::jsonb)"
        else:
            rows = f"json_group_array(json_array({self.columns}))"
        return f'(SELECT {rows} FROM {self.source} WHERE {self.link} = {outer}."id")', []


HEAD_FIELDS = ("id", "number", "seq", "seat", "payload", "events", "rolls", "secret", "face_down", "whose",
               "proposal_id", "created")
"""The head action's columns as `_HeadAction` reads them (tracker/matches/services.py: head_action), followed by the
match's version they were read at."""


class _HeadAction(models.Expression):
    """The action that made the match's current step, read in the match's own query as one JSON array of
    HEAD_FIELDS (a correlated subquery; NULL at the start): every page and part of a match shows what just
    happened, and a query of its own cost each of them about as much as the match's."""

    output_field = models.JSONField()

    def as_sql(self, compiler, connection):
        outer = compiler.quote_name(compiler.query.get_initial_alias())
        if connection.vendor == "postgresql":
            row = "jsonb_build_array(a.id, a.number, a.seq, a.seat, a.payload, a.events, a.rolls, a.secret, a.face_down, " \
                  f'a.whose, a.proposal_id, a.created, {outer}."version")'
        else:  # json(): the JSON columns as JSON, not as text
            row = "json_array(a.id, a.number, a.seq, a.seat, json(a.payload), json(a.events), json(a.rolls), " \
                  f'a.secret, json(a.face_down), json(a.whose), a.proposal_id, a.created, {outer}."version")'
        return (f'(SELECT {row} FROM "tracker_action" a WHERE a.match_id = {outer}."id" AND NOT a.abandoned '
                f'AND a.seq = {outer}."head")'), []


class MatchQuerySet(models.QuerySet):
    def with_people(self, head: bool = True) -> "MatchQuerySet":
        """Each match with its grants (`grants_read`: role, seat, device, user id, revoked or not; for
        tracker/people/access.py), its players (`with_players`) and, with `head`, its head action (`head_read`,
        for services.head_action) read in the same query."""
        people = self.with_players().annotate(
            grants_read=_MatchRows('"tracker_access" a', "a.role, a.seat, a.device, a.user_id, a.revoked IS NOT NULL",
                                   "a.match_id"))
        return people.annotate(head_read=_HeadAction()) if head else people

    def with_players(self) -> "MatchQuerySet":
        """Each match with its players (`seated_read`: position, id, name, user id; for `Match.players`) read
        in the same query."""
        return self.annotate(seated_read=_MatchRows('"tracker_seat" s JOIN "tracker_player" p ON p.id = s.player_id',
                                                    "s.position, p.id, p.name, p.user_id", "s.match_id"))

    def visible_to(self, request) -> "MatchQuerySet":
        """The matches this request's device or account may open: the one rule every read goes through.

        Its own matches (made on this device, or by this account), matches it joined by a seat or
        watch link (not revoked), matches of clubs its account belongs to, and the table's matches
        (no owner at all: made by scripts or the demo). Pages, lists, filters, suggestions,
        counts, charts, statistics, ratings and exports all start from here.
        """
        device = getattr(request, "device", "") or "-"
        user = getattr(request, "user", None)
        seen = models.Q(owner__isnull=True, owner_device="", club__isnull=True) | models.Q(owner_device=device)
        # A place joined while signed in is the account's alone, as a match it made (access._mine).
        granted = Access.objects.filter(device=device, user__isnull=True, revoked__isnull=True)
        if user is not None and user.is_authenticated:
            seen |= models.Q(owner=user) | models.Q(club__memberships__user=user)
            granted = Access.objects.filter(models.Q(device=device, user__isnull=True) | models.Q(user=user),
                                            revoked__isnull=True)
        return self.filter(seen | models.Q(pk__in=granted.values("match"))).distinct()

    def counted(self) -> "MatchQuerySet":
        """Finished, not voided, confirmed by its players where a club battle needs that
        (tracker/competition/confirmations.py), decided without corrections, and not left by its owner's
        club membership: the matches statistics, ratings and standings count. `corrected()` are the
        decided ones listed apart."""
        return self.decided().filter(corrected=False)

    def decided(self) -> "MatchQuerySet":
        """Finished with a result that stands (not voided, confirmed, not waiting for an organiser to take
        it over)."""
        return self.filter(finished__isnull=False, voided__isnull=True, unconfirmed=False, orphaned__isnull=True)

    def corrected(self) -> "MatchQuerySet":
        """Decided while a correction of the board stood: shown apart, never counted as a plain result."""
        return self.decided().filter(corrected=True)


class Match(models.Model):
    """One match of one game: options, seed, seats and the log of actions."""

    slug = models.CharField(max_length=20, choices=game_choices, help_text="The game, as in rules.GAMES.")
    rules_version = models.CharField(max_length=20)
    config = models.JSONField(default=dict)
    seed = models.CharField(max_length=64, default=new_seed)
    state = models.JSONField(default=dict)
    head = models.PositiveIntegerField(default=0, help_text="How many live actions the state includes.")
    # Kept beside `head` in the row every change locks, so a change needs no count or MAX over the log.
    line_length = models.PositiveIntegerField(
        default=0, help_text="How many live actions the current line holds: `head` applied, the rest redoable.")
    last_number = models.PositiveIntegerField(
        default=0, help_text="The number of the newest action ever recorded (undone and abandoned ones count).")
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    finished = models.DateTimeField(null=True, blank=True)
    first_finished = models.DateTimeField(
        null=True, blank=True, help_text="When the match first ended; never cleared, so ratings keep its place.")
    winner = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    score = models.CharField(max_length=20, blank=True)
    # Who may see and act (tracker/people/access.py). A match with neither owner nor club belongs to the
    # whole table (demo data, matches made by scripts): anyone on this installation may see and play it.
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="matches")
    owner_device = models.CharField(max_length=40, blank=True, db_index=True)
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.PROTECT, related_name="matches",
                             help_text="Members see the match; it counts in the club's statistics and ratings.")
    voided = models.DateTimeField(null=True, blank=True, help_text="When an organiser voided the result.")
    voided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="+")
    void_reason = models.CharField(_("reason"), max_length=200, blank=True)
    version = models.PositiveIntegerField(default=0, help_text="Goes up with every change; live views poll it.")
    rated = models.BooleanField(default=True, help_text="Counts toward Card Crush ratings once finished.")
    rated_changed = models.DateTimeField(null=True, blank=True, help_text="When an organiser last marked it rated "
                                                                          "or unrated (the battle page says who).")
    rated_changed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                         related_name="+")
    unconfirmed = models.BooleanField(
        default=False, help_text="A club battle some seat's player has not yet confirmed: it counts nowhere until then.")
    # The seed is shown when the match first ends, and an undo cannot take that back: actions
    # numbered above this were entered by players who could know the app's dice (the log says so).
    seed_shown_after = models.PositiveIntegerField(
        null=True, blank=True, help_text="How many actions had been recorded when the seed was first revealed.")

    corrected = models.BooleanField(
        default=False, help_text="Ended while a manual correction stood in its line: its result is listed apart.")
    orphaned = models.DateTimeField(
        null=True, blank=True, help_text="When its owner left the club with the match open: it counts nowhere until "
                                         "an organiser takes it over.")
    news = models.JSONField(
        default=dict, blank=True,
        help_text="The newest change and who made it (tracker/news.py says it), for the other phones.")

    objects = MatchQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name_plural = "matches"

    def __str__(self) -> str:
        return f"{self.get_slug_display()} #{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("match_detail", args=[self.pk])

    @property
    def shown_score(self) -> str:
        """The score in the page's language and the game's words: "3 rounds to 2", "15.000 HP übrig zu 0" in
        German, "durch Aufgabe" for "by resignation"."""
        from .games import pages_for  # the games' pages build on these models

        return pages_for(self.slug).shown_score(self.score)

    @property
    def game(self) -> rules.Game:
        """The rules this match was played under (a retired version for an old match)."""
        game = rules.game_version(self.slug, self.rules_version)
        if game is None:
            raise LookupError(f"{self.slug} rules version {self.rules_version} is not installed")
        return game

    @property
    def seed_fingerprint(self) -> str:
        return rules.seed_fingerprint(self.seed)

    @property
    def seed_known(self) -> bool:
        """Whether the seed has been revealed: the match is over, or was once (then undone)."""
        return self.finished is not None or self.seed_shown_after is not None

    @property
    def board_mark(self) -> str:
        """The board a form is drawn on ("5-7"): its step and the newest log entry's number, which the same step on
        another line (a new step instead of undone ones), or a reopened match played to another end, never has
        again. A page's forms send it as their step (`seq`, read as services.Seq), so one drawn on another line to
        the same step is refused as stale; a form deciding on the result (a void, a confirmation) sends it as
        `result` (`result_changed_since`)."""
        return f"{self.head}-{self.last_number}"

    def row_as_read(self):
        """The match's row while its result is still the one this request read (`board_mark`'s step and number):
        an update of it changes nothing when another request changed the result in between."""
        return Match.objects.filter(pk=self.pk, head=self.head, last_number=self.last_number)

    def result_changed_since(self, drawn: str | None) -> bool:
        """Whether a form drawn for the result `drawn` (its `board_mark`; None: the form says none) is stale."""
        return drawn is not None and drawn != self.board_mark

    def after_seed_shown(self, action: "Action") -> bool:
        """Whether `action` was entered after the seed was revealed, so its app rolls could be foreseen."""
        return self.seed_shown_after is not None and action.number > self.seed_shown_after

    def players(self) -> list[Player]:
        """The players in seat order (seats never change once a match is set up, so this is cached).

        The winner is one of them: read here, a finished match names it with no query (or join) of its own."""
        if not hasattr(self, "_players"):
            seated = self.__dict__.pop("seated_read", None)  # read with the match (MatchQuerySet.with_people)
            if seated is not None:
                self._players = [Player.from_db(self._state.db, ["id", "name", "user_id"], (pk, name, user_id))
                                 for _position, pk, name, user_id in sorted(seated)]
            else:  # the players alone, joined to their seats: a third cheaper than building each Seat as well
                self._players = list(Player.objects.filter(seats__match=self).order_by("seats__position"))
            winner = Match._meta.get_field("winner")
            if self.winner_id is not None and not winner.is_cached(self):
                won = next((player for player in self._players if player.pk == self.winner_id), None)
                if won is not None:
                    winner.set_cached_value(self, won)
        return self._players

    @property
    def left_open(self) -> bool:
        """A club match open with nobody to run it: its owner left the club while it was open (`orphaned`), or it was
        reopened after its owner left with it finished (clubs.leave). It counts nowhere until an organiser who does
        not play in it takes it over."""
        return self.orphaned is not None or (self.club_id is not None and self.owner_id is None
                                             and self.finished is None)

    def sided_with(self, user) -> bool:
        """Whether this account is a side of the match: its player plays in it, or is an entrant of the tournament
        the match is a battle of, or of a running tournament of the match's club. An entrant gains from every
        battle of the tournament, and while it runs from every club battle: the club's ratings break its ties and
        order its pairings, and each rating is replayed through every battle of the club (an entrant unrated a
        battle of two others to move a rival). So an organiser who is one referees none of them."""
        if user is None or not user.pk:
            return False
        mine = players_of(user, self.club_id)
        if any(player.pk in mine for player in self.players()):
            return True
        if self.club_id is None:
            return False
        hers = Entrant.objects.filter(player__in=mine)
        return hers.filter(tournament__pairings__match=self).exists() or hers.filter(
            tournament__club_id=self.club_id, tournament__finished__isnull=True).exists()


class Seat(models.Model):
    """Which player sits in which seat of a match (seat 0 is the first player)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")

    class Meta:
        constraints = [models.UniqueConstraint("match", "position", name="one_player_per_seat")]

    def __str__(self) -> str:
        return f"seat {self.position} of match {self.match_id}"


class Action(models.Model):
    """One entry of a match's log, kept forever.

    `number` orders the whole history; `seq` is the step on the line it was played.
    Live actions with seq <= match.head are applied; live ones after it were undone
    and can be redone; `abandoned` ones were undone and then replaced by a new branch.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="actions")
    number = models.PositiveIntegerField()
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    payload = models.JSONField()
    events = models.JSONField(default=list)
    rolls = models.JSONField(default=list)
    abandoned = models.BooleanField(default=False)
    secret = models.BooleanField(default=False, help_text="Hidden from the other side when it was entered.")
    face_down = models.JSONField(
        null=True, blank=True,
        help_text="A secret entry never revealed yet, as the other side saw it (the engine's public_action then); "
                  "None once revealed, or never hidden. Taken back before its reveal, it stays so for good.")
    whose = models.JSONField(
        null=True, blank=True,
        help_text="Whose step it is, as the board stood when it was made (the engine's authority then: a seat, "
                  "\"table\" or \"open\"); None for a step stored before it was kept.")
    proposal = models.ForeignKey("Proposal", null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                                 help_text="The agreement it was taken with, if it needed one.")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint("match", "number", name="action_number_unique"),
            models.UniqueConstraint(
                "match", "seq", condition=models.Q(abandoned=False), name="one_live_action_per_step"
            ),
        ]

    def __str__(self) -> str:
        return f"step {self.seq} of match {self.match_id}"


def head_as_read(match: Match, read: list) -> Action:
    """The head action from its row as the match's query read it (`_HeadAction`: HEAD_FIELDS, then the version), as
    its own query would give it."""
    values = dict(zip(HEAD_FIELDS, read[:-1], strict=True))
    created = parse_datetime(values["created"])
    values["created"] = created if created is None or timezone.is_aware(created) else timezone.make_aware(created, UTC)
    values.update(secret=bool(values["secret"]), match_id=match.pk, abandoned=False)  # SQLite's 1 and 0 as bools
    fields = [field.attname for field in Action._meta.concrete_fields]
    action = Action.from_db(match._state.db, fields, [values[name] for name in fields])
    Action._meta.get_field("match").set_cached_value(action, match)
    return action


class Confirmation(models.Model):
    """A seat's player's say that a club battle was theirs (tracker/competition/confirmations.py).

    The battle counts once every seat has one. `by` is the account that gave it: the player's own,
    or an organiser's confirming on the player's behalf (kind ORGANISER, shown as such). A SEATED one
    stands for the player's own secret entry (`entry`), and only while that entry is in the log's line.
    """

    SEATED, AFTER, ORGANISER = "seated", "after", "organiser"
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="confirmations")
    seat = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=10, choices=[
        (SEATED, _("made their own entry")), (AFTER, _("confirmed the result")),
        (ORGANISER, _("confirmed by an organiser on their behalf"))])
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                           related_name="+")
    entry = models.ForeignKey("Action", null=True, blank=True, on_delete=models.CASCADE, related_name="+",
                              help_text="SEATED: the secret entry it stands for; it goes when that entry is abandoned.")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["seat"]
        constraints = [models.UniqueConstraint("match", "seat", name="one_confirmation_per_seat")]

    def __str__(self) -> str:
        return f"seat {self.seat} of match {self.match_id} {self.kind}"


class Checkpoint(models.Model):
    """The state after one live action, so undo, redo and the replay page start near the step they want.

    A cache, never the truth: services writes one every `services.CHECKPOINT_EVERY` steps
    and deletes those past the branch point when a new action replaces undone ones.
    """

    action = models.OneToOneField(Action, primary_key=True, on_delete=models.CASCADE, related_name="checkpoint")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="checkpoints")
    seq = models.PositiveIntegerField(help_text="The action's step: the state is the one after it.")
    state = models.JSONField()

    class Meta:
        constraints = [models.UniqueConstraint("match", "seq", name="one_checkpoint_per_step")]

    def __str__(self) -> str:
        return f"state of match {self.match_id} at step {self.seq}"


class Proposal(models.Model):
    """Something one side asks and the other must agree to (tracker/people/consent.py says when).

    Going back past a revealed secret entry, a table action (a fight, a declared winner, the
    end of the game) asked from a seated phone, or adjusting the other side's cards. Every
    game here has two seats, so a proposal waits for the one seat that did not ask. It is
    kept whatever the answer, so the log shows who asked and who agreed or refused.
    """

    GOTO, ACTION, RELEASE = "goto", "action", "release"
    PENDING, AGREED, REFUSED, WITHDRAWN, LAPSED = "pending", "agreed", "refused", "withdrawn", "lapsed"
    RESEATED = "reseated"  # lapsed as a seat it involves changed hands (consent.lapse_with_seats)
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="proposals")
    kind = models.CharField(max_length=10, choices=[(GOTO, _("go back")), (ACTION, _("table action")),
                                                    (RELEASE, _("give up a seat"))])
    step = models.PositiveIntegerField(null=True, blank=True, help_text="Where a go-back would take the match.")
    payload = models.JSONField(null=True, blank=True,
                               help_text="The action, for a table action; the seat's invite, for a release.")
    rolls = models.JSONField(default=list, help_text="Dice rolled by hand for the action.")
    events = models.JSONField(default=list, help_text="What the action would do, from the engine's dry run when it "
                                                      "was asked: the request reads as its log entry will.")
    at_seq = models.PositiveIntegerField(help_text="The step it was asked at; it lapses if the match moves on.")
    asked_by = models.PositiveSmallIntegerField(null=True, blank=True, help_text=(
        "The seat that asked; none for a release the owner's phone asked while playing no seat."))
    needs = models.PositiveSmallIntegerField(help_text="The seat whose agreement it waits for.")
    status = models.CharField(max_length=10, default=PENDING, choices=[
        (PENDING, _("waiting")), (AGREED, _("agreed")), (REFUSED, _("refused")), (WITHDRAWN, _("withdrawn")),
        (LAPSED, _("lapsed")), (RESEATED, _("lapsed: a seat changed hands"))])
    created = models.DateTimeField(auto_now_add=True)
    answered = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created", "id"]

    def __str__(self) -> str:
        return f"{self.kind} asked in match {self.match_id} ({self.status})"


class Invite(models.Model):
    """A link that seats another device as one player, or lets it watch."""

    SEAT, WATCH = "seat", "watch"
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="invites")
    kind = models.CharField(max_length=10, choices=[(SEAT, _("play a seat")), (WATCH, _("watch"))])
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    token = models.CharField(max_length=40, unique=True, default=new_token)
    created = models.DateTimeField(auto_now_add=True)
    expires = models.DateTimeField(default=invite_expiry)
    revoked = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.kind} link to match {self.match_id}"


class Access(models.Model):
    """A device (or account) that joined a match through an invite: as a seated player or a spectator."""

    PLAYER, SPECTATOR = "player", "spectator"
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="accesses")
    device = models.CharField(max_length=40)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE)
    role = models.CharField(max_length=10, choices=[(PLAYER, _("player")), (SPECTATOR, _("spectator"))])
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    invite = models.ForeignKey(Invite, null=True, blank=True, on_delete=models.SET_NULL, related_name="accesses")
    created = models.DateTimeField(auto_now_add=True)
    revoked = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint("match", "device", name="one_access_per_device"),
            models.UniqueConstraint("match", "seat", condition=models.Q(revoked__isnull=True, role="player"),
                                    name="one_device_per_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.role} of match {self.match_id}"


# Card Crush competitive play (tracker/competition/): tournaments and collections.
# Ratings are not stored: tracker/competition/ratings.py replays them from the rated matches.


class Tournament(models.Model):
    """A Swiss tournament of Card Crush battles."""

    name = models.CharField(_("name"), max_length=80)
    created = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True, help_text="Set when the organiser declares final standings.")
    first_finished = models.DateTimeField(
        null=True, blank=True,
        help_text="When it first ended: ended again after a reopen, its ties are broken by the ratings of then, not by "
                  "club battles played since (round 28).")
    final_ratings = models.JSONField(
        null=True, blank=True,
        help_text="Each player's rating when the standings were declared final ({player id: rating}): their tiebreak from "
                  "then on, whatever battles of the club count later (one confirmed or voided since).")
    # Its club's organisers run it and its members play it. Only tournaments from before clubs
    # have none: they stay readable by everyone and can no longer be changed.
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.PROTECT, related_name="tournaments")

    class Meta:
        ordering = ["-created", "-id"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournament_detail", args=[self.pk])


class Entrant(models.Model):
    """A player entered in a tournament; a dropped player is not paired again."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    dropped_after = models.PositiveSmallIntegerField(null=True, blank=True,
                                                     help_text="The last round they were in, if they dropped.")

    class Meta:
        ordering = ["id"]
        constraints = [models.UniqueConstraint("tournament", "player", name="one_entry_per_player")]

    def __str__(self) -> str:
        return f"player {self.player_id} in tournament {self.tournament_id}"


class Pairing(models.Model):
    """One table of one Swiss round: two entrants and their battle, or one entrant's bye."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="pairings")
    round = models.PositiveSmallIntegerField()
    table = models.PositiveSmallIntegerField()
    first = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Entrant, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    match = models.OneToOneField(Match, null=True, blank=True, on_delete=models.PROTECT, related_name="pairing")

    class Meta:
        ordering = ["round", "table"]
        constraints = [models.UniqueConstraint("tournament", "round", "table", name="one_pairing_per_table")]

    def __str__(self) -> str:
        return f"table {self.table} of round {self.round}, tournament {self.tournament_id}"


class CollectionCard(models.Model):
    """Copies of one catalog card a player owns, and the level it has been upgraded to.

    A player has a personal collection (no club), which only their own account sees and
    changes, and one per club, which the club's members see and its organisers change too (its player's own
    account while a member: tracker/competition/collection.py).
    """

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="collection")
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.CASCADE, related_name="collections")
    card = models.ForeignKey(Card, on_delete=models.PROTECT, related_name="collected")
    copies = models.PositiveIntegerField(default=1)
    level = models.PositiveSmallIntegerField(default=1)

    class Meta:
        ordering = ["card__name"]
        constraints = [
            models.UniqueConstraint("player", "card", condition=models.Q(club__isnull=True),
                                    name="one_personal_collection_entry_per_card"),
            models.UniqueConstraint("player", "card", "club", condition=models.Q(club__isnull=False),
                                    name="one_club_collection_entry_per_card"),
            models.CheckConstraint(condition=models.Q(copies__gte=1), name="collection_owns_a_copy"),
        ]

    def __str__(self) -> str:
        return f"{self.copies} of card {self.card_id} held by player {self.player_id}"


class CollectionChange(models.Model):
    """One change to a collection entry: copies added or an upgrade, by which account, and when."""

    ADD, UPGRADE = "add", "upgrade"
    entry = models.ForeignKey(CollectionCard, on_delete=models.CASCADE, related_name="changes")
    kind = models.CharField(max_length=10, choices=[(ADD, _("copies added")), (UPGRADE, _("upgraded"))])
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="+")
    at = models.DateTimeField(auto_now_add=True)
    copies_before = models.PositiveIntegerField()
    copies_after = models.PositiveIntegerField()
    level_before = models.PositiveSmallIntegerField()
    level_after = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.kind} of collection entry {self.entry_id}"
