"""The two writes every action makes, the match's row and its new Action, in SQL written once per process; and the
three an action makes when it replaces undone steps (a new branch).

Django builds and compiles a query's SQL each time it runs it. For these two that took about 1.3 ms of an action's
6.4 (2026-11-30, in-process), against a few hundredths of a millisecond to run them. The SQL differs only in its
values, so it is written here once, with the values put in place as Django prepares them for the database
(`get_db_prep_save`, which also turns JSON into text or into psycopg's Jsonb). There are no model signals here, and
Action has no field a database sets but its id, so nothing else that `update()` or `create()` does is skipped.
Their parameters are named (compiled.named), so Django's SQLite wrapper does not search each statement for them.
"""

import functools

from django.db import DEFAULT_DB_ALIAS, connections
from django.utils import timezone

from tracker.models import Action, Checkpoint, Match, Proposal

from .compiled import bound, named


def _quoted(name: str) -> str:
    return f'"{name}"'  # as SQLite and PostgreSQL, the two databases Tablekeeper runs on, both quote names


@functools.cache
def _fields(names: tuple[str, ...]) -> tuple:
    """The match's fields called `names` (a foreign key by its name: `winner`)."""
    by_name = {field.name: field for field in Match._meta.concrete_fields}
    return tuple(by_name[name] for name in names)


@functools.cache
def _update_sql(names: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    columns = "".join(f", {_quoted(field.column)} = %s" for field in _fields(names))
    return named(f'UPDATE {_quoted(Match._meta.db_table)} SET "version" = %s{columns} WHERE "id" = %s AND "version" = %s')


def match_written(match: Match, names: tuple[str, ...]) -> bool:
    """Write the match's fields `names` and its next version, only if its row is still at the version the match was
    read at; whether it was (the row then locked to the end of the transaction on PostgreSQL). As
    `Match.objects.filter(pk=…, version=v).update(version=v + 1, …)`; the caller moves `match.version` on."""
    connection = connections[match._state.db or DEFAULT_DB_ALIAS]
    values = [field.get_db_prep_save(getattr(match, field.attname), connection) for field in _fields(names)]
    sql, places = _update_sql(names)
    with connection.cursor() as cursor:
        cursor.execute(sql, bound(places, [match.version + 1, *values, match.pk, match.version]))
        return cursor.rowcount == 1


@functools.cache
def _inserted() -> tuple:
    """Action's fields but its id, which the database gives."""
    return tuple(field for field in Action._meta.concrete_fields if not field.primary_key)


@functools.cache
def _insert_sql() -> tuple[str, tuple[str, ...]]:
    columns = [_quoted(field.column) for field in _inserted()]
    return named(f"INSERT INTO {_quoted(Action._meta.db_table)} ({', '.join(columns)}) "
                 f"VALUES ({', '.join(['%s'] * len(columns))}) RETURNING \"id\"")


@functools.cache
def _attnames() -> tuple[str, ...]:
    return tuple(field.attname for field in Action._meta.concrete_fields)


def new_action(*, match: Match, proposal: Proposal | None, **values) -> Action:
    """`Action(match=match, proposal=proposal, **values)`, unsaved, made from its fields in their order: Django's
    making of an instance from keywords (each field looked up among them, each relation set through its descriptor)
    was some 30 µs of an action. Every field but the id, `abandoned` and `created` must be given (a field added to
    Action fails here until it is); the match and the proposal are cached on it as their descriptors would."""
    given = {**values, "id": None, "match_id": match.pk, "abandoned": False, "created": None,
             "proposal_id": proposal.pk if proposal is not None else None}
    action = Action(*[given.pop(name) for name in _attnames()])
    if given:
        raise TypeError(f"Action has no field {sorted(given)}")
    Action._meta.get_field("match").set_cached_value(action, match)
    Action._meta.get_field("proposal").set_cached_value(action, proposal)
    return action


def action_inserted(action: Action) -> Action:
    """Insert the new action, in its match's database, and give it its id, as `Action.objects.create(…)` would (its
    `created` set now)."""
    using = action.match._state.db or DEFAULT_DB_ALIAS
    connection = connections[using]
    values = [field.get_db_prep_save(field.pre_save(action, add=True), connection) for field in _inserted()]
    sql, places = _insert_sql()
    with connection.cursor() as cursor:
        cursor.execute(sql, bound(places, values))
        (action.pk,) = cursor.fetchone()
    action._state.adding, action._state.db = False, using
    return action


def _column(model, name: str) -> str:
    return _quoted(model._meta.get_field(name).column)


@functools.cache
def _branch_sql() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Abandon the undone steps (saying which were secret), drop the states kept after the head, lapse the requests
    asked on the abandoned line."""
    action, checkpoint, proposal = (_quoted(model._meta.db_table) for model in (Action, Checkpoint, Proposal))
    match_of = {model: _column(model, "match") for model in (Action, Checkpoint, Proposal)}
    abandoned, seq, secret = (_column(Action, name) for name in ("abandoned", "seq", "secret"))
    status, answered, at_seq, kind, step = (_column(Proposal, name)
                                            for name in ("status", "answered", "at_seq", "kind", "step"))
    return tuple(named(sql) for sql in (
        f"UPDATE {action} SET {abandoned} = %s WHERE {match_of[Action]} = %s AND {abandoned} = %s AND {seq} > %s "
        f"RETURNING {secret}",
        f"DELETE FROM {checkpoint} WHERE {match_of[Checkpoint]} = %s AND {_column(Checkpoint, 'seq')} > %s",
        f"UPDATE {proposal} SET {status} = %s, {answered} = %s WHERE {match_of[Proposal]} = %s AND {status} = %s "
        f"AND ({at_seq} > %s OR ({kind} = %s AND {step} > %s))"))


def branch_cut(match: Match, head: int) -> bool:
    """A new step at `head` + 1 replaces the undone steps after `head`: they are abandoned (they stay in the log), the
    states kept after the head no longer belong to the line, and a request asked after the head, or to go to a step
    after it, lapses. Whether an abandoned step was an entry hidden when made (`Action.secret`). As the queries

        actions.filter(abandoned=False, seq__gt=head): .filter(secret=True).exists(), then .update(abandoned=True)
        checkpoints.filter(seq__gt=head).delete()
        proposals.filter(Q(at_seq__gt=head) | Q(kind=GOTO, step__gt=head), status=PENDING).update(status=LAPSED, …)

    in three statements written once (building them was about 2 ms of an action after an undo, 2026-11-30)."""
    connection = connections[match._state.db or DEFAULT_DB_ALIAS]
    abandon, drop, lapse = _branch_sql()
    flag = Action._meta.get_field("abandoned")
    answered = Proposal._meta.get_field("answered").get_db_prep_save(timezone.now(), connection)
    with connection.cursor() as cursor:
        cursor.execute(abandon[0], bound(abandon[1], [flag.get_db_prep_save(True, connection), match.pk,
                                                      flag.get_db_prep_save(False, connection), head]))
        taken_back = any(secret for (secret,) in cursor.fetchall())
        cursor.execute(drop[0], bound(drop[1], [match.pk, head]))
        cursor.execute(lapse[0], bound(lapse[1], [Proposal.LAPSED, answered, match.pk, Proposal.PENDING, head,
                                                  Proposal.GOTO, head]))
    return taken_back
