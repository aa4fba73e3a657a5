"""What an htmx phone's screen shows, as htmx and table.js keep it (tracker/templatetags/regions.py).

The answer to a tap leaves out the parts of `#match` the phone already shows as they would be drawn
now: each comes as an empty placeholder (`<div id="X" … hx-preserve></div>`, or an li or a tr), and htmx keeps the
element of that id from the screen before. With every htmx POST table.js says which parts the screen
shows (`X-Shown`: "id=digest" of each part with `data-kept`, but the parts around the form sent), and
htmx sends the step number from `#match`'s `hx-vals` in place of the form's own.
"""

import html
import json
import re

from tracker.templatetags.regions import KINDS, PART, parts_shown

PLACEHOLDER = re.compile(rf'<({"|".join(KINDS)}) id="([^"]+)"(?: data-kept="([^"]*)")? hx-preserve></\1>')
MATCH_VALS = re.compile(r"""<div id="match"[^>]*?\shx-vals='([^']*)'""")
TAGS = {tag: re.compile(rf"<(/?){tag}\b[^>]*>") for tag in KINDS}


def span(page: str, region: str) -> tuple[int, int] | None:
    """Where the part (a div, li or tr) with this id starts and ends (its own end tag: the same elements inside it are
    counted)."""
    found = re.search(rf'<({"|".join(KINDS)})\b[^>]*?\sid="{re.escape(region)}"', page)
    if found is None:
        return None
    depth = 0
    for tag in TAGS[found.group(1)].finditer(page, found.start()):
        depth += -1 if tag.group(1) else 1
        if depth == 0:
            return found.start(), tag.end()
    return None


def keep(old: str | None, new: str) -> str:
    """The screen after htmx swapped in `new`: each placeholder is the element of its id the old screen showed."""
    if not old:
        return new

    def kept(placeholder: re.Match) -> str:
        where = span(old, placeholder.group(2))
        return old[where[0]:where[1]] if where else placeholder.group(0)

    return PLACEHOLDER.sub(kept, new)


def pushed(old: str | None, new: str) -> str | None:
    """The screen after a part the live stream pushed with a change (table.js `put`): a part drawn as the screen
    shows it is kept as shown, the others as `keep` does; None when a part left out is not what the screen shows
    (the phone fetches instead)."""
    shown = dict(PART.findall(old or ""))
    for found in PLACEHOLDER.finditer(new):
        if found.group(3) is not None and shown.get(found.group(2)) != found.group(3):
            return None
    for region, key in PART.findall(new):
        where = span(new, region)
        if where is None or shown.get(region) != key:
            continue
        start = new[where[0]:new.index(">", where[0])]
        if "hx-preserve" not in start:
            tag = start[1:start.index(" ")]
            new = new[:where[0]] + f'<{tag} id="{region}" data-kept="{key}" hx-preserve></{tag}>' + new[where[1]:]
    return keep(old, new)


def around(page: str, at: int) -> tuple[str, ...]:
    """The ids of the kept parts that hold the point `at` of the page (a form's start)."""
    inside = []
    for part in PART.finditer(page):
        if part.start() > at:
            break
        where = span(page, part.group(1))
        if where and where[1] > at:
            inside.append(part.group(1))
    return tuple(inside)


def shown(page: str, leave_out: tuple[str, ...] = ()) -> str:
    """The `X-Shown` header table.js sends from this screen: every kept part but those around the form sent."""
    return parts_shown(page, leave_out)


def head(page: str) -> str | None:
    """The step `#match` gives every htmx request (its `hx-vals`: the board, "5-7", Match.board_mark), if the screen
    shows one."""
    found = MATCH_VALS.search(page)
    return str(json.loads(html.unescape(found.group(1)))["seq"]) if found else None


def step(drawn: str) -> int:
    """The step number of a form's `seq` ("5-7" or "5")."""
    return int(drawn.partition("-")[0])
