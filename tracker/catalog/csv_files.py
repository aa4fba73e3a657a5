"""A game's card catalog as CSV: one row a card, one column a field of the game's card form.

Every row is checked by the same form (and so the same engine validation) as a card
added by hand. A wrong row (bad stats, a name twice) stops the whole file: nothing is
stored and each wrong row is reported with its line number, since a file with a typo is
likely to hold more. A name already in the catalog gets the row's stats (so an exported,
edited file can be imported back) if the importer may change that card
(tracker/catalog/changes.py). A row that would change a card they may not is refused on
its own, named with its line and why, and the rest of the file is stored: sharing a
catalog file must not need every protected card taken out of it by hand first. Every
change made is recorded as an edit by hand would be.

A spreadsheet runs a cell that starts with =, +, -, @, a tab or a carriage return as a
formula, so the export starts such cells with an apostrophe (the spreadsheet's own "this
is text" mark), and the import takes it off again: an exported file imports back exactly.
"""

import csv
import io
from typing import NamedTuple

from django.db import transaction
from django.utils.translation import gettext as _

from tracker.catalog import changes as card_changes
from tracker.catalog.changes import CardRefused, Editor, card_add, card_edit
from tracker.games import pages_for
from tracker.matches import names
from tracker.models import Card, hold_names

MAX_BYTES = 1024 * 1024
MAX_ROWS = 5000


class CatalogFileError(Exception):
    """A CSV file that cannot be imported; `problems` lists every wrong row."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("; ".join(problems))


def columns(slug: str) -> list[str]:
    """The fields of the game's card form, including those it adds as it is built."""
    return list(pages_for(slug).card_form().fields)


def as_row(slug: str, card: dict) -> dict:
    """A card as its form's data: games whose cards hold lists or effects say how (card_initial)."""
    return pages_for(slug).card_initial(card)


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
TEXT_MARK = "'"


def as_text_cell(value):
    """A cell no spreadsheet runs as a formula. A cell that already starts with the mark gets
    another, so that taking one off on import always gives the value back."""
    if isinstance(value, str) and value.startswith((*FORMULA_STARTS, TEXT_MARK)):
        return TEXT_MARK + value
    return value


def from_text_cell(value: str) -> str:
    """The value as_text_cell wrote; a cell typed by hand with a lone apostrophe keeps it."""
    if value.startswith(TEXT_MARK) and value[1:].startswith((*FORMULA_STARTS, TEXT_MARK)):
        return value[1:]
    return value


def export_csv(slug: str) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns(slug), extrasaction="ignore")
    writer.writeheader()
    for card in Card.objects.filter(slug=slug).order_by("name"):
        writer.writerow({key: as_text_cell(value) for key, value in as_row(slug, card.as_rules_card()).items()})
    return out.getvalue()


def _rows(slug: str, raw: bytes) -> list[tuple[int, dict]]:
    if len(raw) > MAX_BYTES:
        raise CatalogFileError([_("The file is larger than %(kb)s KB.") % {"kb": MAX_BYTES // 1024}])
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise CatalogFileError([_("The file is not UTF-8 text.")]) from error
    reader = csv.DictReader(io.StringIO(text))
    try:
        header = reader.fieldnames or []
    except csv.Error as error:
        raise CatalogFileError([_("The file is not valid CSV (%(error)s).") % {"error": error}]) from error
    if not header:
        raise CatalogFileError([_("The file is empty.")])
    missing = [name for name in columns(slug) if name not in header]
    if missing:
        raise CatalogFileError([_("Missing columns: %(names)s.") % {"names": ", ".join(missing)}])
    try:
        rows = [(reader.line_num, row) for row in reader]  # line_num counts blank lines too
    except csv.Error as error:
        raise CatalogFileError([_("The file is not valid CSV (%(error)s).") % {"error": error}]) from error
    if len(rows) > MAX_ROWS:
        raise CatalogFileError([_("At most %(n)s cards per file.") % {"n": MAX_ROWS}])
    return rows


class Imported(NamedTuple):
    added: int
    updated: int
    refused: list[str]  # "Line 3: why", one per row that would change a card (or take a name) the importer may not


@transaction.atomic
def import_csv(slug: str, raw: bytes, editor: Editor) -> Imported:
    """Add or update the file's cards, or none if a row is wrong.

    New cards are the editor's; a row that would change a card the editor may not change
    is left out and named in `refused`.
    """
    pages = pages_for(slug)
    problems, new, changed, refused, seen = [], [], [], [], set()
    # The catalog read once, by look (names.look: folded, and a look-alike is the same name): a name with a letter
    # outside ASCII is otherwise found by reading every card of the game (Card.named), once a row and again as it
    # is added, while the transaction holds the writes of everyone (1,000 such rows took 28 s; 3,000 held a served
    # SQLite database for three minutes).
    catalog = {names.look(card.name): card for card in Card.objects.filter(slug=slug)}
    for line, row in _rows(slug, raw):
        form = pages.card_form({key: from_text_cell((value or "").strip()) for key, value in row.items() if key})
        if not form.is_valid():
            errors = "; ".join(f"{field}: {' '.join(map(str, messages))}" if field != "__all__" else " ".join(map(str, messages))
                               for field, messages in form.errors.items())
            problems.append(_("Line %(line)s: %(errors)s") % {"line": line, "errors": errors})
            continue
        card = form.cleaned_data
        if names.look(card["name"]) in seen:
            problems.append(_("Line %(line)s: %(name)s appears twice in the file.") % {"line": line, "name": card["name"]})
        seen.add(names.look(card["name"]))
        existing = catalog.get(names.look(card["name"]))
        if existing is None:
            if why := card_changes.name_refusal(editor, slug, card["name"]):
                refused.append(_("Line %(line)s: %(why)s") % {"line": line, "why": why})
            else:
                new.append((line, card))
        elif existing.stats != pages.card_stats(card):
            if why := card_changes.refusal(editor, existing):
                refused.append(_("Line %(line)s: %(why)s") % {"line": line, "why": why})
            else:
                changed.append((line, existing, pages.card_stats(card)))
    if problems:
        raise CatalogFileError(problems)
    # Someone may have added or played a card since the checks above; then the whole file waits. The new names are
    # held first (all at once, in one order: models.hold_names) and the catalog read again, so a card added by
    # another phone meanwhile, in any spelling drawn alike, is found, and none can be added until this commits.
    if new:
        hold_names(card_changes.CARD_NAMES, [card["name"] for _line, card in new])
        catalog = {names.look(card.name): card for card in Card.objects.filter(slug=slug)}
    for line, card in new:
        try:
            added = card_add(editor, slug, card["name"], pages.card_stats(card), catalog)
            catalog[names.look(added.name)] = added
        except CardRefused as late:
            raise CatalogFileError([_("Line %(line)s: %(why)s") % {"line": line, "why": late}]) from late
    for line, existing, stats in changed:
        try:
            # As read above: a card renamed or corrected on another phone since refuses the file (card_edit's
            # `drawn`), which would otherwise quietly undo that change.
            card_edit(editor, existing.pk, existing.name, stats, drawn=card_changes.drawn_as(existing.name,
                                                                                            existing.stats))
        except CardRefused as late:
            raise CatalogFileError([_("Line %(line)s: %(why)s") % {"line": line, "why": late}]) from late
    return Imported(len(new), len(changed), refused)
