"""How good a position is: the estimated chance that a seat wins from it.

Cardmaster is a damage race. Three active cards a side trade blows; a fallen card's place is
taken at once by the next reserve card, so each side keeps hitting at about the same rate
until its reserve runs out. The side that needs fewer possessions to take off everything the
other side has standing usually wins. So the estimate is a race:

    possessions(side) = the sum, over every card the other side has standing (reserve too),
                        of its HP (less what its status will burn) divided by what this side's
                        active cards take off it together in one possession with A1
                      - what this side has banked, in possessions: stacked and raided gems as
                        the extra damage they buy (an A3 does 0.99 x ATK where an A1 does 0.33,
                        so a gem is worth a third of that difference against the best target)
                      - the moves this side still has in the current possession
                      + the moves a Gridfreeze will make it skip
    win chance        = logistic(K x (possessions(other) - possessions(side)) / sqrt(sum + 1))

Each enemy card is weighed by how fast this side's lineup hurts that very card, so type
match-ups, DEF, ATK boosts and Undershock count against the cards they apply to, not only
against the weakest target. The gamble enters as risk: gems on an active card that the other
side can knock out with one blow count only in part, and the part at risk counts for the
other side (a raid). Statuses count as the HP they will burn (Overcook, Souldrift) or the move
they will cost (Gridfreeze); Undershock and Souldrift's fade are in the stats the engine reports.

Damage here is the engine's formula in floating point with the engine's own stats and type
wheel (fighters.stat, typechart.multiplier): an estimate for ranking positions quickly. What a
move really does always comes from `apply`.
"""

from functools import cache
from math import exp, sqrt

from ..fighters import max_hp, stat
from ..numbers import share
from ..typechart import multiplier

K = 1.6
"""Steepness of the win chance curve, fitted to the outcomes of self-played matches (strength.py)."""
RESERVE_BURN = 0.5
"""A status does not tick in reserve, so a reserve card's coming burn counts half."""
NOW = 0.5
"""How much a card's rate is what it deals the other side's active cards now (the best of them),
against what it deals their whole standing side on average (each card weighed by its printed HP,
so that hurting a card never lowers the average the way weighing by HP left would)."""
GEM_DELAY = 0.5
"""What a gem three further down a card's stack is worth next to the three before it."""
SOULDRIFT_HORIZON = 3
"""Souldrift ticks counted ahead: its drain grows every tick, so three ticks is most of what it takes."""


@cache
def type_factor(attack_type: int, defend1: int, defend2: int) -> float:
    return float(multiplier(attack_type, (defend1, defend2)))


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

    __slots__ = ("card", "atk", "defense", "type1", "type2", "hp", "max_hp", "gems")

    def __init__(self, card: dict, burn_share: float) -> None:
        self.card = card
        self.atk = stat(card, "atk")
        self.defense = stat(card, "def")
        self.type1, self.type2 = card["type1"], card["type2"]
        self.hp = max(1.0, card["hp"] - burn_share * coming_burn(card))
        self.max_hp = max_hp(card)
        self.gems = card["gems"]

    def a1(self, foe: "Fighter") -> float:
        return max(1.0, self.atk * 0.33 * type_factor(self.type1, foe.type1, foe.type2) * (1000 - foe.defense) / 1000)

    def a3(self, foe: "Fighter") -> float:
        factor = max(type_factor(self.type1, foe.type1, foe.type2), type_factor(self.type2, foe.type1, foe.type2))
        return max(1.0, self.atk * 0.99 * factor * (1000 - foe.defense) / 1000)


class Side:
    """One side's cards and gems, and then its figures in the race against the other side."""

    def __init__(self, state: dict, seat: int) -> None:
        cards, team = state["cards"], state["teams"][seat]
        self.seat = seat
        self.active = [Fighter(cards[card_id], 1.0) for card_id in team["active"] if card_id]
        self.reserve = [Fighter(cards[card_id], RESERVE_BURN) for card_id in team["reserve"]]
        self.raided = team["raided"]

    def race(self, state: dict, them: "Side") -> None:
        """Possessions to take off everything `them` has standing, and what one gem is worth."""
        foes = (*them.active, *them.reserve)
        standing = sum(foe.hp for foe in foes)
        weights = [foe.max_hp for foe in foes]
        weight = sum(weights)
        self.rate, self.best_gem, banked, owed = 0.0, 0.0, 0.0, 0.0
        for card in self.active:
            rate = NOW * max(card.a1(foe) for foe in them.active) + (1 - NOW) * sum(
                share * card.a1(foe) for share, foe in zip(weights, foes)) / weight
            strong = NOW * max(card.a3(foe) for foe in them.active) + (1 - NOW) * sum(
                share * card.a3(foe) for share, foe in zip(weights, foes)) / weight
            gem = max(0.0, strong - rate) / 3
            self.rate += rate
            self.best_gem = max(self.best_gem, gem)
            banked += spendable(card.gems) * gem
            status = card.card["status"]
            if status is not None and status["name"] == "gridfreeze":
                owed -= rate
            elif state["possession"] == self.seat and card.card["id"] not in state["done"]:
                owed += rate
        for card in self.reserve:
            if card.gems:
                gem = sum(share * (card.a3(foe) - card.a1(foe)) for share, foe in zip(weights, foes)) / weight / 3
                banked += spendable(card.gems) * max(0.0, gem)
        banked += spendable(self.raided) * self.best_gem
        self.possessions = (standing - banked - owed) / self.rate
        self.per_possession = self.rate

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


def race(state: dict) -> tuple[float, float]:
    """Possessions each seat needs to win the race from here: (seat 0, seat 1)."""
    sides = (Side(state, 0), Side(state, 1))
    for seat in (0, 1):
        sides[seat].race(state, sides[1 - seat])
    # Only the side out of possession is exposed to a blow before it can spend or shift away.
    if state["possession"] is not None:
        exposed = sides[1 - state["possession"]]
        raider = sides[state["possession"]]
        gems = exposed.exposed_gems(raider)
        exposed.possessions += gems * exposed.best_gem / exposed.per_possession
        raider.possessions -= gems * raider.best_gem / raider.per_possession
    return max(0.0, sides[0].possessions), max(0.0, sides[1].possessions)


def win_chance(state: dict, seat: int) -> float:
    """The estimated chance (0..1) that `seat` wins from this position."""
    if state["winner"] is not None:
        return 1.0 if state["winner"] == seat else 0.0
    mine, theirs = race(state) if seat == 0 else race(state)[::-1]
    return 1 / (1 + exp(-K * (theirs - mine) / sqrt(mine + theirs + 1)))


def material(state: dict, seat: int) -> float:
    """The share of its HP each side keeps, `seat`'s minus the other's: the greedy player's measure."""
    kept = []
    for side in (seat, 1 - seat):
        cards = [card for card in state["cards"].values() if card["seat"] == side]
        kept.append(sum(card["hp"] for card in cards) / sum(max_hp(card) for card in cards))
    return kept[0] - kept[1]
