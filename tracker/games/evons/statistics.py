"""Evons statistics: the cards each seat played, final scores and how games ended, the score over a game."""

from collections import Counter

from django.template.defaultfilters import floatformat
from django.utils.translation import npgettext, pgettext_lazy

from rules.evons.pieces import scores
from tracker.matches.services import applied_actions

from ...models import Match
from ..base import Figures, Progress


def cards_played(match: Match, seat: int) -> list[str]:
    """The cards a seat played face-up or revealed in a match, for "most played" statistics.

    Reads `match.actions.all()`, so statistics over many matches prefetch the logs in one query.
    """
    return [
        action.payload["card"]["name"]
        for action in match.actions.all()
        if not action.abandoned and action.seq <= match.head
        and action.payload.get("type") in ("play", "reveal")
        and action.payload.get("seat") == seat
        and "card" in action.payload
    ]


ENDED_BY = {
    "board-full": pgettext_lazy("evons", "The main zone filled up"),
    "passes": pgettext_lazy("evons", "Both players passed"),
    "agreed": pgettext_lazy("evons", "The table ended it"),
}


def figures(matches) -> Figures:
    """Each player's final scores (average over their games, and best) and how the games ended."""
    finals: dict[int, tuple[str, list[int]]] = {}
    endings: Counter = Counter()
    for match in matches:
        points = scores(match.state)
        for seat in match.seats.all():
            finals.setdefault(seat.player_id, (seat.player.name, []))[1].append(points[seat.position])
        endings[str(ENDED_BY[match.state["over"]["reason"]])] += 1
    by_average = sorted(finals.values(), key=lambda f: (-sum(f[1]) / len(f[1]), f[0].casefold()))
    by_best = sorted(finals.values(), key=lambda f: (-max(f[1]), f[0].casefold()))
    return [
        (
            str(pgettext_lazy("evons", "Average final score")),
            [
                (
                    name,
                    npgettext("evons", 
                        "%(average)s over %(games)s game", "%(average)s over %(games)s games", len(points)
                    )
                    % {"average": floatformat(sum(points) / len(points), 1), "games": len(points)},
                )
                for name, points in by_average
            ],
        ),
        (str(pgettext_lazy("evons", "Best final score")), [(name, max(points)) for name, points in by_best]),
        (str(pgettext_lazy("evons", "How games ended")), endings.most_common()),
    ]


def progress(match: Match) -> Progress:
    """Each player's score at the start and at the end of every turn, for the match's chart.

    The engine scores the board at every turn's end and when the game ends (which may be
    in mid-turn, when the main zone fills), so the stored events hold every point.
    """
    names = [player.name for player in match.players()]
    series = {name: [0] for name in names}  # the board starts empty
    for action in applied_actions([match])[match.pk]:
        for event in action.events:
            if event["type"] in ("score", "game_over"):
                for name, points in zip(names, event["scores"], strict=True):
                    series[name].append(points)
    return str(pgettext_lazy("evons", "Score at the end of each turn")), series
