"""Nobody takes something back after seeing the other side, nor decides the match alone: a property of every game.

Each game's demo matches (tracker/games/*/demo.py) are played with two phones, as a club match is: the owner's phone
plays seat 0, Ben's own phone, seated by a link, seat 1. At steps along each match (every step of short ones; the
start, the first steps, the middle and the end of long ones; the end is the finished match, a draw in Evons' table
call), each of a kind not swept before (`kind`: the step just taken, whose and what, or the start; the result at the
end), on matches made fresh whose first entry is locked in and never revealed, and in a Cardmaster Showdown whose AI
seat is on Ben's phone (`showdown`: the AI to move after an undo, and its answer just seen), Ben's phone joins anew
(after the last step: `joins`), and EACH phone alone sends every write it can: every form either phone's board offers
(its own and the other's, each select and radio option in turn, blank fields as drawn and filled in; the AI's turn),
a go-to to every step of the line (back and forward, reopening when finished; each also claiming the other player
agreed, as a hot-seat phone does), and its secret entry for either seat; and it agrees to each request it made. Each
POST runs in a savepoint rolled back after it, and the oracle below must hold after it. It reads the stored line,
the engine's `Action.whose` and what the table saw (`services.seen`), never consent.py, whose decisions it checks:

- every secret entry the table has seen before the POST is still on the line, and shown if the state showed it
  (an agreed step back may hide it in the state again, never from the table);
- every step on the line the app rolled a die for is still on it (whoever saw the die could play it again);
- no step of the other seat's own, nor the table's (`rules.TABLE`), left or joined the line, but the moves a
  Showdown's AI made in answer (new steps carrying its reason);
- the result (finished, winner, score) changed only by a step of this phone's own seat or an open one joining the
  line, or by reopening this phone's own win;
- unless, instead, a pending request was made for the other seat, and then nothing else changed;
- and once Ben's phone changed the match, the owner's phone cannot take his seat's link back alone (round 34: a
  phone that had only moved along the log, undoing or redoing, had no say).

It fails with round 30's `services.seen` check reverted (Ana undoes her deck, hidden again by an agreed step back),
with round 32's draw check reverted (Ben takes back the resignation that drew), and with round 34's say read from new
steps alone (Ben redoes the open rounds of Card Crush, and the owner unseats him).
"""

import itertools
from dataclasses import dataclass

import pytest
from django.db import transaction
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse
from django.utils import timezone

import rules
from perf.tables.forms import read_forms
from tracker import demo
from tracker.games import ADAPTERS, pages_for
from tracker.games.base import SecretEntryPages
from tracker.games.cardmaster import demo as cardmaster_demo
from tracker.games.cardmaster.showdown import play_ai, start_showdown
from tracker.games.common import catalog_card
from tracker.matches import services, views
from tracker.matches.compiled import compiled
from tracker.models import Access, Action, Invite, Match, Proposal

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
    steps: dict  # Action pk -> (seq, payload, whose, secret, seen, rolled by the app, number)
    pending: set
    newest: int  # the number of the newest log entry: a step numbered above it is made by the POST

    @classmethod
    def of(cls, match: Match) -> "Line":
        # The sweep reads a line after each of its thousands of POSTs: only the fields the oracle reads, in reads
        # compiled once (tracker/matches/compiled.py), for building the three querysets cost more than running them.
        [match] = _match_row(match.pk)
        steps = {action.pk: (action.seq, action.payload, action.whose, action.secret, services.seen(action),
                             any(roll.get("by") != "player" for roll in action.rolls), action.number)
                 for action in _line_rows(match.pk, match.head)}
        pending = {proposal.pk for proposal in _pending_rows(match.pk)}
        return cls(match.head, match.state, (match.finished, match.winner_id, match.score), steps, pending,
                   match.last_number)


@compiled
def _match_row(pk: int):
    return Match.objects.only("head", "state", "finished", "winner", "score", "last_number").filter(pk=pk)


@compiled
def _line_rows(match_id: int, head: int):
    return Action.objects.filter(match_id=match_id, abandoned=False, seq__lte=head).only(
        "seq", "payload", "whose", "secret", "face_down", "rolls", "number").order_by("seq")


@compiled
def _pending_rows(match_id: int):
    return Proposal.objects.filter(match_id=match_id, status=Proposal.PENDING).only("pk")


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
    for pk, (seq, payload, _whose, secret, seen, rolled, _number) in before.steps.items():
        if secret and seen and pk not in after.steps:
            found.append(f"took back a revealed entry (step {seq})")
        elif secret and seen and game.public_action(before.state, payload) == payload != game.public_action(
                after.state, payload):
            found.append(f"hid a revealed entry again (step {seq})")
        if rolled and pk not in after.steps:
            found.append(f"took back a die the app rolled (step {seq})")
    left, joined = before.steps.keys() - after.steps.keys(), after.steps.keys() - before.steps.keys()
    for pk in left | joined:
        seq, payload, whose, *_rest, number = (before.steps | after.steps)[pk]
        if pk in joined and number > before.newest and "ai" in payload:
            continue  # a move the Showdown's AI made in answer (showdown.play_ai marks each with its reason)
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


def kind(match: Match, actions: list, step: int) -> tuple:
    """What a state offers that another may not: the step just taken (whose, what), or the start, and at the end the
    result. A state of the same kind as one swept before adds no new kind of step to undo, redo or answer."""
    if not step:
        return ("start",)
    action = actions[step - 1]
    ended = step == match.line_length and match.finished is not None
    return (action.whose, action.payload.get("type"), ended and match.winner_id)


def matches(slug: str) -> list[tuple[Match, list[int]]]:
    """The demo matches of `slug` with the steps to sweep each at, each of a kind not swept before (`kind`), and fresh
    ones holding an unrevealed entry; for Cardmaster a Showdown whose AI seat is on Ben's phone too (`showdown`)."""
    demo.load_catalogs()
    found, kinds = [], set()
    for number, script in enumerate(pages_for(slug).demo_matches.values()):
        match = script(("Ana", "Ben"))
        last, actions = match.line_length, services.live_actions(match)
        if number == 0 and last <= 8:
            steps = set(range(last + 1))
        else:
            steps = {0, 1, 2, 3, last // 2, last - 1, last} if number == 0 else {0, 2, last // 2, last}
        kept = []
        for step in sorted(step for step in steps if 0 <= step <= last):
            if kind(match, actions, step) not in kinds:
                kinds.add(kind(match, actions, step))
                kept.append(step)
        found.append((match, kept))
        if number == 0 and isinstance(pages_for(slug), SecretEntryPages):
            secret = next(action.seq for action in actions if action.secret)
            found.append((fresh(match, secret), [secret]))  # locked in, never revealed
    if slug == "logos":
        drawn = drawn_logos()
        found.append((drawn, [drawn.head - 1, drawn.head]))
    if slug == "cardmaster":
        found.append(showdown())
    return found


def showdown() -> tuple[Match, list[int]]:
    """A Showdown against the easy AI (seat 1, its faction made at power 6), Ana's side the first nine demo cards,
    played until the AI has answered twice; swept where the AI holds possession after an undo (its button on the
    board, Ana's move just made) and where its answer was just seen (Ana to move). Round 30 let a join link seat a
    phone on the AI's seat: Ben's phone here, which answers what Ana's asks."""
    match = services.match_create(slug="cardmaster", player_names=["Ana", "Bot"], config={
        "size": 9, "who_rolls": "app", "showdown": {"ai_seat": 1, "level": "easy"}})
    start_showdown(match, "generate", 6)
    match.refresh_from_db()
    lineup = [catalog_card("cardmaster", card["name"]) for card in cardmaster_demo.CARDS[:9]]
    services.match_apply_action(match=match, action={"type": "lock_lineup", "seat": 0, "cards": lineup},
                                expected_seq=match.head)
    match = play_ai(Match.objects.get(pk=match.pk))
    answered = []
    while len(answered) < 2:
        move = next(action for action in match.game.legal_actions(match.state) if action["type"] != "deposit")
        services.match_apply_action(match=match, action=move, expected_seq=match.head)
        before = match.head
        match = play_ai(Match.objects.get(pk=match.pk))
        if match.head > before:
            answered.append(before)
    return match, [answered[-1], match.head]


def seat_phones(match: Match) -> dict[str, Client]:
    """The owner's phone on seat 0, and Ben's on seat 1 by a join link (`joins`)."""
    owner, ben = Client(), Client()
    Match.objects.filter(pk=match.pk).update(owner_device=device_of(owner))
    invite = Invite.objects.create(match=match, kind=Invite.SEAT, seat=1)
    Access.objects.create(match=match, device=device_of(ben), role=Access.PLAYER, seat=1, invite=invite)
    return {"owner": owner, "ben": ben}


def joins(match: Match) -> str:
    """Ben's phone takes its seat now, after the last step (round 34's late phone); the owner's URL that takes its link
    back. A phone that has changed the match since it joined keeps its seat until it agrees to give it up."""
    Access.objects.filter(match=match, role=Access.PLAYER, seat=1).update(created=timezone.now())
    return reverse("invite_revoke", args=[match.pk, Invite.objects.get(match=match, kind=Invite.SEAT).pk])


BOARD_WRITES = ("match_act", "cardmaster_ai_turn")
"""The routes a board's forms post a step to: a move, a correction, a table action; a Showdown's AI turn."""


def act_bodies(match: Match, phones: dict[str, Client]) -> tuple[str, list[tuple[str, dict]]]:
    """The match's step mark as the boards draw it, and every (url, body) either phone's board forms send."""
    urls = {reverse(name, args=[match.pk]) for name in BOARD_WRITES}
    mark, bodies = "", []
    for phone in phones.values():
        for form in read_forms(phone.get(match.get_absolute_url()).content.decode()):
            mark = form.value("seq") or mark
            if form.action not in urls or not form.submittable:
                continue
            blanks = {name: FILLED.get(name, "0") for name, value in form.fields if value == ""}
            changes = [{}, blanks] + [{name: value} for name, values in form.choices.items() for value in few(values)]
            for button, change in itertools.product(form.buttons or [None], changes):
                body = {name: values for name, values in form.data(button, **change).items()
                        if name != "csrfmiddlewaretoken"}
                if (form.action, body) not in bodies:
                    bodies.append((form.action, body))
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
        revoke = joins(match)
        mark, writes = act_bodies(match, phones)
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
                    if persona == "ben" and changed:  # his phone changed the match: the owner's cannot unseat it
                        phones["owner"].post(revoke)
                        tally.posts += 1
                        if Access.objects.filter(match=match, seat=1, revoked__isnull=False).exists():
                            problems.append(f"{match.slug} #{match.pk} at step {step}: ben POST {url} {body}, and "
                                            "the owner's phone took his seat back alone")
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
