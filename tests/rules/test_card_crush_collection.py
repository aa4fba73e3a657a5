"""Card Crush collections and upgrades (rules/card_crush/collection.py)."""

import pytest

from rules import IllegalAction, InvalidConfig
from rules.card_crush.collection import (
    MAX_COPIES,
    Owned,
    UpgradeRules,
    add_copies,
    can_upgrade,
    duplicates_needed,
    leveled,
    upgrade,
)


@pytest.mark.parametrize(("rarity", "costs"), [
    ("Common", [2, 4, 8, 16]), ("Rare", [2, 3, 6, 10]), ("Epic", [1, 2, 4, 8]), ("Legendary", [1, 1, 2, 4]),
])
def test_duplicates_needed_per_level_by_rarity(rarity, costs):
    assert [duplicates_needed(Owned(rarity, 1, level)) for level in range(1, 6)] == costs + [None]


def test_upgrade_at_exactly_the_threshold_spends_the_duplicates():
    # A Common at level 1 with 3 copies has 2 duplicates: exactly what level 2 costs.
    owned = Owned("Common", copies=3, level=1)
    assert can_upgrade(owned)
    assert upgrade(owned) == Owned("Common", copies=1, level=2)


def test_one_duplicate_short_is_refused_and_nothing_changes():
    owned = Owned("Common", copies=2, level=1)
    assert not can_upgrade(owned)
    with pytest.raises(IllegalAction) as refused:
        upgrade(owned)
    assert refused.value.rule == "not-enough-duplicates"
    assert refused.value.params == {"next": 2, "needed": 2, "have": 1}
    assert owned == Owned("Common", copies=2, level=1)


def test_leftover_duplicates_carry_over():
    assert upgrade(Owned("Rare", copies=6, level=2)) == Owned("Rare", copies=3, level=3)


def test_the_top_level_cannot_be_passed():
    owned = Owned("Legendary", copies=50, level=5)
    assert not can_upgrade(owned)
    with pytest.raises(IllegalAction) as refused:
        upgrade(owned)
    assert refused.value.rule == "max-level"


def test_climbing_from_one_to_five_costs_the_whole_table():
    owned = Owned("Epic", copies=1 + 1 + 2 + 4 + 8, level=1)
    while can_upgrade(owned):
        owned = upgrade(owned)
    assert owned == Owned("Epic", copies=1, level=5)


@pytest.mark.parametrize("count", [0, -1, -5, 1.5, "2", True])
def test_adding_zero_negative_or_non_whole_copies_is_refused(count):
    with pytest.raises(IllegalAction):
        add_copies(Owned("Common", 1, 1), count)


def test_adding_copies_and_the_most_a_collection_holds():
    assert add_copies(Owned("Common", 1, 1), 4) == Owned("Common", 5, 1)
    with pytest.raises(IllegalAction):
        add_copies(Owned("Common", MAX_COPIES, 1), 1)


def test_each_level_adds_power_and_speed():
    ember_fox = {"name": "Ember Fox", "power": 7, "speed": 5, "affinity": "Fire", "rarity": "Common", "level": 1}
    assert leveled(ember_fox, 1) == ember_fox
    assert leveled(ember_fox, 3) == {**ember_fox, "power": 9, "speed": 7, "level": 3}


def test_a_card_printed_above_level_one_gains_from_its_printed_level():
    tempest_roc = {"name": "Tempest Roc", "power": 9, "speed": 7, "affinity": "Air", "rarity": "Epic", "level": 2}
    assert leveled(tempest_roc, 2) == tempest_roc
    assert leveled(tempest_roc, 4)["power"] == 11


def test_settings_change_the_table_gains_and_top_level():
    rules = UpgradeRules(duplicates={r: (1, 1) for r in ("Common", "Rare", "Epic", "Legendary")},
                         gains={"power": 2, "speed": 0}, max_level=3)
    owned = upgrade(upgrade(Owned("Common", 3, 1), rules), rules)
    assert owned == Owned("Common", 1, 3) and not can_upgrade(owned, rules)
    card = {"name": "X", "power": 5, "speed": 5, "affinity": "Air", "rarity": "Common", "level": 1}
    assert leveled(card, 3, rules) == {**card, "power": 9, "speed": 5, "level": 3}


@pytest.mark.parametrize("duplicates", [{}, {r: (1,) for r in ("Common", "Rare", "Epic", "Legendary")},
                                        {r: (1, 0, 1, 1) for r in ("Common", "Rare", "Epic", "Legendary")}])
def test_a_short_or_zero_table_is_refused(duplicates):
    with pytest.raises(InvalidConfig):
        UpgradeRules(duplicates=duplicates)
