"""Cardmaster rules (Mode B, Custom Match), checked against the rulebook
(/work/shared/rulebooks/cardmaster.txt) and the decisions written in rules/cardmaster/.

The rulebook's own numbers appear as tests named after them: A2 needs 3 displayed
and leaves 1, A3 needs 4, REVIVE needs 5, DEF 100/500/999, the 4x..0.25x type
multipliers, tier x 5.5% / 11% and the 1% backfire floor.
"""

import contextlib
import copy
import json
import random
from fractions import Fraction

import pytest

import rules
from rules import IllegalAction, InvalidCard, InvalidConfig
from rules.cardmaster import match
from rules.cardmaster.damage import damage
from rules.cardmaster.fighters import stat
from rules.cardmaster.moves import revived_hp
from rules.cardmaster.mvp import performance
from rules.cardmaster.statuses import backfire_chance, proc_chance, roll_against, strength, top_face
from rules.cardmaster.typechart import against_one, best_of, multiplier

GAME = rules.GAMES["cardmaster"]
SEED = "cardmaster-test-seed"
MISS, HIT = 100, 1  # percentile rolls entered by hand: 100 never lands (below 100%), 1 always does


# ---------------------------------------------------------------- helpers


def card(name, **stats):
    """A plain card: SPD 100, HP 1000, DEF 0, ATK 300, SPC 0, types 1/1, tier 1, no status."""
    base = {"spd": 100, "hp": 1000, "def": 0, "atk": 300, "spc": 0, "type1": 1, "type2": 1, "tier": 1,
            "status": "none"}
    return {"name": name, **base, **stats}


def side(prefix, count=3, spd=100, **stats):
    return [card(f"{prefix}{n}", spd=spd, **stats) for n in range(1, count + 1)]


def act(state, action, rolls=(), seed=SEED, step=1):
    """Apply one action, checking that the state passed in is left exactly as it was."""
    before = copy.deepcopy(state)
    new, events = GAME.apply(state, action, rules.Dice(seed, step, list(rolls)))
    assert state == before, "apply changed the state it was given"
    json.loads(json.dumps(new)), json.loads(json.dumps(events))
    return new, events


def refused(state, action, rule, rolls=()):
    """The action is refused naming `rule`, and the state passed in is unchanged."""
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as error:
        GAME.apply(state, action, rules.Dice(SEED, 1, list(rolls)))
    assert error.value.rule == rule
    assert state == before
    return error.value


def start(a=None, b=None, config=None, seed=SEED):
    """Both lineups locked: A (seat 0, faster by default, so it has possession) against B (seat 1)."""
    config = config or {}
    size = config.get("size", 3)
    state = GAME.new_match({"size": size, **config}, seed)
    state, _ = act(state, {"type": "lock_lineup", "seat": 0, "cards": a or side("Ace", size, spd=120)}, seed=seed)
    state, _ = act(state, {"type": "lock_lineup", "seat": 1, "cards": b or side("Bee", size, spd=80)}, seed=seed)
    return state


def events_of(events, kind):
    return [event for event in events if event["type"] == kind]


def give(state, card_id, **fields):
    """A copy of the state with a card's fields set (gems, hp, status...) to stage a position."""
    state = copy.deepcopy(state)
    state["cards"][card_id].update(fields)
    return state


# ---------------------------------------------------------------- types


def test_each_type_is_strong_against_the_next_two_and_weak_against_the_previous_two():
    for attack in range(1, 11):
        row = [against_one(attack, defend) for defend in range(1, 11)]
        assert row.count(2) == 2 and row.count(Fraction(1, 2)) == 2 and row.count(1) == 6
        assert against_one(attack, attack % 10 + 1) == 2
        assert against_one(attack, (attack - 2) % 10 + 1) == Fraction(1, 2)


@pytest.mark.parametrize("defender, expected", [
    ((2, 3), 4),                # both of the defender's types are the next two: 2 x 2
    ((2, 5), 2),                # one strong, one neutral
    ((5, 6), 1),                # both neutral
    ((2, 10), 1),               # strong x weak cancel out
    ((10, 5), Fraction(1, 2)),  # weak x neutral
    ((10, 9), Fraction(1, 4)),  # both of the previous two: 0.5 x 0.5
])
def test_rulebook_multipliers_4x_2x_1x_half_and_quarter(defender, expected):
    assert multiplier(1, defender) == expected


def test_a_defender_with_one_type_twice_counts_it_once():
    assert multiplier(1, (2, 2)) == 2


def test_a3_uses_the_better_of_both_types():
    assert best_of((1, 9), (10, 5)) == (9, 2)   # type 9 hits type 10 for 2x; type 1 only 0.5x
    assert best_of((1, 4), (2, 3)) == (1, 4)


def test_a1_uses_type_1_and_a2_type_2():
    state = start(a=[card("Ace1", spd=120, type1=1, type2=9), card("Ace2", spd=120), card("Ace3", spd=120)],
                  b=[card("Bee1", spd=80, type1=10, type2=10), card("Bee2", spd=80), card("Bee3", spd=80)])
    state = give(state, "A1", gems=2)
    _, events = act(state, {"type": "a1", "card": "A1", "target": "B1"})
    assert (events[0]["attack_type"], events[0]["type_multiplier"]) == (1, "1/2")
    _, events = act(state, {"type": "a2", "card": "A1", "target": "B1"})
    assert (events[0]["attack_type"], events[0]["type_multiplier"]) == (9, "2")


def test_a_type_outside_the_wheel_is_refused():
    with pytest.raises(InvalidCard) as error:
        GAME.validate_card(card("Odd", type1="Plasma"))
    assert error.value.rule == "card-type"
    with pytest.raises(InvalidCard):
        GAME.validate_card(card("Odd", type2=11))
    with pytest.raises(InvalidCard):  # more digits than int() reads: refused, not a ValueError
        GAME.validate_card(card("Odd", type2="9" * 5000))
    assert GAME.validate_card(card("Named", type1="tide", type2="10"))[("type1")] == 2


# ---------------------------------------------------------------- damage


@pytest.mark.parametrize("defense, expected", [
    (0, 990),    # no DEF: ATK 1000 x 0.99
    (100, 891),  # rulebook: DEF 100 takes 10% off
    (500, 495),  # rulebook: DEF 500 takes half
    (999, 1),    # rulebook: DEF 999 takes 99.9% off, 0.99 left, and damage always lands: at least 1
])
def test_rulebook_def_examples(defense, expected):
    assert damage(1000, "a3", Fraction(1), defense) == expected


def test_move_factors_and_type_multiplier_multiply():
    assert damage(300, "a1", Fraction(1), 0) == 99    # 300 x 0.33
    assert damage(300, "a2", Fraction(1), 0) == 198   # 300 x 0.66
    assert damage(300, "a2", Fraction(4), 500) == 396  # 300 x 0.66 x 4 x 0.5
    assert damage(300, "a1", Fraction(1, 4), 0) == 25  # 24.75 rounds half up to 25
    assert damage(0, "a1", Fraction(1), 0) == 1        # damage always lands


def test_an_attack_takes_its_damage_off_the_target():
    state = start(b=side("Bee", spd=80, **{"def": 100}))
    state, events = act(state, {"type": "a1", "card": "A1", "target": "B2"})
    attack = events[0]
    assert (attack["atk"], attack["factor"], attack["def"], attack["damage"]) == (300, "0.33", 100, 89)
    assert state["cards"]["B2"]["hp"] == 1000 - 89
    assert state["cards"]["A1"]["record"]["damage"] == 89


# ---------------------------------------------------------------- gems


def test_rulebook_a2_needs_3_displayed_and_leaves_1():
    state = start()
    short = give(state, "A1", gems=1)  # 2 displayed
    error = refused(short, {"type": "a2", "card": "A1", "target": "B1"}, "gems-short")
    assert "A2 costs 2 gems beyond the baseline (3 shown)" in str(error)
    ready = give(state, "A1", gems=2)  # 3 displayed
    after, events = act(ready, {"type": "a2", "card": "A1", "target": "B1"})
    assert after["cards"]["A1"]["gems"] == 0  # 1 displayed: the baseline
    assert (events[0]["cost"], events[0]["from_stack"], events[0]["from_raided"]) == (2, 2, 0)


def test_rulebook_a3_needs_4_displayed():
    state = start()
    refused(give(state, "A1", gems=2), {"type": "a3", "card": "A1", "target": "B1"}, "gems-short")
    after, _ = act(give(state, "A1", gems=3), {"type": "a3", "card": "A1", "target": "B1"})
    assert after["cards"]["A1"]["gems"] == 0


def test_rulebook_revive_needs_5_displayed():
    state = start()
    state["teams"][0]["active"][1] = None  # stage A2 as fallen
    state["teams"][0]["fallen"].append("A2")
    state["cards"]["A2"]["hp"] = 0
    refused(give(state, "A1", gems=3), {"type": "revive", "card": "A1", "target": "A2"}, "gems-short")
    after, events = act(give(state, "A1", gems=4), {"type": "revive", "card": "A1", "target": "A2"})
    assert after["cards"]["A1"]["gems"] == 0
    assert events[0]["cost"] == 4


def test_a1_is_free_and_stack_adds_one_using_the_move():
    state = start()
    state, events = act(state, {"type": "stack", "card": "A1"})
    assert state["cards"]["A1"]["gems"] == 1 and events[0]["shown"] == 2
    refused(state, {"type": "stack", "card": "A1"}, "already-moved")
    state, _ = act(state, {"type": "a1", "card": "A2", "target": "B1"})
    assert state["cards"]["A2"]["gems"] == 0


def test_raided_gems_pay_for_moves_after_the_card_own_stack():
    state = start()
    state["teams"][0]["raided"] = 3
    state = give(state, "A1", gems=1)
    state, events = act(state, {"type": "a3", "card": "A1", "target": "B1"})
    assert (events[0]["from_stack"], events[0]["from_raided"]) == (1, 2)
    assert state["teams"][0]["raided"] == 1


def test_a_card_falling_with_a_stack_is_raided_by_the_opponent():
    state = give(start(), "B1", gems=3, hp=50)
    state, events = act(state, {"type": "a1", "card": "A1", "target": "B1"})
    fall = events_of(events, "fall")[0]
    assert (fall["card"], fall["by"], fall["raided"]) == ("B1", "A1", 3)
    assert state["teams"][0]["raided"] == 3
    assert "B1" in state["teams"][1]["fallen"]
    assert state["cards"]["A1"]["record"]["knockouts"] == 1


def test_raided_gems_carry_across_rounds():
    state = start()
    state["teams"][0]["raided"] = 2
    for move in [("A1", "B1"), ("A2", "B1"), ("A3", "B1"), ("B1", "A1"), ("B2", "A1"), ("B3", "A1")]:
        state, _ = act(state, {"type": "a1", "card": move[0], "target": move[1]})
    assert state["round"] == 2 and state["teams"][0]["raided"] == 2


def test_deposit_moves_one_raided_gem_per_tap_at_no_move_cost():
    state = start()
    state["teams"][0]["raided"] = 2
    state, _ = act(state, {"type": "a1", "card": "A1", "target": "B1"})
    state, events = act(state, {"type": "deposit", "card": "A1"})  # even onto a card that has moved
    assert (events[0]["card"], events[0]["shown"], events[0]["raided"]) == ("A1", 2, 1)
    state, _ = act(state, {"type": "deposit", "card": "A2"})
    assert state["teams"][0]["raided"] == 0
    assert "A2" not in state["done"]  # depositing used no move
    refused(state, {"type": "deposit", "card": "A2"}, "raided-empty")


def test_deposit_is_refused_outside_your_possession():
    state = start()
    state["teams"][1]["raided"] = 1
    refused(state, {"type": "deposit", "card": "B1"}, "out-of-possession")


# ---------------------------------------------------------------- moves


def test_shift_swaps_with_the_reserve_and_keeps_gems():
    state = start(config={"size": 6})
    state = give(state, "A1", gems=2)
    state, events = act(state, {"type": "shift", "card": "A1", "reserve": "A5"})
    team = state["teams"][0]
    assert team["active"] == ["A5", "A2", "A3"] and team["reserve"] == ["A4", "A1", "A6"]
    assert state["cards"]["A1"]["gems"] == 2  # the stack travels with the card
    error = refused(state, {"type": "a1", "card": "A5", "target": "B1"}, "already-arrived")
    assert "just shifted in" in str(error)
    refused(state, {"type": "shift", "card": "A2", "reserve": "B4"}, "shift-reserve")


def test_spc_boosts_one_stat_by_spc_over_10_once():
    state = start(a=side("Ace", spd=120, spc=155))
    state, events = act(state, {"type": "spc", "card": "A1", "stat": "atk"})
    assert events[0]["amount"] == 16  # 15.5 rounds half up
    assert stat(state["cards"]["A1"], "atk") == 316
    state, _ = act(state, {"type": "spc", "card": "A2", "stat": "hp"})
    assert state["cards"]["A2"]["hp"] == 1016
    refused(state, {"type": "spc", "card": "A3", "stat": "spc"}, "spc-stat")
    state["done"].pop("A1")
    refused(state, {"type": "spc", "card": "A1", "stat": "def"}, "spc-used")


def test_revive_returns_a_fallen_ally_to_reserve_at_half_hp_risen():
    state = start(config={"size": 6})
    state = give(state, "A4", hp=0)
    state["teams"][0]["reserve"].remove("A4")
    state["teams"][0]["fallen"].append("A4")
    refused(give(state, "A1", gems=4), {"type": "revive", "card": "A1", "target": "A2"}, "revive-not-fallen")
    refused(give(state, "A1", gems=4), {"type": "revive", "card": "A1", "target": "B1"}, "revive-not-fallen")
    state, events = act(give(state, "A1", gems=4), {"type": "revive", "card": "A1", "target": "A4"})
    revived = state["cards"]["A4"]
    assert (revived["hp"], revived["risen"]) == (500, True)
    assert state["teams"][0]["reserve"][-1] == "A4"
    assert state["cards"]["A1"]["record"]["revives"] == 1


def test_a_revived_card_with_an_odd_max_hp_returns_with_half_rounded_up():
    state = start(a=[card("Ace1", spd=120), card("Ace2", spd=120, hp=999), card("Ace3", spd=120)])
    state = give(state, "A2", hp=0)
    state["teams"][0]["active"][1] = None
    state["teams"][0]["fallen"].append("A2")
    state, _ = act(give(state, "A1", gems=4), {"type": "revive", "card": "A1", "target": "A2"})
    assert state["cards"]["A2"]["hp"] == revived_hp(state["cards"]["A2"]) == 500


@pytest.mark.parametrize("chance", [10, 55, 110, 555, 999])
def test_a_percentile_roll_lands_on_the_faces_up_to_top_face(chance):
    """What the board shows before an A2 or A3 ("1–5 (5.5%)") is the face the engine's roll lands on."""
    top = top_face(chance)
    assert roll_against(rules.Dice(SEED, 1, [top]), chance, "test")["hit"]
    assert not roll_against(rules.Dice(SEED, 1, [top + 1]), chance, "test")["hit"]


@pytest.mark.parametrize("revivable", [False, True])
def test_a_risen_card_is_revived_again_only_when_the_option_says_so(revivable):
    state = start(config={"size": 6, "risen_revivable": revivable})
    state = give(state, "A4", hp=0, risen=True)
    state = give(state, "A1", gems=4)
    state["teams"][0]["reserve"].remove("A4")
    state["teams"][0]["fallen"].append("A4")
    action = {"type": "revive", "card": "A1", "target": "A4"}
    if revivable:
        assert act(state, action)[0]["cards"]["A4"]["hp"] == 500
        assert action in GAME.legal_actions(state)
    else:
        refused(state, action, "revive-risen")
        assert action not in GAME.legal_actions(state)


def test_a_revived_card_fills_an_empty_slot_at_once():
    state = start()
    state = give(state, "A2", hp=0)
    state["teams"][0]["active"][1] = None
    state["teams"][0]["fallen"].append("A2")
    state, events = act(give(state, "A1", gems=4), {"type": "revive", "card": "A1", "target": "A2"})
    assert state["teams"][0]["active"][1] == "A2" and state["done"]["A2"] == "arrived"


def test_a_fallen_card_is_replaced_from_the_reserve():
    state = give(start(config={"size": 6}), "B2", hp=10)
    state, events = act(state, {"type": "a1", "card": "A1", "target": "B2"})
    assert [(e["card"], e["slot"]) for e in events_of(events, "enter")] == [("B4", 1)]
    assert state["teams"][1]["active"] == ["B1", "B4", "B3"]


# ---------------------------------------------------------------- possession


def test_the_team_with_the_fastest_active_card_has_possession():
    state = start(a=[card("Slow1", spd=10), card("Slow2", spd=10), card("Quick", spd=90)],
                  b=side("Bee", spd=80))
    assert state["possession"] == 0 and state["round"] == 1
    refused(state, {"type": "a1", "card": "B1", "target": "A1"}, "out-of-possession")


def test_possession_passes_once_every_active_card_has_moved_then_a_new_round_starts():
    state = start()
    state, _ = act(state, {"type": "a1", "card": "A1", "target": "B1"})
    state, _ = act(state, {"type": "stack", "card": "A2"})
    assert state["possession"] == 0
    state, events = act(state, {"type": "a1", "card": "A3", "target": "B1"})
    assert state["possession"] == 1 and events_of(events, "possession") == [
        {"type": "possession", "seat": 1, "round": 1}]
    for card_id in ("B1", "B2", "B3"):
        state, events = act(state, {"type": "a1", "card": card_id, "target": "A1"})
    assert state["round"] == 2 and state["possession"] == 0
    assert events_of(events, "round")[0]["decided_by"] == "spd"


def test_spd_tie_goes_to_a_coin_flip_from_the_seed_in_round_1_then_alternates():
    firsts = set()
    for seed in [f"tie-{n}" for n in range(12)]:
        state = start(a=side("Ace", spd=50), b=side("Bee", spd=50), seed=seed)
        assert state == start(a=side("Ace", spd=50), b=side("Bee", spd=50), seed=seed)  # replay agrees
        firsts.add(state["order"][0])
        first = state["order"][0]
        for seat in (first, 1 - first):
            for card_id in state["teams"][seat]["active"]:
                state, events = act(state, {"type": "stack", "card": card_id})
        assert state["order"][0] == 1 - first
        assert events_of(events, "round")[0]["decided_by"] == "alternate"
    assert firsts == {0, 1}


# ---------------------------------------------------------------- statuses and rolls


def test_rulebook_status_chances_and_strength():
    assert strength(1) == 55 and strength(3) == 165         # tier x 5.5%
    assert proc_chance("a2", 2) == 110                      # A2: tier x 5.5% = 11%
    assert proc_chance("a3", 2) == 220                      # A3: tier x 11% = 22%
    assert backfire_chance(3, 50) == 250                    # 30% - 5% = 25%
    assert backfire_chance(1, 500) == 10                    # 10% - 50% floors at 1%
    assert backfire_chance(1, 95) == 10                     # 10% - 9.5% = 0.5%, floors at 1%


def test_a1_never_rolls_for_status_or_backfire():
    state = start(a=side("Ace", spd=120, status="overcook", tier=9))
    _, events = act(state, {"type": "a1", "card": "A1", "target": "B1"}, rolls=[HIT, HIT])
    assert events[0]["backfire"] is None and events[0]["proc"] is None
    assert not events_of(events, "status")


def test_an_a2_proc_puts_the_status_on_the_target_with_the_working():
    state = give(start(a=side("Ace", spd=120, status="undershock", tier=2, spc=300)), "A1", gems=2)
    state, events = act(state, {"type": "a2", "card": "A1", "target": "B1"}, rolls=[MISS, 11])
    attack = events[0]
    assert attack["backfire"] == {"chance": "1", "roll": 100, "hit": False}   # 20% - 30% floors at 1%
    assert attack["proc"] == {"chance": "11", "roll": 11, "hit": True}        # 2 x 5.5% = 11%, roll 11 lands
    assert state["cards"]["B1"]["status"]["name"] == "undershock"
    assert state["cards"]["A1"]["record"]["statuses"] == 1


def test_a_proc_roll_above_the_chance_misses():
    state = give(start(a=side("Ace", spd=120, status="overcook", tier=2)), "A1", gems=2)
    state, events = act(state, {"type": "a2", "card": "A1", "target": "B1"}, rolls=[MISS, 12])
    assert events[0]["proc"]["hit"] is False and state["cards"]["B1"]["status"] is None


def test_a3_doubles_the_proc_chance():
    state = give(start(a=side("Ace", spd=120, status="overcook", tier=2)), "A1", gems=3)
    _, events = act(state, {"type": "a3", "card": "A1", "target": "B1"}, rolls=[MISS, 22])
    assert events[0]["proc"] == {"chance": "22", "roll": 22, "hit": True}


def test_a_backfire_puts_the_status_on_the_attacker_and_the_damage_still_lands():
    state = give(start(a=side("Ace", spd=120, status="brainlock", tier=3, spc=50)), "A1", gems=2)
    state, events = act(state, {"type": "a2", "card": "A1", "target": "B1"}, rolls=[25])
    assert events[0]["backfire"] == {"chance": "25", "roll": 25, "hit": True}
    assert events[0]["proc"] is None  # no proc roll after a backfire
    assert state["cards"]["A1"]["status"]["name"] == "brainlock"
    assert state["cards"]["B1"]["hp"] == 1000 - 198
    assert state["cards"]["A1"]["record"]["statuses"] == 0


def test_app_rolls_are_seeded_and_replay():
    state = give(start(a=side("Ace", spd=120, status="overcook", tier=5)), "A1", gems=2)
    action = {"type": "a2", "card": "A1", "target": "B1"}
    first = act(state, action, step=7)
    assert first == act(state, action, step=7)


def test_an_entered_roll_out_of_range_is_refused():
    state = give(start(a=side("Ace", spd=120, status="overcook")), "A1", gems=2)
    refused(state, {"type": "a2", "card": "A1", "target": "B1"}, "die-value", rolls=[101])


def _with_status(state, card_id, name, turns, tier=2, source="A1"):
    state = copy.deepcopy(state)
    state["cards"][card_id]["status"] = {"name": name, "strength": strength(tier), "turns": turns,
                                         "source": source, "fresh": False, "ticks": 0}
    return state


def _pass_possession(state, seat):
    """Every active card of `seat` stacks: its possession ends."""
    for card_id in state["teams"][seat]["active"]:
        if card_id and card_id not in state["done"]:
            state, events = act(state, {"type": "stack", "card": card_id})
    return state, events


def test_overcook_burns_at_the_end_of_each_own_possession_for_its_turns():
    state = _with_status(start(), "B1", "overcook", turns=3, tier=2)  # 11% of 1000 = 110 a tick
    state, _ = _pass_possession(state, 0)
    for expected_hp, turns_left in ((890, 2), (780, 1), (670, None)):
        state, events = _pass_possession(state, 1)
        tick = events_of(events, "tick")[0]
        assert (tick["hp_lost"], tick["hp"], tick["turns_left"]) == (110, expected_hp, turns_left)
        state, _ = _pass_possession(state, 0)
    assert state["cards"]["B1"]["status"] is None
    assert state["cards"]["A1"]["record"]["damage"] == 330  # the burn counts for the card that lit it


def test_undershock_cuts_spd_def_and_atk_by_its_strength():
    state = start(b=side("Bee", spd=80, **{"def": 400}))
    shocked = _with_status(state, "B1", "undershock", turns=3, tier=2)["cards"]["B1"]
    assert (stat(shocked, "spd"), stat(shocked, "def"), stat(shocked, "atk")) == (71, 356, 267)


def test_brainlock_allows_a1_only_for_two_possessions():
    state = _with_status(start(), "B1", "brainlock", turns=2)
    state, _ = _pass_possession(state, 0)
    for _ in range(2):
        b1_moves = {a["type"] for a in GAME.legal_actions(state) if a.get("card") == "B1"}
        assert b1_moves == {"a1"}
        refused(give(state, "B1", gems=3), {"type": "a2", "card": "B1", "target": "A1"}, "brainlock")
        state, _ = act(state, {"type": "a1", "card": "B1", "target": "A1"})
        state, _ = _pass_possession(state, 1)
        state, _ = _pass_possession(state, 0)
    assert state["cards"]["B1"]["status"] is None
    assert "stack" in {a["type"] for a in GAME.legal_actions(state) if a.get("card") == "B1"}


def test_gridfreeze_skips_the_card_next_possession():
    state = _with_status(start(), "B2", "gridfreeze", turns=1)
    state, events = _pass_possession(state, 0)
    assert [e["card"] for e in events_of(events, "frozen")] == ["B2"]
    refused(state, {"type": "a1", "card": "B2", "target": "A1"}, "already-frozen")
    state, _ = _pass_possession(state, 1)
    state, _ = _pass_possession(state, 0)
    assert "B2" not in state["done"]


def test_a_backfired_gridfreeze_skips_the_attacker_next_possession_not_this_one():
    state = give(start(a=side("Ace", spd=120, status="gridfreeze", tier=5)), "A1", gems=2)
    state, _ = act(state, {"type": "a2", "card": "A1", "target": "B1"}, rolls=[HIT])
    state, _ = _pass_possession(state, 0)
    state, events = _pass_possession(state, 1)
    assert [e["card"] for e in events_of(events, "frozen")] == ["A1"]


def test_souldrift_fades_stats_and_drains_more_each_time_until_the_card_falls():
    state = _with_status(start(), "B1", "souldrift", turns=None, tier=2)  # 11%
    state, _ = _pass_possession(state, 0)
    lost = []
    while "B1" not in state["teams"][1]["fallen"]:
        state, events = _pass_possession(state, 1)
        lost += [tick["hp_lost"] for tick in events_of(events, "tick")]
        if "B1" in state["teams"][1]["fallen"]:
            break
        state, _ = _pass_possession(state, 0)
    assert lost == [110, 220, 330, 340]  # 11%, 22%, 33% of 1000, then the last 340 HP
    assert state["cards"]["A1"]["record"]["knockouts"] == 1


def test_souldrift_fades_the_stats():
    state = _with_status(start(), "B1", "souldrift", turns=None, tier=2)
    state, _ = _pass_possession(state, 0)
    state, _ = _pass_possession(state, 1)
    assert (stat(state["cards"]["B1"], "atk"), stat(state["cards"]["B1"], "spd")) == (300 - 33, 80 - 9)


def test_a_new_status_replaces_the_old_one():
    state = _with_status(give(start(a=side("Ace", spd=120, status="gridfreeze")), "A1", gems=2),
                         "B1", "overcook", turns=3)
    state, events = act(state, {"type": "a2", "card": "A1", "target": "B1"}, rolls=[MISS, HIT])
    assert events_of(events, "status")[0]["replaced"] == "overcook"
    assert state["cards"]["B1"]["status"]["name"] == "gridfreeze"


# ---------------------------------------------------------------- end and MVPs


def test_the_match_ends_when_every_card_of_a_side_has_fallen_with_top_3_mvps():
    state = start(a=[card("Ace1", spd=120, atk=9999), card("Ace2", atk=9999), card("Ace3", atk=9999)])
    state = give(state, "A2", gems=2)
    state, _ = act(state, {"type": "a1", "card": "A1", "target": "B1"})
    state, _ = act(state, {"type": "a2", "card": "A2", "target": "B2"}, rolls=[MISS])
    state, events = act(state, {"type": "a1", "card": "A3", "target": "B3"})
    won = events_of(events, "match_won")[0]
    assert GAME.outcome(state) == rules.Outcome(winner=0, score="3-0")
    assert [mvp["card"] for mvp in won["mvps"]] == ["A1", "A2", "A3"]  # equal scores: lineup order
    assert won["mvps"][0]["score"] == 1000 + 100
    assert GAME.legal_actions(state) == []
    refused(state, {"type": "a1", "card": "A1", "target": "B1"}, "match-over")


def test_performance_counts_damage_knockouts_statuses_and_revives():
    fighter = {"record": {"damage": 250, "knockouts": 2, "statuses": 1, "revives": 1}}
    assert performance(fighter) == 250 + 200 + 25 + 50


# ---------------------------------------------------------------- set-up and bad input


def test_lineups_are_hidden_until_both_are_locked():
    state = GAME.new_match({"size": 3}, SEED)
    lock = {"type": "lock_lineup", "seat": 0, "cards": side("Ace")}
    state, events = act(state, lock)
    assert GAME.public_action(state, lock) == {"type": "lock_lineup", "seat": 0}
    assert GAME.legal_actions(state) == [{"type": "lock_lineup", "seat": 1}]
    refused(state, {"type": "a1", "card": "A1", "target": "B1"}, "lineups-first")
    refused(state, lock, "already-locked")
    state, _ = act(state, {"type": "lock_lineup", "seat": 1, "cards": side("Bee")})
    assert GAME.public_action(state, lock) == lock


@pytest.mark.parametrize("size", [3, 6, 9])
def test_match_sizes_put_3_active_and_the_rest_in_reserve(size):
    state = start(config={"size": size})
    assert len(state["teams"][0]["active"]) == 3 and len(state["teams"][1]["reserve"]) == size - 3


def test_bad_lineups_are_refused():
    state = GAME.new_match({"size": 3}, SEED)
    refused(state, {"type": "lock_lineup", "seat": 0, "cards": side("Ace", 2)}, "lineup-size")
    refused(state, {"type": "lock_lineup", "seat": 0, "cards": [card("X"), card("x"), card("Y")]}, "lineup-unique")
    refused(state, {"type": "lock_lineup", "seat": 2, "cards": side("Ace")}, "seat")
    with pytest.raises(InvalidCard):
        GAME.apply(state, {"type": "lock_lineup", "seat": 0, "cards": [card("X", hp=0), *side("Y", 2)]},
                   rules.Dice(SEED, 1))


@pytest.mark.parametrize("stats, rule", [
    ({"def": 1000}, "card-stat-range"), ({"hp": 0}, "card-stat-range"), ({"spd": -1}, "card-stat-range"),
    ({"tier": 10}, "card-stat-range"), ({"atk": "many"}, "card-stat-type"), ({"status": "sleep"}, "card-status"),
    ({"name": ""}, "card-name"),
])
def test_cards_out_of_range_are_refused(stats, rule):
    with pytest.raises(InvalidCard) as error:
        GAME.validate_card({**card("Card"), **stats})
    assert error.value.rule == rule


@pytest.mark.parametrize("config, rule", [
    ({"size": 5}, "config-size"), ({"type_names": ["A"] * 10}, "config-type-names"),
    ({"overcook_turns": 0}, "config-turns"), ({"who_rolls": "dog"}, "config-who-rolls"),
    ({"colour": "red"}, "config-unknown"),
])
def test_bad_options_are_refused(config, rule):
    with pytest.raises(InvalidConfig) as error:
        GAME.new_match(config, SEED)
    assert error.value.rule == rule


def test_bad_moves_are_refused_naming_the_rule():
    state = start()
    refused(state, {"type": "a1", "card": "A9", "target": "B1"}, "card-unknown")
    refused(state, {"type": "a1", "card": "A1", "target": "A2"}, "target")
    refused(state, {"type": "a1", "card": "A1"}, "card-unknown")
    refused(state, {"type": "dance", "card": "A1"}, "action-unknown")
    refused(state, "a1", "action-unknown")


# ---------------------------------------------------------------- whole matches


def random_card(rng, name):
    return {"name": name, "spd": rng.randint(0, 300), "hp": rng.randint(50, 900), "def": rng.randint(0, 700),
            "atk": rng.randint(0, 500), "spc": rng.randint(0, 400), "type1": rng.randint(1, 10),
            "type2": rng.randint(1, 10), "tier": rng.randint(1, 9),
            "status": rng.choice(["none", "overcook", "undershock", "brainlock", "gridfreeze", "souldrift"])}


def play_random_match(seed: int):
    """A 9v9 match played to the end by random legal moves; returns (log, final state)."""
    rng = random.Random(seed)
    match_seed = f"fuzz-{seed}"
    config = {"size": 9, "risen_revivable": bool(seed % 2)}
    state = GAME.new_match(config, match_seed)
    log = []

    def play(action, entered=()):
        dice = rules.Dice(match_seed, len(log) + 1, list(entered))
        new_state, _ = GAME.apply(state, action, dice)
        log.append((action, [roll["value"] for roll in dice.rolls if roll["by"] == "player"]))
        return new_state

    for seat in (0, 1):
        state = play({"type": "lock_lineup", "seat": seat, "cards": [random_card(rng, f"S{seat}C{n}") for n in range(9)]})
    while GAME.outcome(state) is None:
        legal = GAME.legal_actions(state)
        assert legal, f"seed {seed}: no legal action at step {len(log)}"
        entered = [rng.randint(1, 100) for _ in range(2)] if rng.random() < 0.2 else []
        state = play(rng.choice(legal), entered)
        assert len(log) < 5000, f"seed {seed}: no end after 5000 steps"
    return match_seed, config, log, state


def replay(match_seed, config, log):
    state = GAME.new_match(config, match_seed)
    for step, (action, entered) in enumerate(log, start=1):
        state, _ = GAME.apply(state, action, rules.Dice(match_seed, step, entered))
    return state


@pytest.mark.parametrize("seed", range(30))
def test_random_9v9_matches_end_and_replay_from_their_log(seed):
    match_seed, config, log, final = play_random_match(seed)
    assert replay(match_seed, config, log) == final, f"seed {seed} does not replay"
    winner = GAME.outcome(final).winner
    assert not [c for c in final["cards"].values() if c["seat"] == 1 - winner and c["hp"] > 0], f"seed {seed}"


# ---------------------------------------------------------------- manual overrides (overrides.py)


def adjust(**fields):
    return {"type": "adjust", "override": True, **fields}


def test_an_override_sets_a_card_hp_and_gems_without_using_a_move_or_passing_possession():
    state, events = act(start(), adjust(card="B2", hp=420))
    assert state["cards"]["B2"]["hp"] == 420
    assert events == [{"type": "adjusted", "seat": 1, "card": "B2", "card_name": "Bee2", "what": "hp",
                       "before": 1000, "after": 420}]
    state, _ = act(state, adjust(card="A1", gems=4))
    assert state["cards"]["A1"]["gems"] == 4
    assert state["possession"] == 0 and state["done"] == {}


def test_an_override_sets_a_team_raided_pool():
    state, events = act(start(), adjust(seat=1, raided=3))
    assert state["teams"][1]["raided"] == 3
    assert (events[0]["what"], events[0]["before"], events[0]["after"]) == ("raided", 0, 3)


def test_setting_hp_to_0_makes_the_card_fall_its_stack_raided_by_nobody():
    state = give(start(config={"size": 6}), "B1", gems=2)
    state, events = act(state, adjust(card="B1", hp=0))
    fall = events_of(events, "fall")[0]
    assert (fall["card"], fall["by"], fall["raided"]) == ("B1", None, 2)
    assert state["teams"][0]["raided"] == 2 and "B1" in state["teams"][1]["fallen"]
    assert state["teams"][1]["active"][0] == "B4", "the reserve card steps in"


def test_setting_a_reserve_card_to_0_hp_makes_it_fall_from_the_reserve():
    # Found by the AI's engine trace: this raised ValueError (a 500 on the board) instead.
    state = give(start(config={"size": 6}), "B5", gems=1)
    state, events = act(state, adjust(card="B5", hp=0))
    assert events_of(events, "fall")[0]["raided"] == 1 and state["teams"][0]["raided"] == 1
    assert state["teams"][1]["reserve"] == ["B4", "B6"] and state["teams"][1]["fallen"] == ["B5"]
    assert state["teams"][1]["active"] == ["B1", "B2", "B3"]


def test_setting_the_last_card_to_0_hp_ends_the_match():
    state = start()
    for card_id in ("B1", "B2"):
        state, _ = act(state, adjust(card=card_id, hp=0))
    state, events = act(state, adjust(card="B3", hp=0))
    assert state["winner"] == 0 and events_of(events, "match_won")


def test_adjusting_the_last_unmoved_card_to_0_passes_possession():
    state = start()
    for card_id in ("A1", "A2"):
        state, _ = act(state, {"type": "stack", "card": card_id})
    state, _ = act(state, adjust(card="A3", hp=0))
    assert state["possession"] == 1


@pytest.mark.parametrize("action, rule", [
    ({"type": "adjust", "card": "A1", "hp": 10}, "override-only"),
    ({"type": "adjust", "override": "yes", "card": "A1", "hp": 10}, "override-only"),
    (adjust(card="A1", hp=1001), "adjust-range"),
    (adjust(card="A1", hp=-1), "adjust-range"),
    (adjust(card="A1", hp=True), "adjust-range"),
    (adjust(card="A1", gems=100), "adjust-range"),
    (adjust(card="A1", gems="3"), "adjust-range"),
    (adjust(seat=0, raided=100), "adjust-range"),
    (adjust(seat=2, raided=1), "seat"),
    (adjust(card="C1", hp=10), "card-unknown"),
    (adjust(card="A1"), "adjust-what"),
])
def test_a_wrong_override_is_refused_and_changes_nothing(action, rule):
    refused(start(), action, rule)


def test_hp_may_be_set_up_to_max_hp_including_an_spc_boost():
    state = give(start(), "A1", boost={"hp": 50})
    state, _ = act(state, adjust(card="A1", hp=1050))
    assert state["cards"]["A1"]["hp"] == 1050
    refused(state, adjust(card="A1", hp=1051), "adjust-range")


def test_a_fallen_card_cannot_be_adjusted():
    state, _ = act(start(), adjust(card="B1", hp=0))
    refused(state, adjust(card="B1", hp=100), "adjust-fallen")
    refused(state, adjust(card="B1", gems=1), "adjust-fallen")


def test_overrides_wait_for_both_lineups():
    state = GAME.new_match({"size": 3}, SEED)
    refused(state, adjust(seat=0, raided=1), "lineups-first")


# ---------------------------------------------------------------- the state copy (match._copy)


def random_matches():
    """Whole random matches of every size, every kind of move, status tick, fall, revive and override
    among them: (state, action, rolls, seed, step) for each move tried, before `act` makes it (which
    checks that apply left the state it was given as it was) and the match goes on."""
    for number, size in enumerate((3, 6, 9)):
        seed, rng = f"copy-{number}", random.Random(number)
        state = GAME.new_match({"size": size, "risen_revivable": number % 2 == 1}, seed)
        cards = [card(f"Card {n}", tier=rng.randint(1, 9), spc=rng.randint(0, 300), type1=rng.randint(1, 10),
                      type2=rng.randint(1, 10), status=rng.choice([*rules.cardmaster.STATUSES, "none"]))
                 for n in range(2 * size)]
        state, _ = act(state, {"type": "lock_lineup", "seat": 0, "cards": cards[:size]}, seed=seed)
        state, _ = act(state, {"type": "lock_lineup", "seat": 1, "cards": cards[size:]}, seed=seed, step=2)
        step = 3
        while state["winner"] is None and step < 1500:
            action = rng.choice(GAME.legal_actions(state))
            if rng.random() < 0.02:
                action = adjust(card=rng.choice(list(state["cards"])), hp=rng.randint(0, 40))
            rolls = [rng.randint(1, 100)] * rng.randint(0, 2)
            yield state, action, rolls, seed, step
            with contextlib.suppress(IllegalAction):
                state, _ = act(state, action, rolls=rolls, seed=seed, step=step)
            step += 1
        assert state["winner"] is not None


def test_apply_leaves_the_state_it_is_given_unchanged_through_whole_random_matches():
    # apply copies only what a move can change and shares the options and printed stats (match._copy):
    # `act`, inside random_matches, checks each move's input afterwards.
    assert sum(1 for _move in random_matches()) > 100


def test_a_line_of_moves_made_in_place_on_an_own_copy_is_the_match_apply_makes():
    # The AI's play-ons (ai/tree.py) make their moves one after the other on one own_copy of a position with
    # apply_here, and ask legal_actions for one card's moves: each must be exactly what apply and the whole
    # list give, and the line must never change a card it shares with the positions it came from.
    line = None
    for state, action, rolls, seed, step in random_matches():
        if step == 3:  # a new match
            line = match.own_copy(state)
        assert line == state
        listed = GAME.legal_actions(state)
        for mover in {move.get("card") for move in listed}:
            assert match.legal_actions(state, mover) == [move for move in listed if move.get("card") == mover]
        before = copy.deepcopy(state)
        try:
            expected = GAME.apply(state, action, rules.Dice(seed, step, list(rolls)))
        except IllegalAction as refusal:
            with pytest.raises(IllegalAction) as error:
                match.apply_here(match.own_copy(state), action, rules.Dice(seed, step, list(rolls)))
            assert error.value.rule == refusal.rule
            continue
        events = match.apply_here(line, action, rules.Dice(seed, step, list(rolls)))
        assert (line, events) == expected
        assert state == before
