"""The Affinity Wheel of Card Crush.

The rulebook prints the wheel as a 9x9 table. Reading it shows a pattern: with the
affinities in the rulebook's order, the bonus depends only on how many steps round
the wheel the opponent's affinity lies after yours. One step after yours: +3, two:
+2, three or four: +1, and the mirror image as penalties. We compute from that
pattern; tests/rules/test_card_crush.py checks all 81 cells against the printed table.
"""

from ..errors import gettext_noop

# Marked, so each has German in Card Crush's catalogue (a page says it in the game's words: errors.Word).
AFFINITIES = (gettext_noop("Air"), gettext_noop("Earth"), gettext_noop("Lightning"), gettext_noop("Water"),
              gettext_noop("Fire"), gettext_noop("Ice"), gettext_noop("Nature"), gettext_noop("Light"),
              gettext_noop("Shadow"))

# Wheel value by steps from your affinity to the opponent's (0 = same affinity).
_BY_STEPS = (0, 3, 2, 1, 1, -1, -1, -2, -3)


def wheel_value(yours: str, theirs: str) -> int:
    """The wheel's cell for your affinity against theirs, from -3 to +3."""
    steps = (AFFINITIES.index(theirs) - AFFINITIES.index(yours)) % len(AFFINITIES)
    return _BY_STEPS[steps]


def affinity_bonus(yours: str, theirs: str) -> int:
    """Your card's Affinity Bonus: the wheel's value when positive, otherwise 0."""
    return max(0, wheel_value(yours, theirs))
