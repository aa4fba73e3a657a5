"""The log as a story: each applied action in words, with its dice and who rolled them."""

from django.utils.translation import gettext as _

from tracker.games import pages_for
from tracker.matches import services
from tracker.models import Match
from tracker.people import consent


def roll_text(roll: dict, pages) -> str:
    """One die as the log shows it: its value, its size, who rolled it, and what it decided (in the game's words)."""
    why = pages.roll_reason(roll["why"])
    if roll["by"] == "player":
        return _("Die rolled at the table: %(v)s on a d%(s)s (%(why)s)") % {"v": roll["value"], "s": roll["sides"], "why": why}
    if roll["sides"] == 2:
        return _("Coin flip from the seed: %(v)s (%(why)s)") % {"v": roll["value"], "why": why}
    return _("Rolled by the app from the seed: %(v)s on a d%(s)s (%(why)s)") % {"v": roll["value"], "s": roll["sides"], "why": why}


def log_entries(match: Match, actions=None) -> list[dict]:
    """Every action ever taken in the match (or just `actions`), oldest first, as a player reads it."""
    pages = pages_for(match.slug)
    names = [player.name for player in match.players()]
    entries = []
    for action in match.actions.select_related("proposal") if actions is None else actions:
        shown = services.as_shown(match, action)
        entries.append({
            "action": action,
            "shown": shown,
            "status": "abandoned" if action.abandoned else ("undone" if action.seq > match.head else "applied"),
            "what": pages.describe_action(shown, action.events, names),
            "lines": [line for line in (pages.describe(event, names) for event in action.events) if line],
            "rolls": [roll_text(roll, pages) for roll in action.rolls],
            "override": bool(action.payload.get("override")),
            "agreement": consent.agreement_of(action, names),
            "after_seed_shown": match.after_seed_shown(action),
        })
    return entries
