"""The Activation Sequence and chains: Ability Phase 1, conflicts, flips, Ability Phase 2.

The sequences in progress form a stack (`state["stack"]`); the top one is running.
Each entry: {"id": piece id, "phase": "ability1" | "conflicts" | "ability2",
"used": arrow directions whose ability was used, "fought": piece ids already met
in a conflict, "revived": cost revived by Resurrection so far, "reason": why it
activated}. A card triggered while another runs is pushed on top, so the last card
triggered resolves first, to any depth (notes: /chain/).

Rules as the pages give them:
- Conflict: an arrow of the active card points at an opponent's card whose arrow
  points straight back (each arrow as it points now, with its card's facing: board.py). Damage is simultaneous; 0 DEF goes to the graveyard at
  once; damage stays for the turn. The player picks the order of conflicts.
- If the active card is destroyed, its sequence ends and the card below it on the
  stack carries on where it stopped.
- Flips come only after the active card has survived its conflicts: each opponent
  card an arrow points at that is not defending turns to face the active player.
  A flip never uses an ability.
- Reactivation: your face-up card that changes cell on your turn; an opponent's
  card moved and then flipped to you, or flipped and then moved (it is yours by then,
  so both are "your face-up card moved this turn").

Decisions where the pages are silent:
- The out zone never starts nor receives conflicts or flips (we decide the
  case the pages leave open: a main-zone card against an out-zone card).
- Only face-up monsters defend: covered cards show no arrows, Block cards have none.
- Block cards and Growth-placed cards are never flipped (Block cards "cannot be
  conflicted"; Growth cards escape the normal flip rules). Other covered cards are
  not flipped either unless the per-match option `flip_covered` is on; then they
  turn to the flipper, who reveals them on their next turn and pays their cost.
- A card already on the stack is not pushed again when it moves; its running
  sequence goes on from its new cell. This keeps one sequence per card at a time.
- When control returns to a card that has left the board (or was covered), its
  sequence simply ends.
"""

from .board import OPPOSITE, arrow_order, arrow_target, in_main_zone
from .pieces import arrows_now, board_full, cell_of, current_def, destroy, find, is_monster, label, scores
from .state import GameState


def push(state: GameState, piece: dict, reason: str, events: list[dict]) -> None:
    """Start an Activation Sequence for `piece` on top of the stack."""
    state["stack"].append(
        {"id": piece["id"], "phase": "ability1", "used": [], "fought": [], "revived": 0, "reason": reason}
    )
    events.append(
        {
            "type": "activation",
            "cell": find(state, piece["id"]),
            "name": label(piece),
            "reason": reason,
            "depth": len(state["stack"]),
        }
    )


def on_stack(state: GameState, piece: dict) -> bool:
    return any(entry["id"] == piece["id"] for entry in state["stack"])


def after_move(state: GameState, piece: dict, events: list[dict], *, is_active: bool = False) -> None:
    """Reactivate a face-up card of the player whose turn it is, once it has moved."""
    if state["over"] or is_active or not is_monster(piece) or piece["owner"] != state["seat"]:
        return
    if not on_stack(state, piece):
        push(state, piece, "moved", events)


def end_if_full(state: GameState, events: list[dict]) -> bool:
    """End the game the instant the main zone is full, even mid-chain; True if it ended."""
    if state["over"] is None and board_full(state):
        state["over"] = {"reason": "board-full"}
        state["stack"] = []
        events.append({"type": "game_over", "reason": "board-full", "scores": scores(state)})
    return state["over"] is not None


def abilities_left(state: GameState, piece: dict, entry: dict) -> list[str]:
    """The active card's ability arrows not used in this sequence, by the direction they point now."""
    arrows = arrows_now(state, piece)
    return [d for d in arrow_order(arrows) if arrows[d] != "Normal" and d not in entry["used"]]


def defends(state: GameState, cell: str, direction: str) -> str | None:
    """The cell of an opponent card an arrow from `cell` meets head-on (a conflict), or None."""
    cells, reach = state["cells"], state["config"]["reach"]
    target = arrow_target(cells, cell, direction, reach)
    if target is None or not in_main_zone(target):
        return None
    them = cells[target]
    if them["owner"] == cells[cell]["owner"] or not is_monster(them):
        return None
    back = OPPOSITE[direction]
    if back in arrows_now(state, them) and arrow_target(cells, target, back, reach) == cell:
        return target
    return None


def pending_conflicts(state: GameState) -> list[str]:
    """Cells of the defending cards the active card has yet to meet, in arrow order."""
    entry = state["stack"][-1]
    cell = find(state, entry["id"])
    if cell is None or not in_main_zone(cell):
        return []
    pending = []
    for direction in arrow_order(arrows_now(state, state["cells"][cell])):
        target = defends(state, cell, direction)
        if target and state["cells"][target]["id"] not in entry["fought"]:
            pending.append(target)
    return pending


def conflict_preview(state: GameState, target: str) -> dict:
    """A conflict of the active card with the card on `target`, worked out without fighting it.

    Both strike at once: each card's current DEF goes down by the other's ATK, to 0 at the
    least. `fight` applies exactly these numbers; a page shows them before the player picks.
    """
    cell = cell_of(state, state["stack"][-1]["id"])
    mine, theirs = state["cells"][cell], state["cells"][target]
    before = [current_def(mine), current_def(theirs)]
    atk = [mine["card"]["atk"], theirs["card"]["atk"]]
    return {
        "type": "conflict",
        "cells": [cell, target],
        "names": [label(mine), label(theirs)],
        "atk": atk,
        "def": [mine["card"]["def"], theirs["card"]["def"]],
        "before": before,
        "after": [max(0, before[0] - atk[1]), max(0, before[1] - atk[0])],
        "seats": [mine["owner"], theirs["owner"]],
    }


def fight(state: GameState, target: str, events: list[dict]) -> None:
    """One conflict, both cards striking at once; ends the sequence if the active card falls."""
    entry = state["stack"][-1]
    conflict = conflict_preview(state, target)
    cell = conflict["cells"][0]
    mine, theirs = state["cells"][cell], state["cells"][target]
    entry["fought"].append(theirs["id"])
    mine["damage"] += theirs["card"]["atk"]
    theirs["damage"] += mine["card"]["atk"]
    after = conflict["after"]
    events.append(conflict)
    if after[1] == 0:
        events.append(destroy(state, target, "conflict"))
    if after[0] == 0:
        events.append(destroy(state, cell, "conflict"))
        state["stack"].pop()
        events.append({"type": "sequence_ended", "cell": cell, "name": label(mine), "why": "destroyed"})


def flippable(state: GameState, piece: dict) -> bool:
    if piece["growth"] or (piece["card"] is not None and piece["card"]["kind"] == "block"):
        return False
    if piece["covered"]:
        return state["config"]["flip_covered"]
    return True


def flip_step(state: GameState, events: list[dict]) -> None:
    """Flip every non-defending opponent card the surviving active card points at."""
    entry = state["stack"][-1]
    cell = cell_of(state, entry["id"])
    piece = state["cells"][cell]
    reach = state["config"]["reach"]
    flipped = []
    for direction in arrow_order(arrows_now(state, piece)):
        target = arrow_target(state["cells"], cell, direction, reach)
        if target is None or not in_main_zone(target) or defends(state, cell, direction):
            continue
        them = state["cells"][target]
        if them["owner"] == piece["owner"] or not flippable(state, them):
            continue
        them["owner"] = piece["owner"]
        them["flipped_turn"] = state["turn"]
        flipped.append(them)
        events.append(
            {"type": "flipped", "cell": target, "name": label(them), "seat": piece["owner"], "by": cell}
        )
    entry["phase"] = "ability2"
    for them in flipped:
        # Moved earlier this turn and now flipped to the active player: it reactivates.
        if them["moved_turn"] == state["turn"] and is_monster(them) and not on_stack(state, them):
            push(state, them, "moved-and-flipped", events)
