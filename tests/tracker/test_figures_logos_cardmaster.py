"""LOGOS and Cardmaster statistics from known matches: the stats page's figures and each match's chart.

Every number below was worked out by hand from the rules (rules/logos, rules/cardmaster) and
the cards' printed stats, then the matches are played through the services as the pages do.

LOGOS, demo cards, 100,000 HP, duel 1 (Ana vs Ben):
    1  Granite Fist (MATTER 35,000/10,000) vs Quicksilver (ENERGY 35,000/15,000): class triangle,
       Ana strikes 35,000 - 15,000 = 20,000.
    2  Iron Golem (MATTER 40,000/30,000, SPEED 20) vs Granite Fist (SPEED 60): same class, Ben is
       faster: 35,000 - 30,000 = 5,000 (Berserk does nothing: Ana is above 25,000 HP).
    3  Granite Fist vs Granite Fist: same colour and SPEED, a Deadlock at the reveal.
    4  Ana has no playable card; Ben's Seraph (Life, 60,000) strikes the full 60,000.
    5  Rust Swarm (MATTER 25,000/5,000, SPEED 75) vs Iron Golem (SPEED 20): Ana attacks for
       25,000 - 30,000 = 0, the colours match, so Ben counter-attacks 40,000 - 5,000 = 35,000:
       Ana (35,000 HP) is knocked out. Ben wins.
Duel 2 (Chloé vs Ana):
    1  Lightning Lance (ENERGY 45,000/10,000; Quicksilver to the backup slot) vs Archive Warden
       (INFORMATION 10,000/30,000, Neutralize on Ana, which blocks the Swap): 45,000 - 30,000 = 15,000.
    2  Granite Fist vs Mirror Code (INFORMATION 20,000/20,000): Ana would attack, but Chloé calls
       Quicksilver, ENERGY beats INFORMATION, and Chloé strikes 35,000 - 20,000 = 15,000.
    3  Ana resigns before the fight: no battle to count. Chloé wins.
"""

import re

import pytest
from django.urls import reverse

from tracker.games import pages_for
from tracker.matches import services
from tracker.models import Match
from tracker.review import stats

from .helpers import text

pytestmark = pytest.mark.django_db

LOGOS = {card["name"]: card for card in pages_for("logos").demo_cards}


def words(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).replace("&#x27;", "'").split())


def apply(match: Match, action: dict, rolls: list[int] | None = None) -> Match:
    match.refresh_from_db()
    services.match_apply_action(match_id=match.pk, action=action, expected_seq=match.head, rolls=rolls)
    match.refresh_from_db()
    return match


def go_back(match: Match, step: int) -> Match:
    match.refresh_from_db()
    services.match_goto(match_id=match.pk, step=step, expected_seq=match.head)
    match.refresh_from_db()
    return match


# ---------------------------------------------------------------- LOGOS


def commit(match: Match, seat: int, name: str | None, backup: str | None = None) -> Match:
    number = match.state["round"]
    if name is None:
        return apply(match, {"type": "defenceless", "seat": seat, "round": number})
    return apply(match, {"type": "commit", "seat": seat, "round": number, "card": LOGOS[name],
                         "backup": LOGOS[backup] if backup else None})


def reveal(match: Match, card0: str | None, card1: str | None, backup0: str | None = None) -> Match:
    return commit(commit(match, 0, card0, backup0), 1, card1)


def fight(match: Match) -> Match:
    return apply(match, {"type": "fight"})


@pytest.fixture
def duel_1(db) -> Match:
    duel = services.match_create(slug="logos", player_names=["Ana", "Ben"], config={})
    for card0, card1 in (("Granite Fist", "Quicksilver"), ("Iron Golem", "Granite Fist")):
        fight(reveal(duel, card0, card1))
    reveal(duel, "Granite Fist", "Granite Fist")  # a Deadlock ends the round at the reveal
    for card0, card1 in ((None, "Seraph"), ("Rust Swarm", "Iron Golem")):
        fight(reveal(duel, card0, card1))
    assert (duel.winner.name, duel.score) == ("Ben", "80,000-0")
    return duel


@pytest.fixture
def duels(duel_1) -> list[Match]:
    duel_2 = services.match_create(slug="logos", player_names=["Chloé", "Ana"], config={})
    fight(reveal(duel_2, "Lightning Lance", "Archive Warden", backup0="Quicksilver"))
    reveal(duel_2, "Granite Fist", "Mirror Code")
    fight(apply(duel_2, {"type": "call_backup", "seat": 0}))
    reveal(duel_2, "Granite Fist", "Solar Flare")
    apply(duel_2, {"type": "resign", "seat": 1})
    assert (duel_2.winner.name, duel_2.state["hp"]) == ("Chloé", [100_000, 70_000])
    # A duel still being played counts for nothing.
    fight(reveal(services.match_create(slug="logos", player_names=["Ana", "Ben"], config={}), "Seraph", None))
    return [duel_1, duel_2]


def logos_figures() -> dict[str, list[tuple[str, int]]]:
    return dict(stats.game_figures("logos", stats.finished_matches(Match.objects.all(), "logos")))


def test_logos_figures_of_one_duel(duel_1):
    assert logos_figures() == {
        "Damage dealt": [("Ben", 100_000), ("Ana", 20_000)],
        "Damage dealt, by the striking card's class": [("Life", 60_000), ("MATTER", 60_000)],
        "Biggest single strike": [("Ben", 60_000), ("Ana", 20_000)],
        "How each round's battle direction was decided": [
            ("SPEED (same class)", 2), ("Class triangle", 1), ("Deadlock: no battle", 1),
            ("The defender had no card", 1)],
    }


def test_logos_figures_add_up_over_duels(duels):
    figures = logos_figures()
    # Ana's 0 from duel 2 still lists her; the resigned round is no battle; the backup's class counts.
    assert figures["Damage dealt"] == [("Ben", 100_000), ("Chloé", 30_000), ("Ana", 20_000)]
    assert figures["Damage dealt, by the striking card's class"] == [
        ("Life", 60_000), ("MATTER", 60_000), ("ENERGY", 30_000)]
    assert figures["Biggest single strike"] == [("Ben", 60_000), ("Ana", 20_000), ("Chloé", 15_000)]
    assert figures["How each round's battle direction was decided"] == [
        ("Class triangle", 3), ("SPEED (same class)", 2), ("Deadlock: no battle", 1),
        ("The defender had no card", 1)]


def test_logos_figures_without_duels(db):
    assert logos_figures() == {
        "Damage dealt": [], "Damage dealt, by the striking card's class": [], "Biggest single strike": [],
        "How each round's battle direction was decided": []}


def test_the_logos_stats_page_shows_the_figures(client, duels):
    html = words(text(client.get(reverse("stats"), {"game": "logos"})))
    assert "2 finished matches." in html
    assert "Damage dealt Ben 100,000 Chloé 30,000 Ana 20,000" in html
    assert "Damage dealt, by the striking card's class Life 60,000 MATTER 60,000 ENERGY 30,000" in html
    assert "How each round's battle direction was decided Class triangle 3 SPEED (same class) 2" in html


def test_the_logos_log_charts_hp_with_a_table(client, duel_1):
    html = text(client.get(reverse("match_log", args=[duel_1.pk])))
    assert "<h2>HP after each round</h2>" in html
    svg = re.search(r"<svg .*?</svg>", html, flags=re.S).group(0)
    assert 'role="img"' in svg and svg.count("<polyline") == 2
    table = re.search(r"<table.*?</table>", html[html.index("chart-box"):], flags=re.S).group(0)
    rows = [words(row) for row in re.findall(r"<tr><th scope=\"row\">.*?</tr>", table, flags=re.S)]
    assert rows == ["0 100000 100000", "1 100000 80000", "2 95000 80000", "3 95000 80000", "4 35000 80000",
                    "5 0 80000"]


def test_a_logos_round_where_neither_player_has_a_card(db):
    duel = reveal(services.match_create(slug="logos", player_names=["Ana", "Ben"], config={}), None, None)
    figures = dict(pages_for("logos").figures([duel]))
    assert figures["How each round's battle direction was decided"] == [("Neither player had a card", 1)]
    assert figures["Damage dealt"] == [("Ana", 0), ("Ben", 0)]


# ---------------------------------------------------------------- Cardmaster
#
# A 3v3 on plain cards: DEF 0 and both types Ember, so Ember hits Ember at 1x and A1 does
# ATK 100 x 0.33 = 33, A2 66. Ana's cards are faster (SPD 100 against 50): she moves first
# every round. Step by step (the cards' ids: Ana A1-A3, Ben B1-B3):
#   round 1  A1 hits B1 (60 -> 27); A2, A3 stack | B1 stacks; B2 hits A3 (60 -> 27); B3 stacks
#   round 2  A1 knocks B1 out: its 1 gem is raided into Ana's pool
#            A2 pays 2 (its 1 + the raided 1) for A2 on B3 (75 -> 9); backfire roll 100 misses,
#            status roll 1 lands Overcook (tier 2: 11%); A3 stacks
#            | B2, B3 stack; at the end of Ben's possession Overcook burns 11% of 75, rounded
#            up: 9, and B3 falls: its 2 gems go to Ana's pool
#   round 3  A1, A2 hit B2 (150 -> 117 -> 84); A3 stacks (3 gems) | B2 knocks A3 out: 3 gems to Ben
#   round 4  A1, A2 hit B2 (84 -> 51 -> 18) | B2 pays its 1 gem and 3 raided to REVIVE B1, who
#            comes back at 30 HP (half of 60) straight into an empty slot
#   round 5  A1 knocks B1 out (30 HP); A2 knocks B2 out (18 HP). Ana wins 2-0.

def cm_card(name: str, spd: int, hp: int, tier: int = 1, status: str = "none") -> dict:
    return {"name": name, "spd": spd, "hp": hp, "def": 0, "atk": 100, "spc": 0, "type1": 1, "type2": 1,
            "tier": tier, "status": status}


ANA = [cm_card("Ana Blade", 100, 200), cm_card("Ana Ember", 100, 200, tier=2, status="overcook"),
       cm_card("Ana Guard", 100, 60)]
BEN = [cm_card("Ben Stone", 50, 60), cm_card("Ben Tide", 50, 150), cm_card("Ben Wisp", 50, 75)]

ROUNDS = [
    [("a1", "A1", "B1"), ("stack", "A2"), ("stack", "A3"),
     ("stack", "B1"), ("a1", "B2", "A3"), ("stack", "B3")],
    [("a1", "A1", "B1"), ("a2", "A2", "B3"), ("stack", "A3"), ("stack", "B2"), ("stack", "B3")],
    [("a1", "A1", "B2"), ("a1", "A2", "B2"), ("stack", "A3"), ("a1", "B2", "A3")],
    [("a1", "A1", "B2"), ("a1", "A2", "B2"), ("revive", "B2", "B1")],
    [("a1", "A1", "B1"), ("a1", "A2", "B2")],
]


def move(match: Match, kind: str, card: str, other: str | None = None) -> Match:
    action = {"type": kind, "card": card}
    if other:
        action["target"] = other
    # A2's status rolls, entered as a table would: backfire 100 (misses), then the status 1 (lands).
    return apply(match, action, rolls=[100, 1] if kind == "a2" else None)


def new_custom_match() -> Match:
    match = services.match_create(slug="cardmaster", player_names=["Ana", "Ben"], config={"size": 3})
    apply(match, {"type": "lock_lineup", "seat": 0, "cards": ANA})
    return apply(match, {"type": "lock_lineup", "seat": 1, "cards": BEN})


@pytest.fixture
def custom_match(db) -> Match:
    match = new_custom_match()
    for number, moves in enumerate(ROUNDS, start=1):
        for step in moves:
            if number == 5 and step[1] == "A1":
                # First A1 knocks out B2 instead, then that is undone and replaced: the abandoned
                # branch (a knockout in it) must count for nothing.
                move(match, "a1", "A1", "B2")
                go_back(match, match.head - 1)
            move(match, *step)
        assert match.state["round"] == number + (0 if number == 5 else 1)
    assert (match.winner.name, match.score) == ("Ana", "2-0")
    hp = [match.state["cards"][card]["hp"] for card in ("A1", "A2", "A3", "B1", "B2", "B3")]
    assert hp == [200, 200, 0, 0, 0, 0]
    # A match still being played counts for nothing.
    move(new_custom_match(), "a1", "A1", "B1")
    return match


def cardmaster_figures() -> dict[str, list[tuple[str, int]]]:
    return dict(stats.game_figures("cardmaster", stats.finished_matches(Match.objects.all(), "cardmaster")))


def test_cardmaster_figures(custom_match):
    assert cardmaster_figures() == {
        # Ana: B1's 1 gem and B3's 2; Ben: A3's 3. B1 and B2 fell with none at the end.
        "Gems raided": [("Ana", 3), ("Ben", 3)],
        # HP taken off: all of Ben's 285 plus the revived B1's 30; B2's two hits on A3.
        "Damage dealt": [("Ana", 315), ("Ben", 60)],
        "Knockouts, by the move or status that landed them": [("A1", 4), ("Overcook", 1)],
        # 3v3: the winner's three cards are its MVPs.
        "Most often MVP": [("Ana Blade", 1), ("Ana Ember", 1), ("Ana Guard", 1)],
    }


def test_cardmaster_figures_without_matches(db):
    assert all(rows == [] for rows in cardmaster_figures().values())
    assert len(cardmaster_figures()) == 4


def test_the_cardmaster_chart_counts_cards_standing_each_round(custom_match):
    title, series = stats.match_progress(custom_match)
    assert title == "Cards standing after each round"
    # Start, then after rounds 1-5: B1 and B3 fall in round 2, A3 in round 3, B1 is revived in
    # round 4 and falls again with B2 in round 5.
    assert series == {"Ana": [3, 3, 3, 2, 2, 2], "Ben": [3, 3, 1, 1, 2, 0]}


def test_the_chart_follows_undo(custom_match):
    """Two moves undone: round 5 is under way again and nobody has fallen in it yet."""
    go_back(custom_match, custom_match.head - 2)
    assert stats.match_progress(custom_match)[1] == {"Ana": [3, 3, 3, 2, 2, 2], "Ben": [3, 3, 1, 1, 2, 2]}


def test_the_chart_before_the_first_round(db):
    match = services.match_create(slug="cardmaster", player_names=["Ana", "Ben"], config={"size": 6})
    assert stats.match_progress(match)[1] == {"Ana": [6], "Ben": [6]}


def test_the_cardmaster_stats_page_shows_the_figures(client, custom_match):
    html = words(text(client.get(reverse("stats"), {"game": "cardmaster"})))
    assert "1 finished match." in html
    assert "Gems raided Ana 3 Ben 3" in html
    assert "Damage dealt Ana 315 Ben 60" in html
    assert "Knockouts, by the move or status that landed them A1 4 Overcook 1" in html
    assert "Most often MVP Ana Blade 1 Ana Ember 1 Ana Guard 1" in html


def test_the_cardmaster_log_charts_cards_standing_with_a_table(client, custom_match):
    html = text(client.get(reverse("match_log", args=[custom_match.pk])))
    assert "<h2>Cards standing after each round</h2>" in html
    svg = re.search(r"<svg .*?</svg>", html, flags=re.S).group(0)
    assert 'role="img"' in svg and '<title id="chart-cards-standing-after-each-round">' in svg
    assert svg.count("<polyline") == 2
    table = re.search(r"<table.*?</table>", html[html.index("chart-box"):], flags=re.S).group(0)
    head = re.search(r"<thead>.*?</thead>", table, flags=re.S).group(0)
    assert words(head) == "After round or turn Ana Ben"
    rows = [words(row) for row in re.findall(r"<tr><th scope=\"row\">.*?</tr>", table, flags=re.S)]
    assert rows == ["0 3 3", "1 3 3", "2 3 1", "3 2 1", "4 2 2", "5 2 0"]


def test_a_card_set_to_0_hp_by_hand_is_a_knockout_by_hand(db):
    match = new_custom_match()
    apply(match, {"type": "adjust", "override": True, "card": "B1", "gems": 2})
    apply(match, {"type": "adjust", "override": True, "card": "B1", "hp": 0})
    figures = dict(pages_for("cardmaster").figures([match]))
    assert figures["Knockouts, by the move or status that landed them"] == [("HP set to 0 by hand", 1)]
    assert figures["Gems raided"] == [("Ana", 2), ("Ben", 0)]  # its stack still goes to Ana's pool
    assert stats.match_progress(match)[1] == {"Ana": [3, 3], "Ben": [3, 2]}  # round 1 under way

