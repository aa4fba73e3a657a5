"""`{% translate %}` and `{% blocktranslate %}` as Django's, each message looked up once per process and language:
settings.TEMPLATES maps the `i18n` library here, so every template's `{% load i18n %}` loads these (and Django's
other i18n tags and filters, unchanged).

A Card Crush board draws some thirty messages a tap, each through a lazy translation, a catalogue lookup
and, for `trimmed`, a regular expression: about a seventh of an action's time (perf/profile_actions.py --timed).
A message written in the template (`{% translate "Undo" context "card-crush" %}`) is the same text for every
drawing in one language, so it is kept; a message held in a variable (`{% translate card.affinity %}`), a plural
and a context held in a variable are translated as Django does, each time. Changed settings (tests'
override_settings of LOCALE_PATHS or LANGUAGE_CODE) and a changed catalogue (runserver's reloader) forget every
kept message, as Django forgets its catalogues then.
"""

from typing import Any

from django import template
from django.core.signals import setting_changed
from django.template.base import FilterExpression, Variable, render_value_in_context
from django.templatetags import i18n as django_i18n
from django.utils.autoreload import file_changed
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext, pgettext

register = template.Library()
register.tags.update(django_i18n.register.tags)
register.filters.update(django_i18n.register.filters)

_KEPT: dict[tuple[str | None, str | None, str], str] = {}
"""(language, message context, message) -> its translation, as Django's gettext or pgettext gives it."""


def _translated(context: str | None, message: str) -> str:
    key = (get_language(), context, message)
    found = _KEPT.get(key)
    if found is None:
        found = _KEPT[key] = pgettext(context, message) if context else gettext(message)
    return found


def _forget(**_kwargs: Any) -> None:
    _KEPT.clear()


def _forget_if_catalogue(sender: object, file_path: Any, **_kwargs: Any) -> None:
    if str(file_path).endswith(".mo"):
        _KEPT.clear()


setting_changed.connect(_forget)
file_changed.connect(_forget_if_catalogue)


def _written(expression: FilterExpression | None) -> tuple[bool, str | None]:
    """Whether a message context is written in the template (or there is none), and its text."""
    if expression is None:
        return True, None
    if isinstance(expression.var, str) and not expression.filters:
        return True, str(expression.var)
    return False, None


class KeptTranslateNode(django_i18n.TranslateNode):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        written, self.context_text = _written(self.message_context)
        message = self.filter_expression.var
        self.kept = (written and not self.noop and not self.filter_expression.filters
                     and isinstance(message, Variable) and isinstance(message.literal, str))

    def render(self, context: template.Context) -> str:
        if not self.kept:
            return super().render(context)
        # As Django: the template's own text is safe, its percent signs doubled in the message and undone after.
        message = self.filter_expression.var.literal.replace("%", "%%")
        value = mark_safe(_translated(self.context_text, message).replace("%%", "%"))
        if self.asvar:
            context[self.asvar] = value
            return ""
        return value


class KeptBlockTranslateNode(django_i18n.BlockTranslateNode):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        written, self.context_text = _written(self.message_context)
        self.kept = written and not self.plural
        self.message, self.names = self.render_token_list(self.singular)  # from the tag's own text alone

    def render(self, context: template.Context, nested: bool = False) -> str:
        if not self.kept or nested:
            return super().render(context, nested)
        result = _translated(self.context_text, self.message)
        # The names the tag binds (`with n=round.number`) shadow the context's, as Django's push of them does.
        bound = {name: value.resolve(context) for name, value in self.extra_context.items()}
        data = {name: render_value_in_context(bound[name] if name in bound else _value(context, name), context)
                for name in self.names}
        try:
            result %= data
        except (KeyError, ValueError):  # a translation that does not fit its message: Django's own way out
            return super().render(context)
        if self.asvar:
            context[self.asvar] = SafeString(result)
            return ""
        return result


def _value(context: template.Context, name: str) -> object:
    """A name a `{% blocktranslate %}` shows, as Django reads it (a missing one as the engine's invalid string)."""
    if name in context:
        return context[name]
    missing = context.template.engine.string_if_invalid  # type: ignore[union-attr]
    return missing % name if "%s" in missing else missing


def _kept(node: template.Node) -> template.Node:
    """Django's node made again as the kept kind, with the very arguments its tag's parser gave it."""
    if isinstance(node, django_i18n.BlockTranslateNode):
        return KeptBlockTranslateNode(node.extra_context, node.singular, node.plural, node.countervar, node.counter,
                                      node.message_context, node.trimmed, node.asvar,
                                      node.tag_name)  # type: ignore[attr-defined]  # not in the stubs
    assert isinstance(node, django_i18n.TranslateNode)
    return KeptTranslateNode(node.filter_expression, node.noop, node.asvar, node.message_context)


def _parsed_as_kept(parse: Any) -> Any:
    return lambda parser, token: _kept(parse(parser, token))


for _name in ("translate", "trans", "blocktranslate", "blocktrans"):
    register.tag(_name, _parsed_as_kept(django_i18n.register.tags[_name]))
