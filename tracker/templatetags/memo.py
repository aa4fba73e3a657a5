"""`{% memo key… %}…{% endmemo %}`: a part of a page that is the same on every request with the same keys
(the head of every page, its menu and footer: the same for every phone in one language and theme).

Rendered once per process and keys, then reused: every full page drew them anew, some 0.4 ms of a page
that costs a few. Only what the keys decide may go inside: nothing of the request, the phone or the
account (no CSRF token, no name). Changed settings (tests' override_settings) forget what was kept.
"""

from django import template
from django.core.signals import setting_changed
from django.utils.safestring import mark_safe

register = template.Library()
_generation = [0]
"""Moves on when settings change: every node then draws its part anew."""


def _forget(**_kwargs) -> None:
    _generation[0] += 1


setting_changed.connect(_forget)


class MemoNode(template.Node):
    """Keeps its rendered part per key values; keys must take few values (a language, a theme)."""

    def __init__(self, keys: list[template.base.FilterExpression], nodelist: template.NodeList):
        self.keys, self.nodelist = keys, nodelist
        self.kept: dict[tuple, str] = {}
        self.generation = _generation[0]

    def render(self, context: template.Context) -> str:
        if self.generation != _generation[0]:
            self.kept, self.generation = {}, _generation[0]
        key = tuple(str(key.resolve(context)) for key in self.keys)
        if key not in self.kept:
            self.kept[key] = self.nodelist.render(context)
        return mark_safe(self.kept[key])


@register.tag
def memo(parser: template.base.Parser, token: template.base.Token) -> MemoNode:
    keys = [parser.compile_filter(bit) for bit in token.split_contents()[1:]]
    nodelist = parser.parse(("endmemo",))
    parser.delete_first_token()
    return MemoNode(keys, nodelist)
