"""Nobody takes something back after seeing the other side, nor decides the match alone: a property of every game.

Each game's demo matches (tracker/games/*/demo.py) are played with two phones, as a club match is: the owner's phone
plays seat 0, Ben's own phone, seated by a link, seat 1. At steps along each match (every step of short ones; the
start, the first steps, the middle and the end of long ones; the end is the finished match, a draw in Evons' table
call), and on matches made fresh whose first entry is locked in and never revealed, EACH phone alone sends every
write it can: every form either phone's board offers (its own and the other's, each select and radio option in
turn, blank fields as drawn and filled in), a go-to to every step of the line (back and forward, reopening when
finished; each also claiming the other player agreed, as a hot-seat phone does), and its secret entry for either
seat; and it agrees to each request it made. Each POST runs in a savepoint rolled back after it, and the
oracle below must hold after it. It reads the stored line, the engine's `Action.whose` and what the table saw
(`services.seen`), never consent.py, whose decisions it checks:

- every secret entry the table has seen before the POST is still on the line, and shown if the state showed it
  (an agreed step back may hide it in the state again, never from the table);
- every step on the line the app rolled a die for is still on it (whoever saw the die could play it again);
- no step of the other seat's own, nor the table's (`rules.TABLE`), left or joined the line;
- the result (finished, winner, score) changed only by a step of this phone's own seat or an open one joining the
  line, or by reopening this phone's own win;
- unless, instead, a pending request was made for the other seat, and then nothing else changed.
"""

import itertools
from dataclasses import dataclass

import pytest
from django.db import transaction
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

import rules
from perf.tables.forms import read_forms
from tracker import demo
from tracker.games import ADAPTERS, pages_for
from tracker.games.base import SecretEntryPages
from tracker.matches import services, views
from tracker.models import Access, Match, Proposal

from .helpers import device_of
from .sweep import card_names, sweeping

pytestmark = pytest.mark.django_db

SEATS = {"owner": 0, "ben": 1}
FILLED = {"roll": "3"}
"""A blank field a form leaves to the player is sent as drawn and once filled in: a die typed as 3, anything else 0
(a hit point, a credit, a counter: 0 ends or empties what it names)."""


class _Rollback(Exception):
    pass


@dataclass
class Line:
    """What the oracle compares: the match's result and the steps on its line, by row, as stored."""

    head: int
    state: dict
    result: tuple
    steps: dict  # Action pk -> (seq, payload, whose, secret, seen, rolled by the app)
    pending: set

    @classmethod
    def of(cls, match: Match) -> "Line":
        match = Match.objects.only("head", "state", "finished", "winner", "score").get(pk=match.pk)
        # Only the fields the oracle reads: the sweep reads a line after each of its thousands of POSTs.
        actions = match.actions.filter(abandoned=False, seq__lte=match.head).only(
            "seq", "payload", "whose", "secret", "face_down", "rolls")
        steps = {action.pk: (action.seq, action.payload, action.whose, action.secret, services.seen(action),
                             any(roll.get("by") != "player" for roll in action.rolls))
                 for action in actions}
        pending = set(match.proposals.filter(status=Proposal.PENDING).values_list("pk", flat=True))
        return cls(match.head, match.state, (match.finished, match.winner_id, match.score), steps, pending)


def broken(match: Match, seat: int, before: Line, after: Line) -> list[str]:
    """What the POST of the phone playing `seat` did that it may not do alone (empty: nothing)."""
    game, other = match.game, 1 - seat
    asked = Proposal.objects.filter(pk__in=after.pending - before.pending)
    if asked:
        wrong = [f"a request needing seat {p.needs}, asked by {p.asked_by}" for p in asked
                 if (p.asked_by, p.needs) != (seat, other)]
        if (after.head, after.state, after.result, after.steps) != (before.head, before.state, before.result,
                                                                     before.steps):
            wrong.append("asked, and changed the match too")
        return wrong
    found = []
    for pk, (seq, payload, _whose, secret, seen, rolled) in before.steps.items():
        if secret and seen and pk not in after.steps:
            found.append(f"took back a revealed entry (step {seq})")
        elif secret and seen and game.public_action(before.state, payload) == payload != game.public_action(
                after.state, payload):
            found.append(f"hid a revealed entry again (step {seq})")
        if rolled and pk not in after.steps:
            found.append(f"took back a die the app rolled (step {seq})")
    left, joined = before.steps.keys() - after.steps.keys(), after.steps.keys() - before.steps.keys()
    for pk in left | joined:
        seq, payload, whose, *_rest = (before.steps | after.steps)[pk]
        if whose not in (seat, rules.OPEN):
            found.append(f"{'undid' if pk in left else 'made or redid'} step {seq}, {whose!r}'s: {payload}")
    if after.result != before.result:
        finished, winner, _score = before.result
        owned = winner is not None and match.players()[seat].pk == winner
        if finished is not None and not owned:
            found.append(f"changed a result that is not its own win: {before.result[1:]} -> {after.result[1:]}")
    return found


def fresh(match: Match, steps: int) -> Match:
    """A new match of the same game, seed and players holding only the first `steps` of `match`'s line: an entry
    made there was never revealed."""
    made = services.match_create(slug=match.slug, player_names=[p.name for p in match.players()],
                                 config=match.config)
    Match.objects.filter(pk=made.pk).update(seed=match.seed, state=match.game.new_match(match.config, match.seed))
    for action in services.live_actions(match)[:steps]:
        made.refresh_from_db()
        services.match_apply_action(match_id=made.pk, action=action.payload, expected_seq=made.head,
                                    rolls=services.entered_rolls(action))
    made.refresh_from_db()
    return made


def drawn_logos() -> Match:
    """The LOGOS resignation demo with resignation a draw: the match ends on the resigner's own step, a draw
    (round 32: Ana resigned into a draw and took it back alone)."""
    script = pages_for("logos").demo_matches["resignation"]
    played = script(("Ana", "Ben"))
    made = services.match_create(slug="logos", player_names=["Ana", "Ben"], config={**played.config,
                                                                                   "resignation": "draw"})
    for action in services.live_actions(played):
        made.refresh_from_db()
        services.match_apply_action(match_id=made.pk, action=action.payload, expected_seq=made.head)
    made.refresh_from_db()
    assert made.finished is not None and made.winner is None
    return made


def matches(slug: str) -> list[tuple[Match, list[int]]]:
    """The demo matches of `slug` with the steps to sweep each at, and fresh ones holding an unrevealed entry."""
    demo.load_catalogs()
    found = []
    for number, script in enumerate(pages_for(slug).demo_matches.values()):
        match = script(("Ana", "Ben"))
        last = match.line_length
        if number == 0 and last <= 8:
            steps = set(range(last + 1))
        else:
            steps = {0, 1, 2, 3, last // 2, last - 1, last} if number == 0 else {0, 2, last // 2, last}
        found.append((match, sorted(step for step in steps if 0 <= step <= last)))
        if number == 0 and isinstance(pages_for(slug), SecretEntryPages):
            secret = next(action.seq for action in services.live_actions(match) if action.secret)
            found.append((fresh(match, secret), [secret]))  # locked in, never revealed
    if slug == "logos":
        drawn = drawn_logos()
        found.append((drawn, [drawn.head - 1, drawn.head]))
    return found


def seat_phones(match: Match) -> dict[str, Client]:
    owner, ben = Client(), Client()
    Match.objects.filter(pk=match.pk).update(owner_device=device_of(owner))
    Access.objects.create(match=match, device=device_of(ben), role=Access.PLAYER, seat=1)
    return {"owner": owner, "ben": ben}


def act_bodies(match: Match, phones: dict[str, Client]) -> tuple[str, list[dict]]:
    """The match's step mark as the boards draw it, and every body either phone's board forms send."""
    act_url, mark, bodies = reverse("match_act", args=[match.pk]), "", []
    for phone in phones.values():
        for form in read_forms(phone.get(match.get_absolute_url()).content.decode()):
            mark = form.value("seq") or mark
            if form.action != act_url or not form.submittable:
                continue
            blanks = {name: FILLED.get(name, "0") for name, value in form.fields if value == ""}
            changes = [{}, blanks] + [{name: value} for name, values in form.choices.items() for value in few(values)]
            for button, change in itertools.product(form.buttons or [None], changes):
                body = {name: values for name, values in form.data(button, **change).items()
                        if name != "csrfmiddlewaretoken"}
                if body not in bodies:
                    bodies.append(body)
    return mark, bodies


def few(values: list[str]) -> list[str]:
    """Every option of a short select or radio group (seats, units, cards in play); four of a long one (the cells of an
    Evons board, a stat), its first, second, middle and last, so a choice of seat or unit is never left out."""
    if len(values) <= 4:
        return values
    return [values[0], values[1], values[len(values) // 2], values[-1]]


def goto_steps(match: Match) -> list[int]:
    """Every step of a line up to 20 long; of a longer one, every step within three of the current one, the first
    and last, and every fifth between."""
    last, head = match.line_length, match.head
    if last <= 20:
        steps = set(range(last + 1))
    else:
        steps = {0, last, *range(max(head - 3, 0), min(head + 3, last) + 1), *range(0, last, 5)}
    return sorted(steps - {head})


def entry_bodies(match: Match, phones: dict[str, Client]) -> list[tuple[str, dict]]:
    """Each phone's entry form for each seat still to enter, filled with the game's example entry: (url, body)."""
    pages = pages_for(match.slug)
    if not isinstance(pages, SecretEntryPages):
        return []
    found = []
    for seat in pages.seats_to_enter(match):
        url = reverse("match_entry", args=[match.pk, seat])
        names = card_names(pages.entry_examples(match, seat)[0])
        for phone in phones.values():
            page = phone.get(url)
            if page.status_code != 200:
                continue
            for form in read_forms(page.content.decode()):
                if form.action not in ("", url) or form.method != "post":
                    continue
                body = form.data()
                cards = iter(names)
                for name in body:
                    if name.startswith(("card", "backup")) and not body[name][0]:
                        body[name] = [next(cards, "")]
                body.pop("csrfmiddlewaretoken", None)
                found.append((url, body))
    return found


@dataclass
class Tally:
    states: int = 0
    posts: int = 0
    asked: int = 0
    changed: int = 0
    entered: int = 0


def _refused(request, match_id: int, message: str, status: int, form=None) -> HttpResponse:
    """The refusal without the page drawn around it: most of the sweep's POSTs are refused, and drawing the match
    page for each was most of its time. What is decided is decided before it (the refusal pages are tested apart)."""
    return HttpResponse(message, status=status)


def sweep(match: Match, steps: list[int], phones: dict[str, Client], tally: Tally) -> list[str]:
    problems = []
    goto_url = reverse("match_goto", args=[match.pk])
    for step in steps:
        match.refresh_from_db()
        if match.head != step:
            services.match_goto(match_id=match.pk, step=step, expected_seq=match.head)
            match.refresh_from_db()
        tally.states += 1
        mark, bodies = act_bodies(match, phones)
        writes = [(reverse("match_act", args=[match.pk]), body) for body in bodies]
        # Each go-to also says the other player agreed, as a hot-seat phone passed across the table would.
        writes += [(goto_url, {"seq": mark, "step": to, "confirm": "reopen", "asker": "", "answer": "agree"})
                   for to in goto_steps(match)]
        writes += entry_bodies(match, phones)
        before = Line.of(match)
        for (persona, phone), (url, body) in itertools.product(phones.items(), writes):
            try:
                with transaction.atomic():
                    if "asker" in body:  # this phone's player asks, the other agreed
                        body = {**body, "asker": str(SEATS[persona])}
                    response = phone.post(url, body)
                    tally.posts += 1
                    assert response.status_code < 500, (persona, url, body)
                    after = Line.of(match)
                    tally.asked += after.pending != before.pending
                    changed = after.steps != before.steps or after.head != before.head
                    tally.changed += changed
                    tally.entered += changed and "/entry/" in url
                    problems += [f"{match.slug} #{match.pk} at step {step}, {persona} POST {url} {body}: {what}"
                                 for what in broken(match, SEATS[persona], before, after)]
                    for asked in after.pending - before.pending:  # and agrees to its own request
                        phone.post(reverse("proposal_answer", args=[match.pk, asked]), {"answer": "agree"})
                        tally.posts += 1
                        agreed = Line.of(match)
                        if agreed.pending != after.pending or agreed.steps != before.steps:
                            problems.append(f"{match.slug} #{match.pk} at step {step}, {persona} agreed to its own "
                                            f"request made by POST {url} {body}")
                    raise _Rollback
            except _Rollback:
                pass
    return problems


@pytest.mark.parametrize("slug", sorted(ADAPTERS))
def test_no_phone_takes_back_what_it_saw_or_decides_the_match_alone(slug, monkeypatch):
    monkeypatch.setattr(views, "_refused", _refused)
    tally, problems = Tally(), []
    with sweeping():
        for match, steps in matches(slug):
            problems += sweep(match, steps, seat_phones(match), tally)
    print(f"{slug}: {tally}")
    assert not problems, "\n".join(problems[:30])
    assert tally.changed and tally.asked, "the sweep tried writes that count"
