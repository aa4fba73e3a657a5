"""Steps every table script takes: start a match, make a secret entry, press a board form.

Each step reads the page it acts on and sends that page's own form, as a phone would.
On purpose it also sends some forms twice (a double tap) and some first with an older
`seq` (a stale page): both must change nothing, refused with 409 or, for an open tap the
match already holds at that step, answered as recorded (phone.py). Every match tries
each trick at least once, on its first action that can carry it, then at random.
A request cut off by a crash raises Dropped; the steps then reload and carry on from
whatever the server says the match is at now.

On an htmx phone (phone.py) a board form is sent as htmx sends it (the step from `#match`,
`X-Shown`) and the answer, the `#match` part with the kept parts as the screen showed them
(screen.py), is what the next step reads its forms from; the match page is loaded whole
only when the phone arrives on it (a new match, after a secret entry, after a lost request).
A secret entry and a new match stay plain forms with a redirect, as their pages are.
"""

import re

from . import screen
from .forms import Form, datalist, read_forms
from .phone import Dropped, Phone

DOUBLE_RATE = 0.25  # share of action forms sent twice
STALE_RATE = 0.2  # share of action forms first sent again from an older page
MOST_ACTIONS = 400  # a script that plays on past this is stuck; the check then finds the match unfinished


def applied(status: int) -> bool:
    """Whether the server took the form: a redirect to the page (plain), or the fresh part (htmx)."""
    return status in (200, 302)


def start_match(phone: Phone, slug: str, table: int, number: int, **config) -> int | None:
    """The "New match" page filled in with two players and `config` over its defaults; the new match's id."""
    path = f"/matches/new/{slug}/"
    phone.tricks = set()
    phone.show(0, None)
    while not phone.late:
        try:
            _status, _location, page = phone.get(path)
            form = next(form for form in read_forms(page) if form.has("player_0"))
            typed = {f"config-{name}": str(value) for name, value in config.items()}
            data = form.data(None, player_0=f"Table {table} A{number}", player_1=f"Table {table} B{number}", **typed)
            status, location = phone.act(path, data)
        except Dropped:
            continue  # maybe made, maybe not: an unfinished match is still checked afterwards
        made = re.search(r"/matches/(\d+)/", location) if status == 302 else None
        if made:
            return int(made.group(1))
        phone.count(phone.report.errors, f"new {slug} match answered {status}")
        return None
    return None


def play_out(phone: Phone, match: int, turn) -> None:
    """Load the match page and let `turn(page, forms)` send one step, again and again, until it
    says the match is over (returns False), the deadline passes or MOST_ACTIONS steps are taken.
    A request cut off by a crash only means reloading the page and carrying on from there."""
    for _ in range(MOST_ACTIONS):
        if phone.late:
            return
        try:
            page, forms = match_page(phone, match)
            if turn(page, forms) is False:
                return
        except Dropped:
            continue


def match_page(phone: Phone, match: int) -> tuple[str, list[Form]]:
    """The match as the phone shows it, and its board's action forms (not undo, sharing and the like).

    A phone without JavaScript loads the page each time; an htmx phone reads the part on its
    screen, and loads the page only when it has none.
    """
    page = phone.shown(match)
    if page is None:
        _status, _location, page = phone.get(f"/matches/{match}/")
        phone.show(match, page)
    forms = [form for form in read_forms(page) if form.action == f"/matches/{match}/act/"]
    if phone.htmx:
        for form in forms:
            form.parts = screen.around(page, form.at)
    return page, forms


def send(phone: Phone, match: int, form: Form, data: dict, kind: str, seat: int | None, tricks: bool = True) -> int:
    """POST a form; on success record the acknowledged step. Returns the answer's status.

    `kind` and `seat` are what the stored action must say at that step ("type" and "seat"). Without
    `tricks` no stale form goes first and no double tap after: the POST alone, as a phone that measures.
    """
    what = "entry" if "/entry/" in form.action else "action"
    htmx = phone.htmx and what == "action"  # the entry page's form is a plain one
    phone.think()
    head = screen.head(phone.shown(match) or "") if htmx else None
    if head is not None:  # htmx sends the step from #match: a kept part's form was drawn at an earlier one
        data = {**data, "seq": [head]}
    seq = screen.step(data["seq"][0])
    if tricks and seq > 0 and ("stale" not in phone.tricks or phone.rng.random() < STALE_RATE):
        phone.tricks.add("stale")
        stale = {**data, "seq": [str(seq - 1)]}
        phone.expect_refusal(phone.act(form.action, stale, htmx, form.parts)[0], f"stale {what}", match, seq)
    status, _location = phone.act(form.action, data, htmx, form.parts)
    if applied(status):
        phone.acknowledge(match, seq + 1, kind, seat)
        if tricks and ("double" not in phone.tricks or phone.rng.random() < DOUBLE_RATE):
            phone.tricks.add("double")
            phone.expect_refusal(phone.act(form.action, data, htmx, form.parts)[0], f"double {what}", match, seq + 1)
    else:
        phone.count(phone.report.refusals, f"{phone.slug} {what} {status}, page reloaded")
    if not htmx:
        phone.show(match, None)  # a plain form's answer leads to the page, loaded afresh
    return status


def enter(phone: Phone, match: int, seat: int, fill) -> None:
    """A seat's secret entry on its entry page, tried until the server takes it.

    `fill(phone, form, page, attempt)` gives the data to send and the action type it makes;
    `attempt` counts the refusals so far, so it can fall back to a plainer entry.
    """
    path = f"/matches/{match}/seat/{seat}/entry/"
    attempt = 0
    while not phone.late and attempt < 10:
        try:
            status, _location, page = phone.get(path)
            if status == 302:
                return  # this seat is no longer awaited (perhaps locked by a request cut off by a crash)
            form = next(form for form in read_forms(page) if form.action == path)
            data, kind = fill(phone, form, page, attempt)
            status = send(phone, match, form, data, kind, seat)
            if applied(status):
                return
            attempt += status == 422
        except Dropped:
            continue
    if not phone.late:
        phone.count(phone.report.errors, f"{phone.slug}: seat {seat}'s entry refused {attempt} times")


def entry_seats(page: str, match: int) -> list[int]:
    """Seats whose secret entry the board links to (this phone passes it to each player in turn)."""
    found = re.findall(rf'href="/matches/{match}/seat/(\d+)/(?:pass|entry)/"', page)
    return sorted({int(seat) for seat in found})


def catalog_picks(phone: Phone, form: Form, page: str, prefix: str) -> dict[str, str]:
    """Different catalog cards (the page's datalist) for the fields named prefix1, prefix2, ..."""
    slots = [name for name, _value in form.fields if re.fullmatch(rf"{prefix}\d+", name)]
    return dict(zip(slots, phone.rng.sample(datalist(page, "catalog"), len(slots)), strict=True))


def pick(forms: list[Form], action: str, **fields: str) -> Form | None:
    """The first form doing `action` whose hidden fields match `fields`."""
    return next((form for form in forms if form.value("action") == action
                 and all(form.value(name) == value for name, value in fields.items())), None)


def need(forms: list[Form], action: str) -> Form:
    """The form doing `action`, which the page always offers at this point."""
    form = pick(forms, action)
    if form is None:
        raise LookupError(f"the page offers no {action!r} form")
    return form
