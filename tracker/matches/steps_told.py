"""The step a plain POST just took, told to the page it redirects to (a flash message of its own), so the
page's outcome region shows what came of it: the step's log entry and its working."""

from django.contrib import messages
from django.http import HttpRequest

from rules.fields import typed_number

STEP_DONE = "step-done"
"""The tag of the flash message; it carries "<match>:<step>"."""
REVEALING_ENTRY = "revealing-entry"
"""Beside STEP_DONE: the step was a secret entry that revealed the entries. Its log title may name
what the board still keeps face down (a Card Crush deck's later rounds), so the box does not say it."""


def tell(request: HttpRequest, match_id: int, step: int, revealing: bool = False) -> None:
    tags = f"{STEP_DONE} {REVEALING_ENTRY}" if revealing else STEP_DONE
    messages.add_message(request, messages.SUCCESS, f"{match_id}:{step}", extra_tags=tags)


def is_step(message) -> bool:
    return STEP_DONE in message.extra_tags.split()


def step_of(message, match_id: int) -> tuple[int, bool] | None:
    """(step, revealing) told by a STEP_DONE message, if it is of this match (another match's is dropped)."""
    told_in, _sep, step = message.message.partition(":")
    number = typed_number(step)
    return (number, REVEALING_ENTRY in message.extra_tags.split()) if told_in == str(match_id) and number is not None else None
