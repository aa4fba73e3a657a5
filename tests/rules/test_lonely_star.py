"""Lonely Star rules, checked against the rulebook (/work/shared/rulebooks/lonely-star.txt) and the
status page facts in its notes (Burn, Hex, Poison, Blind).

Everything goes through the public Game contract:
    state = game.new_match(config, seed)
    state, events = game.apply(state, action, rules.Dice(seed, step, entered_rolls))
Entered rolls stand for a real die a player tapped in, so a test can force a roll's value.
"""

import copy
import json
from fractions import Fraction

import pytest

import rules
from rules import Dice, RuleError
from rules.lonely_star.rolls import SIDES, check, pass_chance

GAME = rules.GAMES["lonely-star"]
SEED = "lonely-star-test-seed"


# ---------------------------------------------------------------- helpers


def card(name, hp=5, at=3, lk=2, rs=1, reach=1):
    return {"name": name, "hp": hp, "at": at, "lk": lk, "rs": rs, "reach": reach}


def act(state, action, rolls=None, step=1):
    """Apply one action; returns (state, events, dice)."""
    dice = rules.Dice(SEED, step, rolls)
    state, events = GAME.apply(state, action, dice)
    json.dumps(state), json.dumps(events)  # everything stays plain JSON
    return state, events, dice


def table(mine, theirs, **config):
    """A match with seat 0's units `mine` and seat 1's units `theirs` in play; returns (state, ids0, ids1)."""
    state = GAME.new_match(config, SEED)
    ids = ([], [])
    for seat, cards in ((0, mine), (1, theirs)):
        for c in cards:
            state, events, _ = act(state, {"type": "play_unit", "seat": seat, "card": c})
            ids[seat].append(events[0]["unit"])
    return state, ids[0], ids[1]


def unit(state, unit_id):
    return next(u for u in state["units"] if u["id"] == unit_id)


def in_play(state, unit_id):
    return any(u["id"] == unit_id for u in state["units"])


def totals(state, unit_id):
    from rules.lonely_star.units import STATS, total

    u = unit(state, unit_id)
    return {stat: total(state, u, stat) for stat in STATS}


def of(events, kind):
    return [e for e in events if e["type"] == kind]


def refused(state, action, rule, rolls=None):
    """The action is refused for `rule` and the state passed in is unchanged."""
    before = copy.deepcopy(state)
    with pytest.raises(RuleError) as error:
        act(state, action, rolls)
    assert error.value.rule == rule
    assert state == before
    return error.value


def attack(a, b, seat=0):
    return {"type": "attack", "seat": seat, "unit": a, "target": b}


def inflict(target, status, seat=1, **extra):
    return {"type": "inflict", "seat": seat, "target": target, "status": status, **extra}


# ---------------------------------------------------------------- the rulebook's example: Luck 8 mills 2


def test_rulebook_example_luck_8_deals_damage_and_mills_2():
    # "if a unit with 8 Luck deals damage to another unit, send 2 cards from the Deck to the Discard Pile
    # (8 - 6 = 2)"
    state, (star,), (foe,) = table([card("Star", at=3, lk=8)], [card("Foe", hp=9, rs=2)])
    deck, discard = state["players"][1]["deck"], state["players"][1]["discard"]
    after, events, dice = act(state, attack(star, foe))
    assert of(events, "crit_check")[0]["certain"] is True and dice.rolls == []  # Luck 8 crits without a die
    assert unit(after, foe)["damage"] == 3  # the crit ignores Resist 2
    assert after["players"][1]["deck"] == deck - 2
    assert after["players"][1]["discard"] == discard + 2
    assert of(events, "cards_moved")[0] == {
        "type": "cards_moved",
        "seat": 1,
        "source": "deck",
        "target": "discard",
        "asked": 2,
        "moved": 2,
        "why": "luck-mill",
    }
    assert after["players"][0] == state["players"][0]  # the attacker's own deck is untouched


def test_luck_over_6_mills_nothing_when_no_damage_is_dealt():
    state, (star,), (foe,) = table([card("Star", at=0, lk=8)], [card("Foe")])
    after, events, _ = act(state, attack(star, foe))
    assert after["players"][1] == state["players"][1]
    assert of(events, "cards_moved") == []


def test_luck_over_6_mills_what_the_deck_holds_and_says_so():
    state, (star,), (foe,) = table([card("Star", lk=9)], [card("Foe", hp=9)], deck=2)
    after, events, _ = act(state, attack(star, foe))
    assert after["players"][1]["deck"] == 0 and after["players"][1]["discard"] == 2
    assert of(events, "cards_moved")[0]["asked"] == 3 and of(events, "cards_moved")[0]["moved"] == 2


def test_effect_damage_with_luck_over_6_does_not_mill():
    state, (star,), (foe,) = table([card("Star", lk=8)], [card("Foe", hp=9)])
    after, _, _ = act(state, {"type": "damage", "seat": 0, "source": star, "target": foe, "amount": 2})
    assert unit(after, foe)["damage"] == 2
    assert after["players"][1] == state["players"][1]


# ---------------------------------------------------------------- critical damage at the Luck boundary


@pytest.mark.parametrize("roll, crit, damage", [(3, True, 5), (4, False, 3), (1, True, 5), (6, False, 3)])
def test_crit_succeeds_at_most_total_luck(roll, crit, damage):
    state, (a,), (b,) = table([card("A", at=5, lk=3)], [card("B", hp=9, rs=2)])
    after, events, dice = act(state, attack(a, b), rolls=[roll])
    check = of(events, "crit_check")[0]
    assert (check["roll"], check["success"], check["total"]) == (roll, crit, 3)
    assert unit(after, b)["damage"] == damage
    assert dice.rolls == [{"sides": 6, "value": roll, "by": "player", "why": "crit: A (3)"}]


@pytest.mark.parametrize("total", range(-1, 8))
def test_the_chance_of_passing_is_the_share_of_d6_faces_the_check_passes_on(total):
    """The statistics page's "expected" figure adds these chances: they must be the dice's own."""
    passing = [face for face in range(1, SIDES + 1)
               if check(Dice("chance", 1, [face]), total, "luck", "Moon")["success"]]
    assert pass_chance(total) == Fraction(len(passing), SIDES)


def test_total_luck_of_6_always_crits_without_a_roll_and_0_never_does():
    state, (six, zero), (b,) = table(
        [card("Six", at=4, lk=6), card("Zero", at=4, lk=0)], [card("B", hp=20, rs=3)]
    )
    after, events, dice = act(state, attack(six, b))
    assert of(events, "crit_check")[0] | {} == {
        "type": "crit_check",
        "unit": six,
        "name": "Six",
        "kind": "crit",
        "total": 6,
        "roll": None,
        "certain": True,
        "success": True,
    }
    assert unit(after, b)["damage"] == 4 and dice.rolls == []
    after, events, dice = act(state, attack(zero, b))
    assert of(events, "crit_check")[0]["certain"] and not of(events, "crit_check")[0]["success"]
    assert unit(after, b)["damage"] == 1 and dice.rolls == []


def test_hex_can_bring_luck_under_6_so_the_die_is_rolled_again():
    state, (a,), (b,) = table([card("A", at=4, lk=6)], [card("B", hp=20, rs=3)])
    state, _, _ = act(state, inflict(a, "hex", ignore_resist=True))
    assert totals(state, a)["lk"] == 5
    after, events, dice = act(state, attack(a, b), rolls=[6])
    assert dice.rolls[0]["value"] == 6 and not of(events, "crit_check")[0]["success"]
    assert unit(after, b)["damage"] == 1


# ---------------------------------------------------------------- Resist against damage


def test_resist_reduces_effect_damage_when_the_crit_fails_and_not_below_zero():
    state, (a,), (b,) = table([card("A", lk=1)], [card("B", hp=9, rs=3)])
    after, events, _ = act(
        state, {"type": "damage", "seat": 0, "source": a, "target": b, "amount": 5}, rolls=[2]
    )
    assert unit(after, b)["damage"] == 2
    after, events, _ = act(
        state, {"type": "damage", "seat": 0, "source": a, "target": b, "amount": 2}, rolls=[2]
    )
    assert unit(after, b)["damage"] == 0
    assert of(events, "damage_calculated")[0]["dealt"] == 0


def test_effect_damage_ignoring_resist_rolls_no_crit_and_deals_it_all():
    state, (a,), (b,) = table([card("A", lk=1)], [card("B", hp=9, rs=3)])
    action = {"type": "damage", "seat": 0, "source": a, "target": b, "amount": 5, "ignore_resist": True}
    after, events, dice = act(state, action)
    assert unit(after, b)["damage"] == 5
    assert dice.rolls == [] and of(events, "crit_check") == []


# ---------------------------------------------------------------- lethal damage


def test_lethal_exactly_at_total_health_sends_the_unit_and_its_accessories_to_the_discard_pile():
    state, (a,), (b, c) = table([card("A", at=4, lk=6)], [card("B", hp=4), card("C", hp=5)])
    state, _, _ = act(state, {"type": "equip", "seat": 1, "unit": b, "accessory": "Shield"})
    after, events, _ = act(state, attack(a, b))
    assert not in_play(after, b)
    lethal = of(events, "lethal")[0]
    assert (lethal["damage"], lethal["hp"], lethal["to"], lethal["accessories"]) == (
        4,
        4,
        "discard",
        ["Shield"],
    )
    assert after["players"][1]["discard"] == state["players"][1]["discard"] + 2
    after, events, _ = act(state, attack(a, c))
    assert in_play(after, c) and unit(after, c)["damage"] == 4 and of(events, "lethal") == []


def test_lethal_can_remove_from_the_game_as_an_option():
    state, (a,), (b,) = table([card("A", at=4, lk=6)], [card("B", hp=4)], lethal_to="removed")
    after, _, _ = act(state, attack(a, b))
    assert (
        after["players"][1]["removed"] == 1
        and after["players"][1]["discard"] == state["players"][1]["discard"]
    )


def test_lowering_health_below_the_damage_is_lethal():
    state, (a,), _ = table([card("A", hp=3)], [])
    state, _, _ = act(
        state,
        {"type": "adjust", "override": True, "what": "counters", "unit": a, "counter": "damage", "change": 2},
    )
    after, events, _ = act(
        state, {"type": "adjust", "override": True, "what": "stat", "unit": a, "stat": "hp", "change": -1}
    )
    assert not in_play(after, a) and of(events, "lethal")


# ---------------------------------------------------------------- inflicting statuses and Resist


def test_status_is_resisted_at_most_total_resist():
    state, (a,), _ = table([card("A", rs=2)], [])
    after, events, _ = act(state, inflict(a, "burn"), rolls=[2])
    assert unit(after, a)["statuses"] == {} and of(events, "resist_check")[0]["success"]
    after, events, _ = act(state, inflict(a, "burn"), rolls=[3])
    assert unit(after, a)["statuses"] == {"burn": 1}


def test_status_ignoring_resist_rolls_nothing():
    state, (a,), _ = table([card("A", rs=5)], [])
    after, events, dice = act(state, inflict(a, "Burn", ignore_resist=True))
    assert unit(after, a)["statuses"] == {"burn": 1} and dice.rolls == [] and of(events, "resist_check") == []


def test_resist_of_6_always_resists_and_the_event_says_it_was_certain():
    state, (a,), _ = table([card("A", rs=6)], [])
    after, events, dice = act(state, inflict(a, "poison"))
    assert unit(after, a)["statuses"] == {} and dice.rolls == [] and of(events, "resist_check")[0]["certain"]


@pytest.mark.parametrize(
    "status, stat", [("burn", "at"), ("hex", "lk"), ("poison", "rs"), ("blind", "reach")]
)
def test_each_status_lowers_its_stat_by_one(status, stat):
    state, (a,), _ = table([card("A", hp=5, at=3, lk=2, rs=1, reach=2)], [])
    before = totals(state, a)
    after, _, _ = act(state, inflict(a, status, ignore_resist=True))
    expected = {**before, stat: before[stat] - 1}
    assert totals(after, a) == expected
    assert unit(after, a)["base"] == unit(state, a)["base"]  # the printed gems are unchanged


def test_a_status_penalty_comes_after_other_modifiers_and_stops_at_zero():
    state, (a,), _ = table([card("A", at=1)], [])
    state, _, _ = act(state, inflict(a, "burn", ignore_resist=True))
    assert totals(state, a)["at"] == 0
    state, _, _ = act(
        state, {"type": "adjust", "override": True, "what": "stat", "unit": a, "stat": "at", "change": 2}
    )
    assert totals(state, a)["at"] == 2  # 1 + 2, then Burn's -1


def test_stats_may_go_below_zero_as_an_option():
    state, (a,), _ = table([card("A", at=0)], [], stat_floor="none")
    state, _, _ = act(state, inflict(a, "burn", ignore_resist=True))
    assert totals(state, a)["at"] == -1


def test_penalty_per_counter_as_an_option():
    flat, (a,), _ = table([card("A", at=5)], [])
    stacked, (b,), _ = table([card("A", at=5)], [], status_penalty="per-counter")
    for _ in range(2):
        flat, _, _ = act(flat, inflict(a, "burn", ignore_resist=True))
        stacked, _, _ = act(stacked, inflict(b, "burn", ignore_resist=True))
    assert unit(flat, a)["statuses"] == {"burn": 2} and totals(flat, a)["at"] == 4
    assert totals(stacked, b)["at"] == 3


def test_counter_cap_option_applies_to_burn_hex_and_blind():
    state, (a,), _ = table([card("A", hp=9)], [], counter_cap=2)
    for _ in range(3):
        state, events, _ = act(state, inflict(a, "blind", ignore_resist=True))
    assert unit(state, a)["statuses"] == {"blind": 2} and of(events, "status_capped")


# ---------------------------------------------------------------- being inflicted again


def test_burn_again_breaks_the_chosen_accessory():
    state, (a,), _ = table([card("A")], [])
    state, _, _ = act(state, {"type": "equip", "seat": 0, "unit": a, "accessory": "Ring"})
    state, _, _ = act(state, {"type": "equip", "seat": 0, "unit": a, "accessory": "Cloak"})
    state, _, _ = act(state, inflict(a, "burn", ignore_resist=True))
    after, events, _ = act(state, inflict(a, "burn", ignore_resist=True, break_accessory="Cloak"))
    assert unit(after, a)["accessories"] == ["Ring"] and unit(after, a)["damage"] == 0
    assert after["players"][0]["discard"] == state["players"][0]["discard"] + 1
    assert unit(after, a)["statuses"] == {"burn": 2}
    # The inflicting player may also spare the accessories.
    after, events, _ = act(state, inflict(a, "burn", ignore_resist=True))
    assert unit(after, a)["accessories"] == ["Ring", "Cloak"] and of(events, "accessory_spared")
    refused(state, inflict(a, "burn", ignore_resist=True, break_accessory="Crown"), "accessory-unknown")


def test_burn_again_without_an_accessory_deals_1_damage_with_no_crit_and_no_resist():
    state, (a,), _ = table([card("A", rs=5)], [])
    state, _, _ = act(state, inflict(a, "burn", ignore_resist=True))
    after, _events, dice = act(state, inflict(a, "burn", ignore_resist=True))
    assert unit(after, a)["damage"] == 1 and dice.rolls == []


def test_hex_again_removes_discard_cards_equal_to_base_luck():
    state, (a,), _ = table([card("A", lk=3)], [])
    state, _, _ = act(
        state,
        {
            "type": "adjust",
            "override": True,
            "what": "cards",
            "seat": 0,
            "source": "deck",
            "target": "discard",
            "count": 3,
        },
    )
    state, _, _ = act(state, inflict(a, "hex", ignore_resist=True))
    after, _events, _ = act(state, inflict(a, "hex", ignore_resist=True))
    assert after["players"][0]["discard"] == 0 and after["players"][0]["removed"] == 3
    assert unit(after, a)["damage"] == 0


def test_hex_again_with_too_few_discard_cards_deals_1_damage_ignoring_resist():
    state, (a,), _ = table([card("A", lk=3, rs=4)], [])
    state, _, _ = act(
        state,
        {
            "type": "adjust",
            "override": True,
            "what": "cards",
            "seat": 0,
            "source": "deck",
            "target": "discard",
            "count": 2,
        },
    )
    state, _, _ = act(state, inflict(a, "hex", ignore_resist=True))
    after, _, _ = act(state, inflict(a, "hex", ignore_resist=True))
    assert unit(after, a)["damage"] == 1
    assert after["players"][0]["discard"] == 2  # nothing is paid in part


def test_poison_holds_one_counter_and_poison_again_mills_2():
    state, (a,), _ = table([card("A")], [])
    state, _, _ = act(state, inflict(a, "poison", ignore_resist=True))
    after, events, _ = act(state, inflict(a, "poison", ignore_resist=True))
    assert unit(after, a)["statuses"] == {"poison": 1} and of(events, "status_capped")
    assert after["players"][0]["deck"] == state["players"][0]["deck"] - 2
    assert after["players"][0]["discard"] == 2 and unit(after, a)["damage"] == 0


def test_poison_again_with_fewer_than_2_cards_deals_damage_equal_to_its_counters():
    state, (a,), _ = table([card("A")], [], deck=1)
    state, _, _ = act(state, inflict(a, "poison", ignore_resist=True))
    after, _, _ = act(state, inflict(a, "poison", ignore_resist=True))
    assert unit(after, a)["damage"] == 1 and after["players"][0]["deck"] == 1


def test_blind_again_adds_a_counter_and_effect_reach_loses_one_per_counter():
    from rules.lonely_star.statuses import effect_reach

    state, (a,), _ = table([card("A", reach=4)], [])
    for _ in range(2):
        state, _, _ = act(state, inflict(a, "blind", ignore_resist=True))
    assert unit(state, a)["statuses"] == {"blind": 2}
    assert totals(state, a)["reach"] == 3 and effect_reach(state, unit(state, a)) == 1


# ---------------------------------------------------------------- the cost of acting


def test_a_hexed_attacker_removes_a_discard_card_from_the_game():
    state, (a,), (b,) = table([card("A", at=2, lk=7)], [card("B", hp=9)])  # Hexed: Luck 6, a sure crit
    state, _, _ = act(state, inflict(a, "hex", ignore_resist=True))
    state, _, _ = act(
        state,
        {
            "type": "adjust",
            "override": True,
            "what": "cards",
            "seat": 0,
            "source": "hand",
            "target": "discard",
            "count": 1,
        },
    )
    after, _, _ = act(state, attack(a, b))
    assert after["players"][0]["discard"] == 0 and after["players"][0]["removed"] == 1
    assert unit(after, a)["damage"] == 0 and unit(after, b)["damage"] == 2


def test_a_hexed_attacker_with_an_empty_discard_pile_takes_1_damage_ignoring_resist():
    state, (a,), (b,) = table([card("A", hp=2, at=2, lk=7, rs=5)], [card("B", hp=9)])
    state, _, _ = act(state, inflict(a, "hex", ignore_resist=True))
    after, _, _ = act(state, attack(a, b))
    assert unit(after, a)["damage"] == 1 and unit(after, b)["damage"] == 2


def test_a_hexed_attacker_killed_by_the_cost_never_attacks():
    state, (a,), (b,) = table([card("A", hp=1, at=2, lk=7)], [card("B", hp=9)])
    state, _, _ = act(state, inflict(a, "hex", ignore_resist=True))
    after, events, _ = act(state, attack(a, b))
    assert not in_play(after, a) and unit(after, b)["damage"] == 0 and of(events, "attack_stopped")


@pytest.mark.parametrize("how", ["attack", "move", "play"])
def test_a_poisoned_unit_mills_1_to_attack_move_or_play_a_card(how):
    state, (a,), (b,) = table([card("A", lk=6)], [card("B", hp=9)])
    state, _, _ = act(state, inflict(a, "poison", ignore_resist=True))
    action = attack(a, b) if how == "attack" else {"type": "act", "seat": 0, "unit": a, "how": how}
    after, _events, _ = act(state, action)
    assert after["players"][0]["deck"] == state["players"][0]["deck"] - 1
    assert after["players"][0]["discard"] == state["players"][0]["discard"] + 1
    unpoisoned, (c,), (d,) = table([card("A", lk=6)], [card("B", hp=9)])
    action = attack(c, d) if how == "attack" else {"type": "act", "seat": 0, "unit": c, "how": how}
    after, _, _ = act(unpoisoned, action)
    assert after["players"][0]["deck"] == unpoisoned["players"][0]["deck"]


def test_a_poisoned_unit_cannot_act_with_an_empty_deck():
    state, (a,), (b,) = table([card("A")], [card("B")], deck=0)
    state, _, _ = act(state, inflict(a, "poison", ignore_resist=True))
    refused(state, attack(a, b), "poison-cost")
    refused(state, {"type": "act", "seat": 0, "unit": a, "how": "move"}, "poison-cost")
    assert not any(x["type"] in ("attack", "act") and x.get("unit") == a for x in GAME.legal_actions(state))


# ---------------------------------------------------------------- the table's own statuses


def test_a_table_can_add_a_status_with_the_stat_it_lowers():
    state, (a,), _ = table([card("A", at=3, rs=0)], [])
    refused(state, inflict(a, "Freeze"), "status-unknown")
    refused(state, {"type": "define_status", "name": "Freeze", "stat": "at"}, "override-flag")
    refused(
        state, {"type": "define_status", "name": "Freeze", "stat": "speed", "override": True}, "status-stat"
    )
    state, _events, _ = act(
        state, {"type": "define_status", "name": "Freeze", "stat": "at", "override": True}
    )
    refused(
        state, {"type": "define_status", "name": "freeze", "stat": "rs", "override": True}, "status-exists"
    )
    after, _, _ = act(state, inflict(a, "freeze"))
    assert unit(after, a)["statuses"] == {"freeze": 1} and totals(after, a)["at"] == 2


# ---------------------------------------------------------------- end of turn


def end_step(state):
    state, _, _ = act(state, {"type": "end_turn", "seat": state["turn"]})
    return state


def test_end_of_turn_resist_removes_all_counters_of_one_status_only():
    state, (a,), _ = table([card("A", hp=9, rs=3)], [], counter_cap=0)
    for status in ("burn", "burn", "hex"):
        state, _, _ = act(state, inflict(a, status, ignore_resist=True))
    state = end_step(state)
    assert state["phase"] == "end"
    after, events, _ = act(state, {"type": "resist_roll", "seat": 0, "unit": a, "status": "burn"}, rolls=[2])
    assert unit(after, a)["statuses"] == {"hex": 1}
    assert of(events, "status_removed")[0]["counters"] == 2
    # Once each: the same unit cannot roll again this end of turn.
    refused(after, {"type": "resist_roll", "seat": 0, "unit": a, "status": "hex"}, "resisted-once")
    failed, _, _ = act(state, {"type": "resist_roll", "seat": 0, "unit": a, "status": "burn"}, rolls=[4])
    assert unit(failed, a)["statuses"] == {"burn": 2, "hex": 1}


def test_end_of_turn_resist_refusals_leave_the_state_unchanged():
    state, (a, clean), (b,) = table([card("A"), card("Clean")], [card("B")])
    state, _, _ = act(state, inflict(a, "burn", ignore_resist=True))
    state, _, _ = act(state, inflict(b, "burn", ignore_resist=True, seat=0))
    refused(state, {"type": "resist_roll", "seat": 0, "unit": a, "status": "burn"}, "turn-not-ending")
    state = end_step(state)
    refused(state, {"type": "resist_roll", "seat": 0, "unit": clean, "status": "burn"}, "no-such-counter")
    refused(state, {"type": "resist_roll", "seat": 1, "unit": b, "status": "burn"}, "not-your-turn")
    refused(state, {"type": "resist_roll", "seat": 0, "unit": b, "status": "burn"}, "not-yours")
    refused(state, attack(a, b), "turn-ending")


def test_finishing_the_turn_draws_for_each_player_and_passes_the_turn():
    state, _, _ = table([], [])
    state = end_step(state)
    after, _events, _ = act(state, {"type": "finish_turn", "seat": 0})
    assert [p["hand"] for p in after["players"]] == [6, 6]
    assert [p["deck"] for p in after["players"]] == [39, 39]
    assert (after["turn"], after["turn_number"], after["phase"]) == (1, 2, "main")
    refused(after, {"type": "end_turn", "seat": 0}, "not-your-turn")


def test_a_player_who_must_draw_from_an_empty_deck_loses():
    state, _, _ = table([], [], deck=0)
    state, _, _ = act(
        state,
        {
            "type": "adjust",
            "override": True,
            "what": "cards",
            "seat": 0,
            "source": "hand",
            "target": "deck",
            "count": 1,
        },
    )
    after, _, _ = act(end_step(state), {"type": "finish_turn", "seat": 0})
    assert GAME.outcome(after) == rules.Outcome(winner=0, score="by deck-out")
    both, _, _ = act(end_step(table([], [], deck=0)[0]), {"type": "finish_turn", "seat": 0})
    assert GAME.outcome(both) == rules.Outcome(winner=None, score="both decked out")
    refused(after, {"type": "d6", "seat": 0}, "match-over")
    assert GAME.legal_actions(after) == []


def test_with_the_table_option_an_empty_deck_only_misses_the_draw():
    state, _, _ = table([], [], deck=0, empty_deck="table")
    after, events, _ = act(end_step(state), {"type": "finish_turn", "seat": 0})
    assert GAME.outcome(after) is None and len(of(events, "draw_missed")) == 2 and after["turn"] == 1


def test_the_table_declares_a_winner():
    state, _, _ = table([], [])
    after, _, _ = act(state, {"type": "declare_winner", "winner": 1})
    assert GAME.outcome(after) == rules.Outcome(winner=1, score="by table call")


# ---------------------------------------------------------------- Luck roll and plain D6


def test_luck_roll_for_card_effects_and_a_plain_d6_are_logged():
    state, (a,), _ = table([card("A", lk=2)], [])
    _, events, dice = act(state, {"type": "luck_roll", "seat": 0, "unit": a}, rolls=[2])
    assert of(events, "luck_check")[0]["success"] and dice.rolls[0]["by"] == "player"
    _, events, _ = act(state, {"type": "luck_roll", "seat": 0, "unit": a}, rolls=[3])
    assert not of(events, "luck_check")[0]["success"]
    _, events, dice = act(state, {"type": "d6", "seat": 1})
    assert events == [{"type": "d6", "seat": 1, "roll": dice.rolls[0]["value"]}]
    assert dice.rolls[0]["by"] == "app"


# ---------------------------------------------------------------- dice: seeded and entered


def scripted(state, entered):
    """A short fight where every roll may be entered (None = the app rolls); returns states and rolls."""
    a, b = state["units"][0]["id"], state["units"][1]["id"]
    script = [
        attack(a, b),
        inflict(b, "burn", seat=0),
        {"type": "luck_roll", "seat": 0, "unit": a},
        {"type": "d6", "seat": 1},
    ]
    rolls = []
    for step, (action, value) in enumerate(zip(script, entered, strict=True), start=10):
        state, _, dice = act(state, action, rolls=None if value is None else [value], step=step)
        rolls.append(dice.rolls)
    return state, rolls


def test_seeded_rolls_reproduce_on_replay():
    start, _, _ = table([card("A", lk=3)], [card("B", hp=30, rs=3)])
    first = scripted(start, [None] * 4)
    assert scripted(start, [None] * 4) == first
    assert all(r[0]["by"] == "app" for r in first[1])


def test_entered_rolls_replay_as_entered():
    start, _, _ = table([card("A", lk=3)], [card("B", hp=30, rs=3)])
    entered = [5, 1, 3, 6]
    state, rolls = scripted(start, entered)
    assert [r[0]["value"] for r in rolls] == entered and all(r[0]["by"] == "player" for r in rolls)
    assert scripted(start, entered) == (state, rolls)


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize("roll", [0, 7, -1])
def test_a_roll_outside_1_to_6_is_refused(roll):
    state, (a,), (b,) = table([card("A", lk=3)], [card("B")])
    refused(state, attack(a, b), "die-value", rolls=[roll])


@pytest.mark.parametrize(
    "stats, rule",
    [
        ({"at": -1}, "card-stat-range"),
        ({"hp": 0}, "card-stat-range"),
        ({"lk": 100}, "card-stat-range"),
        ({"rs": "2"}, "card-stat-type"),
        ({"reach": True}, "card-stat-type"),
        ({"name": " "}, "card-name"),
        ({"name": "A\x00"}, "card-name"),
    ],
)
def test_bad_cards_are_refused(stats, rule):
    with pytest.raises(rules.InvalidCard) as error:
        GAME.validate_card({**card("A"), **stats})
    assert error.value.rule == rule
    state, _, _ = table([], [])
    refused(state, {"type": "play_unit", "seat": 0, "card": {**card("A"), **stats}}, rule)


def test_attacking_with_a_unit_not_in_play_or_for_the_other_player_is_refused():
    state, (a,), (b,) = table([card("A")], [card("B")])
    refused(state, attack(99, b), "not-in-play")
    refused(state, attack(a, 99), "not-in-play")
    refused(state, attack("1", b), "not-in-play")
    refused(state, attack(b, a, seat=0), "not-yours")
    refused(state, attack(b, a, seat=1), "not-your-turn")
    refused(state, {"type": "damage", "seat": 1, "source": a, "target": b, "amount": 1}, "not-yours")
    refused(state, {"type": "luck_roll", "seat": 1, "unit": a}, "not-yours")
    own, (c, d), _ = table([card("C"), card("D")], [])
    refused(own, attack(c, d), "attack-own")


def test_other_bad_actions_are_refused():
    state, (a,), (b,) = table([card("A")], [card("B")], hand=1)
    refused(state, inflict(a, "Sleep"), "status-unknown")
    refused(state, {"type": "explode"}, "action-unknown")
    refused(state, {"type": ["attack"]}, "action-unknown")
    refused(state, {"type": "d6", "seat": 2}, "seat")
    refused(state, {"type": "damage", "seat": 0, "source": a, "target": b, "amount": -1}, "number")
    refused(
        state,
        {"type": "damage", "seat": 0, "source": a, "target": b, "amount": 1, "ignore_resist": "yes"},
        "flag",
    )
    refused(state, {"type": "finish_turn", "seat": 0}, "turn-not-ending")
    refused(state, {"type": "adjust", "what": "stat", "unit": a, "stat": "at", "change": 1}, "override-flag")
    refused(
        state,
        {"type": "adjust", "override": True, "what": "stat", "unit": a, "stat": "speed", "change": 1},
        "stat-unknown",
    )
    refused(
        state,
        {
            "type": "adjust",
            "override": True,
            "what": "counters",
            "unit": a,
            "counter": "damage",
            "change": -1,
        },
        "counter-change",
    )
    refused(
        state,
        {"type": "adjust", "override": True, "what": "counters", "unit": a, "counter": "poison", "change": 2},
        "counter-cap",
    )
    refused(
        state,
        {
            "type": "adjust",
            "override": True,
            "what": "cards",
            "seat": 0,
            "source": "deck",
            "target": "deck",
            "count": 1,
        },
        "zone-same",
    )
    refused(state, {"type": "adjust", "override": True, "what": "teleport", "unit": a}, "adjust-unknown")
    # Seat 0's hand is now empty (1 card became A).
    refused(state, {"type": "play_unit", "seat": 0, "card": card("C")}, "hand-empty")
    with pytest.raises(rules.InvalidConfig):
        GAME.new_match({"who_rolls": "dog"}, SEED)
    with pytest.raises(rules.InvalidConfig):
        GAME.new_match({"deck": -1}, SEED)
    with pytest.raises(rules.InvalidConfig):
        GAME.new_match({"tempo": 1}, SEED)


# ---------------------------------------------------------------- manual overrides


def test_manual_adjustments_change_counters_stats_zones_and_units():
    state, (a,), _ = table([card("A", hp=9, at=3)], [])
    adjust = {"type": "adjust", "override": True}
    state, _, _ = act(state, {**adjust, "what": "counters", "unit": a, "counter": "burn", "change": 2})
    state, _, _ = act(state, {**adjust, "what": "counters", "unit": a, "counter": "damage", "change": 3})
    state, _, _ = act(state, {**adjust, "what": "stat", "unit": a, "stat": "at", "change": 2})
    assert unit(state, a)["statuses"] == {"burn": 2} and unit(state, a)["damage"] == 3
    assert totals(state, a)["at"] == 4
    state, _, _ = act(state, {**adjust, "what": "counters", "unit": a, "counter": "burn", "change": -2})
    assert unit(state, a)["statuses"] == {}
    state, events, _ = act(
        state, {**adjust, "what": "cards", "seat": 1, "source": "deck", "target": "removed", "count": 50}
    )
    assert state["players"][1]["deck"] == 0 and state["players"][1]["removed"] == 40
    assert of(events, "cards_moved")[0]["moved"] == 40
    state, _, _ = act(state, {**adjust, "what": "leave", "unit": a, "to": "hand"})
    assert state["units"] == [] and state["players"][0]["hand"] == 5


# ---------------------------------------------------------------- legal actions and a long match


def filled(action):
    """A legal action kind with its free choices filled in."""
    extra = {
        "play_unit": {"card": card("New")},
        "equip": {"accessory": "Charm"},
        "damage": {"amount": 2},
        "define_status": {"name": "Daze", "stat": "lk"},
    }.get(action["type"], {})
    if action["type"] == "adjust":
        extra = {
            "counters": {"counter": "damage", "change": 1},
            "stat": {"stat": "rs", "change": 1},
            "leave": {"to": "discard"},
            "cards": {"source": "deck", "target": "discard", "count": 1},
        }[action["what"]]
    return {**action, **extra}


def test_every_listed_legal_action_applies():
    state, (a,), (_b,) = table([card("A")], [card("B")])
    state, _, _ = act(state, inflict(a, "poison", ignore_resist=True))
    for phase in ("main", "end"):
        legal = GAME.legal_actions(state)
        kinds = {action["type"] for action in legal}
        assert ("attack" in kinds) == (phase == "main") and ("resist_roll" in kinds) == (phase == "end")
        for action in legal:
            act(state, filled(action))
        state = end_step(state) if phase == "main" else state


def test_a_long_scripted_match_is_deterministic_and_ends_by_deck_out():
    def play_out():
        state, (_a, _b), (_c, _d) = table(
            [card("A", at=2, lk=3, rs=1), card("B", hp=9, lk=8)],
            [card("C", hp=8, rs=2), card("D", hp=9, at=3, lk=2)],
            deck=12,
        )
        step = 100
        while GAME.outcome(state) is None:
            for action in GAME.legal_actions(state):
                if action["type"] in ("attack", "inflict", "resist_roll", "finish_turn", "end_turn"):
                    break
            extra = {"status": "burn"} if action["type"] == "inflict" else {}
            state, _, _ = act(state, {**action, **extra}, step=step)
            step += 1
        return state, step

    first = play_out()
    assert play_out() == first
    assert first[0]["ended"] == "deck-out"
