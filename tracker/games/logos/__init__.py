"""LOGOS pages: the datacard form, each player's secret commit, and the duel board.

The engine (rules/logos) decides everything; this adapter turns form posts into
actions and the duel's state into what the board shows, with every step of a
round's working written out (working.py).
"""

from collections import Counter

from django.core.exceptions import ValidationError
from django.utils.translation import gettext, gettext_lazy as _

from rules.logos.cards import PANELS, colour_of, has_combo_requirement
from rules.logos.effects import BERSERK_BELOW, current_direction

from ...models import Card, Match
from . import working
from ..common import card_stats, ranked, seat_names  # noqa: F401  (card_stats is part of the adapter)
from .forms import COLOUR_LABELS, EFFECT_LABELS, CardForm, CommitForm, ConfigForm, card_initial

SLUG = "logos"
BOARD_TEMPLATE = "games/logos/board.html"
ENTRY_TEMPLATE = "games/logos/entry.html"
NEW_MATCH_NOUN = _("duel")

# The adapter contract (tracker/games/__init__.py), with the optional own_secret, cards_played, figures
# and progress.
__all__ = [
    "BOARD_TEMPLATE", "DEMO_CARDS", "card_initial", "ENTRY_TEMPLATE", "NEW_MATCH_NOUN", "CardForm", "ConfigForm", "board",
    "card_stats", "cards_played", "describe", "describe_action", "entry_action", "entry_form", "figures",
    "own_secret", "progress", "seats_to_enter", "table_action",
]


def _demo(name, cls, attack, defense, speed, combo="grey grey grey", left=None, right=None):
    effect = lambda e: None if e is None else ({"name": e} if isinstance(e, str) else e)  # noqa: E731
    return {"name": name, "class": cls, "attack": attack, "defense": defense, "speed": speed,
            "combo": combo.split(), "left_effect": effect(left), "right_effect": effect(right)}


# Invented demo cards (the real LOGOS card list is not public), except the first: the rulebook's own
# example datacard, INFORMATION 5,000 / 20,000 / 70, healing its owner, needing INFORMATION two and
# three rounds ago. Its name is ours; the rulebook gives none.
DEMO_CARDS = [
    _demo("Rulebook Datacard", "INFORMATION", 5_000, 20_000, 70, "grey blue blue", right="regeneration"),
    _demo("Iron Golem", "MATTER", 40_000, 30_000, 20, right="berserk"),
    _demo("Granite Fist", "MATTER", 35_000, 10_000, 60),
    _demo("Rust Swarm", "MATTER", 25_000, 5_000, 75, left="destroy-combo"),
    _demo("Titan Core", "MATTER", 60_000, 20_000, 30, "red red grey", right="add-card-slot"),
    _demo("Lightning Lance", "ENERGY", 45_000, 10_000, 80, left="swap-values"),
    _demo("Solar Flare", "ENERGY", 30_000, 15_000, 65, right="maximize"),
    _demo("Static Field", "ENERGY", 15_000, 35_000, 40, left="minimize"),
    _demo("Overload", "ENERGY", 55_000, 5_000, 90, "green grey grey", left="remove-card-slot"),
    _demo("Archive Warden", "INFORMATION", 10_000, 30_000, 55, right="neutralize"),
    _demo("Mirror Code", "INFORMATION", 20_000, 20_000, 60, left="mimmick"),
    _demo("Data Leak", "INFORMATION", 25_000, 10_000, 85, left="destroy-backup"),
    _demo("Recolor Virus", "INFORMATION", 20_000, 15_000, 50,
          left={"name": "color-change", "from": "red", "to": "white"}),
    _demo("Blank Shield", "Neutral", 0, 40_000, 30, right="neutralize"),
    _demo("Shuffle Drone", "Neutral", 5_000, 25_000, 45, left="shuffle-hand"),
    _demo("Echo Shell", "Neutral", 10_000, 30_000, 105, right="double-combo"),
    _demo("Quicksilver", "ENERGY", 35_000, 15_000, 120),
    _demo("Seraph", "Life", 60_000, 20_000, 150),
    _demo("World Tree", "Life", 50_000, 50_000, 20, "green green green", right="regeneration"),
]



# ---------------------------------------------------------------- secret entry


def catalog(match: Match) -> dict[str, Card]:
    return {card.name.casefold(): card for card in Card.objects.filter(slug=SLUG)}


def entry_form(match: Match, data=None, seat: int | None = None) -> CommitForm:
    """The commit form; it carries both seats' open facts and the entry page shows the player's own."""
    form = CommitForm(data, catalog=catalog(match))
    form.round_number = match.state["round"]
    form.seat_views = [seat_view(match, seat) for seat in range(2)]
    return form


def entry_action(form: CommitForm, seat: int) -> dict:
    data = form.cleaned_data
    round_number = form.round_number
    if data["defenceless"]:
        return {"type": "defenceless", "seat": seat, "round": round_number}
    return {"type": "commit", "seat": seat, "round": round_number, "card": data["card"], "backup": data["backup"]}


def seats_to_enter(match: Match) -> list[int]:
    """Seats that still have to commit this round."""
    state = match.state
    if state["phase"] != "commit":
        return []
    return [seat for seat, entry in enumerate(state["commits"]) if entry is None]


def own_secret(match: Match, seat: int) -> list[str] | None:
    """A seated phone's own commit for this round, shown only to that phone before the reveal."""
    state = match.state
    entry = state["commits"][seat] if state["phase"] == "commit" and seat in (0, 1) else None
    if entry is None:
        return None
    if entry["card"] is None:
        return [gettext("No playable card: defenceless this round")]
    lines = [entry["card"]["name"]]
    if entry["backup"]:
        lines.append(gettext("Backup slot: %(card)s") % {"card": entry["backup"]["name"]})
    return lines


def seat_view(match: Match, seat: int) -> dict:
    """A seat's open facts for its commit page: HP, combo counter, slots, backup slot. Never a commit."""
    state = match.state
    return {
        "hp": working.number(state["hp"][seat]),
        "slots": state["slots"][seat],
        "combo": combo_panels(state["combo"][seat]),
        "backup": card_view(state["backup"][seat]) if state["backup"][seat] else None,
    }


# ---------------------------------------------------------------- open actions

TABLE_ACTIONS = ("fight", "call_backup", "resign", "set_hp")


def _whole_number(post, field: str, message) -> int:
    value = post.get(field, "").strip()
    try:
        return int(value)
    except ValueError:
        raise ValidationError(message) from None


def table_action(match: Match, post) -> dict:
    """The open action a board button asks for (fight, call a backup, resign, correct HP)."""
    kind = post.get("action", "")
    if kind not in TABLE_ACTIONS:
        raise ValidationError(gettext("Choose fight, call backup, resign or set HP; nothing was applied."))
    if kind == "fight":
        return {"type": "fight"}
    seat = _whole_number(post, "seat", gettext("Choose which player; nothing was applied."))
    if seat not in (0, 1):
        raise ValidationError(gettext("Choose which player; nothing was applied."))
    if kind != "set_hp":
        return {"type": kind, "seat": seat}
    hp = _whole_number(post, "hp", gettext("HP must be a whole number; nothing was applied."))
    return {"type": "set_hp", "seat": seat, "hp": hp, "override": True}


# ---------------------------------------------------------------- the board


def combo_panels(counter: list[str]) -> list[dict]:
    """Three panels, left (newest) first: a colour with its name, or empty."""
    return [
        {"colour": counter[i], "label": COLOUR_LABELS[counter[i]]} if i < len(counter)
        else {"colour": None, "label": _("empty")}
        for i in range(PANELS)
    ]


def card_view(card: dict, values: dict | None = None) -> dict:
    """A card as the board shows it: printed stats, current values when effects changed them, effects."""
    effects = []
    for side, label in (("left_effect", _("on the opponent")), ("right_effect", _("on its owner"))):
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
        "attack": working.number(card["attack"]),
        "defense": working.number(card["defense"]),
        "speed": card["speed"],
        "effects": effects,
        "combo": [{"colour": c, "label": COLOUR_LABELS[c]} for c in card["combo"]],
        "has_combo": has_combo_requirement(card),
    }
    if values:
        view["now"] = {
            "attack": working.number(values["attack"]),
            "defense": working.number(values["defense"]),
            "colour": values["colour"],
            "colour_name": working.colour_name(values["colour"]),
            "changed": [values["attack"], values["defense"], values["colour"]]
            != [card["attack"], card["defense"], card["colour"]],
        }
    return view


def _battle(state: dict, names: list[str]) -> dict | None:
    table = state["table"]
    if table is None:
        return None
    found = current_direction(table)
    attacker = found["attacker"]
    if found["by"] == "deadlock":
        summary = gettext("Deadlock: same colour and SPEED. Fighting ends the round with no battle.")
    else:
        summary = gettext("%(attacker)s attacks, %(defender)s defends.") % {
            "attacker": names[attacker], "defender": names[1 - attacker]}
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
            "can_call": card is not None and state["backup"][seat] is not None,
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
            "hp": working.number(hp),
            "hp_percent": min(100, round(100 * hp / state["config"]["starting_hp"])),
            "critical": hp < BERSERK_BELOW,
            "slots": state["slots"][seat],
            "combo": combo_panels(state["combo"][seat]),
            "backup": card_view(state["backup"][seat]) if state["backup"][seat] else None,
            "committed": phase == "commit" and state["commits"][seat] is not None,
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
    return [text for text in (working.line(event, names) for event in events) if text]


def _result(state: dict, names: list[str]) -> str:
    if state["phase"] != "finished":
        return ""
    winner = state["winner"]
    if state["ended_by"] == "resignation":
        if winner is None:
            return gettext("%(name)s resigned: the duel is a draw.") % {"name": names[state["resigned"]]}
        return gettext("%(winner)s wins: %(loser)s resigned.") % {"winner": names[winner], "loser": names[1 - winner]}
    return gettext("%(winner)s wins: %(loser)s is at 0 HP.") % {"winner": names[winner], "loser": names[1 - winner]}


def _options(config: dict) -> list[str]:
    """The match options that differ from the defaults, for a reminder under the board."""
    notes = []
    if config["starting_hp"] != 100_000:
        notes.append(gettext("Starting HP %(hp)s.") % {"hp": working.number(config["starting_hp"])})
    if config["card_slots"] != 3:
        notes.append(gettext("%(slots)s card slots at the start.") % {"slots": config["card_slots"]})
    if config["heal_above_start"]:
        notes.append(gettext("Healing may go above the starting HP."))
    if config["deadlock_combo"]:
        notes.append(gettext("A Deadlock feeds the combo counters."))
    if config["resignation"] == "draw":
        notes.append(gettext("A resignation is a draw for both."))
    return notes


def cards_played(match: Match, seat: int) -> list[str]:
    """The cards a seat fought with (a called backup card included), for "most played" statistics."""
    return [record["cards"][seat]["name"] for record in match.state["rounds"] if record["cards"][seat]]


def progress(match: Match) -> tuple[str, dict[str, list[int]]]:
    """Each player's HP at the start and after every round, for the match's chart."""
    start = match.state["config"]["starting_hp"]
    series = {player.name: [start] for player in match.players()}
    for record in match.state["rounds"]:
        for name, hp in zip(series, record["hp"]):
            series[name].append(hp)
    return str(_("HP after each round")), series


# How the last direction of a fought round was found, in the words of the stats page.
DIRECTION_LABELS = {
    "class": _("Class triangle"),
    "speed": _("SPEED (same class)"),
    "defenceless": _("The defender had no card"),
    "deadlock": _("Deadlock: no battle"),
    "no-cards": _("Neither player had a card"),
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


def figures(matches) -> list[tuple[str, list[tuple[str, int]]]]:
    """What LOGOS players ask of their duels: who hits hardest, with which class, and who attacked why.

    Damage is each strike's own figure, ATTACK minus DEFENSE (the full ATTACK on a
    defenceless player), as the log prints it: a knock-out blow counts in full even
    where it takes more than the HP left. A counter-attack counts for the player
    striking back. The class is the one printed on the striking card (a called
    backup card when it replaced the first).
    """
    dealt, by_class, biggest, decided = Counter(), Counter(), Counter(), Counter()
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
        (str(_("Damage dealt")), ranked(dealt)),
        (str(_("Damage dealt, by the striking card's class")), ranked(+by_class)),
        (str(_("Biggest single strike")), ranked(+biggest)),
        (str(_("How each round's battle direction was decided")), ranked(decided)),
    ]


# ---------------------------------------------------------------- the log


def describe(event: dict, names: list[str]) -> str:
    """One line of the match log for an engine event ("" when the action's title says it all)."""
    return working.line(event, names)


def describe_action(action: dict, events: list[dict], names: list[str]) -> str:
    """What a player did, as the log shows it (a commit stays hidden until its round is revealed)."""
    kind = action.get("type")
    name = names[action["seat"]] if action.get("seat") in (0, 1) else ""
    round_number = action.get("round")
    if action.get("hidden"):
        return gettext("Round %(round)s: %(name)s commits in secret") % {"round": round_number, "name": name}
    if kind == "commit":
        title = gettext("Round %(round)s: %(name)s commits %(card)s") % {
            "round": round_number, "name": name, "card": action["card"]["name"]}
        if action.get("backup"):
            title += gettext(" and sends %(card)s to the backup slot") % {"card": action["backup"]["name"]}
        return title
    if kind == "defenceless":
        return gettext("Round %(round)s: %(name)s has no playable card") % {"round": round_number, "name": name}
    if kind == "call_backup":
        return gettext("%(name)s calls the backup card") % {"name": name}
    if kind == "fight":
        return gettext("Fight")
    if kind == "resign":
        return gettext("%(name)s resigns") % {"name": name}
    if kind == "set_hp":
        return gettext("%(name)s's HP set by hand") % {"name": name}
    return str(kind)
