"""What an engine marked for translation (rules.errors.gettext_noop: a refusal's template, a score in words, an
AI's reason), in the reader's language and in the context of its game.

makemessages gives every message of a game's engine package (rules/<game>/) the game's slug as context, in the
game's catalogue (tracker/management/commands/makemessages.py); the shared parts of rules/ (rules/options.py,
rules/dice.py) keep theirs in the shared catalogue, without one.
"""

import sys

from django.utils.translation import gettext, pgettext

import rules
from rules import RuleError


def engine_message(slug: str | None, template: str) -> str:
    """A message an engine marked (rules.errors.gettext_noop): in the game's context, which its catalogue gives
    every message of the game's engine package, else (a shared part of rules/) in the shared catalogue."""
    said = pgettext(slug, template) if slug else template
    return said if said != template else gettext(template)


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
