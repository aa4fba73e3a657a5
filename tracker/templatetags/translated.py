"""`{% translate %}` and `{% blocktranslate %}` as Django's, each message looked up once per process and language:
settings.TEMPLATES maps the `i18n` library here, so every template's `{% load i18n %}` loads these (and Django's
other i18n tags and filters, unchanged).

A Card Crush board draws some thirty messages a tap, each through a lazy translation, a catalogue lookup
and, for `trimmed`, a regular expression: about a seventh of an action's time (perf/profile_actions.py --timed).
The language a drawing is in is asked once a drawing (`language`): asking the thread's translation is a lock and a
context variable each time, some 2 µs, and a reveal's answer asked it fifty times. Django's `{% language %}` is
the one way a drawing changes its language, and its node here makes the drawing ask again inside and after it.
A message written in the template (`{% translate "Undo" context "card-crush" %}`) is the same text for every
drawing in one language, so it is kept; a message held in a variable (`{% translate card.affinity %}`), a plural
and a context held in a variable are translated as Django does, each time. Changed settings (tests'
override_settings of LOCALE_PATHS or LANGUAGE_CODE) and a changed catalogue (runserver's reloader) forget every
kept message, as Django forgets its catalogues then.
"""

import html
from typing import Any

from django import template
from django.conf import settings
from django.core.signals import setting_changed
from django.template.base import FilterExpression, Variable, VariableDoesNotExist, render_value_in_context
from django.templatetags import i18n as django_i18n
from django.utils.autoreload import file_changed
from django.utils.safestring import SafeData, SafeString, mark_safe
from django.utils.translation import get_language, gettext, pgettext

from tracker.matches.engine_messages import kept_translation

register = template.Library()
register.tags.update(django_i18n.register.tags)
register.filters.update(django_i18n.register.filters)

_KEPT: dict[tuple[str | None, str | None, str], str] = {}
"""(language, message context, message) -> its translation, as Django's gettext or pgettext gives it."""


LANGUAGE = "tracker.templatetags.translated.language"
"""Where a drawing keeps its language: the root of its render context, which its includes share."""


def language(context: template.Context) -> str | None:
    """The language `context` is drawn in (`get_language()`), asked once a drawing."""
    root = context.render_context.dicts[0]
    try:
        return root[LANGUAGE]
    except KeyError:
        found = root[LANGUAGE] = get_language()
        return found


def shown(value: object, context: template.Context) -> str:
    """`render_value_in_context(value, context)`, quicker for what a tag shows most, text and whole numbers: a whole
    number is written as it is unless the settings group thousands (localize's own fast case)."""
    kind = type(value)
    if kind is str:
        text: str = value  # type: ignore[assignment]  # a str, as its type says
        return SafeString(html.escape(text)) if context.autoescape else text
    if kind is int and not settings.USE_THOUSAND_SEPARATOR:
        return SafeString(value)
    return render_value_in_context(value, context)


def _translated(context: str | None, message: str, language: str | None) -> str:
    key = (language, context, message)
    found = _KEPT.get(key)
    if found is None:
        found = _KEPT[key] = pgettext(context, message) if context else gettext(message)
    return found


# A message held in a variable (`{% translate card.affinity context "card-crush" %}`) may come from anyone: kept in
# the bounded store the engines' words use.
_translated_held = kept_translation


def _forget(**_kwargs: Any) -> None:
    _KEPT.clear()


def _forget_if_catalogue(sender: object, file_path: Any, **_kwargs: Any) -> None:
    if str(file_path).endswith(".mo"):
        _forget()


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
        plain = written and not self.noop and not self.filter_expression.filters and isinstance(message, Variable)
        self.kept = plain and isinstance(message.literal, str)
        # A message a variable holds, when it holds text (not a safe string): looked up as Django would, kept apart.
        self.held = plain and message.lookups is not None

    def render(self, context: template.Context) -> str:
        if self.held:
            return self._held(context)
        if not self.kept:
            return super().render(context)
        # As Django: the template's own text is safe, its percent signs doubled in the message and undone after.
        message = self.filter_expression.var.literal.replace("%", "%%")
        value = mark_safe(_translated(self.context_text, message, language(context)).replace("%%", "%"))
        if self.asvar:
            context[self.asvar] = value
            return ""
        return value

    def _held(self, context: template.Context) -> str:
        """As Django draws a message held in a variable: its percent signs doubled, translated, shown (escaped), and
        the doubled signs undone; a value but text (a missing name, a safe string, a number) is Django's to draw."""
        try:
            held = self.filter_expression.var._resolve_lookup(context)
        except VariableDoesNotExist:
            return super().render(context)
        if type(held) is not str:
            return super().render(context)
        said = shown(_translated_held(self.context_text, held.replace("%", "%%"), language(context)), context)
        value = mark_safe(said.replace("%%", "%")) if isinstance(said, SafeData) else said.replace("%%", "%")
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
        result = _translated(self.context_text, self.message, language(context))
        # The names the tag binds (`with n=round.number`) shadow the context's, as Django's push of them does.
        bound = {name: value.resolve(context) for name, value in self.extra_context.items()}
        data = {name: shown(bound[name] if name in bound else _value(context, name), context) for name in self.names}
        try:
            result %= data
        except (KeyError, ValueError):  # a translation that does not fit its message: Django's own way out
            return super().render(context)
        if self.asvar:
            context[self.asvar] = SafeString(result)
            return ""
        return result


class KeptLanguageNode(django_i18n.LanguageNode):
    """`{% language %}`: the drawing's language asked again inside it (its own) and after it (the one before)."""

    def render(self, context: template.Context) -> str:
        root = context.render_context.dicts[0]
        root.pop(LANGUAGE, None)
        try:
            return super().render(context)
        finally:
            root.pop(LANGUAGE, None)


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


@register.tag("language")
def language_tag(parser: template.base.Parser, token: template.base.Token) -> KeptLanguageNode:
    node = django_i18n.language(parser, token)
    return KeptLanguageNode(node.nodelist, node.language)
