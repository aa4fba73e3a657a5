"""Match files: export a match as versioned JSON, re-run one, import it.

A match file is the input log (Pokémon Showdown's idea): game, rules version, options,
seed, players and the applied actions with their dice. Each action also carries a hash
of the state it led to, so re-running finds the first step where a file was altered,
even when the altered action is still legal. Importing re-runs the whole file through
the engine and stores it only if every step agrees; nothing is stored otherwise.

    {"format": "tablekeeper-match", "format_version": 1, "game": "card-crush",
     "rules_version": "1", "config": {...}, "seed": "…", "players": ["Ana", "Ben"],
     "actions": [{"step": 1, "seat": 0, "at": "2026-…", "action": {...},
                  "rolls": [{"sides": 6, "value": 4, "by": "player", "why": "…"}],
                  "state_sha256": "…"}],
     "outcome": {"winner": "Ben", "score": "3-2"} or null}
"""

import hashlib
import json
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

import rules
from rules import Dice, RuleError

from . import services
from .models import Action, Match, Seat

FORMAT = "tablekeeper-match"
FORMAT_VERSION = 1
MAX_BYTES = 2 * 1024 * 1024
"""Largest match file accepted: a long match is a few hundred KB; anything bigger is not ours."""
MAX_ACTIONS = 10_000


class MatchFileError(Exception):
    """A match file that cannot be replayed; `step` is where it fails (None for the file as a whole)."""

    def __init__(self, message: str, step: int | None = None) -> None:
        self.step = step
        super().__init__(_("Step %(step)s: %(message)s") % {"step": step, "message": message} if step else message)


def state_hash(state: dict) -> str:
    return hashlib.sha256(json.dumps(state, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def export_match(match: Match) -> dict:
    """The match's applied line of play as a match file."""
    players = match.players()
    game = match.rules
    state = game.new_match(match.config, match.seed)
    actions = []
    for action in services.live_actions(match)[: match.head]:
        state, _events = game.apply(state, action.payload, Dice(match.seed, action.seq, services.entered_rolls(action)))
        actions.append({
            "step": action.seq,
            "seat": action.seat,
            "at": action.created.isoformat(),
            "action": action.payload,
            "rolls": action.rolls,
            "state_sha256": state_hash(state),
        })
    outcome = game.outcome(match.state)
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game": match.game,
        "rules_version": match.rules_version,
        "config": match.config,
        # The seed stays secret until the match ends (fair seeds): a running match's file
        # carries only the fingerprint, and can be read but not re-run.
        "seed": match.seed if match.finished else None,
        "seed_fingerprint": match.seed_fingerprint,
        "players": [player.name for player in players],
        "actions": actions,
        "outcome": None if outcome is None else {
            "winner": players[outcome.winner].name if outcome.winner is not None else None,
            "score": outcome.score,
        },
    }


def export_text(match: Match, entries: list[dict]) -> str:
    """The log as plain text, one step a paragraph (entries as the log page builds them)."""
    players = match.players()
    lines = [
        f"{match} — {' vs '.join(p.name for p in players)}",
        _("Rules version %(v)s. Seed fingerprint %(fp)s.") % {"v": match.rules_version, "fp": match.seed_fingerprint},
    ]
    if match.finished:
        lines.append(_("Seed %(seed)s. Result: %(name)s won %(score)s.") % {
            "seed": match.seed, "name": match.winner.name if match.winner else "-", "score": match.score})
    for entry in entries:
        status = {"undone": _(" [undone]"), "abandoned": _(" [undone, replaced by a new branch]")}.get(entry["status"], "")
        step = "x" if entry["status"] == "abandoned" else f"{entry['action'].seq}."
        lines.append("")
        lines.append(f"{step} {entry['what']}{status}")
        lines.extend(f"   {line}" for line in entry["lines"])
        lines.extend(f"   {roll}" for roll in entry["rolls"])
    return "\n".join(lines) + "\n"


def parse(raw: bytes) -> dict:
    """The file's JSON, or MatchFileError for a file that is too big, not JSON, or not a match file."""
    if len(raw) > MAX_BYTES:
        raise MatchFileError(_("The file is larger than %(mb)s MB; a match file is much smaller.") % {"mb": MAX_BYTES // 2**20})
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except RecursionError as error:
        raise MatchFileError(_("The file's JSON is nested too deeply to be a match file.")) from error
    except (UnicodeDecodeError, ValueError) as error:  # ValueError: bad JSON, or a number too long to read
        raise MatchFileError(_("The file is not valid JSON (%(error)s).") % {"error": error}) from error
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise MatchFileError(_("This is not a Tablekeeper match file."))
    if data.get("format_version") != FORMAT_VERSION:
        raise MatchFileError(_("Match file format version %(got)r is not supported; this Tablekeeper reads version %(want)s.")
                             % {"got": data.get("format_version"), "want": FORMAT_VERSION})
    return data


@dataclass
class Replayed:
    """A match file re-run step by step: what to store, and how it ended."""

    game: rules.Game
    states: list[dict]
    events: list[list[dict]]
    outcome: rules.Outcome | None


def _field(data: dict, name: str, kind: type):
    value = data.get(name)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise MatchFileError(_("The file's %(field)s is missing or malformed.") % {"field": name})
    return value


def replay(data: dict) -> Replayed:
    """Re-run a parsed match file; MatchFileError names the first step that does not agree."""
    slug = _field(data, "game", str)
    version = _field(data, "rules_version", str)
    if slug not in rules.GAMES:
        raise MatchFileError(_("This Tablekeeper does not know the game %(game)r.") % {"game": slug})
    game = rules.game_version(slug, version)
    if game is None:
        raise MatchFileError(_(
            "The file was played under %(game)s rules version %(got)s, which this Tablekeeper no longer has "
            "(it has version %(have)s). It is refused rather than re-scored under other rules."
        ) % {"game": rules.GAMES[slug].name, "got": version, "have": rules.GAMES[slug].rules_version})
    if data.get("seed") is None and isinstance(data.get("seed_fingerprint"), str):
        raise MatchFileError(_("This file was exported while the match was still running, so its seed was withheld "
                               "and it cannot be re-run. Export it again once the match is over."))
    config, seed = _field(data, "config", dict), _field(data, "seed", str)
    if "seed_fingerprint" in data and data["seed_fingerprint"] != rules.seed_fingerprint(seed):
        raise MatchFileError(_("The seed does not match the fingerprint shown when the match started."))
    players = _field(data, "players", list)
    if len(players) != game.seats or not all(isinstance(p, str) and p.strip() and len(p) <= 40 for p in players):
        raise MatchFileError(_("%(game)s needs %(n)s named players.") % {"game": game.name, "n": game.seats})
    if len({" ".join(p.split()).casefold() for p in players}) < len(players):
        raise MatchFileError(_("Each seat needs a different player."))
    actions = _field(data, "actions", list)
    if len(actions) > MAX_ACTIONS:
        raise MatchFileError(_("The file has more than %(n)s actions.") % {"n": MAX_ACTIONS})
    try:
        state = game.new_match(config, seed)
    except RuleError as error:
        raise MatchFileError(services.explain(error)) from error
    states, events = [], []
    for number, entry in enumerate(actions, start=1):
        if not isinstance(entry, dict) or entry.get("step") != number or not isinstance(entry.get("action"), dict):
            raise MatchFileError(_("the entry is malformed or out of order."), step=number)
        recorded = entry.get("rolls")
        if not isinstance(recorded, list) or not all(isinstance(r, dict) and "value" in r and "by" in r for r in recorded):
            raise MatchFileError(_("its dice record is malformed."), step=number)
        dice = Dice(seed, number, [r["value"] for r in recorded if r["by"] == "player"])
        try:
            state, step_events = game.apply(state, entry["action"], dice)
        except RuleError as error:
            raise MatchFileError(_("the rules refuse this action: %(why)s") % {"why": services.explain(error)}, step=number) from error
        if dice.rolls != recorded:
            raise MatchFileError(_("the dice do not match the seed: the file says %(got)s, the seed gives %(want)s.")
                                 % {"got": [r.get("value") for r in recorded], "want": [r["value"] for r in dice.rolls]},
                                 step=number)
        if entry.get("state_sha256") != state_hash(state):
            raise MatchFileError(_("the result differs from the one recorded in the file (altered or truncated)."),
                                 step=number)
        states.append(state)
        events.append(step_events)
    outcome = game.outcome(state)
    claimed = data.get("outcome")
    if claimed is not None or outcome is not None:
        got = None if outcome is None else {
            "winner": players[outcome.winner] if outcome.winner is not None else None, "score": outcome.score}
        if claimed != got:
            raise MatchFileError(_("the file claims the result %(claimed)s but re-running it gives %(got)s.")
                                 % {"claimed": claimed, "got": got}, step=len(actions))
    return Replayed(game=game, states=states, events=events, outcome=outcome)


def _action_time(value):
    """When the action was taken, if the file says so sensibly; None otherwise (the import time stays)."""
    try:
        at = parse_datetime(value) if isinstance(value, str) else None
    except ValueError:
        return None
    if at is not None and timezone.is_naive(at):
        at = timezone.make_aware(at, timezone.get_default_timezone())
    return at


@transaction.atomic
def import_match(data: dict, owner=None, owner_device: str = "") -> Match:
    """Store a match file as a new match, only if it replays cleanly."""
    replayed = replay(data)
    game = replayed.game
    match = Match(game=game.slug, rules_version=game.rules_version, seed=data["seed"], owner=owner,
                  owner_device=owner_device,
                  config={**game.default_config, **data["config"]})
    match.state = replayed.states[-1] if replayed.states else game.new_match(data["config"], data["seed"])
    match.head = len(replayed.states)
    match.save()
    for position, name in enumerate(data["players"]):
        Seat.objects.create(match=match, position=position, player=services.player_named(name))
    for entry, events in zip(data["actions"], replayed.events):
        at = _action_time(entry.get("at"))
        seat = entry["action"].get("seat")
        action = Action.objects.create(match=match, number=entry["step"], seq=entry["step"],
                                       seat=seat if isinstance(seat, int) and not isinstance(seat, bool) else None,
                                       payload=entry["action"], events=events, rolls=entry["rolls"])
        if at is not None:
            Action.objects.filter(pk=action.pk).update(created=at)
    services.record_outcome(match)
    match.save(update_fields=["finished", "winner", "score"])
    return match
