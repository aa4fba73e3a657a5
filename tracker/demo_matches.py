"""Scripted finished matches of LOGOS, Lonely Star, Cardmaster and Evons.

Each script plays a whole match through the services, step by step as the pages would post
them, with the demo catalog's cards (load it first: `demo.load_catalogs()`). `demo.load()`
plays them so that every game's statistics, charts, logs and replays have something to show
on a fresh install; the match-file tests re-run the same scripts, so the demo data is known
to export and import cleanly. Card Crush's battles are `demo.BATTLES` and `demo.play_battle`.

Every script takes the two players' names (seat 0 first). Where only the table's own dice
are used (typed in, or none at all) the match always ends the same way; where the app rolls,
the result depends on the match's seed.
"""

from . import services
from .games import ADAPTERS
from .models import Card, Match

Players = tuple[str, str]
ANA_BEN: Players = ("Ana", "Ben")


def catalog_card(slug: str, name: str) -> dict:
    """A demo catalog card as the engine takes it."""
    return Card.objects.get(slug=slug, name=name).as_rules_card()


def play_steps(match: Match, steps: list) -> Match:
    """Each step through the services, as the pages post them: an action, or (action, dice typed in)."""
    for step in steps:
        action, rolls = step if isinstance(step, tuple) else (step, None)
        match.refresh_from_db()
        services.match_apply_action(match_id=match.pk, action=action, expected_seq=match.head, rolls=rolls)
    match.refresh_from_db()
    return match


# --- LOGOS ----------------------------------------------------------------------------------------


def logos_knock_out(players: Players = ANA_BEN) -> Match:
    """A duel from 30,000 HP: a backup stored and called, a defenceless round, a knock-out."""
    match = services.match_create(slug="logos", player_names=list(players), config={"starting_hp": 30_000})
    card = {c["name"]: c for c in ADAPTERS["logos"].DEMO_CARDS}.get
    return play_steps(match, [
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
    ])


def logos_resignation(players: Players = ANA_BEN) -> Match:
    """A duel at the default 100,000 HP: a swap blocked by Neutralize, a Destroy Combo copied by
    Mimic, a backup stored and never called, then seat 1 resigns before the third fight."""
    match = services.match_create(slug="logos", player_names=list(players), config={})
    card = {c["name"]: c for c in ADAPTERS["logos"].DEMO_CARDS}.get
    return play_steps(match, [
        {"type": "commit", "seat": 0, "round": 1, "card": card("Lightning Lance"), "backup": None},
        {"type": "commit", "seat": 1, "round": 1, "card": card("Archive Warden"), "backup": card("Quicksilver")},
        {"type": "fight"},
        {"type": "commit", "seat": 0, "round": 2, "card": card("Rust Swarm"), "backup": None},
        {"type": "commit", "seat": 1, "round": 2, "card": card("Mirror Code"), "backup": None},
        {"type": "fight"},
        {"type": "commit", "seat": 0, "round": 3, "card": card("Granite Fist"), "backup": None},
        {"type": "commit", "seat": 1, "round": 3, "card": card("Data Leak"), "backup": None},
        {"type": "resign", "seat": 1},
    ])


# --- Lonely Star: units take ids in the order they are played (1, 2, 3, ...) -----------------------


def lonely_star_deck_out(players: Players = ANA_BEN) -> Match:
    """App-rolled and typed-in dice, a status and its end-of-turn Resist; Comet Wanderer's Luck 8
    mills seat 1's last 2 cards, so seat 1 cannot draw at the end of turn 1 and loses by deck-out."""
    match = services.match_create(slug="lonely-star", player_names=list(players), config={"deck": 2, "hand": 3})
    ember, comet, warden = 1, 2, 3
    return play_steps(match, [
        {"type": "play_unit", "seat": 0, "card": catalog_card("lonely-star", "Ember Drifter")},
        {"type": "play_unit", "seat": 0, "card": catalog_card("lonely-star", "Comet Wanderer")},
        {"type": "play_unit", "seat": 1, "card": catalog_card("lonely-star", "Nebula Warden")},
        ({"type": "attack", "seat": 0, "unit": ember, "target": warden}, [4]),  # crit fails: 4 - RS 3 = 1
        {"type": "attack", "seat": 0, "unit": comet, "target": warden},  # Luck 8: sure crit, mills 2
        {"type": "inflict", "seat": 1, "target": comet, "status": "hex", "ignore_resist": True},
        {"type": "inflict", "seat": 0, "target": warden, "status": "burn"},  # the app rolls Resist
        ({"type": "luck_roll", "seat": 0, "unit": ember}, [2]),
        {"type": "d6", "seat": 1},
        {"type": "end_turn", "seat": 0},
        ({"type": "resist_roll", "seat": 0, "unit": comet, "status": "hex"}, [1]),  # clears the Hex
        {"type": "finish_turn", "seat": 0},
    ])


def lonely_star_table_call(players: Players = ANA_BEN) -> Match:
    """Players roll: dice typed in (one left to the app), an accessory, a table status, effect damage,
    every kind of manual adjustment, and seat 0 declared the winner by the table."""
    match = services.match_create(slug="lonely-star", player_names=list(players), config={"who_rolls": "players"})
    moon, knight = 1, 2
    return play_steps(match, [
        {"type": "play_unit", "seat": 0, "card": catalog_card("lonely-star", "Quiet Moon")},
        {"type": "play_unit", "seat": 1, "card": catalog_card("lonely-star", "Dust Knight")},
        {"type": "equip", "seat": 0, "unit": moon, "accessory": "Star Lens"},
        {"type": "define_status", "name": "Freeze", "stat": "at", "override": True},
        ({"type": "inflict", "seat": 0, "target": knight, "status": "freeze"}, [5]),  # Resist 2 fails
        ({"type": "attack", "seat": 0, "unit": moon, "target": knight}, [1]),  # crit: Resist ignored
        {"type": "act", "seat": 0, "unit": moon, "how": "move"},
        ({"type": "damage", "seat": 1, "source": knight, "target": moon, "amount": 3}, [2]),
        {"type": "adjust", "override": True, "what": "counters", "unit": moon, "counter": "damage", "change": -1},
        {"type": "adjust", "override": True, "what": "stat", "unit": knight, "stat": "rs", "change": 1},
        {"type": "adjust", "override": True, "what": "cards", "seat": 1, "source": "deck", "target": "removed",
         "count": 3},
        {"type": "d6", "seat": 0},  # "let the app roll this one"
        {"type": "adjust", "override": True, "what": "leave", "unit": knight, "to": "discard"},
        {"type": "declare_winner", "winner": 0},
    ])


# --- Cardmaster -----------------------------------------------------------------------------------

CARDMASTER_OPTIONS = {"size": 3, "who_rolls": "app"}
STORM_LINEUP = ["Gale Harrier", "Storm Kite", "Volt Lancer"]  # Storm Kite, SPD 180: this side moves first
STONE_LINEUP = ["Stonewarden", "Granite Brute", "Reef Sentinel"]
MAX_CARDMASTER_STEPS = 500
"""A played-out 3v3 takes well under a hundred steps; more means the play-out is stuck."""


def cardmaster_locked(lineups: list[list[str]], players: Players = ANA_BEN) -> Match:
    """A 3v3 with both lineups locked in: round 1 has started."""
    match = services.match_create(slug="cardmaster", player_names=list(players), config=CARDMASTER_OPTIONS)
    return play_steps(match, [
        {"type": "lock_lineup", "seat": seat, "cards": [catalog_card("cardmaster", name) for name in names]}
        for seat, names in enumerate(lineups)
    ])


def cardmaster_play_out(match: Match) -> Match:
    """The strongest affordable attack on the weakest target, else STACK, until a side is knocked out
    (every percentile roll the app's)."""
    for _step in range(MAX_CARDMASTER_STEPS):
        if match.finished is not None:
            return match
        legal = match.game.legal_actions(match.state)
        attacks = [a for a in legal if a["type"] in ("a3", "a2", "a1")]
        hp = {card_id: fighter["hp"] for card_id, fighter in match.state["cards"].items()}
        choice = min(attacks, key=lambda a: (("a3", "a2", "a1").index(a["type"]), hp[a["target"]]),
                     default=None) or next(a for a in legal if a["type"] == "stack")
        play_steps(match, [choice])
    raise RuntimeError(f"Cardmaster match {match.pk} did not end within {MAX_CARDMASTER_STEPS} steps.")


def cardmaster_knock_out(players: Players = ANA_BEN) -> Match:
    """Secret lineups, two rounds of STACK, an A2 with both percentile rolls typed in (100: no backfire;
    1: Brainlock lands), an SPC boost, then played out to a knock-out with the app rolling."""
    match = cardmaster_locked([STORM_LINEUP, STONE_LINEUP], players)
    stacks = [{"type": "stack", "card": c} for c in ("A1", "A2", "A3", "B1", "B2", "B3")]
    play_steps(match, stacks * 2 + [
        ({"type": "a2", "card": "A1", "target": "B1"}, [100, 1]),
        {"type": "spc", "card": "A2", "stat": "atk"},
    ])
    return cardmaster_play_out(match)


def cardmaster_coin_for_possession(players: Players = ANA_BEN) -> Match:
    """Mirror lineups: the fastest cards tie at SPD 180, so the seed's coin gives round 1's possession."""
    return cardmaster_play_out(cardmaster_locked([STORM_LINEUP, STORM_LINEUP], players))


# --- Evons: seat 0 sits at the bottom of the board (row 6), seat 1 at the top ------------------------


def evons_play(seat: int, cell: str, name: str | None) -> dict:
    """A card played face-up from the catalog, or covered (name None: nothing is told until its reveal)."""
    if name is None:
        return {"type": "play", "seat": seat, "cell": cell, "covered": True}
    return {"type": "play", "seat": seat, "cell": cell, "covered": False, "card": catalog_card("evons", name)}


def evons_by_passes(players: Players = ANA_BEN) -> Match:
    """A conflict, a covered card pushed by Shockwave and revealed where it landed, then both players
    pass: seat 1 wins 3-2."""
    match = services.match_create(slug="evons", player_names=list(players), config={})
    return play_steps(match, [
        {"type": "pass", "seat": 0},
        evons_play(1, "C3", "Moss Golem"),
        evons_play(0, "B3", "Ember Fox"),
        {"type": "conflict", "seat": 0, "target": "C3"},
        evons_play(1, "D2", None),
        evons_play(0, "C2", "Boulder Ram"),
        {"type": "ability", "seat": 0, "arrow": "E", "target": "D2"},  # pushes the covered card to E2
        {"type": "reveal", "seat": 1, "cell": "E2", "card": catalog_card("evons", "Night Crow")},
        evons_play(1, "D3", "Reef Warden"),
        {"type": "pass", "seat": 0},
        {"type": "pass", "seat": 1},
    ])


def evons_table_ends(players: Players = ANA_BEN) -> Match:
    """Overrides marked in the log (credits, a card's DEF) and a game the table ends early, 1-1."""
    match = services.match_create(slug="evons", player_names=list(players), config={"reach": 2, "def_reset": False})
    return play_steps(match, [
        {"type": "adjust", "override": True, "seat": 1, "credits": 12},
        evons_play(0, "B2", "Spark Wisp"),
        evons_play(1, "D4", "Reef Warden"),
        {"type": "adjust", "override": True, "cell": "D4", "def": 3},
        {"type": "end_game", "override": True},
    ])


# Per game, the scripts by name: the demo plays them, and the match-file tests re-run them.
MATCHES = {
    "logos": {"knock-out": logos_knock_out, "resignation": logos_resignation},
    "lonely-star": {"deck-out": lonely_star_deck_out, "table-call": lonely_star_table_call},
    "cardmaster": {"knock-out": cardmaster_knock_out, "coin-for-possession": cardmaster_coin_for_possession},
    "evons": {"by-passes": evons_by_passes, "table-ends": evons_table_ends},
}
