"""Cardmaster pages: the catalog card form, the match options, the hot-seat lineup entry
and the board where each possession is played. See tracker/games/__init__.py for the contract."""

import re

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _, gettext_lazy

from rules.cardmaster.fighters import BOOSTABLE
from rules.cardmaster.match import phase

from ...models import Card, Match
from .board import board
from .demo import DEMO_CARDS
from .forms import CardForm, ConfigForm, LineupForm, card_stats
from .narrate import describe, describe_action
from .stats import figures, progress

SLUG = "cardmaster"
BOARD_TEMPLATE = "games/cardmaster/board.html"
ENTRY_TEMPLATE = "games/cardmaster/entry.html"
NEW_MATCH_NOUN = gettext_lazy("Custom Match")

MOVES = ("a1", "a2", "a3", "stack", "spc", "revive", "shift", "deposit")
CARD_ID = re.compile(r"[AB][1-9]")
COUNTER = re.compile(r"[0-9]{1,6}")  # the engine checks the range; this only keeps junk out


def entry_form(match: Match, data=None, seat: int | None = None) -> LineupForm:
    catalog = {card.name.casefold(): card for card in Card.objects.filter(slug=SLUG)}
    return LineupForm(data, size=match.state["config"]["size"], catalog=catalog)


def entry_action(form: LineupForm, seat: int) -> dict:
    return {"type": "lock_lineup", "seat": seat, "cards": form.cleaned_data["cards"]}


def seats_to_enter(match: Match) -> list[int]:
    """Seats whose lineup is still awaited (only before the first round)."""
    if phase(match.state) != "lineup":
        return []
    return [seat for seat, locked in enumerate(match.state["lineups"]) if not locked]


def acting_seat(match: Match, action: dict) -> int | None:
    """Whose move this is: the owner of the card that moves (a move names a card, not a seat).

    On a second phone a seated player may only move their own cards; the engine then refuses
    a move of theirs made outside their possession.
    """
    card = match.state["cards"].get(action.get("card"))
    if card:
        return card["seat"]
    return action.get("seat") if action.get("type") == "adjust" else None


def _card_id(post, field: str, message: str) -> str:
    value = post.get(field, "")
    if not CARD_ID.fullmatch(value):
        raise ValidationError(message)
    return value


def table_action(match: Match, post) -> dict:
    """The move a board button asks for; malformed fields are refused before the engine sees them."""
    kind = post.get("action", "")
    if kind == "adjust":
        return _adjustment(post)
    if kind not in MOVES:
        raise ValidationError(_("Choose a move: A1, A2, A3, STACK, SPC, REVIVE, Shift or deposit."))
    action = {"type": kind, "card": _card_id(post, "card", _("Choose which of your active cards moves."))}
    if kind in ("a1", "a2", "a3"):
        action["target"] = _card_id(post, "target", _("Choose a target to attack."))
    elif kind == "revive":
        action["target"] = _card_id(post, "ally", _("Choose a fallen ally to revive."))
    elif kind == "shift":
        action["reserve"] = _card_id(post, "reserve", _("Choose the reserve card to shift in."))
    elif kind == "spc":
        if post.get("stat") not in BOOSTABLE:
            raise ValidationError(_("Choose the stat SPC boosts: SPD, HP, DEF or ATK."))
        action["stat"] = post["stat"]
    rolls = [value.strip() for value in post.getlist("roll")]
    if "" in rolls and any(rolls[rolls.index(""):]):
        raise ValidationError(_("Enter the backfire roll before the status roll, or leave both blank."))
    return action


def _adjustment(post) -> dict:
    """A manual override from the board's correction forms: a card's HP or stacked gems, or a raided pool."""
    what, value = post.get("what", ""), post.get("value", "").strip()
    if what not in ("hp", "gems", "raided"):
        raise ValidationError(_("Choose what to correct: HP, stacked gems or a raided pool."))
    if not COUNTER.fullmatch(value):
        raise ValidationError(_("The new value must be a whole number, 0 or more; nothing was applied."))
    if what == "raided":
        if post.get("seat") not in ("0", "1"):
            raise ValidationError(_("Choose whose raided pool to correct."))
        return {"type": "adjust", "override": True, "seat": int(post["seat"]), "raided": int(value)}
    card = _card_id(post, "card", _("Choose which card to correct."))
    return {"type": "adjust", "override": True, "card": card, what: int(value)}


__all__ = [
    "BOARD_TEMPLATE", "DEMO_CARDS", "ENTRY_TEMPLATE", "NEW_MATCH_NOUN", "CardForm", "ConfigForm", "acting_seat", "board",
    "card_stats", "describe", "describe_action", "entry_action", "entry_form", "figures", "progress", "seats_to_enter",
    "table_action",
]
