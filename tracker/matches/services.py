"""The only code that changes a match: load, apply through the engine, write in one transaction.

Every change names the step it was made against (`expected_seq`); if the match has
moved on (a double tap, a second phone, a stale page) it is refused with
`StaleSubmission` and nothing is applied. The write is conditional on the version the
match was loaded at (`_save`), so a change computed from a match that another phone or
app server changed meanwhile is refused the same way, and nothing is applied twice.

`Match.state` caches the state at `head`; `Checkpoint`s cache it every CHECKPOINT_EVERY
steps, so undo, redo and the replay page re-run at most a few actions. The log stays the
truth: `replay_problems` re-runs a match from its seed and compares every cached state.
"""

from django.db import IntegrityError, transaction
from django.db.models import JSONField, OuterRef, Q, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _

import rules
from rules import Dice, IllegalAction, RuleError
from rules.errors import gettext_noop
from tracker.matches import live, names, news, numbers, writes
from tracker.matches.card_uses import record_uses
from tracker.matches.compiled import compiled, of_match
from tracker.matches.engine_messages import engine_message, game_of, spoken
from tracker.models import (
    Action,
    Checkpoint,
    Confirmation,
    Match,
    Player,
    Seat,
    head_as_read,
    hold_names,
)


class NoSuchStep(Exception):
    """Undo or redo to a step the match's current line does not have."""


class Seq(int):
    """A step number as a page's form sends it (`Match.board_mark`, "5-7"): the step the page showed, with `number`,
    the newest log entry's number then, which says which line led there. After an undo, a new step instead of the
    undone ones comes back to the same step numbers on another board: a form drawn on the old one is stale there
    (round 26: Ben's move drawn after Ana's step 3 was played after another step 3 she put in its place). A bare
    step number (a page from before, a script) has no `number` and is read as the step alone."""

    number: int | None

    def __new__(cls, step: int, number: int | None = None) -> "Seq":
        made = super().__new__(cls, step)
        made.number = number
        return made


def _line_of(expected_seq: int) -> int | None:
    """The newest log entry's number a form was drawn with (a Seq's), or None for a bare step number."""
    return getattr(expected_seq, "number", None)


def stands_at(match: Match, expected_seq: int) -> bool:
    """Whether the match stands where a form was drawn (`expected_seq`, a Seq from a page): at its step, and on the
    line that led there then (no log entry recorded since). The one test of a stale form: every change asks it."""
    number = _line_of(expected_seq)
    return match.head == expected_seq and (number is None or number == match.last_number)


class StaleSubmission(Exception):
    """The form was made against another step of the match than the current one, or another line to it."""

    def __init__(self, match: Match, expected_seq: int, doubled: bool) -> None:
        self.doubled = doubled
        self.recorded_step = expected_seq + 1 if doubled else None
        """The step that holds the doubled tap: the views answer it as recorded, not as refused."""
        if doubled:
            message = _("That tap was already recorded (sent twice, or tapped on another phone too): it counts once.")
        elif match.head == expected_seq and _came_back(match, expected_seq):
            message = _(
                "The match moved on and came back since this page was loaded: a step was played after step "
                "%(now)s and taken back. Nothing was applied; here is the current state."
            ) % {"now": match.head}
        elif match.head == expected_seq:
            message = _(
                "The match went another way since this page was loaded: its step %(now)s is another step now, "
                "played instead of undone ones. Nothing was applied; here is the current state."
            ) % {"now": match.head}
        elif match.head < expected_seq:  # taken back: "moved on" would tell the player the wrong way
            message = _(
                "The match was taken back since this page was loaded (step %(then)s, now step %(now)s). "
                "Nothing was applied; here is the current state."
            ) % {"then": expected_seq, "now": match.head}
        else:
            message = _(
                "The match moved on since this page was loaded (step %(then)s, now step %(now)s). "
                "Nothing was applied; here is the current state."
            ) % {"then": expected_seq, "now": match.head}
        super().__init__(message)


def _came_back(match: Match, drawn: int) -> bool:
    """Whether a form drawn on step `drawn` of the match, which stands at that step again, was drawn on the same
    board: the line's entry at that step was there already when it was drawn (its number is no later than the
    newest the form names), so what happened since was played after it and taken back, not played in its place.
    A form that names no line (a bare step) is stale only on another step, never here."""
    number = _line_of(drawn)
    if number is None:
        return False
    if drawn == 0:  # the match's start: the same board on every line
        return True
    entry = match.actions.filter(abandoned=False, seq=drawn).values_list("number", flat=True).first()
    return entry is not None and entry <= number


class Locked(StaleSubmission):
    """The match's result became final (its tournament ended) after the page checked it (locks.why_locked): the
    change is refused as a stale one is, with why, and nothing is applied."""

    def __init__(self, reason: str) -> None:
        self.doubled, self.recorded_step = False, None
        Exception.__init__(self, reason)


def explain(error: RuleError, players: list[Player] | None = None, slug: str | None = None) -> str:
    """A rule error as a translated sentence, with seat numbers replaced by player names.

    Its template is translated in the context of the game that refused (`slug`, else the game whose engine
    raised it: game_of), where makemessages put the German of that game's engine; one of the shared parts of
    rules/ (an option's range, a die) is in the shared catalogue, without a context. A word of the game's
    vocabulary it names (rules.errors.Word: a colour, an affinity, a stat) is said in the game's words too."""
    slug = slug or game_of(error)
    # Limits the engine wrote the English way ("100,000") are grouped as the page's language does.
    params = {key: numbers.relocalized(value) if isinstance(value, str) and f"%({key})s" in error.template
              else value for key, value in ((key, spoken(slug, value)) for key, value in error.params.items())}
    if players and "seat" in params and isinstance(params["seat"], int) and 0 <= params["seat"] < len(players):
        params["seat"] = players[params["seat"]].name
    template = engine_message(slug, error.template)
    return template % params if params else template


def player_named(name: str) -> Player:
    """The player with this name (any case; a look-alike spelling is the same name: names.player_name), created on
    first use."""
    return players_named([name])[0]


def players_named(typed: list[str]) -> list[Player]:
    """The player of each name (as player_named), those not yet kept created: however many phones name one new
    player at the same moment, in whichever spellings drawn alike, there is one player (models.hold_names), and no
    phone is answered with an error. The names a creator holds are taken at once, in one order, so two matches
    naming the same two new players never wait on each other."""
    for name in typed:
        if refusal := names.player_name_refusal(name):  # every form and the import refuse it first
            raise ValueError(refusal)
    kept = [names.player_name(name) for name in typed]
    found = {name: player for name in kept if (player := Player.named(name)) is not None}
    if missing := [name for name in dict.fromkeys(kept) if name not in found]:
        with transaction.atomic():  # the names are held until the outermost transaction ends
            hold_names("player", missing)
            for name in missing:
                found[name] = _player_created(name)
    return [found[name] for name in kept]


def _player_created(name: str) -> Player:
    """The player called `name`, read again now that its name is held (another phone may have created it before
    that), else created."""
    if (player := Player.named(name)) is not None:
        return player
    try:
        with transaction.atomic():  # a savepoint: a name taken meanwhile leaves the transaction usable
            return Player.objects.create(name=name)
    except IntegrityError:  # lower(name) taken by a spelling whose look differs: that is this player too
        if (player := Player.named(name)) is not None:
            return player
        raise


@transaction.atomic
def match_create(*, slug: str, player_names: list[str], config: dict, owner=None, owner_device: str = "",
                 club=None) -> Match:
    """A new match; raises RuleError (InvalidConfig) for options the game refuses.

    An account's match belongs to the account alone (`owner_device` is for phones without
    one). Without an owner or a club (scripts, demo data) the match belongs to the whole table.
    """
    from tracker.competition.confirmations import needs_players  # competition builds on these services

    game = rules.GAMES[slug]
    match = Match(slug=slug, rules_version=game.rules_version, owner=owner, owner_device="" if owner else owner_device,
                  club=club, unconfirmed=needs_players(slug, club))
    match.state = game.new_match(config, match.seed)
    match.config = {**game.default_config, **config}
    match.save()
    for position, player in enumerate(players_named(player_names)):
        Seat.objects.create(match=match, position=position, player=player)
    return match


def live_actions(match: Match) -> list[Action]:
    """The current line of the log: applied actions, then any undone ones that can be redone."""
    return list(match.actions.filter(abandoned=False).order_by("seq"))


def head_action(match: Match, ask: bool = True) -> Action | None:
    """The action that made the current step (what just happened), or None at the start.

    A change leaves the action it applied or moved to on the match, so the page drawn
    right after it needs no query for it. `ask=False`: None rather than a query when the
    match came without it (a caller with a query of its own for what it looks for).
    """
    read = match.__dict__.pop("head_read", None)  # read with the match (MatchQuerySet.with_people)
    if not match.head:
        return None
    known = getattr(match, "_head_action", None)
    if known is not None and known.seq == match.head:
        return known
    found: Action | None
    if read is not None and read[-1] == match.version:  # not a match read again since (refresh_from_db)
        found = head_as_read(match, read)
    elif not ask:
        return None
    else:
        found = match.actions.filter(abandoned=False, seq=match.head).first()
    match.__dict__["_head_action"] = found  # the board and the outcome both ask
    return found


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


CHECKPOINT_EVERY = 10
LOG_MOST = 10_000
"""Most entries a match's log takes (undone ones included): about eight hours of a tap every three seconds.
Bounds what one match stores, and is the most a match file carries, so every match's export imports."""
"""A checkpoint is kept after every 10th step, so reaching any step re-runs at most 9 actions.

Measured on the demo matches: a checkpoint after every step would make undo re-run
nothing, but store a whole state (1-6 KB) beside every action, 8 times the storage of every
10th step (a 40-step Cardmaster match: 106 KB against 13 KB). Every 10th step adds at worst
nine applies to an undo, 1-4 ms of CPU (LOGOS, the slowest engine, the most), about one page
render; an undo at step 1,000 costs the same as one at step 10.
"""


def _fold(match: Match, state: dict, actions: list[Action], keep: list | None = None) -> dict:
    """Apply `actions` (in order) to `state`; with `keep`, gather the checkpoints due on the way."""
    game = match.game
    for action in actions:
        state, _events = game.apply(state, action.payload, Dice(match.seed, action.seq, entered_rolls(action)))
        if keep is not None and action.seq % CHECKPOINT_EVERY == 0:
            keep.append(Checkpoint(action=action, match=match, seq=action.seq, state=state))
    return state


def _state_at(match: Match, step: int, keep: list | None = None) -> tuple[dict, list[Action]]:
    """The state after the first `step` live actions, and the actions read to get there (the last is step's).

    One query: the actions from the last multiple of CHECKPOINT_EVERY at or below `step`, the
    first carrying its checkpoint. A checkpoint sits on its action, so one on an abandoned
    action is never read. A match from before checkpoints may lack one: then from the nearest
    below, or the seed, and `keep` gathers the missing ones for the caller to store.
    """
    base = step - step % CHECKPOINT_EVERY
    actions = of_match(_line_from(match.pk, max(base, 1), step), match)
    if base == 0:
        return _fold(match, match.game.new_match(match.config, match.seed), actions, keep), actions
    if actions and actions[0].seq == base and actions[0].kept_state is not None:
        return _fold(match, actions[0].kept_state, actions[1:], keep), actions
    below = match.checkpoints.filter(seq__lt=base).order_by("-seq").values_list("seq", "state").first()
    start, state = below or (0, match.game.new_match(match.config, match.seed))
    actions = list(match.actions.filter(abandoned=False, seq__gt=start, seq__lte=step).order_by("seq"))
    return _fold(match, state, actions, keep), actions


@compiled
def _line_from(match_id: int, first: int, last: int):
    """The live actions from step `first` to `last`, each with the state kept after it if one is (`kept_state`), in
    one query compiled once (tracker/matches/compiled.py): an undo's read."""
    kept = Checkpoint.objects.filter(action_id=OuterRef("pk")).values("state")
    return Action.objects.filter(match_id=match_id, abandoned=False, seq__gte=first, seq__lte=last).annotate(
        kept_state=Subquery(kept, output_field=JSONField())).order_by("seq")


def match_replay(match: Match, upto: int | None = None) -> dict:
    """The state after the first `upto` live actions (all applied ones by default).

    Re-runs the log from the checkpoint below, so at most CHECKPOINT_EVERY - 1 actions;
    `replay_from_seed` re-runs all of it, and `replay_problems` checks the checkpoints.
    """
    return _state_at(match, match.head if upto is None else upto)[0]


def replay_from_seed(match: Match, upto: int | None = None) -> dict:
    """The state after the first `upto` live actions, re-run from the seed without any checkpoint."""
    upto = match.head if upto is None else upto
    return _fold(match, match.game.new_match(match.config, match.seed), live_actions(match)[:upto])


def replay_problems(match: Match) -> list[str]:
    """Where the cached parts of a match disagree with its log re-run from the seed; [] when none do.

    Checks the snapshot (`state` at `head`), every checkpoint, and the counters kept on the
    match row. This is `snapshot == fold(log)` for one match, caches included.
    """
    problems = []
    game = match.game
    line = live_actions(match)
    checkpoints = {checkpoint.seq: checkpoint for checkpoint in match.checkpoints.all()}
    if [action.seq for action in line] != list(range(1, len(line) + 1)):
        problems.append(f"the live steps are {[action.seq for action in line]}, not 1..{len(line)}")
    if match.line_length != len(line) or not match.head <= match.line_length:
        problems.append(f"line_length {match.line_length} and head {match.head} for a line of {len(line)}")
    numbers = list(match.actions.values_list("number", flat=True))
    if match.last_number != max(numbers, default=0):
        problems.append(f"last_number {match.last_number}, the log's newest is {max(numbers, default=0)}")
    state = game.new_match(match.config, match.seed)
    if match.head == 0 and state != match.state:
        problems.append("the stored state differs from the seed's")
    for action in line:
        state, _events = game.apply(state, action.payload, Dice(match.seed, action.seq, entered_rolls(action)))
        checkpoint = checkpoints.pop(action.seq, None)
        if checkpoint is not None and (checkpoint.action_id != action.pk or checkpoint.state != state):
            problems.append(f"the checkpoint at step {action.seq} differs from the replay")
        if action.seq == match.head and state != match.state:
            problems.append(f"the stored state differs from the replay of its {match.head} steps")
    problems += [f"a checkpoint at step {seq} is off the current line" for seq in checkpoints]
    return problems


def _stale(match: Match, expected_seq: int, payload: dict | None) -> StaleSubmission:
    """The refusal of a change made against step `expected_seq` of a match now at `match.head`."""
    # Only an open action may be called a double: saying so of a secret one would tell a
    # stale sender whether their guess equals the hidden entry. A form that says its line (Seq) names the entry
    # its first copy made: the next one after it, not an equal step another phone played on another line.
    number = _line_of(expected_seq)
    first_copy = match.actions.filter(abandoned=False, seq=expected_seq + 1)
    if number is not None:
        first_copy = first_copy.filter(number=number + 1)
    doubled = (payload is not None and match.game.public_action(match.state, payload) == payload
               and first_copy.values_list("payload", flat=True).first() == payload)
    return StaleSubmission(match, expected_seq, doubled)


def _current(match_id: int | None, match: Match | None, expected_seq: int, payload: dict | None = None) -> Match:
    """The match to change, refused as stale unless it stands at `expected_seq` (`stands_at`: its step and line).

    A view passes the match it loaded for its access check, so the row is read once; the
    write in `_save` then takes the lock and proves nobody changed it since (its version).
    """
    if match is None:
        match = Match.objects.get(pk=match_id or 0)
    if not stands_at(match, expected_seq):
        raise _stale(match, expected_seq, payload)
    return match


def record_outcome(match: Match, correcting: bool = False) -> None:
    """Set finished, winner and score from the engine's outcome of the current state.

    A match that ends while a manual correction stands in its line (`correcting`: the action being
    applied is one) is marked `corrected`: its result is shown and counted apart from plain results.
    """
    outcome = match.game.outcome(match.state)
    if outcome is None:
        match.finished, match.winner, match.score, match.corrected = None, None, "", False
        return
    match.corrected = correcting or match.actions.filter(abandoned=False, seq__lte=match.head,
                                                         payload__override=True).exists()
    # A match that ends again after a reopen keeps the date it first ended: ratings, standings
    # and statistics place it there, whatever undo and redo did in between.
    match.first_finished = match.first_finished or timezone.now()
    match.finished = match.first_finished
    match.winner = match.players()[outcome.winner] if outcome.winner is not None else None
    match.score = outcome.score


SAVED = ("state", "head", "line_length", "last_number", "finished", "first_finished", "winner", "score",
         "seed_shown_after", "corrected", "news")


def _save(match: Match, expected_seq: int, payload: dict | None = None) -> None:
    """Write the changed match, only if its version is still the one read; else another change got in first.

    Called first in its transaction, so on PostgreSQL it takes the row lock before anything else
    is written (a second writer waits, then finds the version moved on and is refused as stale).
    Holding it, it asks again whether the match may still change (locks.why_locked, its tournament read
    again: the page asked before the lock), and raises Locked when it may not; the caller's transaction
    then writes nothing.
    """
    from tracker.people import locks  # who may change a match builds on these services

    if not writes.match_written(match, ("updated", *SAVED)):
        match.refresh_from_db()  # the caller's match now shows the fresh state, as the refusal does
        match.__dict__.pop("_head_action", None)
        raise _stale(match, expected_seq, payload)
    match.version += 1
    live.changed(match.pk)  # told once the transaction commits: not when it is refused below
    if why := locks.why_locked(match, fresh=True):
        raise Locked(why)


def _as_stored(match: Match) -> None:
    """The caller's match as the database has it again, after a write refused in its transaction (Locked)."""
    match.refresh_from_db()
    match.__dict__.pop("_head_action", None)


def _moved_on(match: Match, correcting: bool = False) -> None:
    """The outcome, the fair-seed mark and the time of a match whose state and head just changed (in memory)."""
    record_outcome(match, correcting)
    if match.finished and match.seed_shown_after is None:
        # The seed is on every page from now on, even if the end is undone (fair seeds).
        match.seed_shown_after = match.last_number
    match.updated = timezone.now()


def _withdraw_confirmations(match: Match, entry_taken_back: bool) -> None:
    """A new step instead of undone ones (their actions just abandoned): what they stood for may be gone.
    - A secret entry taken back (`entry_taken_back`): a player's own entry confirmed that they took part in the
      battle as it was played (SEATED), and it is being played otherwise. Their own entry taken back and another
      entered in their name by the phone that came to hold the seat (they had left the club: round 15); or the
      other side's, entered again after the reveal had shown it theirs (round 16: a referee reopened the battle
      before her lock-in, and she locked a counter-deck). Every such confirmation goes; a player's own new
      lock-in confirms them again.
    - A battle that had ended plays on along a new line (reopened): it may end with another result, so a
      player's say on the old one no longer stands. A player whose own entry is still in the line, and no entry
      taken back, took part whatever the result: that confirmation stays.
    Either way the battle waits for its players' confirmation again (tracker/competition/confirmations.py).
    Undo and redo along the same line abandon nothing: they keep the result, and the confirmations."""
    if not entry_taken_back and match.first_finished is None:
        return
    gone = Q()
    if entry_taken_back:
        gone |= Q(kind=Confirmation.SEATED)
    if match.first_finished is not None:
        gone |= ~Q(kind=Confirmation.SEATED)
    withdrawn, _kinds = match.confirmations.filter(gone).delete()
    if withdrawn:
        Match.objects.filter(pk=match.pk).update(unconfirmed=True)
        match.unconfirmed = True


def match_apply_action(*, action: dict, expected_seq: int, rolls: list[int] | None = None,
                       match_id: int | None = None, match: Match | None = None, proposal=None,
                       by: news.By | None = None) -> Action:
    """Apply one action to the match (`match` as loaded, or by `match_id`).

    `proposal` is the agreement a table action was taken with (tracker/people/consent.py), for the log;
    `by` who took it, for the other phones' news (tracker/matches/news.py).

    Raises StaleSubmission or RuleError and then changes nothing (a match passed in is then
    as it was, or as the database has it now). The engine runs before the transaction: only
    the writes hold the lock (on SQLite, the whole database's), and the version check
    proves the state they were computed from is still the match's.
    """
    match = _current(match_id, match, expected_seq, action)
    if match.last_number >= LOG_MOST:
        raise IllegalAction("log-full", gettext_noop("This match's log is full (%(most)s entries); start a new "
                                                     "match to play on."), most=f"{LOG_MOST:,}")
    head, undone = match.head, match.line_length > match.head
    dice = Dice(match.seed, head + 1, rolls)
    state, events = match.game.apply(match.state, action, dice)
    game = match.game
    whose = game.authority(match.state, action)  # as the board stands before it (`Action.whose`)
    secret = hidden_when_made(game, match.state, state, action)
    match.state, match.head, match.line_length, match.last_number = state, head + 1, head + 1, match.last_number + 1
    _moved_on(match, correcting=action.get("override") is True)
    news.record(match, news.ACTION, by, number=match.last_number)
    try:
        with transaction.atomic():
            _save(match, expected_seq, action)
            if undone:
                # Undone actions after the head give way to this new branch, but stay in the log; the
                # states cached after them no longer belong to the line. A request answers for the line it was asked on, so those asked after the head lapse. Asked after a
                # step now abandoned, it would come back when the new line reaches its step again, on another board
                # (round 25: Ben asked to end an Evons game he led; Ana undid her own step, drew level on a new one,
                # and agreed); nor does a move forward to an abandoned step redo the new line's steps instead (round 26).
                _withdraw_confirmations(match, entry_taken_back=writes.branch_cut(match, head))
            recorded = writes.action_inserted(writes.new_action(
                match=match, number=match.last_number, seq=match.head, seat=acting_seat(game, action), payload=action,
                events=events, rolls=dice.rolls, secret=secret, face_down=face_down(game, state, action) if secret else None,
                whose=whose, proposal=proposal))
            # Who has played a catalog card decides who may still change it, and the card's page lists the
            # matches that used it: only what the table may see counts, so a hidden entry is noted at its reveal.
            record_uses(match, [game.public_action(state, action), *_revealed_by(match, secret)])
            if recorded.seq % CHECKPOINT_EVERY == 0:
                Checkpoint.objects.create(action=recorded, match=match, seq=recorded.seq, state=state)
    except Locked:
        _as_stored(match)
        raise
    match.__dict__["_head_action"] = recorded  # what just happened, for the answer's page
    return recorded


def acting_seat(game, action: dict) -> int | None:
    """The seat an action names (`Action.seat`: a match file's step carries it), or None when it names none of the
    game's seats: an engine ignores a key its action does not take, so an imported file's step could carry
    "seat": -1 or 2**63, which the column cannot hold. Whose the step is, is `Action.whose` (`seats_steps`)."""
    seat = action.get("seat")
    return seat if type(seat) is int and 0 <= seat < game.seats else None


def seats_steps(seat: int) -> Q:
    """The steps that were `seat`'s (`Action.whose`, as the board stood when each was made), as the log's filter by
    player keeps them: the ones undoing asks that player about (consent.steps_of_others). Round 32: the filter read
    the seat an action names, so every Cardmaster move (it names a card) and a correction of a Lonely Star unit or
    an Evons card was nobody's, and a declared winner was the winner's. A step stored before `whose` was kept is
    read by the seat it names, as before."""
    return Q(whose=seat) | Q(whose__isnull=True, seat=seat)


def hidden_when_made(game, before: dict, after: dict, action: dict) -> bool:
    """Whether the entry was hidden from the other side when it was made (`Action.secret`): as the table stood
    before it (a Card Crush deck locked second reveals both at once) or after it (a game may hide an entry only
    once it is in the state). Only such an entry can be hidden later, so the log's checks read only these."""
    return game.public_action(before, action) != action or game.public_action(after, action) != action


def face_down(game, state: dict, action: dict) -> dict | None:
    """The entry as the other side sees it in `state` while it is hidden there (`Action.face_down`), else None."""
    shown = game.public_action(state, action)
    return shown if shown != action else None


def seen(action: Action) -> bool:
    """Whether the table has seen the entry: it was never hidden, or its reveal cleared `Action.face_down`, for good.
    Going back before the reveal hides it in the state again, not from the table: the log still shows it, and
    taking it back still asks the other side (consent.takes_back_reveal). Round 30: Ben's lock-in taken back by
    agreement, Ana's deck, hidden again by the state, read as never revealed in both logs, and she undid it alone."""
    return action.face_down is None


def as_shown(match: Match, action: Action) -> dict:
    """The action as anyone at the table may see it now: the one place the log, its text export and the news pushed
    to the other phones ask. An entry the table has seen (`seen`) is shown as it is; one still face down is what the
    engine shows in the current state while on the match's line, and one taken back (undone, or replaced by a new
    branch) before it was ever revealed stays as the other side saw it when it was made (`Action.face_down`),
    whatever the state says now. Round 29: Ana locked in a deck, undid it unrevealed and locked in another, and once
    the second was revealed Ben's log showed her first deck too ("undone, replaced by a new branch"), the card a
    LOGOS player took back into her hand, the lineup a Cardmaster player changed."""
    if action.face_down is None:  # seen
        return action.payload
    if action.abandoned or action.seq > match.head:
        return action.face_down
    return match.game.public_action(match.state, action.payload)


def _revealed_by(match: Match, secret: bool) -> list[dict]:
    """The earlier entries still face down that the secret entry just applied revealed (the last lock-in shows them
    all): no longer face down, for good. Only a secret entry reveals others in these games (a reveal holding no
    choice of its own leaves them face down, which only hides them in the log should they then be taken back)."""
    if not secret:
        return []
    hidden = match.actions.filter(abandoned=False, face_down__isnull=False, seq__lt=match.head).values_list("pk", "payload")
    revealed = {pk: payload for pk, payload in hidden if match.game.public_action(match.state, payload) == payload}
    if revealed:
        match.actions.filter(pk__in=revealed).update(face_down=None)
    return list(revealed.values())


def match_goto(*, step: int, expected_seq: int, match_id: int | None = None, match: Match | None = None,
               by: news.By | None = None) -> Match:
    """Move the match back (undo) or forward (redo) along its current line to `step`.

    Starts from the nearest checkpoint at or below `step`, so it costs the same at step
    1,000 as at step 10; checkpoints missing on the way (a match older than them) are stored.
    The log is read before the transaction: every change to the line also moves the match's
    version, so the version check in `_save` proves what was read is still the line.
    """
    match = _current(match_id, match, expected_seq)
    if not 0 <= step <= match.line_length:
        raise NoSuchStep(_("There is no step %(step)s in this match.") % {"step": step})
    missing: list[Checkpoint] = []
    state, actions = _state_at(match, step, keep=missing)
    reopened, moved_from = match.finished is not None and step < match.head, match.head
    match.state, match.head = state, step
    _moved_on(match)
    news.record(match, news.GOTO, by, **{"from": moved_from, "to": step, "reopened": reopened})
    try:
        with transaction.atomic():
            _save(match, expected_seq)
            Checkpoint.objects.bulk_create(missing)
    except Locked:
        _as_stored(match)
        raise
    if actions and actions[-1].seq == step:
        match.__dict__["_head_action"] = actions[-1]
    return match
