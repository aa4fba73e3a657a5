"""`{% translate %}` and `{% blocktranslate %}` looking each message up once (tracker/templatetags/translated.py) draw
what Django's own tags draw: every form of the tags with awkward values, and every message of the app's templates,
in English and German."""

from pathlib import Path

import pytest
from django.conf import settings
from django.template import Context, Engine, engines
from django.templatetags.i18n import BlockTranslateNode, TranslateNode
from django.test import override_settings
from django.utils import translation
from django.utils.safestring import mark_safe

from tracker.templatetags import translated

OURS = engines["django"].engine
DJANGOS = Engine(dirs=OURS.dirs, libraries={**OURS.libraries, "i18n": "django.templatetags.i18n"}, builtins=OURS.builtins)

LOAD = "{% load i18n %}"
FORMS = [
    '{% translate "Undo" %}',
    "{% translate 'Round wins' context 'card-crush' %}",
    '{% trans "Log" %}|{% translate "Log" noop %}|{% translate "100% sure %%" %}',
    '{% translate "Undo" as said %}[{{ said }}]{{ said|upper }}',
    '{% translate name context "card-crush" %}|{% translate name %}|{% translate "Fire" context where %}',
    '{% translate "Fire" context "" %}|{% translate "Round wins"|upper context "card-crush" %}',
    '{% blocktranslate with n=number context "card-crush" %}Round {{ n }}{% endblocktranslate %}',
    '{% blocktranslate trimmed with p=big s=name context "card-crush" %}Power {{ p }} · Speed\n  {{ s }}'
    '{% endblocktranslate %}',
    '{% blocktranslate %}{{ name }} 100% of {{ missing }}{% endblocktranslate %}',
    '{% blocktrans with n=number asvar said %}Round {{ n }}{% endblocktrans %}<{{ said }}>',
    '{% blocktranslate with n=name context where %}Round {{ n }}{% endblocktranslate %}',
    '{% blocktranslate count n=number %}{{ n }} step{% plural %}{{ n }} steps{% endblocktranslate %}',
    '{% blocktranslate with name=safe %}{{ name }} wins{% endblocktranslate %}',
    '{% get_current_language as here %}{{ here }}|{{ "x"|language_name_local|default:"?" }}',
    # A message a variable holds: text with percent signs and markup, a safe string, a number, nothing, as a name.
    '{% translate sure %}|{% translate sure context "card-crush" %}|{% translate safe %}|{% translate number %}',
    '{% translate affinity context "card-crush" as said %}[{{ said }}]{% translate missing context "card-crush" %}',
    # The drawing's language changed inside it, and back after: each tag asks it again.
    '{% translate "Undo" %}|{% language "de" %}{% translate "Undo" %} {% translate affinity context "card-crush" %} '
    '{% blocktranslate with n=number %}Step {{ n }}{% endblocktranslate %}{% endlanguage %}|{% translate "Undo" %}',
    '{% language "en" %}{% blocktranslate with n=big context "card-crush" %}Round {{ n }}{% endblocktranslate %}'
    '{% endlanguage %}{% blocktranslate with n=big context "card-crush" %}Round {{ n }}{% endblocktranslate %}',
]
VALUES = {"name": 'Ana "<&>"', "number": 3, "big": 12345.5, "where": "card-crush", "safe": mark_safe("<b>Ben</b>"),
          "sure": '100% sure %% <"x">', "affinity": "Fire"}


@pytest.mark.parametrize("language", ["en", "de"])
def test_every_form_of_the_tags_draws_as_djangos(language):
    with translation.override(language):
        for source in FORMS:
            for values in (VALUES, {**VALUES, "number": 1}, {}):
                for autoescape in (True, False):
                    expected = _all(DJANGOS, source, Context(values, autoescape=autoescape))
                    assert _all(OURS, source, Context(values, autoescape=autoescape)) == expected, (source, values)


def _all(engine: Engine, source: str, context: Context) -> object:
    try:
        return engine.from_string(LOAD + source).render(context)
    except Exception as error:  # noqa: BLE001 - the same refusal is drawn alike
        return type(error), str(error)


def _drawn(template, node) -> tuple:
    """What one tag draws in a context of awkward values, and the name it sets, or the error it raises."""
    context = Context(VALUES)
    with context.bind_template(template):
        try:
            return node.render(context), context.get(node.asvar) if node.asvar else None
        except Exception as error:  # noqa: BLE001 - the same refusal is drawn alike
            return type(error), str(error)


def _messages(engine: Engine, path: Path) -> list:
    template = engine.from_string(path.read_text())
    return [(template, node) for node in template.nodelist.get_nodes_by_type((TranslateNode, BlockTranslateNode))]


def test_every_message_of_the_apps_templates_is_kept_and_draws_as_djangos():
    """Each tag of every template, drawn alone in both languages (the names it shows empty, as the engine draws a
    missing name), by both: a message kept under a wrong key, or a tag the kept kind reads wrong, would differ."""
    folders = [settings.BASE_DIR / "templates", settings.BASE_DIR / "tests" / "sample_game" / "templates"]
    drawn = kept = 0
    for path in sorted(p for folder in folders for p in folder.rglob("*.html")):
        ours, djangos = _messages(OURS, path), _messages(DJANGOS, path)
        assert len(ours) == len(djangos), path
        for language in ("de", "en", "de"):  # back to German: a message kept for one language is not the other's
            with translation.override(language):
                for (mine, node), (theirs, django_node) in zip(ours, djangos, strict=True):
                    assert isinstance(node, (translated.KeptTranslateNode, translated.KeptBlockTranslateNode)), path
                    got, expected = _drawn(mine, node), _drawn(theirs, django_node)
                    assert got == expected, (path, node.token.contents if hasattr(node, "token") else node)
                    drawn += 1
                    kept += node.kept
    assert drawn > 1000 and kept > 0.9 * drawn, (drawn, kept)


def test_a_translation_that_does_not_fit_its_message_is_drawn_as_django_draws_it():
    source = '{% blocktranslate with n=number context "card-crush" %}Round {{ n }}{% endblocktranslate %}'
    template = OURS.from_string(LOAD + source)
    with translation.override("de"):
        expected = DJANGOS.from_string(LOAD + source).render(Context(VALUES))
        template.render(Context(VALUES))
        kept = [key for key in translated._KEPT if key[2] == "Round %(n)s"]
        assert kept
        for key in kept:
            translated._KEPT[key] = "Runde %(m)s"  # as if a catalogue had a translation naming another value
        try:
            assert template.render(Context(VALUES)) == expected
        finally:
            translated._KEPT.clear()


def test_changed_settings_forget_every_kept_message():
    OURS.from_string(LOAD + '{% translate "Undo" %}').render(Context())
    assert translated._KEPT
    with override_settings(LANGUAGE_CODE="de"):
        assert not translated._KEPT


def test_only_the_i18n_library_is_answered_by_two_modules():
    """settings silence Django's warning of a library name two modules answer to (templates.W003), for `i18n`: any
    other such name (two apps' tags of one name) is still a mistake."""
    warnings = [warning.msg for warning in engines["django"].check() if warning.id == "templates.W003"]
    assert warnings == ["'i18n' is used for multiple template tag modules: 'django.templatetags.i18n', "
                        "'tracker.templatetags.translated'"]
