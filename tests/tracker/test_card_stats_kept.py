"""A match keeps the stats its cards had when they were entered: a later catalog correction
never rescores it, nor changes what its pages show. One finished match per demo script of every
game; every catalog card it used is then corrected; the match must replay to the same state and
result, its file must still re-run, and its pages must read exactly as before.
"""

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

import rules
from tracker import demo
from tracker.catalog import changes as card_changes
from tracker.games import ADAPTERS, pages_for
from tracker.matches import services
from tracker.models import Card, Match
from tracker.review import exchange

pytestmark = pytest.mark.django_db

SCRIPTS = [(slug, name) for slug, pages in ADAPTERS.items() for name in pages.demo_matches]


def play(slug: str, script: str) -> Match:
    return pages_for(slug).demo_matches[script]()


def corrected(slug: str, card: Card) -> dict:
    """The card's stats with every number moved by one, the way that the engine still accepts."""
    validate = rules.GAMES[slug].validate_card
    stats = dict(card.stats)
    for key, value in card.stats.items():
        if type(value) is not int:
            continue
        for moved in (value + 1, value - 1):
            try:
                validate({"name": card.name, **stats, key: moved})
            except rules.RuleError:
                continue
            stats[key] = moved
            break
    return stats


def page(client: Client, url: str) -> str:
    """The page as served, without its CSRF tokens (masked afresh on every response)."""
    html = client.get(url).content.decode()
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)
    return re.sub(r'"x-csrftoken": "[^"]+"', "", html)


def pages(client: Client, match: Match) -> dict[str, str]:
    urls = [match.get_absolute_url(), reverse("match_log", args=[match.pk]),
            reverse("match_export_text", args=[match.pk]), reverse("match_export_json", args=[match.pk])]
    urls += [f"{reverse('match_replay', args=[match.pk])}?step={step}" for step in range(1, match.head + 1)]
    return {url: page(client, url) for url in urls}


@pytest.mark.parametrize(("slug", "script"), SCRIPTS)
def test_a_catalog_correction_never_changes_a_match_played_before(client, slug, script):
    demo.load_catalogs()
    match = play(slug, script)
    assert match.finished is not None
    before = (match.state, match.winner_id, match.score, pages(client, match))
    used = list(Card.objects.filter(uses__match=match))
    assert used, "the match used catalog cards"
    staff = card_changes.Editor(user=get_user_model().objects.create_user("sam", is_staff=True), device="")
    changed = 0
    for card in used:
        stats = corrected(slug, card)
        changed += stats != card.stats
        card_changes.card_edit(staff, card.pk, card.name, stats)
    assert changed, "at least one card's stats were corrected"

    match = Match.objects.get(pk=match.pk)
    assert services.match_replay(match) == match.state == before[0]
    assert match.game.outcome(services.match_replay(match)) == match.game.outcome(before[0])
    services.record_outcome(match)
    assert (match.winner_id, match.score) == before[1:3]
    exchange.replay(exchange.export_match(match))  # the match file still re-runs, with the old stats
    after = pages(client, match)
    for url, html in before[3].items():
        assert after[url] == html, f"{url} changed after the catalog was corrected"
