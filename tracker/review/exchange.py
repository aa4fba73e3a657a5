"""Match files: export a match as versioned JSON, re-run one, import it.

A match file is the input log (Pokémon Showdown's idea): game, rules version, options,
seed, players and the applied actions with their dice. Importing re-runs the whole file
through the engine and stores it only if every step agrees; nothing is stored otherwise.

    {"format": "tablekeeper-match", "format_version": 2, "game": "card-crush",
     "rules_version": "1", "config": {...}, "seed": "…", "seed_fingerprint": "…",
     "players": ["Ana", "Ben"], "header_sha256": "…",
     "actions": [{"step": 1, "seat": 0, "at": "2026-…", "action": {...},
                  "rolls": [{"sides": 6, "value": 4, "by": "player", "why": "…"}],
                  "state_sha256": "…", "step_sha256": "…"}],
     "outcome": {"winner": "Ben", "score": "3-2"} or null}

Two kinds of hash, checked as the file is re-run:

- `state_sha256` (every version): the state the action led to. It finds the first step
  whose result was altered, even when the altered action is still legal. It cannot see an
  edit that leaves the state as it was: a typed-in die changed to another value with the
  same effect, an app roll relabelled as typed in, or a step that changed nothing (a plain
  D6) taken out and the rest renumbered.
- Version 2 adds a chain. `header_sha256` hashes the game, rules version, options, the
  seed's SHA-256 (so a running match's file, which withholds the seed, has the same header
  as the finished one's) and the players; each `step_sha256` hashes the step before it (the
  header for step 1) with this step's number, seat, action, dice and state hash. So any edit
  to what was played, even one without effect, breaks the chain at its step, and an edited
  header (players renamed, say) no longer matches.

What the hashes prove: that the file is the one exported, unless someone rewrote it with
care. They are not a signature. There is no secret in them: anyone can edit a file and
recompute every hash (a test helper does exactly that), and anyone who re-runs the match
with other moves gets a file that passes. The times (`at`) and the outcome claim are
outside the chain; an edited time changes no result and is kept as written, and the
outcome is checked against the re-run. Version 1 files (state hashes only) are still read,
with only the state check, so a version 2 file stripped of its chain and relabelled
version 1 is read that way too: one more reason to treat the chain as a check against
slips and casual edits, not as proof.
"""

import hashlib
import json
import math
from dataclasses import dataclass
from datetime import UTC
from typing import cast

from django.conf import settings
from django.db import transaction
from django.db.models import CharField
from django.utils import timezone, translation
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

import rules
from rules import Dice, RuleError
from tracker.matches import names, services
from tracker.matches.card_uses import record_uses
from tracker.models import Action, Checkpoint, Match, Seat

FORMAT = "tablekeeper-match"
FORMAT_VERSION = 2
"""The version exports write."""
READS = (1, 2)
"""The versions imports read: 1 has state hashes only, 2 adds the chain of step hashes."""
MAX_BYTES = 2 * 1024 * 1024
"""Largest match file accepted: a long match is a few hundred KB; anything bigger is not ours."""
MAX_ACTIONS = services.LOG_MOST
BATCH = 500
"""Rows an import writes per statement."""


class MatchFileError(Exception):
    """A match file that cannot be replayed; `step` is where it fails (None for the file as a whole)."""

    def __init__(self, message: str, step: int | None = None) -> None:
        self.step = step
        super().__init__(_("Step %(step)s: %(message)s") % {"step": step, "message": message} if step else message)


def _canonical(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def state_hash(state: dict) -> str:
    return hashlib.sha256(_canonical(state).encode()).hexdigest()


def header_hash(slug: str, rules_version: str, config: dict, seed: str, players: list[str]) -> str:
    """What the match was set up as (the file's "game" is the game's slug): the start of the chain of step hashes."""
    return hashlib.sha256(_canonical({
        "game": slug, "rules_version": rules_version, "config": config,
        "seed_sha256": hashlib.sha256(seed.encode()).hexdigest(), "players": players,
    }).encode()).hexdigest()


def step_hash(previous: str, entry: dict) -> str:
    """One link of the chain: the previous step's hash (or the header's) and this step as played."""
    step = {key: entry.get(key) for key in ("step", "seat", "action", "rolls", "state_sha256")}
    return hashlib.sha256((previous + _canonical(step)).encode()).hexdigest()


def export_match(match: Match) -> dict:
    """The match's applied line of play as a match file."""
    players = match.players()
    game = match.game
    state = game.new_match(match.config, match.seed)
    header = header_hash(match.slug, match.rules_version, match.config, match.seed, [p.name for p in players])
    chain = header
    actions = []
    for action in services.live_actions(match)[: match.head]:
        state, _events = game.apply(state, action.payload, Dice(match.seed, action.seq, services.entered_rolls(action)))
        entry = {
            "step": action.seq,
            "seat": action.seat,
            "at": action.created.isoformat(),
            "action": action.payload,
            "rolls": action.rolls,
            "state_sha256": state_hash(state),
        }
        entry["step_sha256"] = chain = step_hash(chain, entry)
        actions.append(entry)
    outcome = game.outcome(match.state)
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game": match.slug,
        "rules_version": match.rules_version,
        "config": match.config,
        # The seed stays secret until the match ends (fair seeds): a running match's file
        # carries only the fingerprint, and can be read but not re-run.
        "seed": match.seed if match.seed_known else None,
        "seed_fingerprint": match.seed_fingerprint,
        "players": [player.name for player in players],
        "header_sha256": header,
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
            "seed": match.seed, "name": match.winner.name if match.winner else "-", "score": match.shown_score})
    elif match.seed_known:
        lines.append(_("Seed %(seed)s, revealed when the match first ended; play went on after an undo.")
                     % {"seed": match.seed})
    for entry in entries:
        status = {"undone": _(" [undone]"), "abandoned": _(" [undone, replaced by a new branch]")}.get(entry["status"], "")
        step = "x" if entry["status"] == "abandoned" else f"{entry['action'].seq}."
        lines.append("")
        foreseeable = _(" [after the seed was revealed]") if entry.get("after_seed_shown") else ""
        lines.append(f"{step} {entry['what']}{status}{foreseeable}")
        lines.extend(f"   {line}" for line in entry["lines"])
        lines.extend(f"   {roll}" for roll in entry["rolls"])
    return "\n".join(lines) + "\n"


def _check_version(data: dict) -> None:
    version = data.get("format_version")
    if version is None:  # a JSON file, but not a match file of ours ("Version None" was said in German)
        raise MatchFileError(_("This file has no match file format version: it is not a Tablekeeper match file. "
                               "Only the file from “Export (JSON)” on a match's log can be imported."))
    if type(version) is not int or version not in READS:  # not True or 2.0, which compare equal to 1 and 2
        raise MatchFileError(_("Match file format version %(got)r is not supported; this Tablekeeper reads "
                               "versions up to %(newest)s.") % {"got": version, "newest": READS[-1]})


def _text_export(raw: bytes) -> bool:
    """Whether the file looks like the log as text (`export_text`, in any of the site's languages): its second line
    says the rules version and the seed's fingerprint."""
    lines = raw.decode("utf-8-sig", errors="replace").splitlines()
    if len(lines) < 2:
        return False
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            said = _("Rules version %(v)s. Seed fingerprint %(fp)s.")
        start, _rest = said.split("%(v)s", 1)
        if start and lines[1].startswith(start):
            return True
    return False


def _not_json(raw: bytes, error: Exception) -> str:
    """Why a file that is not JSON is refused, in the reader's words (never the parser's English): the log as text
    is for reading only; otherwise where the JSON breaks off, when the parser says."""
    if _text_export(raw):
        return _("This is the log as text (“Log as text”), which is for reading: only the file from “Export (JSON)” "
                 "on a match's log can be imported.")
    if isinstance(error, json.JSONDecodeError) and error.pos:
        return _("The file is not valid JSON: it breaks off at line %(line)s, column %(column)s. Import the file from "
                 "“Export (JSON)” on a match's log.") % {"line": error.lineno, "column": error.colno}
    return _("The file is not valid JSON, so it is not a match file. Import the file from “Export (JSON)” on a "
             "match's log.")


def parse(raw: bytes) -> dict:
    """The file's JSON, or MatchFileError for a file that is too big, not JSON, or not a match file."""
    if len(raw) > MAX_BYTES:
        raise MatchFileError(_("The file is larger than %(mb)s MB; a match file is much smaller.") % {"mb": MAX_BYTES // 2**20})
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except RecursionError as error:
        raise MatchFileError(_("The file's JSON is nested too deeply to be a match file.")) from error
    except (UnicodeDecodeError, ValueError) as error:  # ValueError: bad JSON, or a number too long to read
        raise MatchFileError(_not_json(raw, error)) from error
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise MatchFileError(_("This is not a Tablekeeper match file."))
    _check_version(data)
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


MAX_DEPTH = 20
"""Deepest nesting of lists and objects a match file may have (a real one has about 5)."""
MAX_TEXT = 1000
WHOLE_FROM = 1e16
"""From here on Python writes a float with an exponent ("5.03e+16"), and PostgreSQL's jsonb reads that back as a whole
number (50300000000000000), where SQLite keeps it as sent: so neither takes it (no match file has such a number)."""
"""Longest text anywhere in a match file (a card name, a note); the seed, version and names have their own."""


def _unstorable(value) -> str:
    """What in this JSON value, keys included, could not be stored the same on SQLite and PostgreSQL
    ("" if nothing): walked with a list, not recursion, so no nesting can overflow the stack."""
    pending = [(value, 0)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return _("a NUL character")
            if any("\ud800" <= char <= "\udfff" for char in item):
                return _("half of a UTF-16 pair (a lone surrogate), which is no character")
            if len(item) > MAX_TEXT:
                return _("a text longer than %(n)s characters") % {"n": MAX_TEXT}
        elif isinstance(item, float) and not math.isfinite(item):
            return _("a number that is not finite (NaN or Infinity)")
        elif isinstance(item, float) and abs(item) >= WHOLE_FROM:
            return _("a number of 10^16 or more written with a decimal point or an exponent")
        elif isinstance(item, (dict, list)):
            if depth >= MAX_DEPTH:
                return _("lists or objects nested more than %(n)s deep") % {"n": MAX_DEPTH}
            children = [*item.keys(), *item.values()] if isinstance(item, dict) else item
            pending.extend((child, depth + 1) for child in children)
    return ""


def _stored_length(field: str) -> int:
    """The column's length, read from the model so the check and the database never disagree."""
    return cast(CharField, Match._meta.get_field(field)).max_length or 0


def _refuse_unstorable(data: dict) -> None:
    """Whatever would reach the database is checked here first, so both databases take the same files:
    no NUL (PostgreSQL refuses it), no lone surrogate (no encoding has it), no endless nesting or
    number, no text longer than its column. Names where the trouble is."""
    places = {"players": _("the players' names"), "seed": _("the seed"), "config": _("the options"),
              "game": _("the game"), "rules_version": _("the rules version")}
    for key, value in data.items():
        if key == "actions" and isinstance(value, list):
            for number, entry in enumerate(value, start=1):
                if what := _unstorable(entry):
                    raise MatchFileError(_("it holds %(what)s, which no match file has.") % {"what": what},
                                         step=number)
        elif what := _unstorable(key) or _unstorable(value):
            raise MatchFileError(_("The file holds %(what)s (in %(where)s), which no match file has.")
                                 % {"what": what, "where": places.get(key, _("the file"))})
    for field, name in (("seed", _("The seed")), ("rules_version", _("The rules version"))):
        if isinstance(data.get(field), str) and len(data[field]) > _stored_length(field):
            raise MatchFileError(_("%(name)s is longer than %(n)s characters, more than any match has.")
                                 % {"name": name, "n": _stored_length(field)})


def replay(data: dict) -> Replayed:
    """Re-run a parsed match file; MatchFileError names the first step that does not agree."""
    game, config, seed, players = _header(data)
    actions = _field(data, "actions", list)
    # Version 1 files predate the chain; _check_version has refused every other version.
    chained = data.get("format_version") != 1
    chain = _field(data, "header_sha256", str) if chained else None
    if len(actions) > MAX_ACTIONS:
        raise MatchFileError(_("The file has more than %(n)s actions.") % {"n": MAX_ACTIONS})
    try:
        state = game.new_match(config, seed)
    except RuleError as error:
        raise MatchFileError(services.explain(error)) from error
    states, events = [], []
    for number, entry in enumerate(actions, start=1):
        state, step_events = _step(game, seed, state, entry, number)
        # Checked last, so that an edit the re-run itself can pin down is named by what it changed.
        if chain is not None:
            chain = step_hash(chain, entry)
            if entry.get("step_sha256") != chain:
                raise MatchFileError(_("its action or dice were changed after export, or a step before it was "
                                       "taken out: its step hash does not follow from the steps before it."),
                                     step=number)
        states.append(state)
        events.append(step_events)
    if chained and data["header_sha256"] != header_hash(game.slug, game.rules_version, config, seed, players):
        raise MatchFileError(_("The file's game, rules version, options, seed or players were changed after "
                               "export: they no longer match its header hash."))
    outcome = game.outcome(state)
    _check_claimed(data.get("outcome"), outcome, players, len(actions))
    return Replayed(game=game, states=states, events=events, outcome=outcome)


def _header(data: dict) -> tuple[rules.Game, dict, str, list]:
    """The file's game under the rules it was played with, its options, seed and players, each checked."""
    _check_version(data)
    _refuse_unstorable(data)
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
    if len(players) != game.seats or not all(isinstance(p, str) for p in players):
        raise MatchFileError(_("%(game)s needs %(n)s named players.") % {"game": game.name, "n": game.seats})
    for player in players:  # as the name will be kept: "Ana\u200b" is Ana, "\ufdfa" 18 characters long
        if refusal := names.player_name_refusal(player):
            raise MatchFileError(refusal)
    if len({names.look(player) for player in players}) < len(players):  # "Ana" and "ΑΝΑ" are one player
        raise MatchFileError(_("Each seat needs a different player."))
    return game, config, seed, players


def _step(game: rules.Game, seed: str, state: dict, entry, number: int) -> tuple[dict, list[dict]]:
    """One step of the file re-run: the state after it and what happened, or why the file is refused there."""
    if not isinstance(entry, dict) or entry.get("step") != number or not isinstance(entry.get("action"), dict):
        raise MatchFileError(_("the entry is malformed or out of order."), step=number)
    _action_time(entry.get("at"), number)  # checked before anything is stored
    recorded = entry.get("rolls")
    if not isinstance(recorded, list) or not all(isinstance(r, dict) and "value" in r and "by" in r for r in recorded):
        raise MatchFileError(_("its dice record is malformed."), step=number)
    dice = Dice(seed, number, [r["value"] for r in recorded if r["by"] == "player"])
    try:
        state, step_events = game.apply(state, entry["action"], dice)
    except RuleError as error:
        raise MatchFileError(_("the rules refuse this action: %(why)s") % {"why": services.explain(error)},
                             step=number) from error
    if dice.rolls != recorded:
        raise MatchFileError(_("the dice do not match the seed: the file says %(got)s, the seed gives %(want)s.")
                             % {"got": _dice_said([r.get("value") for r in recorded]),
                                "want": _dice_said([r["value"] for r in dice.rolls])},
                             step=number)
    if entry.get("state_sha256") != state_hash(state):
        raise MatchFileError(_("the result differs from the one recorded in the file (altered or truncated)."),
                             step=number)
    return state, step_events


def _check_claimed(claimed, outcome: rules.Outcome | None, players: list, steps: int) -> None:
    """The result the file claims is the one its re-run gives."""
    if claimed is None and outcome is None:
        return
    got = None if outcome is None else {
        "winner": players[outcome.winner] if outcome.winner is not None else None, "score": outcome.score}
    if claimed != got:
        raise MatchFileError(_("the file claims the result %(claimed)s but re-running it gives %(got)s.")
                             % {"claimed": _result_said(claimed), "got": _result_said(got)}, step=steps)


def _dice_said(values: list) -> str:
    """Dice as a player reads them ("6", "3, 5"), not as a program prints a list ("[6]", a play-test)."""
    return ", ".join(str(value) for value in values) if values else _("no dice")


def _result_said(result) -> str:
    """A result as a player reads it ("Ana won 3-2"), not as a program prints a mapping (a play-test read braces,
    English keys and "None" on the German page too). A file's claim may be anything: what is not a result says so."""
    if result is None:
        return _("none (the match is not over)")
    if not isinstance(result, dict) or not isinstance(result.get("score"), str) or \
            not isinstance(result.get("winner"), str | None):
        return _("in a form this version cannot read")
    if result["winner"] is None:
        return _("a draw, %(score)s") % {"score": result["score"]}
    return _("%(name)s won %(score)s") % {"name": result["winner"], "score": result["score"]}


def _action_time(value, step: int):
    """When the action was taken, if the file says so sensibly; None otherwise (the import time stays).
    A time no database can hold (before year 1 or after 9999 once in UTC) is refused, naming the step."""
    try:
        at = parse_datetime(value) if isinstance(value, str) else None
    except ValueError:
        return None
    if at is None:
        return None
    try:
        if timezone.is_naive(at):
            at = timezone.make_aware(at, timezone.get_default_timezone())
        at.astimezone(UTC)
    except (OverflowError, ValueError) as error:
        raise MatchFileError(_("its time %(at)s is out of range: before year 1 or after 9999 in UTC.")
                             % {"at": value}, step=step) from error
    return at


@transaction.atomic
def import_match(data: dict, owner=None, owner_device: str = "") -> Match:
    """Store a match file as a new match, only if it replays cleanly."""
    replayed = replay(data)
    game = replayed.game
    # Like a match started here: an account's import is the account's alone, not the phone's.
    match = Match(slug=game.slug, rules_version=game.rules_version, seed=data["seed"], owner=owner,
                  owner_device="" if owner else owner_device,
                  config={**game.default_config, **data["config"]})
    match.state = replayed.states[-1] if replayed.states else game.new_match(data["config"], data["seed"])
    match.head = match.line_length = match.last_number = len(replayed.states)
    # The file carries the seed, which whoever wrote the file chose: it is shown from the start, and every
    # step played on from here is marked as one whose app rolls could be foreseen (as after a match's end).
    match.seed_shown_after = match.last_number
    match.save()
    for position, player in enumerate(services.players_named(data["players"])):
        Seat.objects.create(match=match, position=position, player=player)
    # In bulk: a long file is thousands of rows, and a row each was most of the import's cost.
    before = game.new_match(match.config, match.seed)
    actions, times = [], []
    for entry, events, state in zip(data["actions"], replayed.events, replayed.states, strict=True):
        times.append(_action_time(entry.get("at"), entry["step"]))
        actions.append(Action(match=match, number=entry["step"], seq=entry["step"],
                              seat=services.acting_seat(game, entry["action"]),
                              payload=entry["action"], events=events, rolls=entry["rolls"],
                              secret=services.hidden_when_made(game, before, state, entry["action"]),
                              face_down=services.face_down(game, match.state, entry["action"]),
                              whose=game.authority(before, entry["action"])))
        before = state
    Action.objects.bulk_create(actions, batch_size=BATCH)
    timed = [action for action, at in zip(actions, times, strict=True) if at is not None]
    for action, at in zip(actions, times, strict=True):
        action.created = at or action.created  # the file's times (auto_now_add set every row's to now)
    Action.objects.bulk_update(timed, ["created"], batch_size=BATCH)
    Checkpoint.objects.bulk_create(
        [Checkpoint(action=action, match=match, seq=action.seq, state=state)
         for action, state in zip(actions, replayed.states, strict=True) if action.seq % services.CHECKPOINT_EVERY == 0],
        batch_size=BATCH)
    # Only what the table may see counts, as for a step played here: an entry still hidden at the file's last step
    # is noted at its reveal (services._revealed_by reads its `face_down`), not on the card's page before it.
    record_uses(match, [game.public_action(match.state, entry["action"]) for entry in data["actions"]])
    services.record_outcome(match)
    match.save(update_fields=["finished", "first_finished", "winner", "score", "corrected"])
    return match
