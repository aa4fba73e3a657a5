"""A Lonely Star match's state: plain JSON, typed so that mypy finds a wrong key before a test runs.

Its own module because every part of the engine (units, statuses, combat, zones) reads it."""

from typing import TypedDict


class MatchState(TypedDict):
    options: dict
    """The match options (DEFAULT_CONFIG filled in)."""
    statuses: dict[str, dict]
    """Every status the match knows: key -> {"name", "stat"} (+ "table": True for a table's own)."""
    players: list[dict[str, int]]
    """Per seat, card counts by zone (zones.ZONES: deck, hand, discard, removed); a zone is named by a variable."""
    units: list[dict]
    """Units in play: id, seat, name, base and mods per stat, damage, statuses, accessories."""
    next_unit: int
    """The id the next unit entering play gets."""
    turn: int
    """Whose turn it is (seat)."""
    turn_number: int
    """Counts turns from 1."""
    phase: str
    """"main", "end" (end-of-turn Resist rolls, then the draw) or "over"."""
    resisted: list[int]
    """Units that have rolled their end-of-turn Resist in this end step."""
    winner: int | None
    """The winning seat once the match is over (None for a draw)."""
    ended: str | None
    """How it ended: "deck-out" or "declared"; None while it goes on."""
