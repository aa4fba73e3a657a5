"""A Cardmaster match's state: plain JSON, typed so that mypy finds a wrong key before a test runs.

Its own module because every part of the engine (moves, possession, fighters, the AI) reads it."""

from typing import TypedDict


class Team(TypedDict):
    active: list[str | None]
    """The 3 active slots: a card id, or None for an empty slot."""
    reserve: list[str]
    """Card ids waiting to come on, in order."""
    fallen: list[str]
    """Card ids knocked out."""
    raided: int
    """Gems this team has raided."""


class MatchState(TypedDict):
    config: dict
    """The match options (options.py)."""
    lineups: list[bool]
    """Per seat: False until that player has locked in their lineup, then True."""
    teams: list[Team]
    """Per seat."""
    cards: dict[str, dict]
    """Card id ("A1".."A9", "B1".."B9") -> the card as fighters.py describes it."""
    round: int
    """The round number (0 before the first)."""
    order: list[int]
    """[seat that went first this round, seat going second]; [] before round 1."""
    half: int
    """0 while the first team has possession, 1 for the second."""
    possession: int | None
    """The seat in possession, or None before round 1."""
    done: dict[str, str]
    """Card id -> why it cannot move again this possession ("moved", "arrived", "frozen")."""
    winner: int | None
    """The seat that knocked out every card of the other side, or None."""


def possessor(state: MatchState) -> int:
    """The seat in possession: set from round 1 on, when every move, tick and raid happens."""
    seat = state["possession"]
    assert seat is not None, "no team has possession before round 1"
    return seat
