"""Exact arithmetic shared by the rules: rounding and percentages in tenths.

Decision (the rulebook never says how to round): every figure is worked out
exactly (fractions) and rounded once at the end, half up, so 98.5 becomes 99.
Chances and strengths are kept in tenths of a percent (55 = 5.5%) so the
rulebook's 5.5% steps stay exact whole numbers.
"""

from fractions import Fraction
from math import ceil, floor


def round_half_up(value: Fraction | int) -> int:
    return floor(Fraction(value) + Fraction(1, 2))


def share(amount: int, tenths: int) -> int:
    """`tenths` per mille of `amount`, rounded up: the part a percentage takes away."""
    if type(amount) is int and type(tenths) is int:
        return -(-amount * tenths // 1000)  # the same ceiling in whole numbers, without a Fraction
    return ceil(Fraction(amount * tenths, 1000))


def percent_text(tenths: int) -> str:
    """55 -> "5.5", 110 -> "11"."""
    whole, tenth = divmod(tenths, 10)
    return f"{whole}.{tenth}" if tenth else str(whole)
