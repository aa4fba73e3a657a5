"""Our HTML templates without their indentation, as the phone receives them.

Templates are indented to be read; a browser collapses any run of whitespace to one space, so the
indentation at the start of a line only costs bytes on every page and every htmx answer (about
260 compressed bytes on an Evons board). The loader drops it when it reads a template, once (the
cached loader keeps the result): line breaks stay, so a rendered page reads the same and template
errors keep their line numbers. Only `.html` files are touched (not the service worker's script).
This is safe while no template holds whitespace that shows as typed: no `<pre>` or `<textarea>`
with literal text, and no multi-line `{% blocktranslate %}` without `trimmed` (its message id
would no longer match the catalog); tests/tracker/test_templates.py checks both.
"""

import re

from django.template import Origin
from django.template.loaders import filesystem

INDENT = re.compile(r"^[ \t]+", re.MULTILINE)


class Loader(filesystem.Loader):
    def get_contents(self, origin: Origin) -> str:
        source = super().get_contents(origin)
        return INDENT.sub("", source) if origin.name.endswith(".html") else source
