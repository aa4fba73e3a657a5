"""`{% kept "id" %}…{% endkept %}`: a part of the match page that no action changes (the title, the share
panel, a form that adds a card to the catalog).

The page renders it as `<div id="id">…</div>`. The htmx answer to an action (`light` in the context, see
`_render_match`) sends only `<div id="id" hx-preserve></div>`: htmx keeps the element the phone already
shows, as it is (an open fold, a half-typed field), and the answer skips rendering it.

`{% kept "id" what… %}`: a part that some actions change and others do not (a Lonely Star unit, a
Cardmaster card); `{% kept "id" what… as "li" %}` makes the part a list item instead of a `<div>`. `what` is everything the part shows besides the viewer and the language, which count
by themselves; the part carries a short digest of them (`data-kept`), and every htmx request from the
page says which digests it shows (`X-Shown`, static/js/table.js). The answer to an action leaves out a
part the phone shows as it would be drawn now, and draws the others. Its forms keep the step number they
were drawn with: htmx sends the page's own (`hx-vals` on #match) in its place.
"""

import hashlib
import json
from functools import cache

from django import template
from django.conf import settings
from django.utils.html import format_html
from django.utils.translation import get_language

register = template.Library()


@cache
def _release() -> str:
    """What the templates and translations are in this process: a part drawn before a deploy changed how it
    looks has another digest, so it is drawn anew instead of kept."""
    files = sorted(path for folder in ("templates", "tracker/locale") for path in (settings.BASE_DIR / folder).rglob("*")
                   if path.is_file())
    return hashlib.blake2b(repr([(str(path), path.stat().st_mtime_ns, path.stat().st_size) for path in files]).encode(),
                           digest_size=6).hexdigest()


def digest(values: list, context: template.Context) -> str:
    """A short digest of what a part shows, for this viewer in this language (names and lazy words as text)."""
    viewer = context.get("viewer")
    seen = [_release(), get_language(), bool(context.get("read_only")), getattr(viewer, "role", None),
            getattr(viewer, "seat", None), values]
    # Keys sorted: a state read back from PostgreSQL's jsonb has its keys in jsonb's order, not the order the
    # engine wrote them, and the same part must get the same digest either way.
    try:
        text = json.dumps(seen, default=str, sort_keys=True)
    except TypeError:  # keys of mixed types cannot be sorted: the part is then drawn anew more often, never wrong
        text = json.dumps(seen, default=str)
    return hashlib.blake2b(text.encode(), digest_size=6).hexdigest()


class KeptNode(template.Node):
    def __init__(self, region: template.base.FilterExpression, what: list[template.base.FilterExpression],
                 nodelist: template.NodeList, tag: str = "div"):
        self.region, self.what, self.nodelist, self.tag = region, what, nodelist, tag

    def render(self, context: template.Context) -> str:
        region = self.region.resolve(context)
        if not self.what:
            if context.get("light"):
                return format_html('<div id="{}" hx-preserve></div>', region)
            return format_html('<div id="{}">{}</div>', region, self.nodelist.render(context))
        key = digest([what.resolve(context) for what in self.what], context)
        if context.get("light") and f"{region}={key}" in (context.get("shown") or ()):
            return format_html('<{} id="{}" data-kept="{}" hx-preserve></{}>', self.tag, region, key, self.tag)
        return format_html('<{} id="{}" data-kept="{}">{}</{}>', self.tag, region, key, self.nodelist.render(context),
                           self.tag)


@register.tag
def kept(parser: template.base.Parser, token: template.base.Token) -> KeptNode:
    bits = token.split_contents()
    if len(bits) < 2:
        raise template.TemplateSyntaxError("{% kept %} takes the region's id, then what it shows if actions change it.")
    tag = "div"
    if len(bits) > 3 and bits[-2] == "as":
        tag, bits = bits[-1].strip("\"'"), bits[:-2]
        if tag not in ("div", "li"):
            raise template.TemplateSyntaxError("{% kept … as %} makes a part a div or an li.")
    nodelist = parser.parse(("endkept",))
    parser.delete_first_token()
    return KeptNode(parser.compile_filter(bits[1]), [parser.compile_filter(bit) for bit in bits[2:]], nodelist, tag)
