"""`{% grid_rows board viewer read_only as rows %}`: the Evons board's rows, drawn for this phone
(tracker/games/evons/grid.py), each a kept part of the page by what it shows."""

from django import template

from tracker.games.evons import grid

from .board_forms import plays

register = template.Library()


@register.simple_tag
def grid_rows(board: dict, viewer, read_only: bool) -> list[dict]:
    """The rows; a cell a card may go on is a radio button of the play form on the phone that plays the step."""
    return grid.rows(board, picking=not read_only and plays(viewer, board["seat"]))
