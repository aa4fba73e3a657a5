"""`{% kept "id" %}…{% endkept %}`: a part of the match page that no action changes (the title, the share
panel, a form that adds a card to the catalog).

The page renders it as `<div id="id">…</div>`. The htmx answer to an action (`light` in the context, see
`_render_match`) sends only `<div id="id" hx-preserve></div>`: htmx keeps the element the phone already
shows, as it is (an open fold, a half-typed field), and the answer skips rendering it.
"""

from django import template
from django.utils.html import format_html

register = template.Library()


class KeptNode(template.Node):
    def __init__(self, region: template.base.FilterExpression, nodelist: template.NodeList):
        self.region, self.nodelist = region, nodelist

    def render(self, context: template.Context) -> str:
        region = self.region.resolve(context)
        if context.get("light"):
            return format_html('<div id="{}" hx-preserve></div>', region)
        return format_html('<div id="{}">{}</div>', region, self.nodelist.render(context))


@register.tag
def kept(parser: template.base.Parser, token: template.base.Token) -> KeptNode:
    try:
        _tag, region = token.split_contents()
    except ValueError:
        raise template.TemplateSyntaxError("{% kept %} takes one argument: the region's id.") from None
    nodelist = parser.parse(("endkept",))
    parser.delete_first_token()
    return KeptNode(parser.compile_filter(region), nodelist)
