"""Small helpers the games' pages share: the catalog card form, deck and lineup lookups, board form
fields, statistics helpers, and the steps of scripted demo matches."""

from collections import Counter
from collections.abc import Callable
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.functional import Promise, lazy
from django.utils.translation import gettext as _

from rules import Dice, RuleError
from rules.options import Choice, Option, WholeNumber
from tracker.matches import services

from ..models import Card, Match


class EngineCardForm(forms.Form):
    """A catalog card form whose cleaned data is the card as the game's engine validated it.

    Subclasses declare the fields and set `validate_card` to the engine's function.
    """

    validate_card: Callable[[Any], dict]

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        try:
            return self.validate_card(data)
        except RuleError as error:
            raise forms.ValidationError(services.explain(error)) from error


def catalog_cards(form: forms.Form, catalog: dict[str, Card], fields, repeated: str, **params: Any) -> list[dict]:
    """The cards named in `fields` of a deck or lineup form, as the engine takes them, in order.

    Names are looked up in `catalog` (casefolded name -> Card). An unknown name, or a card
    named twice (worded by `repeated`, with %(name)s and any of `params`), becomes an error on its field.
    """
    cards, seen = [], set()
    for field in fields:
        if field not in form.cleaned_data:
            continue
        name = form.cleaned_data[field]
        card = catalog.get(name.strip().casefold())
        if card is None:
            form.add_error(field, _("No card called “%(name)s” in the catalog; add it below.") % {"name": name})
        elif card.pk in seen:
            form.add_error(field, repeated % {**params, "name": card.name})
        else:
            seen.add(card.pk)
            cards.append(card.as_rules_card())
    return cards


# ------------------------------------------------------------------ asking the engine


def attempt(match: Match, action: dict) -> tuple[RuleError | None, Dice]:
    """Try `action` on the engine at the match's next step, changing nothing: its refusal (None when
    accepted) and the dice it rolled. How a page learns whether it may offer an action, why not,
    and whether a die is needed, without restating a rule."""
    dice = Dice(match.seed, match.head + 1)
    try:
        match.game.apply(match.state, action, dice)
    except RuleError as error:
        return error, dice
    return None, dice


def refusal(match: Match, action: dict) -> str:
    """Why the engine would refuse `action` now, in the player's words ("" when it would accept it)."""
    error, _dice = attempt(match, action)
    return services.explain(error, match.players(), match.slug) if error else ""


def dice_needed(match: Match, action: dict) -> int | None:
    """How many dice `action` would roll now (0 when every check is certain); None when it is refused,
    and the real attempt then says why."""
    error, dice = attempt(match, action)
    return None if error else len(dice.rolls)


def filled_in(message: str | Promise, **params: Any) -> str:
    """A lazily translated label with its %(name)s placeholders filled in from the engine (its limits,
    sizes, thresholds) when it is shown, in the language of that request (a lazy string, like `message`)."""
    return lazy(lambda: str(message) % params, str)()


def seat_names(match) -> list[str]:
    """The players' names in seat order, from the seats the stats query prefetched."""
    return [seat.player.name for seat in sorted(match.seats.all(), key=lambda seat: seat.position)]


def ranked(counts: Counter) -> list[tuple[str, int]]:
    """Largest first; equal values by name, so the order never depends on the matches' order."""
    return sorted(counts.items(), key=lambda item: (-item[1], item[0].casefold()))


def option_field(option: Option, label) -> forms.IntegerField:
    """A number option's field: its range and default as the engine declares them (rules/options.py)."""
    if not isinstance(option, WholeNumber):
        raise TypeError(f"{option!r} is not a number option")
    return forms.IntegerField(label=label, min_value=option.low, max_value=option.high, initial=option.default)


def choice_field(option: Option, label, words: dict, **more) -> forms.TypedChoiceField:
    """A choice option's radio buttons: the values and default the engine declares (rules/options.py), in the
    order of `words` (what each value is called). Words for exactly the values the engine takes, checked when
    the form is made: a form cannot offer a value the engine refuses, nor leave one out."""
    if not isinstance(option, Choice) or set(words) != set(option.allowed):
        raise TypeError(f"{option!r} is not a choice of {sorted(words, key=str)}")
    as_sent = {str(value): value for value in option.allowed}

    def as_the_engine_takes(value):  # "9" as sent, or 9 as the initial (`has_changed`): the engine's 9
        if str(value) not in as_sent:
            raise ValueError(value)  # the field says "not one of the choices"
        return as_sent[str(value)]

    return forms.TypedChoiceField(label=label, choices=list(words.items()), coerce=as_the_engine_takes,
                                  initial=option.default, widget=forms.RadioSelect, **more)


def whole_number(post, field: str, label: str, low: int, high: int) -> int:
    """A board form's whole-number field from `low` to `high`, or ValidationError naming it by `label`."""
    raw = (post.get(field) or "").strip()
    try:
        value = int(raw)
    except ValueError:
        raise ValidationError(_("%(label)s must be a whole number.") % {"label": label}) from None
    if not low <= value <= high:
        raise ValidationError(
            _("%(label)s must be from %(low)s to %(high)s.") % {"label": label, "low": low, "high": high}
        )
    return value


# ------------------------------------------------------------------ demo matches

Players = tuple[str, str]
ANA_BEN: Players = ("Ana", "Ben")


def catalog_card(slug: str, name: str) -> dict:
    """A demo catalog card as the engine takes it (load the catalogs first: `demo.load_catalogs()`)."""
    return Card.objects.get(slug=slug, name=name).as_rules_card()


def play_steps(match: Match, steps: list) -> Match:
    """Each step through the services, as the pages post them: an action, or (action, dice typed in)."""
    for step in steps:
        action, rolls = step if isinstance(step, tuple) else (step, None)
        match.refresh_from_db()
        services.match_apply_action(match_id=match.pk, action=action, expected_seq=match.head, rolls=rolls)
    match.refresh_from_db()
    return match
