"""The one reading of a typed whole number (rules/fields.py typed_number): every form, URL and file
field that takes digits reads them here."""

import pytest

from rules.fields import typed_number


@pytest.mark.parametrize("text, number", [("0", 0), ("7", 7), ("007", 7), ("123456789", 123456789), ("\uff11", 1)])
def test_digits_are_a_number(text, number):
    assert typed_number(text) == number


@pytest.mark.parametrize("text", ["", " 7", "-1", "+1", "1.5", "1e3", "1_000", "\u00b2", "NaN", "1234567890",
                                  "9" * 5000])
def test_anything_else_is_none(text):
    assert typed_number(text) is None


def test_the_digits_allowed_can_be_fewer():
    assert typed_number("999", 3) == 999 and typed_number("1000", 3) is None
