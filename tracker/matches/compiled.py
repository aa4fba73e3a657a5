"""Reads that run on every request or change with only their values differing, from SQL compiled once per process.

Django builds and compiles a queryset's SQL every time it runs it. For the match's read that cost about 0.5 ms, and
running it less than 0.1 ms (2026-11-30, in-process); the three reads of a change for the live streams cost 3.9 ms,
nearly all of it building them. So each of these querysets is built and compiled once per process and database,
with a stand-in for each value, and run again with the values in their places; its rows become model instances
as the queryset would make them (its fields, deferred ones left out; its annotations as attributes).

A queryset that is not a plain read of one model's rows (select_related, values(), prefetching) is refused when
compiled, rather than read wrong.

The SQL runs with its parameters named (`named`): Django's SQLite wrapper finds the places of a list of parameters
with a regular expression over the whole text on every run (some 30 µs for the match's read, 80 µs over a reveal's
five statements), and formats the text once for a mapping of them.
"""

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

from django.core.exceptions import EmptyResultSet, FullResultSet
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model, QuerySet
from django.db.models.query import ModelIterable
from django.db.models.sql.compiler import SQLCompiler

STAND_INS = (32_001, 32_002, 32_003, 32_004)
"""The values a read is compiled with, one per argument; each run puts its own in their places. In the range of every
integer field (Django compiles a lookup of a value out of its field's range away), and a compiled parameter that
happened to equal one would stand twice, which is refused."""


PLACE = re.compile(r"(?<!%)%s")
"""A parameter's place in Django's SQL, as its SQLite backend finds it (`FORMAT_QMARK_REGEX`)."""


def named(sql: str) -> tuple[str, tuple[str, ...]]:
    """`sql` with its parameters' places named in order (`%(p0)s`, `%(p1)s`, …), and the names: run with a mapping of
    those names to the values (`bound`), on SQLite and PostgreSQL alike."""
    names: list[str] = []

    def name(_found: re.Match) -> str:
        names.append(f"p{len(names)}")
        return f"%({names[-1]})s"

    return PLACE.sub(name, sql), tuple(names)


def bound(names: tuple[str, ...], values) -> dict:
    """The values of a statement `named` made, in their places' order, by name."""
    return dict(zip(names, values, strict=True))


@dataclass(frozen=True)
class _Plan:
    sql: str
    names: tuple[str, ...]  # the parameters' names in the SQL (`named`)
    params: tuple  # the compiled parameters, the stand-ins among them
    places: tuple[tuple[int, int], ...]  # (parameter's index, argument's index) for each stand-in
    model: type[Model]
    compiler: SQLCompiler  # read only, after it compiled: what each column converts to
    converters: dict
    fields: list[str]  # the model's fields, in the order selected
    columns: slice
    annotations: dict[str, int]  # each annotation's column


def _plan(queryset: QuerySet, arguments: int, alias: str) -> _Plan:
    if queryset._iterable_class is not ModelIterable or queryset.query.select_related or \
            getattr(queryset, "_prefetch_related_lookups", None):
        raise TypeError("compiled reads take plain querysets of one model's rows")
    compiler = queryset.query.get_compiler(alias)
    try:
        sql, params = compiler.as_sql()
    except (EmptyResultSet, FullResultSet):  # a value out of its field's range, compiled away
        sql, params = "", ()
    # On PostgreSQL an integer may come as psycopg's own type (Int4, an int saying its column's type): kept (below).
    places = tuple((index, STAND_INS.index(value)) for index, value in enumerate(params)
                   if isinstance(value, int) and not isinstance(value, bool) and value in STAND_INS[:arguments])
    if sorted(argument for _index, argument in places) != list(range(arguments)):
        raise RuntimeError(f"Each argument must stand once in the SQL's parameters, not as in {params!r}")
    selected = compiler.klass_info["select_fields"]
    columns = slice(selected[0], selected[-1] + 1)
    return _Plan(*named(sql), tuple(params), places, queryset.model, compiler,
                 compiler.get_converters([column[0] for column in compiler.select]),
                 [column[0].target.attname for column in compiler.select[columns]], columns,
                 dict(compiler.annotation_col_map))


def compiled(make: Callable[..., QuerySet]) -> Callable[..., list]:
    """`make(*arguments)` builds the queryset; the function returned runs it with its arguments (ids, numbers),
    `alias=` the database, and returns its rows as the queryset would (`list(make(*arguments))`)."""

    @functools.cache
    def plan(alias: str, vendor: str, arguments: int) -> _Plan:
        return _plan(make(*STAND_INS[:arguments]), arguments, alias)

    @functools.wraps(make)
    def read(*arguments, alias: str = DEFAULT_DB_ALIAS) -> list:
        connection = connections[alias]
        ran = plan(alias, connection.vendor, len(arguments))
        params = list(ran.params)
        for index, argument in ran.places:
            params[index] = type(params[index])(arguments[argument])
        with connection.cursor() as cursor:
            cursor.execute(ran.sql, bound(ran.names, params))
            rows = cursor.fetchall()
        if ran.converters:
            rows = list(ran.compiler.apply_converters(rows, ran.converters))
        found = []
        for row in rows:
            instance = ran.model.from_db(alias, ran.fields, row[ran.columns])
            for name, column in ran.annotations.items():
                setattr(instance, name, row[column])
            found.append(instance)
        return found

    return read


def of_match(rows: list, match) -> list:
    """The rows a compiled read found of `match`, each knowing it (as `match.actions.filter(…)` sets it), so that
    reading `row.match` asks nothing more."""
    for row in rows:
        row.match = match
    return rows
