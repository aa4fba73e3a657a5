"""The templates stay readable in a side-by-side diff (no line over 160 characters), and their
indentation, which the loader drops, carries no meaning.

A long sentence goes in `{% blocktranslate trimmed %}` over several lines (the message to
translate stays the same), and a long tag breaks between its attributes.
"""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

LONGEST = 160


def test_no_template_line_is_over_160_characters():
    too_long = [
        f"{path.relative_to(settings.BASE_DIR)}:{number} has {len(line)} characters"
        for path in sorted((Path(settings.BASE_DIR) / "templates").rglob("*"))
        if path.is_file()
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if len(line) > LONGEST
    ]
    assert not too_long, "\n".join(too_long)


def _templates():
    return [path for path in sorted((Path(settings.BASE_DIR) / "templates").rglob("*.html")) if path.is_file()]


def test_no_template_has_whitespace_that_shows_as_typed():
    """The loader drops every line's indentation (tracker/web/templating.py): that must change nothing shown."""
    as_typed = re.compile(r"<pre\b|<textarea\b|white-space:\s*pre", re.IGNORECASE)
    untrimmed = re.compile(r"{%\s*blocktranslate\b(?![^%]*\btrimmed\b)[^%]*%}(?:(?!{%\s*endblocktranslate).)*\n",
                           re.DOTALL)
    found = [f"{path.relative_to(settings.BASE_DIR)}: {hit.group(0)[:60]!r}" for path in _templates()
             for pattern in (as_typed, untrimmed) for hit in pattern.finditer(path.read_text())]
    assert not found, "\n".join(found)


@pytest.mark.django_db
def test_pages_reach_the_phone_without_the_templates_indentation(client):
    page = client.get(reverse("home")).content.decode()
    assert "\n  <" not in page and "\n<main id=\"main\">" in page


def test_a_page_htmx_moves_the_address_of_keeps_no_copy_in_the_browser():
    """htmx keeps a copy of the page it leaves when it pushes or replaces the address (hx-push-url, hx-replace-url,
    hx-boost) in the session's storage, which signing out does not clear: on a shared tablet Back showed the last
    account's match again (round 29). Such a page says hx-history="false", and its view answers htmx's history
    restore (a step Back goes to) with the whole page."""
    moves = re.compile(r"\bhx-(?:push-url|replace-url|boost)=")
    found = [str(path.relative_to(settings.BASE_DIR)) for path in _templates()
             if moves.search(path.read_text()) and 'hx-history="false"' not in path.read_text()]
    assert not found, found
