"""Showdown (Mode A) on the web: the AI's lineup at the start, its possessions, hints and reasons.

The AI (rules/cardmaster/ai) decides; this module only applies its decisions through the same
service as a player's taps, so its moves are ordinary steps of the log: replayed, exported,
undone like any other. Each AI move carries its reason in the action under "ai", and a move a
player made with a hint on the screen carries "hinted"; the engine reads neither.

The AI plays its whole possession right after the player's action, in the same request: at a
table the player taps their move and the answer shows the AI's reply, every move with its
reason, as an opponent across the table would play it; the board lists them all, and the
player can go through them a step at a time instead (views.match_steps). A button plays the
AI's possession when it holds possession with nobody's action before it (after an undo, or a
match left mid-turn).
"""

import hashlib
import json
from typing import cast

from django.core.cache import cache
from django.utils.translation import npgettext, pgettext

from rules import Dice, RuleError
from rules.cardmaster.ai import (
    Decision,
    Step,
    ai_seat,
    choose,
    generate_faction,
    hint,
    lineup_order,
    pick_faction,
    players,
)
from rules.cardmaster.match import phase
from rules.cardmaster.options import ai_level
from tracker.matches import services

from ...matches.club_cards import match_catalog
from ...models import Match
from ..base import Allowance
from .narration import describe, move_title, percent, reason_text

MOST_MOVES = 40
"""A possession is at most three moves and some deposits; this only bounds a runaway loop."""
HINT_SECONDS = 24 * 3600
"""A hint stays in the cache for a day: long enough for any match, short enough to clear itself."""
REMEMBERED = 12
"""Steps of the log the AI is shown before it decides: its own recent Shifts and promises."""


def start_showdown(match: Match, faction: str, power: int | None) -> None:
    """Lock in the AI's lineup at the start: new cards at `power`, or catalog cards nearest it; for
    "hand" the AI's lineup is entered like a player's. Its order is the AI's (lineup_order)."""
    seat = ai_seat(match.state["config"])
    if seat is None or faction not in ("generate", "catalog") or power is None:
        return
    catalog = [card.as_rules_card() for card in match_catalog(match).values()]
    try:
        if faction == "generate":
            cards = generate_faction(power, match.seed, avoid=tuple(card["name"] for card in catalog))
        else:
            cards = pick_faction(catalog, match.seed, power=power)
        action = {"type": "lock_lineup", "seat": seat, "cards": lineup_order(cards)}
        services.match_apply_action(match=match, action=action, expected_seq=match.head)
    except RuleError:
        return  # a catalog the engine now refuses: the board offers the AI's lineup to be entered by hand


def ai_to_move(match: Match) -> bool:
    """Whether the AI holds possession of a match in play."""
    seat = ai_seat(match.state["config"])
    return seat is not None and phase(match.state) == "play" and match.state["possession"] == seat


def remembered(match: Match) -> list[Step]:
    """The last REMEMBERED steps of the log as the AI reads them: (the position before, the action),
    oldest first, replayed from the checkpoint below them (at most a few dozen applies)."""
    start = max(0, match.head - REMEMBERED)
    state = services.match_replay(match, start)
    steps = []
    for action in match.actions.filter(abandoned=False, seq__gt=start, seq__lte=match.head).order_by("seq"):
        steps.append((state, action.payload))
        state, _events = match.game.apply(state, action.payload,
                                          Dice(match.seed, action.seq, services.entered_rolls(action)))
    return cast(list[Step], steps)  # the registry's Game types every state as a plain dict


def _position_key(kind: str, level: str, match: Match, recent: list[Step]) -> str:
    """A cache key of everything a decision is made from: the AI's version and level, the state, the seed and
    step, and the recent steps it reads."""
    made_from = [players.VERSION, level, match.state, match.seed, match.head + 1, recent]
    return f"{kind}:" + hashlib.sha256(json.dumps(made_from, sort_keys=True).encode()).hexdigest()


def _decided(match: Match, level: str, recent: list[Step], allowance: Allowance | None) -> Decision | None:
    """The AI's decision for the position, kept in the cache per position as a hint is (an undo and the same move
    again cost no search); a search is counted against the phone's AI moves an hour (`allowance`, when the AI
    answers a player's move): past them, None, and the AI's turn waits for its button."""
    before = match.state
    key = _position_key("cardmaster-ai", level, match, recent)
    kept = cache.get(key)
    if kept is not None:
        return Decision.from_json(kept)
    if allowance is not None and not allowance.allows():
        return None
    decision = choose(before, before["possession"], level, match.seed, match.head + 1, recent)
    if allowance is not None:
        allowance.spend()
    cache.set(key, decision.as_json(), HINT_SECONDS)
    return decision


def play_ai(match: Match, allowance: Allowance | None = None) -> Match:
    """The AI's moves while it holds possession, each applied with its reason. Another phone's
    change in the meantime stops it quietly: whoever moved the match on sees the fresh state.
    `allowance`: the player's move the AI answers has each search counted (the AI's button is a
    costly request of its own, counted once)."""
    level = ai_level(match.state["config"])
    recent = remembered(match) if ai_to_move(match) else []
    for _move in range(MOST_MOVES):
        if not ai_to_move(match) or level is None:
            break
        before = match.state
        decision = _decided(match, level, recent, allowance)
        if decision is None:
            break
        action = {**decision.action, "ai": {"reason": decision.reason.as_json(),
                                            "win_chance": round(decision.win_chance, 3), "level": level,
                                            "simulations": decision.simulations}}
        try:
            match = services.match_apply_action(match=match, action=action, expected_seq=match.head).match
        except (services.StaleSubmission, RuleError):
            break
        recent = [*recent[1 - REMEMBERED:], (before, action)]
    return match


def hint_for(match: Match) -> Decision:
    """The hard AI's move for the side in possession; RuleError when there is none to suggest.

    Kept in the cache per position: the key is a digest of everything the decision is made from
    (the state, the seed and step, the recent steps the AI reads, and the AI's version), so
    asking again, on any phone or after an undo and redo, costs no search."""
    recent = remembered(match)
    key = _position_key("cardmaster-hint", "hard", match, recent)
    kept = cache.get(key)
    if kept is not None:
        return Decision.from_json(kept)
    decision = hint(match.state, match.seed, match.head + 1, recent)
    cache.set(key, decision.as_json(), HINT_SECONDS)
    return decision


def _possessions(seat: int, opened_by: list[dict], moves: list) -> list[int]:
    """For each of the AI's `moves` (Actions, oldest first), which of its possessions it belongs to, counting
    from 1: a new one starts after a step whose events give the AI possession again (the step before the first
    move, `opened_by`'s events, opens the first)."""
    numbers, number = [], 0
    for events in [opened_by, *(move.events for move in moves[:-1])]:
        if any(event["type"] == "possession" and event["seat"] == seat for event in events):
            number += 1
        numbers.append(max(number, 1))
    return numbers


def reply(match: Match, step: int, names: list[str]) -> tuple[str, list[str]] | None:
    """The AI's moves right after log entry `step`, for the outcome box: "Bot replied with 3 moves in 2
    possessions:" and a line per move, each possession's moves marked as such, so a card that moves in both
    is not read as moving twice in one. None outside a Showdown or when the AI did not answer."""
    seat = ai_seat(match.state["config"])
    if seat is None or step >= match.head:
        return None
    later = match.actions.filter(abandoned=False, seq__gte=step, seq__lte=match.head).order_by("seq")
    tapped, *after = later
    moves = []
    for action in after:
        if "ai" not in action.payload:
            break
        moves.append(action)
    if not moves:
        return None
    numbers = _possessions(seat, tapped.events, moves)
    count = numbers[-1]
    titles = [move_title(move.payload, move.events, names) for move in moves]
    if count == 1:
        lines = titles
        heading = npgettext(
            "cardmaster",
            "%(name)s replied with %(n)s move:",
            "%(name)s replied with %(n)s moves:",
            len(moves),
        )
    else:
        lines = [pgettext("cardmaster", "Possession %(number)s: %(move)s") % {"number": number, "move": title}
                 for number, title in zip(numbers, titles, strict=True)]
        heading = npgettext("cardmaster", "%(name)s replied with %(n)s move in %(p)s possessions:",
                           "%(name)s replied with %(n)s moves in %(p)s possessions:", len(moves))
    return heading % {"name": names[seat], "n": len(moves), "p": count}, lines


def recent_steps(match: Match, names: list[str]) -> list[dict]:
    """What happened since the player last acted: their move, then each of the AI's with its reason
    and estimated win chance, oldest first, each with its working. Empty outside a Showdown."""
    seat = ai_seat(match.state["config"])
    if seat is None or not match.head:
        return []
    recent = match.actions.filter(abandoned=False, seq__lte=match.head).order_by("-seq")[:MOST_MOVES]
    steps, taken = [], []
    for action in recent:
        ai = action.payload.get("ai")
        taken.append(action)
        steps.append({
            "title": move_title(action.payload, action.events, names),
            "reason": reason_text(ai["reason"]) if ai else "",
            "win_chance": percent(ai["win_chance"]) if ai else "",
            "lines": [line for line in (describe(event, names) for event in action.events) if line],
        })
        if not ai:
            break
    steps.reverse()
    taken.reverse()
    # Two possessions of the AI in one answer: each one's first move says which it starts, so a card that moves
    # in both does not read as moving twice in one.
    if len(taken) > 1 and "ai" not in taken[0].payload:
        numbers = _possessions(seat, taken[0].events, taken[1:])
        if numbers[-1] > 1:
            for index, number in enumerate(numbers, start=1):
                if index == 1 or number != numbers[index - 2]:
                    steps[index]["possession"] = pgettext("cardmaster", "Possession %(number)s") % {"number": number}
    return steps
