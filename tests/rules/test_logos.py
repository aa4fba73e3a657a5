"""LOGOS rules, checked against the rulebook (/work/shared/rulebooks/logos.txt) and the
facts of the public guide in its notes (100,000 HP, the two phases, backup calls,
counter-attacks, resignation).

Everything goes through the public Game contract:
    state = game.new_match(config, seed)
    state, events = game.apply(state, action, rules.Dice(seed, step))
"""

import copy
import json

import pytest

import rules
from rules.logos import EFFECTS, GAME
from rules.logos.combo import failing_panel, pushed

SEED = "logos-test-seed"
FIGHT = {"type": "fight"}


# ---------------------------------------------------------------- helpers


def card(name="Card", cls="MATTER", attack=10_000, defense=10_000, speed=50, combo=None, left=None, right=None):
    """A datacard; `left`/`right` are effect names (or dicts for Color Change)."""
    effect = lambda e: {"name": e} if isinstance(e, str) else e  # noqa: E731
    return {
        "name": name, "class": cls, "attack": attack, "defense": defense, "speed": speed,
        "combo": combo or ["grey"] * 3, "left_effect": effect(left), "right_effect": effect(right),
    }


def commit(seat, played, round_number=1, backup=None):
    return {"type": "commit", "seat": seat, "round": round_number, "card": played, "backup": backup}


def defenceless(seat, round_number=1):
    return {"type": "defenceless", "seat": seat, "round": round_number}


def act(state, action, step=0):
    return GAME.apply(state, action, rules.Dice(SEED, step))


def start(config=None):
    return GAME.new_match(config or {}, SEED)


def reveal(card0, card1, state=None, backups=(None, None)):
    """Both players commit (None = defenceless); the state after the reveal and the reveal's events."""
    state = state or start()
    number = state["round"]
    entries = [
        commit(seat, played, number, backups[seat]) if played else defenceless(seat, number)
        for seat, played in enumerate((card0, card1))
    ]
    state, _ = act(state, entries[0])
    return act(state, entries[1])


def fight(state):
    return act(state, FIGHT)


def of_type(events, kind):
    return [event for event in events if event["type"] == kind]


def effect_steps(events, name=None):
    return [e for e in of_type(events, "effect") if name is None or e["effect"] == name]


def with_hp(hp0, hp1, config=None):
    state = start(config)
    state["hp"] = [hp0, hp1]
    return state


def assert_refused(state, action, error, rule):
    """`apply` refuses with `error`/`rule` and leaves the state and the action untouched."""
    state_before, action_before = copy.deepcopy(state), copy.deepcopy(action)
    with pytest.raises(error) as raised:
        act(state, action)
    assert raised.value.rule == rule
    assert state == state_before, "apply changed the state it was given"
    assert action == action_before, "apply changed the action it was given"
    return raised.value


# ---------------------------------------------------------------- set-up and options


def test_a_duel_starts_with_100000_hp_and_3_card_slots():
    state = start()
    assert state["hp"] == [100_000, 100_000]
    assert state["slots"] == [3, 3]
    assert state["combo"] == [[], []] and state["backup"] == [None, None]
    assert state["round"] == 1 and state["phase"] == "commit"
    assert GAME.outcome(state) is None


def test_starting_hp_and_slots_are_per_match_options():
    state = start({"starting_hp": 50_000, "card_slots": 5})
    assert state["hp"] == [50_000, 50_000] and state["slots"] == [5, 5]


@pytest.mark.parametrize(("config", "rule"), [
    ({"colour": "red"}, "config-unknown"),
    ({"starting_hp": 0}, "config-starting_hp"),
    ({"starting_hp": "lots"}, "config-starting_hp"),
    ({"card_slots": 11}, "config-card_slots"),
    ({"heal_above_start": "yes"}, "config-heal_above_start"),
    ({"resignation": "loss"}, "config-resignation"),
])
def test_options_out_of_range_are_refused(config, rule):
    with pytest.raises(rules.InvalidConfig) as raised:
        start(config)
    assert raised.value.rule == rule


# ---------------------------------------------------------------- cards


def test_a_card_is_normalised():
    checked = GAME.validate_card({**card(cls="information"), "combo": ["Grey", " BLUE", "blue"]})
    assert checked["class"] == "INFORMATION"
    assert checked["combo"] == ["grey", "blue", "blue"]


@pytest.mark.parametrize(("change", "rule"), [
    ({"class": "FIRE"}, "card-class"),
    ({"attack": -1}, "card-stat-range"),
    ({"defense": "lots"}, "card-stat-type"),
    ({"speed": 1000}, "card-stat-range"),
    ({"speed": True}, "card-stat-type"),
    ({"combo": ["grey", "orange", "grey"]}, "card-colour"),
    ({"combo": ["grey", "grey"]}, "card-combo"),
    ({"left_effect": {"name": "fireball"}}, "card-effect"),
    ({"right_effect": {"name": "color-change", "from": "blue", "to": "pink"}}, "card-colour"),
    ({"right_effect": {"name": "color-change", "from": "blue", "to": "blue"}}, "card-color-change"),
    ({"name": " "}, "card-name"),
])
def test_bad_cards_are_refused(change, rule):
    with pytest.raises(rules.InvalidCard) as raised:
        GAME.validate_card({**card(), **change})
    assert raised.value.rule == rule


# ---------------------------------------------------------------- direction: the class triangle

CLASSES = ["MATTER", "ENERGY", "INFORMATION", "Neutral", "Life"]
# Who attacks when seat 0 plays the row's class and seat 1 the column's (None: SPEED decides).
ATTACKER = {
    "MATTER": {"MATTER": None, "ENERGY": 0, "INFORMATION": 1, "Neutral": 0, "Life": 1},
    "ENERGY": {"MATTER": 1, "ENERGY": None, "INFORMATION": 0, "Neutral": 0, "Life": 1},
    "INFORMATION": {"MATTER": 0, "ENERGY": 1, "INFORMATION": None, "Neutral": 0, "Life": 1},
    "Neutral": {"MATTER": 1, "ENERGY": 1, "INFORMATION": 1, "Neutral": None, "Life": 1},
    "Life": {"MATTER": 0, "ENERGY": 0, "INFORMATION": 0, "Neutral": 0, "Life": None},
}
PAIRS = [(a, b) for a in CLASSES for b in CLASSES]


@pytest.mark.parametrize(("mine", "theirs"), PAIRS, ids=[f"{a}-vs-{b}" for a, b in PAIRS])
def test_every_class_pairing(mine, theirs):
    # Seat 0 is slower, so in a same-class pairing seat 1 attacks by SPEED.
    state, events = reveal(card("A", mine, speed=40), card("B", theirs, speed=60))
    step = of_type(events, "direction")[0]
    expected = ATTACKER[mine][theirs]
    if expected is None:
        assert step["by"] == "speed" and step["attacker"] == 1
    else:
        assert step["by"] == "class" and step["attacker"] == expected
    assert state["phase"] == "battle"


@pytest.mark.parametrize("faster", [0, 1])
def test_same_class_the_higher_speed_attacks(faster):
    speeds = [80, 80]
    speeds[1 - faster] = 79
    _, events = reveal(card("A", "MATTER", speed=speeds[0]), card("B", "MATTER", speed=speeds[1]))
    assert of_type(events, "direction")[0] == {
        "type": "direction", "stage": "reveal", "attacker": faster, "by": "speed",
        "colours": ["red", "red"], "speeds": speeds,
    }


def test_damage_is_attack_minus_defense_from_the_defender():
    # "if you play a MATTER card and your opponent plays an ENERGY card, then you will be the Attacker."
    # MATTER attacks ENERGY: 30,000 - 12,000 = 18,000.
    state, _ = reveal(card("A", "MATTER", attack=30_000), card("B", "ENERGY", defense=12_000))
    state, events = fight(state)
    assert of_type(events, "strike") == [{
        "type": "strike", "attacker": 0, "defender": 1, "counter": False, "defenceless": False,
        "attack": 30_000, "defense": 12_000, "damage": 18_000, "before": 100_000, "after": 82_000,
    }]
    assert state["hp"] == [100_000, 82_000]
    assert state["round"] == 2 and state["phase"] == "commit"


def test_no_damage_between_different_classes_gives_no_counter_attack():
    state, _ = reveal(card("A", "MATTER", attack=5_000), card("B", "ENERGY", attack=90_000, defense=5_000))
    state, events = fight(state)
    strikes = of_type(events, "strike")
    assert [(s["damage"], s["counter"]) for s in strikes] == [(0, False)]
    assert state["hp"] == [100_000, 100_000]


# ---------------------------------------------------------------- deadlock and counter-attack


def test_deadlock_same_class_and_speed_ends_the_round_with_no_battle():
    # Effects do not fire: the round "is instantly ended".
    a = card("A", "ENERGY", attack=90_000, speed=70, right="regeneration")
    state = with_hp(50_000, 50_000)
    state, events = reveal(a, card("B", "ENERGY", speed=70), state)
    assert of_type(events, "direction")[0]["by"] == "deadlock"
    assert effect_steps(events) == [] and of_type(events, "strike") == []
    assert state["hp"] == [50_000, 50_000]
    assert state["combo"] == [[], []]  # by default a deadlock adds no colour
    assert state["round"] == 2 and state["phase"] == "commit"
    assert GAME.legal_actions(state)[0]["type"] == "commit"
    assert state["rounds"][0]["round"] == 1


def test_deadlock_can_feed_the_combo_counter_as_an_option():
    state = start({"deadlock_combo": True})
    state, _ = reveal(card("A", "ENERGY", speed=70), card("B", "ENERGY", speed=70), state)
    assert state["combo"] == [["green"], ["green"]]


def test_counter_attack_when_a_same_class_attack_deals_no_damage():
    # Seat 1 is faster and attacks: 8,000 - 20,000 is no damage, so seat 0 strikes back: 30,000 - 5,000.
    slow = card("Slow", "INFORMATION", attack=30_000, defense=20_000, speed=10)
    fast = card("Fast", "INFORMATION", attack=8_000, defense=5_000, speed=90)
    state, _ = reveal(slow, fast)
    state, events = fight(state)
    strikes = of_type(events, "strike")
    assert [(s["attacker"], s["damage"], s["counter"]) for s in strikes] == [(1, 0, False), (0, 25_000, True)]
    assert state["hp"] == [100_000, 75_000]


def test_a_counter_attack_strikes_back_only_once():
    a = card("A", "Life", attack=1_000, defense=50_000, speed=10)
    b = card("B", "Life", attack=1_000, defense=50_000, speed=20)
    state, _ = reveal(a, b)
    state, events = fight(state)
    assert [(s["damage"], s["counter"]) for s in of_type(events, "strike")] == [(0, False), (0, True)]


# ---------------------------------------------------------------- defenceless


def test_a_defenceless_player_takes_the_full_attack():
    # ENERGY loses to MATTER, but with no card against it the ENERGY card attacks.
    state, events = reveal(card("A", "ENERGY", attack=12_000), None)
    assert of_type(events, "defenceless") == [{"type": "defenceless", "seat": 1}]
    assert of_type(events, "direction")[0]["by"] == "defenceless"
    state, events = fight(state)
    strike = of_type(events, "strike")[0]
    assert (strike["defense"], strike["damage"], strike["defenceless"]) == (0, 12_000, True)
    assert state["hp"] == [100_000, 88_000]
    assert state["combo"] == [["green"], []]  # nothing enters the defenceless player's counter


def test_effects_still_fire_against_a_defenceless_player():
    a = card("A", left="destroy-combo", right="swap-values", attack=1_000, defense=9_000)
    state = start()
    state["combo"][1] = ["blue", "blue"]
    state, events = reveal(a, None, state)
    assert state["combo"][1] == []
    state, _ = fight(state)
    assert state["hp"][1] == 100_000 - 9_000


def test_card_effects_aimed_at_a_missing_card_do_nothing():
    _, events = reveal(card("A", left="maximize"), None)
    assert effect_steps(events, "maximize")[0]["outcome"] == "no-card"


def test_both_defenceless_is_no_battle():
    state, events = reveal(None, None)
    assert of_type(events, "direction")[0]["by"] == "no-cards"
    assert state["round"] == 2 and state["hp"] == [100_000, 100_000]


def test_defenceless_players_cannot_call_a_backup():
    state = start()
    state["backup"][1] = card("Spare", speed=150)
    state, _ = reveal(card("A"), None, state)
    assert assert_refused(state, {"type": "call_backup", "seat": 1}, rules.IllegalAction, "backup-needs-card")


# ---------------------------------------------------------------- combo counter


def test_the_combo_counter_is_last_in_first_out_with_three_panels():
    counter = []
    for colour in ["red", "green", "blue", "white"]:
        counter = pushed(counter, [colour])
    assert counter == ["white", "blue", "green"]


def test_after_a_battle_each_card_colour_enters_its_owners_counter():
    state, _ = reveal(card("A", "MATTER"), card("B", "Neutral"))
    state, _ = fight(state)
    state, _ = reveal(card("C", "INFORMATION"), card("D", "Life"), state)
    state, events = fight(state)
    assert state["combo"] == [["blue", "red"], ["purple", "white"]]
    assert of_type(events, "combo")[0] == {"type": "combo", "seat": 0, "added": ["blue"], "counter": ["blue", "red"]}


@pytest.mark.parametrize(("indicator", "counter", "fails"), [
    (["grey", "grey", "grey"], [], None),
    (["grey", "grey", "grey"], ["red", "blue", "green"], None),
    (["red", "grey", "grey"], ["red"], None),
    (["grey", "blue", "grey"], ["red", "blue", "green"], None),
    (["red", "blue", "green"], ["red", "blue", "green"], None),
    (["red", "blue", "green"], ["red", "blue", "white"], 3),
    (["blue", "grey", "grey"], ["red", "blue", "green"], 1),
    (["grey", "grey", "blue"], ["blue", "blue"], 3),
])
def test_combo_matching_with_grey_panels(indicator, counter, fails):
    assert failing_panel(indicator, counter) == fails


def test_an_unplayable_combo_is_refused_naming_the_panel():
    state = start()
    state["combo"][0] = ["red", "green"]
    needs = card("Combo", combo=["red", "blue", "grey"])
    error = assert_refused(state, commit(0, needs), rules.IllegalAction, "combo-unmatched")
    assert (error.params["panel"], error.params["wanted"], error.params["shown"]) == (2, "blue", "green")
    assert error.params["seat"] == 0


def test_an_empty_counter_panel_is_named_as_empty():
    error = assert_refused(start(), commit(1, card(combo=["grey", "grey", "red"])), rules.IllegalAction,
                           "combo-unmatched")
    assert error.params["panel"] == 3 and "empty" in error.template


# ---------------------------------------------------------------- the rulebook's datacard

# "The class of the card is INFORMATION. Attack: 5.000 Defense: 20.000 Speed: 70. The card has one
# effect that will heal the player himself. ... can only be played if both the card from two rounds
# ago and from three rounds ago were INFORMATION."
DATACARD = card("Typical LOGOS datacard", "INFORMATION", attack=5_000, defense=20_000, speed=70,
                combo=["grey", "blue", "blue"], right="regeneration")


def test_rulebook_datacard_needs_information_two_and_three_rounds_ago():
    state = start()
    for number, (mine, theirs) in enumerate([("INFORMATION", "ENERGY"), ("INFORMATION", "ENERGY")], 1):
        assert_refused(state, commit(0, DATACARD, number), rules.IllegalAction, "combo-unmatched")
        state, _ = reveal(card(f"I{number}", mine, attack=0), card(f"E{number}", theirs, attack=0), state)
        state, _ = fight(state)
    # Round 3: the counter shows blue, blue: the card from one round ago does not count, three ago is missing.
    assert state["combo"][0] == ["blue", "blue"]
    assert_refused(state, commit(0, DATACARD, 3), rules.IllegalAction, "combo-unmatched")
    state, _ = reveal(card("M3", "MATTER", attack=0), card("E3", "MATTER", attack=0, speed=60), state)
    state, _ = fight(state)
    # Round 4: red one round ago (any colour will do), blue two and three rounds ago.
    assert state["combo"][0] == ["red", "blue", "blue"]
    state["hp"][0] = 60_000
    state, events = reveal(DATACARD, card("Foe", "ENERGY", attack=0, defense=0), state)
    heal = effect_steps(events, "regeneration")[0]
    # It heals its owner by ATTACK + DEFENSE: 5,000 + 20,000 = 25,000.
    assert (heal["seat"], heal["target"], heal["amount"]) == (0, 0, 25_000)
    assert (heal["before"], heal["after"]) == (60_000, 85_000)
    assert state["hp"][0] == 85_000
    # ENERGY beats INFORMATION: the datacard defends; 0 attack deals no damage.
    assert of_type(events, "direction")[-1]["attacker"] == 1


# ---------------------------------------------------------------- each effect alone
# Seat 0 plays MATTER and attacks seat 1's ENERGY card, so seat 1's effects fire first.


def attack_with(left=None, right=None, hp=(100_000, 100_000), foe=None, config=None):
    """Seat 0's MATTER card (20,000 / 5,000) with these effects against seat 1's ENERGY card (8,000 / 12,000)."""
    state = with_hp(*hp, config=config)
    mine = card("Mine", "MATTER", attack=20_000, defense=5_000, left=left, right=right)
    return reveal(mine, foe or card("Foe", "ENERGY", attack=8_000, defense=12_000), state)


def test_add_card_slot():
    # "If the player held three card slots, after activation of this effect he will hold four."
    state, events = attack_with(right="add-card-slot")
    assert state["slots"] == [4, 3]
    assert effect_steps(events)[0]["before"] == 3 and effect_steps(events)[0]["after"] == 4


def test_remove_card_slot_never_below_one():
    # "If the player held three card slots, after activation of this effect he will hold two."
    state, _ = attack_with(left="remove-card-slot")
    assert state["slots"] == [3, 2]
    state = start({"card_slots": 1})
    state, events = reveal(card(left="remove-card-slot"), card("B", "ENERGY"), state)
    assert state["slots"] == [1, 1] and effect_steps(events)[0]["outcome"] == "no-change"


def test_regeneration_heals_by_attack_plus_defense():
    state, events = attack_with(right="regeneration", hp=(50_000, 100_000))
    assert state["hp"] == [75_000, 100_000]


def test_regeneration_stops_at_the_starting_hp_by_default():
    state, events = attack_with(right="regeneration", hp=(90_000, 100_000))
    assert state["hp"][0] == 100_000 and effect_steps(events)[0]["capped"] is True


def test_regeneration_may_go_above_the_starting_hp_as_an_option():
    state, _ = attack_with(right="regeneration", hp=(90_000, 100_000), config={"heal_above_start": True})
    assert state["hp"][0] == 115_000


def test_shuffle_hand_is_a_prompt_to_the_targeted_player():
    state, events = attack_with(left="shuffle-hand")
    step = effect_steps(events)[0]
    assert (step["effect"], step["target"], step["outcome"]) == ("shuffle-hand", 1, "applied")
    assert state["hp"] == [100_000, 100_000]


def test_destroy_combo_empties_the_targets_counter():
    state = start()
    state["combo"] = [["red"], ["green", "blue"]]
    state, events = reveal(card(left="destroy-combo"), card("B", "ENERGY"), state)
    assert state["combo"] == [["red"], []]
    assert effect_steps(events)[0]["before"] == ["green", "blue"]


def test_destroy_backup_destroys_the_card_in_the_slot():
    state = start()
    state["backup"][1] = card("Spare", speed=150)
    state, events = reveal(card(left="destroy-backup"), card("B", "ENERGY"), state)
    assert state["backup"] == [None, None]
    assert effect_steps(events)[0]["card"] == "Spare"
    _, events = attack_with(left="destroy-backup")
    assert effect_steps(events)[0]["outcome"] == "no-change"


def test_neutralize_blocks_every_later_effect_on_the_target():
    # The defender (seat 1) shields itself first; the attacker's Maximize and Destroy Combo then miss it.
    foe = card("Foe", "ENERGY", attack=8_000, defense=12_000, right="neutralize")
    state = start()
    state["combo"][1] = ["green"]
    mine = card("Mine", "MATTER", attack=20_000, defense=5_000, left="destroy-combo")
    state, events = reveal(mine, foe, state)
    assert [s["outcome"] for s in effect_steps(events)] == ["applied", "blocked"]
    assert state["combo"][1] == ["green"]
    assert state["table"]["shield"] == [False, True]


def test_maximize_minimize_and_swap_values():
    for name, expected in [("maximize", [12_000, 12_000]), ("minimize", [8_000, 8_000]),
                           ("swap-values", [12_000, 8_000])]:
        state, events = attack_with(left=name)
        values = state["table"]["values"][1]
        assert [values["attack"], values["defense"]] == expected, name
        assert effect_steps(events)[0]["before"] == [8_000, 12_000]


def test_swapped_values_change_the_damage():
    # Swap Values on my own card: ATTACK 5,000 against DEFENSE 12,000 is no damage.
    state, _ = attack_with(right="swap-values")
    state, events = fight(state)
    assert of_type(events, "strike")[0]["damage"] == 0


def test_double_combo_adds_two_panels():
    state, events = attack_with(right="double-combo")
    state, _ = fight(state)
    assert state["combo"] == [["red", "red"], ["green"]]


@pytest.mark.parametrize(("hp", "doubled"), [(24_999, True), (25_000, False)])
def test_berserk_doubles_under_25000_hp(hp, doubled):
    state, events = attack_with(right="berserk", hp=(hp, 100_000))
    values = state["table"]["values"][0]
    expected = [40_000, 10_000] if doubled else [20_000, 5_000]
    assert [values["attack"], values["defense"]] == expected
    assert effect_steps(events)[0]["outcome"] == ("applied" if doubled else "no-change")


def test_color_change_replaces_a_matching_colour_only():
    change = {"name": "color-change", "from": "green", "to": "white"}
    state, events = attack_with(left=change)
    assert state["table"]["values"][1]["colour"] == "white"
    other = {"name": "color-change", "from": "blue", "to": "red"}
    state, events = attack_with(left=other)
    assert state["table"]["values"][1]["colour"] == "green"
    assert effect_steps(events)[0]["outcome"] == "no-change"


def test_color_change_can_flip_the_direction():
    # "if the target is INFORMATION it is set to MATTER": seat 1's MATTER now loses to INFORMATION.
    change = {"name": "color-change", "from": "blue", "to": "red"}
    # Both cards are then red, and the faster one (seat 0) attacks.
    mine = card("Mine", "MATTER", attack=20_000, defense=5_000, speed=60)
    foe = card("Foe", "INFORMATION", attack=8_000, defense=12_000, speed=50, right=change)
    state, events = reveal(mine, foe)
    steps = of_type(events, "direction")
    assert [s["attacker"] for s in steps] == [1, 0]
    assert steps[1]["changed"] is True and steps[1]["colours"] == ["red", "red"] and steps[1]["by"] == "speed"
    state, events = fight(state)
    assert of_type(events, "strike")[0]["damage"] == 8_000
    assert state["combo"] == [["red"], ["red"]]  # the colour the card ends the round with


def test_color_change_to_the_same_class_and_speed_deadlocks_the_fight():
    change = {"name": "color-change", "from": "blue", "to": "red"}
    state, events = reveal(card("Mine", "MATTER", speed=50), card("Foe", "INFORMATION", speed=50, right=change))
    assert of_type(events, "direction")[-1]["by"] == "deadlock"
    state, events = fight(state)
    assert of_type(events, "no_battle") == [{"type": "no_battle", "why": "deadlock"}]
    assert state["hp"] == [100_000, 100_000] and state["combo"] == [[], []]


def test_temporary_effects_end_with_the_round():
    state, _ = attack_with(right="swap-values")
    state, _ = fight(state)
    assert state["table"] is None
    state, _ = reveal(card("Again", "MATTER", attack=20_000, defense=5_000), card("B", "ENERGY"), state)
    assert state["table"]["values"][0]["attack"] == 20_000


def test_permanent_effects_last():
    state, _ = attack_with(right="add-card-slot")
    state, _ = fight(state)
    state, _ = reveal(card("C"), card("D", "ENERGY"), state)
    assert state["slots"] == [4, 3]


# ---------------------------------------------------------------- Mimmick and Neutralize, the tricky pairs

COPYABLE = [name for name in EFFECTS if name != "mimmick"]


@pytest.mark.parametrize("copied", COPYABLE)
def test_mimmick_copies_the_opponents_effect_in_the_same_field(copied):
    # Seat 1 (defender) has `copied` in its left field, aimed at seat 0; seat 0's left Mimmick copies
    # it and fires it at seat 1.
    effect = {"name": "color-change", "from": "green", "to": "red"} if copied == "color-change" else {"name": copied}
    state = with_hp(100_000, 20_000)
    state["combo"] = [["red"], ["green"]]
    state["backup"] = [card("Spare0", speed=150), card("Spare1", speed=150)]
    foe = card("Foe", "ENERGY", attack=8_000, defense=12_000, left=effect)
    mine = card("Mine", "MATTER", attack=20_000, defense=5_000, left="mimmick")
    state, events = reveal(mine, foe, state)
    steps = effect_steps(events)
    assert steps[0]["seat"] == 1 and steps[0]["effect"] == copied and steps[0]["target"] == 0
    mimmick, copy_step = steps[1], steps[2]
    assert (mimmick["effect"], mimmick["outcome"], mimmick["copied"]) == ("mimmick", "copies", copied)
    assert (copy_step["effect"], copy_step["via"], copy_step["seat"], copy_step["target"]) == (
        copied, "mimmick", 0, 1)
    assert copy_step["outcome"] not in ("blocked", "no-card")


def test_mimmick_facing_mimmick_copies_nothing():
    _, events = attack_with(left="mimmick", foe=card("Foe", "ENERGY", left="mimmick"))
    assert [s["outcome"] for s in effect_steps(events)] == ["nothing-to-copy", "nothing-to-copy"]


def test_mimmick_facing_an_empty_field_copies_nothing():
    _, events = attack_with(right="mimmick")
    assert effect_steps(events)[0]["outcome"] == "nothing-to-copy"


def test_mimmick_of_regeneration_heals_by_the_mimmick_cards_values():
    foe = card("Foe", "ENERGY", attack=8_000, defense=12_000, right="regeneration")
    state, events = attack_with(right="mimmick", foe=foe, hp=(50_000, 50_000))
    assert state["hp"] == [75_000, 70_000]  # 20,000 + 5,000 for me, 8,000 + 12,000 for the foe


def test_neutralize_cancels_active_temporary_effects():
    # Defender (seat 1) swaps the attacker's values first; the attacker's own Neutralize undoes that.
    foe = card("Foe", "ENERGY", left="swap-values")
    state, events = attack_with(right="neutralize", foe=foe)
    values = state["table"]["values"][0]
    assert [values["attack"], values["defense"]] == [20_000, 5_000]
    assert effect_steps(events)[-1]["cancelled"] is True


def test_neutralize_cancels_a_pending_double_combo_and_blocks_berserk():
    foe = card("Foe", "ENERGY", left="double-combo", right="neutralize")
    state, events = attack_with(left="berserk", foe=foe, hp=(100_000, 10_000))
    # The foe's own shield came after its Double Combo on me, so mine stays; my Berserk on it is blocked.
    assert [s["outcome"] for s in effect_steps(events)] == ["applied", "applied", "blocked"]
    assert state["table"]["double_combo"] == [True, False]


def test_neutralize_cannot_be_cancelled_and_blocks_later_shields_too():
    foe = card("Foe", "ENERGY", right="neutralize")
    _, events = attack_with(left="neutralize", foe=foe)
    assert [s["outcome"] for s in effect_steps(events)] == ["applied", "blocked"]


# ---------------------------------------------------------------- backup slot


def speedy(name="Speedy", cls="Life", **stats):
    return card(name, cls, **{"speed": 150, **stats})


def test_a_fast_card_without_combo_goes_to_the_backup_slot_at_the_reveal():
    state = start()
    state, _ = act(state, commit(0, card("A"), backup=speedy()))
    assert state["backup"] == [None, None]  # still secret
    state, events = act(state, commit(1, card("B", "ENERGY")))
    assert state["backup"][0]["name"] == "Speedy"
    assert of_type(events, "revealed")[0]["backups"][0]["name"] == "Speedy"


@pytest.mark.parametrize("backup", [
    card("Slow", speed=99),
    card("Combo", speed=150, combo=["red", "grey", "grey"]),
], ids=["speed-99", "combo-requirement"])
def test_an_ineligible_backup_is_refused(backup):
    assert_refused(start(), commit(0, card("A"), backup=backup), rules.IllegalAction, "backup-ineligible")


def test_a_second_backup_card_is_refused():
    state = start()
    state["backup"][0] = speedy("First")
    error = assert_refused(state, commit(0, card("A"), backup=speedy("Second")), rules.IllegalAction, "backup-full")
    assert error.params["card"] == "First"


def test_calling_a_backup_that_is_not_there_is_refused():
    state, _ = reveal(card("A"), card("B", "ENERGY"))
    assert_refused(state, {"type": "call_backup", "seat": 0}, rules.IllegalAction, "no-backup")


def test_calling_the_backup_reprocesses_effects_and_recalculates_direction():
    # Seat 0's MATTER attacks seat 1's ENERGY; seat 1 calls a Life backup, which beats everything.
    state = start()
    state["hp"][1] = 60_000
    foe = card("Foe", "ENERGY", right="regeneration", attack=8_000, defense=2_000)
    mine = card("Mine", "MATTER", attack=20_000, defense=5_000, left="swap-values")
    state, events = reveal(mine, foe, state, backups=(None, speedy("Angel", attack=30_000, defense=1_000)))
    assert state["hp"][1] == 70_000
    state, events = act(state, {"type": "call_backup", "seat": 1})
    assert of_type(events, "backup_called")[0]["replaced"] == "Foe"
    assert state["backup"][1] is None
    # The staying card's temporary Swap Values hits the new card; the new card's side has no regeneration.
    values = state["table"]["values"][1]
    assert [values["attack"], values["defense"]] == [1_000, 30_000]
    direction = of_type(events, "direction")[-1]
    assert (direction["stage"], direction["attacker"], direction["changed"]) == ("after-backup", 1, True)
    state, events = fight(state)
    assert of_type(events, "strike")[0]["damage"] == 0  # 1,000 against 5,000
    assert state["combo"][1] == ["purple"]


def test_permanent_effects_of_the_staying_card_do_not_fire_twice():
    state = start()
    state["hp"][0] = 50_000
    mine = card("Mine", "MATTER", right="regeneration", attack=10_000, defense=10_000)
    state, _ = reveal(mine, card("B", "ENERGY"), state, backups=(None, speedy()))
    state, events = act(state, {"type": "call_backup", "seat": 1})
    assert state["hp"][0] == 70_000
    assert effect_steps(events, "regeneration")[0]["outcome"] == "already-fired"


def test_neutralize_does_not_stop_a_backup_call_but_blocks_its_effects():
    foe = card("Foe", "ENERGY", right="neutralize")
    state = start()
    state["combo"][0] = ["red"]
    state, _ = reveal(card("A", "MATTER"), foe, state, backups=(None, None))
    state["backup"][1] = speedy(left="destroy-combo")
    state, events = act(state, {"type": "call_backup", "seat": 1})
    assert state["combo"][0] == []  # aimed at seat 0, who has no shield
    state["backup"][0] = speedy("Spare", left="destroy-combo")
    state["combo"][1] = ["green"]
    state, events = act(state, {"type": "call_backup", "seat": 0})
    spare = [step for step in effect_steps(events, "destroy-combo") if step["seat"] == 0]
    assert spare[0]["outcome"] == "blocked"
    assert state["combo"][1] == ["green"]


# ---------------------------------------------------------------- winning, resigning, refusing


def test_the_duel_ends_when_a_player_reaches_0_hp():
    state = with_hp(100_000, 15_000)
    state, _ = reveal(card("A", "MATTER", attack=40_000), card("B", "ENERGY", defense=10_000), state)
    state, events = fight(state)
    assert state["hp"] == [100_000, 0]
    assert of_type(events, "duel_over") == [
        {"type": "duel_over", "winner": 0, "ended_by": "knock-out", "hp": [100_000, 0]}]
    assert GAME.outcome(state) == rules.Outcome(winner=0, score="100,000-0")
    assert GAME.legal_actions(state) == []
    assert_refused(state, commit(0, card()), rules.IllegalAction, "match-over")
    assert state["rounds"][-1]["round"] == 1


def test_resigning_gives_the_opponent_the_win_by_default():
    state, _ = reveal(card("A"), card("B", "ENERGY"))
    state, events = act(state, {"type": "resign", "seat": 0})
    assert GAME.outcome(state) == rules.Outcome(winner=1, score="by resignation")
    assert_refused(state, FIGHT, rules.IllegalAction, "match-over")


def test_resigning_can_be_a_draw_for_both_as_an_option():
    state, _ = reveal(card("A"), card("B", "ENERGY"), start({"resignation": "draw"}))
    state, _ = act(state, {"type": "resign", "seat": 1})
    assert GAME.outcome(state) == rules.Outcome(winner=None, score="draw")


def test_resigning_waits_for_the_battle_phase():
    assert_refused(start(), {"type": "resign", "seat": 0}, rules.IllegalAction, "not-battle-phase")


@pytest.mark.parametrize(("action", "rule"), [
    ({"type": "commit", "seat": 2, "round": 1, "card": card()}, "seat"),
    ({"type": "commit", "seat": "0", "round": 1, "card": card()}, "seat"),
    ({"type": "commit", "seat": 0, "round": 2, "card": card()}, "wrong-round"),
    ({"type": "commit", "seat": 0, "round": 1, "card": {**card(), "class": "FIRE"}}, "card-class"),
    ({"type": "commit", "seat": 0, "round": 1, "card": {**card(), "attack": -5}}, "card-stat-range"),
    ({"type": "fight"}, "not-battle-phase"),
    ({"type": "call_backup", "seat": 0}, "not-battle-phase"),
    ({"type": "cheat"}, "action-unknown"),
    ({"type": "set_hp", "seat": 0, "hp": 5}, "override-only"),
    ({"type": "set_hp", "seat": 0, "hp": -5, "override": True}, "hp-range"),
])
def test_bad_actions_are_refused(action, rule):
    assert_refused(start(), action, rules.RuleError, rule)


def test_not_a_dict_is_refused():
    assert_refused(start(), "fight", rules.IllegalAction, "action-unknown")


def test_a_player_commits_once_per_round():
    state, _ = act(start(), commit(0, card()))
    assert_refused(state, commit(0, card("Other")), rules.IllegalAction, "already-committed")
    assert_refused(state, defenceless(0), rules.IllegalAction, "already-committed")


def test_no_commit_during_the_battle_phase():
    state, _ = reveal(card("A"), card("B", "ENERGY"))
    assert_refused(state, commit(0, card(), 1), rules.IllegalAction, "not-commit-phase")


def test_set_hp_is_a_marked_correction_that_can_end_the_duel():
    state, events = act(start(), {"type": "set_hp", "seat": 1, "hp": 0, "override": True})
    assert events[0] == {"type": "hp_set", "seat": 1, "before": 100_000, "after": 0}
    assert GAME.outcome(state).winner == 0


# ---------------------------------------------------------------- secrecy


def test_a_commit_is_hidden_until_the_reveal():
    secret = commit(0, card("Secret"))
    state, _ = act(start(), secret)
    hidden = GAME.public_action(state, secret)
    assert "Secret" not in json.dumps(hidden)
    # A declared defenceless round looks the same from outside.
    assert GAME.public_action(state, defenceless(0)) == hidden
    state, _ = act(state, commit(1, card("B", "ENERGY")))
    assert GAME.public_action(state, secret) == secret


def test_a_duel_ended_before_the_reveal_keeps_that_rounds_commit_hidden_for_good():
    """The other player setting their own HP to 0 in the commit phase ends the duel: Ana's card, never turned
    over, stays face down (it was shown to whoever ended the duel); one ended in the battle is shown."""
    secret = commit(0, card("Secret"), backup=speedy("Hidden Spare"))
    state, _ = act(start(), secret)
    state, _ = act(state, {"type": "set_hp", "seat": 1, "hp": 0, "override": True})
    assert GAME.outcome(state).winner == 0
    assert "Secret" not in json.dumps(GAME.public_action(state, secret))
    fought, _ = reveal(card("A"), card("B", "ENERGY"))
    fought, _ = act(fought, {"type": "set_hp", "seat": 1, "hp": 0, "override": True})
    assert fought["phase"] == "finished"
    assert all(GAME.public_action(fought, commit(seat, card(name), 1)) == commit(seat, card(name), 1)
               for seat, name in ((0, "A"), (1, "B")))


def test_the_first_commit_leaves_no_trace_of_the_card_in_its_events():
    state, events = act(start(), commit(0, card("Secret"), backup=speedy("Hidden Spare")))
    assert events == [{"type": "committed", "seat": 0}]


def test_legal_actions_list_every_kind_with_its_fixed_parameters():
    state = start()
    kinds = {(a["type"], a.get("seat")) for a in GAME.legal_actions(state)}
    assert {("commit", 0), ("commit", 1), ("defenceless", 0), ("defenceless", 1)} <= kinds
    state, _ = reveal(card("A"), card("B", "ENERGY"), backups=(speedy(), None))
    assert GAME.legal_actions(state)[:2] == [{"type": "call_backup", "seat": 0}, {"type": "fight"}]


# ---------------------------------------------------------------- a whole scripted duel

LIGHTNING = card("Lightning Lance", "ENERGY", attack=45_000, defense=10_000, speed=80, left="swap-values")
ARCHIVE = card("Archive Warden", "INFORMATION", attack=5_000, defense=20_000, speed=70, right="regeneration")
GOLEM = card("Iron Golem", "MATTER", attack=40_000, defense=30_000, speed=20, right="berserk")
TITAN = card("Titan Fist", "MATTER", attack=90_000, defense=0, speed=10)
SERAPH = speedy("Seraph", attack=60_000, defense=20_000)
SCRIPT = [
    commit(0, LIGHTNING, 1, backup=SERAPH), commit(1, ARCHIVE, 1), FIGHT,
    commit(0, GOLEM, 2), commit(1, LIGHTNING, 2), {"type": "call_backup", "seat": 0}, FIGHT,
    defenceless(0, 3), commit(1, GOLEM, 3), FIGHT,
    commit(0, GOLEM, 4), commit(1, ARCHIVE, 4), FIGHT,
    commit(0, TITAN, 5), defenceless(1, 5), FIGHT,
]
# HP after each round, worked out by hand:
# 1  ENERGY beats INFORMATION. Archive heals 25,000 (capped at 100,000), Lightning swaps it to
#    20,000 / 5,000: 45,000 - 5,000 = 40,000 to Ben.
# 2  MATTER beats ENERGY; Ana calls Seraph (Life), Lightning's Swap Values now hits Seraph:
#    20,000 / 60,000, so 20,000 - 10,000 = 10,000 to Ben.
# 3  Ana is defenceless: Golem's full 40,000 (Berserk: Ben at 50,000 is not critical).
# 4  INFORMATION beats MATTER; Archive heals Ben 25,000, then 5,000 - 30,000 is no damage and the
#    classes differ, so no strike back.
# 5  Ben is defenceless: Titan Fist's 90,000 takes his last 75,000.
HP_AFTER_ROUND = {1: [100_000, 60_000], 2: [100_000, 50_000], 3: [60_000, 50_000], 4: [60_000, 75_000],
                  5: [60_000, 0]}


def play_script(actions=SCRIPT):
    state = start()
    hp_by_round = {}
    for step, action in enumerate(actions, start=1):
        state, events = GAME.apply(state, action, rules.Dice(SEED, step))
        if action == FIGHT:
            hp_by_round[state["rounds"][-1]["round"]] = list(state["hp"])
    return state, hp_by_round


def test_a_whole_scripted_duel_to_a_knock_out():
    state, hp_by_round = play_script()
    assert hp_by_round == HP_AFTER_ROUND
    assert GAME.outcome(state) == rules.Outcome(winner=0, score="60,000-0")
    assert [r["round"] for r in state["rounds"]] == [1, 2, 3, 4, 5]
    assert state["combo"] == [["red", "red", "purple"], ["blue", "red", "green"]]
    assert state["backup"] == [None, None]


def test_the_scripted_duel_replays_to_the_same_state_through_json():
    state, _ = play_script()
    replayed = start()
    for step, action in enumerate(json.loads(json.dumps(SCRIPT)), start=1):
        replayed, _ = GAME.apply(json.loads(json.dumps(replayed)), action, rules.Dice(SEED, step))
    assert replayed == state
    assert json.loads(json.dumps(state)) == state
