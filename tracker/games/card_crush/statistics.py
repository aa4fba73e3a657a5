"""Card Crush statistics: the cards each seat played, which affinities win rounds and how, round wins over a battle."""

from collections import Counter

from django.utils.translation import pgettext_lazy

from ...matches.engine_messages import engine_word
from ...models import Match
from ..base import Figures, Progress


def cards_played(match: Match, seat: int) -> list[str]:
    """The names of the cards a seat used in a match, for "most played" statistics."""
    deck = match.state["decks"][seat]
    return [card["name"] for card in deck] if deck else []


def figures(matches) -> Figures:
    """What Card Crush players ask of their history: which affinities win rounds, and how."""
    by_affinity: Counter = Counter()
    decided_by: Counter = Counter()
    labels = {
        "score": pgettext_lazy("card-crush", "Battle Score or Power"),
        "speed": pgettext_lazy("card-crush", "Speed tiebreak"),
        "initiative": pgettext_lazy("card-crush", "Team Initiative tiebreak"),
        "coin": pgettext_lazy("card-crush", "Coin flip"),
    }
    for match in matches:
        for result in match.state["rounds"]:
            by_affinity[engine_word("card-crush", result["cards"][result["winner"]]["affinity"])] += 1
            decided_by[str(labels[result["decided_by"]])] += 1
    return [
        (str(pgettext_lazy("card-crush", "Rounds won, by the winning card's affinity")), by_affinity.most_common()),
        (str(pgettext_lazy("card-crush", "How rounds were decided")), decided_by.most_common()),
    ]


def progress(match: Match) -> Progress:
    """Round wins of each player after each round, for the match's chart."""
    names = [player.name for player in match.players()]
    totals, series = [0, 0], {name: [0] for name in names}
    for result in match.state["rounds"]:
        totals[result["winner"]] += 1
        for name, total in zip(names, totals, strict=True):
            series[name].append(total)
    return str(pgettext_lazy("card-crush", "Round wins after each round")), series
