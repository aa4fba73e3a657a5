"""The combo counter: three panels per player, the newest colour on the left.

After a battle the colour a card ends the round with enters the leftmost panel and
pushes the others one step right; what falls off the third panel is gone (the
rulebook's "Last In-First Out"). So at the start of a round the left panel holds the
colour played one round ago, the middle two rounds ago, the right three rounds ago.

A card is playable when each panel of its combo indicator is grey or names exactly
the colour in the same panel of its owner's counter. An empty counter panel matches
only grey.

Decision (the rulebook is silent on whose counter it is): each player has their own,
fed by their own card. "Destroy Combo" resets "the Combo-Counter of the targeted
player", which only makes sense if there is one per player.
"""

from ..errors import IllegalAction, Word, gettext_noop
from .cards import GREY, PANELS


def pushed(counter: list[str], colours: list[str]) -> list[str]:
    """The counter after these colours entered it, one after the other, from the left."""
    for colour in colours:
        counter = [colour] + counter
    return counter[:PANELS]


def failing_panel(indicator: list[str], counter: list[str]) -> int | None:
    """The first panel (1 to 3) where the indicator asks for a colour the counter lacks, or None."""
    for number, wanted in enumerate(indicator, start=1):
        shown = counter[number - 1] if number <= len(counter) else None
        if wanted != GREY and wanted != shown:
            return number
    return None


def check_playable(card: dict, counter: list[str], seat: int) -> None:
    """Raise `IllegalAction` naming the panel when the card's combo requirement is not met."""
    panel = failing_panel(card["combo"], counter)
    if panel is None:
        return
    shown = counter[panel - 1] if panel <= len(counter) else None
    if shown is None:
        raise IllegalAction(
            "combo-unmatched",
            gettext_noop("%(card)s cannot be played: combo panel %(panel)s needs %(wanted)s, "
                         "and that panel of %(seat)s's combo counter is empty."),
            card=card["name"],
            panel=panel,
            wanted=Word(card["combo"][panel - 1]),
            seat=seat,
        )
    raise IllegalAction(
        "combo-unmatched",
        gettext_noop("%(card)s cannot be played: combo panel %(panel)s needs %(wanted)s, "
                     "but %(seat)s's combo counter shows %(shown)s there."),
        card=card["name"],
        panel=panel,
        wanted=Word(card["combo"][panel - 1]),
        shown=Word(shown),
        seat=seat,
    )
