"""Per-match options of a Cardmaster match, and their checks.

Only the numbers the rulebook leaves open are options; its own numbers (A2 costs 2,
tier x 5.5%, Brainlock 2 turns, Gridfreeze 1 turn, Revive at 50% HP, ...) are fixed.

    size              3, 6 or 9 cards a side (the rulebook's 3v3 / 6v6 / 9v9); 3 start active
    type_names        the ten type names in wheel order, as this table calls them
    who_rolls         "app" or "player": who makes percentile rolls unless a roll form says otherwise
    overcook_turns    how many of its team's possessions Overcook burns for
    undershock_turns  how many of its team's possessions Undershock lasts
    risen_revivable   whether a Risen card that falls again may be revived once more

Two more options are given only when used, and are absent from a Custom Match without hints,
so every match set up before they existed keeps exactly the same state (and state hashes):

    showdown          Mode A, one player against the AI: {"ai_seat": 0 or 1, "level": "easy",
                      "normal" or "hard"}. The rulebook's Showdown is 9 cards a side, so it needs
                      size 9. The rules of play are those of a Custom Match; the option records
                      which seat the AI plays and how well (rules/cardmaster/ai).
    hints             true lets the table ask the AI for a hint in a Custom Match; a Showdown
                      always allows hints.
"""

from ..errors import InvalidConfig, gettext_noop
from .typechart import DEFAULT_TYPE_NAMES, WHEEL_SIZE

SIZES = (3, 6, 9)
SHOWDOWN_SIZE = 9
AI_LEVELS = ("easy", "normal", "hard")
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
    unknown = set(config) - set(DEFAULT_CONFIG) - {"showdown", "hints"}
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
    if "hints" in config and not isinstance(config["hints"], bool):
        raise InvalidConfig("config-hints", gettext_noop("Whether the table may ask for hints is yes or no."))
    if "showdown" in config:
        config["showdown"] = _checked_showdown(config["showdown"], config["size"])
    return config


def _checked_showdown(showdown: object, size: int) -> dict:
    if (not isinstance(showdown, dict) or set(showdown) != {"ai_seat", "level"}
            or type(showdown["ai_seat"]) is not int or showdown["ai_seat"] not in (0, 1)
            or showdown["level"] not in AI_LEVELS):
        raise InvalidConfig(
            "config-showdown",
            gettext_noop("A Showdown names the AI's seat (0 or 1) and its level (%(levels)s)."),
            levels=", ".join(AI_LEVELS),
        )
    if size != SHOWDOWN_SIZE:
        raise InvalidConfig(
            "config-showdown-size",
            gettext_noop("A Showdown is played with %(size)s cards a side, not %(value)s."),
            size=SHOWDOWN_SIZE, value=size,
        )
    return dict(showdown)


def ai_seat(config: dict) -> int | None:
    """The seat the AI plays in a Showdown, None in a Custom Match."""
    showdown = config.get("showdown")
    return showdown["ai_seat"] if showdown else None


def hints_allowed(config: dict) -> bool:
    """Whether the table may ask for a hint: always in a Showdown, in a Custom Match when switched on."""
    return bool(config.get("showdown")) or config.get("hints", False)
