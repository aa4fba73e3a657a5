"""An AI for Cardmaster: Showdown's opponent (Mode A), the hint, and the analysis of a finished match.

What the web side calls:

    choose(state, seat, level, seed, step, recent) -> Decision  the move for the seat in possession
    hint(state, seed, step, recent) -> Decision             the best move for whoever has possession
    generate_faction(power, seed, size=9, avoid=()) -> cards    new cards at a power level
    pick_faction(cards, seed, size=9, power=None) -> cards      the AI's pick from a catalog
    checked_faction(cards, size=9) -> cards                     cards entered by hand, checked
    lineup_order(cards, against=None) -> cards                  the AI's order (first 3 active)
    card_power(card), faction_power(cards) -> int               our power measure (faction.py)
    analyse(config, seed, played, level, seconds, ...) -> Analysis     in one go
    analyse_part(config, seed, played, start, ...) -> Part, finish(...)  in parts (a page a part)
    ai_seat(config), hints_allowed(config)                      the Showdown options (options.py)

`recent` is the match's last steps as (position before, action) pairs, oldest first: what a level
remembers of its own Shifts and promises (players.py). `step` is the number the move will have in the match log (the tracker's head + 1), the same
number the move's dice are made with. Everything is pure Python and reproducible from the
seed and step; nothing here reads a clock except the time bounds of the analysis.

Modules: evaluation (how good a position is), search (one move deep and short playouts), tree (the
hard level's tree search),
players (the levels), explain (the reasons), faction (cards and lineups), analysis,
strength (measured win rates) and bench (engine speed).
"""

from ..options import AI_LEVELS, ai_seat, hints_allowed
from ..state import MatchState, possessor
from .analysis import Analysis, Mistake, analyse, analyse_part, finish
from .explain import Reason
from .faction import (
    POWER_RANGE,
    card_power,
    checked_faction,
    faction_power,
    generate_faction,
    lineup_order,
    pick_faction,
)
from .players import LEVELS, Decision, Step, check_turn, choose


def hint(state: MatchState, seed: str, step: int, recent: list[Step] | tuple = ()) -> Decision:
    """The move the hard AI would make for the side in possession, with its reason and win chance;
    IllegalAction when nobody has a move (lineups still open, or the match is over). `recent`: as
    for `choose`."""
    check_turn(state, state["possession"] if state["possession"] is not None else 0)
    return choose(state, possessor(state), "hard", seed, step, recent)


__all__ = [
    "AI_LEVELS", "LEVELS", "POWER_RANGE", "Analysis", "Decision", "Mistake", "Reason", "Step", "ai_seat", "analyse", "analyse_part",
    "card_power", "checked_faction", "choose", "faction_power", "finish", "generate_faction", "hint", "hints_allowed",
    "lineup_order", "pick_faction",
]
