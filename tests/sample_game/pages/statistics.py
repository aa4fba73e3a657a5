"""High Card Duel statistics: which values win rounds, and round wins over a duel."""

from collections import Counter

from django.utils.translation import pgettext

from tracker.games.base import Figures, Progress
from tracker.models import Match


def figures(matches) -> Figures:
    won: Counter = Counter()
    for match in matches:
        for result in match.state["rounds"]:
            if result["winner"] is not None:
                won[str(result["cards"][result["winner"]]["value"])] += 1
    return [(pgettext("high-card-duel", "Rounds won, by the winning value"), won.most_common())]


def progress(match: Match) -> Progress:
    names = [player.name for player in match.players()]
    totals, series = [0, 0], {name: [0] for name in names}
    for result in match.state["rounds"]:
        if result["winner"] is not None:
            totals[result["winner"]] += 1
        for name, total in zip(names, totals, strict=True):
            series[name].append(total)
    return pgettext("high-card-duel", "Round wins after each round"), series
