"""Checks shared by the games' card validation, and the one reading of a typed whole number."""

from .errors import InvalidCard, gettext_noop

DIGITS = 9
"""Digits a typed number may have by default: more than any count, step, id or die here needs."""


def typed_number(text: str, digits: int = DIGITS) -> int | None:
    """`text` as a whole number if it is decimal digits only, at most `digits` of them; else None.

    Every reading of a number typed into a form, a URL or a file goes through here: `isdecimal()` alone
    lets through a number `int()` refuses (over 4,300 digits, a ValueError where none was expected)."""
    return int(text) if text.isdecimal() and len(text) <= digits else None


def whole_number(value: object, label: str, low: int, high: int) -> int:
    """`value` if it is a whole number from `low` to `high`, else InvalidCard naming `label`."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidCard(
            "card-stat-type", gettext_noop("%(stat)s must be a whole number, not %(value)r."), stat=label, value=value
        )
    if not low <= value <= high:
        raise InvalidCard(
            "card-stat-range",
            gettext_noop("%(stat)s must be between %(low)s and %(high)s; %(value)s is out of range."),
            stat=label, low=low, high=high, value=value,
        )
    return value


def card_name(card: object, most: int) -> str:
    """The name of a card given as a dict of stats, stripped; InvalidCard for anything else.

    Every game's validate_card starts here, so a card that is not a dict, or has no name of
    1 to `most` characters, is refused in the same words whatever the game.
    """
    if not isinstance(card, dict):
        raise InvalidCard("card-shape", gettext_noop("A card must be a set of named stats."))
    name = card.get("name")
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > most:
        raise InvalidCard("card-name", gettext_noop("A card needs a name of 1 to %(most)s characters."), most=most)
    return name.strip()
