"""Form controls drawn in Python: the very HTML Django's own widget templates draw, without a template per control.

Django draws each control through its templates, with an include for every option of a select and for every list of
attributes: a LOGOS or Evons card form (a dozen selects) took 7 to 9 ms to draw, more than the rest of its page, and
each card's edit page, the catalog's add form and every select or radio of a board paid it. Jinja2's renderer (Django's
own, a dependency more) was measured at a third of that; drawn here, a fifth to a tenth (what remains is Django's own
making of each option and its translated label).

`Renderer` (settings.FORM_RENDERER) draws the templates below itself, as Django ships them, and any other (a form's
own layout, error lists, a widget with a template of its own) through Django's templates as before.
tests/tracker/test_widgets.py draws every form of the app and every kind of control both ways and compares the
bytes, so a Django that draws a control otherwise fails there, not on a phone.
"""

import html

from django.forms.renderers import DjangoTemplates
from django.template import Context
from django.template.base import render_value_in_context
from django.utils.safestring import SafeData, mark_safe

_CONTEXT = Context()
"""A template's defaults: escaping on, numbers and times localised as the settings say."""

WIDGETS = "django/forms/widgets/"
INPUTS = frozenset(f"{WIDGETS}{name}.html" for name in (
    "input", "text", "number", "email", "password", "hidden", "url", "search", "tel", "checkbox"))
"""Templates that are Django's input.html and nothing else."""


def _text(value) -> str:
    """{{ value }}: a plain string only escaped (what the template does to it, a tenth of the time)."""
    return html.escape(value) if type(value) is str else render_value_in_context(value, _CONTEXT)


def _formatted(value) -> str:
    """{{ value|stringformat:'s' }}: the filter keeps a safe value safe."""
    try:
        text = "%s" % (str(value) if isinstance(value, tuple) else value)
    except (TypeError, ValueError):
        text = ""
    return _text(mark_safe(text) if isinstance(value, SafeData) else text)


def _attrs(attrs: dict) -> str:
    """attrs.html"""
    return "".join(f" {_text(name)}" + ("" if value is True else f'="{_formatted(value)}"')
                   for name, value in attrs.items() if value is not False)


def _input(widget: dict) -> str:
    """input.html, with the line end an include of it keeps."""
    value = f' value="{_formatted(widget["value"])}"' if widget["value"] is not None else ""
    return f'<input type="{_text(widget["type"])}" name="{_text(widget["name"])}"{value}{_attrs(widget["attrs"])}>\n'


def _input_option(option: dict) -> str:
    """input_option.html: a radio or checkbox, in its label when it has one."""
    if not option["wrap_label"]:
        return _input(option) + "\n"
    target = option["attrs"].get("id")
    label_for = f' for="{_text(target)}"' if target else ""
    return f"<label{label_for}>{_input(option)} {_text(option['label'])}</label>\n"


def _select_option(option: dict) -> str:
    return f'<option value="{_formatted(option["value"])}"{_attrs(option["attrs"])}>{_text(option["label"])}</option>\n'


OPTIONS = {
    f"{WIDGETS}select_option.html": _select_option,
    f"{WIDGETS}input_option.html": _input_option,
    f"{WIDGETS}radio_option.html": lambda option: _input_option(option) + "\n",
    f"{WIDGETS}checkbox_option.html": lambda option: _input_option(option) + "\n",
}
"""The option templates, each as an include of it draws (its line end kept)."""


def _select(widget: dict) -> str:
    drawn = [f'<select name="{_text(widget["name"])}"{_attrs(widget["attrs"])}>']
    for group, options, _index in widget["optgroups"]:
        if group:
            drawn.append(f'\n  <optgroup label="{_text(group)}">')
        drawn.extend("\n  " + OPTIONS[option["template_name"]](option) for option in options)
        if group:
            drawn.append("\n  </optgroup>")
    drawn.append("\n</select>")
    return "".join(drawn)


def _multiple_input(widget: dict) -> str:
    """multiple_input.html: radios or checkboxes, each in a div."""
    target, kind = widget["attrs"].get("id"), widget["attrs"].get("class")
    drawn = ["<div" + (f' id="{_text(target)}"' if target else "") + (f' class="{_text(kind)}"' if kind else "") + ">"]
    for group, options, _index in widget["optgroups"]:
        if group:
            drawn.append(f"\n  <div><label>{_text(group)}</label>")
        drawn.extend("<div>\n    " + OPTIONS[option["template_name"]](option) + "</div>" for option in options)
        if group:
            drawn.append("\n  </div>")
    drawn.append("\n</div>")
    return "".join(drawn)


def _textarea(widget: dict) -> str:
    text = _text(widget["value"]) if widget["value"] else ""
    return f'<textarea name="{_text(widget["name"])}"{_attrs(widget["attrs"])}>\n{text}</textarea>'


DRAWN = {
    **dict.fromkeys(INPUTS, _input),
    f"{WIDGETS}select.html": _select,
    f"{WIDGETS}radio.html": _multiple_input,
    f"{WIDGETS}checkbox_select.html": _multiple_input,
    f"{WIDGETS}multiple_input.html": _multiple_input,
    f"{WIDGETS}textarea.html": _textarea,
}


def _drawable(template_name: str, context: dict) -> bool:
    """Whether the control is Django's own: a template drawn here, options of templates drawn here, and nothing in
    its context but the widget (a widget class that adds to it draws through its template)."""
    if template_name not in DRAWN or context.keys() != {"widget"}:
        return False
    groups = context["widget"].get("optgroups", ())
    return all(option["template_name"] in OPTIONS for _group, options, _index in groups for option in options)


class Renderer(DjangoTemplates):
    """Django's template renderer, drawing Django's own controls in Python (see the module's docstring)."""

    def render(self, template_name, context, request=None):
        if _drawable(template_name, context):
            return DRAWN[template_name](context["widget"]).strip()
        return super().render(template_name, context, request)
