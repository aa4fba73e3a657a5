"""An Evons game's state: plain JSON, typed so that mypy finds a wrong key before a test runs.

Its own module because every part of the engine (turns, pieces, sequence, abilities) reads it."""

from typing import NotRequired, TypedDict


class GameState(TypedDict):
    config: dict
    """The per-match options (turns.OPTIONS)."""
    turn: int
    """Game turn number, from 1; seat 0 plays the odd turns."""
    seat: int
    """Whose turn it is."""
    step: str
    """"reveal" (covered cards to reveal) or "play" (play one card or pass)."""
    played: bool
    """A card was played from hand this turn."""
    passes: int
    """Turns in a row ended without a card played from hand."""
    players: list[dict]
    """Per seat: credits, hand and deck counts, graveyard (named cards) and graveyard_unknown (cards never
    seen face-up), removed / removed_unknown (out of the game), turns (own turns begun). A dict, since a
    correction names its count by a variable."""
    cells: dict[str, dict]
    """Cell name -> piece (see pieces.py)."""
    next_id: int
    """How many pieces were placed so far (their ids: "c1", "c2", ...)."""
    stack: list[dict]
    """The Activation Sequences in progress (see sequence.py)."""
    over: dict | None
    """None, or {"reason": "board-full" | "passes" | "agreed"}."""
    facing: NotRequired[bool]
    """True: arrows turn with their card's facing (rules version 2, board.py); absent from version-1
    states, where arrows were board directions."""
