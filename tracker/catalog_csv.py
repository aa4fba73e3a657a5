"""A game's card catalog as CSV: one row a card, one column a field of the game's card form.

Importing is all or nothing: every row is checked by the same form (and so the same
engine validation) as a card added by hand, and if any row is wrong nothing is stored
and each wrong row is reported with its line number. A name already in the catalog
gets the row's stats (so an exported, edited file can be imported back).
"""

import csv
import io

from django.db import transaction
from django.utils.translation import gettext as _

from .games import pages_for
from .models import Card

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


def export_csv(slug: str) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns(slug), extrasaction="ignore")
    writer.writeheader()
    for card in Card.objects.filter(slug=slug).order_by("name"):
        writer.writerow(as_row(slug, card.as_rules_card()))
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


@transaction.atomic
def import_csv(slug: str, raw: bytes) -> tuple[int, int]:
    """Add or update every card in the file, or none; returns (added, updated)."""
    pages = pages_for(slug)
    problems, cards, seen = [], [], set()
    for line, row in _rows(slug, raw):
        form = pages.card_form({key: (value or "").strip() for key, value in row.items() if key})
        if not form.is_valid():
            errors = "; ".join(f"{field}: {' '.join(map(str, messages))}" if field != "__all__" else " ".join(map(str, messages))
                               for field, messages in form.errors.items())
            problems.append(_("Line %(line)s: %(errors)s") % {"line": line, "errors": errors})
            continue
        card = form.cleaned_data
        if card["name"].casefold() in seen:
            problems.append(_("Line %(line)s: %(name)s appears twice in the file.") % {"line": line, "name": card["name"]})
        seen.add(card["name"].casefold())
        cards.append(card)
    if problems:
        raise CatalogFileError(problems)
    added = updated = 0
    for card in cards:
        existing = Card.named(slug, card["name"])
        if existing is None:
            Card.objects.create(slug=slug, name=card["name"], stats=pages.card_stats(card))
            added += 1
        elif existing.stats != pages.card_stats(card):
            existing.stats = pages.card_stats(card)
            existing.save(update_fields=["stats"])
            updated += 1
    return added, updated
