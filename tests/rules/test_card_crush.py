"""Card Crush rules, checked against the rulebook (/work/shared/rulebooks/card-crush.txt)
and the facts in its notes (early end at 3 wins, deterministic coin flip, unique decks).

Everything goes through the public Game contract where it can:
    state = game.new_match(config, seed)
    state, events = game.apply(state, action, rules.Dice(seed, step))
"""

import copy
import json

import pytest

import rules
from rules.card_crush import AFFINITIES, affinity_bonus, wheel_value

GAME = rules.GAMES["card-crush"]
SEED = "card-crush-test-seed"
PLAY = {"type": "play_round"}


# ---------------------------------------------------------------- helpers


def card(name, affinity="Air", power=5, speed=5, **extra):
    return {"name": name, "affinity": affinity, "power": power, "speed": speed, **extra}


def deck(*cards, prefix="C"):
    """Five cards; missing ones are plain fillers (Air 5/5) with unique names."""
    cards = list(cards)
    while len(cards) < 5:
        cards.append(card(f"{prefix}{len(cards) + 1}"))
    return cards


def lock(seat, cards):
    return {"type": "lock_deck", "seat": seat, "cards": cards}


def run(actions, seed=SEED, config=None):
    """Apply the actions in order (action i uses Dice(seed, i)).

    Returns the final state and one (state, events, dice) entry per step.
    """
    state = GAME.new_match(config or {}, seed)
    steps = []
    for step, action in enumerate(actions):
        dice = rules.Dice(seed, step)
        state, events = GAME.apply(state, action, dice)
        steps.append((state, events, dice))
    return state, steps


def locked(deck0, deck1, seed=SEED, config=None):
    """A battle with both decks locked, ready for round 1."""
    state, _ = run([lock(0, deck0), lock(1, deck1)], seed, config)
    return state


def play_round(state, seed=SEED, step=2):
    dice = rules.Dice(seed, step)
    state, events = GAME.apply(state, PLAY, dice)
    return state, events, dice


def play_out(state, seed=SEED, first_step=2):
    """Play rounds while the game offers play_round; returns the state and all round events."""
    rounds = []
    step = first_step
    while GAME.legal_actions(state) == [PLAY]:
        state, events, _ = play_round(state, seed, step)
        rounds.append(events[0])
        step += 1
        assert step < 20, "the battle never ended"
    return state, rounds


def assert_refused(state, action, error, rule, dice=None):
    """`apply` refuses the action with `error`/`rule` and leaves state and action untouched."""
    state_before = copy.deepcopy(state)
    action_before = copy.deepcopy(action)
    with pytest.raises(error) as raised:
        GAME.apply(state, action, dice or rules.Dice(SEED, 0))
    assert isinstance(raised.value, ValueError)
    assert raised.value.rule == rule
    assert state == state_before, "apply changed the state it was given"
    assert action == action_before, "apply changed the action it was given"
    return raised.value


# ---------------------------------------------------------------- 1. the Affinity Wheel

# The rulebook's table, copied literally. Rows: your affinity; columns: the opponent's.
WHEEL_ORDER = ["Air", "Earth", "Lightning", "Water", "Fire", "Ice", "Nature", "Light", "Shadow"]
PRINTED_WHEEL = [
    # Air Earth Lght Water Fire  Ice  Nat  Light Shad
    [0, +3, +2, +1, +1, -1, -1, -2, -3],  # Air
    [-3, 0, +3, +2, +1, +1, -1, -1, -2],  # Earth
    [-2, -3, 0, +3, +2, +1, +1, -1, -1],  # Lightning
    [-1, -2, -3, 0, +3, +2, +1, +1, -1],  # Water
    [-1, -1, -2, -3, 0, +3, +2, +1, +1],  # Fire
    [+1, -1, -1, -2, -3, 0, +3, +2, +1],  # Ice
    [+1, +1, -1, -1, -2, -3, 0, +3, +2],  # Nature
    [+2, +1, +1, -1, -1, -2, -3, 0, +3],  # Light
    [+3, +2, +1, +1, -1, -1, -2, -3, 0],  # Shadow
]
CELLS = [(row, col) for row in range(9) for col in range(9)]


def test_the_printed_wheel_is_9_by_9():
    assert len(PRINTED_WHEEL) == 9 and all(len(row) == 9 for row in PRINTED_WHEEL)


def test_engine_knows_the_nine_affinities_in_rulebook_order():
    # "Every card belongs to one of 9 Affinities: Air, Earth, Lightning, Water, Fire, Ice, ..."
    assert list(AFFINITIES) == WHEEL_ORDER


CELL_IDS = [f"{WHEEL_ORDER[r]}-vs-{WHEEL_ORDER[c]}" for r, c in CELLS]


@pytest.mark.parametrize(("row", "col"), CELLS, ids=CELL_IDS)
def test_wheel_cell_matches_the_rulebook(row, col):
    yours, theirs = WHEEL_ORDER[row], WHEEL_ORDER[col]
    printed = PRINTED_WHEEL[row][col]
    assert wheel_value(yours, theirs) == printed
    # "Only positive values apply - if the value is 0 or negative, your Affinity Bonus is 0."
    assert affinity_bonus(yours, theirs) == max(0, printed)


@pytest.mark.parametrize(("row", "col"), [(0, 1), (3, 4), (4, 3), (8, 0), (2, 2)])
def test_round_applies_the_wheel_bonus_to_each_side(row, col):
    # Each side's bonus is read from its own row against the opponent's column.
    state = locked(deck(card("A", WHEEL_ORDER[row], 5, 5)), deck(card("B", WHEEL_ORDER[col], 5, 5)))
    _, events, _ = play_round(state)
    result = events[0]
    assert result["bonus"] == [max(0, PRINTED_WHEEL[row][col]), max(0, PRINTED_WHEEL[col][row])]
    assert result["scores"] == [5 + result["bonus"][0], 5 + result["bonus"][1]]


# ---------------------------------------------------------------- 2. the rulebook's worked example


def test_rulebook_example_round_fire_7_5_vs_water_6_8():
    # Example Round: A plays Fire 7/5, B plays Water 6/8; Water dominates Fire by +3.
    player_a = deck(card("Blaze", "Fire", power=7, speed=5))
    player_b = deck(card("Tide", "Water", power=6, speed=8))
    state = GAME.new_match({}, SEED)
    state, _ = GAME.apply(state, lock(0, player_a), rules.Dice(SEED, 0))
    state, _ = GAME.apply(state, lock(1, player_b), rules.Dice(SEED, 1))
    state, events = GAME.apply(state, PLAY, rules.Dice(SEED, 2))

    result = events[0]
    assert result["type"] == "round" and result["round"] == 1
    assert result["bonus"] == [0, 3]  # A: 7 + 0, B: 6 + 3
    assert result["scores"] == [7, 9]
    assert result["winner"] == 1  # "Player B wins the round"
    assert result["decided_by"] == "score"
    assert result["coin"] is None
    assert state["wins"] == [0, 1]
    assert GAME.outcome(state) is None


# ---------------------------------------------------------------- 3. tiebreaks


def seated(favoured, other, seat):
    """Put the deck expected to win in `seat`."""
    return (favoured, other) if seat == 0 else (other, favoured)


@pytest.mark.parametrize("seat", [0, 1])
def test_battle_score_decides_before_speed_and_initiative(seat):
    # Higher Battle Score wins even with lower Speed and lower Team Initiative.
    favoured = deck(card("Strong", "Air", power=6, speed=1), *[card(f"S{i}", speed=1) for i in range(4)])
    other = deck(card("Quick", "Air", power=5, speed=9), *[card(f"Q{i}", speed=9) for i in range(4)])
    _, events, _ = play_round(locked(*seated(favoured, other, seat)))
    assert events[0]["decided_by"] == "score"
    assert events[0]["winner"] == seat


@pytest.mark.parametrize("seat", [0, 1])
def test_affinity_bonus_can_tie_the_score_so_speed_decides(seat):
    # Fire 7 + 0 vs Water 4 + 3: equal Battle Scores (7 = 7), so Speed decides.
    favoured = deck(card("Wave", "Water", power=4, speed=6))
    other = deck(card("Flame", "Fire", power=7, speed=5))
    _, events, _ = play_round(locked(*seated(favoured, other, seat)))
    assert events[0]["scores"] == [7, 7]
    assert events[0]["decided_by"] == "speed"
    assert events[0]["winner"] == seat


@pytest.mark.parametrize("seat", [0, 1])
def test_speed_decides_equal_scores_before_initiative(seat):
    # Equal Battle Score; higher Speed wins although its deck has the lower Team Initiative.
    favoured = deck(card("Fast", "Earth", power=5, speed=4), *[card(f"F{i}", speed=1) for i in range(4)])
    other = deck(card("Slow", "Earth", power=5, speed=3), *[card(f"L{i}", speed=9) for i in range(4)])
    _, events, _ = play_round(locked(*seated(favoured, other, seat)))
    assert events[0]["speeds"][seat] == 4 and events[0]["speeds"][1 - seat] == 3
    assert events[0]["decided_by"] == "speed"
    assert events[0]["winner"] == seat


@pytest.mark.parametrize("seat", [0, 1])
def test_team_initiative_decides_equal_score_and_speed(seat):
    # Team Initiative = sum of the Speed of all 5 cards: 5 + 4*6 = 29 against 5 + 4*2 = 13.
    favoured = deck(card("Even", "Ice", power=5, speed=5), *[card(f"H{i}", speed=6) for i in range(4)])
    other = deck(card("Even", "Ice", power=5, speed=5), *[card(f"L{i}", speed=2) for i in range(4)])
    state = locked(*seated(favoured, other, seat))
    _, events, _ = play_round(state)
    expected = [29, 13] if seat == 0 else [13, 29]
    assert events[0]["initiative"] == expected
    assert events[0]["decided_by"] == "initiative"
    assert events[0]["winner"] == seat
    assert events[0]["coin"] is None


def test_decks_revealed_event_reports_team_initiative():
    # Team Initiative is a pre-battle statistic: shown when both decks are locked.
    deck0 = deck(*[card(f"A{i}", speed=i) for i in range(5)])  # 0+1+2+3+4 = 10
    deck1 = deck(*[card(f"B{i}", speed=10 * i) for i in range(5)])  # 0+10+20+30+40 = 100
    _, steps = run([lock(0, deck0), lock(1, deck1)])
    assert steps[0][1] == [{"type": "deck_locked", "seat": 0}]
    assert steps[1][1] == [
        {"type": "deck_locked", "seat": 1},
        {"type": "decks_revealed", "initiative": [10, 100]},
    ]


def test_coin_flip_decides_when_everything_is_equal():
    # Same card, same Speed, same Team Initiative: the deterministic coin flip decides.
    both = deck(card("Twin", "Nature", power=5, speed=5))
    state = locked(both, copy.deepcopy(both))
    new_state, events, dice = play_round(state)
    result = events[0]
    assert result["decided_by"] == "coin"
    assert result["coin"] in (0, 1)
    assert result["winner"] == result["coin"]
    assert new_state["wins"][result["winner"]] == 1 and new_state["wins"][1 - result["winner"]] == 0
    # The flip is recorded among the step's rolls, made by the app.
    flips = [roll for roll in dice.rolls if roll["sides"] == 2]
    assert len(flips) == 1
    assert flips[0]["value"] == result["coin"]
    assert flips[0]["by"] == "app"


def test_rounds_without_a_tie_roll_no_dice():
    # Only the last tiebreak uses chance; a round decided on stats records no rolls.
    state = locked(deck(card("A", power=9)), deck(card("B", power=1)))
    _, events, dice = play_round(state)
    assert events[0]["decided_by"] == "score"
    assert dice.rolls == []


def test_power_only_option_ignores_affinity():
    # Option from the other rule pages: Power first, no Affinity Bonus. Fire 7 beats Water 6.
    state = locked(
        deck(card("Blaze", "Fire", power=7, speed=5)),
        deck(card("Tide", "Water", power=6, speed=8)),
        config={"resolution": "power-only"},
    )
    assert state["resolution"] == "power-only"
    _, events, _ = play_round(state)
    result = events[0]
    assert result["bonus"] == [0, 0]
    assert result["scores"] == [7, 6]
    assert result["winner"] == 0
    assert result["decided_by"] == "score"
    assert result["resolution"] == "power-only"


def test_default_resolution_is_battle_score():
    assert GAME.default_config == {"resolution": "battle-score"}
    assert GAME.new_match({}, SEED)["resolution"] == "battle-score"


# ---------------------------------------------------------------- 4. first to 3 wins


def decks_for(pattern):
    """Decks whose rounds are won by the seats in `pattern` (5 chars of "0"/"1")."""
    decks = ([], [])
    for number, winner in enumerate(pattern, start=1):
        winner = int(winner)
        decks[winner].append(card(f"W{number}", power=9))
        decks[1 - winner].append(card(f"L{number}", power=1))
    return decks


@pytest.mark.parametrize(
    ("pattern", "winner", "score", "played"),
    [
        # The unplayed rounds are won by the loser, so playing them would change the result.
        ("00011", 0, "3-0", 3),
        ("11100", 1, "3-0", 3),
        ("01001", 0, "3-1", 4),
        ("10111", 1, "3-1", 4),
        ("11000", 0, "3-2", 5),
        ("01011", 1, "3-2", 5),
    ],
)
def test_battle_ends_at_three_wins(pattern, winner, score, played):
    state = locked(*decks_for(pattern))
    step = 2
    for number in range(1, played + 1):
        assert GAME.outcome(state) is None, "the battle ended too early"
        assert GAME.legal_actions(state) == [PLAY]
        state, events, _ = play_round(state, step=step)
        step += 1
        assert events[0]["round"] == number
        assert events[0]["winner"] == int(pattern[number - 1])
        last = number == played
        # battle_won is announced with the winning round, and only then.
        assert [e["type"] for e in events] == (["round", "battle_won"] if last else ["round"])

    assert events[1] == {"type": "battle_won", "winner": winner, "wins": state["wins"]}
    assert len(state["rounds"]) == played
    assert state["winner"] == winner
    assert GAME.outcome(state) == rules.Outcome(winner=winner, score=score)
    assert GAME.legal_actions(state) == []
    # Nothing more can be played once a side has 3 wins.
    assert_refused(state, PLAY, rules.IllegalAction, "battle-over", rules.Dice(SEED, step))
    assert_refused(state, lock(0, deck()), rules.IllegalAction, "battle-over")


def test_legal_actions_follow_the_phases():
    state = GAME.new_match({}, SEED)
    assert GAME.legal_actions(state) == [{"type": "lock_deck", "seat": 0}, {"type": "lock_deck", "seat": 1}]
    state, _ = GAME.apply(state, lock(1, deck()), rules.Dice(SEED, 0))
    assert GAME.legal_actions(state) == [{"type": "lock_deck", "seat": 0}]
    state, _ = GAME.apply(state, lock(0, deck()), rules.Dice(SEED, 1))
    assert GAME.legal_actions(state) == [PLAY]


def test_every_match_has_a_winner():
    # No draws: a battle of identical decks still ends 3-x on coin flips.
    both = deck(*[card(f"T{i}", power=5, speed=5) for i in range(5)])
    state, rounds = play_out(locked(both, copy.deepcopy(both)))
    assert all(r["decided_by"] == "coin" for r in rounds)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winner in (0, 1)
    assert outcome.score in ("3-0", "3-1", "3-2")
    assert len(rounds) == 3 + int(outcome.score[-1])


# ---------------------------------------------------------------- 5. the coin flip is reproducible


ALL_TIES = deck(*[card(f"Tie{i}", "Shadow", power=4, speed=4) for i in range(5)])


def coins_for(seed, step_offset=0):
    """The coin of each round of an all-ties battle, playing round n at step 2 + n + offset."""
    state = locked(ALL_TIES, copy.deepcopy(ALL_TIES), seed=seed)
    coins = {}
    while GAME.legal_actions(state) == [PLAY]:
        number = len(state["rounds"]) + 1
        state, events, _ = play_round(state, seed, step=2 + number + step_offset)
        coins[number] = events[0]["coin"]
    return coins


def test_coin_is_the_same_for_the_same_seed_and_round():
    first = coins_for(SEED)
    assert first and all(coin in (0, 1) for coin in first.values())
    for _ in range(3):
        assert coins_for(SEED) == first


@pytest.mark.parametrize("offset", [1, 7, 100])
def test_coin_does_not_depend_on_the_step_number(offset):
    assert coins_for(SEED, step_offset=offset) == coins_for(SEED)


def test_coin_for_round_1_varies_across_seeds():
    seeds = [f"seed-{i}" for i in range(64)]
    winners = {coins_for(seed)[1] for seed in seeds}
    assert winners == {0, 1}


def test_coin_depends_on_the_round_number():
    # The engine flips per round (seed + round number), so rounds of one match can differ.
    differs = False
    for i in range(64):
        state = locked(ALL_TIES, copy.deepcopy(ALL_TIES), seed=f"seed-{i}")
        state, first, _ = play_round(state, f"seed-{i}", step=2)
        _, second, _ = play_round(state, f"seed-{i}", step=3)
        differs |= first[0]["coin"] != second[0]["coin"]
    assert differs


# ---------------------------------------------------------------- 6. bad input is refused


NAME_61 = "N" * 61

BAD_DECKS = {
    # rule: "Each player assembles a Battle Deck of exactly 5 cards"
    "4 cards": ([card(f"C{i}") for i in range(4)], rules.IllegalAction, "deck-size"),
    "6 cards": ([card(f"C{i}") for i in range(6)], rules.IllegalAction, "deck-size"),
    "no cards": ([], rules.IllegalAction, "deck-size"),
    "cards not a list": ("five cards", rules.IllegalAction, "deck-size"),
    # rule: "a deck of 5 unique cards"
    "duplicate name": (deck(card("Ember"), card("Ember")), rules.IllegalAction, "deck-unique"),
    "duplicate name, other case": (deck(card("Ember"), card("EMBER")), rules.IllegalAction, "deck-unique"),
    "duplicate name, padded": (deck(card("Ember"), card(" ember ")), rules.IllegalAction, "deck-unique"),
    # rule: one of the 9 Affinities
    "unknown affinity": (deck(card("X", affinity="Plasma")), rules.InvalidCard, "card-affinity"),
    "missing affinity": (deck({"name": "X", "power": 5, "speed": 5}), rules.InvalidCard, "card-affinity"),
    # card stats: whole numbers 0..999
    "negative power": (deck(card("X", power=-1)), rules.InvalidCard, "card-stat-range"),
    "power 1000": (deck(card("X", power=1000)), rules.InvalidCard, "card-stat-range"),
    "power as string": (deck(card("X", power="7")), rules.InvalidCard, "card-stat-type"),
    "power as bool": (deck(card("X", power=True)), rules.InvalidCard, "card-stat-type"),
    "power as float": (deck(card("X", power=7.0)), rules.InvalidCard, "card-stat-type"),
    "power missing": (deck({"name": "X", "affinity": "Air", "speed": 5}), rules.InvalidCard,
                      "card-stat-type"),
    "negative speed": (deck(card("X", speed=-1)), rules.InvalidCard, "card-stat-range"),
    "speed as string": (deck(card("X", speed="fast")), rules.InvalidCard, "card-stat-type"),
    # card names: 1 to 60 characters
    "empty name": (deck(card("")), rules.InvalidCard, "card-name"),
    "blank name": (deck(card("   ")), rules.InvalidCard, "card-name"),
    "61-char name": (deck(card(NAME_61)), rules.InvalidCard, "card-name"),
    "name not text": (deck(card(7)), rules.InvalidCard, "card-name"),
    "card not a dict": (deck("Ember"), rules.InvalidCard, "card-shape"),
}


@pytest.mark.parametrize(("cards", "error", "rule"), BAD_DECKS.values(), ids=BAD_DECKS.keys())
def test_bad_deck_is_refused(cards, error, rule):
    state = GAME.new_match({}, SEED)
    assert_refused(state, lock(0, cards), error, rule)
    # The same refusal when the other seat has already locked in.
    state, _ = GAME.apply(state, lock(1, deck()), rules.Dice(SEED, 0))
    assert_refused(state, lock(0, cards), error, rule)


def test_limits_themselves_are_accepted():
    # Boundary values just inside the ranges: a 60-character name, Power/Speed 0 and 999.
    cards = deck(card("N" * 60, power=0, speed=999), card("Max", power=999, speed=0))
    state, _ = GAME.apply(GAME.new_match({}, SEED), lock(0, cards), rules.Dice(SEED, 0))
    assert state["decks"][0][0]["name"] == "N" * 60
    assert [(c["power"], c["speed"]) for c in state["decks"][0][:2]] == [(0, 999), (999, 0)]


def test_cards_are_normalised_when_locked():
    cards = deck(card("  Ember ", affinity=" fire", power=3, speed=2))
    state, _ = GAME.apply(GAME.new_match({}, SEED), lock(0, cards), rules.Dice(SEED, 0))
    assert state["decks"][0][0] == {
        "name": "Ember", "power": 3, "speed": 2, "affinity": "Fire", "rarity": "Common", "level": 1,
    }


@pytest.mark.parametrize(
    ("bad", "rule"),
    [
        ({"power": -1}, "card-stat-range"),
        ({"power": "7"}, "card-stat-type"),
        ({"power": False}, "card-stat-type"),
        ({"power": 1000}, "card-stat-range"),
        ({"affinity": "Metal"}, "card-affinity"),
        ({"rarity": "Mythic"}, "card-rarity"),
        ({"level": 0}, "card-stat-range"),
        ({"name": NAME_61}, "card-name"),
    ],
)
def test_validate_card_refuses_bad_stats(bad, rule):
    with pytest.raises(rules.InvalidCard) as raised:
        GAME.validate_card({**card("Ember"), **bad})
    assert isinstance(raised.value, ValueError)
    assert raised.value.rule == rule


def test_locking_a_seat_twice_is_refused():
    state, _ = run([lock(0, deck())])
    assert_refused(state, lock(0, deck(prefix="D")), rules.IllegalAction, "already-locked")


def test_changing_a_deck_after_both_are_locked_is_refused():
    # "Once the battle starts, the order of your deck is locked and cannot be changed."
    state = locked(deck(), deck())
    assert_refused(state, lock(0, list(reversed(deck()))), rules.IllegalAction, "order-locked")


@pytest.mark.parametrize("seat", [2, -1, "0", None, True])
def test_lock_for_a_seat_that_does_not_exist_is_refused(seat):
    state = GAME.new_match({}, SEED)
    assert_refused(state, lock(seat, deck()), rules.IllegalAction, "seat")


def test_lock_for_a_float_seat_is_refused():
    state = GAME.new_match({}, SEED)
    assert_refused(state, lock(1.0, deck()), rules.IllegalAction, "seat")


def test_play_round_before_both_decks_are_locked_is_refused():
    state = GAME.new_match({}, SEED)
    assert_refused(state, PLAY, rules.IllegalAction, "not-locked")
    state, _ = run([lock(0, deck())])
    assert_refused(state, PLAY, rules.IllegalAction, "not-locked")


@pytest.mark.parametrize("action", [{"type": "shuffle"}, {}, {"kind": "play_round"}, "play_round", None])
def test_unknown_action_is_refused(action):
    for state in (GAME.new_match({}, SEED), locked(deck(), deck())):
        assert_refused(state, action, rules.IllegalAction, "action-unknown")


@pytest.mark.parametrize(
    ("config", "rule"),
    [
        ({"rounds": 7}, "config-unknown"),
        ({"resolution": "battle-score", "speed": 1}, "config-unknown"),
        ({"resolution": "speed-only"}, "config-resolution"),
        ({"resolution": None}, "config-resolution"),
        ({"resolution": "Power-Only"}, "config-resolution"),
    ],
)
def test_bad_config_is_refused(config, rule):
    before = copy.deepcopy(config)
    with pytest.raises(rules.InvalidConfig) as raised:
        GAME.new_match(config, SEED)
    assert isinstance(raised.value, ValueError)
    assert raised.value.rule == rule
    assert config == before


def test_error_messages_fill_in_their_parameters():
    # Messages travel as a template plus parameters, for translation by the tracker.
    error = assert_refused(GAME.new_match({}, SEED), lock(0, deck()[:4]), rules.IllegalAction, "deck-size")
    assert error.params == {"size": 5, "count": 4}
    assert str(error) == error.template % error.params


# ---------------------------------------------------------------- 7. JSON round-trip and replay


def full_match_actions():
    # Round 1 on score, round 2 on a coin flip (Team Initiative 27 each), round 3 on speed,
    # round 4 on score (Air dominates Earth); round 5 is played only if seat 0 won the coin.
    deck0 = [
        card("Blaze", "Fire", 7, 5), card("Twin", "Light", 5, 5), card("Dash", "Ice", 4, 6),
        card("Rock", "Earth", 2, 6), card("Ember", "Fire", 9, 5),
    ]
    deck1 = [
        card("Tide", "Water", 6, 8), card("twin", "Light", 5, 5), card("Slow", "Ice", 4, 3),
        card("Gust", "Air", 8, 3), card("Mist", "Water", 1, 8),
    ]
    return [lock(1, deck1), lock(0, deck0)] + [PLAY] * 5


def play_log(actions, seed):
    """Apply actions until the battle ends; the states, events and rolls after each step."""
    state = GAME.new_match({}, seed)
    states, all_events, rolls = [state], [], []
    for step, action in enumerate(actions):
        if GAME.outcome(state) is not None:
            break
        before = copy.deepcopy(state)
        dice = rules.Dice(seed, step)
        state, events = GAME.apply(state, action, dice)
        assert states[-1] == before, "apply changed the state it was given"
        states.append(state)
        all_events.append(events)
        rolls.append(dice.rolls)
    return states, all_events, rolls


def test_state_and_events_survive_json_after_every_step():
    states, all_events, rolls = play_log(full_match_actions(), SEED)
    assert GAME.outcome(states[-1]) is not None
    assert any(e.get("decided_by") == "coin" for events in all_events for e in events)
    for state in states:
        assert json.loads(json.dumps(state)) == state
    for events in all_events:
        assert json.loads(json.dumps(events)) == events
    for step_rolls in rolls:
        assert json.loads(json.dumps(step_rolls)) == step_rolls


def test_a_state_loaded_from_json_plays_on_the_same():
    actions = full_match_actions()
    states, all_events, _ = play_log(actions, SEED)
    for step, state in enumerate(states[:-1]):
        reloaded = json.loads(json.dumps(state))
        after = GAME.apply(reloaded, actions[step], rules.Dice(SEED, step))
        assert after == (states[step + 1], all_events[step])


def test_replaying_the_log_gives_identical_states():
    actions = full_match_actions()
    first = play_log(actions, SEED)
    again = play_log(copy.deepcopy(actions), SEED)
    assert again == first
    assert GAME.outcome(first[0][-1]) is not None
    assert len(first[0]) == 1 + 2 + len(first[0][-1]["rounds"])


# ---------------------------------------------------------------- 8. what the table may see


def test_locked_deck_is_hidden_until_both_are_locked():
    deck0, deck1 = deck(card("Secret", "Shadow", 9, 9)), deck(prefix="D")
    first, second = lock(0, deck0), lock(1, deck1)

    state = GAME.new_match({}, SEED)
    assert GAME.public_action(state, first) == {"type": "lock_deck", "seat": 0}

    state, _ = GAME.apply(state, first, rules.Dice(SEED, 0))
    shown = GAME.public_action(state, first)
    assert shown == {"type": "lock_deck", "seat": 0}
    assert "cards" not in shown
    assert "cards" not in GAME.public_action(state, second)

    state, _ = GAME.apply(state, second, rules.Dice(SEED, 1))
    assert GAME.public_action(state, first)["cards"] == deck0
    assert GAME.public_action(state, second)["cards"] == deck1

    # And still visible once the battle is over.
    state, _ = play_out(state)
    assert GAME.outcome(state) is not None
    assert GAME.public_action(state, first)["cards"] == deck0


def test_public_action_does_not_alter_the_action():
    action = lock(0, deck())
    before = copy.deepcopy(action)
    GAME.public_action(GAME.new_match({}, SEED), action)
    assert action == before
    assert GAME.public_action(locked(deck(), deck()), PLAY) == PLAY
