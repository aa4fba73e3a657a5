"""Card Crush: 5-card decks locked in secret, 5 head-to-head rounds, first to 3 wins."""

from ..engine import Game
from . import battle
from .affinity import AFFINITIES, affinity_bonus, wheel_value
from .cards import RARITIES, validate_card

GAME = Game(
    slug="card-crush",
    name="Card Crush",
    rules_version="1",
    seats=battle.SEATS,
    new_match=battle.new_match,
    legal_actions=battle.legal_actions,
    apply=battle.apply,
    outcome=battle.outcome,
    validate_card=validate_card,
    public_action=battle.public_action,
    authority=battle.authority,
    default_config=battle.DEFAULT_CONFIG,
)

__all__ = ["AFFINITIES", "GAME", "RARITIES", "affinity_bonus", "validate_card", "wheel_value"]
