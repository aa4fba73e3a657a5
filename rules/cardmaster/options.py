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
from ..options import Choice, Option, WholeNumber, YesNo, defaults
from ..options import checked_config as checked_options
from .typechart import DEFAULT_TYPE_NAMES, WHEEL_SIZE

SIZES = (3, 6, 9)
SHOWDOWN_SIZE = 9
AI_LEVELS = ("easy", "normal", "hard")
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


class Showdown(Option):
    """Mode A's record of the AI: {"ai_seat": 0 or 1, "level": one of AI_LEVELS}."""

    rule = "config-showdown"
    message = gettext_noop("A Showdown names the AI's seat (0 or 1) and its level (%(levels)s).")

    def accepts(self, value: object) -> bool:
        return (isinstance(value, dict) and set(value) == {"ai_seat", "level"}
                and type(value["ai_seat"]) is int and value["ai_seat"] in (0, 1)
                and isinstance(value["level"], str) and value["level"] in AI_LEVELS)

    def clean(self, value: dict) -> dict:
        return dict(value)

    def params(self) -> dict:
        return {"levels": ", ".join(AI_LEVELS)}


OPTIONAL = {
    "showdown": Showdown(None),
    "hints": YesNo(False, rule="config-hints",
                   message=gettext_noop("Whether the table may ask for hints is yes or no.")),
}
"""Options kept in a match's options only when given (see the module docstring)."""


def checked_config(config: dict) -> dict:
    """The full options of a match (defaults filled in), or `InvalidConfig` naming the bad one."""
    rest = {name: value for name, value in config.items() if name not in OPTIONAL} if isinstance(config, dict) else config
    checked = checked_options("Cardmaster", OPTIONS, rest)
    for name, option in OPTIONAL.items():
        if name in config:
            value = config[name]
            if not option.accepts(value):
                raise InvalidConfig(option.rule, option.message, option=name, value=value, **option.params())
            checked[name] = option.clean(value)
    if "showdown" in checked and checked["size"] != SHOWDOWN_SIZE:
        raise InvalidConfig(
            "config-showdown-size",
            gettext_noop("A Showdown is played with %(size)s cards a side, not %(value)s."),
            size=SHOWDOWN_SIZE, value=checked["size"],
        )
    return checked


def ai_seat(config: dict) -> int | None:
    """The seat the AI plays in a Showdown, None in a Custom Match."""
    showdown = config.get("showdown")
    return showdown["ai_seat"] if showdown else None


def ai_level(config: dict) -> str | None:
    """How well the AI plays in a Showdown ("easy", "normal" or "hard"), None in a Custom Match."""
    showdown = config.get("showdown")
    return showdown["level"] if showdown else None


def hints_allowed(config: dict) -> bool:
    """Whether the table may ask for a hint: always in a Showdown, in a Custom Match when switched on."""
    return bool(config.get("showdown")) or config.get("hints", False)
