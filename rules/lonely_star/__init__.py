"""Lonely Star: units with HP/AT/LK/RS gems and reach, D6 crit and Resist rolls, statuses, milled decks.

Modules by game concept: `units` (gems, totals, lethal damage), `rolls` (D6 checks),
`combat` (attacks and effect damage), `statuses` (Burn, Hex, Poison, Blind and the
table's own), `zones` (deck, hand, discard, removed) and `match` (turns, actions,
overrides, how a match ends). Each module's docstring records the decisions taken
where the rulebook and the status page are silent.
"""

from ..engine import Game
from . import match
from .statuses import BUILT_IN
from .units import STAT_NAMES, STATS, validate_card

GAME = Game.of(
    match, slug="lonely-star", name="Lonely Star", rules_version="1",
    validate_card=validate_card, deck_size=None,  # no action takes a deck
)

__all__ = ["BUILT_IN", "GAME", "STATS", "STAT_NAMES", "validate_card"]
