"""tracker.matches.services: the only code that changes a match. The log is the truth:
`match_replay(match) == match.state` after anything, and refused changes change nothing."""

import dataclasses
import random
import threading

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

import rules
from rules import RuleError
from tracker.matches import services
from tracker.models import Action, Checkpoint, Match, Player, Seat

from .helpers import (
    ANA_DECK,
    ANA_OTHER_DECK,
    BEN_DECK,
    PLAY,
    assert_every_match_replays,
    deck,
    lock,
    lock_both,
    play,
    snapshot,
)

pytestmark = pytest.mark.django_db


def assert_consistent(match: Match) -> None:
    """The cached snapshot, head and outcome agree with re-running the log."""
    match = Match.objects.get(pk=match.pk)
    assert services.match_replay(match) == match.state
    assert services.replay_problems(match) == []  # the same from the seed, checkpoints included
    line = services.live_actions(match)
    assert [action.seq for action in line] == list(range(1, len(line) + 1))
    assert match.head <= len(line)
    outcome = match.game.outcome(match.state)
    if outcome is None:
        assert (match.finished, match.winner, match.score) == (None, None, "")
    else:
        assert match.finished is not None
        assert match.winner == match.players()[outcome.winner]
        assert match.score == outcome.score


# ---------------------------------------------------------------- long scripted matches


def scripted_walk(match: Match, decks: list[list[list[str]]], seed: int, steps: int = 80) -> dict:
    """Drive a match at random through actions, undos, redos and new branches, checking after each."""
    chooser = random.Random(seed)
    line: list[dict] = []  # our own model of the current line of payloads
    head = 0
    created = 0
    seen = {"undo": 0, "redo": 0, "branch": 0, "finished": 0, "coin": 0}
    for _ in range(steps):
        match.refresh_from_db()
        move = chooser.choice(["act", "act", "act", "undo", "redo"])
        if move == "act":
            state = match.state
            if state["winner"] is not None:
                with pytest.raises(RuleError):
                    services.match_apply_action(match_id=match.pk, action=PLAY, expected_seq=head)
                continue
            open_seats = [seat for seat, d in enumerate(state["decks"]) if d is None]
            if open_seats:
                seat = chooser.choice(open_seats)
                action = {"type": "lock_deck", "seat": seat, "cards": deck(chooser.choice(decks[seat]))}
            else:
                action = PLAY
            if head < len(line):
                seen["branch"] += 1
            services.match_apply_action(match_id=match.pk, action=action, expected_seq=head)
            line = line[:head] + [action]
            head += 1
            created += 1
        elif move == "undo" and head:
            step = chooser.randrange(0, head)
            services.match_goto(match_id=match.pk, step=step, expected_seq=head)
            head = step
            seen["undo"] += 1
        elif move == "redo" and head < len(line):
            step = chooser.randrange(head + 1, len(line) + 1)
            services.match_goto(match_id=match.pk, step=step, expected_seq=head)
            head = step
            seen["redo"] += 1
        else:
            continue
        match.refresh_from_db()
        assert match.head == head
        assert [action.payload for action in services.live_actions(match)] == line
        assert match.actions.count() == created
        assert match.actions.filter(abandoned=True).count() == created - len(line)
        assert_consistent(match)
        seen["finished"] += match.finished is not None
        seen["coin"] += any(r["decided_by"] == "coin" for r in match.state["rounds"])
    return seen


MIRROR_A = [f"Mirror A{n}" for n in range(1, 6)]
MIRROR_B = [f"Mirror B{n}" for n in range(1, 6)]


@pytest.fixture(params=[None, 2], ids=["checkpoints-as-shipped", "a-checkpoint-every-2nd-step"])
def checkpoint_every(request, monkeypatch):
    """A Card Crush battle is shorter than the shipped checkpoint spacing: every 2nd step puts the
    undos, redos and branches of the walks across checkpoints."""
    if request.param:
        monkeypatch.setattr(services, "CHECKPOINT_EVERY", request.param)


@pytest.mark.parametrize(
    "resolution, decks, seed",
    [
        ("battle-score", [[ANA_DECK, ANA_OTHER_DECK], [BEN_DECK]], 1),
        ("battle-score", [[ANA_DECK], [BEN_DECK, ANA_OTHER_DECK]], 2),
        ("power-only", [[ANA_OTHER_DECK, BEN_DECK], [ANA_DECK]], 3),
        ("battle-score", [[MIRROR_A], [MIRROR_B]], 4),  # every round a coin flip
        ("power-only", [[MIRROR_A, ANA_DECK], [MIRROR_B, BEN_DECK]], 5),
    ],
)
def test_it_replays_to_the_stored_state_after_a_long_scripted_match(mirror_decks, checkpoint_every, resolution,
                                                                    decks, seed):
    match = services.match_create(slug="card-crush", player_names=["Ana", "Ben"], config={"resolution": resolution})
    seen = scripted_walk(match, decks, seed)
    assert_every_match_replays()
    assert seen["undo"] and seen["redo"] and seen["branch"], seen
    assert seen["finished"], seen
    if decks[0] == [MIRROR_A]:
        assert seen["coin"], seen


def test_a_coin_flip_tie_replays_the_same_way(match, mirror_decks):
    play(lock_both(match, *mirror_decks), 3)
    coins = [r["coin"] for r in match.state["rounds"]]
    assert all(r["decided_by"] == "coin" for r in match.state["rounds"])
    assert all(coin in (0, 1) for coin in coins)
    # Undo round 1 and play it again: the coin falls the same way.
    services.match_goto(match_id=match.pk, step=2, expected_seq=5)
    services.match_apply_action(match_id=match.pk, action=PLAY, expected_seq=2)
    match.refresh_from_db()
    assert match.state["rounds"][0]["coin"] == coins[0]
    flip = match.actions.get(seq=3, abandoned=False).rolls
    assert flip == [{"sides": 2, "value": coins[0], "by": "app", "why": "card-crush round 1"}]
    assert_consistent(match)


def test_the_outcome_is_recorded_and_reverted(locked):
    match = play(locked, 5)
    while match.finished is None:
        match = play(match)
    assert_consistent(match)
    winner, score = match.winner, match.score
    assert score.startswith("3-")
    services.match_goto(match_id=match.pk, step=match.head - 1, expected_seq=match.head)
    match.refresh_from_db()
    assert (match.finished, match.winner, match.score) == (None, None, "")
    services.match_goto(match_id=match.pk, step=match.head + 1, expected_seq=match.head)
    match.refresh_from_db()
    assert (match.winner, match.score) == (winner, score)
    assert_consistent(match)


# ---------------------------------------------------------------- checkpoints: undo in constant time

PROBE = {"name": "Probe", "hp": 5, "at": 2, "lk": 3, "rs": 1, "reach": 1}


def grown(steps: int) -> Match:
    """A Lonely Star match whose state changes at every step: a unit, then its AT raised again and again."""
    match = services.match_create(slug="lonely-star", player_names=["Ana", "Ben"], config={})
    services.match_apply_action(match_id=match.pk, action={"type": "play_unit", "seat": 0, "card": PROBE},
                                expected_seq=0)
    for step in range(1, steps):
        services.match_apply_action(match_id=match.pk, action=raise_at(1 + step % 3), expected_seq=step)
    return Match.objects.get(pk=match.pk)


def raise_at(change: int) -> dict:
    return {"type": "adjust", "override": True, "what": "stat", "seat": 0, "unit": 1, "stat": "at", "change": change}


@pytest.fixture
def applies(monkeypatch) -> list[int]:
    """The steps Lonely Star's engine is asked to apply, in order (a wrapper around its apply)."""
    seen: list[int] = []
    game = rules.GAMES["lonely-star"]

    def counted(state, action, dice):
        seen.append(dice.step)
        return game.apply(state, action, dice)

    monkeypatch.setitem(rules.GAMES, "lonely-star", dataclasses.replace(game, apply=counted))
    return seen


def test_undo_and_redo_deep_in_a_long_match_rerun_only_from_the_checkpoint_below(db, applies):
    match = grown(95)
    applies.clear()
    services.match_goto(match_id=match.pk, step=93, expected_seq=95)
    assert applies == [91, 92, 93]  # from the checkpoint after step 90, not from the seed
    applies.clear()
    services.match_goto(match_id=match.pk, step=95, expected_seq=93)
    assert applies == [91, 92, 93, 94, 95]
    applies.clear()
    services.match_goto(match_id=match.pk, step=40, expected_seq=95)
    assert applies == []  # a checkpoint is the state after step 40 itself
    assert services.match_replay(match, 57) == services.replay_from_seed(match, 57)
    match.refresh_from_db()
    assert match.state == services.replay_from_seed(match)
    assert match.state["units"][0]["mods"]["at"] == sum(1 + step % 3 for step in range(1, 40))
    assert_every_match_replays()


def test_a_checkpoint_is_kept_every_tenth_step_and_only_there(db):
    match = grown(35)
    kept = Checkpoint.objects.filter(match=match).order_by("seq")
    assert [checkpoint.seq for checkpoint in kept] == [10, 20, 30]
    assert [checkpoint.action.seq for checkpoint in kept] == [10, 20, 30]
    assert kept[1].state == services.replay_from_seed(match, 20)


def test_a_new_branch_drops_the_checkpoints_past_its_start(db, applies):
    match = grown(35)
    services.match_goto(match_id=match.pk, step=15, expected_seq=35)
    services.match_goto(match_id=match.pk, step=25, expected_seq=15)  # a redo keeps the line and its checkpoints
    assert list(match.checkpoints.values_list("seq", flat=True).order_by("seq")) == [10, 20, 30]
    services.match_goto(match_id=match.pk, step=15, expected_seq=25)
    services.match_apply_action(match_id=match.pk, action=raise_at(-1), expected_seq=15)
    match.refresh_from_db()
    assert (match.head, match.line_length, match.last_number) == (16, 16, 36)
    assert list(match.checkpoints.values_list("seq", flat=True).order_by("seq")) == [10]
    assert match.actions.filter(abandoned=True).count() == 20  # steps 16..35 of the old line, kept
    with pytest.raises(services.NoSuchStep):
        services.match_goto(match_id=match.pk, step=20, expected_seq=16)  # the old step 20 cannot come back
    for step in range(16, 23):
        services.match_apply_action(match_id=match.pk, action=raise_at(2), expected_seq=step)
    new_twenty = match.actions.get(seq=20, abandoned=False)
    assert Checkpoint.objects.get(match=match, seq=20).action == new_twenty
    applies.clear()
    services.match_goto(match_id=match.pk, step=21, expected_seq=23)
    assert applies == [21]
    match.refresh_from_db()
    assert match.state == services.replay_from_seed(match)
    assert_every_match_replays()


def test_undo_in_a_match_from_before_checkpoints_fills_them_in(db, applies):
    match = grown(45)
    Checkpoint.objects.filter(match=match).delete()
    applies.clear()
    services.match_goto(match_id=match.pk, step=44, expected_seq=45)
    assert applies == list(range(1, 45))  # once from the seed ...
    assert list(match.checkpoints.values_list("seq", flat=True).order_by("seq")) == [10, 20, 30, 40]
    applies.clear()
    services.match_goto(match_id=match.pk, step=43, expected_seq=44)
    assert applies == [41, 42, 43]  # ... then from the checkpoints it stored
    assert_every_match_replays()


def test_the_check_finds_a_checkpoint_that_disagrees_with_the_log(db):
    match = grown(25)
    Checkpoint.objects.filter(match=match, seq=20).update(state={**match.state, "next_unit": 99})
    assert services.replay_problems(match) == ["the checkpoint at step 20 differs from the replay"]
    # The replay page starts from it (that is the point of it), which is why the check re-runs from the seed.
    assert services.match_replay(match, 21)["next_unit"] == 99
    assert services.replay_from_seed(match, 21)["next_unit"] != 99


def test_the_check_finds_a_stored_state_or_counter_that_disagrees_with_the_log(db):
    match = grown(12)
    Match.objects.filter(pk=match.pk).update(state={**match.state, "next_unit": 99}, line_length=13)
    assert services.replay_problems(Match.objects.get(pk=match.pk)) == [
        "line_length 13 and head 12 for a line of 12",
        "the stored state differs from the replay of its 12 steps",
    ]


# ---------------------------------------------------------------- queries per change


def test_an_action_on_a_loaded_match_writes_the_row_once_and_the_action_once(locked):
    with CaptureQueriesContext(connection) as captured:
        recorded = services.match_apply_action(match=locked, action=PLAY, expected_seq=2)
    # PostgreSQL's NOTIFY to the other phones (tracker/matches/live.py) is a SELECT that reads no table.
    statements = [query["sql"] for query in captured if query["sql"].split()[0] in ("SELECT", "INSERT", "UPDATE",
                                                                                       "DELETE")
                  and "pg_notify(" not in query["sql"]]
    assert [sql.split()[0] for sql in statements] == ["UPDATE", "INSERT"], statements
    assert '"tracker_match"' in statements[0] and '"tracker_action"' in statements[1]
    assert sum("pg_notify(" in query["sql"] for query in captured) == (connection.vendor == "postgresql")
    assert (recorded.number, recorded.seq, locked.head, locked.line_length, locked.last_number) == (3, 3, 3, 3, 3)
    assert services.head_action(locked) is recorded  # the page drawn next asks no query for it
    assert_consistent(locked)


def _stored(row) -> dict:
    return {field.attname: getattr(row, field.attname) for field in type(row)._meta.concrete_fields}


def test_the_two_writes_store_what_the_match_and_the_action_hold(locked):
    """tracker/matches/writes.py writes in SQL of its own: read back through the ORM, the match's row and the new
    action are what the change left in memory, field by field (JSON, dates, a secret flag, the winner's id)."""
    while not locked.finished:
        recorded = services.match_apply_action(match=locked, action=PLAY, expected_seq=locked.head)
        assert _stored(Action.objects.get(pk=recorded.pk)) == _stored(recorded)
        assert not recorded._state.adding and recorded.created is not None
    assert locked.winner_id is not None and _stored(Match.objects.get(pk=locked.pk)) == _stored(locked)
    assert Action.objects.filter(match=locked, secret=True).count() == 2  # the two lock-ins, written so too


def test_a_new_action_is_made_as_django_makes_it_from_keywords(locked):
    """writes.new_action makes the unsaved Action from its fields in order: the same fields, the match and the
    proposal cached alike; a field it does not know is refused, and one it is not given too."""
    from tracker.matches import writes
    from tracker.models import Proposal

    given = {"number": 7, "seq": 5, "seat": 1, "payload": {"type": "play_round"}, "events": [{"type": "x"}],
             "rolls": [], "secret": True, "face_down": {"type": "hidden"}, "whose": 1}
    for proposal in (None, Proposal(pk=3, match=locked)):
        made, django = writes.new_action(match=locked, proposal=proposal, **given), Action(match=locked, proposal=proposal,
                                                                                             **given)
        assert _stored(made) == _stored(django) and made._state.adding and made._state.db is None
        assert made._state.fields_cache == django._state.fields_cache
    with pytest.raises(TypeError):
        writes.new_action(match=locked, proposal=None, colour="red", **given)
    with pytest.raises(KeyError):
        writes.new_action(match=locked, proposal=None, number=1)


def test_a_change_made_on_a_match_loaded_before_another_change_is_refused(locked):
    seen_by_one_phone = Match.objects.get(pk=locked.pk)
    seen_by_another = Match.objects.get(pk=locked.pk)
    services.match_apply_action(match=seen_by_another, action=PLAY, expected_seq=2)
    before, count = snapshot(locked), Action.objects.count()
    # The first phone's page said step 2, and so did its copy of the match: the write notices.
    seen_by_one_phone.head = 2
    with pytest.raises(services.StaleSubmission) as doubled:
        services.match_apply_action(match=seen_by_one_phone, action=PLAY, expected_seq=2)
    assert doubled.value.doubled
    assert snapshot(locked) == before and Action.objects.count() == count
    assert seen_by_one_phone.head == 3  # the refused phone's match now shows the fresh step


@pytest.mark.django_db(transaction=True)
def test_two_phones_tapping_at_once_apply_the_action_once(catalog):
    """Two requests load the match, then write at the same moment on two connections: one wins,
    the other is refused as a double (the version check under the row lock), nothing twice."""
    if connection.vendor == "sqlite" and connection.is_in_memory_db():
        pytest.skip("SQLite's in-memory test database locks tables without waiting; a file database (as "
                    "served, and in tests/load) waits its turn, and the PostgreSQL run tests this")
    match = lock_both(services.match_create(slug="card-crush", player_names=["Ana", "Ben"], config={}))
    ready = threading.Barrier(2)
    outcomes: list[str] = []

    def tap() -> None:
        try:
            loaded = Match.objects.get(pk=match.pk)
            ready.wait(timeout=10)
            services.match_apply_action(match=loaded, action=PLAY, expected_seq=2)
            outcomes.append("applied")
        except services.StaleSubmission as refused:
            outcomes.append("doubled" if refused.doubled else "stale")
        finally:
            connection.close()

    phones = [threading.Thread(target=tap) for _ in range(2)]
    for phone in phones:
        phone.start()
    for phone in phones:
        phone.join(30)
    assert sorted(outcomes) == ["applied", "doubled"]
    assert match.actions.count() == 3
    assert_consistent(match)


def test_a_goto_made_on_a_match_loaded_before_another_change_is_refused(locked):
    stale_copy = Match.objects.get(pk=locked.pk)
    services.match_goto(match_id=locked.pk, step=1, expected_seq=2)
    before = snapshot(locked)
    with pytest.raises(services.StaleSubmission) as stale:
        services.match_goto(match=stale_copy, step=0, expected_seq=2)
    assert not stale.value.doubled
    assert "(step 2, now step 1)" in str(stale.value)
    assert snapshot(locked) == before


# ---------------------------------------------------------------- refusals change nothing


@pytest.mark.parametrize(
    "action",
    [
        PLAY,  # before lock-in
        {"type": "lock_deck", "seat": 0, "cards": []},
        {"type": "lock_deck", "seat": 2, "cards": []},
        {"type": "lock_deck", "seat": 0, "cards": [{"name": "x"}] * 5},
        {"type": "fold"},
        {},
    ],
)
def test_a_rule_error_changes_nothing(match, action):
    lock(match, 0, ANA_DECK)
    services.match_goto(match_id=match.pk, step=0, expected_seq=1)  # Ana's lock can be redone
    before, count = snapshot(match), Action.objects.count()
    with pytest.raises(RuleError):
        services.match_apply_action(match_id=match.pk, action=action, expected_seq=0)
    assert snapshot(match) == before
    assert Action.objects.count() == count
    # The undone lock-in was not abandoned by the refused action: it can still be redone.
    services.match_goto(match_id=match.pk, step=1, expected_seq=0)
    assert_consistent(match)


def test_a_rule_error_after_the_battle_changes_nothing(finished):
    before = snapshot(finished)
    with pytest.raises(RuleError) as caught:
        services.match_apply_action(match_id=finished.pk, action=PLAY, expected_seq=finished.head)
    assert caught.value.rule == "battle-over"
    assert snapshot(finished) == before


def test_it_refuses_a_step_off_the_line(locked):
    before = snapshot(locked)
    with pytest.raises(services.NoSuchStep, match="There is no step 3 in this match."):
        services.match_goto(match_id=locked.pk, step=3, expected_seq=2)
    assert snapshot(locked) == before


# ---------------------------------------------------------------- stale and doubled submissions


def test_a_doubled_submission_is_told_apart_from_a_stale_one(locked):
    services.match_apply_action(match_id=locked.pk, action=PLAY, expected_seq=2)
    before = snapshot(locked)
    with pytest.raises(services.StaleSubmission) as doubled:
        services.match_apply_action(match_id=locked.pk, action=PLAY, expected_seq=2)
    assert doubled.value.doubled is True
    assert "already recorded" in str(doubled.value)
    # A different action made against the same old step is stale, not doubled.
    with pytest.raises(services.StaleSubmission) as stale:
        services.match_apply_action(match_id=locked.pk, action={"type": "fold"}, expected_seq=2)
    assert stale.value.doubled is False
    assert "moved on since this page was loaded (step 2, now step 3)" in str(stale.value)
    # So is the same action made against an even older step.
    with pytest.raises(services.StaleSubmission) as older:
        services.match_apply_action(match_id=locked.pk, action=PLAY, expected_seq=1)
    assert older.value.doubled is False
    assert snapshot(locked) == before


def test_a_stale_goto_is_never_doubled(locked):
    services.match_goto(match_id=locked.pk, step=1, expected_seq=2)
    with pytest.raises(services.StaleSubmission) as stale:
        services.match_goto(match_id=locked.pk, step=1, expected_seq=2)
    assert not stale.value.doubled


# ---------------------------------------------------------------- creating matches and players


def test_match_create_fills_in_the_default_options(catalog):
    match = services.match_create(slug="card-crush", player_names=["Ana", "Ben"], config={})
    assert match.config == {"resolution": "battle-score"}
    assert match.rules_version == rules.GAMES["card-crush"].rules_version
    assert match.state == rules.GAMES["card-crush"].new_match({}, match.seed)
    assert len(match.seed) == 32
    assert [p.name for p in match.players()] == ["Ana", "Ben"]


def test_every_match_gets_its_own_seed(catalog):
    seeds = {services.match_create(slug="card-crush", player_names=["A", "B"], config={}).seed for _ in range(5)}
    assert len(seeds) == 5


def test_match_create_refuses_an_unknown_option_and_stores_nothing(db):
    with pytest.raises(rules.InvalidConfig):
        services.match_create(slug="card-crush", player_names=["Ana", "Ben"], config={"resolution": "vibes"})
    with pytest.raises(rules.InvalidConfig):
        services.match_create(slug="card-crush", player_names=["Ana", "Ben"], config={"tempo": 3})
    assert not Match.objects.exists()
    assert not Seat.objects.exists()
    assert not Player.objects.exists()


def test_player_named_reuses_in_any_case_and_tidies_spaces(db):
    ana = services.player_named("  Ana   Lee ")
    assert ana.name == "Ana Lee"
    assert services.player_named("ANA LEE") == ana
    assert Player.objects.count() == 1


def test_explain_names_the_player_for_a_seat(match):
    lock(match, 0, ANA_DECK)
    with pytest.raises(RuleError) as caught:
        services.match_apply_action(
            match_id=match.pk, action={"type": "lock_deck", "seat": 0, "cards": deck(ANA_DECK)}, expected_seq=1
        )
    assert services.explain(caught.value, match.players()) == "Ana has already locked in a deck."
    assert services.explain(caught.value) == "0 has already locked in a deck."


def test_a_full_log_takes_no_more_and_says_so(locked):
    """What one match stores is bounded, at the most a match file carries (so every export imports)."""
    from rules import RuleError
    from tracker.review import exchange

    assert exchange.MAX_ACTIONS == services.LOG_MOST
    Match.objects.filter(pk=locked.pk).update(last_number=services.LOG_MOST)
    locked.refresh_from_db()
    before = snapshot(locked)
    with pytest.raises(RuleError) as full:
        services.match_apply_action(match=locked, action=PLAY, expected_seq=locked.head)
    assert services.explain(full.value) == "This match's log is full (10,000 entries); start a new match to play on."
    assert snapshot(locked) == before
