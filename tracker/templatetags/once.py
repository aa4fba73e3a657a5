"""`{% once %}`: the hidden one-time token of a form that makes something (see tracker/matches/once.py)."""

from django import template
from django.utils.html import format_html

from tracker.matches.once import FIELD, new_token

register = template.Library()


@register.simple_tag
def once() -> str:
    return format_html('<input type="hidden" name="{}" value="{}">', FIELD, new_token())
