"""The two writes every action makes, the match's row and its new Action, in SQL written once per process.

Django builds and compiles a query's SQL each time it runs it. For these two that took about 1.3 ms of an action's
6.4 (2026-11-30, in-process), against a few hundredths of a millisecond to run them. The SQL differs only in its
values, so it is written here once, with the values put in place as Django prepares them for the database
(`get_db_prep_save`, which also turns JSON into text or into psycopg's Jsonb). There are no model signals here, and
Action has no field a database sets but its id, so nothing else that `update()` or `create()` does is skipped.
"""

import functools

from django.db import DEFAULT_DB_ALIAS, connections

from tracker.models import Action, Match


def _quoted(name: str) -> str:
    return f'"{name}"'  # as SQLite and PostgreSQL, the two databases Tablekeeper runs on, both quote names


@functools.cache
def _fields(names: tuple[str, ...]) -> tuple:
    """The match's fields called `names` (a foreign key by its name: `winner`)."""
    by_name = {field.name: field for field in Match._meta.concrete_fields}
    return tuple(by_name[name] for name in names)


@functools.cache
def _update_sql(names: tuple[str, ...]) -> str:
    columns = "".join(f", {_quoted(field.column)} = %s" for field in _fields(names))
    return f'UPDATE {_quoted(Match._meta.db_table)} SET "version" = %s{columns} WHERE "id" = %s AND "version" = %s'


def match_written(match: Match, names: tuple[str, ...]) -> bool:
    """Write the match's fields `names` and its next version, only if its row is still at the version the match was
    read at; whether it was (the row then locked to the end of the transaction on PostgreSQL). As
    `Match.objects.filter(pk=…, version=v).update(version=v + 1, …)`; the caller moves `match.version` on."""
    connection = connections[match._state.db or DEFAULT_DB_ALIAS]
    values = [field.get_db_prep_save(getattr(match, field.attname), connection) for field in _fields(names)]
    with connection.cursor() as cursor:
        cursor.execute(_update_sql(names), [match.version + 1, *values, match.pk, match.version])
        return cursor.rowcount == 1


@functools.cache
def _inserted() -> tuple:
    """Action's fields but its id, which the database gives."""
    return tuple(field for field in Action._meta.concrete_fields if not field.primary_key)


@functools.cache
def _insert_sql() -> str:
    columns = [_quoted(field.column) for field in _inserted()]
    return (f"INSERT INTO {_quoted(Action._meta.db_table)} ({', '.join(columns)}) "
            f"VALUES ({', '.join(['%s'] * len(columns))}) RETURNING \"id\"")


def action_inserted(action: Action) -> Action:
    """Insert the new action, in its match's database, and give it its id, as `Action.objects.create(…)` would (its
    `created` set now)."""
    using = action.match._state.db or DEFAULT_DB_ALIAS
    connection = connections[using]
    values = [field.get_db_prep_save(field.pre_save(action, add=True), connection) for field in _inserted()]
    with connection.cursor() as cursor:
        cursor.execute(_insert_sql(), values)
        (action.pk,) = cursor.fetchone()
    action._state.adding, action._state.db = False, using
    return action
