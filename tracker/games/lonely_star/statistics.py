"""Lonely Star statistics: each player's dice against the odds, and the HP left on each side over a match."""

from fractions import Fraction
from typing import cast

from django.template.defaultfilters import floatformat
from django.utils.translation import npgettext, pgettext_lazy

from rules import Dice
from rules.lonely_star.rolls import pass_chance
from rules.lonely_star.state import MatchState
from rules.lonely_star.units import hp_left
from tracker.matches.services import applied_actions, entered_rolls, live_actions

from ...models import Match
from ..base import Figures, Progress

CHECK_TITLES = {
    "crit": pgettext_lazy("lonely-star", "Crits rolled, against the number expected"),
    "resist": pgettext_lazy("lonely-star", "Resist rolls passed, against the number expected"),
    "luck": pgettext_lazy("lonely-star", "Luck rolls passed, against the number expected"),
}


def figures(matches) -> Figures:
    """Each player's dice against the odds: crits, Resist and Luck rolls, and how many should have passed.

    The number expected is the sum of each rolled check's chance of passing (the engine's
    pass_chance: T/6 against a total T). Only checks where a die was rolled count: a total of 6 or
    more (or 0 or less) decides the check without one, and counting those as rolls would
    hide the dice's luck behind certainties. A check belongs to the player controlling the
    unit that rolls it (the attacker for a crit, the unit taking a status for Resist).
    """
    tallies: dict[str, dict[int, dict]] = {kind: {} for kind in CHECK_TITLES}
    applied = applied_actions(matches)
    for match in matches:
        players = {seat.position: seat.player for seat in match.seats.all()}
        controller: dict[int, int] = {}
        for action in applied[match.pk]:
            for event in action.events:
                if event["type"] == "unit_played":  # units enter play only this way
                    controller[event["unit"]] = event["seat"]
                elif event["type"] in ("crit_check", "resist_check", "luck_check") and not event["certain"]:
                    player = players[controller[event["unit"]]]
                    tally = tallies[event["kind"]].setdefault(
                        player.pk, {"name": player.name, "rolls": 0, "passed": 0, "expected": Fraction(0)}
                    )
                    tally["rolls"] += 1
                    tally["passed"] += event["success"]
                    tally["expected"] += pass_chance(event["total"])
    return [(str(title), _check_rows(tallies[kind])) for kind, title in CHECK_TITLES.items()]


def _check_rows(tallies: dict[int, dict]) -> list[tuple[str, str]]:
    rows = []
    for tally in sorted(tallies.values(), key=lambda t: t["name"].casefold()):
        rolls = tally["rolls"]
        expected = floatformat(float(tally["expected"]), 1)  # rounds half up, in the locale's format
        rows.append(
            (
                tally["name"],
                npgettext("lonely-star", 
                    "%(passed)s of %(rolls)s roll, %(expected)s expected",
                    "%(passed)s of %(rolls)s rolls, %(expected)s expected",
                    rolls,
                )
                % {"passed": tally["passed"], "rolls": rolls, "expected": expected},
            )
        )
    return rows


def _health_left(state: MatchState) -> list[int]:
    """Per seat, the HP its units in play have left: total HP less damage counters (lethal ones have gone)."""
    left = [0] * len(state["players"])
    for unit in state["units"]:
        left[unit["seat"]] += hp_left(state, unit)
    return left


def progress(match: Match) -> Progress:
    """The HP left on each player's units at the start and after every turn, for the match's chart.

    Lonely Star has no life total: a player is as strong as the units they hold in play.
    The stored state is only the latest, so the log is re-run from the seed (every die as
    it fell) to read the board at each turn's end. A match the table ends in mid-turn gets
    one last point for where it stopped.
    """
    game = match.game
    names = [player.name for player in match.players()]
    series: dict[str, list[int]] = {name: [] for name in names}

    def mark(state: dict) -> None:  # from the registry's Game, which types every game's state as a dict
        for name, left in zip(names, _health_left(cast(MatchState, state)), strict=True):
            series[name].append(left)

    state = game.new_match(match.config, match.seed)
    mark(state)
    changed_since_mark = False
    for action in live_actions(match)[: match.head]:
        dice = Dice(match.seed, action.seq, entered_rolls(action))
        state, _events = game.apply(state, action.payload, dice)
        kind = action.payload.get("type")
        if kind == "finish_turn":
            mark(state)
            changed_since_mark = False
        elif kind != "declare_winner":
            changed_since_mark = True
    if state["phase"] == "over" and changed_since_mark:
        mark(state)
    return str(pgettext_lazy("lonely-star", "HP left on each player's units after each turn")), series
