"""How good a position is: the estimated chance that a seat wins from it.

Cardmaster is a damage race. Three active cards a side trade blows; a fallen card's place is
taken at once by the next reserve card, so each side keeps hitting at about the same rate
until its reserve runs out. The side that needs fewer possessions to take off everything the
other side has standing usually wins. So the estimate is a race:

    rate(side)        = what the side's active cards deal in one possession with A1, each card
                        a quarter against the other side's active card it hurts most (its
                        choice now) and three quarters against the other side's whole faction
                        on average, fallen cards included (what it meets as cards fall and step
                        in, an average that a knockout does not change)
    possessions(side) = ( the HP the other side has standing, less what its statuses will burn
                        - the extra damage this side's gems buy: an A3 does 0.99 x ATK where an
                          A1 does 0.33, so a stacked or raided gem is worth a third of the
                          difference, the next three on a card in full, further ones less
                        - what this side's cards still to move in this possession will deal
                        + what the moves a Gridfreeze makes it skip would have dealt ) / rate
    win chance        = logistic(K x (possessions(other) - possessions(side)) / sqrt(sum + 1/4))

So hits count by the damage they do, and a knockout counts besides through the rate of the
card that steps in. The average over the whole faction matters: averaged over the standing cards
only (the race before 2026-11-28, still the hard-2026 baseline's and the easy level's: `steady`
False), knocking out a foe a side hits hard lowered that side's own rate, so the search left a
37 HP card standing and lost a won 3v3 to the greedy player. Type match-ups, DEF, ATK boosts and
Undershock count against the cards they apply to. The gamble enters as risk: gems on an active
card of the side out of possession that one blow can knock out count only in part, and the part
at risk counts for the other side (a raid). Undershock and Souldrift's fade are in the stats
the engine reports.

The weights (a quarter now, gems further down the stack at half) were chosen by playing the
one-move player on them against the greedy baseline (strength.py); K by fitting the outcomes
of those self-played matches. Damage here is the engine's formula in floating point with the
engine's own stats and type wheel (fighters.stat, typechart.multiplier): an estimate for
ranking positions quickly. What a move really does always comes from `apply`.
"""

from math import exp, sqrt
from typing import Any

from ..fighters import max_hp, stat
from ..numbers import share
from ..state import MatchState
from ..typechart import WHEEL_SIZE, multiplier

K = 1.8
"""Steepness of the win chance curve: the best fit (maximum likelihood) to who won 40 matches of the
easy level against itself, over the 13,000 positions they went through."""
SPREAD_FLOOR = 0.25
"""Keeps the spread of a race that is all but run above zero."""
RESERVE_BURN = 0.5
"""A status does not tick in reserve, so a reserve card's coming burn counts half."""
NOW = 0.25
"""How much a card's rate is what it deals the other side's active cards now (the best of them),
against what it deals their whole standing side on average (each card weighed by its printed HP,
so that hurting a card never lowers the average the way weighing by HP left would)."""
GEM_DELAY = 0.5
"""What a gem three further down a card's stack is worth next to the three before it."""
SOULDRIFT_HORIZON = 3
"""Souldrift ticks counted ahead: its drain grows every tick, so three ticks is most of what it takes."""


# TYPE_FACTOR[attack][defend1][defend2]: the engine's multiplier as a float, for every matchup.
TYPE_FACTOR = [[[0.0] * (WHEEL_SIZE + 1) for _ in range(WHEEL_SIZE + 1)] for _ in range(WHEEL_SIZE + 1)]
for _attack in range(1, WHEEL_SIZE + 1):
    for _first in range(1, WHEEL_SIZE + 1):
        for _second in range(1, WHEEL_SIZE + 1):
            TYPE_FACTOR[_attack][_first][_second] = float(multiplier(_attack, (_first, _second)))


def coming_burn(card: dict) -> int:
    """HP that the card's status will still take off if it stays active."""
    status = card["status"]
    if status is None:
        return 0
    if status["name"] == "overcook":
        return min(card["hp"], max(1, share(max_hp(card), status["strength"])) * status["turns"])
    if status["name"] == "souldrift":
        ticks = status["ticks"]
        drained = sum(max(1, share(max_hp(card), status["strength"] * (ticks + n)))
                      for n in range(1, SOULDRIFT_HORIZON + 1))
        return min(card["hp"], drained)
    return 0


def spendable(gems: int) -> float:
    """Gems as full gems' worth: the three an A3 spends next count fully, each further three half as
    much as the three before (they wait a possession longer, and a raid may take them first).
    Without this a card would stack for ever whenever a gem is worth more than an A1 now."""
    full, extra = divmod(gems, 3)
    return 3 * (1 - GEM_DELAY ** full) / (1 - GEM_DELAY) + extra * GEM_DELAY ** full


class Fighter:
    """A standing card with the stats the race needs, read once per position."""

    __slots__ = ("armour", "atk", "card", "gems", "hp", "looks", "max_hp", "type1", "type2")

    def __init__(self, card: dict, burn_share: float) -> None:
        self.card = card
        base = card["base"]
        self.type1, self.type2, self.gems = card["type1"], card["type2"], card["gems"]
        if not (card["boost"] or card["fade"] or card["status"]):  # the stats as printed (most cards)
            self.atk, self.max_hp, self.hp = base["atk"], base["hp"], float(card["hp"])
            self.armour = (1000 - base["def"]) / 1000  # the share of a hit that gets through DEF
        else:
            self.atk, self.max_hp = stat(card, "atk"), max_hp(card)
            self.armour = (1000 - stat(card, "def")) / 1000
            self.hp = max(1.0, card["hp"] - burn_share * coming_burn(card)) if card["status"] else float(card["hp"])
        self.looks = (self.type1, self.type2, self.armour, self.max_hp)
        """All that a blow against the card and its weight in the average foe are made from (Side.race)."""

    def a1(self, foe: "Fighter") -> float:
        """About what this card's A1 takes off `foe`."""
        return max(1.0, self.atk * 0.33 * TYPE_FACTOR[self.type1][foe.type1][foe.type2] * foe.armour)

    def a3(self, foe: "Fighter") -> float:
        """About what this card's A3 takes off `foe` (the better of its two types)."""
        against = TYPE_FACTOR[self.type1][foe.type1]
        factor = max(against[foe.type2], TYPE_FACTOR[self.type2][foe.type1][foe.type2])
        return max(1.0, self.atk * 0.99 * factor * foe.armour)


Kept = dict[tuple, Any]
"""What a search keeps from one position's race to the next: the Fighters of reserve and fallen cards,
by the card (its id()) and the burn counted, and the race's sums by what they are made from.

apply copies the active cards and shares the others with the state it was given until it changes
one (it then copies it first: fighters.own_card), so the positions of one search hold the same
reserve and fallen card dicts over and over, and a dict no one changes keeps its figures. Each
Fighter holds its card, so no other card can take its id() while it is kept.

The sums (`_Sums`) are kept by the figures of the cards met, in their order, and of the card dealing
the blows: the positions of one search meet the same few lineups of figures over and over (only a
status, a boost or a card falling changes one), and a sum made again from the same figures in the same
order is the same float, so a kept one is exactly what the loop would give."""


def _kept(kept: Kept, card: dict, burn_share: float) -> Fighter:
    found = kept.get((id(card), burn_share))
    if found is None:
        found = kept[id(card), burn_share] = Fighter(card, burn_share)
    return found


class Side:
    """One side's cards and gems, and then its figures in the race against the other side."""

    def __init__(self, state: MatchState, seat: int, kept: Kept | None = None) -> None:
        cards, team = state["cards"], state["teams"][seat]
        self.seat = seat
        self.active = [Fighter(cards[card_id], 1.0) for card_id in team["active"] if card_id]
        if kept is None:
            self.reserve = [Fighter(cards[card_id], RESERVE_BURN) for card_id in team["reserve"]]
            self.fallen = [Fighter(cards[card_id], 0.0) for card_id in team["fallen"]]
        else:
            self.reserve = [_kept(kept, cards[card_id], RESERVE_BURN) for card_id in team["reserve"]]
            self.fallen = [_kept(kept, cards[card_id], 0.0) for card_id in team["fallen"]]
        self.raided = team["raided"]

    def race(self, state: MatchState, them: "Side", steady: bool = True, kept: Kept | None = None) -> None:
        """Possessions to take off everything `them` has standing, and what one gem is worth
        (`steady`: see race; `kept`: a search's Kept, whose sums it uses and adds to)."""
        foes = them.active + them.reserve
        standing = sum([foe.hp for foe in foes])
        # The average foe: the whole faction when steady (a knockout never changes it), else the standing.
        met = foes + them.fallen if steady else foes
        targets = len(them.active)
        sums = None if kept is None else _kept_sums(kept, met, targets)
        weight = sum(foe.max_hp for foe in met) if sums is None else sums.weight
        mine, done = state["possession"] == self.seat, state["done"]
        total, best_gem, banked, owed = 0.0, 0.0, 0.0, 0.0
        for card in self.active:
            if sums is None:
                rate, gem = _rate(card, met, targets, weight)
            else:
                key = (card.atk, card.type1, card.type2)
                found = sums.get(key)
                if found is None:
                    found = sums[key] = _rate(card, met, targets, weight)
                rate, gem = found
            total += rate
            if gem > best_gem:
                best_gem = gem
            if card.gems:
                banked += spendable(card.gems) * gem
            status = card.card["status"]
            if status is not None and status["name"] == "gridfreeze":
                owed -= rate
            elif mine and card.card["id"] not in done:
                owed += rate
        self.rate, self.best_gem = total, best_gem
        for card in self.reserve:
            if card.gems:
                kept_gem = None if sums is None else sums.get(("gem", card.atk, card.type1, card.type2))
                if kept_gem is None:
                    kept_gem = sum(foe.max_hp * (card.a3(foe) - card.a1(foe)) for foe in met) / weight / 3
                    if sums is not None:
                        sums["gem", card.atk, card.type1, card.type2] = kept_gem
                banked += spendable(card.gems) * max(0.0, kept_gem)
        if self.raided:
            banked += spendable(self.raided) * self.best_gem
        self.possessions = (standing - banked - owed) / self.rate

    def exposed_gems(self, them: "Side") -> float:
        """Gems on active cards that one blow of the other side could knock loose (weighed by how likely)."""
        at_risk = 0.0
        for card in self.active:
            if not card.gems:
                continue
            blow = max((foe.a3(card) if foe.gems + them.raided >= 3 else foe.a1(card)) for foe in them.active)
            if card.hp <= blow:
                at_risk += 0.7 * card.gems
            elif card.hp <= 2 * blow:
                at_risk += 0.3 * card.gems
        return at_risk


class _Sums(dict):
    """The race's sums against one lineup of figures met (Kept): its weight, and by the figures of the
    card dealing the blows (ATK and types), `_rate`, and ("gem", ATK and types), a reserve card's gem."""

    __slots__ = ("weight",)

    def __init__(self, weight: float) -> None:
        super().__init__()
        self.weight = weight


def _kept_sums(kept: Kept, met: list[Fighter], targets: int) -> _Sums:
    key = (targets, *[foe.looks for foe in met])
    sums = kept.get(key)
    if sums is None:
        sums = kept[key] = _Sums(sum(foe.max_hp for foe in met))
    return sums


def _rate(card: Fighter, met: list[Fighter], targets: int, weight: float) -> tuple[float, float]:
    """What `card` deals a possession with A1 (a quarter the best of the first `targets` of `met`, the active
    foes, three quarters the mean over all of `met` weighed by printed HP, whose sum is `weight`), and what
    one gem adds to it (a third of what A3 deals more): (rate, gem)."""
    # A1 and A3 against the best active target now, and on average over every standing card (weighed by
    # printed HP, so hurting a card never lowers the average). Inlined a1/a3, and comparisons instead of
    # max(): the same numbers without a call in the search's hottest loop.
    first, second = TYPE_FACTOR[card.type1], TYPE_FACTOR[card.type2]
    atk1, atk3 = card.atk * 0.33, card.atk * 0.99
    now1 = now3 = mean1 = mean3 = 0.0
    for place, foe in enumerate(met):
        factor1, factor2 = first[foe.type1][foe.type2], second[foe.type1][foe.type2]
        hit1 = atk1 * factor1 * foe.armour
        hit1 = hit1 if hit1 > 1.0 else 1.0  # noqa: FURB136
        hit3 = atk3 * (factor1 if factor1 > factor2 else factor2) * foe.armour  # noqa: FURB136
        hit3 = hit3 if hit3 > 1.0 else 1.0  # noqa: FURB136
        mean1 += foe.max_hp * hit1
        mean3 += foe.max_hp * hit3
        if place < targets:
            if hit1 > now1:
                now1 = hit1
            if hit3 > now3:
                now3 = hit3
    rate = NOW * now1 + (1 - NOW) * mean1 / weight
    return rate, max(0.0, NOW * now3 + (1 - NOW) * mean3 / weight - rate) / 3


def race(state: MatchState, raids: bool = True, steady: bool = True, kept: Kept | None = None) -> tuple[float, float]:
    """Possessions each seat needs to win the race from here: (seat 0, seat 1). Without `raids`
    the gems one blow could knock loose are not counted (the easy player's blind spot). Without
    `steady` the average foe is the average standing card (the hard-2026 baseline's race: a
    knockout of a foe the side hits hard lowered its own rate). `kept`: a search's Fighters (Kept)."""
    sides = (Side(state, 0, kept), Side(state, 1, kept))
    for seat in (0, 1):
        sides[seat].race(state, sides[1 - seat], steady, kept)
    # Only the side out of possession is exposed to a blow before it can spend or shift away.
    if raids and state["possession"] is not None:
        exposed = sides[1 - state["possession"]]
        raider = sides[state["possession"]]
        gems = exposed.exposed_gems(raider)
        if gems:
            exposed.possessions += gems * exposed.best_gem / exposed.rate
            raider.possessions -= gems * raider.best_gem / raider.rate
    return sides[0].possessions, sides[1].possessions


def margin(state: MatchState, seat: int, raids: bool = True, steady: bool = True, kept: Kept | None = None) -> float:
    """How far ahead `seat` is in the race: the other side's possessions less its own, over their
    spread. A race below zero possessions means the side finishes within the moves it still has in
    this possession; the spread shrinks with the possessions left, since a short race leaves little
    to luck."""
    mine, theirs = race(state, raids, steady, kept) if seat == 0 else race(state, raids, steady, kept)[::-1]
    return (theirs - mine) / sqrt(max(0.0, mine) + max(0.0, theirs) + SPREAD_FLOOR)


def win_chance(state: MatchState, seat: int, raids: bool = True, steady: bool = True,
               kept: Kept | None = None) -> float:
    """The estimated chance (0..1) that `seat` wins from this position (`raids`, `steady`, `kept`: see race)."""
    if state["winner"] is not None:
        return 1.0 if state["winner"] == seat else 0.0
    return 1 / (1 + exp(-K * margin(state, seat, raids, steady, kept)))


def material(state: MatchState, seat: int) -> float:
    """The share of its HP each side keeps, `seat`'s minus the other's: the greedy player's measure."""
    kept = []
    for side in (seat, 1 - seat):
        cards = [card for card in state["cards"].values() if card["seat"] == side]
        kept.append(sum(card["hp"] for card in cards) / sum(max_hp(card) for card in cards))
    return kept[0] - kept[1]
