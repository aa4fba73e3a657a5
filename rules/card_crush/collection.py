"""Card Crush collections: copies owned, upgrades with duplicates, and a card's stats at its level.

The rulebook: every card starts at Level 1; collecting enough duplicate copies of
a card upgrades it; an upgrade raises Power and/or Speed. It gives no numbers, and
the public pages that promised them are cut off. Our defaults:

- Copies: a player owns a card with `copies` >= 1; the duplicates are the copies
  beyond the first. An upgrade spends the duplicates it needs.
- Duplicates needed to go from level L to L+1 (index L-1 in the table):
      Common     2, 4, 8, 16
      Rare       2, 3, 6, 10
      Epic       1, 2, 4, 8
      Legendary  1, 1, 2, 4
  Rarer cards are harder to come by, so each of their duplicates counts for more.
- Maximum level: 5 (one more than the table's length).
- Each level adds +1 Power and +1 Speed ("Power and/or Speed": both, so an upgrade
  helps the Battle Score and the Team Initiative alike).
- Starting level: the catalog records a card as printed, with its level (usually 1).
  A collected card starts at that level; each level above it adds the gains.

All three are settings (tracker/settings.py CARD_CRUSH_COMPETITION, keys
"UPGRADE_DUPLICATES", "UPGRADE_GAINS", "MAX_LEVEL"). A table must give one number
per level below the maximum for every rarity.
"""

from dataclasses import dataclass, field

from ..errors import IllegalAction, InvalidConfig, Word, gettext_noop
from .cards import LEVEL_MAX, RARITIES, STAT_MAX

DEFAULT_DUPLICATES = {
    "Common": (2, 4, 8, 16),
    "Rare": (2, 3, 6, 10),
    "Epic": (1, 2, 4, 8),
    "Legendary": (1, 1, 2, 4),
}
DEFAULT_GAINS = {"power": 1, "speed": 1}
DEFAULT_MAX_LEVEL = 5
MAX_COPIES = 9999


@dataclass(frozen=True)
class UpgradeRules:
    duplicates: dict = field(default_factory=lambda: dict(DEFAULT_DUPLICATES))
    """Per rarity, the duplicates needed to go from level L to L+1, at index L-1."""
    gains: dict = field(default_factory=lambda: dict(DEFAULT_GAINS))
    """Stats added per level: "power" and "speed"."""
    max_level: int = DEFAULT_MAX_LEVEL

    def __post_init__(self) -> None:
        if type(self.max_level) is not int or not 1 <= self.max_level <= LEVEL_MAX:
            raise InvalidConfig("upgrade-max-level", gettext_noop("The top level is a whole number from 1 to %(most)s."),
                                most=LEVEL_MAX)
        for rarity in RARITIES:
            table = self.duplicates.get(rarity)
            if (not isinstance(table, (list, tuple)) or len(table) < self.max_level - 1
                    or any(type(n) is not int or n < 1 for n in table)):
                raise InvalidConfig(
                    "upgrade-table",
                    gettext_noop("The upgrade table needs %(count)s whole numbers of at least 1 for %(rarity)s."),
                    count=self.max_level - 1, rarity=Word(rarity),
                )
        if set(self.gains) - {"power", "speed"} or any(type(n) is not int or n < 0 for n in self.gains.values()):
            raise InvalidConfig("upgrade-gains", gettext_noop("Upgrade gains are whole numbers for power and speed."))


@dataclass(frozen=True)
class Owned:
    """A card in a player's collection."""

    rarity: str
    copies: int
    level: int

    @property
    def duplicates(self) -> int:
        return self.copies - 1


def duplicates_needed(owned: Owned, rules: UpgradeRules = UpgradeRules()) -> int | None:
    """Duplicates the next level costs, or None at the maximum level."""
    if owned.level >= rules.max_level:
        return None
    return rules.duplicates[owned.rarity][owned.level - 1]


def can_upgrade(owned: Owned, rules: UpgradeRules = UpgradeRules()) -> bool:
    needed = duplicates_needed(owned, rules)
    return needed is not None and owned.duplicates >= needed


def upgrade(owned: Owned, rules: UpgradeRules = UpgradeRules()) -> Owned:
    """The card one level up with its duplicates spent, or IllegalAction."""
    needed = duplicates_needed(owned, rules)
    if needed is None:
        raise IllegalAction("max-level", gettext_noop("This card is already at the top level, %(level)s."),
                            level=rules.max_level)
    if owned.duplicates < needed:
        raise IllegalAction(
            "not-enough-duplicates",
            gettext_noop("Duplicates needed for level %(next)s: %(needed)s; you have %(have)s."),
            next=owned.level + 1, needed=needed, have=owned.duplicates,
        )
    return Owned(rarity=owned.rarity, copies=owned.copies - needed, level=owned.level + 1)


def add_copies(owned: Owned, count: int) -> Owned:
    """More copies of a card; a count below 1 or a total over MAX_COPIES is refused."""
    if type(count) is not int or count < 1:
        raise IllegalAction("copies-count", gettext_noop("Add at least 1 copy; %(count)s is not a number of copies."),
                            count=count)
    if owned.copies + count > MAX_COPIES:
        raise IllegalAction("copies-most", gettext_noop("A collection holds at most %(most)s copies of a card."),
                            most=MAX_COPIES)
    return Owned(rarity=owned.rarity, copies=owned.copies + count, level=owned.level)


def leveled(card: dict, level: int, rules: UpgradeRules = UpgradeRules()) -> dict:
    """The catalog card (a validated card) as it plays at `level`."""
    gained = max(0, level - card["level"])
    return {
        **card,
        "power": min(STAT_MAX, card["power"] + rules.gains.get("power", 0) * gained),
        "speed": min(STAT_MAX, card["speed"] + rules.gains.get("speed", 0) * gained),
        "level": max(level, card["level"]),
    }
