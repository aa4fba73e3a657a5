"""High Card Duel's demo: a catalog of thirteen cards and one finished duel."""

from tracker.games.common import ANA_BEN, Players, catalog_card, play_steps
from tracker.matches import services
from tracker.models import Match

CARDS = [{"name": name, "value": value} for value, name in enumerate(
    ["Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King"],
    start=1)]


def ana_wins(players: Players = ANA_BEN) -> Match:
    """Ana wins 3-1: a tie, then Ben's one round."""
    match = services.match_create(slug="high-card-duel", player_names=list(players), config={})
    rounds = [("Queen", "Two"), ("Five", "Five"), ("Three", "Nine"), ("King", "Jack"), ("Ten", "Four")]
    steps: list = []
    for ana, ben in rounds:
        steps += [{"type": "pick", "seat": 0, "card": catalog_card("high-card-duel", ana)},
                  {"type": "pick", "seat": 1, "card": catalog_card("high-card-duel", ben)},
                  {"type": "reveal"}]
    return play_steps(match, steps)


MATCHES = {"ana-wins": ana_wins}
PLAYED = [("ana-wins", ANA_BEN)]
