"""Django's own controls drawn in Python (tracker/web/widgets.py) are the very bytes Django's templates draw: every kind of
control with awkward values, and every control the app's pages draw."""

from datetime import date

import pytest
from django import forms
from django.forms.renderers import DjangoTemplates, get_default_renderer
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy

import rules
from tracker.demo import load_catalogs
from tracker.games import pages_for
from tracker.matches import services
from tracker.models import Card, Match
from tracker.web import widgets

TEMPLATES = DjangoTemplates()
CHOICES = [("", "—"), ("a", "Air & <Fire>"), (3, 10_000), ("q\"uote", gettext_lazy("Player")),
           ("safe", mark_safe("<b>bold</b>")), ("half", 1.5)]
GROUPED = [("Elements", [("air", "Air"), ("fire", "Fire")]), ("", [("x", "X")]), ("none", "None")]
ATTRS = {"id": "id_x", "class": "wide", "required": True, "disabled": False, "data-n": 3,
         "aria-describedby": mark_safe("a&b"), "title": 'say "<hi>"', "min": 0}


def _kinds():
    yield forms.TextInput(), ["plain", 'q"<&>', None, "", 0, mark_safe("<i>")]
    yield forms.NumberInput(), [None, 7, 1.5, "12"]
    yield forms.EmailInput(), ["a@b.c"]
    yield forms.PasswordInput(render_value=True), ["secret"]
    yield forms.HiddenInput(), ["h", date(2026, 11, 30)]
    yield forms.URLInput(), ["https://x/?a=1&b=2"]
    yield forms.SearchInput(), ["q"]
    yield forms.TelInput(), ["+49 1"]
    yield forms.CheckboxInput(), [True, False, None, "on"]
    yield forms.Textarea(), ["", "line\n<two>", None]
    yield forms.Select(choices=CHOICES), ["", "a", 3, "3", "q\"uote", None]
    yield forms.Select(choices=GROUPED), ["fire", "x"]
    yield forms.SelectMultiple(choices=CHOICES), [["a", "safe"], []]
    yield forms.NullBooleanSelect(), [None, True, False]
    yield forms.RadioSelect(choices=CHOICES), ["a", None]
    yield forms.RadioSelect(choices=GROUPED), ["fire"]
    yield forms.CheckboxSelectMultiple(choices=CHOICES), [["a", 3]]


@pytest.mark.parametrize("language", ["en", "de"])
def test_every_kind_of_control_is_drawn_as_djangos_templates_draw_it(language):
    mine = widgets.Renderer()
    drawn = 0
    with translation.override(language):
        for widget, values in _kinds():
            for value in values:
                for attrs in (None, ATTRS, {"class": "only"}):
                    expected = widget.render("field", value, attrs=attrs, renderer=TEMPLATES)
                    assert widget.render("field", value, attrs=attrs, renderer=mine) == expected, (widget, value)
                    drawn += 1
    assert drawn > 100


def test_the_app_draws_its_forms_with_it():
    assert isinstance(get_default_renderer(), widgets.Renderer)
    assert isinstance(forms.Form().renderer, widgets.Renderer)


def test_a_control_django_cannot_have_drawn_goes_to_its_template():
    """An option template of a widget's own, or more in its context than the widget, is drawn by its template."""

    class Own(forms.RadioSelect):
        option_template_name = "django/forms/widgets/select_option.html"  # an option of another kind: still known

    class Other(forms.RadioSelect):
        option_template_name = "tracker/no_such_option.html"

    assert widgets._drawable(Own.template_name, Own(choices=CHOICES).get_context("f", "a", None))
    assert not widgets._drawable(Other.template_name, Other(choices=CHOICES).get_context("f", "a", None))
    assert not widgets._drawable("django/forms/widgets/select.html", {"widget": {}, "more": 1})
    assert not widgets._drawable("django/forms/div.html", {"form": None})


@pytest.mark.django_db
def test_every_control_of_the_apps_pages_is_drawn_as_djangos_templates_draw_it(client, monkeypatch):
    """Each game's card form (edit, the catalog's add form), new match form and boards of its demo matches at their
    start, middle and end, and the lists' filters: each control drawn here is drawn again by Django's templates."""
    drawn, different = [], []
    original = widgets.Renderer.render

    def compared(self, template_name, context, request=None):
        html = original(self, template_name, context, request)
        if widgets._drawable(template_name, context):
            drawn.append(template_name)
            if html != TEMPLATES.render(template_name, context, request):
                different.append((template_name, html))
        return html

    monkeypatch.setattr(widgets.Renderer, "render", compared)
    load_catalogs()
    for slug in rules.GAMES:
        card = Card.objects.filter(slug=slug).order_by("pk").first()
        for url in (reverse("card_edit", args=[slug, card.pk]), reverse("card_list", args=[slug]),
                    reverse("match_new", args=[slug])):
            assert client.get(url).status_code == 200, url
        for make in list(pages_for(slug).demo_matches.values())[:2]:
            match = make(("Ana", "Ben"))
            for step in sorted({0, match.head // 2, match.head}):
                services.match_goto(match_id=match.pk, step=step, expected_seq=Match.objects.get(pk=match.pk).head)
                assert client.get(match.get_absolute_url()).status_code == 200
        assert client.get(reverse("match_log", args=[match.pk])).status_code == 200
    assert client.get(reverse("match_list")).status_code == 200
    assert not different, different[:3]
    kinds = {name.rsplit("/", 1)[1] for name in drawn}
    assert {"select.html", "radio.html", "number.html", "text.html", "checkbox.html"} <= kinds, kinds
