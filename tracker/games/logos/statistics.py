"""LOGOS statistics: the cards each seat fought with, damage dealt and how directions were decided, HP over a duel."""

from collections import Counter

from django.utils.translation import pgettext_lazy

from ...models import Match
from ..base import Figures, Progress
from ..common import ranked, seat_names


def cards_played(match: Match, seat: int) -> list[str]:
    """The cards a seat fought with (a called backup card included), for "most played" statistics."""
    return [record["cards"][seat]["name"] for record in match.state["rounds"] if record["cards"][seat]]


def progress(match: Match) -> Progress:
    """Each player's HP at the start and after every round, for the match's chart."""
    start = match.state["config"]["starting_hp"]
    series = {player.name: [start] for player in match.players()}
    for record in match.state["rounds"]:
        for name, hp in zip(series, record["hp"], strict=True):
            series[name].append(hp)
    return str(pgettext_lazy("logos", "HP after each round")), series


# How the last direction of a fought round was found, in the words of the stats page.
DIRECTION_LABELS = {
    "class": pgettext_lazy("logos", "Class triangle"),
    "speed": pgettext_lazy("logos", "SPEED (same class)"),
    "defenceless": pgettext_lazy("logos", "The defender had no card"),
    "deadlock": pgettext_lazy("logos", "Deadlock: no battle"),
    "no-cards": pgettext_lazy("logos", "Neither player had a card"),
}


def _decided_by(working_events: list[dict]) -> str | None:
    """How a finished round's battle went: the direction it was fought in, a Deadlock or no cards.

    None for a round that ended without a fight (a resignation, or HP set to 0 by hand).
    """
    kinds = {event["type"] for event in working_events}
    directions = [event for event in working_events if event["type"] == "direction"]
    last = directions[-1]["by"] if directions else None
    if "strike" in kinds or "no_battle" in kinds or (directions and directions[-1]["stage"] == "reveal"
                                                     and last in ("deadlock", "no-cards")):
        return last
    return None


def figures(matches) -> Figures:
    """What LOGOS players ask of their duels: who hits hardest, with which class, and who attacked why.

    Damage is each strike's own figure, ATTACK minus DEFENSE (the full ATTACK on a
    defenceless player), as the log prints it: a knock-out blow counts in full even
    where it takes more than the HP left. A counter-attack counts for the player
    striking back. The class is the one printed on the striking card (a called
    backup card when it replaced the first).
    """
    dealt: Counter = Counter()
    by_class: Counter = Counter()
    biggest: Counter = Counter()
    decided: Counter = Counter()
    for match in matches:
        names = seat_names(match)
        for name in names:
            dealt[name] += 0
        for record in match.state["rounds"]:
            for event in record["working"]:
                if event["type"] != "strike":
                    continue
                name = names[event["attacker"]]
                dealt[name] += event["damage"]
                biggest[name] = max(biggest[name], event["damage"])
                by_class[record["cards"][event["attacker"]]["class"]] += event["damage"]
            how = _decided_by(record["working"])
            if how:
                decided[str(DIRECTION_LABELS[how])] += 1
    return [
        (str(pgettext_lazy("logos", "Damage dealt")), ranked(dealt)),
        (str(pgettext_lazy("logos", "Damage dealt, by the striking card's class")), ranked(+by_class)),
        (str(pgettext_lazy("logos", "Biggest single strike")), ranked(+biggest)),
        (str(pgettext_lazy("logos", "How each round's battle direction was decided")), ranked(decided)),
    ]
