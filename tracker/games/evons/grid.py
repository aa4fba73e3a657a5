"""The Evons board's 7x7 grid, drawn here a row at a time: each row is a kept part of the page
(`{% kept … as "tr" %}`, tracker/templatetags/regions.py) whose digest is what the row shows, so an answer
leaves out the rows a step left as they were, and the rows it draws cost a few lines of Python each.

The template drew each cell in some ten tags (1.4 ms a board of radio buttons, a sixth of an answer with a play
form: docs/performance.md). The rows are drawn as that template drew them (the page the same but for each row's id
and digest, once the answer's blank lines are taken out: tracker/web/compression.py), in the page's order, so the
play form's first control in error is still the one given the focus (`invalid`).
"""

from django.utils.html import escape
from django.utils.safestring import SafeString

from tracker.matches.engine_messages import kept_pgettext as pgettext  # the same words on every tap: kept
from tracker.templatetags.board_forms import invalid

from ..board_forms import DrawnForm

_PIECE = ('<div class="ev-sq ev-p ev-f{owner}{covered}{block}" role="img"\naria-label="{label}">{arrows}\n'
          '<span class="ev-n">{name}</span>\n<span class="ev-s"><span class="ev-who">{initial}</span>{stats}</span></div>')
"""One card on the board: its arrows where they point now (a triangle on that edge or corner, an ability's letter in
it), its name (shortened), and the initial of the player it faces with ATK/current DEF."""



def _piece(shown: dict) -> str:
    """A card on the board (`_piece_view`), as its cell shows it."""
    arrows = "".join(
        f'<i class="ev-a ev-{arrow["direction"]} ev-x"></i><b\nclass="ev-l ev-l{arrow["direction"]}">{escape(arrow["symbol"])}</b>'
        if arrow["symbol"] else f'<i class="ev-a ev-{arrow["direction"]}"></i>' for arrow in shown["arrows"])
    covered = shown["covered"]
    if shown["block"]:
        stats = "▩"
    elif covered:
        stats = ""
    else:
        now = escape(shown["def_now"])
        stats = f'{escape(shown["card"]["atk"])}/' + (f'<span\nclass="ev-hurt">{now}*</span>' if shown["damaged"] else now)
    return _PIECE.format(
        owner=escape(shown["owner"]), covered=" ev-covered" if covered else "", block=" ev-block" if shown["block"] else "",
        label=escape(shown["description"]), arrows=arrows,
        name=("G?" if shown["growth"] else "?") if covered else escape(shown["short"]), initial=escape(shown["initial"]),
        stats=stats)


def _cell(cell: dict, picking: bool, play: DrawnForm | None) -> str:
    """One cell: its card, a radio button of the play form (on the phone that plays this step), or its name."""
    classes = ("ev-main" if cell["main"] else "ev-out") + (" ev-active" if cell.get("active") else "")
    if cell["changed"]:
        said = escape(pgettext("evons", "Changed by the last step:"))
        opened = f'<td class="ev-cell {classes}\n ev-changed"><span\nclass="sr-only">{said} </span>\n'
    else:
        opened = f'<td class="ev-cell {classes}\n">\n'
    name = cell["name"]
    if cell["piece"]:
        return f"{opened}{_piece(cell['piece'])}\n</td>"
    if cell["playable"] and picking:
        out = "" if cell["main"] else '<span\nclass="sr-only">' + escape(pgettext("evons", "(out zone)")) + "</span>"
        return (f'{opened}<label class="ev-sq ev-pick"><input type="radio" name="cell" value="{name}" required\n'
                f'{"checked" if cell["picked"] else ""}{invalid(play, "cell")}><span class="ev-pn">{name}</span>{out}</label>\n</td>')
    return f'{opened}<span class="ev-sq ev-k" aria-hidden="true">{name}</span></td>'


def rows(board: dict, picking: bool) -> list[dict]:
    """The grid's rows, each its id on the page and what it shows (the inside of its `<tr>`). `picking`: this phone
    plays the step, so each cell a card may go on is one of the play form's radio buttons."""
    play = board["play"]["refused"]
    return [{"id": f"ev-row-{row['row']}",
             "html": SafeString(f'<th scope="row">{row["row"]}</th>\n'
                                + "".join(_cell(cell, picking, play) for cell in row["cells"]) + "\n")}
            for row in board["grid"]]
