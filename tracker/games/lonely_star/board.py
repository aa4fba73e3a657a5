"""What the Lonely Star board shows: each side's zones and units with base and total stats, and the last step."""

from django.utils.translation import gettext

from rules.lonely_star import STAT_NAMES, STATS
from rules.lonely_star.rolls import is_certain
from rules.lonely_star.statuses import effect_reach
from rules.lonely_star.units import status_penalty, total
from rules.lonely_star.zones import ZONES

from ...models import Card, Match
from ...services import head_action
from .forms import SLUG
from .narration import ZONE_NAMES, describe, describe_action

def _unit_view(state: dict, unit: dict) -> dict:
    stats = []
    for stat in STATS:
        value = total(state, unit, stat)
        stats.append(
            {
                "key": stat,
                "name": STAT_NAMES[stat],
                "base": unit["base"][stat],
                "total": value,
                "mod": unit["mods"][stat],
                "penalty": status_penalty(state, unit, stat),
                "changed": value != unit["base"][stat],
            }
        )
    luck, resist = total(state, unit, "lk"), total(state, unit, "rs")
    return {
        **unit,
        "id_str": str(unit["id"]),
        "stats": stats,
        "totals": {s["key"]: s["total"] for s in stats},
        "statuses_shown": [
            {
                "key": key,
                "name": state["statuses"][key]["name"],
                "count": count,
                "stat": STAT_NAMES[state["statuses"][key]["stat"]],
            }
            for key, count in unit["statuses"].items()
        ],
        "crit_certain": is_certain(luck),
        "resist_certain": is_certain(resist),
        "effect_reach": effect_reach(state, unit) if unit["statuses"].get("blind") else None,
        "poisoned": bool(unit["statuses"].get("poison")),
        "hexed": bool(unit["statuses"].get("hex")),
        "resisted": unit["id"] in state["resisted"],
    }


def _last_step(match: Match, names: list[str]) -> dict | None:
    """The step just taken with all its working, so the table sees at once what the dice did."""
    action = head_action(match)
    if action is None:
        return None
    rolls = [
        (
            gettext("a die rolled at the table") if roll["by"] == "player" else gettext("the app's die"),
            roll["value"],
        )
        for roll in action.rolls
    ]
    return {
        "seq": action.seq,
        "what": describe_action(action.payload, action.events, names),
        "lines": [line for line in (describe(event, names) for event in action.events) if line],
        "rolls": [gettext("⚄ %(who)s: %(value)s") % {"who": who, "value": value} for who, value in rolls],
        "override": bool(action.payload.get("override")),
    }


def board(match: Match) -> dict:
    state = match.state
    players = match.players()
    units = [_unit_view(state, unit) for unit in state["units"]]
    seats = []
    for seat, player in enumerate(players):
        seats.append(
            {
                "seat": seat,
                "player": player,
                "zones": [
                    {"key": zone, "name": ZONE_NAMES[zone], "count": state["players"][seat][zone]}
                    for zone in ZONES
                ],
                "units": [unit for unit in units if unit["seat"] == seat],
                "is_turn": seat == state["turn"],
            }
        )
    turn = state["turn"]
    return {
        "state": state,
        "seats": seats,
        "units": units,
        "turn_player": players[turn],
        "turn": turn,
        "opponent_units": [unit for unit in units if unit["seat"] != turn],
        "statuses": [
            {"key": key, **status, "stat_name": STAT_NAMES[status["stat"]]}
            for key, status in state["statuses"].items()
        ],
        "players_roll": state["options"]["who_rolls"] == "players",
        "stats": [(stat, STAT_NAMES[stat]) for stat in STATS],
        "zones": [(zone, ZONE_NAMES[zone]) for zone in ZONES],
        "accessories": sorted({name for unit in units for name in unit["accessories"]}),
        "end_step": state["phase"] == "end",
        "over": state["phase"] == "over",
        "catalog": Card.objects.filter(slug=SLUG),
        "last_step": _last_step(match, [player.name for player in players]),
    }
