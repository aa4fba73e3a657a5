"""The type wheel: ten types in a circle, each strong against the next two.

The rulebook says there are 10 cyclic types, each strong against 2 and weak against
2, with multipliers 4x / 2x / 1x / 0.5x / 0.25x, but it does not print their names.

Decisions:
- Names: we ship ten invented names (DEFAULT_TYPE_NAMES) and a table may rename them
  for a match (the "type_names" option). Cards store a type by its place on the
  wheel (1 to 10), so renaming never changes a card or a result.
- Which matchups: type n is strong (2x) against types n+1 and n+2 and weak (0.5x)
  against types n-1 and n-2, round the circle; anything else is 1x. That is the only
  reading in which every type is strong against exactly 2 and weak against 2.
- Two defender types: the multipliers against each multiply, which gives exactly the
  five values the rulebook lists. A card whose two types are the same counts that
  type once (2x, not 4x).
"""

from fractions import Fraction
from functools import lru_cache

WHEEL_SIZE = 10
DEFAULT_TYPE_NAMES = ("Ember", "Tide", "Gale", "Stone", "Volt", "Frost", "Bloom", "Venom", "Radiance", "Umbra")
# One symbol per place on the wheel, so a type is never told apart by colour alone. Plain
# Unicode symbols rather than emoji: they render with the fonts every phone already has.
TYPE_SYMBOLS = ("✹", "≈", "➶", "▲", "ϟ", "❄", "✿", "☣", "☀", "☾")

STRONG = Fraction(2)
WEAK = Fraction(1, 2)
NEUTRAL = Fraction(1)


def against_one(attack_type: int, defend_type: int) -> Fraction:
    """The multiplier of one attacking type (1-10) against one defending type."""
    steps = (defend_type - attack_type) % WHEEL_SIZE
    if steps in (1, 2):
        return STRONG
    if steps in (WHEEL_SIZE - 1, WHEEL_SIZE - 2):
        return WEAK
    return NEUTRAL


# Kept once worked out: every attack asks (an AI's search some hundred thousand times a decision), and
# a product of Fractions costs more than the rest of the damage sum. A pure function of a few ints.
@lru_cache(maxsize=4096)
def multiplier(attack_type: int, defender_types: tuple[int, int]) -> Fraction:
    """4, 2, 1, 1/2 or 1/4: the product over the defender's (distinct) types."""
    result = Fraction(1)
    for defend_type in set(defender_types):
        result *= against_one(attack_type, defend_type)
    return result


@lru_cache(maxsize=4096)
def best_of(attack_types: tuple[int, int], defender_types: tuple[int, int]) -> tuple[int, Fraction]:
    """A3 attacks with whichever of the attacker's two types hits harder: (that type, its multiplier)."""
    return max(((t, multiplier(t, defender_types)) for t in attack_types), key=lambda pair: pair[1])
