"""Card Crush ratings: Elo after every rated battle, pulled back toward 500 each month.

A rating is never stored. It is replayed from the rated battles in the order they
finished, with the season resets placed between them by date, so it is right for
any date, a reset can never be applied twice, and a battle entered late lands in
the month it was played.

What the rulebook says, and what we chose where it is silent:
- "Winning increases your rating; losing decreases it; beating a higher-rated
  opponent gains more." We use the classic Elo formula: your expected score is
  1 / (1 + 10 ** ((their rating - yours) / 400)), and the change is
  K x (result - expected), result 1 for a win and 0 for a loss (a battle cannot be
  drawn). Elo is what the public rule pages call "ELO-like", and players know it.
- K is not given. We use 32 for open (PvP) play, the common club value: an even
  battle moves both players by 16.
- "Tournament battles have a greater impact": K is multiplied by the tournament
  weight, 1.5 by default (K 48: an even tournament battle moves 24). Big enough to
  make tournaments the main driver, small enough that one bad day is not a season.
- Everyone starts at 500, the rulebook's baseline.
- Ratings are whole numbers. The change is rounded to the nearest whole number
  (halves away from zero) once, and the winner gains exactly what the loser loses,
  so the points in play never drift.
- There is no floor: a rating may in principle go below 0; the resets pull it back.
- Monthly reset: "at the start of each month every rating moves halfway toward
  500" (700 -> 600, 300 -> 400). Odd distances are rounded toward 500
  (701 -> 600, 299 -> 400), so a reset never pushes anyone away from the baseline.
- Quarterly reset: at the start of January, April, July and October every rating
  returns to 500. Those are also month starts; only the quarterly reset is applied
  there (halfway and then fully would give 500 anyway, and one entry is clearer).
- A month starts at midnight in the club's time zone (the caller passes it; the
  tracker uses Django's TIME_ZONE). A battle finished at exactly midnight belongs to
  the new month: the reset comes first.
- A reset that changes nothing (a rating already at 500) is not listed.

K and the tournament weight are settings (tracker/settings.py CARD_CRUSH_COMPETITION,
keys "K" and "TOURNAMENT_WEIGHT").
"""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, tzinfo
from decimal import ROUND_HALF_UP, Decimal

BASELINE = 500
SCALE = 400
DEFAULT_K = 32
DEFAULT_TOURNAMENT_WEIGHT = 1.5
QUARTER_STARTS = (1, 4, 7, 10)


@dataclass(frozen=True)
class RatingRules:
    k: float = DEFAULT_K
    """How far an open (PvP) battle can move a rating."""
    tournament_weight: float = DEFAULT_TOURNAMENT_WEIGHT
    """K is multiplied by this for a tournament battle."""

    def k_for(self, tournament: bool) -> float:
        return self.k * self.tournament_weight if tournament else self.k


@dataclass(frozen=True)
class Battle:
    """One rated battle as the rating sees it."""

    key: int
    """The battle's id, to link a change back to it (and to order battles finished at the same instant)."""
    when: datetime
    """When it finished (timezone-aware)."""
    winner: int
    loser: int
    tournament: bool = False


@dataclass(frozen=True)
class Change:
    """One step of one player's rating, with its working."""

    kind: str
    """"battle", "monthly" or "quarterly"."""
    when: datetime
    player: int
    before: int
    after: int
    battle: int | None = None
    opponent: int | None = None
    opponent_before: int | None = None
    won: bool | None = None
    expected: float | None = None
    """The player's expected score before the battle, from 0 to 1."""
    k: float | None = None
    tournament: bool = False

    @property
    def delta(self) -> int:
        return self.after - self.before


def expected_score(mine: int, theirs: int) -> float:
    """The share of battles Elo expects you to win against that opponent."""
    return 1 / (1 + 10 ** ((theirs - mine) / SCALE))


def _round_half_away(value: float) -> int:
    return int(Decimal(repr(value)).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def battle_change(winner: int, loser: int, k: float) -> int:
    """Points the winner gains and the loser loses: K x (1 - winner's expected score), rounded."""
    return _round_half_away(k * (1 - expected_score(winner, loser)))


def monthly_reset(rating: int) -> int:
    """Halfway toward 500, odd distances rounded toward 500."""
    distance = rating - BASELINE
    half = abs(distance) // 2
    return BASELINE + (half if distance > 0 else -half)


def season_starts(after: datetime, until: datetime, tz: tzinfo) -> list[tuple[datetime, str]]:
    """The month starts in (after, until], each marked "quarterly" or "monthly"."""
    local = after.astimezone(tz)
    year, month = local.year, local.month
    starts: list[tuple[datetime, str]] = []
    while True:
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
        start = datetime(year, month, 1, tzinfo=tz)
        if start > until:
            return starts
        starts.append((start, "quarterly" if month in QUARTER_STARTS else "monthly"))


def replay(battles: Iterable[Battle], until: datetime, tz: tzinfo, rules: RatingRules = RatingRules()) -> list[Change]:
    """Every rating change of every player up to `until`, oldest first.

    Battles after `until` are left out; resets are applied up to `until` too, so the
    last `after` of each player is their rating at that moment.
    """
    ratings: dict[int, int] = {}
    changes: list[Change] = []
    cursor: datetime | None = None

    def resets_between(since: datetime, moment: datetime) -> None:
        for start, kind in season_starts(since, moment, tz):
            for player, before in sorted(ratings.items()):
                after = BASELINE if kind == "quarterly" else monthly_reset(before)
                if after != before:
                    ratings[player] = after
                    changes.append(Change(kind=kind, when=start, player=player, before=before, after=after))

    for battle in sorted(battles, key=lambda b: (b.when, b.key)):
        if battle.when > until:
            break
        if cursor is not None:
            resets_between(cursor, battle.when)
        cursor = battle.when
        win_before = ratings.get(battle.winner, BASELINE)
        lose_before = ratings.get(battle.loser, BASELINE)
        k = rules.k_for(battle.tournament)
        points = battle_change(win_before, lose_before, k)
        ratings[battle.winner], ratings[battle.loser] = win_before + points, lose_before - points
        for player, before, opponent, opponent_before, won in (
            (battle.winner, win_before, battle.loser, lose_before, True),
            (battle.loser, lose_before, battle.winner, win_before, False),
        ):
            changes.append(Change(
                kind="battle", when=battle.when, player=player, before=before, after=ratings[player],
                battle=battle.key, opponent=opponent, opponent_before=opponent_before, won=won,
                expected=expected_score(before, opponent_before), k=k, tournament=battle.tournament,
            ))
    if cursor is not None:
        resets_between(cursor, until)
    return changes


def ratings_from(changes: Iterable[Change]) -> dict[int, int]:
    """Each player's rating after the given changes (500 for anyone without one)."""
    ratings = {}
    for change in changes:
        ratings[change.player] = change.after
    return ratings
