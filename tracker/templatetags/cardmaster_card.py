"""`{% card_face card %}` and `{% card_moves card sent rolls_open raided %}`: a Cardmaster card's face and its
moves, drawn in Python (tracker/games/cardmaster/card.py). What each draws follows from its arguments and the
language alone, so a kept part (regions.py) digests what they show by reading their arguments; the moves take the
context for the error slots they fill (`field_error`)."""

from django import template

from tracker.games.cardmaster import card

register = template.Library()
register.simple_tag(card.face, name="card_face")
register.simple_tag(card.moves, takes_context=True, name="card_moves")
