"""Card Crush cards: their stats and what values they may take.

The rulebook gives no ranges for Power and Speed. We accept whole numbers from 0
to 999 so any printed or upgraded card fits, and refuse anything beyond as a typing
mistake. Level starts at 1 (rulebook); we cap it at 99 for the same reason.
"""

from typing import Any

from ..errors import InvalidCard, Word, gettext_noop
from ..fields import card_name, whole_number
from .affinity import AFFINITIES

RARITIES = (gettext_noop("Common"), gettext_noop("Rare"), gettext_noop("Epic"), gettext_noop("Legendary"))
# The stats as a message names them.
LABELS = {"power": gettext_noop("Power"), "speed": gettext_noop("Speed"), "level": gettext_noop("Level"),
          "affinity": gettext_noop("Affinity"), "rarity": gettext_noop("Rarity")}
STAT_MAX = 999
LEVEL_MAX = 99
NAME_MAX = 60


def _whole_number(card: dict, stat: str, low: int, high: int) -> int:
    return whole_number(card.get(stat), Word(LABELS[stat]), low, high)


def _one_of(card: dict, stat: str, allowed: tuple[str, ...], default: str | None = None) -> str:
    value = card.get(stat, default)
    for name in allowed:
        if isinstance(value, str) and value.strip().casefold() == name.casefold():
            return name
    raise InvalidCard(
        f"card-{stat}",
        gettext_noop("Unknown %(stat)s %(value)r: choose one of %(allowed)s."),
        stat=Word(LABELS[stat]),
        value=value,
        allowed=Word(*allowed),
    )


def validate_card(card: Any) -> dict:
    """The card with its stats checked and in canonical form, or `InvalidCard`."""
    name = card_name(card, NAME_MAX)
    return {
        "name": name,
        "power": _whole_number(card, "power", 0, STAT_MAX),
        "speed": _whole_number(card, "speed", 0, STAT_MAX),
        "affinity": _one_of(card, "affinity", AFFINITIES),
        "rarity": _one_of(card, "rarity", RARITIES, default="Common"),
        "level": _whole_number({"level": card.get("level", 1)}, "level", 1, LEVEL_MAX),
    }
