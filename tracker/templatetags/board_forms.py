"""A refused board form, drawn again as the player left it (tracker/games/board_forms.py).

    {% refused_form "attack" unit=unit.id as sent %}
    <details{% if sent %} open{% endif %}> ... {% field_error sent %}
    <input name="amount" value="{{ sent|typed:'amount' }}">{% field_error sent "amount" %}
    <option value="{{ u.id }}"{% if sent|typed:"target" == u.id_str %} selected{% endif %}>

`refused_form` gives the bound form in the page's `refused` when it is this one (its name, and the
fields that tell it from its siblings on the board, agree), else None; the filters then give nothing.
"""

from typing import Any

from django import template
from django.utils.html import format_html_join
from django.utils.safestring import mark_safe

from tracker.games.board_forms import BoardActionForm, refused_as

register = template.Library()


@register.simple_tag(takes_context=True)
def refused_form(context: template.Context, name: str, **keys: Any) -> BoardActionForm | None:
    form = context.get("refused")
    return refused_as(form if isinstance(form, BoardActionForm) else None, name, **keys)


@register.filter
def typed(form: BoardActionForm | None, key: str) -> str:
    """What the player sent in `key` ("roll.1": the second value sent as `roll`); "" for no form."""
    if not isinstance(form, BoardActionForm):  # no refused form here ("" when a part's digest reads the filter)
        return ""
    key, _dot, index = key.partition(".")
    return form.shown(key, int(index or 0))


@register.filter
def ticked(form: BoardActionForm | None, key: str) -> bool:
    """Whether the player ticked checkbox `key`."""
    return isinstance(form, BoardActionForm) and bool(form.shown(key))


@register.simple_tag
def field_error(form: BoardActionForm | None, key: str | None = None) -> str:
    """The errors of field `key` (of the whole form without it), where they are drawn: beside the field."""
    if not isinstance(form, BoardActionForm):
        return ""
    errors = list(form.errors.get(key or "__all__", ()))
    return format_html_join("", '<p class="error" role="alert"><span aria-hidden="true">✗</span> {}</p>',
                            ((message,) for message in errors))


@register.filter
def errors_but(form: BoardActionForm | None, drawn: str) -> list[str]:
    """The form's errors but those of the fields named in `drawn` (space-separated): the ones drawn beside
    their fields; the rest are said together beside the form."""
    if not isinstance(form, BoardActionForm):
        return []
    beside = set(str(drawn or "").split())
    return [str(message) for field, errors in form.errors.items() if field not in beside for message in errors]


@register.simple_tag
def invalid(form: BoardActionForm | None, key: str) -> str:
    """` aria-invalid="true"` on a control whose field was refused."""
    return mark_safe(' aria-invalid="true"') if isinstance(form, BoardActionForm) and key in form.errors else ""
