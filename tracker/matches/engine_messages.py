"""What an engine marked for translation (rules.errors.gettext_noop: a refusal's template, a score in words, an
AI's reason), in the reader's language and in the context of its game.

makemessages gives every message of a game's engine package (rules/<game>/) the game's slug as context, in the
game's catalogue (tracker/management/commands/makemessages.py); the shared parts of rules/ (rules/options.py,
rules/dice.py) keep theirs in the shared catalogue, without one.
"""

import sys

from django.core.signals import setting_changed
from django.utils.autoreload import file_changed
from django.utils.functional import lazy
from django.utils.translation import get_language, gettext, pgettext
from django.utils.translation.trans_real import CONTEXT_SEPARATOR

import rules
from rules import RuleError
from rules.errors import Word


def engine_message(slug: str | None, template: str) -> str:
    """A message an engine marked (rules.errors.gettext_noop): in the game's context, which its catalogue gives
    every message of the game's engine package, else (a shared part of rules/) in the shared catalogue.

    Else only when the game's catalogue lacks it: a German the same as the English (Evons's "Remove", kept as the
    rulebook's) is the game's, not the shared catalogue's (the button "Remove", Entfernen)."""
    # pgettext answers a missing message with its English, as it answers one translated the same: gettext of the
    # key it looks up (context, separator, message) answers a missing one with that key.
    key = f"{slug}{CONTEXT_SEPARATOR}{template}"  # a name, not a literal: makemessages would take it for a message
    said = gettext(key) if slug else CONTEXT_SEPARATOR
    return said if CONTEXT_SEPARATOR not in said else gettext(template)


_KEPT: dict[tuple[str | None, str | None, str], str] = {}
"""(language, context, message) -> its translation: a game's narration asks the same few messages on every tap (a
Card Crush reveal twenty times: the words of each round's working, drawn for the board, the log entry and the
outcome box), each through the thread's translation and the merged catalogues; so does a template's
`{% translate %}` of a message held in a variable (tracker/templatetags/translated.py)."""
KEPT_MOST = 4096
"""A game's vocabulary is a few dozen words a language; a message may still come from a card: bounded."""


def kept_translation(context: str | None, message: str, language: str | None) -> str:
    """`pgettext(context, message)` (`gettext` without a context) in `language`, the thread's: kept per process and
    language, at most KEPT_MOST, all forgotten when more would be, or when the settings or a catalogue change."""
    key = (language, context, message)
    found = _KEPT.get(key)
    if found is None:
        if len(_KEPT) >= KEPT_MOST:
            _KEPT.clear()
        found = _KEPT[key] = pgettext(context, message) if context else gettext(message)
    return found


def kept_pgettext(context: str, message: str) -> str:
    """`pgettext(context, message)`, kept (`kept_translation`)."""
    return kept_translation(context, message, get_language())


def _forget(**_kwargs) -> None:
    _KEPT.clear()


def _forget_if_catalogue(sender: object, file_path, **_kwargs) -> None:
    if str(file_path).endswith(".mo"):
        _KEPT.clear()


setting_changed.connect(_forget)
file_changed.connect(_forget_if_catalogue)


def engine_word(slug: str, word: str) -> str:
    """A word of the game's vocabulary the engine names (an affinity, a colour, a stat: rules.errors.Word), in the
    game's words: from its own catalogue alone, never the shared one's, where the same English may mean something
    else (Card Crush's affinity "Light" is not the theme "Light", Evons's ability "Remove" not the button)."""
    if isinstance(word, Word) and len(word.parts) > 1:
        return ", ".join(kept_pgettext(slug, part) for part in word.parts)
    return kept_pgettext(slug, word)


engine_word_lazy = lazy(engine_word, str)
"""engine_word when the text is read: a form's label, made once for every language."""


def spoken(slug: str | None, value: object) -> object:
    """A value put into an engine's message, as the reader says it: a Word in the game's words, the rest as it is."""
    return engine_word(slug, value) if slug and isinstance(value, Word) else value


def game_of(error: RuleError) -> str | None:
    """The game whose engine package (rules/<game>/) the refusal was raised in: the innermost such frame of its
    traceback, so an option's range checked by the shared rules/options.py for Logos is Logos's."""
    packages = {}
    for slug, game in rules.GAMES.items():
        module = sys.modules[game.new_match.__module__]
        package = module.__package__ or ""
        packages[package if package != "rules" else module.__name__] = slug
    found, frame = None, error.__traceback__
    while frame is not None:
        module = frame.tb_frame.f_globals.get("__name__", "")
        found = next((slug for package, slug in packages.items()
                      if module == package or module.startswith(package + ".")), found)
        frame = frame.tb_next
    return found
