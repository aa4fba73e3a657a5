"""Cardmaster cards: five stats, two types, a tier and the status the card's A2/A3 inflict.

The rulebook names the stats (SPD, HP, DEF, ATK, SPC) but gives no ranges, and it
never says what a "tier" is. Decisions:
- DEF runs 0 to 999, because the rulebook's own top example is DEF 999 (99.9% off)
  and DEF 1000 would make a card immune, which "damage always lands" rules out.
- SPD, SPC 0 to 999 and ATK 0 to 9999, HP 1 to 9999: wide enough for any printed
  card, narrow enough to catch a slip of the thumb.
- Tier is a whole number from 1 to 9. The status formulas multiply it (A3's proc is
  tier x 11%), and tier 9 is the last one for which that stays under 100%.
- A card's status is one of the five Astralite statuses, or "none" for a card whose
  A2/A3 carry none (then nothing is rolled for them).
"""

from typing import Any

from ..errors import InvalidCard, gettext_noop
from ..fields import card_name, typed_number, whole_number
from .typechart import DEFAULT_TYPE_NAMES, WHEEL_SIZE

STATS = ("spd", "hp", "def", "atk", "spc")
STAT_RANGES = {"spd": (0, 999), "hp": (1, 9999), "def": (0, 999), "atk": (0, 9999), "spc": (0, 999)}
TIER_RANGE = (1, 9)
STATUSES = ("overcook", "undershock", "brainlock", "gridfreeze", "souldrift")
NAME_MAX = 60


def _whole_number(card: dict, field: str, low: int, high: int) -> int:
    return whole_number(card.get(field), field.upper(), low, high)


def type_number(value: object, field: str = "type") -> int:
    """A type as its place on the wheel (1-10), given that number or one of the default names."""
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= WHEEL_SIZE:
        return value
    if isinstance(value, str):
        text = value.strip()
        number = typed_number(text)
        if number is not None and 1 <= number <= WHEEL_SIZE:
            return number
        for number, name in enumerate(DEFAULT_TYPE_NAMES, start=1):
            if text.casefold() == name.casefold():
                return number
    raise InvalidCard(
        "card-type",
        gettext_noop("Unknown type %(value)r for %(field)s: give 1 to 10 or one of %(allowed)s."),
        value=value,
        field=field,
        allowed=", ".join(DEFAULT_TYPE_NAMES),
    )


def validate_card(card: Any) -> dict:
    """The card with its stats checked and in canonical form, or `InvalidCard`."""
    name = card_name(card, NAME_MAX)
    normal: dict[str, str | int] = {"name": name}
    for stat in STATS:
        normal[stat] = _whole_number(card, stat, *STAT_RANGES[stat])
    normal["type1"] = type_number(card.get("type1"), "Type 1")
    normal["type2"] = type_number(card.get("type2"), "Type 2")
    normal["tier"] = _whole_number(card, "tier", *TIER_RANGE)
    status = card.get("status", "none")
    status = status.strip().casefold() if isinstance(status, str) else status
    if status not in (*STATUSES, "none"):
        raise InvalidCard(
            "card-status",
            gettext_noop("Unknown status %(value)r: choose one of %(allowed)s, or none."),
            value=card.get("status"),
            allowed=", ".join(STATUSES),
        )
    normal["status"] = status
    return normal
