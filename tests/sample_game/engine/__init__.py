"""High Card Duel's engine, as a newcomer writes one in rules/<game>/: the match module and its `Game`."""

from rules.engine import Game

from . import duel
from .duel import validate_card

GAME = Game.of(duel, slug="high-card-duel", name="High Card Duel", rules_version="1",
               validate_card=validate_card, deck_size=None)  # one card a round, no deck
