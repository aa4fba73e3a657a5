"""The new-match options at phone size: every radio and checkbox is tapped by its label, at least 44 px high,
and what a label's tap chose is what the match is started with."""

import re

import pytest
from playwright.sync_api import Page, expect

import rules
from tracker.games import pages_for
from tracker.models import Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SMALL_LABELS = """() => [...document.querySelectorAll('input[type=radio], input[type=checkbox]')].map((input) => {
  const label = input.closest('label') || document.querySelector(`label[for="${input.id}"]`);
  const box = (label || input).getBoundingClientRect();
  return {name: input.name, value: input.value, label: !!label, height: Math.round(box.height)};
}).filter((found) => !found.label || found.height < 44)"""
# A choice other than the default for each option (its last; Cardmaster's size its first, 3v3) and every
# checkbox, by name, value and the text of its label; Cardmaster's mode and AI faction are a Showdown's, tried below.
OTHER_CHOICES = """() => {
  const found = new Map();
  for (const input of document.querySelectorAll('input[type=radio], input[type=checkbox]')) {
    if (input.checked || ['config-opponent', 'config-ai_faction'].includes(input.name)) continue;
    if (input.name === 'config-size' && found.has(input.name)) continue;
    found.set(input.name, {key: input.name.replace('config-', ''), value: input.value, box: input.type === 'checkbox',
                           text: input.closest('label').innerText.trim()});
  }
  return [...found.values()];
}"""


@pytest.mark.parametrize("slug", list(rules.GAMES))
def test_every_option_label_is_a_thumb_high(make_context, slug):
    page: Page = make_context().new_page()
    page.goto(f"/matches/new/{slug}/")
    assert page.evaluate(SMALL_LABELS) == [], slug


def start(page: Page) -> Match:
    page.get_by_role("button", name="Start").tap()
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))
    return Match.objects.get(pk=int(re.search(r"/matches/(\d+)/$", page.url).group(1)))


def players(page: Page, names: list[str]) -> None:
    for number, name in enumerate(names, start=1):
        page.get_by_label(f"Player {number}", exact=True).fill(name)


@pytest.mark.parametrize("slug", list(rules.GAMES))
def test_a_choice_tapped_by_its_label_text_is_the_matchs(page: Page, slug):
    """A thumb lands on an option's words, not its round button: each other choice tapped so is the match's."""
    page.goto(f"/matches/new/{slug}/")
    players(page, ["Ana", "Ben"])
    choices = page.evaluate(OTHER_CHOICES)
    assert choices, slug
    for choice in choices:
        page.get_by_text(choice["text"], exact=True).tap()
    match = start(page)
    fields = pages_for(slug).config_form.base_fields
    for choice in choices:
        want = True if choice["box"] else fields[choice["key"]].clean(choice["value"])
        assert match.config.get(choice["key"]) == want, (slug, choice, match.config)


def test_a_showdown_chosen_by_its_label_says_it_is_nine_cards_a_side(page: Page, screenshot_dir):
    """3v3 tapped for a Showdown: the rulebook's Showdown is 9 cards a side, and the started match says so
    where the player looks, rather than quietly starting the 9v9 they did not choose."""
    page.goto("/matches/new/cardmaster/")
    players(page, ["Ana", "Bot"])
    page.get_by_text("Showdown against the AI, easy", exact=True).tap()
    page.get_by_text("3v3", exact=True).tap()
    expect(page.get_by_role("radio", name="3v3")).to_be_checked()
    expect(page.get_by_role("radio", name="Showdown against the AI, easy")).to_be_checked()
    match = start(page)
    assert match.config["size"] == 9 and match.config["showdown"]["level"] == "easy"
    expect(page.get_by_text("A Showdown is always 9 cards a side")).to_be_in_viewport()
    page.screenshot(path=screenshot_dir / "cardmaster-showdown-size-told.png")


def test_cardmasters_size_is_chosen_by_keyboard_too(page: Page):
    page.goto("/matches/new/cardmaster/")
    players(page, ["Ana", "Ben"])
    page.get_by_role("radio", name="6v6").focus()
    page.keyboard.press("ArrowUp")
    expect(page.get_by_role("radio", name="3v3")).to_be_checked()
    page.get_by_role("button", name="Start").focus()
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))
    assert Match.objects.get(pk=int(re.search(r"/matches/(\d+)/$", page.url).group(1))).config["size"] == 3
