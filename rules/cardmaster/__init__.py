"""Cardmaster, Mode B (Custom Match): possession by SPD, the gem gamble, types, statuses, MVPs.

Each module records the decisions taken where the rulebook is silent:
typechart (type names and matchups), cards (stat ranges, tier), options (per-match
numbers), numbers (rounding), damage (the formula), gems (paying and raids),
statuses (durations, magnitudes, rolls), field (reserve and falling), possession
(rounds and SPD ties), moves (what uses a move), mvp (the performance score).
"""

from ..engine import Game
from . import match
from .cards import STATUSES, validate_card
from .typechart import DEFAULT_TYPE_NAMES, TYPE_SYMBOLS

GAME = Game.of(
    match, slug="cardmaster", name="Cardmaster", rules_version="1",
    validate_card=validate_card, deck_size=lambda state: state["config"]["size"],  # the lineup: 3, 6 or 9
)

__all__ = ["DEFAULT_TYPE_NAMES", "GAME", "STATUSES", "TYPE_SYMBOLS", "validate_card"]
