"""The eight arrow abilities. Each arrow's ability may be used once per sequence,
in Ability Phase 1 or 2, on a cell the arrow reaches (board.arrow_line) as it points now,
with its card's facing (board.py, "Facing"); an action names the arrow by that direction.

From the ability pages:
- Shockwave (Earth): push the card on the target one cell further along the arrow.
  Whatever was on the landing cell is destroyed; a card pushed off the out zone is
  removed from the game. Any card, either side, covered or not.
- Magnetism (Electric): the target is empty; pull a card onto it from a cell
  orthogonally next to the target, not the active card's own cell, never a Block card.
- Growth (Nature): put a card from your hand covered on the empty target, cost never
  paid. It is not revealed at the start of your turn and is never flipped.
- Resurrection (Darkness): revive a monster from your own graveyard onto the empty
  target, where it activates. All cards revived in one sequence cost together at
  most the active card's cost (6 revives 4 + 2, not 3 + 4).
- Block (any card): on an empty target, put a Block card from your hand face-up; on
  a Block card, send it to the graveyard. Against a monster it does nothing, so we
  refuse it rather than let a player waste the arrow by a slip of the finger.

Decided by us (the pages for these were not found; only fragments are known):
- Remove: destroys the card on the target cell, whatever it is (the one sure fact
  is that it destroys Growth-placed cards).
- Firestorm: the active card spreads damage up to its current DEF (the rulebook says
  Firestorm works from current DEF) over the cards on the target cell and the cells
  orthogonally next to it, as the player chooses, at least 1 in all. A covered card
  hit for 1 or more is destroyed (its DEF is unknown; the Growth page says so for
  Growth cards). The active card takes no damage. Block cards cannot be hit.
- Swap: the active card and the card on the target cell change places. The active
  card does not reactivate (activation page); the other card may.
- Placing a card needs a card in hand: the app only counts cards, so it trusts the
  player that the card is the right kind (a Block card for Block).
"""

from ..errors import IllegalAction, Word, gettext_noop
from .board import ALL_CELLS, arrow_line, neighbours, step
from .cards import validate_card
from .pieces import (
    BLOCK_CARD,
    arrows_now,
    cell_of,
    current_def,
    destroy,
    label,
    move,
    place,
    remove_from_game,
)
from .sequence import abilities_left, after_move, end_if_full, push
from .state import GameState

PHASES = ("ability1", "ability2")


def _refuse(rule: str, template: str, **params) -> IllegalAction:
    return IllegalAction(rule, template, **params)


def _occupied(state, target, ability):
    if target not in state["cells"]:
        raise _refuse(
            "ability-needs-card",
            gettext_noop("%(ability)s needs a card on %(cell)s, and it is empty."),
            ability=Word(ability),
            cell=target,
        )


def _empty(state, target, ability):
    if target in state["cells"]:
        raise _refuse(
            "ability-needs-empty",
            gettext_noop("%(ability)s needs an empty cell; %(cell)s holds a card."),
            ability=Word(ability),
            cell=target,
        )


def _hand(state):
    if state["players"][state["seat"]]["hand"] < 1:
        raise _refuse(
            "hand-empty", gettext_noop("%(seat)s has no card in hand to place."), seat=state["seat"]
        )


def _check_magnetism(state, cell, target, action):
    _empty(state, target, "Magnetism")
    source = action.get("pull_from")
    if source not in neighbours(target) or source == cell:
        raise _refuse(
            "magnetism-source",
            gettext_noop(
                "Magnetism pulls from a cell next to %(cell)s (not the active card's own): %(allowed)s."
            ),
            cell=target,
            allowed=", ".join(n for n in neighbours(target) if n != cell),
        )
    piece = state["cells"].get(source)
    if piece is None or (piece["card"] is not None and piece["card"]["kind"] == "block"):
        raise _refuse(
            "magnetism-nothing", gettext_noop("There is no card Magnetism can pull on %(cell)s."), cell=source
        )


def _check_resurrection(state, cell, target, action):
    _empty(state, target, "Resurrection")
    player = state["players"][state["seat"]]
    grave = action.get("grave")
    budget = state["cells"][cell]["card"]["cost"] - state["stack"][-1]["revived"]
    if grave == "unknown":
        if player["graveyard_unknown"] < 1:
            raise _refuse(
                "grave-unknown",
                gettext_noop("%(seat)s has no unnamed card in the graveyard."),
                seat=state["seat"],
            )
        return
    if type(grave) is not int or not 0 <= grave < len(player["graveyard"]):
        raise _refuse(
            "grave-index", gettext_noop("Choose a card from %(seat)s's own graveyard."), seat=state["seat"]
        )
    card = player["graveyard"][grave]
    if card["kind"] != "monster":
        raise _refuse(
            "grave-monster", gettext_noop("Resurrection revives monsters, not %(name)s."), name=card["name"]
        )
    if card["cost"] > budget:
        raise _refuse(
            "resurrection-cost",
            gettext_noop("%(name)s costs %(cost)s; this sequence may revive only %(budget)s more."),
            name=card["name"],
            cost=card["cost"],
            budget=budget,
        )


def _check_block(state, cell, target, action):
    piece = state["cells"].get(target)
    if piece is None:
        _hand(state)
    elif piece["card"] is None or piece["card"]["kind"] != "block":
        raise _refuse(
            "block-monster",
            gettext_noop(
                "A Block arrow does nothing to a monster on %(cell)s: target an empty cell or a Block card."
            ),
            cell=target,
        )


def _check_growth(state, cell, target, action):
    _empty(state, target, "Growth")
    _hand(state)


def _check_firestorm(state, cell, target, action):
    if not storm_cells(state, cell, target):
        raise _refuse(
            "firestorm-nothing", gettext_noop("Firestorm on %(cell)s would hit no card."), cell=target
        )


CHECKS = {
    "Shockwave": lambda state, cell, target, action: _occupied(state, target, "Shockwave"),
    "Magnetism": _check_magnetism,
    "Growth": _check_growth,
    "Resurrection": _check_resurrection,
    "Block": _check_block,
    "Remove": lambda state, cell, target, action: _occupied(state, target, "Remove"),
    "Firestorm": _check_firestorm,
    "Swap": lambda state, cell, target, action: _occupied(state, target, "Swap"),
}


def storm_budget(state: GameState, cell: str) -> int:
    """How much damage the active card on `cell` spreads with Firestorm: its current DEF."""
    return current_def(state["cells"][cell])


def storm_reach(state: GameState, cell: str, arrow: str) -> list[str]:
    """Every cell a Firestorm along `arrow` could hit, whichever target it picks, in board order."""
    hit = {c for target in arrow_line(cell, arrow, state["config"]["reach"]) for c in storm_cells(state, cell, target)}
    return [c for c in ALL_CELLS if c in hit]


def storm_cells(state: GameState, cell: str, target: str) -> list[str]:
    """The cells a Firestorm on `target` can hit: any card but Block cards and the active card."""
    cells = [target, *neighbours(target)]
    return [
        c
        for c in cells
        if c != cell
        and c in state["cells"]
        and (state["cells"][c]["card"] is None or state["cells"][c]["card"]["kind"] == "monster")
    ]


def check(state: GameState, action: dict) -> tuple[str, str, str, str]:
    """Validate an ability's fixed choices; return (active cell, arrow, ability, target)."""
    if not state["stack"] or state["stack"][-1]["phase"] not in PHASES:
        raise _refuse(
            "not-ability-phase", gettext_noop("Abilities are used in Ability Phase 1 or 2 of a sequence.")
        )
    entry = state["stack"][-1]
    cell = cell_of(state, entry["id"])
    piece = state["cells"][cell]
    arrow = action.get("arrow")
    ability = arrows_now(state, piece).get(arrow) if isinstance(arrow, str) else None
    if ability is None or ability == "Normal":
        raise _refuse(
            "no-such-ability",
            gettext_noop("%(name)s on %(cell)s has no ability arrow pointing %(arrow)s."),
            name=label(piece),
            cell=cell,
            arrow=arrow,
        )
    if arrow not in abilities_left(state, piece, entry):
        raise _refuse(
            "ability-used",
            gettext_noop("The %(ability)s arrow (%(arrow)s) of %(name)s was already used in this sequence."),
            ability=Word(ability),
            arrow=arrow,
            name=label(piece),
        )
    target = action.get("target")
    line = arrow_line(cell, arrow, state["config"]["reach"])
    if target not in line:
        raise _refuse(
            "out-of-reach",
            gettext_noop("The %(arrow)s arrow from %(cell)s reaches %(allowed)s, not %(target)s."),
            arrow=arrow,
            cell=cell,
            allowed=", ".join(line) or "-",
            target=target,
        )
    CHECKS[ability](state, cell, target, action)
    return cell, arrow, ability, target


def candidates(state: GameState) -> list[dict]:
    """Every ability use open now, with its fixed choices (free choices such as a revived card left out)."""
    entry = state["stack"][-1]
    cell = cell_of(state, entry["id"])
    piece = state["cells"][cell]
    found = []
    for arrow in abilities_left(state, piece, entry):
        ability = arrows_now(state, piece)[arrow]
        for target in arrow_line(cell, arrow, state["config"]["reach"]):
            base: dict[str, object] = {"type": "ability", "arrow": arrow, "target": target}
            options: list[dict[str, object]]
            if ability == "Magnetism":
                options = [{**base, "pull_from": n} for n in neighbours(target)]
            elif ability == "Resurrection":
                graveyard = state["players"][state["seat"]]["graveyard"]
                options = [{**base, "grave": i} for i in range(len(graveyard))] + [
                    {**base, "grave": "unknown"}
                ]
            else:
                options = [base]
            for option in options:
                try:
                    check(state, option)
                except IllegalAction:
                    continue
                found.append(option)
    return found


def use(state: GameState, action: dict, dice) -> list[dict]:
    """Use one ability arrow of the active card (the state is the engine's own copy)."""
    cell, arrow, ability, target = check(state, action)
    entry = state["stack"][-1]
    entry["used"].append(arrow)
    events: list[dict] = []
    events.append(
        {
            "type": "ability",
            "ability": ability,
            "arrow": arrow,
            "cell": cell,
            "target": target,
            "name": label(state["cells"][cell]),
        }
    )
    USES[ability](state, cell, arrow, target, action, events)
    end_if_full(state, events)
    return events


def _shockwave(state, cell, arrow, target, action, events):
    landing = step(target, arrow)
    pushed = state["cells"][target]
    if landing is None:
        events.append(remove_from_game(state, target, "Shockwave"))
        return
    if landing in state["cells"]:
        events.append(destroy(state, landing, "Shockwave"))
    move(state, target, landing)
    events.append({"type": "moved", "from": target, "to": landing, "name": label(pushed)})
    after_move(state, pushed, events)


def _magnetism(state, cell, arrow, target, action, events):
    pulled = move(state, action["pull_from"], target)
    events.append({"type": "moved", "from": action["pull_from"], "to": target, "name": label(pulled)})
    after_move(state, pulled, events)


def _growth(state, cell, arrow, target, action, events):
    state["players"][state["seat"]]["hand"] -= 1
    place(state, target, None, state["seat"], covered=True, growth=True)
    events.append({"type": "placed", "cell": target, "seat": state["seat"], "how": "growth"})


def _resurrection(state, cell, arrow, target, action, events):
    player = state["players"][state["seat"]]
    budget = state["cells"][cell]["card"]["cost"] - state["stack"][-1]["revived"]
    if action["grave"] == "unknown":
        card = validate_card(action.get("card"))
        if card["kind"] != "monster":
            raise _refuse(
                "grave-monster",
                gettext_noop("Resurrection revives monsters, not %(name)s."),
                name=card["name"],
            )
        if card["cost"] > budget:
            raise _refuse(
                "resurrection-cost",
                gettext_noop("%(name)s costs %(cost)s; this sequence may revive only %(budget)s more."),
                name=card["name"],
                cost=card["cost"],
                budget=budget,
            )
        player["graveyard_unknown"] -= 1
    else:
        card = player["graveyard"].pop(action["grave"])
    state["stack"][-1]["revived"] += card["cost"]
    revived = place(state, target, card, state["seat"], covered=False)
    events.append(
        {
            "type": "revived",
            "cell": target,
            "name": card["name"],
            "cost": card["cost"],
            "budget_left": budget - card["cost"],
        }
    )
    if not end_if_full(state, events):
        push(state, revived, "revived", events)


def _block(state, cell, arrow, target, action, events):
    if target in state["cells"]:
        events.append(destroy(state, target, "Block"))
        return
    state["players"][state["seat"]]["hand"] -= 1
    place(state, target, dict(BLOCK_CARD), state["seat"], covered=False)
    events.append({"type": "placed", "cell": target, "seat": state["seat"], "how": "block"})


def _remove(state, cell, arrow, target, action, events):
    events.append(destroy(state, target, "Remove"))


def _firestorm(state, cell, arrow, target, action, events):
    allowed = storm_cells(state, cell, target)
    damage = action.get("damage")
    budget = storm_budget(state, cell)
    if not isinstance(damage, dict) or not damage:
        raise _refuse("firestorm-split", gettext_noop("Say how much Firestorm damage each card takes."))
    total = 0
    for where, amount in damage.items():
        if where not in allowed:
            raise _refuse(
                "firestorm-cell",
                gettext_noop("Firestorm on %(target)s can hit %(allowed)s, not %(cell)s."),
                target=target,
                allowed=", ".join(allowed),
                cell=where,
            )
        if type(amount) is not int or amount < 0:
            raise _refuse(
                "firestorm-amount", gettext_noop("Firestorm damage is a whole number of 0 or more.")
            )
        total += amount
    if not 1 <= total <= budget:
        raise _refuse(
            "firestorm-total",
            gettext_noop(
                "Firestorm spreads 1 to %(budget)s damage (the active card's current DEF), not %(total)s."
            ),
            budget=budget,
            total=total,
        )
    for where in allowed:
        amount = damage.get(where, 0)
        if not amount:
            continue
        piece = state["cells"][where]
        if piece["covered"]:
            events.append({"type": "burned", "cell": where, "name": label(piece), "amount": amount})
            events.append(destroy(state, where, "Firestorm"))
            continue
        before = current_def(piece)
        piece["damage"] += amount
        events.append(
            {
                "type": "burned",
                "cell": where,
                "name": label(piece),
                "amount": amount,
                "before": before,
                "after": max(0, current_def(piece)),
            }
        )
        if current_def(piece) <= 0:
            events.append(destroy(state, where, "Firestorm"))


def _swap(state, cell, arrow, target, action, events):
    active = state["cells"].pop(cell)
    other = move(state, target, cell)
    active["moved_turn"] = state["turn"]
    state["cells"][target] = active
    events.append({"type": "swapped", "cells": [cell, target], "names": [label(active), label(other)]})
    after_move(state, other, events)


USES = {
    "Shockwave": _shockwave,
    "Magnetism": _magnetism,
    "Growth": _growth,
    "Resurrection": _resurrection,
    "Block": _block,
    "Remove": _remove,
    "Firestorm": _firestorm,
    "Swap": _swap,
}
