"""The engines are built alike: every kind of action has one handler taking (state, action, dice)
and returning its events, declared on the game (`Game.actions`, read from its match module by
`Game.of`); options go through rules/options.py, and a game's default options are its options'
defaults. Each test runs on every game in rules.GAMES and on the sample game (tests/sample_game/)."""

import inspect
import typing

import pytest

import rules
from rules.errors import InvalidConfig
from rules.options import Option
from tests.sample_game import every_game


@pytest.mark.parametrize("slug", every_game())
def test_every_handler_takes_state_action_dice(slug):
    handlers = rules.GAMES[slug].actions
    assert handlers
    for kind, handler in handlers.items():
        assert list(inspect.signature(handler).parameters) == ["state", "action", "dice"], (slug, kind)


@pytest.mark.parametrize("slug", every_game())
def test_every_option_is_declared_and_its_default_is_the_games(slug):
    game = rules.GAMES[slug]
    options = game.options
    assert all(isinstance(option, Option) for option in options.values())
    assert set(game.default_config) == set(options), slug
    for name, option in options.items():
        assert game.default_config[name] == option.default, (slug, name)
    # The options are the ones new_match checks: the defaults start a match, an unknown one is refused.
    assert game.new_match({}, "options") == game.new_match(game.default_config, "options")
    with pytest.raises(InvalidConfig):
        game.new_match({"no such option": 1}, "options")


def test_game_of_refuses_a_match_module_without_its_tables():
    """A game whose match module lacks a declaration fails when it is imported, not in a test."""
    import types

    from rules.card_crush import battle, validate_card

    incomplete = types.ModuleType("incomplete")
    vars(incomplete).update({name: value for name, value in vars(battle).items() if name != "OPTIONS"})
    with pytest.raises(AttributeError, match="OPTIONS"):
        rules.Game.of(incomplete, slug="incomplete", name="Incomplete", rules_version="1",
                      validate_card=validate_card, deck_size=None)
    vars(incomplete).update(OPTIONS={}, ACTIONS={"lock_deck": lambda state, action: []})
    with pytest.raises(TypeError, match="must take"):
        rules.Game.of(incomplete, slug="incomplete", name="Incomplete", rules_version="1",
                      validate_card=validate_card, deck_size=None)


@pytest.mark.parametrize("slug", every_game())
def test_the_match_module_documents_the_state_shape(slug):
    """One place per game tells a newcomer every key of the state and every kind of action: the docstring
    of its match module, or the TypedDict its new_match returns (whose keys mypy then checks)."""
    doc = inspect.getmodule(rules.GAMES[slug].new_match).__doc__ or ""
    assert "State (plain JSON):" in doc and "Actions" in doc, slug
    state = rules.GAMES[slug].new_match({}, "shape")
    typed = typing.get_type_hints(rules.GAMES[slug].new_match).get("return")
    if typing.is_typeddict(typed):
        assert set(state) == set(typed.__annotations__), f"{slug}: the state's keys and {typed.__name__}'s differ"
        return
    shape = doc[doc.index("State (plain JSON):"):doc.index("Actions")]
    undocumented = [key for key in state if key not in shape]
    assert not undocumented, f"{slug}: state keys not in the docstring: {undocumented}"


def _containers(value) -> list[int]:
    """The ids of every dict and list in `value`, however deep."""
    if isinstance(value, dict):
        return [id(value), *(found for item in value.values() for found in _containers(item))]
    if isinstance(value, list | tuple):
        return [id(value)] * isinstance(value, list) + [found for item in value for found in _containers(item)]
    return []


@pytest.mark.parametrize("slug", every_game())
def test_the_copy_apply_changes_is_equal_and_shares_nothing_that_can_change(slug):
    """`apply` changes its own copy of the state (rules.engine.copied): equal to the state, no dict or list shared."""
    from rules.engine import copied

    state = rules.GAMES[slug].new_match({}, "copy")
    copy = copied(state)
    assert copy == state
    assert not set(_containers(copy)) & set(_containers(state))


def test_copied_copies_inside_tuples_and_leaves_other_types_to_deepcopy():
    from rules.engine import copied

    original = {"pair": ({"hp": 3},), "seen": {1, 2}}
    copy = copied(original)
    assert copy == original
    assert copy["pair"][0] is not original["pair"][0] and copy["seen"] is not original["seen"]
