"""A refused form opens on why: the page's focus (`autofocus`, which brings it into view with or without
JavaScript) goes to its first refused field, or to the form's own errors when no field is refused.

Every form page draws its fields with templates/tracker/field.html (card fields: templates/tracker/picker.html)
and its own errors with templates/tracker/form_errors.html, which use these: the play-test found a refused
tournament opening at the top of the page, its reason more than a screen below, as the sign-up had been before it
was fixed on its own (and later a refused deck, its card fields drawn by hand).
"""

from django import template
from django.forms import BoundField

register = template.Library()


def _first_refused(form) -> str | None:
    return next((name for name in form.fields if name in form.errors), None) if form.is_bound else None


@register.filter
def control(field: BoundField) -> str:
    """The field's control; on a refused form, focused when it is the first refused field, and no other field of
    that form focused (a form's own autofocus, UserCreationForm's on the user name, would take the page there)."""
    if not field.form.is_bound or not field.form.errors:
        return str(field)
    return field.as_widget(attrs={"autofocus": field.name == _first_refused(field.form)})


@register.filter
def first_refused(field: BoundField | None) -> bool:
    """Whether the field is its refused form's first refused field: the one a control drawn by hand (a card
    picker, templates/tracker/picker.html) gives `autofocus`, as `control` does."""
    return field is not None and bool(field.errors) and field.name == _first_refused(field.form)


@register.filter
def opens_on_own_errors(form) -> bool:
    """Whether the form was refused for itself alone (no field refused): its errors take the page's focus."""
    return bool(form.is_bound and form.non_field_errors() and _first_refused(form) is None)
