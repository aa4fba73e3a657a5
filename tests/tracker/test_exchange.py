"""Match files without HTTP: export, parse, re-run and import.

A match file must re-run to exactly the match it came from (state, head, outcome, every
action and die), and any file that does not re-run cleanly must be refused at the step
where it goes wrong, with nothing stored.

SCRIPTS holds, per game slug, the matches each game's round trip is checked with: the demo's
own scripts (tracker/games/<game>/demo.py), so the demo data is known to round-trip, and a few
more only these tests need. Every game has demo matches (its pages' demo module must hold them),
the sample game (tests/sample_game/) included. TAMPERED picks one finished match per game for the
refusal tests and CARD_STAT the stat they raise, as each game's pages declare them
(`tampered_demo`, `tampered_stat`); APP_ROLLED, TYPED_IN and COINS pick the files whose dice the
dice tests alter.
"""

import copy
import dataclasses
import json
import random
from datetime import UTC, datetime

import pytest
from django.urls import reverse
from django.utils import timezone

import rules
from rules import Dice
from rules.cardmaster.cards import STATUSES as CARDMASTER_STATUSES
from tests.rules.test_evons import fill_free_choices
from tests.sample_game import SLUG as SAMPLE
from tests.sample_game import every_game, every_pages, marked
from tracker import demo
from tracker.games import ADAPTERS
from tracker.games.base import SecretEntryPages
from tracker.games.card_crush.demo import BATTLES, deck, play_battle
from tracker.games.cardmaster import demo as cardmaster_demo
from tracker.games.cardmaster.demo import STORM_LINEUP as ANA_LINEUP
from tracker.games.common import catalog_card as card
from tracker.games.common import play_steps as apply_all
from tracker.games.evons.demo import play as evons_play
from tracker.matches import services
from tracker.models import Action, CardUse, Match, Player, Seat
from tracker.review import exchange

from .helpers import ANA_DECK, BEN_DECK, assert_every_match_replays, make_card

pytestmark = pytest.mark.django_db

# This module runs on PostgreSQL too (tests/conftest.py, BOTH_DATABASES): storing a match and reading it back, and
# an import's rows, are the engines' business. A test marked file_only checks only what re-running a match file
# finds (exchange.parse and exchange.replay): import_match re-runs a file before it stores a row, `refused` checks that
# nothing was stored, and a name is compared as it will be kept (names.look) in Python. That is the same on either
# engine, so CI runs it once, on SQLite. The files these tests alter are exported from stored matches (unseen_file),
# and that export, with a clean import of each file, runs on both (test_the_clean_file_imports, the round trips).
file_only = pytest.mark.engine_agnostic

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
    return play_battle(("Ana", "Ben"), "battle-score", [ANA_DECK, BEN_DECK])


def crush_power_only() -> Match:
    return play_battle(("Ben", "Chloé"), *BATTLES["power-only"])


def crush_coin_flip_tie() -> Match:
    make_card("Twin A", 5, 5, "Air")
    make_card("Twin B", 5, 5, "Air")
    return play_battle(("Ana", "Ben"), "battle-score", [TIE_DECK_0, TIE_DECK_1])


def crush_all_coin_flips() -> Match:
    """Two decks of identical Air 5/5 cards: every round is decided by the seed's coin."""
    decks = [[make_card(f"Mirror {side}{n}", 5, 5).name for n in range(1, 6)] for side in "AB"]
    return play_battle(("Ana", "Ben"), "battle-score", decks)


def crush_undo_branch() -> Match:
    """Round 1 played, undone, and played again: the first round 1 is an abandoned branch."""
    return play_battle(("Ana", "Ben"), "battle-score", [ANA_DECK, BEN_DECK], undo_once=True)


def crush_undone_tail() -> Match:
    """A finished battle taken back to step 4: rounds 3 to 5 are undone (can be redone), not exported."""
    match = crush_rulebook()
    return services.match_goto(match_id=match.pk, step=4, expected_seq=match.head)


def crush_in_progress() -> Match:
    """Both decks locked and two rounds played: 1-1, no outcome yet."""
    match = services.match_create(slug="card-crush", player_names=["Ana", "Ben"], config={})
    for seat, names in enumerate([ANA_DECK, BEN_DECK]):
        services.match_apply_action(
            match_id=match.pk, action={"type": "lock_deck", "seat": seat, "cards": deck(names)},
            expected_seq=seat)
    for step in (2, 3):
        services.match_apply_action(match_id=match.pk, action={"type": "play_round"}, expected_seq=step)
    return match


def crush_fresh() -> Match:
    return services.match_create(slug="card-crush", player_names=["Ana", "Ben"], config={})


# LOGOS, Lonely Star, Cardmaster and Evons: the demo's scripts (tracker/games/<game>/demo.py), plus
# the matches only these tests need.


def lonely_star_mid_turn() -> Match:
    """Units in play and an app-rolled crit: running, with dice already rolled from the seed."""
    match = services.match_create(slug="lonely-star", player_names=["Ana", "Ben"], config={})
    return apply_all(match, [
        {"type": "play_unit", "seat": 0, "card": card("lonely-star", "Ember Drifter")},
        {"type": "play_unit", "seat": 1, "card": card("lonely-star", "Nebula Warden")},
        {"type": "attack", "seat": 0, "unit": 1, "target": 2},
        ({"type": "luck_roll", "seat": 1, "unit": 2}, [3]),
    ])


def cardmaster_one_lineup_locked() -> Match:
    match = services.match_create(slug="cardmaster", player_names=["Ana", "Ben"],
                                  config=cardmaster_demo.OPTIONS)
    lineup = [card("cardmaster", name) for name in ANA_LINEUP]
    return apply_all(match, [{"type": "lock_lineup", "seat": 0, "cards": lineup}])


def cardmaster_first_round() -> Match:
    """Mirror lineups revealed (the seed's coin gave round 1's possession) and the first possession played."""
    match = cardmaster_demo.locked([ANA_LINEUP, ANA_LINEUP])
    side = "AB"[match.state["possession"]]
    other = "AB"[1 - match.state["possession"]]
    return apply_all(match, [
        {"type": "a1", "card": f"{side}2", "target": f"{other}1"},
        {"type": "stack", "card": f"{side}1"},
        {"type": "a1", "card": f"{side}3", "target": f"{other}2"},
    ])


def evons_draw() -> Match:
    """Both players pass at once: an empty board scores 0-0, a draw."""
    match = services.match_create(slug="evons", player_names=["Ana", "Ben"], config={})
    return apply_all(match, [{"type": "pass", "seat": 0}, {"type": "pass", "seat": 1}])


def evons_covered_waiting() -> Match:
    """A covered card on the board that nobody has named yet."""
    match = services.match_create(slug="evons", player_names=["Ana", "Ben"], config={})
    return apply_all(match, [evons_play(0, "D4", None), evons_play(1, "C3", "Moss Golem")])


# Finished matches: their files carry the seed and must re-run to the same match.
SCRIPTS = {
    "card-crush": {
        "rulebook": crush_rulebook,
        "power-only": crush_power_only,
        "coin-flip-tie": crush_coin_flip_tie,
        "all-coin-flips": crush_all_coin_flips,
        "undo-branch": crush_undo_branch,
    },
    **{slug: dict(pages.demo_matches) for slug, pages in every_pages().items() if slug != "card-crush"},
    "evons": {**ADAPTERS["evons"].demo_matches, "draw": evons_draw},
}
# Running matches: their files withhold the seed (fair seeds) and cannot be re-run.
RUNNING = {
    "card-crush": {
        "undone-tail": crush_undone_tail,
        "in-progress": crush_in_progress,
        "fresh": crush_fresh,
    },
    "lonely-star": {"mid-turn": lonely_star_mid_turn},
    "cardmaster": {"one-lineup-locked": cardmaster_one_lineup_locked, "first-round": cardmaster_first_round},
    "evons": {"covered-waiting": evons_covered_waiting},
}

ROUND_TRIPS = [marked(slug, slug, name, id=f"{slug}-{name}") for slug in SCRIPTS for name in SCRIPTS[slug]]


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


@pytest.mark.engine_agnostic  # no database: CI runs it once, on SQLite
def test_every_game_is_listed():
    """SCRIPTS names every game and no other, and each game's pages picked a finished demo match
    for the refusal tests."""
    assert set(SCRIPTS) == set(TAMPERED) == set(CARD_STAT) == {*rules.GAMES, SAMPLE}
    assert set(RUNNING) <= set(rules.GAMES)
    assert {slug: name in SCRIPTS[slug] for slug, name in TAMPERED.items()} == {slug: True for slug in SCRIPTS}
    assert all(name in pages.demo_matches for name, pages in zip(TAMPERED.values(), every_pages().values(),
                                                                 strict=True))
    for slug, name in APP_ROLLED + TYPED_IN + COINS:
        assert name in SCRIPTS[slug]


@pytest.mark.parametrize(("slug", "name"), ROUND_TRIPS)
def test_it_round_trips_to_the_same_match(catalog, slug, name):
    original = play_script(slug, name)
    assert original.finished is not None, "SCRIPTS holds finished matches; running ones go in RUNNING"
    assert_round_trips(original)


def assert_round_trips(original: Match) -> None:
    slug = original.slug
    data = as_file(original)
    imported = exchange.import_match(data)
    imported = Match.objects.get(pk=imported.pk)

    assert imported.pk != original.pk
    assert (imported.slug, imported.rules_version, imported.config, imported.seed) == (
        original.slug, original.rules_version, original.config, original.seed)
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
    assert_every_match_replays()  # the original and the import, with the checkpoints the import stored
    # Exporting the import gives the very same file, timestamps included.
    assert as_file(imported) == data


def lonely_star_choices(state: dict, action: dict, rng: random.Random) -> dict:
    """A listed Lonely Star action with the choices the list leaves open made at random."""
    action = dict(action)
    extra = {
        "play_unit": {"card": {"name": f"Unit {state['next_unit']}", "hp": rng.randint(1, 9),
                               "at": rng.randint(0, 6), "lk": rng.randint(0, 9), "rs": rng.randint(0, 4),
                               "reach": rng.randint(1, 3)}},
        "equip": {"accessory": rng.choice(["Charm", "Lens", "Cloak"])},
        "damage": {"amount": rng.randint(0, 6), "ignore_resist": rng.random() < 0.3},
        "inflict": {"ignore_resist": rng.random() < 0.3},
        "define_status": {"name": rng.choice(["Daze", "Freeze"]), "stat": rng.choice(["at", "lk", "rs"])},
    }.get(action["type"], {})
    if action["type"] == "adjust":
        extra = {
            "counters": {"counter": "damage", "change": rng.choice([-1, 1, 2])},
            "stat": {"stat": rng.choice(["hp", "at", "rs"]), "change": rng.choice([-1, 1])},
            "leave": {"to": rng.choice(["discard", "removed"])},
            "cards": {"source": "deck", "target": rng.choice(["discard", "hand"]), "count": 1},
        }[action["what"]]
    return {**action, **extra}


def cardmaster_lineup(rng: random.Random, seat: int) -> dict:
    cards = [{"name": f"Card {seat}{n}", "spd": rng.randint(0, 300), "hp": rng.randint(50, 900),
              "def": rng.randint(0, 700), "atk": rng.randint(0, 500), "spc": rng.randint(0, 400),
              "type1": rng.randint(1, 10), "type2": rng.randint(1, 10), "tier": rng.randint(1, 9),
              "status": rng.choice(["none", *CARDMASTER_STATUSES])}
             for n in range(6)]
    return {"type": "lock_lineup", "seat": seat, "cards": cards}


def random_play(slug: str, seed: int) -> Match:
    """A match played to its end by random legal choices through the services, the way a table
    might: some dice typed in, two steps undone once. A choice the rules refuse is simply made
    again; Lonely Star's table call is left out so that the match runs until a deck is empty."""
    rng = random.Random(seed)
    config, opening, choose, die = {
        "lonely-star": ({"deck": 8, "status_penalty": ("flat", "per-counter")[seed % 2]}, [],
                        lonely_star_choices, 6),
        "cardmaster": ({"size": 6, "risen_revivable": bool(seed % 2)},
                       [cardmaster_lineup(rng, 0), cardmaster_lineup(rng, 1)], lambda state, a, rng: a, 100),
        "evons": ({"reach": 1 + seed % 2, "flip_covered": bool(seed % 2)}, [], fill_free_choices, None),
    }[slug]
    match = apply_all(services.match_create(slug=slug, player_names=["Ana", "Ben"], config=config), opening)
    undone = False
    for _try in range(5000):
        if match.finished is not None:
            return match
        legal = [a for a in match.game.legal_actions(match.state) if a["type"] != "declare_winner"]
        typed = None
        if die and rng.random() < 0.4:
            typed = [rng.randint(1, die) for _ in range(rng.randint(1, 2))]
        try:
            apply_all(match, [(choose(match.state, rng.choice(legal), rng), typed)])
        except rules.RuleError:
            continue
        if match.head == 8 and not undone:
            match = services.match_goto(match_id=match.pk, step=6, expected_seq=8)
            undone = True
    raise AssertionError(f"{slug} seed {seed}: no end after 5000 tries")


@pytest.mark.parametrize(("slug", "seed"), [(slug, seed) for slug in ("lonely-star", "cardmaster", "evons")
                                            for seed in (1, 2)])
def test_a_randomly_played_match_round_trips(db, slug, seed):
    match = random_play(slug, seed)
    assert match.head > 10 and match.actions.filter(abandoned=True).exists()
    assert_round_trips(match)


# "undone-tail" ended once, so its seed has been shown: it is exported with it (see its own test).
RUNNING_CASES = [pytest.param(slug, name, id=f"{slug}-{name}") for slug in RUNNING for name in RUNNING[slug]
                 if name != "undone-tail"]


@pytest.mark.parametrize(("slug", "name"), RUNNING_CASES)
def test_a_running_match_is_exported_without_its_seed_and_not_re_run(catalog, slug, name):
    match = play_script(slug, name)
    assert match.finished is None
    data = as_file(match)
    assert data["seed"] is None
    assert data["seed_fingerprint"] == match.seed_fingerprint
    assert data["outcome"] is None
    assert len(data["actions"]) == match.head
    assert match.seed not in json.dumps(data)
    refused(data, step=None, says="exported while the match was still running, so its seed was withheld")


@pytest.mark.parametrize(("slug", "name"), [("lonely-star", "mid-turn"), ("cardmaster", "first-round")])
def test_a_running_dice_match_shows_the_apps_rolls_but_not_the_seed_behind_them(catalog, slug, name):
    """The rolls made so far are public; the seed would tell every roll still to come."""
    match = play_script(slug, name)
    data = as_file(match)
    app_rolls = [roll for entry in data["actions"] for roll in entry["rolls"] if roll["by"] == "app"]
    assert app_rolls and app_rolls == [r for a in applied(match) for r in a[3] if r["by"] == "app"]
    assert data["seed"] is None and match.seed not in json.dumps(data)


def test_a_hidden_lineup_keeps_a_cardmaster_match_from_being_exported(client, catalog):
    """A running file carries every action as entered, so the page refuses it while a lineup is hidden."""
    match = play_script("cardmaster", "one-lineup-locked")
    response = client.get(reverse("match_export_json", args=[match.pk]))
    assert response.status_code == 302 and response["Location"] == reverse("match_log", args=[match.pk])
    body = client.get(reverse("match_export_text", args=[match.pk])).content.decode()
    assert "1. Ana locks in a hidden lineup" in body
    for name in ANA_LINEUP:
        assert name not in body
    revealed = play_script("cardmaster", "first-round")
    data = json.loads(client.get(reverse("match_export_json", args=[revealed.pk])).content)
    assert [c["name"] for c in data["actions"][0]["action"]["cards"]] == ANA_LINEUP
    assert data["seed"] is None


@pytest.mark.parametrize(("slug", "name", "winner", "score"), [
    ("lonely-star", "deck-out", "Ana", "by deck-out"),
    ("lonely-star", "table-call", "Ana", "by table call"),
    ("evons", "by-passes", "Ben", "3-2"),
    ("evons", "draw", None, "0-0"),
    ("evons", "table-ends", None, "1-1"),
])
def test_the_scripts_end_as_they_say(catalog, slug, name, winner, score):
    """The matches without app dice always end the same way; the file says so too."""
    match = play_script(slug, name)
    assert (match.winner.name if match.winner else None, match.score) == (winner, score)
    assert as_file(match)["outcome"] == {"winner": winner, "score": score}


def test_the_lonely_star_file_records_who_rolled_each_die(catalog):
    match = play_script("lonely-star", "deck-out")
    assert match.state["players"][1]["deck"] == 0  # Comet Wanderer's Luck 8 milled Ben's last 2 cards
    rolls = {entry["step"]: entry["rolls"] for entry in as_file(match)["actions"] if entry["rolls"]}
    assert rolls[4] == [{"sides": 6, "value": 4, "by": "player", "why": "crit: Ember Drifter (3)"}]
    assert [(r["by"], r["why"]) for r in rolls[7]] == [("app", "resist: Nebula Warden (3)")]
    assert rolls[8] == [{"sides": 6, "value": 2, "by": "player", "why": "luck: Ember Drifter (3)"}]
    assert [(r["by"], r["why"]) for r in rolls[9]] == [("app", "plain D6")]
    assert rolls[11] == [{"sides": 6, "value": 1, "by": "player", "why": "resist: Comet Wanderer (1)"}]
    assert set(rolls) == {4, 7, 8, 9, 11}  # Comet Wanderer's Luck 8 crit is certain: no die


def test_the_cardmaster_file_records_the_coin_and_the_typed_in_percentiles(catalog):
    coin = as_file(play_script("cardmaster", "coin-for-possession"))
    assert coin["actions"][0]["rolls"] == []
    flip = coin["actions"][1]["rolls"]  # the second lineup locked: round 1 starts, SPD 180 against 180
    assert [(r["sides"], r["by"], r["why"]) for r in flip] == [(2, "app", "cardmaster round 1 possession")]
    assert exchange.replay(coin).states[1]["order"] == [flip[0]["value"], 1 - flip[0]["value"]]
    typed = as_file(play_script("cardmaster", "knock-out"))
    assert typed["actions"][14]["action"] == {"type": "a2", "card": "A1", "target": "B1"}
    assert typed["actions"][14]["rolls"] == [
        {"sides": 100, "value": 100, "by": "player", "why": "Gale Harrier a2 backfire"},
        {"sides": 100, "value": 1, "by": "player", "why": "Gale Harrier a2 brainlock"}]
    assert exchange.replay(typed).states[14]["cards"]["B1"]["status"]["name"] == "brainlock"


@pytest.mark.parametrize("slug", every_game())
def test_a_fresh_match_of_every_game_keeps_its_seed_secret(db, slug):
    """Needs no script: every installed game's new match exports without its seed and is refused on import."""
    game = rules.GAMES[slug]
    names = [f"Player {n}" for n in range(1, game.seats + 1)]
    match = services.match_create(slug=slug, player_names=names, config={})
    data = as_file(match)
    assert (data["game"], data["players"], data["actions"], data["outcome"]) == (slug, names, [], None)
    assert data["seed"] is None and data["seed_fingerprint"] == match.seed_fingerprint
    assert match.seed not in json.dumps(data)
    refused(data, step=None, says="its seed was withheld")


def test_the_file_names_everything_needed_to_replay(catalog):
    match = play_script("card-crush", "rulebook")
    data = as_file(match)
    assert data["format"] == "tablekeeper-match"
    assert data["format_version"] == 2
    assert data["game"] == "card-crush"
    assert data["rules_version"] == rules.GAMES["card-crush"].rules_version
    assert data["config"] == {"resolution": "battle-score"}
    assert data["seed"] == match.seed
    assert data["seed_fingerprint"] == match.seed_fingerprint
    assert data["players"] == ["Ana", "Ben"]
    assert data["header_sha256"] == exchange.header_hash(
        "card-crush", data["rules_version"], {"resolution": "battle-score"}, match.seed, ["Ana", "Ben"])
    assert data["outcome"] == {"winner": "Ben", "score": "3-2"}
    assert [a["step"] for a in data["actions"]] == [1, 2, 3, 4, 5, 6, 7]
    assert [a["seat"] for a in data["actions"]] == [0, 1, None, None, None, None, None]
    assert [a["action"]["type"] for a in data["actions"]] == ["lock_deck"] * 2 + ["play_round"] * 5
    assert [c["name"] for c in data["actions"][0]["action"]["cards"]] == ANA_DECK
    assert all(a["rolls"] == [] for a in data["actions"])
    assert all(len(a["state_sha256"]) == 64 for a in data["actions"])
    assert data["actions"][-1]["state_sha256"] == exchange.state_hash(match.state)
    chain = [data["header_sha256"]]
    for entry_ in data["actions"]:
        chain.append(exchange.step_hash(chain[-1], entry_))
    assert [a["step_sha256"] for a in data["actions"]] == chain[1:]
    assert len(set(chain)) == 8
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
    assert data["seed"] == match.seed, "the end showed the seed; an undo cannot make it secret again"
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


@file_only
def test_replay_gives_every_games_states_and_outcome(game_file):
    replayed = exchange.replay(game_file)
    assert replayed.game is rules.GAMES[game_file["game"]]
    assert len(replayed.states) == len(replayed.events) == len(game_file["actions"])
    assert [exchange.state_hash(state) for state in replayed.states] == [
        entry_["state_sha256"] for entry_ in game_file["actions"]]
    winner = replayed.outcome.winner
    assert game_file["outcome"] == {"winner": None if winner is None else game_file["players"][winner],
                                    "score": replayed.outcome.score}


@file_only
def test_replay_stores_nothing(game_file):
    before = counts()
    exchange.replay(game_file)
    assert counts() == before


def test_a_retired_rules_version_replays_under_its_own_rules(game_file, monkeypatch):
    slug = game_file["game"]
    game_file["rules_version"] = "0"
    retired = dataclasses.replace(rules.GAMES[slug], rules_version="0")
    monkeypatch.setitem(rules.RETIRED, (slug, "0"), retired)
    imported = exchange.import_match(reseal(game_file))  # as exported under version 0
    assert imported.rules_version == "0"
    assert Match.objects.get(pk=imported.pk).game is retired


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


def reseal(data: dict) -> dict:
    """The file's header and step hashes recomputed, as anyone editing a file can: the chain is no
    signature. The tests that alter a resealed file check what the re-run itself finds."""
    data["header_sha256"] = previous = exchange.header_hash(
        data["game"], data["rules_version"], data["config"], data["seed"], data["players"])
    for entry_ in data["actions"]:
        entry_["step_sha256"] = previous = exchange.step_hash(previous, entry_)
    return data


def rename(data: dict, *names: str) -> dict:
    """The same file with other player names (the outcome's winner renamed to match), resealed."""
    data = copy.deepcopy(data)
    old = data["players"]
    data["players"] = list(names)
    if data["outcome"] and data["outcome"]["winner"] is not None:
        data["outcome"]["winner"] = names[old.index(data["outcome"]["winner"])]
    return reseal(data)


_FILES: dict[tuple[str, str], dict] = {}


def unseen_file(slug: str, name: str) -> dict:
    """A script's file with players this database has never seen, so a stored refusal would
    show up in the Player count too. A file stands alone (it needs nothing from the database),
    so each script is played once per run and every test alters its own copy."""
    if (slug, name) not in _FILES:
        demo.load_catalogs()
        _FILES[slug, name] = rename(as_file(play_script(slug, name)), "Zed", "Yara")
    return copy.deepcopy(_FILES[slug, name])


@pytest.fixture
def clean_file(db) -> dict:
    return unseen_file("card-crush", "rulebook")


@pytest.fixture
def coin_file(db) -> dict:
    return unseen_file("card-crush", "coin-flip-tie")


# The finished match of each game that the tampering tests below alter, as its pages declare it.
TAMPERED = {slug: pages.tampered_demo for slug, pages in every_pages().items()}
# Files with dice the app rolled from the seed, and files with dice typed in at the table.
APP_ROLLED = [
    ("card-crush", "coin-flip-tie"), ("lonely-star", "deck-out"), ("cardmaster", "coin-for-possession"),
]
TYPED_IN = [("lonely-star", "deck-out"), ("cardmaster", "knock-out")]
# Coins decide who wins a round (Card Crush) or who has possession (Cardmaster): part of the state.
COINS = [("card-crush", "coin-flip-tie"), ("cardmaster", "coin-for-possession")]


def ids(cases):
    return [f"{slug}-{name}" for slug, name in cases]


@pytest.fixture(params=[marked(slug, slug, id=slug) for slug in TAMPERED])
def game_file(request, db) -> dict:
    return unseen_file(request.param, TAMPERED[request.param])


@pytest.fixture(params=APP_ROLLED, ids=ids(APP_ROLLED))
def app_rolled_file(request, db) -> dict:
    return unseen_file(*request.param)


@pytest.fixture(params=TYPED_IN, ids=ids(TYPED_IN))
def typed_in_file(request, db) -> dict:
    return unseen_file(*request.param)


@pytest.fixture(params=COINS, ids=ids(COINS))
def coin_decided_file(request, db) -> dict:
    return unseen_file(*request.param)


def game_name(data: dict) -> str:
    return rules.GAMES[data["game"]].name


def first_roll(data: dict, by: str) -> tuple[int, dict]:
    """The step of the file's first die rolled by the app or a player, and that die."""
    return next((entry_["step"], roll) for entry_ in data["actions"] for roll in entry_["rolls"]
                if roll["by"] == by)


def entry(data: dict, step: int) -> dict:
    return data["actions"][step - 1]


def refused(data: dict, *, step: int | None, says: str) -> exchange.MatchFileError:
    before = counts()
    with pytest.raises(exchange.MatchFileError) as caught:
        exchange.import_match(data)
    error = caught.value
    assert error.step == step, str(error)
    if step:
        assert str(error).startswith(f"Step {step}: "), str(error)
    assert says in str(error), str(error)
    assert counts() == before
    return error


def refused_raw(raw: bytes, *, says: str) -> None:
    before = counts()
    with pytest.raises(exchange.MatchFileError) as caught:
        exchange.import_match(exchange.parse(raw))
    assert caught.value.step is None
    assert says in str(caught.value), str(caught.value)
    assert counts() == before


def test_the_clean_file_imports(game_file):
    """The control for every refusal below: untouched, the same file is stored."""
    matches, actions, players, seats = counts()
    exchange.import_match(exchange.parse(json.dumps(game_file).encode()))
    assert counts() == (matches + 1, actions + len(game_file["actions"]), players + 2, seats + 2)


# A stat of the first card the file names (a deck, a lineup, a committed card, a unit, a card played).
CARD_STAT = {slug: pages.tampered_stat for slug, pages in every_pages().items()}


@file_only
def test_a_cards_stat_changed(game_file):
    step, card = next((e["step"], e["action"].get("cards", [None])[0] or e["action"].get("card"))
                      for e in game_file["actions"] if e["action"].get("cards") or e["action"].get("card"))
    card[CARD_STAT[game_file["game"]]] += 1
    refused(game_file, step=step, says="the result differs from the one recorded in the file")


@file_only
def test_a_card_swapped_for_another_legal_card(clean_file):
    cards = clean_file["actions"][1]["action"]["cards"]
    cards[0], cards[1] = cards[1], cards[0]
    refused(clean_file, step=2, says="the result differs from the one recorded in the file")


@file_only
def test_a_lineup_reordered_swaps_an_active_card_for_a_reserve(db):
    data = unseen_file("cardmaster", "knock-out")
    cards = data["actions"][1]["action"]["cards"]
    cards[0], cards[2] = cards[2], cards[0]
    refused(data, step=2, says="the result differs from the one recorded in the file")


@pytest.mark.parametrize(("slug", "step", "edit", "says"), [
    pytest.param("card-crush", 2, lambda a: a["cards"].pop(), "A deck has exactly 5 cards, not 4.",
                 id="card-crush"),
    pytest.param("logos", 2, lambda a: a.update(round=2),
                 "This entry was made for round 2, but round 1 is being played.", id="logos"),
    pytest.param("lonely-star", 4, lambda a: a.update(unit=99), "Unit 99 is not in play.", id="lonely-star"),
    pytest.param("cardmaster", 2, lambda a: a["cards"].pop(),
                 "This is a 3v3 match: a lineup has 3 cards, not 2.", id="cardmaster"),
    pytest.param("evons", 3, lambda a: a.update(cell="C3"), "C3 already holds Moss Golem.", id="evons"),
])
@file_only
def test_an_illegal_action(db, slug, step, edit, says):
    data = unseen_file(slug, TAMPERED[slug])
    edit(entry(data, step)["action"])
    refused(data, step=step, says=f"the rules refuse this action: {says}")


@file_only
def test_an_illegal_action_unknown_type(game_file):
    game_file["actions"][4]["action"] = {"type": "concede"}
    error = refused(game_file, step=5, says=f"the rules refuse this action: {game_name(game_file)} has no ")
    assert str(error).endswith(" 'concede'."), str(error)


@file_only
def test_a_step_removed(game_file):
    del game_file["actions"][2]
    refused(game_file, step=3, says="the entry is malformed or out of order")


@file_only
def test_two_steps_swapped(game_file):
    actions = game_file["actions"]
    actions[3], actions[4] = actions[4], actions[3]
    refused(game_file, step=4, says="the entry is malformed or out of order")


@file_only
def test_a_step_renumbered_to_fit(clean_file):
    """Removing round 3 and renumbering the rest: every later state differs."""
    del clean_file["actions"][4]
    for number, entry_ in enumerate(clean_file["actions"], start=1):
        entry_["step"] = number
    refused(clean_file, step=5, says="the result differs")


@file_only
def test_the_first_step_removed_and_the_rest_renumbered(game_file):
    del game_file["actions"][0]
    for number, entry_ in enumerate(game_file["actions"], start=1):
        entry_["step"] = number
    error = refused(game_file, step=1, says="")
    assert "the result differs" in str(error) or "the rules refuse this action" in str(error), str(error)


@file_only
def test_a_truncated_file_that_still_claims_the_outcome(game_file):
    claimed = game_file["outcome"]
    game_file["actions"] = game_file["actions"][:-1]
    # Said as a player reads it (a play-test read braces, English keys and "None", on the German page too).
    result = f"{claimed['winner']} won {claimed['score']}" if claimed["winner"] else f"a draw, {claimed['score']}"
    refused(game_file, step=len(game_file["actions"]),
            says=f"the file claims the result {result} but re-running it gives none (the match is not over)")


@file_only
def test_a_file_cut_in_the_middle_of_its_json(game_file):
    raw = json.dumps(game_file).encode()
    refused_raw(raw[: len(raw) // 2], says="The file is not valid JSON")


@file_only
def test_a_roll_added_where_the_rules_roll_none(game_file):
    step = next(e["step"] for e in game_file["actions"] if not e["rolls"])
    entry(game_file, step)["rolls"] = [{"sides": 6, "value": 6, "by": "player", "why": "luck"}]
    refused(game_file, step=step, says="the dice do not match the seed: the file says 6, the seed gives no dice")


@file_only
def test_a_malformed_dice_record(game_file):
    game_file["actions"][2]["rolls"] = "none"
    refused(game_file, step=3, says="its dice record is malformed")


# --- the dice: the app's rolls come from the seed, a player's are taken as typed in -------------------


@file_only
def test_an_app_roll_altered(app_rolled_file):
    step, roll = first_roll(app_rolled_file, "app")
    was = roll["value"]
    roll["value"] = 1 - was if roll["sides"] == 2 else was % roll["sides"] + 1
    refused(app_rolled_file, step=step,
            says=f"the dice do not match the seed: the file says {roll['value']}, the seed gives {was}")


@file_only
def test_an_app_roll_removed(app_rolled_file):
    step, roll = first_roll(app_rolled_file, "app")
    entry(app_rolled_file, step)["rolls"].remove(roll)
    refused(app_rolled_file, step=step, says="the dice do not match the seed")


@file_only
def test_a_coin_flip_claimed_as_entered_at_the_table(coin_decided_file):
    step, roll = first_roll(coin_decided_file, "app")
    roll["by"] = "player"
    refused(coin_decided_file, step=step, says="the dice do not match the seed")


@pytest.mark.parametrize(("slug", "name", "index", "was", "now"), [
    # Ember Drifter's crit roll: 4 fails against Luck 3 (Resist counts), 1 succeeds (Resist ignored).
    pytest.param("lonely-star", "deck-out", 0, 4, 1, id="lonely-star-crit"),
    # Gale Harrier's A2: after the backfire roll (100, none), Brainlock's roll 1 lands and 100 misses.
    pytest.param("cardmaster", "knock-out", 1, 1, 100, id="cardmaster-status"),
])
@file_only
def test_a_typed_in_die_changed_is_refused_where_its_result_changes(db, slug, name, index, was, now):
    data = unseen_file(slug, name)
    step, _roll = first_roll(data, "player")
    roll = entry(data, step)["rolls"][index]
    assert (roll["by"], roll["value"]) == ("player", was)
    roll["value"] = now
    refused(data, step=step, says="the result differs from the one recorded in the file")


@file_only
def test_a_typed_in_die_off_the_die_is_refused_by_the_rules(typed_in_file):
    step, roll = first_roll(typed_in_file, "player")
    roll["value"] = roll["sides"] + 1
    sides = roll["sides"]
    refused(typed_in_file, step=step,
            says=f"the rules refuse this action: A {sides}-sided die shows 1 to {sides}, not {sides + 1}.")


@file_only
def test_a_typed_in_die_removed_lets_the_app_roll_instead(typed_in_file):
    step, _roll = first_roll(typed_in_file, "player")
    entry(typed_in_file, step)["rolls"].pop()
    refused(typed_in_file, step=step, says="the dice do not match the seed")


def other_seed_for(data: dict) -> str:
    """A seed under which the file's first app roll comes out otherwise (found deterministically)."""
    step, roll = first_roll(data, "app")

    def rolled(seed: str) -> int:
        dice = Dice(seed, step)
        return dice.flip(roll["why"]) if roll["sides"] == 2 else dice.roll(roll["sides"], roll["why"])

    assert rolled(data["seed"]) == roll["value"]
    return next(s for s in (f"{data['seed']}-{n}" for n in range(100)) if rolled(s) != roll["value"])


@file_only
def test_a_changed_seed_no_longer_matches_its_fingerprint(app_rolled_file):
    app_rolled_file["seed"] = other_seed_for(app_rolled_file)
    refused(app_rolled_file, step=None,
            says="The seed does not match the fingerprint shown when the match started.")


@file_only
def test_an_altered_fingerprint(game_file):
    game_file["seed_fingerprint"] = "0" * 12
    refused(game_file, step=None, says="The seed does not match the fingerprint")


def with_other_seed(data: dict) -> dict:
    """The file re-seeded so its first app roll comes out otherwise, its fingerprint forged to match."""
    data["seed"] = other_seed_for(data)
    data["seed_fingerprint"] = rules.seed_fingerprint(data["seed"])
    return data


@file_only
def test_a_changed_seed_and_fingerprint_changes_the_first_app_roll(app_rolled_file):
    step, _roll = first_roll(app_rolled_file, "app")
    refused(with_other_seed(app_rolled_file), step=step, says="the dice do not match the seed")


@file_only
def test_a_changed_seed_without_a_fingerprint_changes_the_first_app_roll(app_rolled_file):
    step, _roll = first_roll(app_rolled_file, "app")
    with_other_seed(app_rolled_file)
    del app_rolled_file["seed_fingerprint"]
    refused(app_rolled_file, step=step, says="the dice do not match the seed")


@file_only
def test_a_changed_seed_with_the_rolls_rewritten_to_match_changes_the_state(coin_decided_file):
    """Someone who re-rolls with their own seed still cannot keep the recorded result."""
    step, roll = first_roll(coin_decided_file, "app")
    with_other_seed(coin_decided_file)
    roll["value"] = 1 - roll["value"]
    refused(coin_decided_file, step=step, says="the result differs")


def other_outcomes(data: dict) -> list[dict | None]:
    """The file's outcome claim with the score, then the winner, altered; a draw; none at all."""
    claimed = data["outcome"]
    loser = next(name for name in data["players"] if name != claimed["winner"])
    return [{**claimed, "score": claimed["score"] + "0"}, {**claimed, "winner": loser},
            {**claimed, "winner": None}, None]


@pytest.mark.parametrize("which", ["score", "winner", "draw", "no-outcome"])
@file_only
def test_an_altered_outcome_claim(game_file, which):
    game_file["outcome"] = other_outcomes(game_file)[["score", "winner", "draw", "no-outcome"].index(which)]
    refused(game_file, step=len(game_file["actions"]), says="the file claims the result")


@file_only
def test_a_draw_claimed_as_a_win(db):
    data = unseen_file("evons", "draw")
    assert data["outcome"] == {"winner": None, "score": "0-0"}
    data["outcome"] = {"winner": "Zed", "score": "0-0"}
    refused(data, step=2, says="the file claims the result Zed won 0-0 but re-running it gives a draw, 0-0.")


@pytest.mark.parametrize("claimed", [{"winner": 3, "score": None}, "Zed", ["Zed", "3-0"]])
def test_a_claimed_result_no_result_could_be_is_said_so(db, claimed):
    data = unseen_file("evons", "draw")
    data["outcome"] = claimed
    refused(data, step=2, says="the file claims the result in a form this version cannot read but re-running it "
                               "gives a draw, 0-0.")


RUNNING_WITH_STEPS = [case for case in RUNNING_CASES if case.values[1] != "fresh"]


@pytest.mark.parametrize(("slug", "name"), RUNNING_WITH_STEPS)
@file_only
def test_an_outcome_claimed_for_a_running_match(catalog, slug, name):
    match = play_script(slug, name)
    data = as_file(match)
    data["seed"] = match.seed
    data = rename(data, "Zed", "Yara")
    data["outcome"] = {"winner": "Zed", "score": "3-0"}
    refused(data, step=match.head, says="the result Zed won 3-0 but re-running it gives none (the match is not over)")


@file_only
def test_a_state_hash_removed(game_file):
    del game_file["actions"][5]["state_sha256"]
    refused(game_file, step=6, says="the result differs")


# --- format version 2: the chain of step hashes ----------------------------------------------------

CHAIN_BROKEN = "its action or dice were changed after export"


def as_version_1(data: dict) -> dict:
    """The file as version 1 wrote it: the same, without the header and step hashes."""
    data = copy.deepcopy(data)
    data["format_version"] = 1
    del data["header_sha256"]
    for entry_ in data["actions"]:
        del entry_["step_sha256"]
    return data


def crit_die_4_made_6(data):
    """Ember Drifter's crit die typed in as 4 made a 6: 6 - RS 3 = 3 still fails against Luck 3."""
    roll = entry(data, 4)["rolls"][0]
    assert (roll["by"], roll["value"], roll["why"]) == ("player", 4, "crit: Ember Drifter (3)")
    roll["value"] = 6
    return 4


def app_resist_claimed_as_typed_in(data):
    """Nebula Warden's Resist, rolled by the app, relabelled as typed in with the same value."""
    roll = entry(data, 7)["rolls"][0]
    assert (roll["by"], roll["why"]) == ("app", "resist: Nebula Warden (3)")
    roll["by"] = "player"
    return 7


def plain_d6_taken_out(data):
    """The plain D6 at step 9 (it changes nothing) deleted and the later steps renumbered."""
    assert entry(data, 9)["action"]["type"] == "d6"
    del data["actions"][8]
    for number, entry_ in enumerate(data["actions"], start=1):
        entry_["step"] = number
    return 9


def backfire_die_100_made_99(data):
    """Gale Harrier's backfire die typed in as 100 made a 99: still no backfire."""
    roll = entry(data, 15)["rolls"][0]
    assert (roll["by"], roll["value"], roll["why"]) == ("player", 100, "Gale Harrier a2 backfire")
    roll["value"] = 99
    return 15


EDITS_WITHOUT_EFFECT = [
    pytest.param("lonely-star", "deck-out", crit_die_4_made_6, id="typed-in-die"),
    pytest.param("lonely-star", "deck-out", app_resist_claimed_as_typed_in, id="app-roll-relabelled"),
    pytest.param("lonely-star", "deck-out", plain_d6_taken_out, id="step-taken-out"),
    pytest.param("cardmaster", "knock-out", backfire_die_100_made_99, id="backfire-die"),
]


@pytest.mark.parametrize(("slug", "name", "edit"), EDITS_WITHOUT_EFFECT)
@file_only
def test_an_edit_that_leaves_the_state_alone_breaks_the_chain(db, slug, name, edit):
    data = unseen_file(slug, name)
    step = edit(data)
    error = refused(data, step=step, says=CHAIN_BROKEN)
    assert "the result differs" not in str(error)
    # The state hashes alone do not see it: the same edit in a version 1 file re-runs cleanly.
    old = as_version_1(unseen_file(slug, name))
    edit(old)
    assert exchange.replay(old).outcome is not None


@pytest.mark.parametrize(("slug", "name", "edit"), EDITS_WITHOUT_EFFECT)
def test_the_chain_is_no_signature(db, slug, name, edit):
    """Whoever edits a file can recompute its hashes; the chain finds edits, it does not prove authorship."""
    data = unseen_file(slug, name)
    edit(data)
    assert exchange.import_match(reseal(data)).finished is not None


@file_only
def test_a_step_hash_removed(game_file):
    del game_file["actions"][5]["step_sha256"]
    refused(game_file, step=6, says=CHAIN_BROKEN)


@file_only
def test_a_step_hash_from_another_step(game_file):
    entry(game_file, 3)["step_sha256"] = entry(game_file, 2)["step_sha256"]
    refused(game_file, step=3, says=CHAIN_BROKEN)


@file_only
def test_the_seat_of_a_step_changed(game_file):
    """The entry's seat is for readers (the action says who acts), yet it is part of the chain."""
    entry(game_file, 1)["seat"] = 1 - entry(game_file, 1)["seat"]
    refused(game_file, step=1, says=CHAIN_BROKEN)


@pytest.mark.parametrize("edit", [
    pytest.param(lambda data: data["players"].__setitem__(0, "Xia"), id="renamed"),
    pytest.param(lambda data: data.update(players=data["players"][::-1],
                                          outcome=other_outcomes(data)[1]), id="swapped"),
])
@file_only
def test_players_changed_after_export(game_file, edit):
    edit(game_file)
    refused(game_file, step=None, says="The file's game, rules version, options, seed or players were changed "
                                       "after export: they no longer match its header hash.")


@pytest.mark.parametrize("value", [None, 7])
@file_only
def test_a_missing_or_malformed_header_hash(game_file, value):
    game_file["header_sha256"] = value
    refused(game_file, step=None, says="The file's header_sha256 is missing or malformed.")


def test_a_version_1_file_still_imports(game_file):
    old = as_version_1(game_file)
    imported = exchange.import_match(exchange.parse(json.dumps(old).encode()))
    assert imported.state == exchange.replay(game_file).states[-1]
    assert as_file(imported)["format_version"] == 2
    assert as_version_1(as_file(imported)) == old


@file_only
def test_a_version_1_file_is_still_checked_step_by_step(game_file):
    old = as_version_1(game_file)
    entry(old, 3)["state_sha256"] = entry(old, 2)["state_sha256"]
    refused(old, step=3, says="the result differs from the one recorded in the file")


@pytest.mark.parametrize("entry_", [None, "step 3", {"step": 3}, {"step": 3, "action": "play_round"}])
@file_only
def test_a_malformed_entry(game_file, entry_):
    game_file["actions"][2] = entry_
    refused(game_file, step=3, says="the entry is malformed or out of order")


@pytest.mark.parametrize(("field", "value", "says"), [
    ("format", "tablekeeper-deck", "This is not a Tablekeeper match file."),
    ("format", None, "This is not a Tablekeeper match file."),
    ("format_version", 3, "Match file format version 3 is not supported; this Tablekeeper reads versions up to 2."),
    ("format_version", 0, "Match file format version 0 is not supported"),
    ("format_version", "2", "Match file format version '2' is not supported"),
    ("format_version", True, "Match file format version True is not supported"),
    ("format_version", 2.0, "Match file format version 2.0 is not supported"),
    ("format_version", None, "This file has no match file format version: it is not a Tablekeeper match file."),
])
@file_only
def test_a_foreign_format(clean_file, field, value, says):
    clean_file[field] = value
    refused_raw(json.dumps(clean_file).encode(), says=says)


@file_only
def test_an_unknown_game(clean_file):
    clean_file["game"] = "chess"
    refused(clean_file, step=None, says="This Tablekeeper does not know the game 'chess'.")


@file_only
def test_a_rules_version_not_installed_is_refused_not_rescored(game_file):
    game_file["rules_version"] = "0.9"
    error = refused(game_file, step=None, says=f"{game_name(game_file)} rules version 0.9")
    assert "no longer has" in str(error)
    assert "It is refused rather than re-scored under other rules." in str(error)


@pytest.mark.parametrize("players", [
    pytest.param(["Zed"], id="one"),
    pytest.param(["Zed", "Yara", "Xia"], id="three"),
    pytest.param([], id="none"),
    pytest.param(["Zed", 7], id="number"),
])
@file_only
def test_wrong_players(clean_file, players):
    clean_file["players"] = players
    refused(clean_file, step=None, says="Card Crush needs 2 named players.")


@pytest.mark.parametrize(("players", "says"), [
    pytest.param(["Zed", "   "], "needs a letter or a digit that can be seen", id="blank"),
    pytest.param(["\u200b", "Zed"], "needs a letter or a digit that can be seen", id="invisible"),
    pytest.param(["Zed", "Y" * 41], "at most 40 characters (as it is kept, this one has 41)", id="too-long"),
    pytest.param(["Zed", "\ufdfa" * 3], "at most 40 characters (as it is kept, this one has 54)", id="grows-in-nfkc"),
    pytest.param(["Ana", "Ana\u200b"], "Each seat needs a different player.", id="same-as-kept"),
    pytest.param(["Ana", "ΑΝΑ"], "Each seat needs a different player.", id="drawn-alike"),
    pytest.param(["Dev", "\u13a0ev"], "cannot mix Latin letters with those of another script", id="cherokee-d"),
])
@file_only
def test_players_as_they_would_be_kept(clean_file, players, says):
    """Checked as the names will be kept (names.player_name): "Ana\u200b" is Ana, "\ufdfa" 18 characters, and a
    name of invisible characters none (it made a player named "", and one player sat in both seats)."""
    clean_file["players"] = players
    refused(clean_file, step=None, says=says)


@pytest.mark.parametrize("seat", [-1, 40_000, 2**63, "0", True])
def test_a_seat_no_action_takes_is_stored_as_none(clean_file, seat):
    """An engine ignores a key its action does not take, so a sealed file may carry "seat": -1 in a step that names
    no seat: stored, it was a 500 (a column of small positive numbers). The step names no seat."""
    step = next(entry for entry in clean_file["actions"] if entry["action"]["type"] == "play_round")
    step["action"]["seat"] = seat
    match = exchange.import_match(reseal(clean_file))
    assert Action.objects.get(match=match, seq=step["step"]).seat is None


@file_only
def test_a_third_player_in_any_game(game_file):
    game_file["players"].append("Xia")
    refused(game_file, step=None, says=f"{game_name(game_file)} needs 2 named players.")


@pytest.mark.parametrize(("field", "value"), [
    ("game", None), ("rules_version", 1), ("config", []), ("seed", 42),
    ("players", "Zed, Yara"), ("actions", {}), ("actions", True),
])
@file_only
def test_a_malformed_field(game_file, field, value):
    game_file[field] = value
    refused(game_file, step=None, says=f"The file's {field} is missing or malformed.")


@file_only
def test_a_withheld_seed_is_explained(game_file):
    game_file["seed"] = None
    refused(game_file, step=None, says="This file was exported while the match was still running, so its "
                                       "seed was withheld and it cannot be re-run. Export it again once the "
                                       "match is over.")


@file_only
def test_a_missing_seed_without_a_fingerprint_is_malformed(game_file):
    del game_file["seed"], game_file["seed_fingerprint"]
    refused(game_file, step=None, says="The file's seed is missing or malformed.")


@file_only
def test_an_unknown_option(game_file):
    game_file["config"]["colour"] = "red"
    refused(game_file, step=None, says=f"{game_name(game_file)} has no option called colour.")


@file_only
def test_too_many_actions(clean_file):
    clean_file["actions"] = clean_file["actions"] * (exchange.MAX_ACTIONS // 7 + 1)
    refused(clean_file, step=None, says=f"The file has more than {exchange.MAX_ACTIONS} actions.")


@file_only
def test_a_file_larger_than_the_limit(clean_file):
    raw = json.dumps(clean_file).encode()
    raw += b" " * (exchange.MAX_BYTES + 1 - len(raw))
    refused_raw(raw, says="The file is larger than 2 MB")


@file_only
def test_a_file_just_under_the_limit_is_read(clean_file):
    raw = json.dumps(clean_file).encode()
    raw += b" " * (exchange.MAX_BYTES - len(raw))
    assert exchange.parse(raw) == clean_file


@file_only
def test_non_utf8_bytes(clean_file):
    raw = json.dumps(clean_file, ensure_ascii=False).replace("Zed", "Zéd").encode("latin-1")
    refused_raw(raw, says="The file is not valid JSON")


@pytest.mark.parametrize("raw", [b"[]", b"[1, 2]", b'"tablekeeper-match"', b"42", b"null"])
@file_only
def test_json_that_is_not_an_object(raw):
    before = counts()
    with pytest.raises(exchange.MatchFileError, match="This is not a Tablekeeper match file."):
        exchange.parse(raw)
    assert counts() == before


@pytest.mark.parametrize("raw", [b"", b"   ", b"{", b"not json", b"\xff\xfe\x00"])
@file_only
def test_not_json_at_all(raw):
    with pytest.raises(exchange.MatchFileError, match="The file is not valid JSON"):
        exchange.parse(raw)


@file_only
def test_deeply_nested_json_is_refused():
    with pytest.raises(exchange.MatchFileError, match="nested too deeply"):
        exchange.parse(b"[" * 100_000)


@file_only
def test_a_huge_integer_is_refused_as_not_valid_json():
    with pytest.raises(exchange.MatchFileError):
        exchange.parse(b'{"format": ' + b"1" * 5000 + b"}")


@pytest.mark.parametrize("names", [("Zed", "zed"), ("Zed", " Zed "), ("Zoé", "ZOÉ"), ("Yara  Li", "yara li")])
@file_only
def test_the_same_player_in_both_seats_is_refused(game_file, names):
    refused(rename(game_file, *names), step=None, says="Each seat needs a different player.")


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


@pytest.mark.engine_agnostic  # no database: CI runs it once, on SQLite
def test_matchfileerror_names_the_step():
    assert str(exchange.MatchFileError("the dice differ.", step=12)) == "Step 12: the dice differ."
    assert str(exchange.MatchFileError("Not a match file.")) == "Not a match file."
    assert exchange.MatchFileError("x", step=3).step == 3


def test_an_imported_match_shows_its_seed_and_marks_every_step_played_on_as_foreseeable(catalog, client):
    """A running match's file has no seed, but anyone may write one in and reseal the file: whoever chose it knows
    every die the app will roll. The imported match showed only the seed's fingerprint, like any fair match, and
    Ben, joining by a link, could not tell. Its seed is now shown from the start, and every step played on after
    the import is marked as one whose app rolls could be foreseen."""
    data = as_file(services.match_create(slug="lonely-star", player_names=["Ana", "Ben"], config={}))
    data = reseal({**data, "seed": "my own seed", "seed_fingerprint": rules.seed_fingerprint("my own seed")})
    imported = exchange.import_match(data)
    assert imported.finished is None and imported.seed_known
    page = client.get(imported.get_absolute_url()).content.decode()
    assert "Seed revealed: <code>my own seed</code>" in page
    step = imported.head
    services.match_apply_action(match_id=imported.pk, action={"type": "d6", "seat": imported.state["turn"]},
                                expected_seq=step)
    log = client.get(reverse("match_log", args=[imported.pk])).content.decode()
    assert log.count("entered after the seed was revealed") == 1


def test_an_imported_entry_still_hidden_marks_no_card_used_until_its_reveal(catalog):
    """A card's page lists the matches it was played in, and who may still change it reads the same uses: a hidden
    entry counts only from its reveal (services.match_apply_action). An imported file whose last step is Ana's deck,
    locked and not yet revealed, noted her five cards at once: Ben, joining her match by a link, read her deck on
    the cards' pages before the reveal. Noted at his lock-in instead, as a match played here notes them."""
    match = services.match_create(slug="card-crush", player_names=["Ana", "Ben"], config={})
    apply_all(match, [{"type": "lock_deck", "seat": 0, "cards": deck(ANA_DECK)}])
    data = {**as_file(match), "seed": match.seed}  # a running file carries no seed: its writer gives one
    imported = exchange.import_match(data)
    assert not CardUse.objects.filter(match=imported).exists()
    services.match_apply_action(match=imported, action={"type": "lock_deck", "seat": 1, "cards": deck(BEN_DECK)},
                                expected_seq=imported.head)
    assert set(CardUse.objects.filter(match=imported).values_list("card__name", flat=True)) == {*ANA_DECK, *BEN_DECK}


@pytest.mark.sample_game
@pytest.mark.parametrize("slug", sorted(slug for slug, pages in every_pages().items() if isinstance(pages, SecretEntryPages)))
def test_a_file_ending_on_either_hidden_entry_imports_alike_for_the_table(catalog, slug):
    """Every game with a secret entry: two files that differ only in seat 0's entry, still hidden at their last step,
    import as matches whose card uses are the same (none of the entry's cards), as the sweep asks of a match played
    here (tests/tracker/test_secrecy_sweep.py)."""
    used = []
    for which in (0, 1):
        match = services.match_create(slug=slug, player_names=["Ana", "Ben"], config={})
        entry = ADAPTERS[slug].entry_examples(match, 0)[which]
        services.match_apply_action(match=match, action=entry, expected_seq=0)
        imported = exchange.import_match({**as_file(match), "seed": match.seed})
        used.append(sorted(CardUse.objects.filter(match=imported).values_list("card__name", flat=True)))
    assert used[0] == used[1]
