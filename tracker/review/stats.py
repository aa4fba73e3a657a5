"""Statistics from finished matches: records, streaks, favourite cards, and each game's own figures.

Everything is computed from the stored matches when asked: there is no counter to get
out of step with the logs.
"""

from collections import Counter
from dataclasses import dataclass, field

from django.db.models import prefetch_related_objects

from tracker.games import pages_for
from tracker.models import Match, Player

WON, DREW, LOST = "won", "drew", "lost"


@dataclass
class Record:
    """One player's results in the matches considered, oldest first."""

    player: Player
    results: list[str] = field(default_factory=list)
    """WON, DREW or LOST for each match, in the order played. A draw is not a win (win rate) and
    not a loss (a streak of draws is shown as such, not as losses)."""
    cards: Counter = field(default_factory=Counter)

    @property
    def played(self) -> int:
        return len(self.results)

    @property
    def wins(self) -> int:
        return self.results.count(WON)

    @property
    def win_rate(self) -> float:
        return self.wins / self.played if self.played else 0.0

    @property
    def current_streak(self) -> tuple[str, int]:
        """(WON, DREW or LOST, how many in a row) at the end, or ("", 0) before any match."""
        if not self.results:
            return "", 0
        last, count = self.results[-1], 0
        for result in reversed(self.results):
            if result != last:
                break
            count += 1
        return last, count

    @property
    def longest_win_streak(self) -> int:
        best = run = 0
        for result in self.results:
            run = run + 1 if result == WON else 0
            best = max(best, run)
        return best

    def win_rate_over_time(self) -> list[float]:
        """The win rate after each match, in percent."""
        rates, wins = [], 0
        for number, result in enumerate(self.results, start=1):
            wins += result == WON
            rates.append(round(100 * wins / number, 1))
        return rates


def finished_matches(seen, slug: str | None = None, player: Player | None = None, club: int | None = None):
    """The finished, not voided matches among `seen` (the viewer's visible matches), narrowed down.

    Statistics start from what the viewer may open, so a match they may not open counts
    nowhere on their pages: not in a record, a streak, a favourite card or a total.
    """
    return _narrowed(seen.counted().prefetch_related("seats__player"), slug, player, club)


def corrected_matches(seen, slug: str | None = None, club: int | None = None):
    """The matches among `seen` decided while a manual correction stood: listed apart, counted nowhere."""
    return _narrowed(seen.corrected(), slug, None, club)


def _narrowed(matches, slug: str | None, player: Player | None, club: int | None):
    if club:
        matches = matches.filter(club=club)
    if slug:
        matches = matches.filter(slug=slug)
    if player:
        matches = matches.filter(seats__player=player)
    return matches.order_by("first_finished", "id")


def records(matches) -> dict[int, Record]:
    """Per player id, their record over these matches (matches in the order finished)."""
    table: dict[int, Record] = {}
    matches = list(matches)
    # Where cards_played reads the log (cards_played_from_log), all those logs in one query, not one a match.
    prefetch_related_objects([m for m in matches if pages_for(m.slug).cards_played_from_log], "actions")
    for match in matches:
        pages = pages_for(match.slug)
        for seat in sorted(match.seats.all(), key=lambda s: s.position):
            record = table.setdefault(seat.player_id, Record(seat.player))
            record.results.append(WON if match.winner_id == seat.player_id else LOST if match.winner_id else DREW)
            record.cards.update(pages.cards_played(match, seat.position))
    return table


def leaderboard(matches) -> list[Record]:
    return sorted(records(matches).values(), key=lambda r: (-r.win_rate, -r.wins, r.player.name.casefold()))


def game_figures(slug: str, matches) -> list:
    """The game's own figures (GamePages.figures), if it offers any."""
    return pages_for(slug).figures(matches)


def match_progress(match: Match):
    """(title, series) for the match's chart, if its game draws one."""
    return pages_for(match.slug).progress(match)
