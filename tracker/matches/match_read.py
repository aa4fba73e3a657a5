"""Opening one match for a request: its row, grants, players and (for a page) head action in one query
(MatchQuerySet.with_people), from SQL compiled once per process.

Django builds and compiles a queryset's SQL every time it runs it. For this query that cost about 0.5 ms, and
running it cost less than 0.1 ms (2026-11-30, in-process). Every match page, action, fetch and pushed part opens a
match this way, and the SQL is the same each time except for the id. So each process compiles it once for each of
its two forms, then runs it with the id and builds the Match as the queryset would.
"""

import functools
from dataclasses import dataclass

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models.sql.compiler import SQLCompiler

from tracker.models import Match

_ANY_ID = -1
"""The id the SQL is compiled with; each read puts its own in its place."""


@dataclass(frozen=True)
class _Compiled:
    sql: str
    compiler: SQLCompiler  # read only, after it compiled: what each column converts to
    converters: dict
    fields: list[str]  # the Match fields, in the order selected
    model_columns: slice
    annotations: dict[str, int]  # grants_read, seated_read, head_read: each one's column


@functools.cache
def _compiled(alias: str, vendor: str, head: bool) -> _Compiled:
    compiler = Match.objects.with_people(head=head).filter(pk=_ANY_ID).query.get_compiler(alias)
    sql, params = compiler.as_sql()
    if list(params) != [_ANY_ID]:  # a change to with_people that adds a parameter must come here too
        raise RuntimeError(f"The match's read takes parameters {params!r}, not the id alone")
    selected = compiler.klass_info["select_fields"]
    columns = slice(selected[0], selected[-1] + 1)
    return _Compiled(sql, compiler, compiler.get_converters([column[0] for column in compiler.select]),
                     [column[0].target.attname for column in compiler.select[columns]], columns,
                     dict(compiler.annotation_col_map))


def match_read(pk: int, head: bool = True, alias: str = DEFAULT_DB_ALIAS) -> Match | None:
    """The match `pk` as `Match.objects.with_people(head=head).get(pk=pk)` reads it, or None if there is none."""
    connection = connections[alias]
    compiled = _compiled(alias, connection.vendor, head)
    with connection.cursor() as cursor:
        cursor.execute(compiled.sql, [pk])
        rows = cursor.fetchall()
    if not rows:
        return None
    (row,) = compiled.compiler.apply_converters(rows, compiled.converters) if compiled.converters else rows
    match = Match.from_db(alias, compiled.fields, row[compiled.model_columns])
    for name, column in compiled.annotations.items():
        setattr(match, name, row[column])
    return match
