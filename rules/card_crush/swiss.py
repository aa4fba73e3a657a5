"""Swiss tournaments for Card Crush: pairings, byes, standings.

The rulebook mentions tournaments and a leaderboard but no format; the public
pages that promised one are cut off. We run a plain Swiss system:

- Rounds: the recommended number is ceil(log2(entrants)), the fewest rounds after
  which at most one player can be unbeaten (4 entrants: 2, 7: 3, 16: 4). The
  organiser may stop earlier or go on while pairings without rematches exist.
- Points: 1 for a win, 0 for a loss (battles cannot be drawn); a bye is a win.
- Pairing order: players sorted by points ("same record first"), then by rating,
  then by entry order. The highest unpaired player meets the next one they have
  not met yet, so players meet their own score group first and the odd one out
  "floats" down to the next group. If that leaves someone without a partner, the
  search backtracks; no rematch is ever made. If no pairing without a rematch
  exists, the round is refused and the organiser ends the tournament.
- Bye: with an odd number of active players, the lowest-placed player who has had
  the fewest byes (so nobody gets a second bye while another player has none) sits
  out and scores a win.
- Dropped players are never paired again; their past battles still count, for
  them and for their opponents' tiebreaks.
- A voided battle (an organiser set its result aside) gives neither player a point
  and counts in nobody's tiebreak, but the two have met (no rematch) and the round
  is not held up waiting for it.
- Standings: points, then opponents' win rate (the average, over the opponents
  you actually played, of their share of battles won; byes count for neither
  side, so a bye does not flatter anyone's tiebreak), then rating at the time,
  then entry order. Opponents' win rate rewards the harder path through the field
  and is the tiebreak players know from other card games.
"""

import math
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from ..errors import IllegalAction, gettext_noop


@dataclass(frozen=True)
class Entrant:
    key: int
    rating: int
    dropped: bool = False


@dataclass(frozen=True)
class Game:
    """One pairing of a round: `second` is None for a bye; `winner` None until it is played."""

    round: int
    first: int
    second: int | None
    winner: int | None
    voided: bool = False
    """An organiser set the result aside: no points, no tiebreak, but not waited for."""

    @property
    def bye(self) -> bool:
        return self.second is None


@dataclass(frozen=True)
class Standing:
    key: int
    rank: int
    points: int
    wins: int
    losses: int
    byes: int
    opponent_win_rate: Fraction
    rating: int
    dropped: bool


@dataclass(frozen=True)
class Pairings:
    pairs: list[tuple[int, int]]
    bye: int | None


def recommended_rounds(entrants: int) -> int:
    return math.ceil(math.log2(entrants)) if entrants > 1 else 0


def _results(games: list[Game]) -> tuple[Counter, Counter, Counter, dict[int, list[int]]]:
    """Wins and losses in played battles, byes, and the opponents each player actually played."""
    wins: Counter = Counter()
    losses: Counter = Counter()
    byes: Counter = Counter()
    opponents: dict[int, list[int]] = {}
    for game in games:
        if game.bye:
            byes[game.first] += 1
            continue
        if game.winner is None or game.second is None or game.voided:
            continue
        loser = game.second if game.winner == game.first else game.first
        wins[game.winner] += 1
        losses[loser] += 1
        opponents.setdefault(game.first, []).append(game.second)
        opponents.setdefault(game.second, []).append(game.first)
    return wins, losses, byes, opponents


def standings(entrants: list[Entrant], games: list[Game]) -> list[Standing]:
    """Everyone in finishing order, with the figures that put them there."""
    wins, losses, byes, opponents = _results(games)

    def win_rate(key: int) -> Fraction:
        played = wins[key] + losses[key]
        return Fraction(wins[key], played) if played else Fraction(0)

    rows = []
    for index, entrant in enumerate(entrants):
        met = opponents.get(entrant.key, [])
        owr = sum((win_rate(o) for o in met), Fraction(0)) / len(met) if met else Fraction(0)
        rows.append((index, entrant, wins[entrant.key] + byes[entrant.key], owr))
    rows.sort(key=lambda row: (-row[2], -row[3], -row[1].rating, row[0]))
    return [
        Standing(key=entrant.key, rank=rank, points=points, wins=wins[entrant.key], losses=losses[entrant.key],
                 byes=byes[entrant.key], opponent_win_rate=owr, rating=entrant.rating, dropped=entrant.dropped)
        for rank, (_index, entrant, points, owr) in enumerate(rows, start=1)
    ]


def pair_round(entrants: list[Entrant], games: list[Game]) -> Pairings:
    """The next round's pairings and bye; IllegalAction if no pairing without a rematch exists."""
    unfinished = [game for game in games if not game.bye and game.winner is None and not game.voided]
    if unfinished:
        raise IllegalAction(
            "round-unfinished",
            gettext_noop("%(count)s battle(s) of the tournament are not finished yet."),
            count=len(unfinished),
        )
    keys = {entrant.key for entrant in entrants}
    for game in games:
        for key in (game.first, game.second):
            if key is not None and key not in keys:
                raise IllegalAction("not-entered", gettext_noop("Player %(key)s is not entered."), key=key)
    points = {row.key: row.points for row in standings(entrants, games)}
    index = {entrant.key: i for i, entrant in enumerate(entrants)}
    active = sorted(
        (entrant for entrant in entrants if not entrant.dropped),
        key=lambda e: (-points[e.key], -e.rating, index[e.key]),
    )
    if len(active) < 2:
        raise IllegalAction("too-few", gettext_noop("A round needs at least 2 players still in the tournament."))
    met = frozenset(frozenset((g.first, g.second)) for g in games if not g.bye)
    order, budget = tuple(e.key for e in active), [PAIRING_STEPS]
    try:
        if len(order) % 2 == 0:
            pairs = _pair(order, met, budget)
            if pairs is not None:
                return Pairings(pairs=list(pairs), bye=None)
        else:
            byes = Counter(game.first for game in games if game.bye)
            # Lowest placed first, then fewest byes first (a stable sort keeps the placing within equal byes).
            for candidate in sorted(reversed(order), key=lambda key: byes[key]):
                pairs = _pair(tuple(key for key in order if key != candidate), met, budget)
                if pairs is not None:
                    return Pairings(pairs=list(pairs), bye=candidate)
    except _SearchTooLong:
        raise IllegalAction("pairing-search", gettext_noop(
            "No pairing without a rematch was found in a reasonable time (there may be none left); end the "
            "tournament instead.")) from None
    raise IllegalAction(
        "no-pairing",
        gettext_noop("Every possible pairing would repeat a battle already played; end the tournament instead."),
    )


PAIRING_STEPS = 20_000
"""Positions the pairing search may try in one request (a few tenths of a second). Whether any pairing without a
rematch is left can take the search exponentially long (64 entrants whose unplayed pairs form two odd groups), and
one request would hold a server's worker for good."""


class _SearchTooLong(Exception):
    pass


def _pair(order: tuple[int, ...], met: frozenset, budget: list[int]) -> tuple[tuple[int, int], ...] | None:
    """Pair the first player with the nearest one below them they have not met, backtracking if needed; each set of
    players left is searched once. `budget`: the positions left to try (shared by every call of one pairing)."""
    searched: dict[tuple[int, ...], tuple[tuple[int, int], ...] | None] = {}

    def search(order: tuple[int, ...]) -> tuple[tuple[int, int], ...] | None:
        if not order:
            return ()
        if order in searched:
            return searched[order]
        budget[0] -= 1
        if budget[0] < 0:
            raise _SearchTooLong
        first, rest, found = order[0], order[1:], None
        for i, partner in enumerate(rest):
            if frozenset((first, partner)) in met:
                continue
            tail = search(rest[:i] + rest[i + 1:])
            if tail is not None:
                found = ((first, partner),) + tail
                break
        searched[order] = found
        return found

    return search(order)
