"""Who attacks: the class triangle, then SPEED, else a Deadlock.

MATTER beats ENERGY, ENERGY beats INFORMATION, INFORMATION beats MATTER; every class
beats Neutral and Life beats every class. The winner of that comparison attacks.

Two cards of the same class compare SPEED and the faster attacks; equal SPEED is a
Deadlock. Decision: Life against Life and Neutral against Neutral are "same class"
like any other pair, so SPEED decides them too (the rulebook's same-class rule names
no exception, and neither special class says it beats itself).

The comparison uses each card's current colour, so a Color Change can turn it round.
"""

from .cards import COLOUR_CLASS

_TRIANGLE = {"MATTER": "ENERGY", "ENERGY": "INFORMATION", "INFORMATION": "MATTER"}


def beats(mine: str, theirs: str) -> bool:
    """Whether a card of class `mine` attacks a card of another class `theirs`."""
    if mine == "Life" or theirs == "Neutral":
        return theirs != mine
    if mine == "Neutral" or theirs == "Life":
        return False
    return _TRIANGLE[mine] == theirs


def direction(colours: list[str | None], speeds: list[int | None]) -> dict:
    """The battle's direction from the two cards' current colours and their SPEED.

    A seat without a card (defenceless) is None in both lists. Returns
    {"attacker": seat or None, "by": "class" | "speed" | "defenceless" | "deadlock" | "no-cards"}.
    """
    present = [seat for seat in (0, 1) if colours[seat] is not None]
    if not present:
        return {"attacker": None, "by": "no-cards"}
    if len(present) == 1:
        return {"attacker": present[0], "by": "defenceless"}
    classes = [COLOUR_CLASS[colour] for colour in colours if colour is not None]
    if classes[0] != classes[1]:
        return {"attacker": 0 if beats(classes[0], classes[1]) else 1, "by": "class"}
    speed_0, speed_1 = (speed or 0 for speed in speeds)  # both cards are in battle, so both have a SPEED
    if speed_0 == speed_1:
        return {"attacker": None, "by": "deadlock"}
    return {"attacker": 0 if speed_0 > speed_1 else 1, "by": "speed"}
