"""Django's makemessages with this project's settings, so `python manage.py makemessages` is the whole step.

German (-l de), every kind of file a message is marked in, no obsolete entries, locations by file, and the
folders that are not the app's left out. Each game's messages go to the game's own catalogue: what is in its
pages package (tracker/games/<game>/), its templates (games/<slug>/) or its engine package (rules/<game>/)
goes to `locale/` in its pages package, made with the shared catalogue's header the first time; everything
else (the shared parts of rules/ among it) to tracker/locale/.

The engines never import Django, so they mark their messages (a refusal's template, an AI's reason) with
rules.errors.gettext_noop, which has no context: in a game's catalogue every message without one is given
the game's slug, as its pages' messages carry it, and the web app translates them with it (services.explain).

And no fuzzy matching: gettext would fill a new message with the German of the nearest old one, from any
context, so a game's new "Value" would arrive as another game's "Swap Values". A new message arrives empty
instead, and tests/tracker/test_german.py and test_game_messages.py say which ones still need German.
"""

from pathlib import Path
from typing import cast

from django.conf import settings
from django.core.management.base import CommandError
from django.core.management.commands import makemessages
from django.core.management.commands.makemessages import STATUS_OK
from django.core.management.utils import popen_wrapper

from tracker.games import ADAPTERS, GamePages

IGNORED = [".venv", "static", "staticfiles", "tests", "var", "build"]
SHARED = Path(settings.LOCALE_PATHS[0])
NOTE = ("# One game's German: each message has the game's slug as context. The voice and the glossary are\n"
        "# in the shared catalogue's opening lines (tracker/locale/de/LC_MESSAGES/django.po).")


def game_folders(pages: GamePages) -> list[Path]:
    """The folders that hold a game's messages: its pages package, its templates and its engine package."""
    templates = [Path(folder).resolve() for engine in settings.TEMPLATES for folder in cast(list, engine["DIRS"])]
    return [pages.package, *(folder / "games" / pages.slug for folder in templates), pages.engine_package]


def in_context(pot: str, slug: str) -> str:
    """A game's extracted messages (a .pot's text) with the game's slug as the context of each that has none:
    the engine's, marked without one. The header (the empty msgid) stays as it is."""
    entries = pot.split("\n\n")
    for number, entry in enumerate(entries):
        lines = entry.split("\n")
        at = next((index for index, line in enumerate(lines) if line.startswith("msgid ")), None)
        header = lines[at:at + 2] == ['msgid ""', 'msgstr ""'] if at is not None else False
        if at is not None and not header and not any(line.startswith("msgctxt ") for line in lines):
            entries[number] = "\n".join([*lines[:at], f'msgctxt "{slug}"', *lines[at:]])
    return "\n\n".join(entries)


class Command(makemessages.Command):
    msgmerge_options = [*makemessages.Command.msgmerge_options, "--no-fuzzy-matching"]

    def handle(self, *args, **options):
        options["locale"] = options["locale"] or ["de"]
        options["extensions"] = options["extensions"] or ["html", "txt", "py", "js"]
        options["ignore_patterns"] = [*options["ignore_patterns"], *IGNORED]
        options["add_location"] = options["add_location"] or "file"
        options["no_obsolete"] = True
        return super().handle(*args, **options)

    def find_files(self, root):
        files = super().find_files(root)
        homes = [(folder, pages.locale) for pages in ADAPTERS.values() for folder in game_folders(pages)]
        for file in files:
            where = Path(file.dirpath).resolve()
            for folder, locale in homes:
                if where == folder or folder in where.parents:
                    file.locale_dir = str(locale)
                    if file.locale_dir not in self.locale_paths:  # a new game's first catalogue
                        self.locale_paths.append(file.locale_dir)
                    locale.mkdir(exist_ok=True)
        return files

    def write_po_file(self, potfile, locale):
        """A game's new catalogue starts from the shared one's header: its language and plural forms."""
        po = Path(potfile).parent / locale / "LC_MESSAGES" / f"{self.domain}.po"
        shared = SHARED / locale / "LC_MESSAGES" / f"{self.domain}.po"
        if po == shared and Path.cwd() != Path(settings.BASE_DIR):
            # Run elsewhere, makemessages would see only some of the shared messages and drop the rest.
            raise CommandError(f"Run makemessages in {settings.BASE_DIR}: it would empty the shared catalogue.")
        if not po.exists() and shared.exists() and po != shared:
            header = shared.read_text(encoding="utf-8").split("\n\n")[0]
            po.parent.mkdir(parents=True, exist_ok=True)
            po.write_text(f"{NOTE}\n{header[header.index('msgid'):]}\n", encoding="utf-8")
        super().write_po_file(potfile, locale)

    def build_potfiles(self):
        """Each game's messages as extracted, every one in the game's context; merged again after (msguniq), since
        an engine's message may be one its pages mark too."""
        potfiles = super().build_potfiles()
        for potfile in potfiles:
            slug = next((pages.slug for pages in ADAPTERS.values() if pages.locale == Path(potfile).parent.resolve()),
                        None)
            if slug is None:
                continue
            pot = Path(potfile)
            pot.write_text(in_context(pot.read_text(encoding="utf-8"), slug), encoding="utf-8")
            merged, errors, status = popen_wrapper(["msguniq", *self.msguniq_options, potfile])
            if status != STATUS_OK:
                raise CommandError(f"errors happened while running msguniq\n{errors}")
            pot.write_text(merged, encoding="utf-8")
        return potfiles
