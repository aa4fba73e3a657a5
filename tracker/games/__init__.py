"""Each game's web side, found by its slug: `pages_for(slug)`.

The contract every game's pages fill in is the base class `GamePages` (tracker/games/base.py),
with every hook and its default.
"""

from .base import GamePages
from .card_crush import CardCrushPages
from .cardmaster import CardmasterPages
from .evons import EvonsPages
from .logos import LogosPages
from .lonely_star import LonelyStarPages

ADAPTERS: dict[str, GamePages] = {
    pages.slug: pages
    for pages in (CardCrushPages(), CardmasterPages(), LonelyStarPages(), LogosPages(), EvonsPages())
}


def pages_for(slug: str) -> GamePages:
    """The pages of the game with this slug (KeyError for an unknown one: check rules.GAMES first)."""
    return ADAPTERS[slug]
