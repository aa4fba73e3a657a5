"""What Tablekeeper stores: players, each game's card catalog, and matches as logs.

A match is its seed plus its list of actions. `Match.state` is only a cached
snapshot of folding the engine over the live actions up to `Match.head`, and each
`Checkpoint` a cached state after one live action; the actions are the truth
(services.replay_problems re-runs them from the seed and compares).
"""

import secrets
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

import rules


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

    @classmethod
    def named(cls, name: str) -> "Player | None":
        """The player called `name` in any letter case (SQLite's lower() folds only ASCII)."""
        return _named(cls.objects.all(), name)


def _named(queryset, name: str):
    """The row of `queryset` whose name equals `name` ignoring case, Unicode-aware."""
    if "\x00" in name:  # no stored name holds one, and PostgreSQL refuses to compare with it
        return None
    key = name.strip().casefold()
    if name.isascii():
        queryset = queryset.filter(name__iexact=name.strip())
    return next((row for row in queryset if row.name.casefold() == key), None)


class Card(models.Model):
    """A card in one game's catalog; `stats` is what that game's engine validates."""

    slug = models.CharField(max_length=20, choices=game_choices, help_text="The game, as in rules.GAMES.")
    name = models.CharField(_("name"), max_length=60)
    stats = models.JSONField(default=dict)
    created = models.DateTimeField(auto_now_add=True)

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
    winner = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    score = models.CharField(max_length=20, blank=True)
    # Who may see and act. A match with neither owner belongs to the whole table (demo data,
    # matches made by scripts): anyone on this installation may see and play it.
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="matches")
    owner_device = models.CharField(max_length=40, blank=True, db_index=True)
    shared = models.BooleanField(default=False, help_text="Visible to everyone on this installation.")
    version = models.PositiveIntegerField(default=0, help_text="Goes up with every change; live views poll it.")
    rated = models.BooleanField(default=True, help_text="Counts toward Card Crush ratings once finished.")
    # The seed is shown when the match first ends, and an undo cannot take that back: actions
    # numbered above this were entered by players who could know the app's dice (the log says so).
    seed_shown_after = models.PositiveIntegerField(
        null=True, blank=True, help_text="How many actions had been recorded when the seed was first revealed.")

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name_plural = "matches"

    def __str__(self) -> str:
        return f"{self.get_slug_display()} #{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("match_detail", args=[self.pk])

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

    def after_seed_shown(self, action: "Action") -> bool:
        """Whether `action` was entered after the seed was revealed, so its app rolls could be foreseen."""
        return self.seed_shown_after is not None and action.number > self.seed_shown_after

    def players(self) -> list[Player]:
        """The players in seat order (seats never change once a match is set up, so this is cached)."""
        if not hasattr(self, "_players"):
            self._players = [seat.player for seat in self.seats.select_related("player").order_by("position")]
        return self._players


class Seat(models.Model):
    """Which player sits in which seat of a match (seat 0 is the first player)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")

    class Meta:
        constraints = [models.UniqueConstraint("match", "position", name="one_player_per_seat")]


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
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint("match", "number", name="action_number_unique"),
            models.UniqueConstraint(
                "match", "seq", condition=models.Q(abandoned=False), name="one_live_action_per_step"
            ),
        ]


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


def new_token() -> str:
    return secrets.token_urlsafe(18)


def invite_expiry():
    from django.utils import timezone

    return timezone.now() + timedelta(days=7)


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


# Card Crush competitive play (tracker/competition/): tournaments and collections.
# Ratings are not stored: tracker/competition/ratings.py replays them from the rated matches.


class Tournament(models.Model):
    """A Swiss tournament of Card Crush battles."""

    name = models.CharField(_("name"), max_length=80)
    created = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True, help_text="Set when the organiser declares final standings.")
    # The organiser, as for a match's owner: the account or device that created it. With
    # neither (made by a script) the tournament belongs to the table and anyone may run it.
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="tournaments")
    owner_device = models.CharField(max_length=40, blank=True, db_index=True)

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


class CollectionCard(models.Model):
    """Copies of one catalog card a player owns, and the level it has been upgraded to."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="collection")
    card = models.ForeignKey(Card, on_delete=models.PROTECT, related_name="+")
    copies = models.PositiveIntegerField(default=1)
    level = models.PositiveSmallIntegerField(default=1)

    class Meta:
        ordering = ["card__name"]
        constraints = [
            models.UniqueConstraint("player", "card", name="one_collection_entry_per_card"),
            models.CheckConstraint(condition=models.Q(copies__gte=1), name="collection_owns_a_copy"),
        ]
