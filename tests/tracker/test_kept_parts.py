"""`{% kept %}` parts (tracker/templatetags/regions.py): a part's digest follows from what it shows.

A phone sends the digests of the parts it shows; the answer to an action leaves out each part whose digest
is unchanged. The digest covers every value the part reads, found in its template: a part edited to show
something new is digested with it, so a change to that value reaches the phones at once.
"""

import re
from html.parser import HTMLParser

import pytest
from django.template import Context, Template, TemplateSyntaxError
from django.test import Client
from django.utils.safestring import mark_safe

import rules
from perf.tables import screen
from tracker import demo
from tracker.matches import services
from tracker.models import Match

from .sweep import Table


def drawn(source: str, **context) -> str:
    return Template("{% load regions %}" + source).render(Context(context))


def shown(page: str) -> set[str]:
    """What a phone showing `page` says it shows (X-Shown)."""
    return {f"{region}={key}" for region, key in re.findall(r'id="([\w-]+)" data-kept="(\w+)"', page)}


def answer(source: str, phone: str, **context) -> str:
    """The htmx answer to an action, to a phone showing `phone`."""
    return drawn(source, light=True, parts_shown=shown(phone), **context)


BEFORE = {"turn": 1, "score": "0 to 0", "units": [{"name": "Comet", "hp": 5}], "over": False}


def test_a_part_edited_to_show_a_new_value_reaches_phones_when_that_value_changes():
    first = '{% kept "controls" changing %}<p>Turn {{ board.turn }}</p>{% endkept %}'
    edited = '{% kept "controls" changing %}<p>Turn {{ board.turn }}, score {{ board.score }}</p>{% endkept %}'
    assert shown(drawn(first, board=BEFORE)) != shown(drawn(edited, board=BEFORE))
    phone = drawn(edited, board=BEFORE)
    scored = answer(edited, phone, board={**BEFORE, "score": "1 to 0"})
    assert "score 1 to 0" in scored and "hx-preserve" not in scored
    unchanged = answer(edited, phone, board=dict(BEFORE))
    assert 'data-kept="' in unchanged and "hx-preserve" in unchanged and "score" not in unchanged


@pytest.mark.parametrize("part", [
    '{% for unit in board.units %}{{ unit.name }} {{ unit.hp }}{% endfor %}',
    '{% if board.over %}over{% else %}on{% endif %}',
    '{% partialdef line %}{{ board.score }}{% endpartialdef %}{% partial line %}',
    '{% with shown_score=board.score %}{{ shown_score }}{% endwith %}',
    '{{ "x"|add:board.score }}',
    '{% url "match_detail" board.turn %}',
    '{% with unit=board.units.0 %}{{ unit.hp }}{% endwith %}',
    '{% include "games/lonely-star/unit_options.html" with units=board.units %}',
    '{% load i18n %}{% with shown_score=board.score %}{% blocktranslate %}Score {{ shown_score }}{% endblocktranslate %}{% endwith %}',
    '{% with rid="score-"|add:board.score|stringformat:"s" none=None %}{{ rid }}{{ none }}{% endwith %}',
])
def test_a_value_read_anywhere_in_a_part_is_in_its_digest(part):
    source = '{% kept "p" changing %}' + part + "{% endkept %}"
    phone = drawn(source, board=BEFORE)
    changed = {"units": [{"name": "Ember", "hp": 4}], "over": True, "score": "2 to 1", "turn": 2}
    key = next(name for name in changed if name in part or name == "turn" and "url" in part or
               name == "units" and "unit" in part)
    assert "hx-preserve" in answer(source, phone, board=dict(BEFORE))
    assert "hx-preserve" not in answer(source, phone, board={**BEFORE, key: changed[key]})


def test_the_step_number_and_the_csrf_token_are_the_pages_own():
    source = ('{% kept "p" changing %}<input name="seq" value="{{ match.head }}">{% csrf_token %}'
              "{{ board.turn }}{% endkept %}")
    phone = drawn(source, board=BEFORE, match={"head": 3})
    assert "hx-preserve" in answer(source, phone, board=BEFORE, match={"head": 4}, csrf_token="other")


def test_a_part_that_no_action_changes_is_always_kept_and_a_list_of_values_is_refused():
    assert drawn('{% kept "title" %}<h1>{{ title }}</h1>{% endkept %}', light=True, title="x") == (
        '<div id="title" hx-preserve></div>')
    # The id escaped as format_html would (unless safe); the rest is the tag's own.
    assert drawn('{% kept region %}x{% endkept %}', light=True, region='a"<b') == '<div id="a&quot;&lt;b" hx-preserve></div>'
    assert drawn('{% kept region changing as "li" %}x{% endkept %}', region=mark_safe("a&amp;b")).startswith(
        '<li id="a&amp;b" data-kept="')
    with pytest.raises(TemplateSyntaxError, match="found in it, not listed"):
        drawn('{% kept "p" board.turn %}{{ board.turn }}{% endkept %}', board=BEFORE)


def test_a_part_may_be_a_table_row_and_no_other_element():
    """An Evons board's row (tracker/games/evons/grid.py): htmx keeps a row of the same id as it keeps a div, and the
    screen, table.js and the live stream find it as they find the others (`PART`)."""
    source = '{% kept "row-1" changing as "tr" %}<td>{{ board.turn }}</td>{% endkept %}'
    phone = drawn(source, board=BEFORE)
    assert re.fullmatch(r'<tr id="row-1" data-kept="\w+"><td>1</td></tr>', phone)
    assert re.fullmatch(r'<tr id="row-1" data-kept="\w+" hx-preserve></tr>', answer(source, phone, board=BEFORE))
    assert screen.shown(phone) == " ".join(shown(phone))
    with pytest.raises(TemplateSyntaxError, match="a div, an li or a tr"):
        drawn('{% kept "cell" changing as "td" %}x{% endkept %}')


def test_a_value_not_set_or_called_is_digested_as_the_template_reads_it():
    """A part's reads step through plain dicts themselves and take a name not set as None without Django's search:
    a value set later, one called (a callable in a dict), one through an object's attribute, and one of a name that
    only the `{% with %}` around a part's loop binds all still count."""
    class Seat:
        def __init__(self, name: str) -> None:
            self.name = name

    source = ('{% kept "p" changing %}{{ later }} {{ board.missing.deep }} {{ board.count }} {{ board.seat.name }}'
              '{% for unit in board.units %}{% with hp=unit.hp %}{{ hp }}{% endwith %}{% endfor %}{% endkept %}')
    board = {**BEFORE, "count": lambda: 1, "seat": Seat("Ana")}
    phone = drawn(source, board=board)
    assert "hx-preserve" in answer(source, phone, board={**board, "count": lambda: 1})
    for changed in ({"later": "now"}, {"board": {**board, "missing": {"deep": 1}}}, {"board": {**board, "count": lambda: 2}},
                    {"board": {**board, "seat": Seat("Ben")}}, {"board": {**board, "units": [{"name": "Comet", "hp": 4}]}}):
        assert "hx-preserve" not in answer(source, phone, **{"board": board, **changed}), changed


def test_equal_values_give_one_digest_whichever_objects_hold_them():
    """The digest writes a part's values by what they are (`marshal`'s version 2, which refers to no object twice):
    a name the page read from the state and the same name the engine made, an object met twice or two equal ones,
    a safe string and a plain one give one digest; a value of another type another."""
    from tracker.templatetags.regions import digest

    made = "".join(["Comet ", "Wanderer"])
    unit = {"name": "Comet Wanderer", "hp": 5}
    assert digest([[unit, unit], "Comet Wanderer", 5], Context()) == digest(
        [[unit, dict(unit)], made, 5], Context()) == digest([({**unit, "name": made}, unit), mark_safe(made), 5], Context())
    for other in (["Comet Wanderer", 5.0], ["Comet Wanderer", True], ["Comet Wanderer", "5"], ["Comet Wanderer", None]):
        assert digest([[unit, unit], *other], Context()) != digest([[unit, unit], "Comet Wanderer", 5], Context()), other


@pytest.mark.parametrize("expression", ['"roll-"|add:unit.id', '"a"|add:"b"|upper', '"<b>"|linebreaksbr', '"x, y"|cut:", "',
                                        '"<i>x"|safe|slice:":3"', '"3"|add:unit.missing'])
def test_a_bound_literal_through_filters_is_what_django_makes_of_it(expression):
    """`{% include … with rid="roll-"|add:unit.id %}` in a part: its digest applies the filters itself, as Django does."""
    from tracker.templatetags.regions import _ready_bound

    bound = Template("{% with x=" + expression + " %}{% endwith %}").nodelist[0].extra_context["x"]  # type: ignore[attr-defined]
    context = Context({"unit": {"id": 7}})
    try:
        django = bound.resolve(context)
    except Exception as error:  # noqa: BLE001 - the same failure either way
        with pytest.raises(type(error)):
            _ready_bound(bound)({}, context.flatten(), context)
        return
    made = _ready_bound(bound)({}, context.flatten(), context)
    assert (made, type(made)) == (django, type(django))


def test_a_part_is_digested_by_what_it_reads_of_a_list_not_by_all_the_list_holds():
    """A part listing the units by name is kept when only a unit's damage changed; a part that tests a value
    (`{% if %}`) is kept while the test comes out the same."""
    source = ('{% kept "p" changing %}{% if board.units %}{% for unit in board.units %}{{ unit.name }}{% endfor %}'
              "{% endif %}{% endkept %}")
    phone = drawn(source, board=BEFORE)
    assert "hx-preserve" in answer(source, phone, board={**BEFORE, "units": [{"name": "Comet", "hp": 1}]})
    assert "hx-preserve" not in answer(source, phone, board={**BEFORE, "units": [{"name": "Ember", "hp": 5}]})
    assert "hx-preserve" not in answer(source, phone, board={**BEFORE, "units": []})


def test_a_name_a_part_sets_itself_is_not_read_from_what_came_before():
    """`{% … as sent %}` inside a part: the part's digest is what the tag made of its arguments, not whatever an
    earlier part left under that name, so the same part has the same digest however the page was drawn."""
    source = ('{% kept "p" changing %}{% firstof board.turn "-" as sent %}{% with picked=sent %}{{ picked }}{% endwith %}'
              "{% if sent %}{{ sent }}{% endif %}{% endkept %}")
    alone = shown(drawn(source, board=BEFORE))
    assert shown(drawn(source, board=BEFORE, sent="left by an earlier form")) == alone
    assert shown(drawn(source, board={**BEFORE, "turn": 2})) != alone, "what the tag reads still counts"


def test_a_lazy_translation_is_digested_by_its_message_in_the_language_drawn():
    """A word a board holds lazily (a stat's label, a zone's name) counts by its message: the digest has the
    language and the release, so the text need not be looked up in the catalogues for it (as it was, for each part
    of each fetch); another message, another language or another engine word gives another digest."""
    from unittest import mock

    from django.utils import translation
    from django.utils.translation import gettext_lazy, pgettext_lazy

    from rules.errors import Word
    from tracker.matches.engine_messages import engine_word_lazy
    from tracker.templatetags.regions import digest

    words = [gettext_lazy("Deck"), pgettext_lazy("lonely-star", "Deck"), engine_word_lazy("lonely-star", "AT")]
    with mock.patch.object(translation._trans, "gettext", side_effect=AssertionError("looked up")), \
            mock.patch.object(translation._trans, "pgettext", side_effect=AssertionError("looked up")):
        english = digest(words, Context())
    with translation.override("de"):
        assert digest(words, Context()) != english
    assert digest(words, Context()) == english
    assert digest([pgettext_lazy("lonely-star", "Hand"), *words[1:]], Context()) != english
    assert digest(["Deck", *words[1:]], Context()) != english
    assert digest([engine_word_lazy("evons", Word("a", "b"))], Context()) != digest(
        [engine_word_lazy("evons", "a, b")], Context())


def test_a_lazy_words_message_kept_by_its_object_is_never_another_words():
    """The message of each lazy word met is kept by the object's id (`_said`), the object with it: words made and
    dropped one after another (whose ids Python gives again) each keep a digest of their own."""
    from django.utils.translation import gettext_lazy

    from tracker.templatetags.regions import digest

    assert len({digest([gettext_lazy(f"Word {n}")], Context()) for n in range(5000)}) == 5000


def test_a_games_own_translations_are_in_the_release_a_digest_has():
    """A deploy that changes only a game's catalogue (tracker/games/<game>/locale) changes every digest too: a
    word digested by its message is then drawn anew in its new German."""
    from tracker.templatetags.regions import released

    files = {str(path) for path in released()}
    assert any("/tracker/games/lonely_star/locale/" in path for path in files)
    assert any("/tracker/locale/" in path for path in files) and any("/templates/" in path for path in files)


def demo_under_way():
    """Each demo match that is not a club's, moved back to the middle of its log so its forms show."""
    demo.load()
    for match in Match.objects.filter(club__isnull=True).order_by("pk"):
        yield services.match_goto(step=match.head // 2, expected_seq=match.head, match=match)


def one_digest_each(client: Client, match: Match) -> set[str]:
    """The page, its `#match` part drawn for a phone showing nothing, and drawn for a phone showing every part give
    each part one digest, and the last keeps every part. The parts found."""
    url = match.get_absolute_url()
    page = client.get(url).content.decode()
    parts = shown(page)
    htmx = {"HX-Request": "true", "HX-Target": "match", "X-Kept": "1"}
    assert shown(client.get(url, headers={**htmx, "X-Shown": ""}).content.decode()) == parts, match.slug
    every = client.get(url, headers={**htmx, "X-Shown": " ".join(sorted(parts))}).content.decode()
    # Each part is kept, as a placeholder of its own or inside the kept part around it (a form among the turn's).
    outermost = {part.split("=")[0] for part in parts if len(screen.around(page, page.index(f'id="{part.split("=")[0]}"'))) == 1}
    assert set(re.findall(r'id="([\w-]+)" data-kept="\w+" hx-preserve>', every)) == outermost, match.slug
    return parts


@pytest.mark.django_db
def test_every_part_has_one_digest_however_the_page_is_drawn():
    """Each demo match, moved back to the middle of its log so its forms show: the page, its `#match` part
    drawn for a phone showing nothing, and drawn for a phone showing every part give each part one digest,
    and the last keeps every part. (A name set inside a part used to be read from what the part before it
    left: the other phone's refresh drew every unit of a Lonely Star side again after each tap.) And a tap from the
    page a step behind is answered with the parts it lacks only (`behind_answered_as_kept`)."""
    checked, behind = set(), set()
    for match in demo_under_way():
        if one_digest_each(Client(), match):
            checked.add(match.slug)
        if behind_answered_as_kept(Client(), match):
            behind.add(match.slug)
    assert checked == {"lonely-star", "cardmaster", "evons", "logos"}, "the games with changing parts"
    assert behind == {"lonely-star", "cardmaster", "evons"}, "the games with a form in a changing part"


NEVER_KEPT = {"ev-play": "Evons' board is its play form, the empty cells its radio buttons: every move changes it, and "
                         "only the player in turn plays"}
"""Typed forms no part keeps, by id, and why."""


@pytest.mark.django_db
@pytest.mark.parametrize("phone", ["owner", "ben", "spectator"])
def test_every_part_has_one_digest_for_each_seat_and_a_spectator(phone):
    """The same for a club match of each game at its start, seen from Ana's phone (who owns it), Ben's (who
    joined for his seat: only his own forms) and a spectator's (none)."""
    table = Table(*rules.GAMES)
    for match in table.matches.values():
        one_digest_each(table.phones[phone], match)


class TypedForms(HTMLParser):
    """The forms of #match a player types into (a text or number field, a list), each with whether a part
    that an action may leave as it is (`data-kept`) holds it."""

    VOID = {"input", "br", "img", "link", "meta", "hr", "source", "wbr"}

    def __init__(self) -> None:
        super().__init__()
        self.open: list[tuple[str, bool]] = []
        self.form: dict | None = None
        self.forms: list[dict] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        at = dict(attrs)
        typed = tag in ("select", "textarea") or tag == "input" and at.get("type", "text") in ("text", "number")
        if self.form is not None and typed:
            self.form["fields"].append(at.get("name"))
        if tag in self.VOID:
            return
        self.open.append((tag, "data-kept" in at))
        if tag == "form":
            self.form = {"kept": any(kept for _tag, kept in self.open), "fields": [], "id": at.get("id")}
            self.forms.append(self.form)

    def handle_endtag(self, tag: str) -> None:
        while self.open and self.open.pop()[0] != tag:
            pass
        if tag == "form":
            self.form = None


@pytest.mark.django_db
def test_every_form_a_player_types_into_is_kept_while_it_shows_the_same():
    """A form half filled in on one phone outlasts the other phone's tap when the tap changed nothing it shows:
    the live fetch leaves out a part it would draw the same, and htmx keeps it as the phone shows it, typed
    text, open fold and all. Any other place on the board is drawn anew, and what was typed there lost."""
    typed = 0
    for match in demo_under_way():
        page = Client().get(match.get_absolute_url()).content.decode()
        forms = TypedForms()
        forms.feed(page[page.index('<div id="match"'):])
        for form in forms.forms:
            if form["fields"] and form["id"] not in NEVER_KEPT:
                typed += 1
                assert form["kept"], f"{match.slug}: a form with {form['fields']} in no kept part"
    assert typed > 10


def behind_answered_as_kept(client: Client, match: Match) -> bool:
    """A tap from a page one step behind is refused (409) with the fresh #match, drawn as after any change: the
    parts the phone shows as they are now are left out, the part the tap came from is drawn anew with the refused
    form and why. (It used to draw every part, half again the bytes and the CPU of an accepted tap.) False when no
    form of a changing part is refused as stale (none is refused as incomplete first)."""
    from perf.tables.forms import read_forms

    htmx = {"HX-Request": "true", "HX-Target": "match", "X-Kept": "1"}
    page = client.get(match.get_absolute_url()).content.decode()
    act = match.get_absolute_url() + "act/"
    for sent in (form for form in read_forms(page) if form.action == act and screen.around(page, form.at)):
        around = screen.around(page, sent.at)
        pressed = ("action", sent.button_values()[0]) if sent.button_values() else None
        refused = client.post(act, {**sent.data(pressed), "seq": str(match.head - 1)},
                              headers={**htmx, "X-Shown": screen.shown(page, around)})
        if refused.status_code == 409:
            break
    else:
        return False
    answer = refused.content.decode()
    assert "moved on" in answer, match.slug
    left_out = set(re.findall(r'id="([\w-]+)" data-kept="\w+" hx-preserve>', answer))
    assert left_out and not left_out & set(around), (match.slug, around)
    assert 'role="alert"' in answer[answer.index(f'id="{around[0]}"'):], match.slug  # why, beside the form
    after, before = ({part.split("=")[0] for part in shown(drawn)} for drawn in (screen.keep(page, answer), page))
    assert after == before, "the screen shows every part it did"
    return True


@pytest.mark.parametrize(("tag", "per_form"), [
    ('{% refused_form "attack" unit=unit.id as sent %}', True),
    ('{% refused_form "attack" unit=unit.id seat=board.seat as sent %}', False),  # a loop's name and the context's
    ('{% refused_form "attack" unit=forloop.counter as sent %}', False),
])
def test_a_part_reads_whether_its_refused_form_tag_gives_the_refused_form(tag, per_form):
    """A part's digest reads what each `refused_form` tag in it gives (whether it is the refused form); a tag whose
    arguments it could not read in one scope counts whether anything was refused, as every part once did."""
    from tracker.templatetags import regions

    part = Template('{% load regions board_forms %}{% kept "p" changing %}{% for unit in board.units %}' + tag
                    + "{{ unit.name }}{% endfor %}{% endkept %}").nodelist[1]
    found: dict = {}
    regions._read(part.nodelist, found, set())
    reads = found["for unit in board.units"].reads
    assert any(isinstance(read, regions._Tag) for read in reads) is per_form
    assert ("if refused" in found) is not per_form
