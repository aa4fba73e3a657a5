"""What the High Card Duel board shows: the score, the rounds revealed, and the reveal once both picked."""

from tracker.models import Match


def board(match: Match) -> dict:
    state = match.state
    return {"wins": state["wins"], "rounds": state["rounds"],
            "can_reveal": state["winner"] is None and None not in state["picks"]}
