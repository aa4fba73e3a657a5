"""A club's ratings: its rated, finished Card Crush battles replayed through rules/card_crush/rating.py.

Ratings belong to a club: only the club's own battles count, so a private or imported
battle never moves anyone's rating. A battle takes its place by when it first finished:
undoing and redoing inside it, or reopening and finishing it again, never re-dates it.
Nothing here is stored or cached: every page replays the history, so a rating is
always exactly what the battles and the resets say it is.
"""

from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone

from rules.card_crush import rating

from ..models import Club, Match, Player
from . import config
from .game import competing_slug


def rated_matches(club: Club | int):
    """The club's battles that count, in the order the ratings take them."""
    return (Match.objects.counted().filter(club=club, slug=competing_slug(), rated=True, winner__isnull=False)
            .prefetch_related("seats").select_related("pairing").order_by("first_finished", "id"))


def as_battle(match: Match) -> rating.Battle | None:
    """The battle as the rating sees it; None for a battle a player played against themself."""
    players = [seat.player_id for seat in sorted(match.seats.all(), key=lambda s: s.position)]
    loser = next((p for p in players if p != match.winner_id), None)
    when = match.first_finished or match.finished  # both are set once a battle has finished
    if loser is None or match.winner_id is None or when is None:
        return None
    tournament = getattr(match, "pairing", None) is not None
    return rating.Battle(key=match.pk, when=when, winner=match.winner_id, loser=loser,
                         tournament=tournament)


def history(club: Club | int, until: datetime | None = None) -> list[rating.Change]:
    """Every rating change of every player in the club up to `until` (now by default), oldest first."""
    until = until or timezone.now()
    battles = [battle for battle in map(as_battle, rated_matches(club)) if battle is not None]
    return rating.replay(battles, until, timezone.get_default_timezone(), config.rating_rules())


@dataclass
class Row:
    rank: int
    player: Player
    rating: int
    played: int
    wins: int

    @property
    def win_rate(self) -> int:
        return round(100 * self.wins / self.played) if self.played else 0


def leaderboard(changes: list[rating.Change]) -> list[Row]:
    """Players with a rated battle, by current rating (then name), with battles played and wins."""
    current = rating.ratings_from(changes)
    played: dict[int, int] = {}
    wins: dict[int, int] = {}
    for change in changes:
        if change.kind == "battle":
            played[change.player] = played.get(change.player, 0) + 1
            wins[change.player] = wins.get(change.player, 0) + bool(change.won)
    players = Player.objects.in_bulk(list(current))
    ordered = sorted(current, key=lambda key: (-current[key], players[key].name.casefold()))
    return [Row(rank, players[key], current[key], played.get(key, 0), wins.get(key, 0))
            for rank, key in enumerate(ordered, start=1)]


def current_ratings(club: Club | int) -> dict[int, int]:
    """Each player's rating in the club now (players without a rated battle are at the baseline)."""
    return rating.ratings_from(history(club))


def rating_of(ratings: dict[int, int], player_id: int) -> int:
    return ratings.get(player_id, rating.BASELINE)
