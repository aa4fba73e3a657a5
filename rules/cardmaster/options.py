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

from ..errors import InvalidConfig, gettext_noop
from .typechart import DEFAULT_TYPE_NAMES, WHEEL_SIZE

SIZES = (3, 6, 9)
WHO_ROLLS = ("app", "player")
TURNS_RANGE = (1, 9)
TYPE_NAME_MAX = 20
DEFAULT_CONFIG = {
    "size": 6,
    "type_names": list(DEFAULT_TYPE_NAMES),
    "who_rolls": "app",
    "overcook_turns": 3,
    "undershock_turns": 3,
    "risen_revivable": False,
}


def checked_config(config: dict) -> dict:
    """The full options of a match (defaults filled in), or `InvalidConfig` naming the bad one."""
    if not isinstance(config, dict):
        raise InvalidConfig("config-shape", gettext_noop("Match options must be a set of named values."))
    unknown = set(config) - set(DEFAULT_CONFIG)
    if unknown:
        raise InvalidConfig(
            "config-unknown",
            gettext_noop("Cardmaster has no option called %(option)s."),
            option=", ".join(sorted(map(str, unknown))),
        )
    config = {**DEFAULT_CONFIG, **config}
    if config["size"] not in SIZES or isinstance(config["size"], bool):
        raise InvalidConfig(
            "config-size", gettext_noop("A Custom Match is 3v3, 6v6 or 9v9, not %(value)r."), value=config["size"]
        )
    names = config["type_names"]
    if (
        not isinstance(names, list)
        or len(names) != WHEEL_SIZE
        or not all(isinstance(n, str) and 0 < len(n.strip()) <= TYPE_NAME_MAX for n in names)
        or len({n.strip().casefold() for n in names}) != WHEEL_SIZE
    ):
        raise InvalidConfig(
            "config-type-names",
            gettext_noop("Give ten different type names of 1 to %(most)s characters, in wheel order."),
            most=TYPE_NAME_MAX,
        )
    config["type_names"] = [n.strip() for n in names]
    if config["who_rolls"] not in WHO_ROLLS:
        raise InvalidConfig(
            "config-who-rolls",
            gettext_noop("Rolls are made by the app or a player, not %(value)r."),
            value=config["who_rolls"],
        )
    for option in ("overcook_turns", "undershock_turns"):
        value = config[option]
        if isinstance(value, bool) or not isinstance(value, int) or not TURNS_RANGE[0] <= value <= TURNS_RANGE[1]:
            raise InvalidConfig(
                "config-turns",
                gettext_noop("%(option)s must be %(low)s to %(high)s turns, not %(value)r."),
                option=option,
                low=TURNS_RANGE[0],
                high=TURNS_RANGE[1],
                value=value,
            )
    if not isinstance(config["risen_revivable"], bool):
        raise InvalidConfig(
            "config-risen", gettext_noop("Whether Risen cards can be revived again is yes or no.")
        )
    return config
