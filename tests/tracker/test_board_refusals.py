"""Every board form of every game, refused through htmx from the step the page shows: the answer leaves the page
as it is (HX-Reswap: none: what was typed, open folds) and puts why, out of band, in the slot beside the field it
concerns, the slot that field's control names in its aria-describedby; a refusal of no field goes in the form's
own slot, above it. Found, not listed: each game's demo matches are walked back step by step, each board form
drawn on the way is told by what it would send (BoardForms.bind), and each of its fields is sent with a value
the form refuses. A board form drawn at no step of any demo fails.

Without JavaScript (a plain POST) the page comes back drawn anew: the first control in error, or the form's own
errors, carry `autofocus`, which brings them into view as the page opens.
"""

import html
import re
from html.parser import HTMLParser

import pytest
from django.http import QueryDict
from django.urls import reverse

from tests.sample_game import every_game
from tracker.games import pages_for
from tracker.matches import services
from tracker.models import Match

from .helpers import snapshot, text

pytestmark = pytest.mark.django_db

BAD_VALUES = ["", "zz", "-99999", "99999999", "x" * 300]
"""Values tried in a field, in turn, until the form refuses that field."""


class Forms(HTMLParser):
    """The page's forms: each with its controls (name, type, value, aria-describedby) and error slots by id."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[dict] = []
        self.form: dict | None = None
        self.select: dict | None = None
        self.slot_ids: list[str] = []
        self.focused: list[list[str]] = []  # of each element with autofocus: its id, and the ids that describe it
        self.groups: list[list[str]] = []  # the descriptions of the fieldsets around: a radio group's error

    def handle_starttag(self, tag: str, attrs: list) -> None:
        at = {key: (value if value is not None else "") for key, value in attrs}
        if "autofocus" in at:
            self.focused.append([at.get("id", ""), *at.get("aria-describedby", "").split()])
        if "data-field-errors" in at:
            self.slot_ids.append(at["id"])
            if self.form is not None:
                self.form["slots"].append(at["id"])
        if tag == "form":
            self.form = {"action": at.get("action", ""), "controls": [], "slots": [], "submit": None}
            self.forms.append(self.form)
        elif self.form is None:
            return
        elif tag == "fieldset":
            self.groups.append(at.get("aria-describedby", "").split())
        elif tag in ("input", "select", "textarea", "button"):
            kind = at.get("type", "submit" if tag == "button" else "text")
            control = {"tag": tag, "type": kind, "name": at.get("name", ""), "value": at.get("value", ""),
                       "checked": "checked" in at,
                       "described": at.get("aria-describedby", "").split() + [d for group in self.groups for d in group]}
            if tag == "select":
                control["value"] = None
                self.select = control
            self.form["controls"].append(control)
            if tag == "button" and control["name"] and kind == "submit" and "disabled" not in at:
                self.form["submit"] = self.form["submit"] or (control["name"], control["value"])
        elif tag == "option" and self.select is not None and (self.select["value"] is None or "selected" in at):
            self.select["value"] = at.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.form = None
        elif tag == "select":
            self.select = None
        elif tag == "fieldset" and self.groups:
            self.groups.pop()


def page_forms(page: str) -> Forms:
    parsed = Forms()
    parsed.feed(page)
    return parsed


def sent(form: dict) -> QueryDict:
    """What the browser sends for `form` as drawn (its first named button the one tapped)."""
    data = QueryDict(mutable=True)
    for control in form["controls"]:
        if control["type"] in ("radio", "checkbox") and not control["checked"]:
            continue
        if control["name"] and control["type"] not in ("submit", "button"):
            data.appendlist(control["name"], control["value"] or "")
    if form["submit"]:
        data.appendlist(*form["submit"])
    return data


def refused_in(form_class, match: Match, data: QueryDict, name: str) -> tuple[QueryDict, str, bool] | None:
    """`data` with a value in `name` that the form refuses there, the form's error, and whether it is the only
    field refused; None when no value is refused."""
    for value in BAD_VALUES:
        bad = data.copy()
        bad.setlist(name, [value])
        form = form_class(bad, match=match)
        if not form.is_valid() and name in form.errors:
            return bad, str(form.errors[name][0]), set(form.errors) == {name}
    return None


def htmx_post(client, match: Match, data: QueryDict) -> tuple[str, dict[str, str]]:
    """An htmx post of `data` from the page at the match's step: refused, nothing changed; the answer's
    out-of-band slots, by id, as text."""
    match.refresh_from_db()
    before = snapshot(match)
    response = client.post(reverse("match_act", args=[match.pk]), data.urlencode(),
                           content_type="application/x-www-form-urlencoded", HTTP_HX_REQUEST="true")
    assert response.status_code in (403, 409, 422), (dict(data), response.status_code)
    assert snapshot(match) == before
    assert response["HX-Reswap"] == "none"
    answer = text(response)
    assert 'id="match"' not in answer, "the page stays as the player left it"
    slots = {slot_id: html.unescape(re.sub(r"<[^>]+>", "", said))
             for slot_id, said in re.findall(r'<span id="([^"]+)" hx-swap-oob="innerHTML">(.*?)</span>(?=<span|<div)',
                                              answer, re.S)}
    assert 'hx-swap-oob="innerHTML:[data-field-errors]"' in answer, "the slots a refusal before filled are emptied"
    return answer, slots


def plain_post(client, match: Match, data: QueryDict) -> list[list[str]]:
    """A plain post of `data` (no JavaScript): refused, and what the page it gets back focuses as it opens."""
    response = client.post(reverse("match_act", args=[match.pk]), data.urlencode(),
                           content_type="application/x-www-form-urlencoded")
    assert response.status_code in (403, 409, 422), (dict(data), response.status_code)
    return page_forms(text(response)).focused


def walk(match: Match):
    """The match at each step from its last back to its first."""
    for step in range(match.head, -1, -1):
        if step != match.head:
            match = services.match_goto(match=match, step=step, expected_seq=match.head)
        yield match


@pytest.mark.parametrize("slug", every_game())
def test_every_board_form_refused_through_htmx_says_why_beside_the_field(client, catalog, slug):
    board_forms = pages_for(slug).modules.forms.BOARD_FORMS
    wanted = {form_class for form_class in board_forms.classes if form_class.drawn}
    checked: set[type] = set()
    for script in pages_for(slug).demo_matches.values():
        for match in walk(script(("Ana", "Ben"))):
            page = text(client.get(match.get_absolute_url()))
            parsed = page_forms(page)
            assert len(parsed.slot_ids) == len(set(parsed.slot_ids)), "each slot is the page's only one of its id"
            act = reverse("match_act", args=[match.pk])
            for form in (form for form in parsed.forms if form["action"] == act):
                data = sent(form)
                if "action" not in data:
                    continue  # every button of it disabled: nothing to send
                data["seq"] = str(match.head)
                form_class = type(board_forms.bind(match, data))
                assert form_class in wanted, f"a form on the board that no board form sends: {dict(data)}"
                if form_class not in checked:
                    check_form(client, match, form, form_class, data)
                    checked.add(form_class)
            if checked == wanted:
                return
    missing = sorted(form_class.__name__ for form_class in wanted - checked)
    assert not missing, f"board forms drawn at no step of {slug}'s demo matches: {missing}"


def check_form(client, match: Match, form: dict, form_class, data: QueryDict) -> None:
    """Each of `form`'s fields refused in turn, and the form as a whole."""
    tied = {slot for control in form["controls"] for slot in control["described"] if slot in form["slots"]}
    own = [slot for slot in form["slots"] if slot not in tied]
    assert len(own) == 1, f"{form_class.__name__}: one slot for the form's own errors, above it; found {own}"
    fields = form_class(match=match).fields
    seen: set[str] = set()
    plain: set[str] = set()
    for control in form["controls"]:
        name = control["name"]
        if name not in fields or name in seen or control["type"] in ("hidden", "submit", "button", "checkbox"):
            continue
        seen.add(name)
        refused = refused_in(form_class, match, data, name)
        if refused is None:
            continue
        bad, error, alone = refused
        slot = next((slot for slot in control["described"] if slot in form["slots"]), None)
        assert slot, f"{form_class.__name__}.{name}: its control names no error slot of its form (aria-describedby)"
        _answer, slots = htmx_post(client, match, bad)
        assert error in slots.get(slot, ""), (form_class.__name__, name, error, slots)
        if alone and name not in plain:  # without JavaScript the page opens on it (autofocus: the browser scrolls to it)
            focused = plain_post(client, match, bad)
            assert len(focused) == 1 and slot in focused[0][1:], (form_class.__name__, name, focused)
            plain.add(name)
    if "roll" not in fields and form_class(data, match=match).is_valid():  # a die that is no number: refused as a whole
        bad = data.copy()
        bad["roll"] = "abc"
        _answer, slots = htmx_post(client, match, bad)
        assert "A die roll must be a whole number" in slots.get(own[0], ""), (form_class.__name__, slots)
        focused = plain_post(client, match, bad)
        assert [element[0] for element in focused] == [own[0]], form_class.__name__  # the form's own errors, focusable
