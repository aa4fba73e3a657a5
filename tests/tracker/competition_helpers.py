"""Shared helpers of the competition page tests: battles played to the end through the services."""

from datetime import datetime

from tracker.matches import services
from tracker.models import Match

from .conftest import lock_both, play_out

# In the demo catalog the first deck beats the second 3-1 (see tests/browser/test_card_crush_battle.py).
WINNING_DECK = ["Ember Fox", "Phoenix", "Mountain Titan", "Void Lord", "Gale Sprite"]
LOSING_DECK = ["Tide Runner", "Flame Knight", "Stone Golem", "Shade Rat", "Sky Lancer"]


def battle(winner: str, loser: str, when: datetime | None = None, rated: bool = True, club=None) -> Match:
    """A finished open-play battle `winner` won in `club`, first finished at `when` (now by default)."""
    match = services.match_create(slug="card-crush", player_names=[winner, loser], config={}, club=club)
    return finish(match, winner_seat=0, when=when, rated=rated)


def finish(match: Match, winner_seat: int, when: datetime | None = None, rated: bool = True) -> Match:
    """Lock decks so `winner_seat` wins, play it out, and date it."""
    decks = (WINNING_DECK, LOSING_DECK) if winner_seat == 0 else (LOSING_DECK, WINNING_DECK)
    match = play_out(lock_both(match, *decks))
    updates = {"rated": rated}
    if when is not None:
        updates["finished"] = updates["first_finished"] = when
    Match.objects.filter(pk=match.pk).update(**updates)
    match.refresh_from_db()
    return match
