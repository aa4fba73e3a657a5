"""What the Evons board shows: the 7x7 grid, each player's counters, the chain, and the choices open now.

Every card is drawn with its arrows where they point now (its facing, rules/evons/board.py). During
a play step each empty cell the engine would take a card on is a radio button of the play form: a
cell is picked by tapping it on the board. After a refusal the form that was sent comes back bound
(tracker/games/board_forms.py), with what the player had typed and picked.
"""

from collections.abc import Mapping

from django.utils.translation import pgettext, pgettext_lazy

from rules.evons import ABILITIES, ELEMENTS
from rules.evons.abilities import candidates, storm_budget, storm_cells, storm_reach
from rules.evons.board import ALL_CELLS, COLUMNS, ROWS, arrow_order, in_main_zone
from rules.evons.cards import NAME_MAX, STAT_MAX
from rules.evons.pieces import arrows_now, cell_of, current_def, find, is_monster, scores
from rules.evons.sequence import abilities_left, conflict_preview, pending_conflicts
from rules.evons.state import GameState
from rules.evons.turns import COUNT_MAX, to_reveal
from tracker.matches.club_cards import match_card
from tracker.matches.engine_messages import engine_word
from tracker.matches.services import head_action

from ...models import Match
from ..board_forms import BoardActionForm, refused_as
from ..common import refusal
from .forms import ABILITY_NAMES, CARD_ENTRY_FIELDS, DIRECTION_NAMES, card_entry
from .narration import describe, describe_action

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
# The compass as a 3x3 grid, for the direction picker and the arrows around a card.
COMPASS: list[list[str | None]] = [["NW", "N", "NE"], ["W", None, "E"], ["SW", "S", "SE"]]


# Events that change what a cell holds or shows (a card placed, revealed, hurt, flipped, moved or gone): the
# board marks their cells after the step. Bookkeeping (activations, phases, turns) changes no cell.
CHANGING_EVENTS = frozenset({"played", "revealed", "unpaid", "placed", "revived", "destroyed", "removed", "flipped",
                             "burned", "moved", "swapped", "conflict", "adjusted"})


def changed_cells(events: list[dict]) -> set[str]:
    """The cells the step with these events changed."""
    cells: set[str] = set()
    for event in events:
        if event["type"] in CHANGING_EVENTS:
            cells.update(event[key] for key in ("cell", "from", "to") if key in event)
            cells.update(event.get("cells", ()))
    return cells


SHORT_NAME = 7
"""Characters of a card's name a board cell has room for (about 47 pixels wide on a 360-pixel phone)."""


def short_name(name: str, most: int = SHORT_NAME) -> str:
    """A card's name cut to fit a board cell, still telling cards apart: "Ember Fox" -> "Ember F",
    "Boulder Ram" -> "Boul. R", "Thunderclap" -> "Thunde.". The full name is in the cell's label."""
    if len(name) <= most:
        return name
    first, *rest = name.split()
    tail = " " + "".join(word[0] for word in rest) if rest else ""
    room = most - len(tail)
    if room < 2:  # many words: their initials alone
        return "".join(word[0] for word in name.split())[:most]
    return (first if len(first) <= room else first[: room - 1] + ".") + tail


def _card_text(card: dict | None) -> str:
    if card is None:
        return pgettext("evons", "covered card")
    if card["kind"] == "block":
        return pgettext("evons", "%(name)s (Block card)") % {"name": card["name"]}
    return pgettext("evons", "%(name)s, %(element)s, cost %(cost)s, ATK %(atk)s, DEF %(def)s") % {
        "name": card["name"],
        "element": engine_word("evons", card["element"]),
        "cost": card["cost"],
        "atk": card["atk"],
        "def": card["def"],
    }


def _arrows(state: GameState, piece: dict) -> list[dict]:
    """A face-up monster's arrows as they point on the board now (with its facing)."""
    if not is_monster(piece):
        return []
    arrows = arrows_now(state, piece)
    return [
        {
            "direction": d,
            "glyph": ARROW_GLYPHS[d],
            "symbol": ABILITY_SYMBOLS[a],
            "ability": a,
            "text": pgettext("evons", "%(direction)s %(ability)s")
            % {"direction": DIRECTION_NAMES[d], "ability": ABILITY_NAMES[a]},
        }
        for d, a in ((d, arrows[d]) for d in arrow_order(arrows))
    ]


def _piece_view(state: GameState, cell: str, names: list[str]) -> dict:
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
        "arrows": _arrows(state, piece),
        "name": card["name"] if card else "",
        "short": short_name(card["name"]) if card else "",
    }
    if is_monster(piece):
        shown["def_now"] = current_def(piece)
        shown["damaged"] = current_def(piece) < card["def"]
    if piece["covered"]:
        state_text = pgettext("evons", "covered, placed by Growth") if piece["growth"] else pgettext("evons", "covered")
    else:
        state_text = pgettext("evons", "active")
    if is_monster(piece):
        stats = pgettext("evons", "ATK %(atk)s, DEF %(now)s of %(full)s") % {
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
            pgettext("evons", "%(cell)s: %(card)s")
            % {"cell": cell, "card": card["name"] if card else pgettext("evons", "covered card")},
            pgettext("evons", "faces %(name)s") % {"name": names[piece["owner"]]},
            state_text,
            stats,
            pgettext("evons", "arrows: %(arrows)s") % {"arrows": arrows} if arrows else "",
        )
        if part
    )
    return shown


def _entry(values, match: Match) -> dict:
    """A card entry with `values` kept, and its direction picker laid out as a compass. A name refused as not in
    the catalog opens the fold with the stats: they are what the player must give next."""
    entry = card_entry(values)
    name = entry["name"]
    if name and not entry["open"] and (len(name) > NAME_MAX or match_card(match, name) is None):
        entry["open"] = True
    entry["compass"] = [
        [
            {"direction": d, "glyph": ARROW_GLYPHS[d], "name": DIRECTION_NAMES[d], "chosen": entry["arrows"][d]}
            if d
            else None
            for d in compass_row
        ]
        for compass_row in COMPASS
    ]
    return entry


def _ability_choices(match: Match, state: GameState, names: list[str], refused: BoardActionForm | None) -> list[dict]:
    """Per unused ability arrow of the active card: what it can do now, as form options."""
    entry = state["stack"][-1]
    cell = cell_of(state, entry["id"])
    piece = state["cells"][cell]
    graveyard = state["players"][state["seat"]]["graveyard"]
    options = candidates(state)
    pointing = arrows_now(state, piece)
    arrows = []
    for direction in abilities_left(state, piece, entry):
        ability = pointing[direction]
        values = _sent(refused, "ability", arrow=direction)
        # Firestorm spreads the active card's DEF over the cards it can reach: one card takes it all, so the
        # split is filled in (and stays editable) rather than left for the player to type.
        reach = storm_reach(state, cell, direction) if ability == "Firestorm" else []
        budget = storm_budget(state, cell)
        choices = []
        for option in (o for o in options if o["arrow"] == direction):
            target = option["target"]
            if "pull_from" in option:
                value, text = (
                    f"{target}:pull_from:{option['pull_from']}",
                    pgettext("evons", "pull the card on %(source)s onto %(target)s")
                    % {"source": option["pull_from"], "target": target},
                )
            elif "grave" in option:
                if option["grave"] == "unknown":
                    text = pgettext("evons", "revive a card named below onto %(target)s") % {"target": target}
                else:
                    card = graveyard[option["grave"]]
                    text = pgettext("evons", "revive %(name)s (cost %(cost)s) onto %(target)s") % {
                        "name": card["name"],
                        "cost": card["cost"],
                        "target": target,
                    }
                value = f"{target}:grave:{option['grave']}"
            elif ability == "Firestorm":
                storm = ", ".join(storm_cells(state, cell, target))
                value, text = (
                    f"{target}:storm:",
                    pgettext("evons", "storm on %(target)s (hits %(cells)s)") % {"target": target, "cells": storm},
                )
            else:
                what = state["cells"].get(target)
                value, text = (
                    f"{target}::",
                    pgettext("evons", "%(target)s (%(what)s)")
                    % {"target": target, "what": _card_text(what["card"]) if what else pgettext("evons", "empty")},
                )
            choices.append({"value": value, "text": text})
        arrows.append(
            {
                "direction": direction,
                "direction_name": DIRECTION_NAMES[direction],
                "glyph": ARROW_GLYPHS[direction],
                "ability": ability,
                "ability_name": ABILITY_NAMES[ability],
                "choices": choices,
                "needs_card": any(c["value"].endswith(":grave:unknown") for c in choices),
                "storm": [
                    {"cell": hit, "value": values.get(f"damage_{hit}", str(budget) if len(reach) == 1 else "")}
                    for hit in reach
                ],
                "budget": budget,
                "chosen": values.get("choice", ""),
                "entry": _entry(values, match),
                "refused": refused_as(refused, "ability", arrow=direction),
            }
        )
    return arrows


def _conflict_previews(state: GameState, names: list[str], refused: BoardActionForm | None) -> list[dict]:
    """Each conflict waiting to be fought, with its working as the engine would apply it."""
    previews = []
    for target in pending_conflicts(state):
        conflict = conflict_preview(state, target)
        previews.append(
            {
                "target": target,
                "refused": refused_as(refused, "conflict", target=target),
                "name": conflict["names"][1],
                "owner": names[conflict["seats"][1]],
                "atk": conflict["atk"][1],
                "def": conflict["before"][1],
                "working": pgettext("evons", "%(a)s %(a0)s → %(a1)s, %(b)s %(b0)s → %(b1)s")
                % {
                    "a": conflict["names"][0],
                    "a0": conflict["before"][0],
                    "a1": conflict["after"][0],
                    "b": conflict["names"][1],
                    "b0": conflict["before"][1],
                    "b1": conflict["after"][1],
                },
            }
        )
    return previews


PHASE_TITLES = {
    "ability1": pgettext_lazy("evons", "Ability Phase 1"),
    "conflicts": pgettext_lazy("evons", "Conflicts"),
    "ability2": pgettext_lazy("evons", "Ability Phase 2"),
}


def _sent(refused: BoardActionForm | None, name: str, **keys: str) -> Mapping[str, str]:
    """What the page's refused board form had sent, if it is this form (`name`, and `keys` as sent): that
    form is drawn filled in again. Nothing for any other form."""
    drawn = refused_as(refused, name, **keys)
    return drawn.form.data if drawn.form is not None else {}


def lands(match: Match) -> str:
    """Where the page opens after a change sent without JavaScript: the form its next step starts with, the board
    in it for a play (without it the page opened at its top, the board and its buttons a screen below): the play,
    Pass alone when there is nothing to play, or the reveals and the sequence's choices; the top once it is over."""
    state = match.state
    if state["over"]:
        return ""
    if state["stack"] or state["step"] != "play":
        return "#ev-act"
    playable = any(action["type"] == "play" for action in match.game.legal_actions(state))
    return "#ev-play" if playable else "#ev-pass"


def board(match: Match, refused: BoardActionForm | None = None) -> dict:
    """The board, the players' counters, and the choices open now.

    `refused` is a board form just refused, bound: that form is drawn filled in again, with why.
    """
    state = match.state
    players = match.players()
    names = [p.name for p in players]
    points = scores(state)
    seat = state["seat"]
    legal = match.game.legal_actions(state)
    playable = {action["cell"] for action in legal if action["type"] == "play" and action["covered"]}
    play = _sent(refused, "play")
    last = head_action(match)
    changed = changed_cells(last.events) if last else set()
    grid: list[dict] = []
    for row_name in ROWS:
        cells = []
        for column in COLUMNS:
            name = f"{column}{row_name}"
            cells.append(
                {
                    "name": name,
                    "main": in_main_zone(name),
                    "piece": _piece_view(state, name, names) if name in state["cells"] else None,
                    "playable": name in playable,
                    "picked": name == play.get("cell"),
                    "changed": name in changed,
                }
            )
        grid.append({"row": row_name, "cells": cells})
    stack = []
    for depth, entry in enumerate(state["stack"], start=1):
        where = find(state, entry["id"])
        stack.append(
            {
                "depth": depth,
                "cell": where,
                "name": state["cells"][where]["card"]["name"] if where else "",
                "phase": PHASE_TITLES[entry["phase"]],
                "reason": entry["reason"],
            }
        )
    active = stack[-1] if stack else None
    if active:
        for row in grid:
            for shown in row["cells"]:
                shown["active"] = shown["name"] == active["cell"]
    phase = state["stack"][-1]["phase"] if state["stack"] else None
    adjust, set_def = _sent(refused, "adjust"), _sent(refused, "set_def")
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
            for number, (player, info) in enumerate(zip(players, state["players"], strict=True))
        ],
        "seat": seat,
        "turn_name": names[seat],
        "turn": state["turn"],
        "over": state["over"],
        "step": "over" if state["over"] else ("sequence" if stack else state["step"]),
        "stack": stack,
        "active": active,
        "phase": phase,
        "abilities": _ability_choices(match, state, names, refused) if phase in ("ability1", "ability2") else [],
        "conflicts": _conflict_previews(state, names, refused) if phase == "conflicts" else [],
        "next_refused": refused_as(refused, "next"),
        "to_reveal": [
            {"cell": cell, "entry": _entry(_sent(refused, "reveal", cell=cell), match),
             "refused": refused_as(refused, "reveal", cell=cell)}
            for cell in (to_reveal(state) if not stack else [])
        ],
        "playable": bool(playable),
        "play": {"face": play.get("face", "up"), "entry": _entry(play, match), "refused": refused_as(refused, "play")},
        "pass_refused": refused_as(refused, "pass"),
        # Nowhere to play (an empty hand): the engine's own reason, tried on the first empty cell.
        "play_refused": "" if playable or state["step"] != "play" or stack else refusal(match, {
            "type": "play", "seat": seat, "covered": True,
            "cell": next((c for c in ALL_CELLS if c not in state["cells"]), "")}),
        "passable": any(action["type"] == "pass" for action in legal),
        "abilities_all": [(a, ABILITY_NAMES[a], ABILITY_SYMBOLS[a]) for a in ABILITIES],
        "card_entry_fields": CARD_ENTRY_FIELDS,
        "elements": ELEMENTS,
        "occupied_monsters": [c for c in ALL_CELLS if c in state["cells"] and is_monster(state["cells"][c])],
        "adjust": {
            "seat": adjust.get("seat", ""),
            **{counter: adjust.get(counter, "") for counter in ("credits", "hand", "deck")},
            "refused": refused_as(refused, "adjust"),
        },
        "set_def": {"cell": set_def.get("cell", ""), "def": set_def.get("def", ""),
                    "refused": refused_as(refused, "set_def")},
        "end_refused": refused_as(refused, "end_game"),
        "last_lines": [line for line in (describe(e, names) for e in last.events) if line] if last else [],
        "last_title": describe_action(last.payload, last.events, names) if last else "",
        "limits": {"name": NAME_MAX, "stat": STAT_MAX, "count": COUNT_MAX},
    }

