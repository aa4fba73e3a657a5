"""A load test's htmx phone keeps its screen as htmx does (perf/tables/screen.py).

The answer to a tap leaves out the kept parts the phone says it shows (`X-Shown`); the phone then
keeps the elements it showed. Played through the real table scripts against a live server: after
every such answer the phone's screen must offer exactly the forms a phone gets that is sent every
part (the live poll's fetch of `#match`), each sending what htmx would send (the step from `#match`).
"""

import re
import threading
import time
from urllib.parse import urlsplit

import pytest

from perf import loadtest
from perf.tables import TABLE_SCRIPTS, screen
from perf.tables.forms import read_forms
from perf.tables.phone import Phone
from tracker import demo
from tracker.models import Match

pytestmark = pytest.mark.load

KEPT_OUT = re.compile(r'data-kept="\w+" hx-preserve>')  # a part the answer leaves for the phone to keep


def sent(page: str) -> list[tuple]:
    """Each form of the page's `#match` (not the outcome box an answer brings along) as htmx sends it: its
    action, its fields with the step from #match, its choices and buttons (the CSRF token is masked anew at
    each drawing, and so is the one-time token of a form that makes something, tracker/matches/once.py:
    any of them is good)."""
    head = screen.head(page)
    start, end = screen.span(page, "match") or (0, 0)
    forms = []
    for form in read_forms(page[start:end]):
        data = {name: values for name, values in form.data().items() if name not in ("csrfmiddlewaretoken", "once")}
        if head is not None and "seq" in data:
            data["seq"] = [head]
        forms.append((form.action, sorted(data.items()), sorted(form.choices.items()), form.buttons))
    return forms


class WatchedPhone(Phone):
    """A load phone that, after each answer leaving parts out, also fetches the whole #match to compare."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.kept_answers = 0
        self.differences: list[str] = []

    def act(self, path, fields, htmx=False, around=()):
        status, location = super().act(path, fields, htmx, around)
        if htmx and KEPT_OUT.search(self.answer):
            self.kept_answers += 1
            match = int(path.split("/")[2])
            kept = self.shown(match)
            _status, _location, everything = super().request("GET", f"/matches/{match}/", htmx=True)
            assert "hx-preserve" not in everything, "the live poll's fetch draws every part"
            if sent(kept) != sent(everything):
                self.differences.append(f"step {screen.head(everything)}: {sent(kept)} != {sent(everything)}")
        return status, location


@pytest.mark.parametrize("slug", ["lonely-star", "cardmaster"])
def test_a_load_phone_keeps_the_parts_an_answer_leaves_out(live_server, transactional_db, slug):
    demo.load_catalogs()
    report = loadtest.Report(tables=1, workers=1, seconds=120, htmx=True)
    phone = WatchedPhone(urlsplit(live_server.url).port, report, threading.Lock(), time.monotonic() + 120, seed=3,
                         htmx=True)
    phone.slug = slug
    TABLE_SCRIPTS[slug](phone, 0, 0)
    assert report.errors == {}, report.errors
    assert Match.objects.get(slug=slug).finished, "the script played its match to the end"
    assert phone.kept_answers >= 5, "answers left parts out for the phone to keep"
    assert phone.differences == []


def test_a_kept_part_is_found_whole_with_the_divs_and_lis_inside_it():
    old = ('<div id="match"><ul><li id="a" data-kept="1"><div><div>A<ul><li>x</li></ul></div></div></li>'
           '<li id="b" data-kept="2">B</li></ul><div id="c"><div>C</div><form action="/f/"></form></div></div>')
    new = ('<div id="match"><ul><li id="a" data-kept="1" hx-preserve></li><li id="b" data-kept="3">B2</li></ul>'
           '<div id="c" hx-preserve></div></div>')
    assert screen.keep(old, new) == ('<div id="match"><ul><li id="a" data-kept="1"><div><div>A<ul><li>x</li></ul></div>'
                                     '</div></li><li id="b" data-kept="3">B2</li></ul><div id="c"><div>C</div>'
                                     '<form action="/f/"></form></div></div>')
    [form] = read_forms(old)
    assert old[form.at:].startswith('<form action="/f/">')
    assert screen.around(old, old.index("<ul><li>x")) == ("a",)
    assert screen.shown(old, leave_out=("a",)) == "b=2"


def test_a_pushed_part_keeps_what_the_screen_shows_as_drawn_and_refuses_a_stale_placeholder():
    """As table.js puts a part the stream pushed: a part drawn as the screen shows it stays as shown (typed text
    and all), a new digest is drawn anew, a placeholder is kept; a placeholder the screen does not show so
    (it changed on this phone since) makes the phone fetch instead."""
    old = '<div id="match"><li id="a" data-kept="1">A typed</li><li id="b" data-kept="2">B</li><li id="c" data-kept="5">C</li></div>'
    new = ('<div id="match"><li id="a" data-kept="1">A</li><li id="b" data-kept="3">B2</li>'
           '<li id="c" data-kept="5" hx-preserve></li></div>')
    assert screen.pushed(old, new) == ('<div id="match"><li id="a" data-kept="1">A typed</li><li id="b" data-kept="3">B2</li>'
                                       '<li id="c" data-kept="5">C</li></div>')
    assert screen.pushed(old, new.replace('data-kept="5" hx-preserve', 'data-kept="6" hx-preserve')) is None
