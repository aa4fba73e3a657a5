"""Shared cast and data for the tracker tests.

Personas: Ana (seat 0) and Ben (seat 1) at a fresh Card Crush battle, with the demo
catalog loaded. Helpers lock decks through the services, the way the pages do, and
take a snapshot of everything a refused request must leave alone.
"""

import re

import pytest
from django.core import signing
from django.test import Client
from django.urls import reverse

from tracker import demo, services
from tracker.models import Action, Card, Checkpoint, Match, Player
from tracker.views import ENTRY_SALT

# Seat 0's deck in the rulebook's example: Ember Fox (Fire 7/5) meets Tide Runner (Water 6/8) in round 1.
ANA_DECK = ["Ember Fox", "Storm Caller", "Stone Golem", "Phoenix", "Gale Sprite"]
BEN_DECK = ["Tide Runner", "Frost Wisp", "Sky Lancer", "Void Lord", "Thorn Sprout"]
# Another deck for seat 0: no card in common with ANA_DECK, nor with BEN_DECK.
ANA_OTHER_DECK = ["Leviathan", "Sun Paladin", "Night Stalker", "Winter Queen", "Volt Imp"]

PLAY = {"type": "play_round"}


@pytest.fixture
def catalog(db) -> dict[str, Card]:
    """The demo Card Crush catalog, by name."""
    demo.load_catalogs()
    return {card.name: card for card in Card.objects.filter(slug="card-crush")}


@pytest.fixture
def match(catalog) -> Match:
    """A fresh battle: Ana in seat 0, Ben in seat 1, nothing locked yet."""
    return services.match_create(slug="card-crush", player_names=["Ana", "Ben"], config={})


@pytest.fixture
def ana(match) -> Player:
    return Player.objects.get(name="Ana")


@pytest.fixture
def ben(match) -> Player:
    return Player.objects.get(name="Ben")


def deck(names: list[str]) -> list[dict]:
    cards = {card.name: card for card in Card.objects.filter(slug="card-crush", name__in=names)}
    return [cards[name].as_rules_card() for name in names]


def lock(match: Match, seat: int, names: list[str]) -> Match:
    """Lock a deck for a seat through the services (as the entry page does); the match, refreshed."""
    match.refresh_from_db()
    services.match_apply_action(
        match_id=match.pk, action={"type": "lock_deck", "seat": seat, "cards": deck(names)}, expected_seq=match.head
    )
    match.refresh_from_db()
    return match


def lock_both(match: Match, seat0: list[str] = ANA_DECK, seat1: list[str] = BEN_DECK) -> Match:
    lock(match, 0, seat0)
    return lock(match, 1, seat1)


def play(match: Match, rounds: int = 1) -> Match:
    """Reveal the next round(s) through the services."""
    for _ in range(rounds):
        match.refresh_from_db()
        services.match_apply_action(match_id=match.pk, action=PLAY, expected_seq=match.head)
    match.refresh_from_db()
    return match


def play_out(match: Match) -> Match:
    match.refresh_from_db()
    while match.finished is None:
        play(match)
    return match


@pytest.fixture
def locked(match) -> Match:
    """Both decks locked: Ana ANA_DECK, Ben BEN_DECK; round 1 is next."""
    return lock_both(match)


@pytest.fixture
def finished(locked) -> Match:
    return play_out(locked)


def assert_every_match_replays() -> None:
    """snapshot == fold(log) for every stored match, caches included.

    Each match's state, its every checkpoint and the counters on its row agree with re-running
    its log from the seed (services.replay_problems), and every step of the current line that
    is a multiple of CHECKPOINT_EVERY has its checkpoint (so undo there never starts far back).
    """
    for match in Match.objects.all():
        assert services.replay_problems(match) == [], f"{match}: {services.replay_problems(match)}"
        kept = sorted(Checkpoint.objects.filter(match=match).values_list("seq", flat=True))
        every = services.CHECKPOINT_EVERY
        assert kept == list(range(every, match.line_length + 1, every)), f"{match}: checkpoints at {kept}"


def snapshot(match: Match) -> tuple:
    """Everything a refused request must leave as it was."""
    match = Match.objects.get(pk=match.pk)
    actions = list(Action.objects.filter(match=match).order_by("number").values_list("number", "seq", "abandoned"))
    return (match.head, match.state, match.finished, match.winner_id, match.score, actions)


def entry_token(match: Match, seat: int) -> str:
    return signing.dumps({"match": match.pk, "seat": seat}, salt=ENTRY_SALT)


def entry_data(match: Match, seat: int, names: list[str], **extra) -> dict:
    """A lock-in form as the entry page sends it."""
    match.refresh_from_db()
    data = {"seq": match.head, "entry_token": entry_token(match, seat)}
    data.update({f"card_{position}": name for position, name in enumerate(names, start=1)})
    data.update(extra)
    return data


def entry_url(match: Match, seat: int) -> str:
    return reverse("match_entry", args=[match.pk, seat])


def token_from_page(html: str) -> str:
    found = re.search(r'name="entry_token" value="([^"]+)"', html)
    assert found, "the entry page has no entry_token field"
    return found.group(1)


def text(response) -> str:
    return response.content.decode()


@pytest.fixture
def csrf_client() -> Client:
    return Client(enforce_csrf_checks=True)


def make_card(name: str, power: int, speed: int, affinity: str = "Air") -> Card:
    return Card.objects.create(
        slug="card-crush", name=name,
        stats={"power": power, "speed": speed, "affinity": affinity, "rarity": "Common", "level": 1},
    )


@pytest.fixture
def mirror_decks(catalog) -> tuple[list[str], list[str]]:
    """Two decks of identical cards (Air 5/5): every round is tied down to the coin flip."""
    decks = ([], [])
    for seat, prefix in enumerate(("Mirror A", "Mirror B")):
        for number in range(1, 6):
            decks[seat].append(make_card(f"{prefix}{number}", 5, 5).name)
    return decks


# Values no form should choke on: every POST endpoint answers them with a 4xx and changes nothing.
JUNK = [
    "",
    "   ",
    "x" * 100_000,
    "-1",
    "-99999999999999999999",
    "9" * 40,
    "1.5",
    "1e3",
    "NaN",
    "🂡 ünïcødé ✓",
    "\x00",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    ["1", "junk"],
]
JUNK_IDS = [
    "empty", "spaces", "huge", "negative", "huge-negative", "huge-number", "decimal", "exponent", "nan",
    "unicode", "nul", "html", "sql", "list",
]


def assert_csrf_refused(response) -> None:
    assert response.status_code == 403
    html = text(response)
    assert "That form could not be accepted" in html
    assert "Nothing was changed." in html


def csrf_token_from(client: Client, url: str) -> str:
    """The CSRF token a page gives its forms (and sets as a cookie), as a browser would get it."""
    html = text(client.get(url))
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    assert found, f"no CSRF token on {url}"
    return found.group(1)
