"""Manual overrides: the table corrects counters when something happened that the engine cannot know.

A paper game always has effects outside the engine (a house rule, a misplayed gem, a card
text we do not model). The rulebook says nothing about corrections; these are our decisions:
- Three counters can be set, the ones the table keeps by hand: a card's HP, a card's
  stacked gems, and a team's raided pool. Every adjustment carries "override": true so the
  log marks it, and it uses no move and does not pass possession by itself.
- Either side may adjust at any time once both lineups are locked, as with a dispute settled
  at the table; on a seated phone a player adjusts only their own cards and pool.
- HP goes from 0 to the card's max HP (printed plus any SPC HP boost). 0 makes the card fall
  exactly as if knocked out by nobody: its stack is raided, a reserve card steps in (a reserve
  card set to 0 simply leaves the reserve), and the match ends if it was the side's last card. Above max HP is refused: nothing in the rules
  heals past it, so a higher number is a typo.
- A fallen card cannot be adjusted: REVIVE is how a card comes back.
- In a Showdown the AI's side is never corrected: the only player at the table would be both the
  one correcting and the one who gains, so the AI's cards and pool are the engine's alone.
- Gems and the raided pool go from 0 to 99: the rulebook sets no limit, and 99 is far
  beyond any real table, so anything larger is a typo.
"""

from ..errors import IllegalAction, gettext_noop
from .field import fall
from .fighters import max_hp, own_card
from .moves import card_in_play
from .options import ai_seat
from .state import MatchState

COUNTER_MAX = 99


def _number(value: object, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
        raise IllegalAction("adjust-range", gettext_noop("Enter a whole number from 0 to %(high)s, not %(value)r."),
                            high=high, value=value)
    return value


def _not_the_ai(state: MatchState, seat: int) -> None:
    if ai_seat(state["config"]) == seat:
        raise IllegalAction("adjust-ai", gettext_noop("The AI's cards and pool cannot be corrected in a Showdown."))


def adjust(state: MatchState, action: dict, dice) -> list[dict]:
    """Set one counter: {"card", "hp" | "gems"} or {"seat", "raided"}; the event keeps before and after."""
    if action.get("override") is not True:
        raise IllegalAction("override-only",
                            gettext_noop("Adjusting a counter is a manual override and must be marked as one."))
    if "raided" in action:
        seat = action.get("seat")
        if type(seat) is not int or seat not in (0, 1):
            raise IllegalAction("seat", gettext_noop("There is no seat %(value)r in this match."), value=seat)
        _not_the_ai(state, seat)
        team = state["teams"][seat]
        before, team["raided"] = team["raided"], _number(action["raided"], COUNTER_MAX)
        return [{"type": "adjusted", "seat": seat, "what": "raided", "before": before, "after": team["raided"]}]
    card = own_card(state, card_in_play(state, action.get("card"))["id"])
    _not_the_ai(state, card["seat"])
    if card["hp"] == 0:
        raise IllegalAction("adjust-fallen",
                            gettext_noop("%(card)s has fallen; only REVIVE brings it back."), card=card["name"])
    what = "hp" if "hp" in action else "gems" if "gems" in action else None
    if what is None:
        raise IllegalAction("adjust-what", gettext_noop("Say what to adjust: HP, stacked gems or the raided pool."))
    value = _number(action[what], max_hp(card) if what == "hp" else COUNTER_MAX)
    events = [{"type": "adjusted", "seat": card["seat"], "card": card["id"], "card_name": card["name"], "what": what,
               "before": card[what], "after": value}]
    card[what] = value
    if what == "hp" and value == 0:
        events += fall(state, card, None)
    return events
