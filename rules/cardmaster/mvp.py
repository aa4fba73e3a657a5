"""MVPs: the top 3 cards of the winning team by a performance score.

The rulebook says only "ranked by performance". Our score, shown with its parts:

    performance = HP taken off opponents (attacks and the statuses the card put on them)
                + 100 per opponent card knocked out
                + 25 per status landed on an opponent
                + 50 per ally revived

HP counts what was really taken off (an overkill does not count twice). Ties go to
the card earlier in the lineup. Fallen cards of the winning team can be MVPs.
"""

from .state import MatchState

WEIGHTS = {"damage": 1, "knockouts": 100, "statuses": 25, "revives": 50}
MVP_COUNT = 3


def performance(card: dict) -> int:
    return sum(WEIGHTS[part] * card["record"][part] for part in WEIGHTS)


def mvps(state: MatchState, seat: int) -> list[dict]:
    team = [card for card in state["cards"].values() if card["seat"] == seat]
    ranked = sorted(team, key=lambda card: (-performance(card), int(card["id"][1:])))
    return [{"card": card["id"], "card_name": card["name"], "score": performance(card), **card["record"]}
            for card in ranked[:MVP_COUNT]]
