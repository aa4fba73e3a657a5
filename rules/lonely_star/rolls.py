"""Lonely Star's D6 checks: Critical Damage and Luck against total Luck, Resist against total Resist.

The rulebook: a roll succeeds when the D6 shows a number equal to or lower than
the unit's total stat. Every die goes through `Dice.roll(6, why)`, so a replay
gives the same app rolls and a die a player rolled and tapped in is kept as such.

Decision: a D6 always shows 1 to 6, so a total of 6 or more always succeeds and
a total of 0 or less always fails. Such a check is certain and no die is rolled
(the event says "certain" and the screen says why); anyone at the table can see
the roll could not matter, and a player is never asked to roll a die for nothing.
"""

from fractions import Fraction

from ..dice import Dice

SIDES = 6


def is_certain(total: int) -> bool:
    return total >= SIDES or total <= 0


def certain_result(total: int) -> bool | None:
    """Whether a check against `total` always succeeds (True) or always fails (False); None when a die decides."""
    return total >= SIDES if is_certain(total) else None


def pass_chance(total: int) -> Fraction:
    """The chance that a check against `total` succeeds: the D6 faces at most the total, of SIDES."""
    return Fraction(min(max(total, 0), SIDES), SIDES)


def check(dice: Dice, total: int, kind: str, name: str) -> dict:
    """One check ("crit", "resist" or "luck") for the named unit: the roll, if any, and the result."""
    if is_certain(total):
        return {"kind": kind, "total": total, "roll": None, "certain": True, "success": certain_result(total)}
    value = dice.roll(SIDES, f"{kind}: {name} ({total})")
    return {"kind": kind, "total": total, "roll": value, "certain": False, "success": value <= total}
