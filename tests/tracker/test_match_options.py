"""Every game's new-match form offers each option the engine declares (rules/options.py), exactly the values the
engine takes, starting at the engine's default: a form cannot offer what the engine refuses, leave out what it
takes, or start a table on another rule than the one written beside the engine."""

import pytest
from django import forms

import rules
from rules.options import Choice, Option, WholeNumber, YesNo
from tracker.games import pages_for
from tracker.games.common import choice_field

EVERY_OPTION = [(slug, name) for slug, game in rules.GAMES.items() for name in game.options]


def _field(slug: str, name: str) -> tuple[Option, forms.Field]:
    form = pages_for(slug).config_form(prefix="config")
    assert name in form.fields, f"{slug}: the table cannot set {name}"
    return rules.GAMES[slug].options[name], form.fields[name]


@pytest.mark.parametrize("slug", rules.GAMES)
def test_the_form_sent_untouched_starts_the_match_on_the_engines_defaults(slug):
    untouched = pages_for(slug).config_form(prefix="config")
    sent = {field.html_name: field.value() for field in untouched
            if field.value() is not None and field.value() is not False}  # a box left unticked sends nothing
    form = pages_for(slug).config_form(sent, prefix="config")
    assert form.is_valid(), form.errors
    for name, option in rules.GAMES[slug].options.items():
        assert name in untouched.fields, f"{slug}: the table cannot set {name}"
        assert form.cleaned_data[name] == option.default, name


@pytest.mark.parametrize(("slug", "name"), [(slug, name) for slug, name in EVERY_OPTION
                                            if isinstance(rules.GAMES[slug].options[name], Choice)])
def test_a_choice_offers_exactly_the_values_the_engine_takes(slug, name):
    option, field = _field(slug, name)
    assert sorted(str(value) for value, _words in field.choices) == sorted(str(value) for value in option.allowed)
    for value in option.allowed:
        assert field.clean(str(value)) == value  # typed as the engine keeps it: Cardmaster's size 9, not "9"
    with pytest.raises(forms.ValidationError):
        field.clean("none of these")
    assert not field.has_changed(option.default, str(option.default))  # the initial is the engine's value
    assert field.has_changed(option.default, "none of these")


@pytest.mark.parametrize(("slug", "name"), [(slug, name) for slug, name in EVERY_OPTION
                                            if isinstance(rules.GAMES[slug].options[name], WholeNumber)])
def test_a_number_takes_the_engines_range(slug, name):
    option, field = _field(slug, name)
    assert (field.min_value, field.max_value) == (option.low, option.high)


@pytest.mark.parametrize(("slug", "name"), [(slug, name) for slug, name in EVERY_OPTION
                                            if isinstance(rules.GAMES[slug].options[name], YesNo)])
def test_a_yes_or_no_gives_the_engine_true_or_false(slug, name):
    _option, field = _field(slug, name)
    sent = {True: "on", False: ""} if isinstance(field, forms.BooleanField) else {True: "yes", False: "no"}
    assert [field.clean(sent[True]), field.clean(sent[False])] == [True, False]


def test_a_choice_field_is_refused_words_for_other_values_than_the_engines():
    option = Choice(("draw", "second-player"), "draw")
    with pytest.raises(TypeError):
        choice_field(option, "Ties", {"draw": "a draw"})  # one left out
    with pytest.raises(TypeError):
        choice_field(option, "Ties", {"draw": "a draw", "second-player": "second", "first-player": "first"})
    assert choice_field(option, "Ties", {"second-player": "second", "draw": "a draw"}).initial == "draw"
