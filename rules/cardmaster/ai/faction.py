"""The AI's faction: picked from given cards, generated to a power level, or entered by hand,
and the order it lines them up in (the first three start active).

Power is our measure, the rulebook has none. A card's points weigh what each stat is worth in
the damage race (ATK hits, HP and DEF take hits, SPD only decides who goes first in a round,
SPC makes one boost and softens backfire):

    points = ATK + HP / 3 + DEF / 2 + SPD / 4 + SPC / 4        power = points / 100, rounded

The invented demo cards come out at power 5 to 9. Generated cards are at exactly the power
asked for (1 to 20), with a seeded mix of stats, types, tier and status, and pass
`validate_card`; the same power, seed and size always give the same faction.
"""

import random

from ...errors import IllegalAction, InvalidCard, gettext_noop
from ..cards import STATUSES, validate_card
from ..typechart import WHEEL_SIZE
from .evaluation import Fighter

SHOWDOWN_SIZE = 9
POWER_RANGE = (1, 20)
POINTS_PER_POWER = 100
WEIGHTS = {"atk": 1, "hp": 1 / 3, "def": 1 / 2, "spd": 1 / 4, "spc": 1 / 4}
# Each stat's share of a generated card's points: a low and a high end, drawn between.
SHARES = {"atk": (0.25, 0.4), "hp": (0.3, 0.5), "def": (0.05, 0.2), "spd": (0.03, 0.08), "spc": (0.02, 0.08)}
DEF_MOST = 700  # generated cards stop well short of near-immunity
NAME_TRIES = 1000
FIRST = ("Ash", "Brine", "Cinder", "Dusk", "Ember", "Fen", "Flint", "Frost", "Gloom", "Hollow", "Iron", "Jade",
         "Mire", "Moon", "Quartz", "Rust", "Sable", "Storm", "Thorn", "Vale")
SECOND = ("Adder", "Bastion", "Colossus", "Drake", "Falcon", "Golem", "Hound", "Lynx", "Marauder", "Monk",
          "Owl", "Ranger", "Sage", "Sentry", "Stag", "Viper", "Warden", "Weaver", "Wisp", "Wyrm")


def card_points(card: dict) -> float:
    return sum(card[stat] * weight for stat, weight in WEIGHTS.items())


def card_power(card: dict) -> int:
    """A card's power level: its points in hundreds, rounded (at least 1)."""
    return max(1, round(card_points(card) / POINTS_PER_POWER))


def faction_power(cards: list[dict]) -> int:
    """The mean power of a faction, rounded: offer it to match the AI to a player's cards."""
    return max(1, round(sum(card_points(card) for card in cards) / len(cards) / POINTS_PER_POWER))


def _check_power(power: object) -> int:
    if isinstance(power, bool) or not isinstance(power, int) or not POWER_RANGE[0] <= power <= POWER_RANGE[1]:
        raise IllegalAction("ai-power", gettext_noop("A power level is a whole number from %(low)s to %(high)s, "
                                                     "not %(value)r."),
                            low=POWER_RANGE[0], high=POWER_RANGE[1], value=power)
    return power


def generated_card(name: str, power: int, rng: random.Random) -> dict:
    """One card at exactly `power`, its stats, types, tier and status drawn from `rng`."""
    target = power * POINTS_PER_POWER
    shares = {stat: rng.uniform(*SHARES[stat]) for stat in WEIGHTS}
    total = sum(shares.values())
    card: dict = {stat: max(1, round(target * share / total / WEIGHTS[stat])) for stat, share in shares.items()}
    card["def"] = min(card["def"], DEF_MOST)
    # ATK takes up whatever rounding and the DEF cap left over, so the points land on target.
    card["atk"] = max(1, card["atk"] + round(target - card_points(card)))
    card.update(name=name, type1=rng.randint(1, WHEEL_SIZE), type2=rng.randint(1, WHEEL_SIZE),
                tier=rng.choice((1, 1, 2, 2, 3, 3, 4, 5)), status=rng.choice((*STATUSES, "none")))
    return validate_card(card)


def generate_faction(power: int, seed: str, size: int = SHOWDOWN_SIZE, avoid: tuple[str, ...] = ()) -> list[dict]:
    """`size` new cards at `power`, with different names (none of those in `avoid`)."""
    power = _check_power(power)
    rng = random.Random(f"cardmaster-faction|{seed}|{power}|{size}")
    taken = {name.casefold() for name in avoid}
    cards: list[dict] = []
    tries = 0
    while len(cards) < size:
        tries += 1
        name = f"{rng.choice(FIRST)} {rng.choice(SECOND)}"
        if tries > NAME_TRIES:  # `avoid` holds most of the names: number them instead
            name = f"{name} {tries}"
        if name.casefold() not in taken:
            taken.add(name.casefold())
            cards.append(generated_card(name, power, rng))
    return cards


def checked_faction(cards: list[dict], size: int = SHOWDOWN_SIZE) -> list[dict]:
    """Cards entered by hand, each checked by the engine's `validate_card`: its InvalidCard, with the
    card's place in the list (from 1) added as the `place` parameter; IllegalAction for a wrong
    count or a name given twice."""
    if not isinstance(cards, list) or len(cards) != size:
        raise IllegalAction("lineup-size", gettext_noop("This is a %(size)sv%(size)s match: a lineup has %(size)s "
                                                        "cards, not %(count)s."),
                            size=size, count=len(cards) if isinstance(cards, list) else 0)
    checked = []
    for place, card in enumerate(cards, start=1):
        try:
            checked.append(validate_card(card))
        except InvalidCard as error:
            raise InvalidCard(error.rule, error.template, **error.params, place=place) from error
    names = [card["name"].casefold() for card in checked]
    for place, name in enumerate(names):
        if name in names[:place]:
            raise IllegalAction("lineup-unique", gettext_noop("%(name)s is in the lineup twice."),
                                name=checked[place]["name"])
    return checked


def pick_faction(cards: list[dict], seed: str, size: int = SHOWDOWN_SIZE, power: int | None = None) -> list[dict]:
    """`size` of the given cards (a catalog): those nearest `power`, or the strongest when no power is
    given; equally good cards are drawn by the seed. InvalidCard for a card the engine refuses."""
    checked = [validate_card(card) for card in cards]
    unique = list({card["name"].casefold(): card for card in checked}.values())
    if len(unique) < size:
        raise IllegalAction("ai-catalog-short", gettext_noop("The AI needs %(size)s different cards to choose from; "
                                                             "there are %(count)s."), size=size, count=len(unique))
    rng = random.Random(f"cardmaster-pick|{seed}|{size}|{power}")
    rng.shuffle(unique)
    if power is None:
        return sorted(unique, key=lambda card: -card_points(card))[:size]
    target = _check_power(power) * POINTS_PER_POWER
    return sorted(unique, key=lambda card: abs(card_points(card) - target))[:size]


def _fighter(card: dict) -> Fighter:
    """A card as the evaluation sees a fresh one: full HP, no gems, no status."""
    return Fighter({"hp": card["hp"], "gems": 0, "status": None, "type1": card["type1"], "type2": card["type2"],
                    "base": card, "boost": {}, "fade": {}}, 0.0)


def lineup_order(cards: list[dict], against: list[dict] | None = None) -> list[dict]:
    """The AI's lineup: its cards best first, so the first three (active) are those that hurt the
    other side most for the hits they take. `against` is the other side's cards if known (in any
    order; a Showdown player's faction is entered before the AI locks in); without it, every type.

    A card's worth is what it deals per possession times how many possessions it lasts, each
    averaged over the cards it will meet: A1 damage x (HP / A1 damage taken).
    """
    cards = [validate_card(card) for card in cards]
    if against:
        foes = [_fighter(validate_card(card)) for card in against]
    else:  # one plain card of each type: no type is favoured
        foes = [_fighter({"hp": 1, "atk": 300, "def": 200, "type1": t, "type2": t}) for t in range(1, WHEEL_SIZE + 1)]
    worth = []
    for place, card in enumerate(cards):
        me = _fighter(card)
        dealt = sum(me.a1(foe) for foe in foes) / len(foes)
        taken = sum(foe.a1(me) for foe in foes) / len(foes)
        worth.append((-dealt * card["hp"] / taken, place))
    return [cards[place] for _worth, place in sorted(worth)]
