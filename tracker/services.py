"""The only code that changes a match: load, apply through the engine, save, in one transaction.

Every change names the step it was made against (`expected_seq`); if the match has
moved on (a double tap, a second phone, a stale page) it is refused with
`StaleSubmission` and nothing is applied.
"""

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

import rules
from rules import Dice, RuleError

from . import numbers
from .card_changes import record_uses
from .models import Action, Match, Player, Seat


class NoSuchStep(Exception):
    """Undo or redo to a step the match's current line does not have."""


class StaleSubmission(Exception):
    """The form was made against another step of the match than the current one."""

    def __init__(self, match: Match, expected_seq: int, doubled: bool) -> None:
        self.doubled = doubled
        if doubled:
            message = _("That was already recorded (sent twice); it was not applied again.")
        else:
            message = _(
                "The match moved on since this page was loaded (step %(then)s, now step %(now)s). "
                "Nothing was applied; here is the current state."
            ) % {"then": expected_seq, "now": match.head}
        super().__init__(message)


def explain(error: RuleError, players: list[Player] | None = None) -> str:
    """A rule error as a translated sentence, with seat numbers replaced by player names."""
    # Limits the engine wrote the English way ("100,000") are grouped as the page's language does.
    params = {key: numbers.relocalized(value) if isinstance(value, str) and f"%({key})s" in error.template else value
              for key, value in error.params.items()}
    if players and "seat" in params and isinstance(params["seat"], int) and 0 <= params["seat"] < len(players):
        params["seat"] = players[params["seat"]].name
    template = _(error.template)
    return template % params if params else template


def player_named(name: str) -> Player:
    """The player with this name (any case), created on first use."""
    name = " ".join(name.split())
    return Player.named(name) or Player.objects.create(name=name)


@transaction.atomic
def match_create(*, slug: str, player_names: list[str], config: dict, owner=None, owner_device: str = "",
                 club=None) -> Match:
    """A new match; raises RuleError (InvalidConfig) for options the game refuses.

    An account's match belongs to the account alone (`owner_device` is for phones without
    one). Without an owner or a club (scripts, demo data) the match belongs to the whole table.
    """
    game = rules.GAMES[slug]
    match = Match(slug=slug, rules_version=game.rules_version, owner=owner, owner_device="" if owner else owner_device,
                  club=club)
    match.state = game.new_match(config, match.seed)
    match.config = {**game.default_config, **config}
    match.save()
    for position, name in enumerate(player_names):
        Seat.objects.create(match=match, position=position, player=player_named(name))
    return match


def live_actions(match: Match) -> list[Action]:
    """The current line of the log: applied actions, then any undone ones that can be redone."""
    return list(match.actions.filter(abandoned=False).order_by("seq"))


def head_action(match: Match) -> Action | None:
    """The action that made the current step (what just happened), or None at the start."""
    return match.actions.filter(abandoned=False, seq=match.head).first() if match.head else None


def applied_actions(matches) -> dict[int, list[Action]]:
    """Per match id, its applied actions in order (undone and abandoned ones left out).

    One query for all the matches, so a statistics page does not ask once per match.
    """
    heads = {match.pk: match.head for match in matches}
    applied: dict[int, list[Action]] = {pk: [] for pk in heads}
    rows = Action.objects.filter(match_id__in=heads, abandoned=False).only("match_id", "seq", "events")
    for action in rows.order_by("match_id", "seq"):
        if action.seq <= heads[action.match_id]:
            applied[action.match_id].append(action)
    return applied


def entered_rolls(action: Action) -> list[int]:
    """The dice a player rolled by hand for this action, to be given again on replay."""
    return [roll["value"] for roll in action.rolls if roll["by"] == "player"]


def match_replay(match: Match, upto: int | None = None) -> dict:
    """The state after the first `upto` live actions (all applied ones by default), re-run from the seed."""
    upto = match.head if upto is None else upto
    game = match.game
    state = game.new_match(match.config, match.seed)
    for action in live_actions(match)[:upto]:
        state, _events = game.apply(state, action.payload, Dice(match.seed, action.seq, entered_rolls(action)))
    return state


def _lock(match_id: int, expected_seq: int, payload: dict | None = None) -> Match:
    match = Match.objects.select_for_update().get(pk=match_id)
    if match.head != expected_seq:
        # Only an open action may be called a double: saying so of a secret one would tell a
        # stale sender whether their guess equals the hidden entry.
        doubled = payload is not None and match.game.public_action(match.state, payload) == payload and any(
            action.seq == expected_seq + 1 and action.payload == payload for action in live_actions(match)
        )
        raise StaleSubmission(match, expected_seq, doubled)
    return match


def record_outcome(match: Match) -> None:
    """Set finished, winner and score from the engine's outcome of the current state."""
    outcome = match.game.outcome(match.state)
    if outcome is None:
        match.finished, match.winner, match.score = None, None, ""
        return
    # A match that ends again after a reopen keeps the date it first ended: ratings, standings
    # and statistics place it there, whatever undo and redo did in between.
    match.first_finished = match.first_finished or timezone.now()
    match.finished = match.first_finished
    match.winner = match.players()[outcome.winner] if outcome.winner is not None else None
    match.score = outcome.score


def _save(match: Match) -> None:
    record_outcome(match)
    if match.finished and match.seed_shown_after is None:
        # The seed is on every page from now on, even if the end is undone (fair seeds).
        match.seed_shown_after = match.actions.aggregate(last=Max("number"))["last"] or 0
    match.version += 1
    match.save(update_fields=["state", "head", "finished", "first_finished", "winner", "score", "version", "updated",
                              "seed_shown_after"])


@transaction.atomic
def match_apply_action(*, match_id: int, action: dict, expected_seq: int, rolls: list[int] | None = None,
                       proposal=None) -> Action:
    """Apply one action to the match; raises StaleSubmission or RuleError and then changes nothing.

    `proposal` is the agreement a table action was taken with (tracker/consent.py), for the log.
    """
    match = _lock(match_id, expected_seq, action)
    dice = Dice(match.seed, match.head + 1, rolls)
    state, events = match.game.apply(match.state, action, dice)
    secret = match.game.public_action(match.state, action) != action
    # Undone actions after the head give way to this new branch, but stay in the log.
    match.actions.filter(abandoned=False, seq__gt=match.head).update(abandoned=True)
    number = (match.actions.aggregate(last=Max("number"))["last"] or 0) + 1
    recorded = Action.objects.create(
        match=match,
        number=number,
        seq=match.head + 1,
        seat=action.get("seat"),
        payload=action,
        events=events,
        rolls=dice.rolls,
        secret=secret,
        proposal=proposal,
    )
    record_uses(match, [action])  # who has played a catalog card decides who may still change it
    match.state, match.head = state, match.head + 1
    _save(match)
    return recorded


@transaction.atomic
def match_goto(*, match_id: int, step: int, expected_seq: int) -> Match:
    """Move the match back (undo) or forward (redo) along its current line to `step`."""
    match = _lock(match_id, expected_seq)
    line = live_actions(match)
    if not 0 <= step <= len(line):
        raise NoSuchStep(_("There is no step %(step)s in this match.") % {"step": step})
    match.state, match.head = match_replay(match, step), step
    _save(match)
    return match
