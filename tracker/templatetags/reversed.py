"""`{% url %}` as Django's, each address reversed once per process: a built-in (settings.TEMPLATES), so
every template's `{% url %}` is this one.

A match page reverses a dozen addresses (every form of the board, undo, redo, the log), always the
same few for one match: Django's `reverse` was a twentieth of an action's time and an eighth of a Card
Crush page's. The key is everything `reverse` reads: the view's name and arguments, the current app,
the thread's URLconf and script prefix, and the language (for language-prefixed patterns). Changed
settings (tests' override_settings of ROOT_URLCONF) forget every kept address.

What the key reads of the request and the thread (the current app, the URLconf, the script prefix) is read once a
drawing, and the language as the translate tags read it (translated.language): each is a lock and a context variable
to ask, the URLconf's an exception when none is set, some 10 µs a tag (a reveal's answer has a dozen). The address
is kept escaped as the tag writes it.
"""

from functools import lru_cache

from django import template
from django.core.signals import setting_changed
from django.template.defaulttags import URLNode
from django.template.defaulttags import url as django_url
from django.urls import NoReverseMatch, get_script_prefix, get_urlconf, reverse
from django.utils.html import conditional_escape

from .translated import language

register = template.Library()

_PLACE = "tracker.templatetags.reversed.place"
"""Where a drawing keeps what the key reads of the request and the thread (its render context's root)."""


@lru_cache(maxsize=4096)
def _reversed(view_name: str, args: tuple, kwargs: tuple, current_app: str | None, urlconf: str | None,
              prefix: str, language: str | None) -> tuple[str, str]:
    """`reverse`, for the thread's URLconf, script prefix and language, which are in the key; and escaped."""
    url = reverse(view_name, args=args, kwargs=dict(kwargs), current_app=current_app)
    return url, conditional_escape(url)


def _place(context: template.Context) -> tuple[str | None, str | None, str]:
    """The current app, the thread's URLconf and its script prefix, read once a drawing."""
    root: dict = context.render_context.dicts[0]
    try:
        return root[_PLACE]
    except KeyError:
        pass
    try:
        current_app = context.request.current_app  # type: ignore[attr-defined]
    except AttributeError:
        try:
            current_app = context.request.resolver_match.namespace  # type: ignore[attr-defined]
        except AttributeError:
            current_app = None
    found = root[_PLACE] = (current_app, get_urlconf(), get_script_prefix())
    return found


def _forget(**_kwargs) -> None:
    _reversed.cache_clear()


setting_changed.connect(_forget)


class KeptURLNode(URLNode):
    def render(self, context: template.Context) -> str:
        args = tuple([arg.resolve(context) for arg in self.args])
        kwargs = tuple(sorted((key, value.resolve(context)) for key, value in self.kwargs.items())) if self.kwargs else ()
        view_name = self.view_name.resolve(context)
        current_app, urlconf, prefix = _place(context)
        url = escaped = ""
        try:
            try:
                url, escaped = _reversed(view_name, args, kwargs, current_app, urlconf, prefix, language(context))
            except TypeError:  # an argument that cannot be a key (a list): reversed each time
                url = reverse(view_name, args=args, kwargs=dict(kwargs), current_app=current_app)
                escaped = conditional_escape(url)
        except NoReverseMatch:
            if self.asvar is None:
                raise
        if self.asvar:
            context[self.asvar] = url
            return ""
        return escaped if context.autoescape else url


@register.tag
def url(parser: template.base.Parser, token: template.base.Token) -> KeptURLNode:
    node = django_url(parser, token)
    return KeptURLNode(node.view_name, node.args, node.kwargs, node.asvar)
