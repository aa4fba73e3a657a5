"""`{% csrf_token %}` as Django's, its hidden input made once per drawing: a built-in (settings.TEMPLATES), so
every template's `{% csrf_token %}` is this one.

A match page has a form for every move (a Lonely Star board some thirty), each with the same hidden input:
Django's tag builds and escapes it for each, which was 2% to 4% of an action (perf/profile_actions.py
--timed). The input is kept for the rest of the drawing (the render context's root, as `{% include %}` keeps
the templates it read), with the token it was made from: another token, another input.
"""

from typing import Any

from django import template
from django.template.defaulttags import CsrfTokenNode

register = template.Library()


class OnceCsrfTokenNode(CsrfTokenNode):
    def render(self, context: template.Context) -> str:
        token = context.get("csrf_token")
        kept: dict[Any, Any] = context.render_context.dicts[0]
        drawn = kept.get(OnceCsrfTokenNode)
        if drawn is None or drawn[0] is not token:
            drawn = kept[OnceCsrfTokenNode] = (token, super().render(context))
        return drawn[1]


@register.tag
def csrf_token(parser: template.base.Parser, token: template.base.Token) -> OnceCsrfTokenNode:
    return OnceCsrfTokenNode()
