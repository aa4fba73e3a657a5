"""Cardmaster statistics: the stats page's figures and each match's chart.

The state keeps what each card did (its MVP record) but not what happened when, nor
where raided gems came from, so the rest is read from the events stored with each
applied action of the log.
"""

from collections import Counter

from django.utils.translation import pgettext_lazy

from rules.cardmaster.gems import MOVE_LABELS
from rules.cardmaster.mvp import mvps
from tracker.matches.services import applied_actions

from ...models import Match
from ..common import ranked, seat_names
from .forms import STATUS_LABELS

TOP_MVPS = 8


def _events(actions) -> list[dict]:
    """The events of these actions, in order."""
    return [event for action in actions for event in action.events]


def _knocked_out_by(event: dict) -> str:
    """What made a card fall, from the event just before its fall: an attack, a status tick or a hand fix."""
    if event.get("type") == "attack":
        return MOVE_LABELS[event["move"]]
    if event.get("type") == "tick":
        return str(STATUS_LABELS[event["status"]])
    return str(pgettext_lazy("cardmaster", "HP set to 0 by hand"))


def figures(matches) -> list[tuple[str, list[tuple[str, int]]]]:
    """The gem gamble's payoff and the fighting: gems raided, damage, what knocked cards out, MVPs.

    Gems raided are the stacked gems of the other side's cards that fell, credited to
    the player whose pool they went into (whoever or whatever knocked the card out).
    Damage is the HP a player's cards took off the other side, statuses they put on
    included, as the MVP score counts it. Gems have no colour or kind in Cardmaster,
    so raids are counted, not sorted.
    """
    matches = list(matches)
    events = {pk: _events(actions) for pk, actions in applied_actions(matches).items()}
    raided: Counter = Counter()
    damage: Counter = Counter()
    knockouts: Counter = Counter()
    mvp_cards: Counter = Counter()
    for match in matches:
        names, cards = seat_names(match), match.state["cards"]
        for name in names:
            raided[name] += 0
            damage[name] += 0
        for card in cards.values():
            damage[names[card["seat"]]] += card["record"]["damage"]
        before: dict = {}
        for event in events[match.pk]:
            if event["type"] == "fall":
                raided[names[1 - cards[event["card"]]["seat"]]] += event["raided"]
                knockouts[_knocked_out_by(before)] += 1
            before = event
        if match.state["winner"] is not None:
            mvp_cards.update(mvp["card_name"] for mvp in mvps(match.state, match.state["winner"]))
    return [
        (str(pgettext_lazy("cardmaster", "Gems raided")), ranked(raided)),
        (str(pgettext_lazy("cardmaster", "Damage dealt")), ranked(damage)),
        (str(pgettext_lazy("cardmaster", "Knockouts, by the move or status that landed them")), ranked(knockouts)),
        (str(pgettext_lazy("cardmaster", "Most often MVP")), ranked(mvp_cards)[:TOP_MVPS]),
    ]


def progress(match: Match) -> tuple[str, dict[str, list[int]]]:
    """Each player's cards still standing (the match's score) at the start and after every round.

    The last value is where the match stands now: after its final (or current) round.
    """
    names, cards = seat_names(match), match.state["cards"]
    standing = [match.state["config"]["size"]] * 2
    series = {name: [count] for name, count in zip(names, standing, strict=True)}

    def note() -> None:
        for name, count in zip(names, standing, strict=True):
            series[name].append(count)

    for event in _events(applied_actions([match])[match.pk]):
        if event["type"] == "round" and event["round"] > 1:
            note()  # a new round starts: the previous one is over
        elif event["type"] == "fall":
            standing[cards[event["card"]]["seat"]] -= 1
        elif event["type"] == "revive":
            standing[cards[event["target"]]["seat"]] += 1
    if match.state["round"]:
        note()
    return str(pgettext_lazy("cardmaster", "Cards standing after each round")), series
