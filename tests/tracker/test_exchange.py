"""Match files without HTTP: export, parse, re-run and import.

A match file must re-run to exactly the match it came from (state, head, outcome, every
action and die), and any file that does not re-run cleanly must be refused at the step
where it goes wrong, with nothing stored.

SCRIPTS holds, per game slug, the matches each game's round trip is checked with. A game
that lands without a script is listed and skipped (with the reason), so adding a game to
rules.GAMES shows up here until someone writes its matches.
"""

import copy
import dataclasses
import json
from datetime import UTC, datetime

import pytest
from django.utils import timezone

import rules
from rules import Dice
from tracker import demo, exchange, services
from tracker.games import ADAPTERS
from tracker.models import Action, Match, Player, Seat

from .conftest import ANA_DECK, BEN_DECK, make_card

pytestmark = pytest.mark.django_db

# --- scripted matches ---------------------------------------------------------------------------
#
# The rulebook battle (ANA_DECK vs BEN_DECK, tests/tracker/conftest.py): Ben wins 3-2 in 7 steps.
#   step 1 Ana locks, 2 Ben locks, 3 round 1 (Ben), 4 round 2 (Ana), 5 round 3 (Ben),
#   6 round 4 (Ana, on Speed), 7 round 5 (Ben).

# Round 1 is a perfect tie (Air 5/5 both sides, Team Initiative 22 each): the coin flip decides.
# Rounds 2-4 go to Ana on Power, so the battle ends 3-0 or 3-1 depending on the seed's coin.
TIE_DECK_0 = ["Twin A", "Mountain Titan", "Leviathan", "Void Lord", "Radiant Seraph"]  # Speed 5+3+2+5+7 = 22
TIE_DECK_1 = ["Twin B", "Frost Wisp", "Thorn Sprout", "Glacier Bear", "Stone Golem"]  # Speed 5+7+5+3+2 = 22


def crush_rulebook() -> Match:
    return demo.play_battle(("Ana", "Ben"), "battle-score", [ANA_DECK, BEN_DECK])


def crush_power_only() -> Match:
    _players, resolution, deck_a, deck_b = demo.BATTLES[2]
    return demo.play_battle(("Ben", "Chloé"), resolution, [deck_a, deck_b])


def crush_coin_flip_tie() -> Match:
    make_card("Twin A", 5, 5, "Air")
    make_card("Twin B", 5, 5, "Air")
    return demo.play_battle(("Ana", "Ben"), "battle-score", [TIE_DECK_0, TIE_DECK_1])


def crush_all_coin_flips() -> Match:
    """Two decks of identical Air 5/5 cards: every round is decided by the seed's coin."""
    decks = [[make_card(f"Mirror {side}{n}", 5, 5).name for n in range(1, 6)] for side in "AB"]
    return demo.play_battle(("Ana", "Ben"), "battle-score", decks)


def crush_undo_branch() -> Match:
    """Round 1 played, undone, and played again: the first round 1 is an abandoned branch."""
    return demo.play_battle(("Ana", "Ben"), "battle-score", [ANA_DECK, BEN_DECK], undo_once=True)


def crush_undone_tail() -> Match:
    """A finished battle taken back to step 4: rounds 3 to 5 are undone (can be redone), not exported."""
    match = crush_rulebook()
    return services.match_goto(match_id=match.pk, step=4, expected_seq=match.head)


def crush_in_progress() -> Match:
    """Both decks locked and two rounds played: 1-1, no outcome yet."""
    match = services.match_create(game="card-crush", player_names=["Ana", "Ben"], config={})
    for seat, names in enumerate([ANA_DECK, BEN_DECK]):
        services.match_apply_action(
            match_id=match.pk, action={"type": "lock_deck", "seat": seat, "cards": demo._deck(names)},
            expected_seq=seat)
    for step in (2, 3):
        services.match_apply_action(match_id=match.pk, action={"type": "play_round"}, expected_seq=step)
    return match


def crush_fresh() -> Match:
    return services.match_create(game="card-crush", player_names=["Ana", "Ben"], config={})


def logos_knock_out() -> Match:
    """A LOGOS duel from 30,000 HP: a backup stored and called, a defenceless round, a knock-out."""
    match = services.match_create(game="logos", player_names=["Ana", "Ben"], config={"starting_hp": 30_000})
    card = {c["name"]: c for c in ADAPTERS["logos"].DEMO_CARDS}.get
    script = [
        {"type": "commit", "seat": 0, "round": 1, "card": card("Granite Fist"), "backup": card("Seraph")},
        {"type": "commit", "seat": 1, "round": 1, "card": card("Solar Flare"), "backup": None},
        {"type": "fight"},
        {"type": "defenceless", "seat": 0, "round": 2},
        {"type": "commit", "seat": 1, "round": 2, "card": card("Static Field"), "backup": None},
        {"type": "fight"},
        {"type": "commit", "seat": 0, "round": 3, "card": card("Iron Golem"), "backup": None},
        {"type": "commit", "seat": 1, "round": 3, "card": card("Shuffle Drone"), "backup": None},
        {"type": "call_backup", "seat": 0},
        {"type": "fight"},
    ]
    for step, action in enumerate(script):
        services.match_apply_action(match_id=match.pk, action=action, expected_seq=step)
    return match


# Finished matches: their files carry the seed and must re-run to the same match.
SCRIPTS = {
    "card-crush": {
        "rulebook": crush_rulebook,
        "power-only": crush_power_only,
        "coin-flip-tie": crush_coin_flip_tie,
        "all-coin-flips": crush_all_coin_flips,
        "undo-branch": crush_undo_branch,
    },
    "logos": {"knock-out": logos_knock_out},
}
# Running matches: their files withhold the seed (fair seeds) and cannot be re-run.
RUNNING = {
    "card-crush": {
        "undone-tail": crush_undone_tail,
        "in-progress": crush_in_progress,
        "fresh": crush_fresh,
    },
}

ROUND_TRIPS = [
    pytest.param(slug, name, id=f"{slug}-{name}") for slug in rules.GAMES for name in SCRIPTS.get(slug, {})
] + [
    pytest.param(slug, None, id=f"{slug}-unscripted", marks=pytest.mark.skip(
        reason=f"no scripted matches for {slug} yet: add them to SCRIPTS in tests/tracker/test_exchange.py"))
    for slug in rules.GAMES if slug not in SCRIPTS
]


def play_script(slug: str, name: str) -> Match:
    match = {**SCRIPTS.get(slug, {}), **RUNNING.get(slug, {})}[name]()
    return Match.objects.get(pk=match.pk)


def as_file(match: Match) -> dict:
    """The match file, as it would come back from disk."""
    return json.loads(json.dumps(exchange.export_match(match)))


def applied(match: Match) -> list[tuple]:
    """The applied line of play: what a round trip must keep, action by action."""
    return [(a.seq, a.seat, a.payload, a.rolls, a.events) for a in services.live_actions(match)[: match.head]]


def counts() -> tuple[int, int, int, int]:
    return Match.objects.count(), Action.objects.count(), Player.objects.count(), Seat.objects.count()


# --- round trips --------------------------------------------------------------------------------


def test_every_game_is_listed_or_skipped():
    """A reminder with teeth: SCRIPTS may only name games that exist."""
    assert set(SCRIPTS) | set(RUNNING) <= set(rules.GAMES)


@pytest.mark.parametrize(("slug", "name"), ROUND_TRIPS)
def test_it_round_trips_to_the_same_match(catalog, slug, name):
    original = play_script(slug, name)
    data = as_file(original)
    imported = exchange.import_match(data)
    imported = Match.objects.get(pk=imported.pk)

    assert original.finished is not None, "SCRIPTS holds finished matches; running ones go in RUNNING"
    assert imported.pk != original.pk
    assert (imported.game, imported.rules_version, imported.config, imported.seed) == (
        original.game, original.rules_version, original.config, original.seed)
    assert [p.name for p in imported.players()] == [p.name for p in original.players()]
    assert imported.state == original.state
    assert imported.head == original.head
    assert rules.GAMES[slug].outcome(imported.state) == rules.GAMES[slug].outcome(original.state)
    assert (imported.finished is None) == (original.finished is None)
    assert imported.winner == original.winner
    assert imported.score == original.score
    assert applied(imported) == applied(original)
    # Only the applied line is stored: no undone or abandoned action comes across.
    assert imported.actions.count() == original.head
    assert services.match_replay(imported) == imported.state
    # Exporting the import gives the very same file, timestamps included.
    assert as_file(imported) == data


RUNNING_CASES = [pytest.param(slug, name, id=f"{slug}-{name}") for slug in RUNNING for name in RUNNING[slug]]


@pytest.mark.parametrize(("slug", "name"), RUNNING_CASES)
def test_a_running_match_is_exported_without_its_seed_and_not_re_run(catalog, slug, name):
    match = play_script(slug, name)
    assert match.finished is None
    data = as_file(match)
    assert data["seed"] is None
    assert data["seed_fingerprint"] == match.seed_fingerprint
    assert data["outcome"] is None
    assert len(data["actions"]) == match.head
    refused(data, step=None, says="exported while the match was still running, so its seed was withheld")


@pytest.mark.parametrize("slug", list(rules.GAMES))
def test_a_fresh_match_of_every_game_keeps_its_seed_secret(db, slug):
    """Needs no script: every installed game's new match exports without its seed and is refused on import."""
    game = rules.GAMES[slug]
    names = [f"Player {n}" for n in range(1, game.seats + 1)]
    match = services.match_create(game=slug, player_names=names, config={})
    data = as_file(match)
    assert (data["game"], data["players"], data["actions"], data["outcome"]) == (slug, names, [], None)
    assert data["seed"] is None and data["seed_fingerprint"] == match.seed_fingerprint
    assert match.seed not in json.dumps(data)
    refused(data, step=None, says="its seed was withheld")


def test_the_file_names_everything_needed_to_replay(catalog):
    match = play_script("card-crush", "rulebook")
    data = as_file(match)
    assert data["format"] == "tablekeeper-match"
    assert data["format_version"] == 1
    assert data["game"] == "card-crush"
    assert data["rules_version"] == rules.GAMES["card-crush"].rules_version
    assert data["config"] == {"resolution": "battle-score"}
    assert data["seed"] == match.seed
    assert data["seed_fingerprint"] == match.seed_fingerprint
    assert data["players"] == ["Ana", "Ben"]
    assert data["outcome"] == {"winner": "Ben", "score": "3-2"}
    assert [a["step"] for a in data["actions"]] == [1, 2, 3, 4, 5, 6, 7]
    assert [a["seat"] for a in data["actions"]] == [0, 1, None, None, None, None, None]
    assert [a["action"]["type"] for a in data["actions"]] == ["lock_deck"] * 2 + ["play_round"] * 5
    assert [c["name"] for c in data["actions"][0]["action"]["cards"]] == ANA_DECK
    assert all(a["rolls"] == [] for a in data["actions"])
    assert all(len(a["state_sha256"]) == 64 for a in data["actions"])
    assert data["actions"][-1]["state_sha256"] == exchange.state_hash(match.state)
    live = services.live_actions(match)
    assert [a["at"] for a in data["actions"]] == [a.created.isoformat() for a in live]


def test_a_coin_flip_is_exported_with_its_roll(catalog):
    match = play_script("card-crush", "coin-flip-tie")
    step_3 = as_file(match)["actions"][2]
    coin = match.state["rounds"][0]["coin"]
    assert step_3["rolls"] == [{"sides": 2, "value": coin, "by": "app", "why": "card-crush round 1"}]
    assert [a["rolls"] for a in as_file(match)["actions"][3:]] == [[]] * (match.head - 3)


def test_an_undo_branch_exports_only_the_applied_line(catalog):
    match = play_script("card-crush", "undo-branch")
    abandoned = match.actions.get(abandoned=True)
    assert abandoned.seq == 3
    live_round_1 = match.actions.get(abandoned=False, seq=3)
    data = as_file(match)
    assert len(data["actions"]) == match.head == 7
    assert data["actions"][2]["at"] == live_round_1.created.isoformat()
    assert data["actions"][2]["at"] != abandoned.created.isoformat()
    imported = exchange.import_match(data)
    assert not imported.actions.filter(abandoned=True).exists()
    assert imported.actions.get(seq=3).created == live_round_1.created


def test_an_undone_tail_is_left_out_and_the_match_is_running(catalog):
    match = play_script("card-crush", "undone-tail")
    assert match.actions.filter(abandoned=False).count() == 7
    data = as_file(match)
    assert len(data["actions"]) == 4
    assert data["outcome"] is None
    data["seed"] = match.seed  # as someone who knows the seed could fill it in
    imported = exchange.import_match(data)
    assert imported.finished is None and imported.winner is None and imported.score == ""
    assert imported.state["wins"] == [1, 1]


def test_replay_gives_every_state_and_the_outcome(catalog):
    match = play_script("card-crush", "rulebook")
    replayed = exchange.replay(as_file(match))
    assert replayed.game is rules.GAMES["card-crush"]
    assert len(replayed.states) == len(replayed.events) == 7
    assert replayed.states[-1] == match.state
    assert [s["wins"] for s in replayed.states[2:]] == [[0, 1], [1, 1], [1, 2], [2, 2], [2, 3]]
    assert replayed.outcome == rules.Outcome(winner=1, score="3-2")


def test_replay_stores_nothing(catalog):
    data = as_file(play_script("card-crush", "rulebook"))
    before = counts()
    exchange.replay(data)
    assert counts() == before


def test_a_retired_rules_version_replays_under_its_own_rules(catalog, monkeypatch):
    data = as_file(play_script("card-crush", "rulebook"))
    data["rules_version"] = "0"
    retired = dataclasses.replace(rules.GAMES["card-crush"], rules_version="0")
    monkeypatch.setitem(rules.RETIRED, ("card-crush", "0"), retired)
    imported = exchange.import_match(data)
    assert imported.rules_version == "0"
    assert Match.objects.get(pk=imported.pk).rules is retired


def test_import_reuses_known_players_and_adds_new_ones(catalog):
    data = rename(as_file(play_script("card-crush", "rulebook")), "Zoé", "  Yan   Li ")
    players = Player.objects.count()
    imported = exchange.import_match(data)
    assert [p.name for p in imported.players()] == ["Zoé", "Yan Li"]
    assert imported.winner.name == "Yan Li"
    assert Player.objects.count() == players + 2
    again = exchange.import_match(data)
    assert Player.objects.count() == players + 2
    assert again.players() == imported.players()


# --- refusals -----------------------------------------------------------------------------------


def rename(data: dict, *names: str) -> dict:
    """The same file with other player names (the outcome's winner renamed to match)."""
    data = copy.deepcopy(data)
    old = data["players"]
    data["players"] = list(names)
    if data["outcome"] and data["outcome"]["winner"] is not None:
        data["outcome"]["winner"] = names[old.index(data["outcome"]["winner"])]
    return data


@pytest.fixture
def clean_file(catalog) -> dict:
    """The rulebook battle's file with players this database has never seen, so a stored
    refusal would show up in the Player count too."""
    return rename(as_file(play_script("card-crush", "rulebook")), "Zed", "Yara")


@pytest.fixture
def coin_file(catalog) -> dict:
    return rename(as_file(play_script("card-crush", "coin-flip-tie")), "Zed", "Yara")


def refused(data: dict, *, step: int | None, says: str) -> exchange.MatchFileError:
    before = counts()
    with pytest.raises(exchange.MatchFileError) as caught:
        exchange.import_match(data)
    error = caught.value
    assert error.step == step, str(error)
    if step:
        assert str(error).startswith(f"Step {step}: "), str(error)
    assert says in str(error)
    assert counts() == before
    return error


def refused_raw(raw: bytes, *, says: str) -> None:
    before = counts()
    with pytest.raises(exchange.MatchFileError) as caught:
        exchange.import_match(exchange.parse(raw))
    assert caught.value.step is None
    assert says in str(caught.value), str(caught.value)
    assert counts() == before


def test_the_clean_file_imports(clean_file):
    """The control for every refusal below: untouched, the same file is stored."""
    matches, actions, players, seats = counts()
    exchange.import_match(exchange.parse(json.dumps(clean_file).encode()))
    assert counts() == (matches + 1, actions + 7, players + 2, seats + 2)


def test_a_cards_power_changed_in_step_1(clean_file):
    clean_file["actions"][0]["action"]["cards"][0]["power"] += 1
    refused(clean_file, step=1, says="the result differs from the one recorded in the file")


def test_a_card_swapped_for_another_legal_card(clean_file):
    cards = clean_file["actions"][1]["action"]["cards"]
    cards[0], cards[1] = cards[1], cards[0]
    refused(clean_file, step=2, says="the result differs from the one recorded in the file")


def test_an_illegal_action_deck_of_4(clean_file):
    clean_file["actions"][1]["action"]["cards"].pop()
    refused(clean_file, step=2, says="the rules refuse this action: A deck has exactly 5 cards, not 4.")


def test_an_illegal_action_unknown_type(clean_file):
    clean_file["actions"][4]["action"] = {"type": "concede"}
    refused(clean_file, step=5, says="the rules refuse this action: Card Crush has no action 'concede'.")


def test_a_step_removed(clean_file):
    del clean_file["actions"][2]
    refused(clean_file, step=3, says="the entry is malformed or out of order")


def test_two_steps_swapped(clean_file):
    actions = clean_file["actions"]
    actions[3], actions[4] = actions[4], actions[3]
    refused(clean_file, step=4, says="the entry is malformed or out of order")


def test_a_step_renumbered_to_fit(clean_file):
    """Removing round 3 and renumbering the rest: every later state differs."""
    del clean_file["actions"][4]
    for number, entry in enumerate(clean_file["actions"], start=1):
        entry["step"] = number
    refused(clean_file, step=5, says="the result differs")


def test_a_truncated_file_that_still_claims_the_outcome(clean_file):
    clean_file["actions"] = clean_file["actions"][:5]
    refused(clean_file, step=5, says="the file claims the result {'winner': 'Yara', 'score': '3-2'} "
                                     "but re-running it gives None")


def test_a_file_cut_in_the_middle_of_its_json(clean_file):
    raw = json.dumps(clean_file).encode()
    refused_raw(raw[: len(raw) // 2], says="The file is not valid JSON")


def test_an_altered_coin_flip(coin_file):
    roll = coin_file["actions"][2]["rolls"][0]
    roll["value"] = 1 - roll["value"]
    refused(coin_file, step=3, says=f"the dice do not match the seed: the file says [{roll['value']}], "
                                    f"the seed gives [{1 - roll['value']}]")


def test_a_coin_flip_claimed_as_entered_at_the_table(coin_file):
    coin_file["actions"][2]["rolls"][0]["by"] = "player"
    refused(coin_file, step=3, says="the dice do not match the seed")


def test_a_roll_added_where_the_rules_roll_none(clean_file):
    clean_file["actions"][3]["rolls"] = [{"sides": 6, "value": 6, "by": "player", "why": "luck"}]
    refused(clean_file, step=4, says="the dice do not match the seed: the file says [6], the seed gives []")


def test_a_roll_removed(coin_file):
    coin_file["actions"][2]["rolls"] = []
    refused(coin_file, step=3, says="the dice do not match the seed")


def test_a_malformed_dice_record(clean_file):
    clean_file["actions"][2]["rolls"] = "none"
    refused(clean_file, step=3, says="its dice record is malformed")


def other_seed_for(seed: str, label: str) -> str:
    """A seed whose coin for `label` falls the other way (found deterministically)."""
    want = 1 - Dice(seed, 0).flip(label)
    return next(s for s in (f"{seed}-{n}" for n in range(100)) if Dice(s, 0).flip(label) == want)


def test_a_changed_seed_no_longer_matches_its_fingerprint(coin_file):
    coin_file["seed"] = other_seed_for(coin_file["seed"], "card-crush round 1")
    refused(coin_file, step=None, says="The seed does not match the fingerprint shown when the match started.")


def test_an_altered_fingerprint(clean_file):
    clean_file["seed_fingerprint"] = "0" * 12
    refused(clean_file, step=None, says="The seed does not match the fingerprint")


def with_other_seed(data: dict) -> dict:
    """The file re-seeded so round 1's coin falls the other way, its fingerprint forged to match."""
    data["seed"] = other_seed_for(data["seed"], "card-crush round 1")
    data["seed_fingerprint"] = rules.seed_fingerprint(data["seed"])
    return data


def test_a_changed_seed_and_fingerprint_changes_the_coin_flip(coin_file):
    refused(with_other_seed(coin_file), step=3, says="the dice do not match the seed")


def test_a_changed_seed_without_a_fingerprint_changes_the_coin_flip(coin_file):
    with_other_seed(coin_file)
    del coin_file["seed_fingerprint"]
    refused(coin_file, step=3, says="the dice do not match the seed")


def test_a_changed_seed_with_the_rolls_rewritten_to_match_changes_the_state(coin_file):
    """Someone who re-rolls with their own seed still cannot keep the recorded result."""
    with_other_seed(coin_file)
    roll = coin_file["actions"][2]["rolls"][0]
    roll["value"] = 1 - roll["value"]
    refused(coin_file, step=3, says="the result differs")


@pytest.mark.parametrize("outcome", [
    pytest.param({"winner": "Yara", "score": "3-1"}, id="score"),
    pytest.param({"winner": "Zed", "score": "3-2"}, id="winner"),
    pytest.param({"winner": None, "score": "3-2"}, id="draw"),
    pytest.param(None, id="no-outcome"),
])
def test_an_altered_outcome_claim(clean_file, outcome):
    clean_file["outcome"] = outcome
    refused(clean_file, step=7, says="the file claims the result")


def test_an_outcome_claimed_for_a_running_match(catalog):
    match = play_script("card-crush", "in-progress")
    data = rename(as_file(match), "Zed", "Yara")
    data["seed"] = match.seed
    data["outcome"] = {"winner": "Zed", "score": "3-0"}
    refused(data, step=4, says="re-running it gives None")


def test_a_state_hash_removed(clean_file):
    del clean_file["actions"][5]["state_sha256"]
    refused(clean_file, step=6, says="the result differs")


@pytest.mark.parametrize("entry", [None, "step 3", {"step": 3}, {"step": 3, "action": "play_round"}])
def test_a_malformed_entry(clean_file, entry):
    clean_file["actions"][2] = entry
    refused(clean_file, step=3, says="the entry is malformed or out of order")


@pytest.mark.parametrize(("field", "value", "says"), [
    ("format", "tablekeeper-deck", "This is not a Tablekeeper match file."),
    ("format", None, "This is not a Tablekeeper match file."),
    ("format_version", 2, "Match file format version 2 is not supported; this Tablekeeper reads version 1."),
    ("format_version", "1", "Match file format version '1' is not supported"),
    ("format_version", None, "Match file format version None is not supported"),
])
def test_a_foreign_format(clean_file, field, value, says):
    clean_file[field] = value
    refused_raw(json.dumps(clean_file).encode(), says=says)


def test_an_unknown_game(clean_file):
    clean_file["game"] = "chess"
    refused(clean_file, step=None, says="This Tablekeeper does not know the game 'chess'.")


def test_a_rules_version_not_installed_is_refused_not_rescored(clean_file):
    clean_file["rules_version"] = "0.9"
    error = refused(clean_file, step=None, says="Card Crush rules version 0.9")
    assert "no longer has" in str(error)
    assert "It is refused rather than re-scored under other rules." in str(error)


@pytest.mark.parametrize("players", [
    pytest.param(["Zed"], id="one"),
    pytest.param(["Zed", "Yara", "Xia"], id="three"),
    pytest.param([], id="none"),
    pytest.param(["Zed", "   "], id="blank"),
    pytest.param(["Zed", 7], id="number"),
    pytest.param(["Zed", "Y" * 41], id="too-long"),
])
def test_wrong_players(clean_file, players):
    clean_file["players"] = players
    refused(clean_file, step=None, says="Card Crush needs 2 named players.")


@pytest.mark.parametrize(("field", "value"), [
    ("game", None), ("rules_version", 1), ("config", []), ("seed", 42),
    ("players", "Zed, Yara"), ("actions", {}), ("actions", True),
])
def test_a_malformed_field(clean_file, field, value):
    clean_file[field] = value
    refused(clean_file, step=None, says=f"The file's {field} is missing or malformed.")


def test_a_withheld_seed_is_explained(clean_file):
    clean_file["seed"] = None
    refused(clean_file, step=None, says="This file was exported while the match was still running, so its seed "
                                        "was withheld and it cannot be re-run. Export it again once the match is over.")


def test_a_missing_seed_without_a_fingerprint_is_malformed(clean_file):
    del clean_file["seed"], clean_file["seed_fingerprint"]
    refused(clean_file, step=None, says="The file's seed is missing or malformed.")


def test_an_unknown_option(clean_file):
    clean_file["config"] = {"resolution": "battle-score", "colour": "red"}
    refused(clean_file, step=None, says="Card Crush has no option called colour.")


def test_too_many_actions(clean_file):
    clean_file["actions"] = clean_file["actions"] * (exchange.MAX_ACTIONS // 7 + 1)
    refused(clean_file, step=None, says=f"The file has more than {exchange.MAX_ACTIONS} actions.")


def test_a_file_larger_than_the_limit(clean_file):
    raw = json.dumps(clean_file).encode()
    raw += b" " * (exchange.MAX_BYTES + 1 - len(raw))
    refused_raw(raw, says="The file is larger than 2 MB")


def test_a_file_just_under_the_limit_is_read(clean_file):
    raw = json.dumps(clean_file).encode()
    raw += b" " * (exchange.MAX_BYTES - len(raw))
    assert exchange.parse(raw) == clean_file


def test_non_utf8_bytes(clean_file):
    raw = json.dumps(clean_file, ensure_ascii=False).replace("Zed", "Zéd").encode("latin-1")
    refused_raw(raw, says="The file is not valid JSON")


@pytest.mark.parametrize("raw", [b"[]", b"[1, 2]", b'"tablekeeper-match"', b"42", b"null"])
def test_json_that_is_not_an_object(raw):
    before = counts()
    with pytest.raises(exchange.MatchFileError, match="This is not a Tablekeeper match file."):
        exchange.parse(raw)
    assert counts() == before


@pytest.mark.parametrize("raw", [b"", b"   ", b"{", b"not json", b"\xff\xfe\x00"])
def test_not_json_at_all(raw):
    with pytest.raises(exchange.MatchFileError, match="The file is not valid JSON"):
        exchange.parse(raw)


def test_deeply_nested_json_is_refused():
    with pytest.raises(exchange.MatchFileError, match="nested too deeply"):
        exchange.parse(b"[" * 100_000)


def test_a_huge_integer_is_refused_as_not_valid_json():
    with pytest.raises(exchange.MatchFileError):
        exchange.parse(b'{"format": ' + b"1" * 5000 + b"}")


@pytest.mark.parametrize("names", [("Zed", "zed"), ("Zed", " Zed "), ("Zoé", "ZOÉ"), ("Yara  Li", "yara li")])
def test_the_same_player_in_both_seats_is_refused(clean_file, names):
    refused(rename(clean_file, *names), step=None, says="Each seat needs a different player.")


@pytest.mark.parametrize("at", ["last tuesday", "2026-13-45T10:00:00+00:00", "", 20260102, None])
def test_an_unreadable_action_time_is_ignored(clean_file, at):
    clean_file["actions"][0]["at"] = at
    before = timezone.now()
    match = exchange.import_match(clean_file)
    assert match.actions.count() == 7
    assert match.actions.get(seq=1).created >= before  # the import time stays


def test_a_naive_action_time_is_read_in_the_default_time_zone(clean_file, settings):
    settings.TIME_ZONE = "Europe/Paris"
    clean_file["actions"][0]["at"] = "2026-01-02T10:00:00"
    match = exchange.import_match(clean_file)
    assert match.actions.get(seq=1).created == datetime(2026, 1, 2, 9, 0, tzinfo=UTC)


def test_matchfileerror_names_the_step():
    assert str(exchange.MatchFileError("the dice differ.", step=12)) == "Step 12: the dice differ."
    assert str(exchange.MatchFileError("Not a match file.")) == "Not a match file."
    assert exchange.MatchFileError("x", step=3).step == 3
