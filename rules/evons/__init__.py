"""Evons: a 7x7 board of arrowed cards, conflicts, flips, chains of activations and credits."""

import dataclasses
from collections.abc import Callable
from typing import cast

from ..engine import Game
from . import turns
from .cards import ABILITIES, ELEMENTS, validate_card

GAME = Game.of(
    turns, slug="evons", name="Evons", rules_version="2",
    validate_card=validate_card, deck_size=None,  # no action takes a deck
)

RETIRED = (
    # Version 1 read every arrow as a board direction, whichever way its card faced; version 2
    # turns the top player's cards and every flipped card 180 degrees (board.py, "Facing"). The cast:
    # Game types every game's state as a plain dict, and this engine's is its GameState.
    dataclasses.replace(GAME, rules_version="1", new_match=cast(Callable[[dict, str], dict], turns.new_match_v1)),
)
"""Earlier rules versions, kept so old logs replay under the rules they were played with."""

__all__ = ["ABILITIES", "ELEMENTS", "GAME", "RETIRED", "validate_card"]
