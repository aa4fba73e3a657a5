"""`{% url %}` as Django's, each address reversed once per process: a built-in (settings.TEMPLATES), so
every template's `{% url %}` is this one.

A match page reverses a dozen addresses (every form of the board, undo, redo, the log), always the
same few for one match: Django's `reverse` was a twentieth of an action's time and an eighth of a Card
Crush page's. The key is everything `reverse` reads: the view's name and arguments, the current app,
the thread's URLconf and script prefix, and the language (for language-prefixed patterns). Changed
settings (tests' override_settings of ROOT_URLCONF) forget every kept address.
"""

from functools import lru_cache

from django import template
from django.core.signals import setting_changed
from django.template.defaulttags import URLNode
from django.template.defaulttags import url as django_url
from django.urls import NoReverseMatch, get_script_prefix, get_urlconf, reverse
from django.utils.html import conditional_escape
from django.utils.translation import get_language

register = template.Library()


@lru_cache(maxsize=4096)
def _reversed(view_name: str, args: tuple, kwargs: tuple, current_app: str | None, urlconf: str | None,
              prefix: str, language: str | None) -> str:
    """`reverse`, for the thread's URLconf, script prefix and language, which are in the key."""
    return reverse(view_name, args=args, kwargs=dict(kwargs), current_app=current_app)


def _forget(**_kwargs) -> None:
    _reversed.cache_clear()


setting_changed.connect(_forget)


class KeptURLNode(URLNode):
    def render(self, context: template.Context) -> str:
        args = tuple(arg.resolve(context) for arg in self.args)
        kwargs = tuple(sorted((key, value.resolve(context)) for key, value in self.kwargs.items()))
        view_name = self.view_name.resolve(context)
        try:
            current_app = context.request.current_app  # type: ignore[attr-defined]
        except AttributeError:
            try:
                current_app = context.request.resolver_match.namespace  # type: ignore[attr-defined]
            except AttributeError:
                current_app = None
        url = ""
        try:
            try:
                url = _reversed(view_name, args, kwargs, current_app, get_urlconf(), get_script_prefix(), get_language())
            except TypeError:  # an argument that cannot be a key (a list): reversed each time
                url = reverse(view_name, args=args, kwargs=dict(kwargs), current_app=current_app)
        except NoReverseMatch:
            if self.asvar is None:
                raise
        if self.asvar:
            context[self.asvar] = url
            return ""
        return conditional_escape(url) if context.autoescape else url


@register.tag
def url(parser: template.base.Parser, token: template.base.Token) -> KeptURLNode:
    node = django_url(parser, token)
    return KeptURLNode(node.view_name, node.args, node.kwargs, node.asvar)
