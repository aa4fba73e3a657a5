"""Random legal and illegal action sequences against every engine in rules.GAMES.

For each game, hypothesis walks a match: mostly actions from legal_actions (with their free
choices, such as cards, filled in from the game's demo catalog), sometimes a mutated or
made-up action. Whatever happens:
- apply never changes the state it is given;
- a refusal is a RuleError (a ValueError) and nothing else;
- states and events survive a JSON round trip unchanged;
- replaying the accepted actions with the same seed gives the same states and events;
- outcome() answers for every state.
Card Crush adds its own invariants (wins <= 3, rounds <= 5, each deck locked exactly once).

A game is fuzzed as soon as it is in rules.GAMES: the one free choice legal_actions cannot list
(how many cards a deck or lineup takes) is its `Game.deck_size`. The sample game
(tests/sample_game/) is fuzzed too. A failing case prints its reproduction blob.
"""

import copy
import json
import os

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import rules
from rules import Dice, RuleError
from tests.sample_game import every_game
from tracker.games import pages_for


@pytest.fixture(scope="session")
def collected_static():
    """The engines render no page: no static files to collect for them (see tests/conftest.py)."""


STEPS = 40
# No example database on disk (.hypothesis/): a failure prints the blob that reproduces it instead.
FUZZ = settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", 20)), deadline=None, database=None,
                print_blob=True, derandomize=bool(os.environ.get("CI")),
                suppress_health_check=[HealthCheck.too_slow],
                # No shrinking: a 40-step walk shrinks for minutes; the blob reproduces it as found.
                phases=[Phase.explicit, Phase.reuse, Phase.generate])

JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(10**12), max_value=10**12), st.text(max_size=8),
    st.lists(st.integers(-3, 9), max_size=3), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


def demo_cards(slug: str) -> list[dict]:
    return [rules.GAMES[slug].validate_card(card) for card in pages_for(slug).demo_cards]


def filled(draw, slug: str, state: dict, action: dict, cards: list[dict]) -> dict:
    """A legal action with the free choices a player would make: which card, which deck."""
    action = dict(action)
    if "card" not in action and cards:
        action["card"] = draw(st.sampled_from(cards))
    deck_size = rules.GAMES[slug].deck_size
    if "cards" not in action and cards and deck_size is not None:
        action["cards"] = draw(st.permutations(cards))[:deck_size(state)]
    if action.get("type") == "commit" and "backup" not in action:
        action["backup"] = draw(st.none() | st.sampled_from(cards))
    if action.get("override") and cards:
        for key in ("hp", "credits", "hand", "deck", "def", "value"):
            if draw(st.booleans()):
                action[key] = draw(st.integers(min_value=-5, max_value=200))
    return action


def mutated(draw, action: dict) -> dict:
    """The same action with one field dropped, changed to junk, or a field added."""
    action = dict(action)
    how = draw(st.sampled_from(["drop", "junk", "add", "type"]))
    keys = sorted(action)
    if how == "drop" and keys:
        del action[draw(st.sampled_from(keys))]
    elif how == "junk" and keys:
        action[draw(st.sampled_from(keys))] = draw(JUNK)
    elif how == "add":
        key = draw(st.sampled_from(["seat", "card", "cards", "target", "round", "cell", "extra"]))
        action[key] = draw(JUNK)
    else:
        action["type"] = draw(st.text(max_size=10))
    return action


def json_plain(value) -> bool:
    return json.loads(json.dumps(value)) == value


def walk(draw, slug: str) -> tuple[str, list[tuple[dict, dict, list]]]:
    """A random match: the seed and every accepted (action, state after, events) in order."""
    game = rules.GAMES[slug]
    cards = demo_cards(slug)
    seed = draw(st.text(alphabet="abcdef0123456789", min_size=4, max_size=16))
    state = game.new_match(game.default_config, seed)
    assert json_plain(state)
    accepted = []
    for _ in range(STEPS):
        legal = game.legal_actions(state)
        if legal and draw(st.integers(0, 9)) < 7:
            action = filled(draw, slug, state, draw(st.sampled_from(legal)), cards)
        elif legal:
            action = mutated(draw, filled(draw, slug, state, draw(st.sampled_from(legal)), cards))
        else:
            action = {"type": draw(st.sampled_from(["play_round", "fight", "pass", "next", "x"]))}
        before = copy.deepcopy(state)
        try:
            after, events = game.apply(state, action, Dice(seed, len(accepted) + 1))
        except RuleError:
            assert state == before, f"a refused {action!r} changed the state"
            continue
        except Exception as error:  # noqa: BLE001 - the property under test: nothing but RuleError escapes
            raise AssertionError(f"{slug}: {action!r} raised {type(error).__name__}: {error}") from error
        assert state == before, f"apply({action!r}) changed the state it was given"
        assert json_plain(after) and json_plain(events), f"{action!r} made a state or events that JSON changes"
        game.outcome(after)
        accepted.append((action, after, events))
        state = after
    return seed, accepted


def replay(slug: str, seed: str, accepted: list) -> None:
    game = rules.GAMES[slug]
    state = game.new_match(game.default_config, seed)
    for step, (action, expected_state, expected_events) in enumerate(accepted, start=1):
        state, events = game.apply(state, copy.deepcopy(action), Dice(seed, step))
        assert (state, events) == (expected_state, expected_events), f"step {step} differs on replay"


@pytest.mark.parametrize("slug", every_game())
@FUZZ
@given(data=st.data())
def test_random_sequences_keep_the_engine_contract(slug, data):
    seed, accepted = walk(data.draw, slug)
    replay(slug, seed, accepted)


@FUZZ
@given(data=st.data())
def test_card_crush_invariants(data):
    seed, accepted = walk(data.draw, "card-crush")
    locked = [0, 0]
    for _action, state, events in accepted:
        assert max(state["wins"]) <= 3 and len(state["rounds"]) <= 5
        assert sum(state["wins"]) == len(state["rounds"])
        for event in events:
            if event["type"] == "deck_locked":
                locked[event["seat"]] += 1
        assert locked == [int(deck is not None) for deck in state["decks"]], "a deck locked twice or unlocked"
        if state["winner"] is not None:
            assert state["wins"][state["winner"]] == 3



# Found by this fuzzer (fixed since): the Lonely Star, LOGOS and Evons engines looked the
# action's type up in a table, so a list or dict there escaped as TypeError.
@pytest.mark.parametrize("slug", every_game())
@pytest.mark.parametrize("kind", [[], {}])
def test_a_non_text_action_type_is_refused_as_a_rule(slug, kind):
    game = rules.GAMES[slug]
    state = game.new_match(game.default_config, "fuzz")
    with pytest.raises(RuleError):
        game.apply(state, {"type": kind, "seat": 0}, Dice("fuzz", 1))
