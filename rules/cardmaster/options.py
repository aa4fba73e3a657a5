"""Per-match options of a Cardmaster Custom Match, and their checks.

Only the numbers the rulebook leaves open are options; its own numbers (A2 costs 2,
tier x 5.5%, Brainlock 2 turns, Gridfreeze 1 turn, Revive at 50% HP, ...) are fixed.

    size              3, 6 or 9 cards a side (the rulebook's 3v3 / 6v6 / 9v9); 3 start active
    type_names        the ten type names in wheel order, as this table calls them
    who_rolls         "app" or "player": who makes percentile rolls unless a roll form says otherwise
    overcook_turns    how many of its team's possessions Overcook burns for
    undershock_turns  how many of its team's possessions Undershock lasts
    risen_revivable   whether a Risen card that falls again may be revived once more
"""

from ..errors import gettext_noop
from ..options import Choice, Option, WholeNumber, YesNo, defaults
from ..options import checked_config as checked_options
from .typechart import DEFAULT_TYPE_NAMES, WHEEL_SIZE

SIZES = (3, 6, 9)
WHO_ROLLS = ("app", "player")
TURNS_RANGE = (1, 9)
TYPE_NAME_MAX = 20


class TypeNames(Option):
    """Ten different names of 1 to TYPE_NAME_MAX characters, in wheel order, kept stripped."""

    rule = "config-type-names"
    message = gettext_noop("Give ten different type names of 1 to %(most)s characters, in wheel order.")

    def accepts(self, names: object) -> bool:
        return (
            isinstance(names, list)
            and len(names) == WHEEL_SIZE
            and all(isinstance(n, str) and 0 < len(n.strip()) <= TYPE_NAME_MAX for n in names)
            and len({n.strip().casefold() for n in names}) == WHEEL_SIZE
        )

    def clean(self, names: list[str]) -> list[str]:
        return [n.strip() for n in names]

    def params(self) -> dict:
        return {"most": TYPE_NAME_MAX}


TURNS_MESSAGE = gettext_noop("%(option)s must be %(low)s to %(high)s turns, not %(value)r.")
OPTIONS = {
    "size": Choice(SIZES, 6, rule="config-size",
                   message=gettext_noop("A Custom Match is 3v3, 6v6 or 9v9, not %(value)r.")),
    "type_names": TypeNames(list(DEFAULT_TYPE_NAMES)),
    "who_rolls": Choice(WHO_ROLLS, "app", rule="config-who-rolls",
                        message=gettext_noop("Rolls are made by the app or a player, not %(value)r.")),
    "overcook_turns": WholeNumber(*TURNS_RANGE, 3, rule="config-turns", message=TURNS_MESSAGE),
    "undershock_turns": WholeNumber(*TURNS_RANGE, 3, rule="config-turns", message=TURNS_MESSAGE),
    "risen_revivable": YesNo(False, rule="config-risen",
                             message=gettext_noop("Whether Risen cards can be revived again is yes or no.")),
}
DEFAULT_CONFIG = defaults(OPTIONS)


def checked_config(config: dict) -> dict:
    """The full options of a match (defaults filled in), or `InvalidConfig` naming the bad one."""
    return checked_options("Cardmaster", OPTIONS, config)
