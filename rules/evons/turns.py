"""An Evons game: turns, credits, playing and revealing cards, the end and the score.

State (plain JSON): `GameState` in state.py, whose fields say what each key holds.

Actions (every turn action names the acting `seat`):
    {"type": "reveal", "cell": "B3", "card": {...}}        reveal a covered card
    {"type": "play", "cell": "C2", "covered": false, "card": {...}}   face-up, pay now
    {"type": "play", "cell": "C2", "covered": true}          face-down, pay on reveal
    {"type": "pass"}
    {"type": "ability", "arrow": "E", "target": "D3", ...}   see abilities.py
    {"type": "conflict", "target": "C3"}                     fight this defender next
    {"type": "next"}                                          end this Ability Phase
    {"type": "adjust", "override": true, "seat": 0, "credits"/"hand"/"deck": n}
    {"type": "adjust", "override": true, "cell": "B3", "def": n}   a card's current DEF
    {"type": "end_game", "override": true}                    the table stops; score as it stands

The turn runs itself between choices: credits and the draw at its start; the
sequences, the score, the discard and the next player's turn after the last choice.

Rules from the notes: credits start at 50, +5 a turn except a player's own first
turn, no cap; draw 1; reveal covered cards (each activates; its cost is due then);
play one card covered or face-up (face-up pays now); hand limit 8 at the end of the
turn; the game ends at once when the 25 main-zone cells are full.

Decisions where the pages are silent (per-match options in `config` where tables
could reasonably differ):
- Seat 0 (player 1) goes first; the table decides who sits there. No dice: Evons
  has no chance once the decks are shuffled, which the players do physically.
- `starting_hand` (default 5): the pages give no opening hand; decks are 60 cards.
- Covered cards are told to the app only when revealed, so nothing secret is
  ever entered on the shared phone. Their cost is paid at the reveal; a covered card
  whose cost cannot be paid then goes to the graveyard without activating.
- The hand is only counted (the cards stay physical). Cards discarded down to 8 go
  to the graveyard unnamed; Resurrection may name one later. An empty deck skips
  the draw.
- One card from hand per turn (the turn page describes a single play).
- `def_reset` (default on): damage lasts "for the entire turn", so DEF returns to
  full at the end of each turn; off keeps damage for the rest of the game.
- A game whose board never fills ends when both players pass in a row (two turns
  in a row with no card played from hand), or when the table ends it (override);
  either way the board is scored as it stands.
- `ties` (default "draw"): equal scores are a draw; "second-player" gives the game
  to the player who moved second, who had one turn fewer of credits.
"""

from ..dice import Dice
from ..engine import TABLE, Handler, Outcome, copied, seat_named
from ..errors import IllegalAction, gettext_noop
from ..options import Choice, WholeNumber, YesNo, checked_config, defaults
from .abilities import candidates, use
from .board import ALL_CELLS, in_main_zone, is_cell
from .cards import validate_card
from .pieces import cell_of, destroy, find, label, place, scores
from .sequence import abilities_left, end_if_full, fight, flip_step, pending_conflicts, push
from .state import GameState

SEATS = 2
DECK_SIZE = 60
START_CREDITS = 50
CREDITS_PER_TURN = 5
HAND_LIMIT = 8
COUNT_MAX = 999
"""The most a manual adjustment sets credits, hand or deck to: far beyond any real table."""
TIES = ("draw", "second-player")
FLAG_MESSAGE = gettext_noop("%(option)s is on or off, not %(value)r.")
OPTIONS = {
    "reach": Choice((1, 2), 1, rule="config-reach", message=gettext_noop("Arrows reach 1 or 2 cells, not %(value)r.")),
    "flip_covered": YesNo(False, message=FLAG_MESSAGE),
    "def_reset": YesNo(True, message=FLAG_MESSAGE),
    "ties": Choice(TIES, "draw", rule="config-ties", message=gettext_noop("Ties are %(allowed)s, not %(value)r.")),
    "starting_hand": WholeNumber(0, 20, 5, rule="config-hand",
                                 message=gettext_noop("The opening hand is 0 to 20 cards, not %(value)r.")),
}
DEFAULT_CONFIG = defaults(OPTIONS)


def new_match(config: dict, seed: str) -> GameState:
    """The board before turn 1; player 1's turn has begun (no credits on a first turn, one card drawn)."""
    config = checked_config("Evons", OPTIONS, config)
    hand = config["starting_hand"]
    state: GameState = {
        "config": config,
        "turn": 1,
        "seat": 0,
        "step": "reveal",
        "played": False,
        "passes": 0,
        "players": [
            {
                "credits": START_CREDITS,
                "hand": hand,
                "deck": DECK_SIZE - hand,
                "graveyard": [],
                "graveyard_unknown": 0,
                "removed": [],
                "removed_unknown": 0,
                "turns": 0,
            }
            for _ in range(SEATS)
        ],
        "cells": {},
        "next_id": 0,
        "stack": [],
        "over": None,
        "facing": True,
    }
    _start_turn(state, [])
    _advance(state, [])
    return state


def new_match_v1(config: dict, seed: str) -> GameState:
    """The board before turn 1 under rules version 1, where arrows never turned with their card."""
    state = new_match(config, seed)
    del state["facing"]
    return state


def _start_turn(state: GameState, events: list[dict]) -> None:
    player = state["players"][state["seat"]]
    gained = CREDITS_PER_TURN if player["turns"] else 0
    player["credits"] += gained
    drew = player["deck"] > 0
    if drew:
        player["deck"] -= 1
        player["hand"] += 1
    player["turns"] += 1
    state["step"], state["played"] = "reveal", False
    events.append(
        {
            "type": "turn_started",
            "turn": state["turn"],
            "seat": state["seat"],
            "gained": gained,
            "credits": player["credits"],
            "drew": drew,
        }
    )


def _end_turn(state: GameState, events: list[dict]) -> None:
    player = state["players"][state["seat"]]
    events.append({"type": "score", "scores": scores(state)})
    if player["hand"] > HAND_LIMIT:
        discarded = player["hand"] - HAND_LIMIT
        player["hand"] = HAND_LIMIT
        player["graveyard_unknown"] += discarded
        events.append({"type": "discarded", "seat": state["seat"], "count": discarded})
    if state["config"]["def_reset"]:
        for piece in state["cells"].values():
            piece["damage"] = 0
    events.append({"type": "turn_ended", "turn": state["turn"], "seat": state["seat"]})
    state["seat"] = 1 - state["seat"]
    state["turn"] += 1
    _start_turn(state, events)


def to_reveal(state: GameState) -> list[str]:
    """The current player's covered cards that reveal this turn (Growth cards stay covered)."""
    return [
        cell
        for cell in ALL_CELLS
        if cell in state["cells"]
        and state["cells"][cell]["covered"]
        and not state["cells"][cell]["growth"]
        and state["cells"][cell]["owner"] == state["seat"]
    ]


def _advance(state: GameState, events: list[dict]) -> None:
    """Run the turn forward until a player has a choice to make (or the game is over)."""
    while state["over"] is None:
        if state["stack"]:
            entry = state["stack"][-1]
            cell = find(state, entry["id"])
            piece = state["cells"].get(cell) if cell else None
            if cell is None or piece is None or piece["covered"]:
                state["stack"].pop()
                events.append({"type": "sequence_ended", "cell": cell, "name": "", "why": "left"})
            elif entry["phase"] == "ability1":
                if abilities_left(state, piece, entry):
                    return
                entry["phase"] = "conflicts"
            elif entry["phase"] == "conflicts":
                if not in_main_zone(cell):
                    entry["phase"] = "ability2"  # out zone: abilities only, no conflicts or flips
                elif pending_conflicts(state):
                    return
                else:
                    flip_step(state, events)
            elif abilities_left(state, piece, entry):
                return
            else:
                state["stack"].pop()
                events.append({"type": "sequence_ended", "cell": cell, "name": label(piece), "why": "done"})
        elif state["step"] == "reveal":
            if to_reveal(state):
                return
            state["step"] = "play"
        elif state["played"]:
            _end_turn(state, events)
        else:
            return


def _refuse(rule: str, template: str, **params) -> IllegalAction:
    return IllegalAction(rule, template, **params)


def _need_choice_step(state: GameState, wanted: str) -> None:
    """Refuse a reveal/play/pass while something else must be done first."""
    if state["stack"]:
        raise _refuse(
            "sequence-running",
            gettext_noop("Finish the Activation Sequence of %(cell)s first."),
            cell=find(state, state["stack"][-1]["id"]),
        )
    if state["step"] == "reveal" and wanted != "reveal":
        raise _refuse(
            "reveal-first",
            gettext_noop("Reveal your covered cards first: %(cells)s."),
            cells=", ".join(to_reveal(state)),
        )
    if state["step"] == "play" and wanted == "reveal":
        raise _refuse(
            "nothing-to-reveal",
            gettext_noop("%(seat)s has no covered card left to reveal."),
            seat=state["seat"],
        )


def _cell(action: dict) -> str:
    cell = action.get("cell")
    if not is_cell(cell):
        raise _refuse(
            "no-such-cell",
            gettext_noop("There is no cell %(cell)s: columns X, A-E, Y and rows 0-6, like B3."),
            cell=cell,
        )
    return cell


def _reveal(state: GameState, action: dict, dice: Dice) -> list[dict]:
    events: list[dict] = []
    _need_choice_step(state, "reveal")
    cell = _cell(action)
    if cell not in to_reveal(state):
        raise _refuse(
            "not-covered",
            gettext_noop("%(cell)s holds no covered card of %(seat)s to reveal."),
            cell=cell,
            seat=state["seat"],
        )
    card = validate_card(action.get("card"))
    piece = state["cells"][cell]
    player = state["players"][state["seat"]]
    cost = card.get("cost", 0)
    piece["card"], piece["covered"] = card, False
    if cost > player["credits"]:
        events.append(
            {"type": "unpaid", "cell": cell, "name": card["name"], "cost": cost, "credits": player["credits"]}
        )
        events.append(destroy(state, cell, "unpaid"))
        return events
    player["credits"] -= cost
    events.append(
        {"type": "revealed", "cell": cell, "name": card["name"], "cost": cost, "credits": player["credits"]}
    )
    if card["kind"] == "monster":
        push(state, piece, "revealed", events)
    return events


def _play(state: GameState, action: dict, dice: Dice) -> list[dict]:
    events: list[dict] = []
    if state["played"]:
        raise _refuse(
            "one-play", gettext_noop("%(seat)s has already played a card this turn."), seat=state["seat"]
        )
    _need_choice_step(state, "play")
    cell = _cell(action)
    if cell in state["cells"]:
        raise _refuse(
            "cell-taken",
            gettext_noop("%(cell)s already holds %(name)s."),
            cell=cell,
            name=label(state["cells"][cell]),
        )
    player = state["players"][state["seat"]]
    if player["hand"] < 1:
        raise _refuse(
            "hand-empty", gettext_noop("%(seat)s has no card in hand to place."), seat=state["seat"]
        )
    covered = action.get("covered")
    if not isinstance(covered, bool):
        raise _refuse("play-face", gettext_noop("Say whether the card is played covered or face-up."))
    card = None
    if not covered:
        card = validate_card(action.get("card"))
        cost = card.get("cost", 0)
        if cost > player["credits"]:
            raise _refuse(
                "credits",
                gettext_noop("%(name)s costs %(cost)s credits; %(seat)s has %(credits)s."),
                name=card["name"],
                cost=cost,
                seat=state["seat"],
                credits=player["credits"],
            )
        player["credits"] -= cost
    player["hand"] -= 1
    state["played"], state["passes"] = True, 0
    piece = place(state, cell, card, state["seat"], covered=covered)
    events.append(
        {
            "type": "played",
            "seat": state["seat"],
            "cell": cell,
            "covered": covered,
            "name": card["name"] if card else None,
            "cost": card.get("cost", 0) if card else None,
            "credits": player["credits"],
        }
    )
    if not end_if_full(state, events) and card and card["kind"] == "monster":
        push(state, piece, "played", events)
    return events


def _pass(state: GameState, action: dict, dice: Dice) -> list[dict]:
    events: list[dict] = []
    if state["played"]:
        raise _refuse(
            "one-play", gettext_noop("%(seat)s has already played a card this turn."), seat=state["seat"]
        )
    _need_choice_step(state, "play")
    state["passes"] += 1
    events.append({"type": "passed", "seat": state["seat"]})
    if state["passes"] >= SEATS:
        state["over"] = {"reason": "passes"}
        events.append({"type": "game_over", "reason": "passes", "scores": scores(state)})
    else:
        _end_turn(state, events)
    return events


def _conflict(state: GameState, action: dict, dice: Dice) -> list[dict]:
    events: list[dict] = []
    if not state["stack"] or state["stack"][-1]["phase"] != "conflicts":
        raise _refuse("not-conflicts", gettext_noop("No conflicts are waiting to be resolved now."))
    pending = pending_conflicts(state)
    if action.get("target") not in pending:
        raise _refuse(
            "conflict-not-pending",
            gettext_noop("There is no conflict pending with %(target)s; pending: %(pending)s."),
            target=action.get("target"),
            pending=", ".join(pending),
        )
    fight(state, action["target"], events)
    return events


def _next(state: GameState, action: dict, dice: Dice) -> list[dict]:
    events: list[dict] = []
    if not state["stack"] or state["stack"][-1]["phase"] == "conflicts":
        raise _refuse(
            "not-ability-phase", gettext_noop("Abilities are used in Ability Phase 1 or 2 of a sequence.")
        )
    entry = state["stack"][-1]
    cell = cell_of(state, entry["id"])  # on the board: _advance ends a sequence whose card has left
    if entry["phase"] == "ability1":
        entry["phase"] = "conflicts"
        events.append({"type": "phase_done", "cell": cell, "phase": 1})
    else:
        state["stack"].pop()
        events.append(
            {"type": "sequence_ended", "cell": cell, "name": label(state["cells"][cell]), "why": "done"}
        )
    return events


def _adjust(state: GameState, action: dict, dice: Dice) -> list[dict]:
    events: list[dict] = []
    if action.get("override") is not True:
        raise _refuse("override", gettext_noop("Adjustments are manual overrides and are marked as such."))
    changes = {}
    if "cell" in action:
        cell = _cell(action)
        piece = state["cells"].get(cell)
        if piece is None or piece["covered"] or piece["card"]["kind"] != "monster":
            raise _refuse(
                "adjust-def",
                gettext_noop("%(cell)s holds no face-up monster whose DEF could be set."),
                cell=cell,
            )
        value = action.get("def")
        if type(value) is not int or not 1 <= value <= piece["card"]["def"]:
            raise _refuse(
                "adjust-def-range",
                gettext_noop("DEF of %(name)s can be set from 1 to %(most)s."),
                name=label(piece),
                most=piece["card"]["def"],
            )
        piece["damage"] = piece["card"]["def"] - value
        changes["def"] = value
        events.append({"type": "adjusted", "cell": cell, "name": label(piece), "changes": changes})
        return events
    seat = action.get("seat")
    if type(seat) is not int or not 0 <= seat < SEATS:
        raise _refuse("seat", gettext_noop("There is no seat %(seat)r in this game."), seat=seat)
    for counter in ("credits", "hand", "deck"):
        if counter in action:
            value = action[counter]
            if type(value) is not int or not 0 <= value <= COUNT_MAX:
                raise _refuse(
                    "adjust-count",
                    gettext_noop("%(counter)s must be a whole number from 0 to %(most)s."),
                    counter=counter.capitalize(),
                    most=COUNT_MAX,
                )
            state["players"][seat][counter] = value
            changes[counter] = value
    if not changes:
        raise _refuse("adjust-nothing", gettext_noop("Nothing to adjust: give credits, hand or deck."))
    events.append({"type": "adjusted", "seat": seat, "changes": changes})
    return events


def _end_game(state: GameState, action: dict, dice: Dice) -> list[dict]:
    events: list[dict] = []
    if action.get("override") is not True:
        raise _refuse(
            "override", gettext_noop("Ending the game early is a manual override and is marked as such.")
        )
    state["over"], state["stack"] = {"reason": "agreed"}, []
    events.append({"type": "game_over", "reason": "agreed", "scores": scores(state)})
    return events


TURN_ACTIONS: dict[str, Handler[GameState]] = {
    "reveal": _reveal,
    "play": _play,
    "pass": _pass,
    "ability": use,
    "conflict": _conflict,
    "next": _next,
}
OVERRIDES: dict[str, Handler[GameState]] = {"adjust": _adjust, "end_game": _end_game}
ACTIONS: dict[str, Handler[GameState]] = {**TURN_ACTIONS, **OVERRIDES}


def apply(state: GameState, action: dict, dice: Dice) -> tuple[GameState, list[dict]]:
    """The game after `action`, and what happened; the given state is never changed."""
    kind = action.get("type") if isinstance(action, dict) and isinstance(action.get("type"), str) else None
    if state["over"] is not None:
        raise _refuse("game-over", gettext_noop("The game is over; no more actions can be taken."))
    if kind not in ACTIONS:
        raise _refuse("action-unknown", gettext_noop("Evons has no action %(kind)r."), kind=kind)
    if kind in TURN_ACTIONS and action.get("seat") != state["seat"]:
        raise _refuse("out-of-turn", gettext_noop("It is %(seat)s's turn."), seat=state["seat"])
    state = copied(state)
    events = ACTIONS[kind](state, action, dice)
    _advance(state, events)
    return state, events


def legal_actions(state: GameState) -> list[dict]:
    """Every choice open now with its fixed parameters; a card to play or reveal, a
    revived unnamed card and Firestorm's split are free choices left out."""
    if state["over"] is not None:
        return []
    seat = state["seat"]
    if state["stack"]:
        phase = state["stack"][-1]["phase"]
        if phase == "conflicts":
            return [{"type": "conflict", "seat": seat, "target": t} for t in pending_conflicts(state)]
        return [{**option, "seat": seat} for option in candidates(state)] + [{"type": "next", "seat": seat}]
    if state["step"] == "reveal":
        return [{"type": "reveal", "seat": seat, "cell": cell} for cell in to_reveal(state)]
    actions = []
    if state["players"][seat]["hand"] > 0:
        for cell in ALL_CELLS:
            if cell not in state["cells"]:
                actions.append({"type": "play", "seat": seat, "cell": cell, "covered": True})
                actions.append({"type": "play", "seat": seat, "cell": cell, "covered": False})
    return actions + [{"type": "pass", "seat": seat}]


def outcome(state: GameState) -> Outcome | None:
    if state["over"] is None:
        return None
    points = scores(state)
    if points[0] != points[1]:
        winner = 0 if points[0] > points[1] else 1
    elif state["config"]["ties"] == "second-player":
        winner = 1
    else:
        return Outcome(winner=None, score=f"{points[0]}-{points[1]}")
    return Outcome(winner=winner, score=f"{points[winner]}-{points[1 - winner]}")


def round_of(state: GameState) -> int | None:
    """The turn under way."""
    return state["turn"]


def public_action(state: GameState, action: dict) -> dict:
    """Nothing in an Evons action is secret: covered cards are named only when revealed."""
    return action


def authority(state: GameState, action: dict) -> int | str:
    """Turn actions name the seat whose turn it is. An adjustment belongs to the side it changes
    (a player's counters, or the card on a cell by the seat it faces); ending the game is the table's."""
    if not isinstance(action, dict):
        return TABLE
    if action.get("type") == "end_game":
        return TABLE
    if action.get("type") == "adjust" and "cell" in action:
        cell = action.get("cell")
        piece = state["cells"].get(cell) if isinstance(cell, str) else None
        return piece["owner"] if piece else TABLE
    return seat_named(state, action)
