"""Board actions as Django forms: each form a board sends is a `BoardActionForm`, whose clean() makes
the engine's action, and a refused one is drawn again bound, as the player left it, with why beside it.

A game declares its board forms in its forms.py as `BOARD_FORMS = BoardForms(AttackForm, ...)`. The
view binds what was posted to the form it came from (`BoardForms.bind`, by the posted `action`), and
when the form is malformed, or the engine refuses its action, the page is drawn with that bound form
in the context as `refused`: the board's template finds it with `{% refused_form %}`
(tracker/templatetags/board_forms.py) and fills that form's fields from it. The step number, the
one-time token and the CSRF token are drawn fresh, as every page draws them: they are never fields
of a board form.
"""

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from rules import RuleError

from .common import filled_in

if TYPE_CHECKING:
    from ..models import Match


MARKER = "marker"
"""The code of a field's error that only marks the field (Lonely Star's "Missing." beside each stat left to type):
why stands in another error of the form, so the outcome box's sentence leaves it out."""


class BoardActionForm(forms.Form):
    """One form of a board. Subclasses declare the fields the player fills in, set `kinds`, and write
    `engine_action(data)`: the engine's action from the cleaned fields (a ValidationError, on a field
    with `self.add_error` or for the form, when they do not make an action). Whether the action is
    legal is the engine's call, when it is applied; its refusal joins the form (`refuse`)."""

    kinds: ClassVar[tuple[str, ...]]
    """The values of the posted `action` this form sends (most forms one; a Cardmaster card's form a
    move per button)."""
    variant: ClassVar[tuple[str, str] | None] = None
    """(field, value) telling this form from others posting the same `action` (Lonely Star's
    corrections: `what` is "counters", "stat", ...)."""
    drawn: ClassVar[bool] = True
    """False for a form no board draws: it answers posts no drawn form sends (Lonely Star's unknown correction)."""
    rule_fields: ClassVar[Mapping[str, str]] = {}
    """The engine's rule names whose refusal concerns one field, and that field; any other refusal
    stands above the form."""

    def __init__(self, data: Any = None, *, match: "Match") -> None:
        super().__init__(data)
        self.match = match
        self.action: dict = {}
        self.focused = False  # drawn refused: a control of it (or its errors) has the page's autofocus

    @classmethod
    def sends(cls, post: Any) -> bool:
        """Whether `post` came from this form."""
        if post.get("action", "") not in cls.kinds:
            return False
        return cls.variant is None or post.get(cls.variant[0], "") == cls.variant[1]

    form_name: ClassVar[str] = ""
    """How a template asks for this form (`{% refused_form %}`); by default its first kind, and the
    variant's value if it has one ("adjust-stat")."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not cls.__dict__.get("form_name") and cls.__dict__.get("kinds"):
            cls.form_name = cls.kinds[0] if cls.variant is None else f"{cls.kinds[0]}-{cls.variant[1]}"

    def clean(self) -> dict:
        data = super().clean() or {}
        if not self.errors:
            action = self.engine_action(data)
            self.action = {} if self.errors else action
        return data

    def engine_action(self, data: dict) -> dict:
        raise NotImplementedError

    def refuse(self, error: RuleError, message: str) -> None:
        """The engine refused the action: its reason beside the field it concerns, else above the form."""
        field = self.rule_fields.get(error.rule)
        self.add_error(field if field in self.fields else None, message)

    def refusal(self) -> str:
        """Every error of the form in one sentence for the outcome box: each field's error says which field (a
        field's MARKER error left out: another error of the form says it)."""
        return " ".join(message for errors in self.errors.as_data().values() for error in errors
                        if error.code != MARKER for message in error.messages)

    def sent(self, key: str) -> list[str]:
        """Every value sent in `key` (a field sent several times: the dice)."""
        getlist = getattr(self.data, "getlist", None)
        return [str(value) for value in getlist(key)] if getlist else [str(self.data.get(key, ""))]

    def shown(self, key: str, index: int = 0) -> str:
        """What the player had sent in field `key` (its `index`-th value for a field sent several times, the
        dice), "" when nothing: a refused form is drawn with it."""
        values = self.sent(key)
        return values[index] if index < len(values) else ""


class ButtonForm(BoardActionForm):
    """A board form that is one button: its action is its kind alone ({"type": "play_round"})."""

    def engine_action(self, data: dict) -> dict:
        return {"type": self.kinds[0]}


class UnknownAction(BoardActionForm):
    """What an `action` no form of the board sends gets: a form that refuses it, saying so."""

    kinds = ()

    def __init__(self, data: Any = None, *, match: "Match", message: str) -> None:
        super().__init__(data, match=match)
        self.message = message

    def clean(self) -> dict:
        raise ValidationError(self.message)


class BoardForms:
    """A game's board forms. `unknown` is what an unknown `action` is told (with %(game)s and %(kind)s);
    by default "<game> has no action “<kind>”."."""

    def __init__(self, *classes: type[BoardActionForm], unknown: str | Promise | None = None) -> None:
        self.classes = classes
        self.unknown = unknown

    def bind(self, match: "Match", post: Any) -> BoardActionForm:
        """The form `post` came from, bound to it (not yet validated)."""
        for form_class in self.classes:
            if form_class.sends(post):
                return form_class(post, match=match)
        kind = str(post.get("action", ""))[:40]
        message = (self.unknown if self.unknown is not None
                   else gettext_lazy("%(game)s has no action “%(kind)s”."))
        return UnknownAction(post, match=match, message=str(message) % {"game": match.game.name, "kind": kind})


class DrawnForm:
    """A board form as its board draws it: its name, the fields that tell it from its siblings on the board
    (`keys`: the unit that attacks, the cell revealed), and `form`, the bound form just refused when it is
    this one. True only then, so `{% if sent %} open{% endif %}` opens a refused form's fold.

    Each field's errors (and the form's own) have a slot of their own on the page, `slot_id`, drawn empty when
    nothing was refused: an htmx answer fills it out of band, and the field's control names it in its
    aria-describedby (tracker/templatetags/board_forms.py)."""

    def __init__(self, name: str, keys: Mapping[str, Any], form: BoardActionForm | None) -> None:
        self.name = name
        self.keys = keys
        self.form = form
        self._slot_ids: dict[str | None, str] = {}  # each asked twice a drawing: by its slot and by its control

    def __bool__(self) -> bool:
        return self.form is not None

    def __str__(self) -> str:
        """Which form, and whether refused: what a kept part's digest reads of it (tracker/templatetags/regions.py)."""
        return f"{self.slot_id()}:{'refused' if self else ''}"

    def slot_id(self, field: str | None = None) -> str:
        """The id of the slot of `field`'s errors (of the form's own, for None): unique on the board, since the
        name and keys that pick a refused form out are."""
        if field not in self._slot_ids:
            parts = [self.name, *(f"{key}-{value}" for key, value in sorted(self.keys.items())), field or "form"]
            self._slot_ids[field] = "error-" + re.sub(r"[^A-Za-z0-9_-]+", "_", "-".join(str(part) for part in parts))
        return self._slot_ids[field]

    def errors(self, field: str | None = None) -> list[str]:
        return [str(message) for message in self.form.errors.get(field or NON_FIELD_ERRORS, ())] if self.form else []


def refused_as(form: BoardActionForm | None, name: str, **keys: Any) -> DrawnForm:
    """The board form named `name` whose fields `keys` are as given, drawn: with `form` (a page's refused board
    form) when it is that one, so the board draws it filled in, and no other."""
    if form is None or form.form_name != name or any(form.shown(key) != str(value) for key, value in keys.items()):
        return DrawnForm(name, keys, None)
    return DrawnForm(name, keys, form)


# ------------------------------------------------------------------ fields that name themselves in their errors


def whole_number(label: Any, low: int, high: int, **kwargs: Any) -> forms.IntegerField:
    """A whole-number field from `low` to `high` whose errors name it by `label` ("The damage must be a
    whole number."), so the outcome box's sentence says which field is meant."""
    wrong = filled_in(gettext_lazy("%(label)s must be a whole number."), label=label)
    outside = filled_in(gettext_lazy("%(label)s must be from %(low)s to %(high)s."), label=label, low=low, high=high)
    return forms.IntegerField(
        min_value=low, max_value=high, label=label,
        error_messages={"required": wrong, "invalid": wrong, "min_value": outside, "max_value": outside}, **kwargs)


def choice(label: Any, choices: Any, message: Any = None, **kwargs: Any) -> forms.ChoiceField:
    """A choice whose errors say what to choose ("Choose the stat."), by `message` or from `label`."""
    said = message if message is not None else filled_in(gettext_lazy("Choose the %(label)s."), label=label)
    return forms.ChoiceField(label=label, choices=choices, error_messages={"required": said, "invalid_choice": said},
                             **kwargs)


def seat_field(label: Any = None, message: Any = None) -> forms.TypedChoiceField:
    """Which of the two seats, as a number."""
    label = label if label is not None else gettext_lazy("The player")
    said = message if message is not None else filled_in(
        gettext_lazy("%(label)s must be from %(low)s to %(high)s."), label=label, low=0, high=1)
    return forms.TypedChoiceField(label=label, choices=[("0", "0"), ("1", "1")], coerce=int,
                                  error_messages={"required": said, "invalid_choice": said})
