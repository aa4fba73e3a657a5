"""What the LOGOS board shows: HP, combo counters, backup slots, the battle with its working, past rounds."""

from django.utils.translation import pgettext, pgettext_lazy

from rules.logos.cards import PANELS, colour_of, has_combo_requirement
from rules.logos.duel import DEFAULT_CONFIG, Duel, legal_actions
from rules.logos.effects import BERSERK_BELOW, berserk_ready, current_direction

from ...models import Match
from . import narration
from .narration import COLOUR_LABELS, EFFECT_LABELS


def seat_view(match: Match, seat: int) -> dict:
    """A seat's open facts for its commit page: HP, combo counter, slots, backup slot. Never a commit."""
    state = match.state
    return {
        "hp": narration.number(state["hp"][seat]),
        "slots": state["slots"][seat],
        "combo": combo_panels(state["combo"][seat]),
        "backup": card_view(state["backup"][seat]) if state["backup"][seat] else None,
    }



def combo_panels(counter: list[str]) -> list[dict]:
    """Three panels, left (newest) first: a colour with its name, or empty."""
    return [
        {"colour": counter[i], "label": COLOUR_LABELS[counter[i]]} if i < len(counter)
        else {"colour": None, "label": pgettext_lazy("logos", "empty")}
        for i in range(PANELS)
    ]


def card_view(card: dict, values: dict | None = None) -> dict:
    """A card as the board shows it: printed stats, current values when effects changed them, effects."""
    effects = []
    for side, label in (
        ("left_effect", pgettext_lazy("logos", "on the opponent")),
        ("right_effect", pgettext_lazy("logos", "on its owner")),
    ):
        effect = card[side]
        if effect:
            text = str(EFFECT_LABELS[effect["name"]])
            if effect["name"] == "color-change":
                text += f" {COLOUR_LABELS[effect['from']]} → {COLOUR_LABELS[effect['to']]}"
            effects.append({"name": text, "target": label})
    view = {
        "name": card["name"],
        "class": card["class"],
        "colour": card.get("colour") or colour_of(card["class"]),
        "attack": narration.number(card["attack"]),
        "defense": narration.number(card["defense"]),
        "speed": card["speed"],
        "effects": effects,
        "combo": [{"colour": c, "label": COLOUR_LABELS[c]} for c in card["combo"]],
        "has_combo": has_combo_requirement(card),
    }
    if values:
        view["now"] = {
            "attack": narration.number(values["attack"]),
            "defense": narration.number(values["defense"]),
            "colour": values["colour"],
            "colour_name": narration.colour_name(values["colour"]),
            "changed": [values["attack"], values["defense"], values["colour"]]
            != [card["attack"], card["defense"], card["colour"]],
        }
    return view


def _battle(state: Duel, names: list[str]) -> dict | None:
    table = state["table"]
    if table is None:
        return None
    found = current_direction(table)
    attacker = found["attacker"]
    if found["by"] == "deadlock":
        summary = pgettext("logos", "Deadlock: same colour and SPEED. Fighting ends the round with no battle.")
    else:
        summary = pgettext("logos", "%(attacker)s attacks, %(defender)s defends.") % {
            "attacker": names[attacker], "defender": names[1 - attacker]}
    legal = legal_actions(state)
    cards = []
    for seat in range(2):
        card = table["cards"][seat]
        role = None if attacker is None else ("attacker" if seat == attacker else "defender")
        cards.append({
            "seat": seat,
            "name": names[seat],
            "card": card_view(card, table["values"][seat]) if card else None,
            "role": role,
            "shielded": table["shield"][seat],
            "double_combo": table["double_combo"][seat],
            "can_call": {"type": "call_backup", "seat": seat} in legal,
        })
    return {"cards": cards, "summary": summary}


def board(match: Match) -> dict:
    state = match.state
    players = match.players()
    names = [player.name for player in players]
    phase = state["phase"]
    seats = []
    for seat, player in enumerate(players):
        hp = state["hp"][seat]
        seats.append({
            "seat": seat,
            "player": player,
            "hp": narration.number(hp),
            "hp_percent": min(100, round(100 * hp / state["config"]["starting_hp"])),
            "critical": berserk_ready(hp),
            "critical_below": narration.number(BERSERK_BELOW),
            "slots": state["slots"][seat],
            "combo": combo_panels(state["combo"][seat]),
            "backup": card_view(state["backup"][seat]) if state["backup"][seat] else None,
            "winner": phase == "finished" and state["winner"] == seat,
        })
    rounds = [
        {"number": record["round"], "working": _lines(record["working"], names)}
        for record in reversed(state["rounds"])
    ]
    return {
        "phase": phase,
        "round": state["round"],
        "seats": seats,
        "battle": _battle(state, names) if phase == "battle" else None,
        "working": _lines(state["working"], names),
        "rounds": rounds,
        "result": _result(state, names),
        "options": _options(state["config"]),
    }


def _lines(events: list[dict], names: list[str]) -> list[str]:
    return [text for text in (narration.line(event, names) for event in events) if text]


def _result(state: dict, names: list[str]) -> str:
    if state["phase"] != "finished":
        return ""
    winner = state["winner"]
    if state["ended_by"] == "resignation":
        if winner is None:
            return pgettext("logos", "%(name)s resigned: the duel is a draw.") % {"name": names[state["resigned"]]}
        return pgettext("logos", "%(winner)s wins: %(loser)s resigned.") % {
            "winner": names[winner],
            "loser": names[1 - winner],
        }
    return pgettext("logos", "%(winner)s wins: %(loser)s is at 0 HP.") % {
        "winner": names[winner],
        "loser": names[1 - winner],
    }


def _options(config: dict) -> list[str]:
    """The match options that differ from the defaults, for a reminder under the board."""
    notes = []
    if config["starting_hp"] != DEFAULT_CONFIG["starting_hp"]:
        notes.append(pgettext("logos", "Starting HP %(hp)s.") % {"hp": narration.number(config["starting_hp"])})
    if config["card_slots"] != DEFAULT_CONFIG["card_slots"]:
        notes.append(pgettext("logos", "%(slots)s card slots at the start.") % {"slots": config["card_slots"]})
    if config["heal_above_start"]:
        notes.append(pgettext("logos", "Healing may go above the starting HP."))
    if config["deadlock_combo"]:
        notes.append(pgettext("logos", "A Deadlock feeds the combo counters."))
    if config["resignation"] == "draw":
        notes.append(pgettext("logos", "A resignation is a draw for both."))
    return notes
