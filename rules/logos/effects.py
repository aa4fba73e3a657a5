"""Card effects: the defender's fire first, then the attacker's; left field before right.

The left field targets the opponent, the right field the card's owner. An effect on
a card (Maximize, Minimize, Swap Values, Berserk, Color Change) acts on the targeted
player's card in battle; the others act on the player.

Temporary effects are a state of the round, not a one-off event, so every time the
effects are processed the two cards start again from their printed values and every
temporary effect is applied again in order. Permanent effects happen once: they fire
only from a card that has just come into battle (at the reveal, or a backup card
when it is called). That is what "effects re-processed" means after a backup call:
the staying card's temporary effects apply to the new situation, its permanent
ones (a heal, a destroyed combo) are not done twice.

Decisions where the rulebook is silent:
- When the direction is recalculated after a Color Change: once, after every effect
  has fired. The order of firing is fixed by the direction at the reveal ("the battle
  direction is determined. At this point, all effects get activated"); switching
  defender and attacker halfway would let one card fire twice or not at all.
- Order inside one card: the left field, then the right field (reading order).
- Order after a backup call when the printed cards are deadlocked: there is neither
  defender nor attacker, so the first player's card fires first.
- Regeneration heals by the ATTACK + DEFENSE the card holding it has at that moment
  (after earlier Maximize, Swap, ...). When copied by Mimmick, the Mimmick card's
  values count, since that is the card activating it. Healing stops at the starting
  HP unless the match option lets it go above (tables differ; the book only says "heal").
- Remove Card Slot never leaves a player with fewer than 1 slot: with none, no card
  could ever be played again.
- Mimmick copies the effect in the same field of the opponent's card and fires it
  from its own field, at its own target. A Mimmick facing a Mimmick (or an empty
  field, or no card) copies nothing: copying a copy would go round forever.
- A copied permanent effect is permanent: it fires only from a card new to battle.
- Neutralize resets the shielded player's card to its printed values and clears a
  pending Double Combo for them ("cancels all his active temporary effects"), then
  blocks every later effect aimed at them this round, permanent or temporary,
  including those of a backup card called later. It does not stop the player calling
  their own backup: it blocks effects, and a backup call is not an effect.
- Berserk's threshold is the rulebook's fixed 25,000 HP (under it, not at it), also
  when a match starts with another HP total.
"""

from typing import TYPE_CHECKING

from .cards import PERMANENT_EFFECTS
from .direction import direction

if TYPE_CHECKING:  # the state's type only: duel.py imports this module
    from .duel import Duel

BERSERK_BELOW = 25_000
MIN_SLOTS = 1


def berserk_ready(hp: int) -> bool:
    """Whether a player at `hp` is low enough for Berserk to double their card's values."""
    return hp < BERSERK_BELOW


def reset_values(table: dict) -> None:
    """Both cards back to their printed ATTACK, DEFENSE and colour; no Double Combo pending."""
    table["values"] = [
        {"attack": card["attack"], "defense": card["defense"], "colour": card["colour"]} if card else None
        for card in table["cards"]
    ]
    table["double_combo"] = [False, False]


def in_battle(state: "Duel") -> dict:
    """The cards in battle and their current values: set from the reveal until the round is filed."""
    table = state["table"]
    assert table is not None, "the cards in battle are read only in the battle phase"
    return table


def current_direction(table: dict) -> dict:
    values = table["values"]
    return direction(
        [v["colour"] if v else None for v in values],
        [card["speed"] if card else None for card in table["cards"]],
    )


def firing_order(table: dict) -> list[int]:
    """Seats whose cards fire, defender first (by the cards as printed)."""
    found = current_direction(table)
    if found["by"] == "no-cards":
        return []
    if found["by"] == "defenceless":
        return [found["attacker"]]
    if found["attacker"] is None:
        return [0, 1]
    return [1 - found["attacker"], found["attacker"]]


def process(state: "Duel") -> list[dict]:
    """Fire every effect of the two cards in battle; returns the working, one step per effect."""
    table = in_battle(state)
    reset_values(table)
    events = []
    for seat in firing_order(table):
        card = table["cards"][seat]
        for side in ("left_effect", "right_effect"):
            if card[side] is not None:
                target = 1 - seat if side == "left_effect" else seat
                events += _fire(state, card[side], seat, side, target, via=None)
    table["new"] = [False, False]
    return events


def _fire(state: "Duel", effect: dict, seat: int, side: str, target: int, via: str | None) -> list[dict]:
    table = in_battle(state)
    name = effect["name"]
    step = {"type": "effect", "seat": seat, "side": side, "effect": name, "target": target, "via": via}
    if name == "color-change":
        step.update({"from": effect["from"], "to": effect["to"]})
    if name in PERMANENT_EFFECTS and not table["new"][seat]:
        return [{**step, "outcome": "already-fired"}]
    if table["shield"][target]:
        return [{**step, "outcome": "blocked"}]
    if name == "mimmick":
        opposite = table["cards"][1 - seat]
        copied = opposite[side] if opposite else None
        if copied is None or copied["name"] == "mimmick":
            return [{**step, "outcome": "nothing-to-copy"}]
        return [{**step, "outcome": "copies", "copied": copied["name"]}] + _fire(
            state, copied, seat, side, target, via="mimmick"
        )
    if name == "color-change":
        return [{**step, **_color_change(state, effect, target)}]
    return [{**step, **_EFFECTS[name](state, seat, target)}]


# Each effect: change the state, return what the working should show ("outcome" and numbers).


def _add_card_slot(state, seat, target):
    before = state["slots"][target]
    state["slots"][target] += 1
    return {"outcome": "applied", "before": before, "after": before + 1}


def _remove_card_slot(state, seat, target):
    before = state["slots"][target]
    if before <= MIN_SLOTS:
        return {"outcome": "no-change", "before": before, "after": before}
    state["slots"][target] -= 1
    return {"outcome": "applied", "before": before, "after": before - 1}


def _regeneration(state, seat, target):
    values = in_battle(state)["values"][seat]
    amount = values["attack"] + values["defense"]
    before = state["hp"][target]
    after = before + amount
    capped = state["config"]["heal_above_start"] is False and after > state["config"]["starting_hp"]
    if capped:
        after = max(before, state["config"]["starting_hp"])
    state["hp"][target] = after
    return {"outcome": "applied", "amount": amount, "before": before, "after": after, "capped": capped}


def _shuffle_hand(state, seat, target):
    return {"outcome": "applied"}


def _destroy_combo(state, seat, target):
    before = state["combo"][target]
    state["combo"][target] = []
    return {"outcome": "applied" if before else "no-change", "before": before}


def _destroy_backup(state, seat, target):
    card = state["backup"][target]
    state["backup"][target] = None
    return {"outcome": "applied" if card else "no-change", "card": card["name"] if card else None}


def _neutralize(state, seat, target):
    table = in_battle(state)
    card, values = table["cards"][target], table["values"][target]
    printed = {"attack": card["attack"], "defense": card["defense"], "colour": card["colour"]} if card else None
    cancelled = values != printed or table["double_combo"][target]
    table["shield"][target] = True
    table["values"][target] = printed
    table["double_combo"][target] = False
    return {"outcome": "applied", "cancelled": cancelled}


def _card_effect(change):
    """An effect on the targeted player's card: its ATTACK/DEFENSE before and after."""

    def fire(state, seat, target):
        values = in_battle(state)["values"][target]
        if values is None:
            return {"outcome": "no-card"}
        before = [values["attack"], values["defense"]]
        after = change(state, target, *before)
        if after is None:
            return {"outcome": "no-change", "before": before, "hp": state["hp"][target]}
        values["attack"], values["defense"] = after
        return {"outcome": "applied" if after != before else "no-change", "before": before, "after": after}

    return fire


def _berserk(state, target, attack, defense):
    if not berserk_ready(state["hp"][target]):
        return None
    return [attack * 2, defense * 2]


def _double_combo(state, seat, target):
    in_battle(state)["double_combo"][target] = True
    return {"outcome": "applied"}


def _color_change(state, effect, target):
    values = in_battle(state)["values"][target]
    if values is None:
        return {"outcome": "no-card"}
    before = values["colour"]
    if before != effect["from"]:
        return {"outcome": "no-change", "before": before}
    values["colour"] = effect["to"]
    return {"outcome": "applied", "before": before, "after": effect["to"]}


_EFFECTS = {
    "add-card-slot": _add_card_slot,
    "remove-card-slot": _remove_card_slot,
    "regeneration": _regeneration,
    "shuffle-hand": _shuffle_hand,
    "destroy-combo": _destroy_combo,
    "destroy-backup": _destroy_backup,
    "neutralize": _neutralize,
    "maximize": _card_effect(lambda state, target, a, d: [max(a, d)] * 2),
    "minimize": _card_effect(lambda state, target, a, d: [min(a, d)] * 2),
    "swap-values": _card_effect(lambda state, target, a, d: [d, a]),
    "berserk": _card_effect(_berserk),
    "double-combo": _double_combo,
}
