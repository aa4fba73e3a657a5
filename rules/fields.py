"""Checks shared by the games' card validation."""

from .errors import InvalidCard, gettext_noop


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
