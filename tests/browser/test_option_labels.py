"""The new-match options at phone size: every radio and checkbox is tapped by its label, at least 44 px high."""

import pytest
from playwright.sync_api import Page

import rules

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SMALL_LABELS = """() => [...document.querySelectorAll('input[type=radio], input[type=checkbox]')].map((input) => {
  const label = input.closest('label') || document.querySelector(`label[for="${input.id}"]`);
  const box = (label || input).getBoundingClientRect();
  return {name: input.name, value: input.value, label: !!label, height: Math.round(box.height)};
}).filter((found) => !found.label || found.height < 44)"""


@pytest.mark.parametrize("slug", list(rules.GAMES))
def test_every_option_label_is_a_thumb_high(make_context, slug):
    page: Page = make_context().new_page()
    page.goto(f"/matches/new/{slug}/")
    assert page.evaluate(SMALL_LABELS) == [], slug
