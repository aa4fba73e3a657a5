"""What the Lonely Star board shows: each side's zones and units with base and total stats, and the last step.

Which forms a unit gets (attack whom, move, play a card, equip, roll Resist for which status) is
the engine's `legal_actions`; a unit that cannot act says why in the engine's words.
"""

from functools import lru_cache

from django.utils.translation import get_language, pgettext, pgettext_lazy

from rules.lonely_star import STATS
from rules.lonely_star.combat import luck_mill
from rules.lonely_star.match import AMOUNT_MAX, COUNT_MAX, legal_actions
from rules.lonely_star.rolls import SIDES, certain_result
from rules.lonely_star.state import MatchState
from rules.lonely_star.statuses import HEX_ATTACK_COST, HEX_ATTACK_DAMAGE, POISON_ACT_COST, effect_reach
from rules.lonely_star.statuses import NAME_MAX as STATUS_NAME_MAX
from rules.lonely_star.units import NAME_MAX, STAT_MAX, status_penalty, total
from rules.lonely_star.zones import ZONES
from tracker.matches.services import head_action

from ...models import Match
from ..common import refusal
from .narration import STAT_LABELS, ZONE_NAMES, describe, describe_action

# A card that passes the engine's card check, to ask whether a seat may play a unit at all now.
ANY_UNIT = {"name": "?", "hp": 1, "at": 0, "lk": 0, "rs": 0, "reach": 0}


CERTAIN = {
    ("crit", True): pgettext_lazy(
        "lonely-star",
        "Luck %(n)s: the crit always succeeds (the die shows %(sides)s at most), no die needed.",
    ),
    ("crit", False): pgettext_lazy(
        "lonely-star", "Luck %(n)s: the crit cannot succeed (the die shows 1 at least), no die needed."
    ),
    ("resist", True): pgettext_lazy(
        "lonely-star",
        "Resist %(n)s: this roll always succeeds (the die shows %(sides)s at most), no die needed.",
    ),
    ("resist", False): pgettext_lazy(
        "lonely-star", "Resist %(n)s: this roll cannot succeed (the die shows 1 at least), no die needed."
    ),
    ("luck", True): pgettext_lazy(
        "lonely-star",
        "Luck %(n)s: this roll always succeeds (the die shows %(sides)s at most), no die needed.",
    ),
    ("luck", False): pgettext_lazy(
        "lonely-star", "Luck %(n)s: this roll cannot succeed (the die shows 1 at least), no die needed."
    ),
}
"""What a form says of a roll whose result is certain, by the roll's kind and which way: only the one said is
translated (all six were, for each of a unit's three rolls, most of a board's translations)."""


def certain_roll(kind: str, value: int) -> str:
    """What a form says in place of the die field when the engine's check against `value` is certain, and which
    way ("always succeeds" or "cannot succeed"); "" when a die decides. `kind`: "crit", "resist" or "luck"."""
    return _certain_roll(kind, value, get_language())


@lru_cache(maxsize=512)
def _certain_roll(kind: str, value: int, language: str | None) -> str:
    """certain_roll in `language`, kept (three a unit, each a catalogue lookup and a format, were a sixth of a board)."""
    sure = certain_result(value)
    if sure is None:
        return ""
    return str(CERTAIN[kind, sure]) % {"n": value, "sides": SIDES}


def _unit_view(state: MatchState, unit: dict) -> dict:
    stats = []
    for stat in STATS:
        value = total(state, unit, stat)
        stats.append(
            {
                "key": stat,
                "name": STAT_LABELS[stat],
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
                "stat": STAT_LABELS[state["statuses"][key]["stat"]],
            }
            for key, count in unit["statuses"].items()
        ],
        # True: always succeeds, False: cannot succeed, None: a die decides; and what the form says of it.
        "crit_sure": certain_result(luck),
        "resist_sure": certain_result(resist),
        "certain": {kind: {"text": certain_roll(kind, value), "sure": certain_result(value)}
                    for kind, value in (("crit", luck), ("luck", luck), ("resist", resist))},
        "mills": luck_mill(luck),
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
            pgettext("lonely-star", "a die rolled at the table")
            if roll["by"] == "player"
            else pgettext("lonely-star", "the app's die"),
            roll["value"],
        )
        for roll in action.rolls
    ]
    return {
        "seq": action.seq,
        "what": describe_action(action.payload, action.events, names),
        "lines": [line for line in (describe(event, names) for event in action.events) if line],
        "rolls": [
            pgettext("lonely-star", "⚄ %(who)s: %(value)s") % {"who": who, "value": value}
            for who, value in rolls
        ],
        "override": bool(action.payload.get("override")),
    }


def _offers(match: Match, units: list[dict], legal: list[dict]) -> None:
    """What the engine lets each unit do now (`legal`, its legal_actions), and why a unit that cannot act cannot."""
    by_id = {unit["id"]: unit for unit in units}
    by_unit: dict[object, list[dict]] = {}  # each unit's actions, found in one pass (a board offers a hundred or more)
    for action in legal:
        by_unit.setdefault(action.get("unit"), []).append(action)
    for unit in units:
        mine = by_unit.get(unit["id"], [])
        # Only what the target list shows: a unit's kept part (regions.py) does not change with its targets' damage.
        unit["attack_targets"] = [{key: by_id[a["target"]][key] for key in ("id", "name", "owner")}
                                  for a in mine if a["type"] == "attack"]
        unit["can_move"] = any(a["type"] == "act" and a["how"] == "move" for a in mine)
        unit["can_play"] = any(a["type"] == "act" and a["how"] == "play" for a in mine)
        unit["can_equip"] = any(a["type"] == "equip" for a in mine)
        unit["resist_statuses"] = [s for s in unit["statuses_shown"]
                                   if {"type": "resist_roll", "seat": unit["seat"], "unit": unit["id"],
                                       "status": s["key"]} in mine]
        unit["act_refused"] = "" if unit["can_play"] or match.state["phase"] != "main" else refusal(
            match, {"type": "act", "seat": unit["seat"], "unit": unit["id"], "how": "play"})


def board(match: Match) -> dict:
    state = match.state
    players = match.players()
    units = [_unit_view(state, unit) for unit in state["units"]]
    for unit in units:
        unit["owner"] = players[unit["seat"]].name  # "Dust Knight (Ana)" in every unit list
    legal = legal_actions(state)
    _offers(match, units, legal)
    # Where the turn's next step starts: at the first of its units that may attack, its Attack form (table.js docks
    # the result above it, so the form, which names the unit, is in view with it), else at the side in turn.
    for unit in units:
        unit["next_step"] = False
    leading = next((unit for unit in units if unit["seat"] == state["turn"] and unit["attack_targets"]), None)
    if leading is not None:
        leading["next_step"] = True
    seats = []
    for seat, player in enumerate(players):
        can_play_unit = {"type": "play_unit", "seat": seat} in legal
        seats.append(
            {
                "seat": seat,
                "player": player,
                "zones": [
                    {"key": zone, "name": ZONE_NAMES[zone], "count": state["players"][seat][zone]}
                    for zone in ZONES
                ],
                "units": [unit for unit in units if unit["seat"] == seat],
                "attacks": leading is not None and leading["seat"] == seat,
                "is_turn": seat == state["turn"],
                "can_play_unit": can_play_unit,
                "play_unit_refused": "" if can_play_unit or state["phase"] != "main" else refusal(
                    match, {"type": "play_unit", "seat": seat, "card": ANY_UNIT}),
            }
        )
    turn = state["turn"]
    return {
        "state": state,
        "seats": seats,
        # The side whose turn it is first, its turn's controls right under it: a turn is read and played
        # without scrolling past the other side. (Forms list the seats in seat order, from "seats".)
        "turn_first": sorted(seats, key=lambda side: not side["is_turn"]),
        "units": units,
        # What the unit lists of the effect and correction forms show: a unit's damage or stats change nothing there.
        "unit_choices": [(unit["id"], unit["name"], unit["owner"]) for unit in units],
        # Whom a status is inflicted on: the other side's units first, so that with one unit there it is chosen
        # already (a status in three taps); the turn player's own units still follow.
        "inflict_targets": [{key: unit[key] for key in ("id", "name", "owner")}
                            for unit in sorted(units, key=lambda unit: unit["seat"] == turn)],
        "turn_player": players[turn],
        "turn": turn,
        "statuses": [
            {"key": key, **status, "stat_name": STAT_LABELS[status["stat"]]}
            for key, status in state["statuses"].items()
        ],
        "players_roll": state["options"]["who_rolls"] == "players",
        "stats": [(stat, STAT_LABELS[stat]) for stat in STATS],
        "zones": [(zone, ZONE_NAMES[zone]) for zone in ZONES],
        "accessories": sorted({name for unit in units for name in unit["accessories"]}),
        "end_step": state["phase"] == "end",
        "over": state["phase"] == "over",
        "last_step": _last_step(match, [player.name for player in players]),
        "sides": SIDES,
        "costs": {"poison": POISON_ACT_COST, "hex_cards": HEX_ATTACK_COST, "hex_damage": HEX_ATTACK_DAMAGE},
        "limits": {"name": NAME_MAX, "stat": STAT_MAX, "amount": AMOUNT_MAX, "count": COUNT_MAX,
                   "status_name": STATUS_NAME_MAX},
    }
