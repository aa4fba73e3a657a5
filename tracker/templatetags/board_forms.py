"""A refused board form, drawn again as the player left it (tracker/games/board_forms.py).

    {% refused_form "attack" unit=unit.id as sent %}
    <details{% if sent %} open{% endif %}> ... {% field_error sent %}
    <input name="amount"{% value sent "amount" %}{% invalid sent "amount" %}>{% field_error sent "amount" %}
    <option value="{{ u.id }}"{% if sent|typed:"target" == u.id_str %} selected{% endif %}>

`refused_form` gives the form as the board draws it (a DrawnForm): holding the bound form in the page's
`refused` when it is this one (its name, and the fields that tell it from its siblings on the board, agree).

Every field's errors, and the form's own, have a slot on the page, always drawn (`field_error`), and every
control names its field's slot (`invalid`: aria-describedby, and aria-invalid when refused). So one
mechanism serves every game and both ways a refusal comes back:
- a plain POST gets the page drawn anew, the errors in their slots, the first control in error (or the
  form's own errors) with `autofocus`, which brings it into view without JavaScript;
- an htmx POST from the current step leaves the page as it is (what was typed, open folds) and gets the
  slots out of band: the view draws the board with `error_slots` (a list) in the context, which
  `field_error` fills with the refused form's slots (tracker/matches/views.py: _refused).
"""

from functools import lru_cache
from typing import Any

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from tracker.games.board_forms import BoardActionForm, DrawnForm, refused_as

register = template.Library()


@register.filter
def plays(viewer, seat: int | None) -> bool:
    """`{% if viewer|plays:unit.seat %}`: this phone plays that seat (access.Viewer.plays), so the board offers
    the seat's controls; a phone seated by a join link, or the owner's phone once a seat is on another, is
    offered its own seats' alone (the engine refuses the rest)."""
    return viewer is not None and viewer.plays(seat)


@register.filter
def refused_fields(form) -> list:
    """The bound fields of a Django form that carry errors, in the form's order (a refusal notice names them)."""
    return [field for field in form if field.errors] if form is not None else []


@register.simple_tag(takes_context=True)
def refused_form(context: template.Context, name: str, **keys: Any) -> DrawnForm:
    form = context.get("refused")
    return refused_as(form if isinstance(form, BoardActionForm) else None, name, **keys)


def _drawn_refused(names: dict, args: list, kwargs: dict) -> bool:
    """What a kept part's digest takes of a `refused_form` tag in it (regions.py DIGESTED): whether it gives the page's
    refused form, to be drawn filled in."""
    form = names.get("refused")
    return isinstance(form, BoardActionForm) and refused_as(form, *args, **kwargs).form is not None


_drawn_refused.names = ("refused",)  # type: ignore[attr-defined]  # what it reads of the context
refused_form.digested = _drawn_refused  # type: ignore[attr-defined]


@register.filter
def typed(drawn: DrawnForm | None, key: str) -> str:
    """What the player sent in `key` ("roll.1": the second value sent as `roll`); "" for a form not refused."""
    if not isinstance(drawn, DrawnForm) or drawn.form is None:  # "" too when a part's digest reads the filter
        return ""
    key, _dot, index = key.partition(".")
    return drawn.form.shown(key, int(index or 0))


@register.simple_tag
def value(drawn: DrawnForm | None, key: str) -> str:
    """` value="..."`: what the player sent in `key`, for a text or number input; nothing when nothing was sent."""
    sent = typed(drawn, key)
    return format_html(' value="{}"', sent) if sent else ""


@register.filter
def ticked(drawn: DrawnForm | None, key: str) -> bool:
    """Whether the player ticked checkbox `key`."""
    return bool(typed(drawn, key))


_SLOT = '<p class="error" role="alert"><span id="{}" data-field-errors{}>{}</span></p>'
"""A slot's markup: its id, what its span adds (focus), what is said in it."""


def slot(slot_id: str, messages: list[str], *, oob: bool = False, focus: bool = False, opens: str = "") -> SafeString:
    """A slot for errors: a live region (role="alert", there before anything is said in it, so what an htmx
    answer puts in it is read out), hidden by the stylesheet while empty. `opens`: the id of a fold that holds
    what the player must give next (Evons: a card not in the catalog, its stats), opened by table.js once an htmx
    answer said why (a page drawn anew has it open already)."""
    if not messages and not oob and not focus:
        return _empty_slot(slot_id)
    said = format_html_join(mark_safe("<br>"), '<span aria-hidden="true">✗</span> {}', ((m,) for m in messages))
    if messages and opens:
        said = said + format_html('<i hidden data-opens="{}"></i>', opens)
    if oob:
        return format_html('<span id="{}" hx-swap-oob="innerHTML">{}</span>', slot_id, said)
    # tabindex and autofocus: a form refused as a whole brings its errors into view, as a field's control would.
    return format_html(_SLOT, slot_id, mark_safe(' tabindex="-1" autofocus') if focus else "", said)


@lru_cache(maxsize=4096)
def _empty_slot(slot_id: str) -> SafeString:
    """A slot with nothing said in it, as `slot` draws it: every field of every board form has one on every
    drawing (28 on a Lonely Star board), always the same few hundred ids, so each is made once per process."""
    return format_html(_SLOT, slot_id, "", "")


def oob_slots(drawn: list[tuple[str, list[str], str]]) -> SafeString:
    """What an htmx answer to a refusal puts in the page's error slots (`drawn`, as `field_error` collected them
    drawing the board): every slot emptied (a refusal before this one said nothing now), then the refused
    form's filled. Nothing for a page without slots (htmx would log a swap with no target as an error)."""
    if not drawn:
        return mark_safe("")
    emptied = mark_safe('<span hx-swap-oob="innerHTML:[data-field-errors]"></span>')
    return emptied + mark_safe("".join(slot(slot_id, messages, oob=True, opens=opens)
                                       for slot_id, messages, opens in drawn if messages))


def _first_focus(drawn: DrawnForm) -> bool:
    """Whether this is the first place of the refused form to take the page's focus (then no other is)."""
    if drawn.form is None or drawn.form.focused:
        return False
    drawn.form.focused = True
    return True


@register.simple_tag(takes_context=True)
def field_error(context: template.Context, drawn: DrawnForm | None, key: str | None = None, but: str | None = None,
                opens: str = "") -> str:
    """The slot of field `key`'s errors beside it; without `key`, the form's own, above it: the errors of no
    field, or with `but`, of every field but those named (space-separated), which have slots of their own.
    `opens`: the fold the errors send the player to (`slot`)."""
    if not isinstance(drawn, DrawnForm):
        return ""
    form = drawn.form
    if form is None:
        messages = []
    elif key is not None:
        messages = drawn.errors(key)
    else:
        beside = set((but or "").split()) if but is not None else set(form.fields)
        messages = [str(m) for field, errors in form.errors.items() if field not in beside for m in errors]
    slot_id = drawn.slot_id(key)
    every = form is not None and len(messages) == sum(len(errors) for errors in form.errors.values())
    focus = key is None and bool(messages) and every and _first_focus(drawn)
    collected = context.get("error_slots")
    if isinstance(collected, list):
        collected.append((slot_id, messages, opens))
    return slot(slot_id, messages, focus=focus, opens=opens)


@register.simple_tag
def invalid(drawn: DrawnForm | None, key: str, also: str = "", group: bool = False) -> str:
    """The attributes of the control of field `key`: it is described by its errors' slot (and `also`, ids of
    other descriptions), and after a refusal of that field, invalid; the first such control of the page is
    focused when it loads (`autofocus`: the browser brings it into view, JavaScript or not). A `group` (a
    radio group's fieldset) is made focusable for it."""
    if not isinstance(drawn, DrawnForm):
        return ""
    described = " ".join(part for part in (drawn.slot_id(key), also) if part)
    refused = bool(drawn.errors(key))
    focus = refused and _first_focus(drawn)
    if not refused:
        return _described(described)
    return format_html(' aria-describedby="{}"{}{}', described, mark_safe(' aria-invalid="true"'),
                       mark_safe(' tabindex="-1" autofocus' if group else " autofocus") if focus else "")


@lru_cache(maxsize=4096)
def _described(described: str) -> SafeString:
    """The attributes of a control not refused, as `invalid` draws them: the same few hundred on every drawing of a
    board (28 controls on a Lonely Star one), so each is made once per process, as `_empty_slot` makes the slots."""
    return format_html(' aria-describedby="{}"', described)
