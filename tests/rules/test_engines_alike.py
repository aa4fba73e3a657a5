"""The five engines are built alike: every kind of action has one handler taking (state, action, dice)
and returning its events, found in the match module's action tables; options go through rules/options.py."""

import inspect
from importlib import import_module

import pytest

import rules
from rules.options import Option

# The match module of each game and its action tables (Evons keeps the table's corrections apart).
TABLES = {
    "card-crush": ("rules.card_crush.battle", ["ACTIONS"]),
    "cardmaster": ("rules.cardmaster.match", ["ACTIONS"]),
    "lonely-star": ("rules.lonely_star.match", ["ACTIONS"]),
    "logos": ("rules.logos.duel", ["ACTIONS"]),
    "evons": ("rules.evons.turns", ["TURN_ACTIONS", "OVERRIDES"]),
}
OPTIONS = {
    "card-crush": "rules.card_crush.battle",
    "cardmaster": "rules.cardmaster.options",
    "lonely-star": "rules.lonely_star.match",
    "logos": "rules.logos.duel",
    "evons": "rules.evons.turns",
}


def test_every_game_is_listed():
    assert set(TABLES) == set(OPTIONS) == set(rules.GAMES)


@pytest.mark.parametrize("slug", list(rules.GAMES))
def test_every_handler_takes_state_action_dice(slug):
    module_name, tables = TABLES[slug]
    module = import_module(module_name)
    handlers = {kind: handler for table in tables for kind, handler in getattr(module, table).items()}
    assert handlers
    for kind, handler in handlers.items():
        assert list(inspect.signature(handler).parameters) == ["state", "action", "dice"], (slug, kind)


@pytest.mark.parametrize("slug", list(rules.GAMES))
def test_every_option_is_declared_and_its_default_is_the_games(slug):
    options = import_module(OPTIONS[slug]).OPTIONS
    assert options and all(isinstance(option, Option) for option in options.values())
    game = rules.GAMES[slug]
    for name, option in options.items():
        assert game.default_config[name] == option.default, (slug, name)


@pytest.mark.parametrize("slug", list(rules.GAMES))
def test_the_match_module_documents_the_state_shape(slug):
    """One place per game tells a newcomer every key of the state and every kind of action."""
    doc = import_module(TABLES[slug][0]).__doc__ or ""
    assert "State (plain JSON):" in doc and "Actions" in doc, slug
    state = rules.GAMES[slug].new_match({}, "shape")
    shape = doc[doc.index("State (plain JSON):"):doc.index("Actions")]
    undocumented = [key for key in state if key not in shape]
    assert not undocumented, f"{slug}: state keys not in the docstring: {undocumented}"
