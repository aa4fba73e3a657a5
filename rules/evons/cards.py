"""Evons cards: monsters with cost, element, ATK, DEF and arrows, and Block cards.

What the pages give: two card types, monsters and Block cards (Block cards have no
cost, no arrows and no stats in Set 00); 6 elements; 9 arrow types (Normal plus 8
abilities); four element-ability pairings (Earth-Shockwave, Electric-Magnetism,
Nature-Growth, Darkness-Resurrection), and Block arrows on any card.

What we chose where they are silent:
- Elements: the two unnamed ones are entered as "Fire" and "Water". They are only
  labels; nothing in the rules depends on them.
- Remove, Firestorm and Swap are allowed on a card of any element, because their
  elements are not known; the four known abilities are refused on any other element.
- Ranges: cost, ATK 0-99 and DEF 1-99 (a monster at 0 DEF would be destroyed).
"""

from typing import Any

from ..errors import InvalidCard, Word, gettext_noop
from ..fields import card_name
from .board import DIRECTIONS

# Marked, so each has its German (the rulebook's English, by the glossary) in Evons's catalogue (errors.Word).
ELEMENTS = (gettext_noop("Earth"), gettext_noop("Electric"), gettext_noop("Nature"), gettext_noop("Darkness"),
            gettext_noop("Fire"), gettext_noop("Water"))
ABILITIES = (
    gettext_noop("Normal"),
    gettext_noop("Remove"),
    gettext_noop("Block"),
    gettext_noop("Firestorm"),
    gettext_noop("Growth"),
    gettext_noop("Magnetism"),
    gettext_noop("Resurrection"),
    gettext_noop("Shockwave"),
    gettext_noop("Swap"),
)
# Abilities only one element carries (the ability pages); the rest go on any card.
ELEMENT_OF = {"Shockwave": "Earth", "Magnetism": "Electric", "Growth": "Nature", "Resurrection": "Darkness"}
KINDS = ("monster", "block")
NAME_MAX = 60
STAT_MAX = 99


def _number(card: dict, stat: str, low: int) -> int:
    value = card.get(stat)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= STAT_MAX:
        raise InvalidCard(
            "card-stat",
            gettext_noop("%(stat)s must be a whole number from %(low)s to %(high)s, not %(value)r."),
            stat=stat.upper() if stat in ("atk", "def") else stat.capitalize(),
            low=low,
            high=STAT_MAX,
            value=value,
        )
    return value


def _arrows(card: dict, element: str) -> dict[str, str]:
    arrows = card.get("arrows", {})
    if not isinstance(arrows, dict):
        raise InvalidCard("card-arrows", gettext_noop("Arrows are a direction and an ability each."))
    clean = {}
    for direction in DIRECTIONS:  # canonical order: N, NE, E, ... NW
        if direction not in arrows:
            continue
        ability = arrows[direction]
        if ability not in ABILITIES:
            raise InvalidCard(
                "card-ability",
                gettext_noop("Unknown arrow ability %(value)r: choose one of %(allowed)s."),
                value=ability,
                allowed=Word(*ABILITIES),
            )
        needed = ELEMENT_OF.get(ability)
        if needed and needed != element:
            raise InvalidCard(
                "card-ability-element",
                gettext_noop("Only %(needed)s cards carry %(ability)s arrows; this card is %(element)s."),
                needed=Word(needed),
                ability=Word(ability),
                element=Word(element),
            )
        clean[direction] = ability
    unknown = set(arrows) - set(DIRECTIONS)
    if unknown:
        raise InvalidCard(
            "card-direction",
            gettext_noop("Arrows point N, NE, E, SE, S, SW, W or NW, not %(value)s."),
            value=", ".join(sorted(map(str, unknown))),
        )
    return clean


def validate_card(card: Any) -> dict:
    """The card checked and in canonical form, or `InvalidCard`."""
    name = card_name(card, NAME_MAX)
    kind = card.get("kind", "monster")
    if kind not in KINDS:
        raise InvalidCard(
            "card-kind", gettext_noop("A card is a monster or a Block card, not %(value)r."), value=kind
        )
    if kind == "block":
        return {"name": name, "kind": "block"}
    element = card.get("element")
    if element not in ELEMENTS:
        raise InvalidCard(
            "card-element",
            gettext_noop("Unknown element %(value)r: choose one of %(allowed)s."),
            value=element,
            allowed=Word(*ELEMENTS),
        )
    return {
        "name": name,
        "kind": "monster",
        "cost": _number(card, "cost", 0),
        "element": element,
        "atk": _number(card, "atk", 0),
        "def": _number(card, "def", 1),
        "arrows": _arrows(card, element),
    }
