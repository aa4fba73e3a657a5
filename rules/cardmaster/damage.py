"""How much an attack takes off: move factor x type multiplier x DEF reduction.

The rulebook gives the pieces (ATK x 0.33 / 0.66 / 0.99, the type multipliers,
"Reduction % = DEF / 10", "damage always lands (min 1)") but not how they combine.
Decision: they multiply, as written, and the product is rounded half up once at
the end, then raised to 1 if lower:

    damage = max(1, round(ATK x factor x type multiplier x (1 - DEF / 1000)))
"""

from fractions import Fraction

from .fighters import stat
from .typechart import best_of, multiplier

FACTORS = {"a1": Fraction(33, 100), "a2": Fraction(66, 100), "a3": Fraction(99, 100)}
FACTOR_TEXT = {"a1": "0.33", "a2": "0.66", "a3": "0.99"}


def reduction_tenths(defense: int) -> int:
    """DEF as tenths of a percent taken off: DEF 100 -> 100 (10%), DEF 999 -> 999 (99.9%)."""
    return defense


def damage(atk: int, move: str, type_multiplier: Fraction, defense: int) -> int:
    # The exact product rounded half up (numbers.round_half_up), in whole numbers: (2n + d) // 2d
    # is floor(n / d + 1/2). Fraction arithmetic gave the same and was a tenth of a playout's time.
    factor = FACTORS[move]
    top = atk * factor.numerator * type_multiplier.numerator * (1000 - reduction_tenths(defense))
    bottom = factor.denominator * type_multiplier.denominator * 1000
    return max(1, (2 * top + bottom) // (2 * bottom))


def attack_type(attacker: dict, defender: dict, move: str) -> tuple[int, Fraction]:
    """The type a move attacks with and its multiplier: A1 Type 1, A2 Type 2, A3 the better one."""
    defending = (defender["type1"], defender["type2"])
    if move == "a1":
        return attacker["type1"], multiplier(attacker["type1"], defending)
    if move == "a2":
        return attacker["type2"], multiplier(attacker["type2"], defending)
    return best_of((attacker["type1"], attacker["type2"]), defending)


def working(attacker: dict, defender: dict, move: str) -> dict:
    """Every number of the damage sum, for the event and the page."""
    used_type, type_multiplier = attack_type(attacker, defender, move)
    atk, defense = stat(attacker, "atk"), stat(defender, "def")
    return {
        "atk": atk,
        "factor": FACTOR_TEXT[move],
        "attack_type": used_type,
        "type_multiplier": str(type_multiplier),
        "def": defense,
        "reduction": reduction_tenths(defense),
        "damage": damage(atk, move, type_multiplier, defense),
    }
