"""LOGOS datacards: class and colour, the three stats, the combo indicator and two effect fields.

A card as the engine takes it (plain JSON):

    {"name": "Archive Warden", "class": "INFORMATION",
     "attack": 5000, "defense": 20000, "speed": 70,
     "combo": ["grey", "blue", "blue"],            # the indicator, left panel first
     "left_effect": None,                           # targets the opponent
     "right_effect": {"name": "regeneration"}}      # targets the card's owner

Every class has one colour and every colour one class, so a Color Change that turns
a card from blue to red makes it a MATTER card for the rest of the round.

Ranges the rulebook does not give: ATTACK and DEFENSE are whole numbers from 0 to
1,000,000 (printed cards run in the thousands, e.g. 5,000 / 20,000); SPEED from 0 to
999, because the backup rule speaks of SPEED "higher than 99", so three digits exist.
"""

from typing import Any

from ..errors import InvalidCard, Word, gettext_noop
from ..fields import card_name

# Each class and its colour, in the rulebook's order.
# The colours are marked, so each has German in LOGOS's catalogue (a page says it in the game's words: errors.Word).
CLASS_COLOUR = {
    "MATTER": gettext_noop("red"),
    "ENERGY": gettext_noop("green"),
    "INFORMATION": gettext_noop("blue"),
    "Neutral": gettext_noop("white"),
    "Life": gettext_noop("purple"),
}
COLOUR_CLASS = {colour: name for name, colour in CLASS_COLOUR.items()}
CLASSES = tuple(CLASS_COLOUR)
COLOURS = tuple(COLOUR_CLASS)
GREY = gettext_noop("grey")
"""A grey panel in a combo indicator needs nothing: a wildcard."""
PANEL_COLOURS = COLOURS + (GREY,)
PANELS = 3
# What a refusal of a card's colour or effect names, in words a page translates (errors.Word).
PANEL_NAMES = (gettext_noop("combo panel 1"), gettext_noop("combo panel 2"), gettext_noop("combo panel 3"))
CHANGE_NAMES = {"from": gettext_noop("Color Change (from)"), "to": gettext_noop("Color Change (to)")}
SIDE_WORDS = {"left_effect": gettext_noop("left"), "right_effect": gettext_noop("right")}

PERMANENT_EFFECTS = (
    "add-card-slot",
    "remove-card-slot",
    "regeneration",
    "shuffle-hand",
    "destroy-combo",
    "destroy-backup",
    "neutralize",
)
TEMPORARY_EFFECTS = (
    "maximize",
    "minimize",
    "swap-values",
    "double-combo",
    "mimmick",
    "berserk",
    "color-change",
)
EFFECTS = PERMANENT_EFFECTS + TEMPORARY_EFFECTS
EFFECT_SIDES = ("left_effect", "right_effect")
"""The left field targets the opponent, the right field the card's owner."""

STAT_MAX = 1_000_000
SPEED_MAX = 999
NAME_MAX = 60
BACKUP_SPEED = 99
"""A card needs SPEED over this, and no combo requirement, to go to the backup slot."""


def colour_of(card_class: str) -> str:
    return CLASS_COLOUR[card_class]


def has_combo_requirement(card: dict) -> bool:
    return any(panel != GREY for panel in card["combo"])


def backup_eligible(card: dict) -> bool:
    """SPEED over 99 and an all-grey combo indicator."""
    return card["speed"] > BACKUP_SPEED and not has_combo_requirement(card)


def _whole_number(card: dict, stat: str, label: str, high: int) -> int:
    value = card.get(stat)
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidCard(
            "card-stat-type",
            gettext_noop("%(stat)s must be a whole number, not %(value)r."),
            stat=label,
            value=value,
        )
    if not 0 <= value <= high:
        raise InvalidCard(
            "card-stat-range",
            gettext_noop("%(stat)s must be between 0 and %(high)s; %(value)s is out of range."),
            stat=label,
            high=f"{high:,}",
            value=value,
        )
    return value


def _colour(value: object, allowed: tuple[str, ...], what: str) -> str:
    for colour in allowed:
        if isinstance(value, str) and value.strip().casefold() == colour:
            return colour
    raise InvalidCard(
        "card-colour",
        gettext_noop("Unknown colour %(value)r for %(what)s: choose one of %(allowed)s."),
        value=value,
        what=Word(what),
        allowed=Word(*allowed),
    )


def _card_class(value: object) -> str:
    for name in CLASSES:
        if isinstance(value, str) and value.strip().casefold() == name.casefold():
            return name
    raise InvalidCard(
        "card-class",
        gettext_noop("Unknown class %(value)r: choose one of %(allowed)s."),
        value=value,
        allowed=", ".join(CLASSES),
    )


def _combo(value: object) -> list[str]:
    if value is None:
        return [GREY] * PANELS
    if not isinstance(value, list) or len(value) != PANELS:
        raise InvalidCard(
            "card-combo",
            gettext_noop("A combo indicator has exactly %(panels)s panels."),
            panels=PANELS,
        )
    return [_colour(panel, PANEL_COLOURS, PANEL_NAMES[number]) for number, panel in enumerate(value)]


def validate_effect(effect: object, side: str) -> dict | None:
    """One effect field: None when empty, else {"name": ...} (Color Change adds "from" and "to")."""
    if effect is None:
        return None
    if not isinstance(effect, dict) or effect.get("name") not in EFFECTS:
        raise InvalidCard(
            "card-effect",
            gettext_noop("Unknown effect %(value)r in the %(side)s field."),
            value=effect.get("name") if isinstance(effect, dict) else effect,
            side=Word(SIDE_WORDS[side]),
        )
    name = effect["name"]
    if name != "color-change":
        return {"name": name}
    changed = {
        "name": name,
        "from": _colour(effect.get("from"), COLOURS, CHANGE_NAMES["from"]),
        "to": _colour(effect.get("to"), COLOURS, CHANGE_NAMES["to"]),
    }
    if changed["from"] == changed["to"]:
        raise InvalidCard(
            "card-color-change",
            gettext_noop("A Color Change turns one colour into another; %(colour)s into %(colour)s changes nothing."),
            colour=Word(changed["from"]),
        )
    return changed


def validate_card(card: Any) -> dict:
    """The card with its stats checked and in canonical form, or `InvalidCard`."""
    name = card_name(card, NAME_MAX)
    return {
        "name": name,
        "class": _card_class(card.get("class")),
        "attack": _whole_number(card, "attack", "ATTACK", STAT_MAX),
        "defense": _whole_number(card, "defense", "DEFENSE", STAT_MAX),
        "speed": _whole_number(card, "speed", "SPEED", SPEED_MAX),
        "combo": _combo(card.get("combo")),
        **{side: validate_effect(card.get(side), side) for side in EFFECT_SIDES},
    }
