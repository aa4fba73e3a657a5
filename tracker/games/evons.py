"""Evons pages: the catalog card form, the 7x7 board, and board forms turned into actions.

Evons is played open: a covered card is named only when it is revealed, so there is
no secret entry and the phone never holds anything one player must not see.
"""

from collections import Counter

from django import forms
from django.core.exceptions import ValidationError
from django.template.defaultfilters import floatformat
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from rules import InvalidCard
from rules.evons import ABILITIES, ELEMENTS
from rules.evons.abilities import candidates, storm_cells
from rules.evons.board import (
    ALL_CELLS,
    COLUMNS,
    DIRECTIONS,
    MAIN_ZONE,
    ROWS,
    arrow_line,
    arrow_order,
    in_main_zone,
)
from rules.evons.cards import NAME_MAX, STAT_MAX, validate_card
from rules.evons.pieces import find, scores
from rules.evons.sequence import abilities_left, pending_conflicts
from rules.evons.turns import HAND_LIMIT, to_reveal

from .common import card_stats  # noqa: F401  (part of the adapter)
from ..models import Card, Match
from ..services import applied_actions, head_action

SLUG = "evons"
BOARD_TEMPLATE = "games/evons/board.html"
ENTRY_TEMPLATE = "games/evons/entry.html"
NEW_MATCH_NOUN = _("game")

# Invented demo cards (the game's card list is not public), a few per element, and a Block card.
DEMO_CARDS = [
    {
        "name": name,
        "kind": "monster",
        "cost": cost,
        "element": element,
        "atk": atk,
        "def": def_,
        "arrows": arrows,
    }
    for name, cost, element, atk, def_, arrows in [
        ("Ember Fox", 3, "Fire", 4, 5, {"E": "Normal", "N": "Normal"}),
        ("Cinder Imp", 2, "Fire", 2, 3, {"E": "Normal", "S": "Normal", "W": "Normal"}),
        ("Pyre Drake", 6, "Fire", 5, 6, {"N": "Firestorm", "E": "Normal", "W": "Normal"}),
        ("Moss Golem", 3, "Nature", 3, 6, {"W": "Normal", "S": "Normal"}),
        ("Seed Keeper", 4, "Nature", 2, 4, {"N": "Growth", "E": "Normal"}),
        ("Boulder Ram", 4, "Earth", 3, 5, {"E": "Shockwave", "W": "Normal"}),
        ("Dust Mole", 2, "Earth", 1, 4, {"N": "Normal", "S": "Normal"}),
        ("Volt Eel", 4, "Electric", 2, 4, {"E": "Magnetism", "S": "Normal"}),
        ("Spark Wisp", 1, "Electric", 1, 2, {"NE": "Normal", "SW": "Normal"}),
        ("Grave Shade", 6, "Darkness", 2, 5, {"N": "Resurrection", "S": "Resurrection", "E": "Normal"}),
        ("Night Crow", 3, "Darkness", 3, 3, {"W": "Normal", "NW": "Normal"}),
        ("Tide Trickster", 4, "Water", 2, 4, {"E": "Swap", "W": "Normal"}),
        ("Reef Warden", 5, "Water", 3, 7, {"N": "Normal", "E": "Normal", "S": "Normal", "W": "Normal"}),
        ("Rift Eraser", 5, "Water", 2, 3, {"N": "Remove", "S": "Normal"}),
        ("Stone Mason", 2, "Earth", 1, 4, {"E": "Block", "W": "Normal"}),
    ]
] + [{"name": "Stone Wall", "kind": "block"}]

DIRECTION_NAMES = {
    "N": _("north"),
    "NE": _("north-east"),
    "E": _("east"),
    "SE": _("south-east"),
    "S": _("south"),
    "SW": _("south-west"),
    "W": _("west"),
    "NW": _("north-west"),
}
ARROW_GLYPHS = {"N": "↑", "NE": "↗", "E": "→", "SE": "↘", "S": "↓", "SW": "↙", "W": "←", "NW": "↖"}
# One letter per ability on the board (the legend spells them out); Normal arrows show the arrow alone.
ABILITY_SYMBOLS = {
    "Normal": "",
    "Remove": "X",
    "Block": "B",
    "Firestorm": "F",
    "Growth": "G",
    "Magnetism": "M",
    "Resurrection": "R",
    "Shockwave": "S",
    "Swap": "W",
}
ABILITY_NAMES = {ability: _(ability) for ability in ABILITIES}
# The compass as a 3x3 grid, for the direction picker and the arrows around a card.
COMPASS = [["NW", "N", "NE"], ["W", None, "E"], ["SW", "S", "SE"]]


# ------------------------------------------------------------------ catalog cards


class CardForm(forms.Form):
    """An Evons card for the catalog: a monster with its arrows, or a Block card."""

    name = forms.CharField(label=_("Name"), max_length=NAME_MAX)
    kind = forms.ChoiceField(
        label=_("Card type"),
        choices=[("monster", _("Monster")), ("block", _("Block card"))],
        initial="monster",
    )
    cost = forms.IntegerField(label=_("Cost (credits)"), min_value=0, max_value=STAT_MAX, required=False)
    element = forms.ChoiceField(
        label=_("Element"), choices=[("", "—")] + [(e, _(e)) for e in ELEMENTS], required=False
    )
    atk = forms.IntegerField(label=_("ATK"), min_value=0, max_value=STAT_MAX, required=False)
    def_ = forms.IntegerField(label=_("DEF"), min_value=1, max_value=STAT_MAX, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for direction in DIRECTIONS:
            self.fields[f"arrow_{direction}"] = forms.ChoiceField(
                label=_("Arrow %(direction)s") % {"direction": DIRECTION_NAMES[direction]},
                choices=[("", _("no arrow"))] + [(a, ABILITY_NAMES[a]) for a in ABILITIES],
                required=False,
            )

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        card = {"name": data["name"], "kind": data["kind"]}
        if data["kind"] == "monster":
            card.update(cost=data["cost"], element=data["element"] or None, atk=data["atk"], arrows={})
            card["def"] = data["def_"]
            card["arrows"] = {d: data[f"arrow_{d}"] for d in DIRECTIONS if data[f"arrow_{d}"]}
        try:
            return validate_card(card)
        except InvalidCard as error:
            raise forms.ValidationError(_(error.template) % error.params) from error



def card_initial(card: dict) -> dict:
    """A catalog card as CardForm data (the inverse of CardForm.clean), for CSV rows."""
    row = {"name": card["name"], "kind": card["kind"]}
    if card["kind"] == "monster":
        row.update(cost=card["cost"], element=card.get("element") or "", atk=card["atk"], def_=card["def"])
        row.update({f"arrow_{d}": ability for d, ability in card.get("arrows", {}).items()})
    return row


class ConfigForm(forms.Form):
    reach = forms.TypedChoiceField(
        label=_("How far an arrow reaches"),
        coerce=int,
        initial=1,
        widget=forms.RadioSelect,
        choices=[
            (1, _("1 cell: the next cell only")),
            (2, _("2 cells: abilities may target 2 cells away (the Magnetism example)")),
        ],
    )
    flip_covered = forms.TypedChoiceField(
        label=_("Do arrows flip covered cards?"),
        coerce=lambda v: v == "yes",
        initial="no",
        widget=forms.RadioSelect,
        choices=[
            ("no", _("No: only face-up monsters flip")),
            ("yes", _("Yes (never Growth or Block cards)")),
        ],
    )
    def_reset = forms.TypedChoiceField(
        label=_("Damage to DEF"),
        coerce=lambda v: v == "yes",
        initial="yes",
        widget=forms.RadioSelect,
        choices=[("yes", _("Heals at the end of each turn")), ("no", _("Stays for the rest of the game"))],
    )
    ties = forms.ChoiceField(
        label=_("A tied score"),
        initial="draw",
        widget=forms.RadioSelect,
        choices=[("draw", _("is a draw")), ("second-player", _("goes to the player who moved second"))],
    )
    starting_hand = forms.IntegerField(
        label=_("Cards in each opening hand"), min_value=0, max_value=20, initial=5
    )


# ------------------------------------------------------------------ no secret entry


class NoEntryForm(forms.Form):
    """Evons is played open: any secret entry sent here is refused."""

    def clean(self):
        raise ValidationError(_("Evons has nothing secret to enter: covered cards are named when revealed."))


def entry_form(match: Match, data=None, seat: int | None = None) -> NoEntryForm:
    return NoEntryForm(data)


def entry_action(form: NoEntryForm, seat: int) -> dict:
    raise ValidationError(_("Evons has nothing secret to enter: covered cards are named when revealed."))


def seats_to_enter(match: Match) -> list[int]:
    return []


# ------------------------------------------------------------------ board forms -> actions

ACTIONS = ("play", "reveal", "pass", "next", "conflict", "ability", "adjust", "set_def", "end_game")


def _whole(post, field: str, label: str, low: int, high: int) -> int:
    raw = post.get(field)
    try:
        value = int((raw or "").strip())
    except (ValueError, AttributeError):
        raise ValidationError(_("%(label)s must be a whole number.") % {"label": label}) from None
    if not low <= value <= high:
        raise ValidationError(
            _("%(label)s must be from %(low)s to %(high)s.") % {"label": label, "low": low, "high": high}
        )
    return value


def _cell(post, field: str = "cell") -> str:
    value = (post.get(field) or "").strip().upper()
    if value not in ALL_CELLS:
        raise ValidationError(_("Choose a cell of the board, like B3 (columns X, A-E, Y; rows 0-6)."))
    return value


def _entered_card(post) -> dict:
    """The card named in the form: from the catalog, or with the stats typed in on the spot."""
    name = " ".join((post.get("card_name") or "").split())
    if not name or len(name) > NAME_MAX:
        raise ValidationError(_("Name the card (1 to %(most)s characters).") % {"most": NAME_MAX})
    kind = post.get("new_kind", "")
    if not kind and any((post.get(f"new_{stat}") or "").strip() for stat in ("cost", "atk", "def")):
        kind = "monster"  # stats typed in without picking the type: a monster is meant
    if not kind:
        card = None if "\x00" in name else Card.objects.filter(slug=SLUG, name__iexact=name).first()
        if card is None:
            raise ValidationError(
                _("No card called “%(name)s” in the catalog: open “Not in the catalog?” and enter its stats.")
                % {"name": name}
            )
        return card.as_rules_card()
    if kind == "block":
        return {"name": name, "kind": "block"}
    if kind != "monster":
        raise ValidationError(_("A card is a monster or a Block card."))
    return {
        "name": name,
        "kind": "monster",
        "cost": _whole(post, "new_cost", gettext("Cost"), 0, STAT_MAX),
        "element": post.get("new_element", ""),
        "atk": _whole(post, "new_atk", gettext("ATK"), 0, STAT_MAX),
        "def": _whole(post, "new_def", gettext("DEF"), 1, STAT_MAX),
        "arrows": {d: post.get(f"new_arrow_{d}") for d in DIRECTIONS if post.get(f"new_arrow_{d}")},
    }


def _ability_action(match: Match, post) -> dict:
    """An ability use: the arrow, its chosen target (and what the target needs: a pull, a revive, damage)."""
    arrow = post.get("arrow", "")
    if arrow not in DIRECTIONS:
        raise ValidationError(_("Choose an arrow of the active card."))
    choice = post.get("choice", "")
    parts = choice.split(":")
    if len(parts) != 3 or parts[0] not in ALL_CELLS:
        raise ValidationError(_("Choose what the ability does."))
    target, extra, value = parts
    action = {"type": "ability", "arrow": arrow, "target": target}
    if extra == "pull_from":
        action["pull_from"] = value
    elif extra == "grave":
        if value == "unknown":
            action["grave"] = "unknown"
            action["card"] = _entered_card(post)
        elif value.isdigit() and len(value) < 4:
            action["grave"] = int(value)
        else:
            raise ValidationError(_("Choose a card from the graveyard."))
    elif extra == "storm":
        damage = {}
        for cell in ALL_CELLS:
            if (post.get(f"damage_{cell}") or "").strip():
                amount = _whole(
                    post, f"damage_{cell}", gettext("Damage on %(cell)s") % {"cell": cell}, 0, STAT_MAX
                )
                if amount:
                    damage[cell] = amount
        action["damage"] = damage
    elif extra:
        raise ValidationError(_("Choose what the ability does."))
    return action


def table_action(match: Match, post) -> dict:
    """The open action a board form asks for; the engine decides whether it is legal."""
    kind = post.get("action", "")
    if kind not in ACTIONS:
        raise ValidationError(_("Evons has no action “%(kind)s”.") % {"kind": str(kind)[:40]})
    if kind == "adjust":
        action = {
            "type": "adjust",
            "override": True,
            "seat": _whole(post, "seat", gettext("The player"), 0, 1),
        }
        for counter, label in (
            ("credits", gettext("Credits")),
            ("hand", gettext("Hand")),
            ("deck", gettext("Deck")),
        ):
            if (post.get(counter) or "").strip():
                action[counter] = _whole(post, counter, label, 0, 999)
        return action
    if kind == "set_def":
        return {
            "type": "adjust",
            "override": True,
            "cell": _cell(post),
            "def": _whole(post, "def", gettext("DEF"), 1, STAT_MAX),
        }
    if kind == "end_game":
        return {"type": "end_game", "override": True}
    action = {"type": kind, "seat": _whole(post, "seat", gettext("The player"), 0, 1)}
    if kind == "play":
        face = post.get("face", "")
        if face not in ("up", "covered"):
            raise ValidationError(_("Play the card face-up or covered."))
        action.update(cell=_cell(post), covered=face == "covered")
        if face == "up":
            action["card"] = _entered_card(post)
    elif kind == "reveal":
        action.update(cell=_cell(post), card=_entered_card(post))
    elif kind == "conflict":
        action["target"] = _cell(post, "target")
    elif kind == "ability":
        action.update(_ability_action(match, post))
    return action


# ------------------------------------------------------------------ the board as the page shows it


def _card_text(card: dict | None) -> str:
    if card is None:
        return gettext("covered card")
    if card["kind"] == "block":
        return gettext("%(name)s (Block card)") % {"name": card["name"]}
    return gettext("%(name)s, %(element)s, cost %(cost)s, ATK %(atk)s, DEF %(def)s") % {
        "name": card["name"],
        "element": gettext(card["element"]),
        "cost": card["cost"],
        "atk": card["atk"],
        "def": card["def"],
    }


def _arrows(card: dict | None) -> list[dict]:
    if not card or card["kind"] != "monster":
        return []
    return [
        {
            "direction": d,
            "glyph": ARROW_GLYPHS[d],
            "symbol": ABILITY_SYMBOLS[a],
            "ability": a,
            "text": gettext("%(direction)s %(ability)s")
            % {"direction": DIRECTION_NAMES[d], "ability": ABILITY_NAMES[a]},
        }
        for d, a in ((d, card["arrows"][d]) for d in arrow_order(card["arrows"]))
    ]


def _piece_view(state: dict, cell: str, names: list[str]) -> dict:
    piece = state["cells"][cell]
    card = piece["card"]
    shown = {
        "cell": cell,
        "owner": piece["owner"],
        "owner_name": names[piece["owner"]],
        "initial": names[piece["owner"]][:1].upper(),
        "covered": piece["covered"],
        "growth": piece["growth"],
        "block": bool(card and card["kind"] == "block"),
        "card": card,
        "arrows": _arrows(card),
        "name": card["name"] if card else "",
    }
    if card and card["kind"] == "monster":
        shown["def_now"] = max(0, card["def"] - piece["damage"])
        shown["damaged"] = piece["damage"] > 0
    if piece["covered"]:
        state_text = gettext("covered, placed by Growth") if piece["growth"] else gettext("covered")
    else:
        state_text = gettext("active")
    if card and card["kind"] == "monster" and not piece["covered"]:
        stats = gettext("ATK %(atk)s, DEF %(now)s of %(full)s") % {
            "atk": card["atk"],
            "now": shown["def_now"],
            "full": card["def"],
        }
    else:
        stats = ""
    arrows = ", ".join(a["text"] for a in shown["arrows"])
    shown["description"] = "; ".join(
        part
        for part in (
            gettext("%(cell)s: %(card)s")
            % {"cell": cell, "card": card["name"] if card else gettext("covered card")},
            gettext("faces %(name)s") % {"name": names[piece["owner"]]},
            state_text,
            stats,
            gettext("arrows: %(arrows)s") % {"arrows": arrows} if arrows else "",
        )
        if part
    )
    return shown


def _ability_choices(state: dict, names: list[str]) -> list[dict]:
    """Per unused ability arrow of the active card: what it can do now, as form options."""
    entry = state["stack"][-1]
    cell = find(state, entry["id"])
    piece = state["cells"][cell]
    graveyard = state["players"][state["seat"]]["graveyard"]
    options = candidates(state)
    arrows = []
    for direction in abilities_left(piece, entry):
        ability = piece["card"]["arrows"][direction]
        choices = []
        for option in (o for o in options if o["arrow"] == direction):
            target = option["target"]
            if "pull_from" in option:
                value, text = (
                    f"{target}:pull_from:{option['pull_from']}",
                    gettext("pull the card on %(source)s onto %(target)s")
                    % {"source": option["pull_from"], "target": target},
                )
            elif "grave" in option:
                if option["grave"] == "unknown":
                    text = gettext("revive a card named below onto %(target)s") % {"target": target}
                else:
                    card = graveyard[option["grave"]]
                    text = gettext("revive %(name)s (cost %(cost)s) onto %(target)s") % {
                        "name": card["name"],
                        "cost": card["cost"],
                        "target": target,
                    }
                value = f"{target}:grave:{option['grave']}"
            elif ability == "Firestorm":
                storm = ", ".join(storm_cells(state, cell, target))
                value, text = (
                    f"{target}:storm:",
                    gettext("storm on %(target)s (hits %(cells)s)") % {"target": target, "cells": storm},
                )
            else:
                what = state["cells"].get(target)
                value, text = (
                    f"{target}::",
                    gettext("%(target)s (%(what)s)")
                    % {"target": target, "what": _card_text(what["card"]) if what else gettext("empty")},
                )
            choices.append({"value": value, "text": text})
        storm = []
        if ability == "Firestorm":
            reach = state["config"]["reach"]
            hit = {c for t in arrow_line(cell, direction, reach) for c in storm_cells(state, cell, t)}
            storm = [c for c in ALL_CELLS if c in hit]
        arrows.append(
            {
                "direction": direction,
                "direction_name": DIRECTION_NAMES[direction],
                "glyph": ARROW_GLYPHS[direction],
                "ability": ability,
                "ability_name": ABILITY_NAMES[ability],
                "choices": choices,
                "needs_card": any(c["value"].endswith(":grave:unknown") for c in choices),
                "storm": storm,
                "budget": piece["card"]["def"] - piece["damage"],
            }
        )
    return arrows


def _conflict_previews(state: dict, names: list[str]) -> list[dict]:
    entry = state["stack"][-1]
    cell = find(state, entry["id"])
    mine = state["cells"][cell]
    previews = []
    for target in pending_conflicts(state):
        theirs = state["cells"][target]
        before = [mine["card"]["def"] - mine["damage"], theirs["card"]["def"] - theirs["damage"]]
        after = [max(0, before[0] - theirs["card"]["atk"]), max(0, before[1] - mine["card"]["atk"])]
        previews.append(
            {
                "target": target,
                "name": theirs["card"]["name"],
                "owner": names[theirs["owner"]],
                "atk": theirs["card"]["atk"],
                "def": before[1],
                "working": gettext("%(a)s %(a0)s → %(a1)s, %(b)s %(b0)s → %(b1)s")
                % {
                    "a": mine["card"]["name"],
                    "a0": before[0],
                    "a1": after[0],
                    "b": theirs["card"]["name"],
                    "b0": before[1],
                    "b1": after[1],
                },
            }
        )
    return previews


PHASE_TITLES = {
    "ability1": _("Ability Phase 1"),
    "conflicts": _("Conflicts"),
    "ability2": _("Ability Phase 2"),
}


def board(match: Match) -> dict:
    """The board, the players' counters, and the choices open now."""
    state = match.state
    players = match.players()
    names = [p.name for p in players]
    points = scores(state)
    grid = []
    for row in ROWS:
        cells = []
        for column in COLUMNS:
            cell = f"{column}{row}"
            cells.append(
                {
                    "name": cell,
                    "main": in_main_zone(cell),
                    "piece": _piece_view(state, cell, names) if cell in state["cells"] else None,
                }
            )
        grid.append({"row": row, "cells": cells})
    stack = []
    for depth, entry in enumerate(state["stack"], start=1):
        cell = find(state, entry["id"])
        stack.append(
            {
                "depth": depth,
                "cell": cell,
                "name": state["cells"][cell]["card"]["name"] if cell else "",
                "phase": PHASE_TITLES[entry["phase"]],
                "reason": entry["reason"],
            }
        )
    active = stack[-1] if stack else None
    if active:
        for row in grid:
            for shown in row["cells"]:
                shown["active"] = shown["name"] == active["cell"]
    seat = state["seat"]
    phase = state["stack"][-1]["phase"] if state["stack"] else None
    empty = [c for c in ALL_CELLS if c not in state["cells"]]
    last = head_action(match)
    return {
        "columns": COLUMNS,
        "grid": grid,
        "cards": [row_cell["piece"] for row in grid for row_cell in row["cells"] if row_cell["piece"]],
        "seats": [
            {
                "player": player,
                "seat": number,
                "score": points[number],
                "turn": number == seat and not state["over"],
                "credits": info["credits"],
                "hand": info["hand"],
                "deck": info["deck"],
                "graveyard": len(info["graveyard"]) + info["graveyard_unknown"],
                "graveyard_names": [c["name"] for c in info["graveyard"]],
                "graveyard_unknown": info["graveyard_unknown"],
                "removed": len(info["removed"]) + info["removed_unknown"],
            }
            for number, (player, info) in enumerate(zip(players, state["players"]))
        ],
        "seat": seat,
        "turn_name": names[seat],
        "turn": state["turn"],
        "over": state["over"],
        "step": "over" if state["over"] else ("sequence" if stack else state["step"]),
        "stack": stack,
        "active": active,
        "phase": phase,
        "abilities": _ability_choices(state, names) if phase in ("ability1", "ability2") else [],
        "conflicts": _conflict_previews(state, names) if phase == "conflicts" else [],
        "to_reveal": to_reveal(state) if not stack else [],
        "empty_main": [c for c in empty if c in MAIN_ZONE],
        "empty_out": [c for c in empty if c not in MAIN_ZONE],
        "hand_limit": HAND_LIMIT,
        "compass": [
            [
                {"direction": d, "glyph": ARROW_GLYPHS[d], "name": DIRECTION_NAMES[d]} if d else None
                for d in row
            ]
            for row in COMPASS
        ],
        "direction_names": DIRECTION_NAMES,
        "abilities_all": [(a, ABILITY_NAMES[a], ABILITY_SYMBOLS[a]) for a in ABILITIES],
        "elements": ELEMENTS,
        "catalog": Card.objects.filter(slug=SLUG),
        "occupied_monsters": [
            c
            for c in ALL_CELLS
            if c in state["cells"]
            and not state["cells"][c]["covered"]
            and state["cells"][c]["card"]["kind"] == "monster"
        ],
        "last_lines": [line for line in (describe(e, names) for e in last.events) if line] if last else [],
        "last_title": describe_action(last.payload, last.events, names) if last else "",
        "config": state["config"],
        "card_form": CardForm(prefix="new"),
    }


CARDS_PLAYED_FROM_LOG = True  # cards_played reads the log: tracker.stats prefetches it for many matches


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


# ------------------------------------------------------------------ the log


REASONS = {
    "played": _("played"),
    "revealed": _("revealed"),
    "moved": _("moved: reactivates"),
    "moved-and-flipped": _("moved and flipped: reactivates"),
    "revived": _("revived"),
}
WHY = {
    "conflict": _("in a conflict"),
    "Shockwave": _("by a Shockwave landing"),
    "Block": _("by a Block arrow"),
    "Remove": _("by Remove"),
    "Firestorm": _("by Firestorm"),
    "unpaid": _("its cost could not be paid"),
}
ENDINGS = {
    "board-full": _("All 25 main-zone cells are full: the game ends at once."),
    "passes": _("Both players passed in a row: the game ends."),
    "agreed": _("The table ended the game."),
}


def describe(event: dict, names: list[str]) -> str:
    """One log line, with its working, for an engine event ("" for bookkeeping events)."""
    e = event
    match e["type"]:
        case "turn_started":
            return gettext("Turn %(turn)s: %(name)s +%(gained)s credits (now %(credits)s), %(drew)s.") % {
                "turn": e["turn"],
                "name": names[e["seat"]],
                "gained": e["gained"],
                "credits": e["credits"],
                "drew": gettext("draws 1") if e["drew"] else gettext("no card left to draw"),
            }
        case "played":
            if e["covered"]:
                return gettext("%(name)s plays a covered card on %(cell)s (paid when revealed).") % {
                    "name": names[e["seat"]],
                    "cell": e["cell"],
                }
            return gettext(
                "%(name)s plays %(card)s face-up on %(cell)s, pays %(cost)s (%(credits)s left)."
            ) % {
                "name": names[e["seat"]],
                "card": e["name"],
                "cell": e["cell"],
                "cost": e["cost"],
                "credits": e["credits"],
            }
        case "revealed":
            return gettext("%(cell)s revealed: %(name)s, pays %(cost)s (%(credits)s left).") % e
        case "unpaid":
            return (
                gettext("%(cell)s revealed: %(name)s costs %(cost)s but only %(credits)s credits are left.")
                % e
            )
        case "activation":
            return gettext("%(cell)s %(name)s activates (%(reason)s), chain depth %(depth)s.") % {
                **e,
                "reason": REASONS.get(e["reason"], e["reason"]),
            }
        case "ability":
            return gettext("%(cell)s %(name)s uses %(ability)s (%(arrow)s arrow) on %(target)s.") % {
                **e,
                "ability": gettext(e["ability"]),
            }
        case "conflict":
            return gettext(
                "%(c0)s %(n0)s %(a0)s/%(b0)s vs %(c1)s %(n1)s %(a1)s/%(b1)s at once: "
                "%(n0)s %(b0)s -> %(d0)s, %(n1)s %(b1)s -> %(d1)s"
            ) % {
                "c0": e["cells"][0],
                "c1": e["cells"][1],
                "n0": e["names"][0],
                "n1": e["names"][1],
                "a0": e["atk"][0],
                "a1": e["atk"][1],
                "b0": e["before"][0],
                "b1": e["before"][1],
                "d0": e["after"][0],
                "d1": e["after"][1],
            }
        case "destroyed":
            return gettext("%(cell)s %(card)s is destroyed %(why)s: to %(name)s's graveyard.") % {
                "cell": e["cell"],
                "card": e["name"],
                "why": WHY.get(e["why"], e["why"]),
                "name": names[e["seat"]],
            }
        case "removed":
            return gettext("%(cell)s %(card)s is pushed off the board: removed from the game.") % {
                "cell": e["cell"],
                "card": e["name"],
            }
        case "flipped":
            return gettext("%(cell)s flipped to %(name)s.") % {"cell": e["cell"], "name": names[e["seat"]]}
        case "moved":
            return gettext("%(name)s moves %(from)s -> %(to)s.") % e
        case "swapped":
            return gettext("%(n0)s and %(n1)s swap: %(c0)s <-> %(c1)s.") % {
                "n0": e["names"][0],
                "n1": e["names"][1],
                "c0": e["cells"][0],
                "c1": e["cells"][1],
            }
        case "placed":
            what = gettext("a covered card (Growth)") if e["how"] == "growth" else gettext("a Block card")
            return gettext("%(name)s puts %(what)s on %(cell)s.") % {
                "name": names[e["seat"]],
                "what": what,
                "cell": e["cell"],
            }
        case "revived":
            return (
                gettext(
                    "%(name)s (cost %(cost)s) is revived onto %(cell)s; %(budget_left)s cost left to revive."
                )
                % e
            )
        case "burned":
            if "after" in e:
                return (
                    gettext("Firestorm: %(cell)s %(name)s takes %(amount)s, DEF %(before)s -> %(after)s.") % e
                )
            return gettext("Firestorm: %(cell)s %(name)s takes %(amount)s.") % e
        case "sequence_ended":
            if e["why"] == "destroyed":
                return gettext("%(cell)s %(name)s was destroyed: its sequence ends.") % e
            return ""
        case "phase_done":
            return ""
        case "passed":
            return gettext("%(name)s passes.") % {"name": names[e["seat"]]}
        case "discarded":
            return gettext("%(name)s discards %(count)s down to 8 cards.") % {
                "name": names[e["seat"]],
                "count": e["count"],
            }
        case "score":
            return gettext("Score: %(a)s %(sa)s, %(b)s %(sb)s.") % {
                "a": names[0],
                "sa": e["scores"][0],
                "b": names[1],
                "sb": e["scores"][1],
            }
        case "turn_ended":
            return ""
        case "adjusted":
            changes = ", ".join(f"{key} {value}" for key, value in e["changes"].items())
            who = e["cell"] if "cell" in e else names[e["seat"]]
            return gettext("Adjusted %(who)s: %(changes)s.") % {"who": who, "changes": changes}
        case "game_over":
            return gettext("%(ending)s Final score: %(a)s %(sa)s, %(b)s %(sb)s.") % {
                "ending": ENDINGS[e["reason"]],
                "a": names[0],
                "sa": e["scores"][0],
                "b": names[1],
                "sb": e["scores"][1],
            }
    return e["type"]


def describe_action(action: dict, events: list[dict], names: list[str]) -> str:
    """What a player did, as the log's title for the step."""
    who = names[action["seat"]] if isinstance(action.get("seat"), int) and 0 <= action["seat"] < 2 else ""
    match action.get("type"):
        case "play":
            if action.get("covered"):
                return gettext("%(name)s plays a covered card on %(cell)s") % {
                    "name": who,
                    "cell": action["cell"],
                }
            return gettext("%(name)s plays %(card)s on %(cell)s") % {
                "name": who,
                "card": action["card"]["name"],
                "cell": action["cell"],
            }
        case "reveal":
            return gettext("%(name)s reveals %(cell)s: %(card)s") % {
                "name": who,
                "cell": action["cell"],
                "card": action["card"]["name"],
            }
        case "pass":
            return gettext("%(name)s passes") % {"name": who}
        case "next":
            return gettext("%(name)s ends an Ability Phase") % {"name": who}
        case "conflict":
            return gettext("%(name)s resolves the conflict with %(cell)s") % {
                "name": who,
                "cell": action["target"],
            }
        case "ability":
            return gettext("%(name)s uses the %(arrow)s arrow on %(cell)s") % {
                "name": who,
                "arrow": action["arrow"],
                "cell": action["target"],
            }
        case "adjust":
            return gettext("Manual adjustment")
        case "end_game":
            return gettext("The table ends the game")
    return str(action.get("type", ""))


# ------------------------------------------------------------------ statistics

ENDED_BY = {
    "board-full": _("The main zone filled up"),
    "passes": _("Both players passed"),
    "agreed": _("The table ended it"),
}


def figures(matches) -> list[tuple[str, list[tuple[str, str | int]]]]:
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
            str(_("Average final score")),
            [
                (
                    name,
                    ngettext(
                        "%(average)s over %(games)s game", "%(average)s over %(games)s games", len(points)
                    )
                    % {"average": floatformat(sum(points) / len(points), 1), "games": len(points)},
                )
                for name, points in by_average
            ],
        ),
        (str(_("Best final score")), [(name, max(points)) for name, points in by_best]),
        (str(_("How games ended")), endings.most_common()),
    ]


def progress(match: Match) -> tuple[str, dict[str, list[int]]]:
    """Each player's score at the start and at the end of every turn, for the match's chart.

    The engine scores the board at every turn's end and when the game ends (which may be
    in mid-turn, when the main zone fills), so the stored events hold every point.
    """
    names = [player.name for player in match.players()]
    series = {name: [0] for name in names}  # the board starts empty
    for action in applied_actions([match])[match.pk]:
        for event in action.events:
            if event["type"] in ("score", "game_over"):
                for name, points in zip(names, event["scores"]):
                    series[name].append(points)
    return str(_("Score at the end of each turn")), series
