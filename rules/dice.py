"""The one source of chance for a match.

Every roll of a match goes through a `Dice` made from the match seed and the step
number, so re-running the log gives the same rolls. A table may roll a real die
instead and tap the result: such values are passed in as `entered` and used first.
Either way each roll is recorded with who rolled it, and the tracker stores that
record beside the action.
"""

import hashlib
import random

from .errors import IllegalAction, gettext_noop


def _digest(*parts: object) -> bytes:
    return hashlib.sha256("|".join(str(p) for p in parts).encode()).digest()


def seed_fingerprint(seed: str) -> str:
    """A short hash of the seed, shown when a match starts so the seed can be checked later."""
    return hashlib.sha256(seed.encode()).hexdigest()[:12]


class Dice:
    """The dice for one step of one match."""

    def __init__(self, seed: str, step: int, entered: list[int] | None = None) -> None:
        self.seed = seed
        self.step = step
        self._rng: random.Random | None = None  # made at the first app roll: most steps roll nothing
        self._entered = list(entered or [])
        self.rolls: list[dict] = []
        """Every roll made so far: sides, value, who rolled ("app" or "player") and why."""

    def roll(self, sides: int, why: str) -> int:
        """Roll one die with `sides` faces: the next entered value if any, else the app's roll."""
        if self._entered:
            value = self._entered.pop(0)
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= sides:
                raise IllegalAction(
                    "die-value",
                    gettext_noop("A %(sides)s-sided die shows 1 to %(sides)s, not %(value)s."),
                    sides=sides,
                    value=value,
                )
            by = "player"
        else:
            if self._rng is None:
                self._rng = random.Random(int.from_bytes(_digest(self.seed, "step", self.step)))
            value = self._rng.randint(1, sides)
            by = "app"
        self.rolls.append({"sides": sides, "value": value, "by": by, "why": why})
        return value

    def flip(self, label: str) -> int:
        """A deterministic coin flip (0 or 1) from the match seed and a label alone.

        Unlike `roll`, the result does not depend on the step, so the same question
        ("who wins the coin flip of round 3?") always gets the same answer in a match.
        """
        value = _digest(self.seed, "flip", label)[0] & 1
        self.rolls.append({"sides": 2, "value": value, "by": "app", "why": label})
        return value
