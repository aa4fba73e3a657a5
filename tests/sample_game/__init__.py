"""High Card Duel: a sixth game that lives in the tests only, to prove that a game is its own folders.

It is written the way README's "Adding a game" says: an engine package (engine/), a pages package
(pages/) with its German (pages/locale/: `with registered(): call_command("makemessages", ignore_patterns=
["engine"])` run in this folder writes it, the engine's refusals left in English), templates (templates/games/high-card-duel/), and the two registrations, which
`registered()` makes for one test and takes back after it. No options, a single demo match, one
card a round: what a minimal game offers, so the contract suites that run on it (engines alike,
fuzz, pages contract, exchange round trip and tampering, secrecy of entries) hold for any game.

A contract suite parametrizes over `every_game()` (every game in rules.GAMES, then this one), or
marks a parameter with `sample(...)`; tests/conftest.py registers the game for the tests so marked.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.conf import settings
from django.test import override_settings

import rules
from tracker import games
from tracker.web import translations

from .engine import GAME

SLUG = GAME.slug
TEMPLATES = Path(__file__).parent / "templates"


def sample(*values, **kwargs):
    """A test parameter that needs the sample game registered (see tests/conftest.py)."""
    return pytest.param(*values, marks=pytest.mark.sample_game, **kwargs)


def every_game() -> list:
    """The slugs a contract suite runs on: every installed game, then the sample game."""
    return [*rules.GAMES, sample(SLUG, id=SLUG)]


def sample_pages():
    """The sample game's pages (imported on first use: they need Django set up)."""
    from .pages import HighCardDuelPages

    return HighCardDuelPages()


def every_pages() -> dict:
    """Every installed game's pages by slug, then the sample game's."""
    return {**games.ADAPTERS, SLUG: sample_pages()}


def marked(slug: str, *values, **kwargs):
    """A test parameter for `slug`'s game, marked `sample_game` when it is the sample game."""
    return sample(*values, **kwargs) if slug == SLUG else pytest.param(*values, **kwargs)


@contextmanager
def registered() -> Iterator[None]:
    """The sample game in both registries, its templates and its German found, until the block ends."""
    engines = [{**engine, "DIRS": [*engine["DIRS"], TEMPLATES]} for engine in settings.TEMPLATES]
    rules.GAMES[SLUG] = GAME
    games.ADAPTERS[SLUG] = pages = sample_pages()
    try:
        with override_settings(TEMPLATES=engines, LOCALE_PATHS=[*settings.LOCALE_PATHS, pages.locale]):
            translations.compile_catalogues()
            yield
    finally:
        del rules.GAMES[SLUG], games.ADAPTERS[SLUG]
