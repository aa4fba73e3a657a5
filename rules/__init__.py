"""Pure Python rules engines, one per game; nothing here imports Django.

`GAMES` maps each game's slug to its `Game`; a new game adds its own here.
"""

from .card_crush import GAME as CARD_CRUSH
from .cardmaster import GAME as CARDMASTER
from .dice import Dice, seed_fingerprint
from .engine import OPEN, TABLE, Game, Outcome
from .errors import IllegalAction, InvalidCard, InvalidConfig, RuleError
from .evons import GAME as EVONS
from .evons import RETIRED as EVONS_RETIRED
from .logos import GAME as LOGOS
from .lonely_star import GAME as LONELY_STAR

GAMES: dict[str, Game] = {game.slug: game for game in (CARD_CRUSH, CARDMASTER, LONELY_STAR, LOGOS, EVONS)}

# Rules versions no longer current but kept so old logs replay under the rules they were
# played with: (slug, version) -> Game.
RETIRED: dict[tuple[str, str], Game] = {(game.slug, game.rules_version): game for game in EVONS_RETIRED}


def game_version(slug: str, version: str) -> Game | None:
    """The game's rules as of `version`, or None when this installation no longer has them."""
    current = GAMES.get(slug)
    if current is not None and current.rules_version == version:
        return current
    return RETIRED.get((slug, version))

__all__ = [
    "GAMES",
    "Dice",
    "Game",
    "IllegalAction",
    "InvalidCard",
    "InvalidConfig",
    "OPEN",
    "Outcome",
    "RETIRED",
    "RuleError",
    "TABLE",
    "game_version",
    "seed_fingerprint",
]
