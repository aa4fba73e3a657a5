"""The contract between every game's pages and its engine, checked on the demo matches of every game.

- A read-only board (a spectator's page, the replay page) offers nothing to do: no action form,
  no button, no hot-seat or entry link.
- Every action a board offers, its form sent as the page fills it in and with each other option of
  its selects and radio buttons, is one the engine accepts in that state. Forms that wait for the player to type something (a card name, a die in a "players
  roll" match, a new value) are refused by the page's own form check before the engine sees them;
  they are counted, and every game must still have actions checked in full.

The states are the demo scripts' matches at a handful of steps each, from the start to the end.
Every game in the registry is checked, and the sample game (tests/sample_game/): a game with a
single demo and one board button holds to the same contract.
"""

import re

import pytest
from django.http import QueryDict
from django.test import Client
from django.urls import reverse

import rules
from perf.tables.forms import read_forms
from rules import Dice, RuleError
from tests.sample_game import every_game
from tracker import demo
from tracker.games import ADAPTERS, pages_for
from tracker.matches import services
from tracker.models import Access, Match
from tracker.people import consent
from tracker.people.access import OWNER, PLAYER, Viewer

from .helpers import device_of

pytestmark = pytest.mark.django_db

STEPS_PER_MATCH = 8
ENTRY_LINK = re.compile(r'href="[^"]*/seat/\d+/(pass|entry)/"')


def demo_matches(slug: str) -> list[Match]:
    demo.load_catalogs()
    return [script(("Ana", "Ben")) for script in pages_for(slug).demo_matches.values()]


def at_steps(match: Match):
    """The match moved to a few of its steps in turn (undo and redo through the services), start and end included."""
    last = match.head
    steps = sorted({0, last, *range(0, last, max(1, last // STEPS_PER_MATCH))})
    for step in steps:
        match.refresh_from_db()
        if match.head != step:
            services.match_goto(match_id=match.pk, step=step, expected_seq=match.head)
            match.refresh_from_db()
        yield match


def board_part(html: str, start: str, end: str) -> str:
    """The part of a page between two markers (the board), so page-level controls are left out."""
    assert start in html and end in html, (start, end)
    return html[html.index(start):html.index(end, html.index(start))]


def assert_offers_nothing(html: str, where: str) -> None:
    assert "<form" not in html, f"{where}: a form"
    assert "<button" not in html, f"{where}: a button"
    assert not ENTRY_LINK.search(html), f"{where}: a hot-seat or entry link"
    assert 'name="action"' not in html, f"{where}: an action field"
    assert "hx-post" not in html and "/act/" not in html, f"{where}: a control that posts an action"


@pytest.mark.parametrize("slug", every_game())
def test_it_offers_a_spectator_and_the_replay_nothing_to_do(slug):
    for match in demo_matches(slug):
        Match.objects.filter(pk=match.pk).update(owner_device="someone-else")  # others only watch
        watcher = Client()
        Access.objects.create(match=match, device=device_of(watcher), role=Access.SPECTATOR)
        for current in at_steps(match):
            page = watcher.get(current.get_absolute_url())
            assert page.context["read_only"]
            html = page.content.decode()
            where = f"{slug} #{current.pk} step {current.head}"
            assert "method=\"post\"" not in html, f"{where}: a spectator's page posts"
            assert_offers_nothing(board_part(html, "</header>", '<section class="controls"'), where)
            replay = watcher.get(reverse("match_replay", args=[current.pk]), {"step": current.head}).content.decode()
            assert_offers_nothing(board_part(replay, "swipe left or right.", "Back to the log"), f"{where} (replay)")


@pytest.mark.parametrize("slug", every_game())
def test_the_read_only_check_finds_what_a_playing_phone_is_offered(slug):
    """The check above can fail: the same board at the start, on the phone of the table that plays it."""
    match = demo_matches(slug)[0]
    start = next(at_steps(match))  # step 0
    board = board_part(Client().get(start.get_absolute_url()).content.decode(), "</header>", '<section class="controls"')
    with pytest.raises(AssertionError):
        assert_offers_nothing(board, slug)


# Refusals of a combination the player makes of two free fields of one form, not of a choice the
# board offers: Lonely Star's "move cards" correction names a zone to take from and one to put in,
# and a Burn names the unit receiving it and, apart, which accessory in play it breaks.
PLAYERS_COMBINATIONS = {"zone-same", "accessory-unknown"}


def offered(slug: str, phones_at_table: int = 1, goes: bool = False):
    """Every action the boards of `slug`'s demo matches offer, at a few steps each: (the match, the phone's
    Viewer, the action or None while the form waits for the player's own input, the dice typed). With `goes`, every
    step the page's enabled Undo and Redo go to as well, as the action {"go to": step}.

    Each form is sent as the page fills it in, once per named submit button, and once more for each
    other option of each of its selects and radio groups (one changed at a time). The demo matches belong
    to the table, whose phone may act for both seats. With two phones they are the owner's, with Ben's seat on
    a phone of its own; with three, Ana's seat is on one too, the owner's phone playing neither. Every phone's
    board is read.
    """
    pages = pages_for(slug)
    for match in demo_matches(slug):
        phones = [(Client(), Viewer(OWNER))]  # the table's phone: every seat is its own
        if phones_at_table > 1:
            owner = phones[0][0]
            Match.objects.filter(pk=match.pk).update(owner_device=device_of(owner))
            seated = [1] if phones_at_table == 2 else [0, 1]
            claimed = frozenset(seated)
            phones = [(owner, Viewer(OWNER, claimed=claimed))]
            for seat in seated:
                phones.append((Client(), Viewer(PLAYER, seat=seat, claimed=claimed)))
                Access.objects.create(match=match, device=device_of(phones[-1][0]), role=Access.PLAYER, seat=seat)
        act_url, goto_url = reverse("match_act", args=[match.pk]), reverse("match_goto", args=[match.pk])
        for current in at_steps(match):
            for phone, seen_by in phones:
                html = phone.get(current.get_absolute_url()).content.decode()
                if goes:
                    for form in read_forms(html):
                        if form.action == goto_url and form.submittable and "confirm" not in dict(form.fields):
                            yield current, seen_by, {"go to": int(dict(form.fields)["step"])}, []
                for form in [form for form in read_forms(html) if form.action == act_url and form.submittable]:
                    changes = [{}] + [{name: value} for name, values in form.choices.items() for value in values]
                    for button in form.buttons or [None]:
                        for change in changes:
                            post = QueryDict(mutable=True)
                            for name, values in form.data(button, **change).items():
                                post.setlist(name, values)
                            bound = pages.board_form(current, post)
                            rolls = [int(value) for value in post.getlist("roll") if value.strip()]
                            yield current, seen_by, bound.action if bound.is_valid() else None, rolls


def check_offers(slug: str) -> tuple[int, int, list[str], int]:
    """Every action the table's phone is offered, tried on the engine: how many actions were checked, how
    many forms still waited for the player's own input, the refusals, and at how many of the steps the board
    offered anything at all."""
    checked = asks_the_player = 0
    refused, offering = [], set()
    for current, _seen_by, action, rolls in offered(slug):
        offering.add((current.pk, current.head))
        if action is None:  # the form still waits for the player's own input
            asks_the_player += 1
            continue
        try:
            current.game.apply(current.state, action, Dice(current.seed, current.head + 1, rolls))
        except RuleError as error:
            if error.rule not in PLAYERS_COMBINATIONS:
                refused.append(f"#{current.pk} step {current.head}: the board offers {action}, "
                               f"which the engine refuses: {error}")
            continue
        checked += 1
    return checked, asks_the_player, refused, len(offering)


@pytest.mark.parametrize("slug", every_game())
def test_every_action_a_board_offers_is_one_the_engine_accepts(slug):
    checked, asks_the_player, refused, offering = check_offers(slug)
    assert not refused, f"{slug}:\n" + "\n".join(refused)
    # Not a check of forms that all wait for input: ten actions checked in full, or one per step with a
    # board action where a small game's demos have fewer such steps.
    assert offering and checked >= min(10, offering), (
        f"{slug}: only {checked} offered actions could be checked ({asks_the_player} wait for input)")


def test_the_check_finds_a_board_that_offers_what_the_engine_refuses(monkeypatch):
    """The check above can fail: a Lonely Star board told every unit may move offers the other
    side's units a Move button, and the engine refuses those moves (not that side's turn)."""
    from tracker.games.lonely_star import board

    def every_unit_moves(state):
        return rules.GAMES["lonely-star"].legal_actions(state) + [
            {"type": "act", "seat": unit["seat"], "unit": unit["id"], "how": "move"} for unit in state["units"]]

    monkeypatch.setattr(board, "legal_actions", every_unit_moves)
    _checked, _asks, refused, _offering = check_offers("lonely-star")
    assert refused and all("'how': 'move'" in line for line in refused), refused


@pytest.mark.parametrize("phones_at_table", [2, 3])
@pytest.mark.parametrize("slug", every_game())
def test_a_phone_is_offered_only_its_own_seats_moves_and_what_it_may_ask(slug, phones_at_table):
    """With seats on phones of their own each phone is offered its own seat's moves, and the table's actions and
    corrections, which ask the other phone: never another seat's own move, which would only be refused ("You
    can act only for your own seat"). A seated Lonely Star phone was offered the other player's "End turn".
    So are Undo and Redo: offered only where the phone may go there, or ask a player to (match_goto's questions);
    the owner's phone that played no side was offered an Undo it could neither take nor ask (a play-test)."""
    refused = set()
    for current, seen_by, action, _rolls in offered(slug, phones_at_table, goes=True):
        if action is None:
            continue
        try:
            if "go to" not in action:
                consent.needs_agreement(current, seen_by, action)
            elif seen_by.can_act and not consent.hot_seat(current, seen_by) and \
                    consent.goto_needs_agreement(current, seen_by, action["go to"]):
                consent.asking_seat(current, seen_by)
        except consent.Refused:
            refused.add(f"{seen_by.role} {seen_by.seat}, #{current.pk} step {current.head}: offered {action}")
    assert not refused, f"{slug}:\n" + "\n".join(sorted(refused))


def test_every_game_is_covered():
    assert set(ADAPTERS) == set(rules.GAMES)
