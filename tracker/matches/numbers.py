"""Numbers as the page's language writes them: 100,000 and 0.66 in English, 100.000 and 0,66 in German.

The engines never import Django, so the numbers they put into text (a refusal's limits, a
score, a damage factor) are written the English way; the pages rewrite them here.
"""

import re
from decimal import Decimal
from functools import lru_cache
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import get_language

from .engine_messages import engine_message

# A whole number with English thousands commas, as the engines write large numbers: 100,000.
ENGLISH_GROUPED = re.compile(r"\d{1,3}(?:,\d{3})+")
# A score of two numbers, "3-1" or "15,000-0".
NUMBER_SCORE = re.compile(r"(\d[\d,]*)-(\d[\d,]*)")


def grouped(value: int) -> str:
    """A whole number with the language's thousands separator: LOGOS HP 100,000 is 100.000 in German."""
    return number_format(value, force_grouping=True)


def decimal(text: str) -> str:
    """An engine's decimal ("0.66", "5.5") with the language's decimal mark: 0,66 in German."""
    return _decimal(text, get_language())


@lru_cache(maxsize=4096)
def _decimal(text: str, language: str | None) -> str:
    # A Cardmaster board writes some 180 factors, mostly the same few: formatting each anew was a
    # millisecond a page. `language` is the active one, which number_format reads.
    return number_format(Decimal(text))


def relocalized(text: str) -> str:
    """A number the engine grouped the English way ("100,000"), grouped the language's way; other text as it is."""
    return grouped(int(text.replace(",", ""))) if ENGLISH_GROUPED.fullmatch(text) else text


def shown_score(score: str, counted: Any = None, slug: str | None = None) -> str:
    """A match's score as the engine recorded it, in the page's language.

    Two numbers ("15,000-0") get the language's grouping and, given what they count (a game's
    `score_counted`), its words: "3 rounds to 2"; a score in words ("by resignation", marked for
    translation in the engine of game `slug`) is translated.
    """
    numbers = NUMBER_SCORE.fullmatch(score)
    if numbers:
        first, second = (int(part.replace(",", "")) for part in numbers.groups())
        if counted is None:
            return f"{grouped(first)}-{grouped(second)}"
        return str(counted % {"a": grouped(first), "b": grouped(second), "n": first})
    return engine_message(slug, score) if score else ""
