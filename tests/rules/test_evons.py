"""Evons rules: the rulebook's and notes' worked examples (numbered as below), each
ability, the turn, bad input, and random legal games replayed from their logs.

Worked examples, as the rule pages give them:
    1  Conflict damage is simultaneous: each DEF drops by the other card's ATK.
    2  An active card destroyed mid-sequence ends it; a chain returns to the card before.
    3  Damage carries over from one conflict to the next, in the order the player picks.
    4  Flips happen only after the active card survived all its conflicts.
    5  Flipping does not use up an ability arrow.
    6  Magnetism: a card on B3 targeting D3 may pull from C3, E3, D2 or D4.
    7  Resurrection: a cost-6 card may revive cost 4 + cost 2, but not cost 3 + cost 4.
    8  The board filling mid-chain ends the game at once and scores the board as it is.
"""

import copy
import json
import random

import pytest

import rules
from rules import Dice, IllegalAction, InvalidCard, InvalidConfig
from rules.evons import GAME, validate_card
from rules.evons.abilities import storm_cells
from rules.evons.board import MAIN_ZONE
from rules.evons.pieces import BLOCK_CARD, arrows_now, find, place, scores

ANA, BEN = 0, 1


def monster(name, atk, def_, arrows, cost=2, element="Fire"):
    return validate_card(
        {
            "name": name,
            "kind": "monster",
            "cost": cost,
            "element": element,
            "atk": atk,
            "def": def_,
            "arrows": arrows,
        }
    )


TURNED = {"N": "S", "NE": "SW", "E": "W", "SE": "NW", "S": "N", "SW": "NE", "W": "E", "NW": "SE"}


def bens(name, atk, def_, arrows, **stats):
    """A card of Ben's, given by where its arrows point on the board. Ben sits at the top of the
    board, so his cards face down it: each is printed the other way round (a 180-degree turn)."""
    return monster(name, atk, def_, {TURNED[direction]: ability for direction, ability in arrows.items()}, **stats)


def new(config=None):
    """A fresh game at Ana's first play step (turn 1)."""
    state = GAME.new_match(config or {}, "seed")
    assert state["step"] == "play" and state["seat"] == ANA
    return state


def put(state, cell, card, seat, covered=False, growth=False):
    """Lay a card on the board directly, as if played on an earlier turn."""
    return place(state, cell, card, seat, covered=covered, growth=growth)


def act(state, action, step=1):
    """Apply an action for the player whose turn it is; returns (state, events)."""
    action = {"seat": state["seat"], **action}
    return GAME.apply(state, action, Dice("seed", step))


def refused(state, action, rule):
    """The action is refused for `rule`, and the state passed in is unchanged."""
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as error:
        act(state, action)
    assert error.value.rule == rule, error.value
    assert state == before
    return error.value


def piece(state, cell):
    return state["cells"].get(cell)


def current_def(state, cell):
    p = state["cells"][cell]
    return p["card"]["def"] - p["damage"]


def events_of(events, kind):
    return [e for e in events if e["type"] == kind]


EMBER = monster("Ember", 4, 5, {"E": "Normal"})
MOSS = bens("Moss", 3, 6, {"W": "Normal"})
PUP = monster("Pup", 1, 2, {"N": "Normal"})


# 1 ----------------------------------------------------------------------------------
def test_example_1_conflict_damage_is_simultaneous():
    state = new()
    put(state, "C3", MOSS, BEN)
    state, events = act(state, {"type": "play", "cell": "B3", "covered": False, "card": EMBER})
    assert state["stack"][-1]["phase"] == "conflicts"
    assert GAME.legal_actions(state) == [{"type": "conflict", "seat": ANA, "target": "C3"}]
    state, events = act(state, {"type": "conflict", "target": "C3"})
    [conflict] = events_of(events, "conflict")
    assert conflict["before"] == [5, 6] and conflict["after"] == [2, 2]  # Ember 5 -> 2, Moss 6 -> 2
    # Both survive, both damaged; neither struck first. Nothing left to do: the turn passes to Ben.
    assert state["seat"] == BEN


def test_example_1_both_cards_can_fall_at_once():
    state = new()
    put(state, "C3", bens("Twin", 5, 4, {"W": "Normal"}), BEN)
    state, _ = act(
        state,
        {"type": "play", "cell": "B3", "covered": False, "card": monster("Ember", 4, 5, {"E": "Normal"})},
    )
    state, events = act(state, {"type": "conflict", "target": "C3"})
    destroyed = {e["cell"] for e in events_of(events, "destroyed")}
    assert destroyed == {"B3", "C3"}
    assert [c["name"] for c in state["players"][ANA]["graveyard"]] == ["Ember"]
    assert [c["name"] for c in state["players"][BEN]["graveyard"]] == ["Twin"]


# 2 ----------------------------------------------------------------------------------
def test_example_2_active_card_destroyed_mid_chain_returns_to_previous_card():
    state = new()
    quake = monster("Quake", 2, 5, {"S": "Shockwave", "E": "Shockwave"}, element="Earth")
    put(state, "B3", monster("Scout", 2, 3, {"E": "Normal"}), ANA)
    put(state, "C4", bens("Brute", 9, 9, {"W": "Normal"}), BEN)
    put(state, "C2", PUP, BEN)
    state, _ = act(state, {"type": "play", "cell": "B2", "covered": False, "card": quake})
    # Quake pushes Ana's own Scout from B3 to B4: Scout moved on Ana's turn, so it reactivates on top.
    state, events = act(state, {"type": "ability", "arrow": "S", "target": "B3"})
    assert [e["reason"] for e in events_of(events, "activation")] == ["moved"]
    assert len(state["stack"]) == 2 and find(state, state["stack"][-1]["id"]) == "B4"
    # Scout meets Brute head-on and is destroyed: its sequence ends, Quake carries on.
    state, events = act(state, {"type": "conflict", "target": "C4"})
    assert "B4" not in state["cells"]
    assert [e["why"] for e in events_of(events, "sequence_ended")] == ["destroyed"]
    assert len(state["stack"]) == 1 and state["stack"][0]["phase"] == "ability1"
    assert find(state, state["stack"][0]["id"]) == "B2"
    # Quake ends Phase 1; no conflict; it flips Pup on C2; Phase 2, then the turn ends.
    state, events = act(state, {"type": "next"})
    assert events_of(events, "flipped")[0]["cell"] == "C2"
    assert piece(state, "C2")["owner"] == ANA and state["stack"][0]["phase"] == "ability2"
    state, events = act(state, {"type": "next"})
    assert state["seat"] == BEN and state["stack"] == []


# 3 ----------------------------------------------------------------------------------
def _two_defenders():
    state = new()
    put(state, "C3", bens("Wolf", 1, 3, {"W": "Normal"}), BEN)
    put(state, "B4", bens("Bear", 4, 9, {"N": "Normal"}), BEN)
    knight = monster("Knight", 3, 3, {"E": "Normal", "S": "Normal"})
    state, _ = act(state, {"type": "play", "cell": "B3", "covered": False, "card": knight})
    assert sorted(a["target"] for a in GAME.legal_actions(state)) == ["B4", "C3"]
    return state


def test_example_3_damage_carries_over_in_the_order_chosen_wolf_first():
    state = _two_defenders()
    state, events = act(state, {"type": "conflict", "target": "C3"})
    assert events_of(events, "conflict")[0]["after"] == [2, 0]  # Knight 3 -> 2, Wolf destroyed
    assert current_def(state, "B3") == 2
    state, events = act(state, {"type": "conflict", "target": "B4"})
    # Knight enters the second conflict already at 2 DEF, and falls to Bear's 4 ATK.
    assert events_of(events, "conflict")[0]["before"] == [2, 9]
    assert events_of(events, "conflict")[0]["after"] == [0, 6]
    assert "B3" not in state["cells"] and "C3" not in state["cells"]


def test_example_3_the_other_order_leaves_wolf_standing():
    state = _two_defenders()
    state, events = act(state, {"type": "conflict", "target": "B4"})
    assert events_of(events, "conflict")[0]["after"] == [0, 6]
    assert len(events_of(events, "conflict")) == 1  # the sequence ended: no second conflict
    assert piece(state, "C3")["card"]["name"] == "Wolf" and piece(state, "C3")["owner"] == BEN


def test_example_3_damage_carries_into_a_reactivation_the_same_turn():
    state = new()
    quake = monster("Quake", 1, 5, {"E": "Shockwave"}, element="Earth")
    put(state, "C3", monster("Scout", 2, 6, {"S": "Normal"}), ANA)
    put(state, "D4", bens("Wolf", 3, 9, {"N": "Normal"}), BEN)
    put(state, "B4", bens("Pike", 2, 9, {"N": "Normal", "E": "Normal"}), BEN)
    # Scout on C3 is damaged earlier this turn (an override stands in for an earlier conflict).
    state, _ = GAME.apply(
        state, {"type": "adjust", "override": True, "cell": "C3", "def": 4}, Dice("seed", 1)
    )
    state, _ = act(state, {"type": "play", "cell": "B3", "covered": False, "card": quake})
    state, events = act(state, {"type": "ability", "arrow": "E", "target": "C3"})  # Scout -> D3, reactivates
    state, events = act(state, {"type": "conflict", "target": "D4"})
    assert events_of(events, "conflict")[0]["before"] == [4, 9]


# 4 ----------------------------------------------------------------------------------
def test_example_4_no_flip_when_the_active_card_falls():
    state = new()
    put(state, "C3", PUP, BEN)
    put(state, "B2", bens("Bear", 9, 9, {"S": "Normal"}), BEN)
    state, _ = act(
        state,
        {
            "type": "play",
            "cell": "B3",
            "covered": False,
            "card": monster("Knight", 3, 3, {"E": "Normal", "N": "Normal"}),
        },
    )
    state, events = act(state, {"type": "conflict", "target": "B2"})
    assert events_of(events, "flipped") == []
    assert piece(state, "C3")["owner"] == BEN


def test_example_4_flip_after_surviving_and_defenders_are_not_flipped():
    state = new()
    put(state, "C3", PUP, BEN)
    put(state, "B2", bens("Mole", 1, 9, {"S": "Normal"}), BEN)
    state, _ = act(
        state,
        {
            "type": "play",
            "cell": "B3",
            "covered": False,
            "card": monster("Knight", 3, 3, {"E": "Normal", "N": "Normal"}),
        },
    )
    state, events = act(state, {"type": "conflict", "target": "B2"})
    assert [e["cell"] for e in events_of(events, "flipped")] == ["C3"]
    assert piece(state, "C3")["owner"] == ANA
    assert piece(state, "B2")["owner"] == BEN  # it defended its position: fought, never flipped
    assert scores(state) == [2, 1]


# 5 ----------------------------------------------------------------------------------
def test_example_5_flipping_does_not_use_up_the_ability_and_flipped_then_moved_reactivates():
    state = new()
    put(state, "C3", bens("Pup", 1, 2, {"S": "Normal"}), BEN)
    quake = monster("Quake", 2, 5, {"E": "Shockwave"}, element="Earth")
    state, _ = act(state, {"type": "play", "cell": "B3", "covered": False, "card": quake})
    state, events = act(state, {"type": "next"})  # Phase 1 left unused; Pup is flipped
    assert events_of(events, "flipped")[0]["cell"] == "C3"
    assert state["stack"][-1]["phase"] == "ability2"
    # The same Shockwave arrow is still there in Phase 2: push the flipped Pup to D3.
    state, events = act(state, {"type": "ability", "arrow": "E", "target": "C3"})
    assert piece(state, "D3")["card"]["name"] == "Pup" and piece(state, "D3")["owner"] == ANA
    # Flipped, then moved: Pup is Ana's face-up card that changed cell, so it reactivates.
    assert [e["reason"] for e in events_of(events, "activation")] == ["moved"]
    assert state["seat"] == BEN  # both sequences finished, the turn ended


def test_moved_then_flipped_reactivates_and_moving_an_opponent_card_does_not():
    state = new()
    volt = monster("Volt", 1, 5, {"E": "Magnetism"}, element="Electric")
    put(state, "C2", bens("Pup", 1, 2, {"N": "Normal"}), BEN)
    state, _ = act(state, {"type": "play", "cell": "B3", "covered": False, "card": volt})
    state, events = act(state, {"type": "ability", "arrow": "E", "target": "C3", "pull_from": "C2"})
    # Pulled while still Ben's: no reactivation. Volt's flip step then turns Pup (moved this
    # turn) to Ana, and only then does it reactivate.
    kinds = [e["type"] for e in events if e["type"] in ("moved", "flipped", "activation")]
    assert kinds == ["moved", "flipped", "activation"]
    assert events_of(events, "activation")[0]["reason"] == "moved-and-flipped"


# 6 ----------------------------------------------------------------------------------
def test_example_6_magnetism_pulls_from_the_cells_next_to_the_target():
    state = new({"reach": 2})
    volt = monster("Volt", 1, 5, {"E": "Magnetism"}, element="Electric")
    for cell in ("C3", "E3", "D2", "D4"):
        put(state, cell, monster(f"On {cell}", 0, 1, {}), BEN)
    state, _ = act(state, {"type": "play", "cell": "B3", "covered": False, "card": volt})
    pulls = sorted(
        a["pull_from"] for a in GAME.legal_actions(state) if a["type"] == "ability" and a["target"] == "D3"
    )
    assert pulls == ["C3", "D2", "D4", "E3"]
    after, events = act(state, {"type": "ability", "arrow": "E", "target": "D3", "pull_from": "D4"})
    assert after["cells"]["D3"]["card"]["name"] == "On D4" and "D4" not in after["cells"]


def test_example_6_magnetism_limits():
    state = new()  # reach 1: D3 is out of reach from B3
    volt = monster("Volt", 1, 5, {"E": "Magnetism", "S": "Magnetism"}, element="Electric")
    put(state, "D3", monster("Far", 0, 1, {}), BEN)
    put(state, "A4", dict(BLOCK_CARD), BEN)
    state, _ = act(state, {"type": "play", "cell": "B3", "covered": False, "card": volt})
    refused(state, {"type": "ability", "arrow": "E", "target": "D3", "pull_from": "D4"}, "out-of-reach")
    refused(state, {"type": "ability", "arrow": "S", "target": "B4", "pull_from": "B3"}, "magnetism-source")
    refused(state, {"type": "ability", "arrow": "S", "target": "B4", "pull_from": "A4"}, "magnetism-nothing")
    refused(state, {"type": "ability", "arrow": "S", "target": "B4", "pull_from": "C4"}, "magnetism-nothing")
    after, _ = act(state, {"type": "ability", "arrow": "E", "target": "C3", "pull_from": "D3"})
    assert after["cells"]["C3"]["card"]["name"] == "Far"


# 7 ----------------------------------------------------------------------------------
def _shade_with_graveyard(costs):
    state = new()
    for cost in costs:
        state["players"][ANA]["graveyard"].append(monster(f"Ghost {cost}", 1, 1, {}, cost=cost))
    shade = monster("Shade", 1, 5, {"N": "Resurrection", "S": "Resurrection"}, cost=6, element="Darkness")
    state, _ = act(state, {"type": "play", "cell": "C3", "covered": False, "card": shade})
    return state


def test_example_7_resurrection_revives_4_plus_2_with_cost_6():
    state = _shade_with_graveyard([4, 2, 3])
    state, events = act(state, {"type": "ability", "arrow": "N", "target": "C2", "grave": 0})
    assert piece(state, "C2")["card"]["name"] == "Ghost 4"
    assert [e["reason"] for e in events_of(events, "activation")] == ["revived"]  # it activates, on top
    grave = [c["name"] for c in state["players"][ANA]["graveyard"]].index("Ghost 2")
    state, events = act(state, {"type": "ability", "arrow": "S", "target": "C4", "grave": grave})
    assert piece(state, "C4")["card"]["name"] == "Ghost 2"


def test_example_7_resurrection_refuses_3_plus_4():
    state = _shade_with_graveyard([4, 2, 3])
    state, _ = act(state, {"type": "ability", "arrow": "N", "target": "C2", "grave": 2})  # cost 3
    error = refused(state, {"type": "ability", "arrow": "S", "target": "C4", "grave": 0}, "resurrection-cost")
    assert error.params["budget"] == 3
    refused(state, {"type": "ability", "arrow": "S", "target": "C4", "grave": "unknown"}, "grave-unknown")


def test_resurrection_only_from_own_graveyard_and_not_removed_cards():
    state = new()
    state["players"][BEN]["graveyard"].append(monster("Bens", 1, 1, {}, cost=1))
    state["players"][ANA]["removed"].append(monster("Gone", 1, 1, {}, cost=1))
    shade = monster("Shade", 1, 5, {"N": "Resurrection"}, cost=6, element="Darkness")
    state, _ = act(state, {"type": "play", "cell": "C3", "covered": False, "card": shade})
    refused(state, {"type": "ability", "arrow": "N", "target": "C2", "grave": 0}, "grave-index")


def test_resurrection_may_name_a_card_that_went_to_the_graveyard_unseen():
    state = new()
    state["players"][ANA]["graveyard_unknown"] = 1
    shade = monster("Shade", 1, 5, {"N": "Resurrection"}, cost=6, element="Darkness")
    state, _ = act(state, {"type": "play", "cell": "C3", "covered": False, "card": shade})
    state, _ = act(
        state,
        {
            "type": "ability",
            "arrow": "N",
            "target": "C2",
            "grave": "unknown",
            "card": monster("Old", 1, 1, {}, cost=5),
        },
    )
    assert piece(state, "C2")["card"]["name"] == "Old" and state["players"][ANA]["graveyard_unknown"] == 0


# 8 ----------------------------------------------------------------------------------
def test_example_8_board_filling_mid_chain_ends_the_game_at_once():
    state = new()
    for cell in MAIN_ZONE:
        if cell not in ("B3", "A3", "A2", "C3"):
            put(state, cell, dict(BLOCK_CARD), BEN)
    put(state, "C3", monster("Pup", 1, 2, {}), BEN)  # Volt's normal arrow would flip it
    put(state, "X3", monster("Shade", 1, 5, {"N": "Resurrection"}, cost=6, element="Darkness"), ANA)
    state["players"][ANA]["graveyard"].append(monster("Ghost", 1, 1, {"E": "Normal"}, cost=2))
    volt = monster("Volt", 1, 5, {"W": "Magnetism", "E": "Normal"}, element="Electric")
    state, _ = act(state, {"type": "play", "cell": "B3", "covered": False, "card": volt})  # 23 of 25 full
    # Volt pulls Ana's Shade in from the out zone (X3) to A3: 24 full; Shade reactivates on top.
    state, events = act(state, {"type": "ability", "arrow": "W", "target": "A3", "pull_from": "X3"})
    assert [e["reason"] for e in events_of(events, "activation")] == ["moved"] and len(state["stack"]) == 2
    # Shade revives Ghost onto A2, the 25th cell: the game ends there, mid-chain.
    state, events = act(state, {"type": "ability", "arrow": "N", "target": "A2", "grave": 0})
    assert events[-1] == {"type": "game_over", "reason": "board-full", "scores": [3, 1]}
    assert events_of(events, "activation") == []  # the revived Ghost never activated
    assert state["stack"] == [] and GAME.legal_actions(state) == []
    assert piece(state, "C3")["owner"] == BEN  # Volt's flip never happened
    outcome = GAME.outcome(state)
    assert (outcome.winner, outcome.score) == (ANA, "3-1")
    refused(state, {"type": "pass"}, "game-over")


# Abilities ----------------------------------------------------------------------------
QUAKE = monster("Quake", 1, 5, {"E": "Shockwave"}, element="Earth")


def test_shockwave_pushes_and_destroys_whatever_is_on_the_landing_cell():
    state = new()
    put(state, "C3", PUP, BEN)
    put(state, "D3", monster("Own", 1, 1, {}), ANA)  # Ana's own card on the landing cell
    state, _ = act(state, {"type": "play", "cell": "B3", "covered": False, "card": QUAKE})
    state, events = act(state, {"type": "ability", "arrow": "E", "target": "C3"})
    assert piece(state, "D3")["card"]["name"] == "Pup" and "C3" not in state["cells"]
    assert [c["name"] for c in state["players"][ANA]["graveyard"]] == ["Own"]


def test_shockwave_into_the_out_zone_stays_in_play_and_out_of_it_is_removed_from_the_game():
    state = new()
    put(state, "E3", PUP, BEN)
    state, _ = act(state, {"type": "play", "cell": "D3", "covered": False, "card": QUAKE})
    state, _ = act(state, {"type": "ability", "arrow": "E", "target": "E3"})
    assert piece(state, "Y3")["card"]["name"] == "Pup"  # main zone -> out zone: still in play
    state = new()
    put(state, "Y3", PUP, BEN)
    state, events = act(state, {"type": "play", "cell": "E3", "covered": False, "card": QUAKE})
    state, events = act(state, {"type": "ability", "arrow": "E", "target": "Y3"})
    assert "Y3" not in state["cells"]
    assert [c["name"] for c in state["players"][BEN]["removed"]] == ["Pup"]
    assert state["players"][BEN]["graveyard"] == []  # removed, not destroyed: cannot be revived


def test_growth_places_a_covered_card_from_hand_for_free():
    state = new()
    sprout = monster("Sprout", 1, 3, {"E": "Growth"}, element="Nature", cost=4)
    state, _ = act(state, {"type": "play", "cell": "B3", "covered": False, "card": sprout})
    hand, credits = state["players"][ANA]["hand"], state["players"][ANA]["credits"]
    state, _ = act(state, {"type": "ability", "arrow": "E", "target": "C3"})
    grown = piece(state, "C3")
    assert grown["covered"] and grown["growth"] and grown["card"] is None
    assert state["players"][ANA]["hand"] == hand - 1 and state["players"][ANA]["credits"] == credits
    # Ben's turn, then Ana's: the Growth card is not revealed at the start of her turn.
    state, _ = act(state, {"type": "pass"})
    assert state["seat"] == ANA and state["step"] == "play" and piece(state, "C3")["covered"]


def test_growth_cards_are_not_flipped_but_fall_to_remove_firestorm_and_a_shockwave_landing():
    for card, action in [
        (monster("Eraser", 1, 3, {"E": "Remove"}), {"type": "ability", "arrow": "E", "target": "C3"}),
        (
            monster("Blaze", 1, 3, {"E": "Firestorm"}),
            {"type": "ability", "arrow": "E", "target": "C3", "damage": {"C3": 1}},
        ),
    ]:
        state = new()
        put(state, "C3", None, BEN, covered=True, growth=True)
        state, _ = act(state, {"type": "play", "cell": "B3", "covered": False, "card": card})
        state, _ = act(state, action)
        assert "C3" not in state["cells"] and state["players"][BEN]["graveyard_unknown"] == 1
    state = new()
    put(state, "C3", PUP, BEN)
    put(state, "D3", None, BEN, covered=True, growth=True)
    state, _ = act(state, {"type": "play", "cell": "B3", "covered": False, "card": QUAKE})
    state, _ = act(state, {"type": "ability", "arrow": "E", "target": "C3"})
    assert piece(state, "D3")["card"]["name"] == "Pup" and state["players"][BEN]["graveyard_unknown"] == 1


def test_a_normal_arrow_does_not_flip_growth_or_block_cards():
    state = new()
    put(state, "C3", None, BEN, covered=True, growth=True)
    put(state, "B2", dict(BLOCK_CARD), BEN)
    state, events = act(
        state,
        {
            "type": "play",
            "cell": "B3",
            "covered": False,
            "card": monster("Knight", 1, 3, {"E": "Normal", "N": "Normal"}),
        },
    )
    assert events_of(events, "flipped") == [] and state["seat"] == BEN


def test_block_ability_places_a_block_card_removes_one_and_leaves_monsters_alone():
    state = new()
    put(state, "B2", dict(BLOCK_CARD), BEN)
    put(state, "A3", PUP, BEN)
    mason = monster("Mason", 1, 3, {"E": "Block", "N": "Block", "W": "Block"})
    state, _ = act(state, {"type": "play", "cell": "B3", "covered": False, "card": mason})
    refused(state, {"type": "ability", "arrow": "W", "target": "A3"}, "block-monster")
    hand = state["players"][ANA]["hand"]
    state, _ = act(state, {"type": "ability", "arrow": "E", "target": "C3"})
    assert piece(state, "C3")["card"] == BLOCK_CARD and state["players"][ANA]["hand"] == hand - 1
    state, _ = act(state, {"type": "ability", "arrow": "N", "target": "B2"})
    assert "B2" not in state["cells"] and state["players"][BEN]["graveyard"] == [BLOCK_CARD]
    assert scores(state)[ANA] == 1  # the Block card on C3 never scores


def test_remove_destroys_the_card_on_the_target():
    state = new()
    put(state, "C3", bens("Wolf", 3, 9, {"W": "Normal"}), BEN)
    state, _ = act(
        state,
        {"type": "play", "cell": "B3", "covered": False, "card": monster("Eraser", 1, 3, {"E": "Remove"})},
    )
    state, events = act(state, {"type": "ability", "arrow": "E", "target": "C3"})
    assert "C3" not in state["cells"] and events_of(events, "conflict") == []  # removed before conflicts


def test_firestorm_spreads_up_to_the_current_def_over_the_target_and_its_neighbours():
    state = new()
    put(state, "C3", monster("Wolf", 1, 3, {}), BEN)
    put(state, "C2", monster("Crow", 1, 2, {}), BEN)
    put(state, "C4", None, BEN, covered=True)
    blaze = monster("Blaze", 1, 5, {"E": "Firestorm"})
    state, _ = act(state, {"type": "play", "cell": "B3", "covered": False, "card": blaze})
    assert storm_cells(state, "B3", "C3") == ["C3", "C2", "C4"]
    refused(state, {"type": "ability", "arrow": "E", "target": "C3", "damage": {"C3": 6}}, "firestorm-total")
    refused(state, {"type": "ability", "arrow": "E", "target": "C3", "damage": {"B3": 1}}, "firestorm-cell")
    refused(
        state, {"type": "ability", "arrow": "E", "target": "C3", "damage": {"C3": -1}}, "firestorm-amount"
    )
    state, events = act(
        state, {"type": "ability", "arrow": "E", "target": "C3", "damage": {"C3": 2, "C2": 2, "C4": 1}}
    )
    burned = {e["cell"]: e.get("after") for e in events_of(events, "burned")}
    assert burned == {"C3": 1, "C2": 0, "C4": None}  # C4 was covered: destroyed by any damage
    assert {e["cell"] for e in events_of(events, "destroyed")} == {"C2", "C4"}


def test_firestorm_works_from_the_active_cards_current_def():
    state = new()
    put(state, "C3", monster("Wolf", 1, 9, {}), BEN)
    put(state, "B2", bens("Mole", 3, 9, {"S": "Normal"}), BEN)
    blaze = monster("Blaze", 1, 5, {"E": "Firestorm", "N": "Normal"})
    state, _ = act(state, {"type": "play", "cell": "B3", "covered": False, "card": blaze})
    state, _ = act(state, {"type": "next"})
    state, _ = act(state, {"type": "conflict", "target": "B2"})  # Blaze 5 -> 2
    refused(state, {"type": "ability", "arrow": "E", "target": "C3", "damage": {"C3": 3}}, "firestorm-total")
    state, events = act(state, {"type": "ability", "arrow": "E", "target": "C3", "damage": {"C3": 2}})
    assert events_of(events, "burned") == [
        {"type": "burned", "cell": "C3", "name": "Wolf", "amount": 2, "before": 9, "after": 7}
    ]


def test_swap_exchanges_cells_without_reactivating_the_active_card():
    state = new()
    put(state, "C3", monster("Own", 1, 2, {}), ANA)
    put(state, "D3", PUP, BEN)
    trick = monster("Trick", 1, 3, {"E": "Swap", "W": "Normal"})
    state, _ = act(state, {"type": "play", "cell": "B3", "covered": False, "card": trick})
    state, events = act(state, {"type": "ability", "arrow": "E", "target": "C3"})
    assert piece(state, "C3")["card"]["name"] == "Trick" and piece(state, "B3")["card"]["name"] == "Own"
    # Own moved on Ana's turn and reactivates; Trick does not, but carries on from C3,
    # where its W arrow now points at B3 (its own card) and nothing is flipped.
    assert [e["name"] for e in events_of(events, "activation")] == ["Own"]


def test_an_ability_is_used_once_per_sequence():
    state = new()
    put(state, "C3", PUP, BEN)
    put(state, "D3", monster("Wolf", 1, 9, {}), BEN)
    quake = monster("Quake", 1, 5, {"E": "Shockwave", "W": "Shockwave"}, element="Earth")
    state, _ = act(state, {"type": "play", "cell": "B3", "covered": False, "card": quake})
    state, _ = act(state, {"type": "ability", "arrow": "E", "target": "C3"})
    refused(state, {"type": "ability", "arrow": "E", "target": "C3"}, "ability-used")
    refused(state, {"type": "ability", "arrow": "N", "target": "B2"}, "no-such-ability")


# The turn ---------------------------------------------------------------------------
def test_credits_start_at_50_and_grow_by_5_except_on_each_players_first_turn():
    state = new()
    assert [p["credits"] for p in state["players"]] == [50, 50]
    state, events = act(state, {"type": "pass"})
    assert events_of(events, "turn_started")[0]["gained"] == 0  # Ben's first turn: no +5
    state, events = act(state, {"type": "play", "cell": "C3", "covered": False, "card": PUP})
    assert state["players"][BEN]["credits"] == 48
    assert events_of(events, "turn_started")[0] == {
        "type": "turn_started",
        "turn": 3,
        "seat": ANA,
        "gained": 5,
        "credits": 55,
        "drew": True,
    }


def test_draw_and_hand_limit_of_8_at_the_end_of_the_turn():
    state = new({"starting_hand": 8})
    assert state["players"][ANA]["hand"] == 9 and state["players"][ANA]["deck"] == 51
    state, events = act(state, {"type": "pass"})
    assert events_of(events, "discarded") == [{"type": "discarded", "seat": ANA, "count": 1}]
    assert state["players"][ANA]["hand"] == 8 and state["players"][ANA]["graveyard_unknown"] == 1


def test_a_covered_card_is_named_and_paid_for_when_revealed_and_then_activates():
    state = new()
    state, _ = act(state, {"type": "play", "cell": "B3", "covered": True})
    assert state["players"][ANA]["credits"] == 50 and piece(state, "B3")["card"] is None
    state, _ = act(state, {"type": "play", "cell": "C3", "covered": False, "card": MOSS})  # Ben
    assert state["seat"] == ANA and state["step"] == "reveal"
    assert GAME.legal_actions(state) == [{"type": "reveal", "seat": ANA, "cell": "B3"}]
    refused(state, {"type": "pass"}, "reveal-first")
    state, events = act(
        state, {"type": "reveal", "cell": "B3", "card": monster("Ember", 4, 5, {"E": "Normal"}, cost=7)}
    )
    assert state["players"][ANA]["credits"] == 48  # 50 + 5 - 7
    assert events_of(events, "activation")[0]["reason"] == "revealed"
    state, _ = act(state, {"type": "conflict", "target": "C3"})
    assert state["step"] == "play" and state["seat"] == ANA  # she still plays a card this turn


def test_a_revealed_card_that_cannot_be_paid_goes_to_the_graveyard():
    state = new()
    state, _ = act(state, {"type": "play", "cell": "B3", "covered": True})
    state, _ = act(state, {"type": "pass"})
    state["players"][ANA]["credits"] = 3
    state, events = act(state, {"type": "reveal", "cell": "B3", "card": monster("Dear", 1, 1, {}, cost=9)})
    assert "B3" not in state["cells"] and state["players"][ANA]["graveyard"][0]["name"] == "Dear"
    assert state["players"][ANA]["credits"] == 3 and events_of(events, "unpaid")


def test_def_reset_option():
    for reset, expected in ((True, 6), (False, 2)):
        state = new({"def_reset": reset})
        put(state, "C3", MOSS, BEN)
        state, _ = act(state, {"type": "play", "cell": "B3", "covered": False, "card": EMBER})
        state, _ = act(state, {"type": "conflict", "target": "C3"})
        assert current_def(state, "C3") == expected


def test_two_passes_in_a_row_end_the_game_and_ties_follow_the_option():
    for ties, winner in (("draw", None), ("second-player", BEN)):
        state = new({"ties": ties})
        state, _ = act(state, {"type": "pass"})
        assert GAME.outcome(state) is None
        state, events = act(state, {"type": "pass"})
        assert events[-1]["type"] == "game_over" and events[-1]["reason"] == "passes"
        assert GAME.outcome(state).winner == winner and GAME.outcome(state).score == "0-0"


def test_the_table_may_end_the_game_as_an_override():
    state = new()
    put(state, "C3", PUP, ANA)
    refused(state, {"type": "end_game"}, "override")
    state, _ = GAME.apply(state, {"type": "end_game", "override": True}, Dice("seed", 1))
    assert (GAME.outcome(state).winner, GAME.outcome(state).score) == (ANA, "1-0")


def test_adjust_overrides_counters_and_def():
    state = new()
    put(state, "C3", MOSS, BEN)
    state, _ = GAME.apply(
        state, {"type": "adjust", "override": True, "seat": BEN, "credits": 7, "hand": 2}, Dice("seed", 1)
    )
    assert state["players"][BEN]["credits"] == 7 and state["players"][BEN]["hand"] == 2
    state, _ = GAME.apply(
        state, {"type": "adjust", "override": True, "cell": "C3", "def": 1}, Dice("seed", 1)
    )
    assert current_def(state, "C3") == 1
    for bad in (
        {"seat": 5, "credits": 1},
        {"seat": 0},
        {"seat": 0, "credits": -1},
        {"cell": "C3", "def": 7},
        {"cell": "B3", "def": 1},
        {"cell": "Q9", "def": 1},
    ):
        with pytest.raises(IllegalAction):
            GAME.apply(state, {"type": "adjust", "override": True, **bad}, Dice("seed", 1))


# Facing -------------------------------------------------------------------------------
# Arrows are printed on the card; Ana (seat 0) sits at the bottom and reads them as printed,
# Ben (seat 1) sits at the top, so his cards face down the board (rules/evons/board.py).
LANCER = monster("Lancer", 2, 4, {"N": "Normal"})
STONE = monster("Stone", 1, 2, {})


def test_the_top_players_cards_face_down_the_board():
    """Ben's card printed with an arrow to the top of the card points down the board, at Ana's side."""
    state = new()
    put(state, "C2", STONE, ANA)
    put(state, "C4", STONE, ANA)
    state, _ = act(state, {"type": "pass"})
    state, events = act(state, {"type": "play", "cell": "C3", "covered": False, "card": LANCER})
    assert [e["cell"] for e in events_of(events, "flipped")] == ["C4"]  # below it, not C2 above
    assert piece(state, "C2")["owner"] == ANA and piece(state, "C4")["owner"] == BEN
    assert arrows_now(state, piece(state, "C3")) == {"S": "Normal"}
    assert piece(state, "C3")["card"]["arrows"] == {"N": "Normal"}  # the card is stored as printed


def test_the_top_players_corner_arrows_turn_to_the_opposite_corner():
    """A 180-degree turn is a rotation, not a mirror: Ben's printed NE points SW on the board."""
    state = new()
    for cell in ("B4", "D2", "B2", "D4"):
        put(state, cell, STONE, ANA)
    state, _ = act(state, {"type": "pass"})
    corner = monster("Corner", 1, 4, {"NE": "Normal"})
    state, events = act(state, {"type": "play", "cell": "C3", "covered": False, "card": corner})
    assert [e["cell"] for e in events_of(events, "flipped")] == ["B4"]
    assert arrows_now(state, piece(state, "C3")) == {"SW": "Normal"}


def test_a_flipped_card_turns_its_arrows_and_defends_where_they_now_point():
    """Rulebook: "Flipping means rotating the card 180 degrees so it now faces you."

    Lancer, printed with one arrow to its top, starts as Ben's and points down the board (C4).
    Ana flips it; turned towards her, it points up the board (C2). A card of Ben's then pointing at
    it from C2 meets that arrow head-on (a conflict), while one pointing at it from C4 meets no
    arrow and flips it back.
    """
    state = new()
    put(state, "C3", LANCER, BEN)
    state, events = act(state, {"type": "play", "cell": "B3", "covered": False, "card": EMBER})
    assert [e["cell"] for e in events_of(events, "flipped")] == ["C3"]  # it pointed at C4, not back
    assert piece(state, "C3")["owner"] == ANA
    assert arrows_now(state, piece(state, "C3")) == {"N": "Normal"}
    assert state["seat"] == BEN
    from_above = bens("Hammer", 3, 5, {"S": "Normal"})  # on C2, pointing down at C3
    after, events = act(state, {"type": "play", "cell": "C2", "covered": False, "card": from_above})
    assert events_of(events, "flipped") == []
    assert GAME.legal_actions(after) == [{"type": "conflict", "seat": BEN, "target": "C3"}]
    after, events = act(after, {"type": "conflict", "target": "C3"})
    [conflict] = events_of(events, "conflict")
    assert conflict["names"] == ["Hammer", "Lancer"] and conflict["after"] == [3, 1]  # Hammer 5 -> 3, Lancer 4 -> 1
    from_below = bens("Hammer", 3, 5, {"N": "Normal"})  # on C4, pointing up at C3
    after, events = act(state, {"type": "play", "cell": "C4", "covered": False, "card": from_below})
    assert events_of(events, "conflict") == [] and [e["cell"] for e in events_of(events, "flipped")] == ["C3"]
    assert piece(after, "C3")["owner"] == BEN and arrows_now(after, piece(after, "C3")) == {"S": "Normal"}


def test_the_top_players_abilities_follow_the_turned_arrow():
    """Ben's Shockwave printed to the card's right points left on the board and pushes left."""
    state = new()
    put(state, "B3", PUP, ANA)
    state, _ = act(state, {"type": "pass"})
    quake = monster("Quake", 1, 5, {"E": "Shockwave"}, element="Earth")
    state, _ = act(state, {"type": "play", "cell": "C3", "covered": False, "card": quake})
    assert [a for a in GAME.legal_actions(state) if a["type"] == "ability"] == [
        {"type": "ability", "arrow": "W", "target": "B3", "seat": BEN}
    ]
    refused(state, {"type": "ability", "arrow": "E", "target": "D3"}, "no-such-ability")
    state, events = act(state, {"type": "ability", "arrow": "W", "target": "B3"})
    assert piece(state, "A3")["card"]["name"] == "Pup" and "B3" not in state["cells"]


def test_magnetism_of_a_turned_card_targets_along_the_turned_arrow_and_pulls_from_next_to_it():
    """Ben's Magnetism printed to the card's right reaches the cell on its left on the board, and
    pulls a card from a cell next to that target; the pulled card turns only when it is flipped."""
    state = new()
    put(state, "A2", PUP, ANA)
    state, _ = act(state, {"type": "pass"})
    volt = monster("Volt", 1, 5, {"E": "Magnetism"}, element="Electric")
    state, _ = act(state, {"type": "play", "cell": "B3", "covered": False, "card": volt})
    assert [(a["arrow"], a["target"], a["pull_from"]) for a in GAME.legal_actions(state) if a["type"] == "ability"] == [
        ("W", "A3", "A2")
    ]
    state, events = act(state, {"type": "ability", "arrow": "W", "target": "A3", "pull_from": "A2"})
    assert piece(state, "A3")["card"]["name"] == "Pup"
    # Pulled while Ana's, Pup still points up the board (A2), not back at Volt: Volt's flip step
    # then turns it to Ben, and it points down the board.
    assert [e["cell"] for e in events_of(events, "flipped")] == ["A3"]
    assert piece(state, "A3")["owner"] == BEN and arrows_now(state, piece(state, "A3")) == {"S": "Normal"}


def _bens_card_across_the_arrow():
    """Ana passes, Ben plays a card printed with a left arrow on C3, Ana plays Ember (right arrow) on B3."""
    moss = monster("Moss", 3, 6, {"W": "Normal"})
    return [
        {"type": "pass", "seat": ANA},
        {"type": "play", "seat": BEN, "cell": "C3", "covered": False, "card": moss},
        {"type": "play", "seat": ANA, "cell": "B3", "covered": False, "card": EMBER},
        {"type": "conflict", "seat": ANA, "target": "C3"},
    ]


def test_a_log_of_the_retired_version_replays_identically_under_its_own_rules():
    """Version 1 read arrows as board directions: Ben's Moss pointed back at Ember and fought it.
    A version-1 log replays under version 1 (rules.RETIRED) step for step; version 2 turns Moss,
    so the same log's conflict is refused there: Ember flips Moss instead."""
    old = rules.game_version("evons", "1")
    assert old is rules.RETIRED[("evons", "1")] and old is not GAME and GAME.rules_version == "2"
    state, recorded = old.new_match({}, "seed"), []
    for step, action in enumerate(_bens_card_across_the_arrow(), start=1):
        state, events = old.apply(state, action, Dice("seed", step))
        recorded.append((json.loads(json.dumps(state)), events))
    assert [e["after"] for e in recorded[-1][1] if e["type"] == "conflict"] == [[2, 2]]  # Ember 5 -> 2, Moss 6 -> 2
    replayed = json.loads(json.dumps(old.new_match({}, "seed")))
    for step, (action, (state, events)) in enumerate(zip(_bens_card_across_the_arrow(), recorded, strict=True), start=1):
        replayed, again = old.apply(replayed, action, Dice("seed", step))
        assert (replayed, again) == (state, events), f"step {step}"
    current = GAME.new_match({}, "seed")
    *setup, fight = _bens_card_across_the_arrow()
    for step, action in enumerate(setup, start=1):
        current, events = GAME.apply(current, action, Dice("seed", step))
    assert [e["cell"] for e in events_of(events, "flipped")] == ["C3"]
    with pytest.raises(IllegalAction):
        GAME.apply(current, fight, Dice("seed", 4))


# Out zone ---------------------------------------------------------------------------
def test_out_zone_cards_use_abilities_but_never_start_or_receive_conflicts_or_flips_nor_score():
    state = new()
    put(state, "X3", bens("Edge", 1, 2, {"E": "Normal"}), BEN)  # would defend against A3's W arrow
    put(state, "A2", bens("Pup", 1, 2, {"N": "Normal"}), BEN)  # points away from A3
    state, events = act(
        state,
        {
            "type": "play",
            "cell": "A3",
            "covered": False,
            "card": monster("Knight", 1, 3, {"W": "Normal", "N": "Normal"}),
        },
    )
    assert events_of(events, "conflict") == [] and [e["cell"] for e in events_of(events, "flipped")] == ["A2"]
    assert piece(state, "X3")["owner"] == BEN
    state = new()
    put(state, "A1", PUP, BEN)
    put(state, "A2", bens("Wolf", 1, 3, {"N": "Normal"}), BEN)
    quake = monster("Quake", 1, 5, {"S": "Shockwave", "E": "Normal"}, element="Earth")
    state, events = act(state, {"type": "play", "cell": "A0", "covered": False, "card": quake})
    # From the out zone: Shockwave works, but no conflict with Wolf nor flip of Pup follows.
    state, events = act(state, {"type": "ability", "arrow": "S", "target": "A1"})
    assert piece(state, "A2")["card"]["name"] == "Pup" and piece(state, "A2")["owner"] == BEN
    assert events_of(events, "flipped") == [] and events_of(events, "conflict") == []
    assert scores(state) == [0, 1]  # Quake on A0 never scores


# Bad input --------------------------------------------------------------------------
def test_bad_plays_are_refused_and_change_nothing():
    state = new()
    put(state, "C3", MOSS, BEN)
    refused(state, {"type": "play", "cell": "C3", "covered": True}, "cell-taken")
    refused(state, {"type": "play", "cell": "F9", "covered": True}, "no-such-cell")
    refused(state, {"type": "play", "cell": "B3", "covered": "yes"}, "play-face")
    refused(
        state,
        {"type": "play", "cell": "B3", "covered": False, "card": monster("Rich", 1, 1, {}, cost=51)},
        "credits",
    )
    with pytest.raises(InvalidCard):
        act(state, {"type": "play", "cell": "B3", "covered": False, "card": {"name": "Half"}})
    refused(state, {"type": "conflict", "target": "C3"}, "not-conflicts")
    refused(state, {"type": "ability", "arrow": "E", "target": "C3"}, "not-ability-phase")
    refused(state, {"type": "next"}, "not-ability-phase")
    refused(state, {"type": "reveal", "cell": "C3", "card": MOSS}, "nothing-to-reveal")
    refused(state, {"type": "play", "cell": "B3", "covered": True, "seat": BEN}, "out-of-turn")
    refused(state, {"type": "fly"}, "action-unknown")
    state["players"][ANA]["hand"] = 0
    refused(state, {"type": "play", "cell": "B3", "covered": True}, "hand-empty")


def test_a_second_card_in_a_turn_and_a_conflict_not_pending_are_refused():
    state = new()
    put(state, "C3", MOSS, BEN)
    put(state, "D4", bens("Far", 1, 1, {"W": "Normal"}), BEN)
    state, _ = act(state, {"type": "play", "cell": "B3", "covered": False, "card": EMBER})
    refused(state, {"type": "play", "cell": "B4", "covered": True}, "one-play")
    refused(state, {"type": "pass"}, "one-play")
    refused(state, {"type": "conflict", "target": "D4"}, "conflict-not-pending")
    state, _ = act(state, {"type": "conflict", "target": "C3"})
    refused(state, {"type": "conflict", "target": "C3", "seat": ANA}, "out-of-turn")


def test_cards_are_validated():
    assert validate_card({"name": " Wall ", "kind": "block", "cost": 9}) == {"name": "Wall", "kind": "block"}
    card = validate_card(
        {
            "name": "Volt",
            "cost": 3,
            "element": "Electric",
            "atk": 2,
            "def": 4,
            "arrows": {"W": "Normal", "N": "Magnetism"},
        }
    )
    assert list(card["arrows"]) == ["N", "W"]
    for bad in (
        {"name": "Q", "cost": 3, "element": "Fire", "atk": 2, "def": 4, "arrows": {"N": "Magnetism"}},
        {"name": "Q", "cost": 3, "element": "Air", "atk": 2, "def": 4},
        {"name": "Q", "cost": 3, "element": "Fire", "atk": 2, "def": 0},
        {"name": "Q", "cost": 3, "element": "Fire", "atk": True, "def": 4},
        {"name": "Q", "cost": 3, "element": "Fire", "atk": 2, "def": 4, "arrows": {"UP": "Normal"}},
        {"name": "Q", "cost": 3, "element": "Fire", "atk": 2, "def": 4, "arrows": {"N": "Laser"}},
        {"name": "", "kind": "block"},
        {"name": "Q", "kind": "spell"},
        "card",
    ):
        with pytest.raises(InvalidCard):
            validate_card(bad)


def test_options_are_validated():
    for bad in ({"reach": 3}, {"flip_covered": "yes"}, {"ties": "coin"}, {"starting_hand": 21}, {"speed": 1}):
        with pytest.raises(InvalidConfig):
            GAME.new_match(bad, "s")


def test_flip_covered_option():
    for flip, owner in ((False, BEN), (True, ANA)):
        state = new({"flip_covered": flip})
        put(state, "C3", None, BEN, covered=True)
        state, _ = act(state, {"type": "play", "cell": "B3", "covered": False, "card": EMBER})
        assert piece(state, "C3")["owner"] == owner


def test_reach_2_meets_only_the_first_card_along_an_arrow():
    state = new({"reach": 2})
    put(state, "D3", bens("Behind", 1, 2, {"W": "Normal"}), BEN)
    state, events = act(state, {"type": "play", "cell": "B3", "covered": False, "card": EMBER})
    assert events_of(events, "conflict") == [] and state["stack"][-1]["phase"] == "conflicts"
    state = new({"reach": 2})
    put(state, "C3", PUP, BEN)
    put(state, "D3", monster("Behind", 1, 2, {}), BEN)
    state, events = act(state, {"type": "play", "cell": "B3", "covered": False, "card": EMBER})
    assert [e["cell"] for e in events_of(events, "flipped")] == ["C3"]  # C3 shields D3


# Random legal games --------------------------------------------------------------------
ELEMENTS = ("Earth", "Electric", "Nature", "Darkness", "Fire", "Water")
OWN_ABILITY = {
    "Earth": "Shockwave",
    "Electric": "Magnetism",
    "Nature": "Growth",
    "Darkness": "Resurrection",
    "Fire": "Firestorm",
    "Water": "Swap",
}


def random_card(rng):
    if rng.random() < 0.08:
        return {"name": "Wall", "kind": "block"}
    element = rng.choice(ELEMENTS)
    pool = ["Normal"] * 4 + ["Remove", "Block", OWN_ABILITY[element]]
    arrows = {
        d: rng.choice(pool)
        for d in rng.sample(["N", "NE", "E", "SE", "S", "SW", "W", "NW"], rng.randint(1, 5))
    }
    return {
        "name": f"M{rng.randint(1, 99)}",
        "kind": "monster",
        "cost": rng.randint(0, 8),
        "element": element,
        "atk": rng.randint(0, 6),
        "def": rng.randint(1, 8),
        "arrows": arrows,
    }


def fill_free_choices(state, action, rng):
    """Complete a listed action with the free choices a player would make."""
    action = dict(action)
    if action["type"] == "reveal" or (action["type"] == "play" and not action["covered"]):
        card = random_card(rng)
        if action["type"] == "play" and card.get("cost", 0) > state["players"][state["seat"]]["credits"]:
            card["cost"] = 0
        action["card"] = card
    if action["type"] == "ability":
        cell = find(state, state["stack"][-1]["id"])
        ability = arrows_now(state, state["cells"][cell])[action["arrow"]]
        if ability == "Firestorm":
            action["damage"] = {storm_cells(state, cell, action["target"])[0]: 1}
        if ability == "Resurrection" and action["grave"] == "unknown":
            action["card"] = {"name": "Risen", "cost": 0, "element": "Fire", "atk": 1, "def": 1, "arrows": {}}
    return action


def random_game(seed, config):
    rng = random.Random(seed)
    state = GAME.new_match(config, str(seed))
    log = []
    for step in range(1, 5000):
        legal = GAME.legal_actions(state)
        if not legal:
            return state, log
        action = fill_free_choices(state, rng.choice(legal), rng)
        state, _ = GAME.apply(state, action, Dice(str(seed), step))
        log.append(json.loads(json.dumps(action)))
    raise AssertionError(f"seed {seed}: no end after 5000 steps")


@pytest.mark.parametrize("seed", range(30))
def test_random_legal_games_end_and_replay_from_their_log(seed):
    config = {"reach": 1 + seed % 2, "flip_covered": seed % 3 == 0, "def_reset": seed % 4 != 1}
    final, log = random_game(seed, config)
    assert final["over"] is not None, f"seed {seed}"
    assert GAME.outcome(final) is not None
    state = GAME.new_match(config, str(seed))
    for step, action in enumerate(log, start=1):
        state, _ = GAME.apply(json.loads(json.dumps(state)), action, Dice(str(seed), step))
    assert state == final, f"seed {seed}: replay differs"
    assert sum(scores(final)) <= 25


def test_a_chain_resolves_last_triggered_first_at_any_depth():
    state = new()
    put(state, "B3", monster("Quake Two", 1, 5, {"S": "Shockwave"}, element="Earth"), ANA)
    put(state, "C4", monster("Scout", 1, 3, {"N": "Normal"}), ANA)
    quake = monster("Quake One", 1, 5, {"E": "Shockwave", "W": "Shockwave"}, element="Earth")
    state, _ = act(state, {"type": "play", "cell": "A3", "covered": False, "card": quake})
    # Quake One pushes Quake Two to C3; it reactivates and pushes Scout from C4 to C5 (depth 3).
    state, events = act(state, {"type": "ability", "arrow": "E", "target": "B3"})
    assert [(e["name"], e["depth"]) for e in events_of(events, "activation")] == [("Quake Two", 2)]
    assert len(state["stack"]) == 2  # Quake Two waits in its Ability Phase 1, on top of Quake One
    state, events = act(state, {"type": "ability", "arrow": "S", "target": "C4"})
    assert [(e["name"], e["depth"]) for e in events_of(events, "activation")] == [("Scout", 3)]
    # Scout's sequence finishes first, then Quake Two's; Quake One carries on, its W arrow unused.
    assert [e["cell"] for e in events_of(events, "sequence_ended")] == ["C5", "C3"]
    assert len(state["stack"]) == 1 and find(state, state["stack"][0]["id"]) == "A3"
