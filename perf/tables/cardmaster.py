"""A Cardmaster 3v3 match: both lineups locked on this phone, then every possession played out.

Each time the first card that can still move moves: mostly the strongest attack its gems
allow, on the weakest target (as a table would, so a match ends sooner), sometimes STACK,
SPC, a Shift or a revive, and a raided gem is deposited now and then. The app rolls the
percentile dice (the roll fields stay blank).
"""

import re

from .common import catalog_picks, enter, play_out, send, start_match
from .phone import Phone

ATTACKS = ("a1", "a2", "a3")
OTHER_RATE = 0.15  # share of moves that are not attacks
DEPOSIT_RATE = 0.2


def play(phone: Phone, table: int, number: int) -> None:
    match = start_match(phone, "cardmaster", table, number, size=3)
    if match is None:
        return
    for seat in (0, 1):
        enter(phone, match, seat, lineup)
    play_out(phone, match, turns(phone, lambda form, data, move: send(phone, match, form, data, move, None)))


def turns(phone: Phone, post):
    """What the phone does at each look at the board (play_out's `turn`): the first card that can
    still move moves; `post(form, data, move)` sends it and returns the answer's status."""
    refused = False

    def turn(page: str, forms) -> bool:
        nonlocal refused
        # A card's form has its move buttons while it may still move; a moved card keeps only "deposit".
        forms = sorted((form for form in forms if form.button_values()),
                       key=lambda form: form.button_values() == ["deposit"])
        if not forms:
            return False  # the match is won
        form = forms[0]
        move = _move(phone, form.button_values(), plain=refused)
        changes = {"target": _weakest(page, form.choices["target"])} if "target" in form.choices else {}
        refused = post(form, form.data(button=("action", move), **changes), move) == 422
        return True

    return turn


def _move(phone: Phone, moves: list[str], plain: bool) -> str:
    """Which enabled button to press; `plain` (after a refusal) keeps to A1 or STACK, always allowed."""
    attacks = [move for move in moves if move in ATTACKS]
    others = [move for move in moves if move not in ATTACKS and move != "deposit"]
    if plain:
        return next((move for move in ("a1", "stack") if move in moves), moves[0])
    if "deposit" in moves and (phone.rng.random() < DEPOSIT_RATE or moves == ["deposit"]):
        return "deposit"
    if others and (not attacks or phone.rng.random() < OTHER_RATE):
        return phone.rng.choice(others)
    return max(attacks)  # A3 hits hardest, then A2; A1 is always there and free


def _weakest(page: str, targets: list[str]) -> str:
    """The target with the fewest HP left, as the target list on the page says ("HP 420")."""
    def hp(target: str) -> int:
        found = re.search(rf'name="target" value="{target}"[^>]*>[^<]*<span[^>]*>HP (\d+)', page)
        return int(found.group(1)) if found else 0
    return min(targets, key=hp)


def lineup(phone: Phone, form, page: str, attempt: int) -> tuple[dict, str]:
    """A lineup of catalog cards for the entry page's form (tables/showdown.py locks its own with it too)."""
    return form.data(**catalog_picks(phone, form, page, "card_")), "lock_lineup"
