"""Which game competes: the one whose pages declare it (`GamePages.competes`, tracker/games/base.py).

Its club matches are rated once their players confirm them, its tournaments are paired, and its
cards are collected and upgraded, by the rules in rules/card_crush/ (rating, swiss, collection):
today Card Crush's pages are the ones that say so. Nothing here tests a slug.
"""

from django.core.exceptions import ImproperlyConfigured


def competes(slug: str) -> bool:
    """Whether the game's club matches are rated and may be tournament battles."""
    # The games' pages sit above this package (Card Crush's deck form reads collections): asked when called.
    from tracker.games import pages_for

    return pages_for(slug).competes


def competing_slug() -> str:
    """The game that competes: its club matches are rated, its tournaments paired, its cards collected."""
    # The games' pages sit above this package (Card Crush's deck form reads collections): asked when called.
    from tracker.games import ADAPTERS

    competing = [slug for slug, pages in ADAPTERS.items() if pages.competes]
    if len(competing) != 1:
        raise ImproperlyConfigured(f"Exactly one game's pages may declare competes, not {competing}.")
    return competing[0]
