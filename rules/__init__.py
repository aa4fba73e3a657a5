"""Pure Python rules engines, one per game; nothing here imports Django.

`GAMES` maps each game's slug to its `Game`; every game issue adds its own.
"""

from .card_crush import GAME as CARD_CRUSH
from .dice import Dice, seed_fingerprint
from .engine import Game, Outcome
from .errors import IllegalAction, InvalidCard, InvalidConfig, RuleError

GAMES: dict[str, Game] = {game.slug: game for game in (CARD_CRUSH,)}

__all__ = [
    "GAMES",
    "Dice",
    "Game",
    "IllegalAction",
    "InvalidCard",
    "InvalidConfig",
    "Outcome",
    "RuleError",
    "seed_fingerprint",
]
