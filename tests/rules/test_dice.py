"""rules.Dice: the one source of chance for a match (seed + step), and the seed fingerprint."""

import re

import pytest

import rules
from rules import Dice, seed_fingerprint

SEED = "dice-test-seed"


def rolls(seed, step, count=20, sides=20):
    dice = Dice(seed, step)
    return [dice.roll(sides, "test") for _ in range(count)]


# ---------------------------------------------------------------- entered values


def test_entered_values_are_used_first_then_the_app_rolls():
    # A table may roll a real die and tap the result: those values come first.
    dice = Dice(SEED, 0, entered=[4, 1, 6])
    assert [dice.roll(6, "attack") for _ in range(3)] == [4, 1, 6]
    app_value = dice.roll(6, "defence")
    assert 1 <= app_value <= 6
    assert dice.rolls == [
        {"sides": 6, "value": 4, "by": "player", "why": "attack"},
        {"sides": 6, "value": 1, "by": "player", "why": "attack"},
        {"sides": 6, "value": 6, "by": "player", "why": "attack"},
        {"sides": 6, "value": app_value, "by": "app", "why": "defence"},
    ]


def test_app_rolls_are_recorded_as_by_app():
    dice = Dice(SEED, 3)
    values = [dice.roll(8, f"roll {i}") for i in range(5)]
    expected = [{"sides": 8, "value": v, "by": "app", "why": f"roll {i}"} for i, v in enumerate(values)]
    assert dice.rolls == expected


def test_entered_values_are_not_taken_from_the_callers_list():
    entered = [2, 3]
    dice = Dice(SEED, 0, entered=entered)
    dice.roll(6, "a")
    assert entered == [2, 3]


@pytest.mark.parametrize("value", [0, 7, -1, True, False, "3", 3.0, None])
def test_entered_value_a_d6_cannot_show_is_refused(value):
    dice = Dice(SEED, 0, entered=[value])
    with pytest.raises(rules.IllegalAction) as raised:
        dice.roll(6, "attack")
    assert isinstance(raised.value, ValueError)
    assert raised.value.rule == "die-value"
    assert dice.rolls == []  # nothing recorded for a refused value


@pytest.mark.parametrize(("sides", "value"), [(6, 1), (6, 6), (20, 20), (2, 2)])
def test_entered_values_on_the_edges_are_accepted(sides, value):
    dice = Dice(SEED, 0, entered=[value])
    assert dice.roll(sides, "edge") == value
    assert dice.rolls[0]["by"] == "player"


# ---------------------------------------------------------------- app rolls


def test_app_rolls_stay_on_the_die_and_use_every_face():
    dice = Dice(SEED, 0)
    values = [dice.roll(6, "spread") for _ in range(600)]
    assert set(values) == {1, 2, 3, 4, 5, 6}


@pytest.mark.parametrize("step", [0, 1, 2, 17])
def test_same_seed_and_step_give_the_same_rolls(step):
    assert rolls(SEED, step) == rolls(SEED, step)


def test_different_steps_give_different_rolls():
    sequences = [tuple(rolls(SEED, step)) for step in range(8)]
    assert len(set(sequences)) == len(sequences)


def test_different_seeds_give_different_rolls():
    sequences = [tuple(rolls(f"seed-{i}", 0)) for i in range(8)]
    assert len(set(sequences)) == len(sequences)


# ---------------------------------------------------------------- coin flips


@pytest.mark.parametrize("label", ["card-crush round 1", "card-crush round 2", "anything"])
def test_flip_does_not_depend_on_the_step(label):
    values = {Dice(SEED, step).flip(label) for step in range(10)}
    assert len(values) == 1
    assert values <= {0, 1}


def test_flip_is_recorded_as_an_app_roll_of_two_sides():
    dice = Dice(SEED, 5)
    value = dice.flip("who starts")
    assert dice.rolls == [{"sides": 2, "value": value, "by": "app", "why": "who starts"}]


def test_flip_ignores_entered_values():
    # A flip is the app's deterministic answer; a tapped die value is not used for it.
    plain = Dice(SEED, 0).flip("label")
    dice = Dice(SEED, 0, entered=[2 - plain])  # a value that would give the other side either way
    assert dice.flip("label") == plain


def test_flip_varies_with_seed_and_label():
    by_seed = {Dice(f"seed-{i}", 0).flip("same label") for i in range(64)}
    by_label = {Dice(SEED, 0).flip(f"label {i}") for i in range(64)}
    assert by_seed == {0, 1}
    assert by_label == {0, 1}


# ---------------------------------------------------------------- seed fingerprint


def test_seed_fingerprint_is_12_hex_characters():
    assert re.fullmatch(r"[0-9a-f]{12}", seed_fingerprint(SEED))
    assert re.fullmatch(r"[0-9a-f]{12}", seed_fingerprint(""))


def test_seed_fingerprint_is_stable():
    assert seed_fingerprint(SEED) == seed_fingerprint(SEED)
    # sha256("abc") begins ba7816bf8f01: the fingerprint must not change between releases.
    assert seed_fingerprint("abc") == "ba7816bf8f01"


def test_seed_fingerprint_differs_across_seeds():
    seeds = [f"seed-{i}" for i in range(100)]
    assert len({seed_fingerprint(seed) for seed in seeds}) == len(seeds)
    assert SEED[:12] != seed_fingerprint(SEED)
