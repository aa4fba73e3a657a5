"""The templates stay readable in a side-by-side diff: no line over 160 characters.

A long sentence goes in `{% blocktranslate trimmed %}` over several lines (the message to
translate stays the same), and a long tag breaks between its attributes.
"""

from pathlib import Path

from django.conf import settings

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
