"""The gem gamble: the baseline gem, the stack, paying for moves and the raided pool.

Rulebook: a living card always shows its baseline gem (1); STACK adds one on top;
A2 costs 2, A3 3 and REVIVE 4, paid from the stack "or raided pool", never from the
baseline ("A2 needs 3 displayed and leaves 1"). A card that falls with stacked gems
loses them to the opponent's raided pool; any active card of that team may spend
raided gems; during your possession you may deposit them onto an active card.

Decisions:
- Paying: the card's own stack is spent first, then the team's raided pool. The
  stack is what the enemy can raid, so spending it first keeps the gamble smaller.
- The stack has no upper limit and neither has the raided pool (the rulebook names none).
- The baseline gem vanishes when a card falls; only the stack is raided (rulebook).
- Depositing: one gem per action, onto any active card of the possessing team, even
  one that has already moved; it costs no move.
"""

from ..errors import IllegalAction, gettext_noop

COSTS = {"a2": 2, "a3": 3, "revive": 4}
STACK_GAIN = 1
"""Gems one STACK adds on top of the baseline."""
MOVE_LABELS = {"a1": "A1", "a2": "A2", "a3": "A3", "stack": "STACK", "spc": "SPC", "revive": "REVIVE", "shift": "Shift"}


def can_afford(card: dict, team: dict, move: str) -> bool:
    return card["gems"] + team["raided"] >= COSTS.get(move, 0)


def pay(card: dict, team: dict, move: str) -> dict:
    """Take the move's cost from the card's stack, then the raided pool; what was paid from where."""
    cost = COSTS.get(move, 0)
    if not can_afford(card, team, move):
        raise IllegalAction(
            "gems-short",
            gettext_noop(
                "%(move)s costs %(cost)s gems beyond the baseline (%(shown)s shown); %(card)s shows %(has)s "
                "and the raided pool holds %(raided)s."
            ),
            move=MOVE_LABELS[move],
            cost=cost,
            shown=cost + 1,
            card=card["name"],
            has=1 + card["gems"],
            raided=team["raided"],
        )
    from_stack = min(cost, card["gems"])
    card["gems"] -= from_stack
    team["raided"] -= cost - from_stack
    return {"cost": cost, "from_stack": from_stack, "from_raided": cost - from_stack}
