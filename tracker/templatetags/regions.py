"""`{% kept "id" %}…{% endkept %}`: a part of the match page that no action changes (the title, the share
panel, a form that adds a card to the catalog).

The page renders it as `<div id="id">…</div>`. The htmx answer to an action (`light` in the context, see
`_render_match`) sends only `<div id="id" hx-preserve></div>`: htmx keeps the element the phone already
shows, as it is (an open fold, a half-typed field), and the answer skips rendering it.

`{% kept "id" changing %}`: a part that some actions change and others do not (a Lonely Star unit, a
Cardmaster card); `{% kept "id" changing as "li" %}` makes the part a list item instead of a `<div>`, and
`as "tr"` a table's row (an Evons board's: tracker/games/evons/grid.py). The part carries a short digest
(`data-kept`) of every value it reads: each variable in it, in the partials and templates it includes, found
from the template itself (so a part edited to show something new is digested with it), besides the viewer
and the language, which count by themselves. Every htmx request from the page
says which digests it shows (`X-Shown`, static/js/table.js). The answer to an action leaves out a part the
phone shows as it would be drawn now, and draws the others. Its forms keep the step number they were drawn
with: htmx sends the page's own (`hx-vals` on #match) in its place, so the step number (`match.head`, and
`match.board_mark` as the forms send it) and the CSRF token are the page's, not the part's, and left out of the
digest.
"""
import hashlib
import html
import marshal
import re
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from functools import cache
from operator import itemgetter
from pathlib import Path
from typing import Any

from django import template
from django.conf import settings
from django.template import defaultfilters
from django.template.base import FilterExpression, Node, NodeList, TokenType, Variable, VariableDoesNotExist
from django.template.defaulttags import ForNode, IfNode, PartialNode, TemplateLiteral, WithNode
from django.template.loader import get_template
from django.template.loader_tags import IncludeNode
from django.utils.functional import Promise
from django.utils.safestring import SafeData, SafeString, mark_safe
from django.utils.translation import get_language, gettext, pgettext

from tracker.matches.engine_messages import engine_word

register = template.Library()

KINDS = ("div", "li", "tr")
"""The elements a changing part may be: htmx keeps any element of the same id, a table's row too."""

PART = re.compile(rf'<(?:{"|".join(KINDS)}) id="([^"]+)" data-kept="([^"]+)"')
"""A changing kept part as `KeptNode` writes it, drawn or left out: its id and digest (table.js reads it so too)."""


def parts_shown(html: str, leave_out: tuple[str, ...] = ()) -> str:
    """What a screen showing `html` says it shows (`X-Shown`): "id=digest" of each changing kept part in it, but
    those left out (the parts around the form a tap came from)."""
    return " ".join(f"{region}={key}" for region, key in PART.findall(html) if region not in leave_out)


def released() -> list[Path]:
    """The files a part's drawing follows from besides its values: the templates and every catalogue of
    translations (the games' own too)."""
    return sorted(path for folder in (settings.BASE_DIR / "templates", *settings.LOCALE_PATHS)
                  for path in Path(folder).rglob("*") if path.is_file())


@cache
def _release() -> str:
    """What the templates and translations are in this process: a part drawn before a deploy changed how it
    looks has another digest, so it is drawn anew instead of kept."""
    return hashlib.blake2b(repr([(str(path), path.stat().st_mtime_ns, path.stat().st_size) for path in released()]).encode(),
                           digest_size=6).hexdigest()


BY_MESSAGE: dict[Callable, Callable[..., object]] = {
    gettext: lambda message: message,
    pgettext: lambda context, message: [context, message],
    engine_word: lambda slug, word: [slug, list(getattr(word, "parts", [word]))],
}
"""The lazy translations a part may show, and what each says in a given language and release: its message (the
digest has the language and the release), rather than the text it would be forced to (about seventy a fetch of
a Lonely Star board, each a lookup in the catalogues through the request's language)."""


_SAID: dict[int, tuple[Promise, object]] = {}
"""What each lazy translation met says (`_said`), by the object's id, the object kept with it (so the id is not
another's): a board's words are made once, at import (a stat's label), and digested for every part showing them."""


def _said(value: Promise) -> object:
    """A lazy translation as the digest takes it: by its message if it is one of BY_MESSAGE's, else its text."""
    kept = _SAID.get(id(value))
    if kept is not None and kept[0] is value:
        return kept[1]
    function, args, keywords, *_ = value.__reduce__()[1]  # type: ignore[misc]
    said = BY_MESSAGE.get(function)
    if said is None or keywords:
        return str(value)  # the text, in the language drawn: not kept
    message = ("\x00said", function.__name__, _canonical(said(*args)))
    if len(_SAID) >= 4096:  # words made anew for each page (rather than at import) do not pile up
        _SAID.clear()
    _SAID[id(value)] = (value, message)
    return message


SIMPLE: frozenset[type] = frozenset({str, int, float, bool, type(None)})
"""The types a value a part shows is digested as it is; any other is made of these first (`_canonical`)."""


def _canonical(value: object) -> object:
    """A value a part shows made of SIMPLE values, lists and tuples only, as `marshal` writes them (its version 2:
    the same bytes for equal values, whichever objects hold them): a list or tuple as a list; a dict as a tuple
    of its items, keys sorted (a state read back from PostgreSQL's jsonb has its keys in jsonb's order, not the
    order the engine wrote them, and the same part must get the same digest either way); a lazy translation by
    its message (`_said`); a str, int or float of a subclass (a safe string) as one of those; anything else as
    its text."""
    kind = type(value)
    if kind in SIMPLE:
        return value
    if isinstance(value, list | tuple):
        return [item if type(item) in SIMPLE else _canonical(item) for item in value]
    if isinstance(value, dict):
        items = [(_canonical(key), _canonical(item)) for key, item in value.items()]
        # Keys of mixed types cannot be sorted: the part is then drawn anew more often, never wrong.
        with suppress(TypeError):
            items = sorted(items, key=itemgetter(0))
        return ("\x00dict", *(each for pair in items for each in pair))
    if isinstance(value, Promise):
        return _said(value)
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, int | float):
        return (int if isinstance(value, int) else float)(value)
    return str(value)


def _hashed(values: list, names: dict) -> str:
    """The digest of a part's values made canonical, for the viewer and the language of the context's `names`."""
    viewer = names.get("viewer")
    # Whether a refused form is drawn counts only in the parts that draw one (DIGESTED): not here.
    seen = [_release(), get_language(), bool(names.get("read_only")), _canonical(getattr(viewer, "role", None)),
            _canonical(getattr(viewer, "seat", None)), values]
    return hashlib.blake2b(marshal.dumps(seen, 2), digest_size=6).hexdigest()


def digest(values: list, context: template.Context) -> str:
    """A short digest of what a part shows, for this viewer in this language (names as text)."""
    return _hashed(_canonical(values), context.flatten())  # type: ignore[arg-type]


PAGE_OWN = {("match", "head"), ("match", "board_mark"), ("csrf_token",)}
"""What a part's forms carry that is the page's, not the part's (see above): never in a digest."""

CONSTANTS = {("True",), ("False",), ("None",)}
"""What a template reads as a name but is the same in every context (`{% if x is None %}`): never in a digest."""


@dataclass(frozen=True)
class _Loop:
    """A `{% for %}` in a part: per item, the values the loop's body reads of it (not every field of every item,
    so a list of units whose names a part shows is digested by their names)."""

    sequence: Variable
    names: tuple[str, ...]
    reads: tuple


@dataclass(frozen=True)
class _Bound:
    """`{% with %}` or `{% include … with %}` in a part: the values its body reads of the names it binds."""

    bindings: tuple[tuple[str, FilterExpression], ...]
    reads: tuple


@dataclass(frozen=True)
class _Truth:
    """A variable a part only tests (`{% if board.units %}`): whether it is set, not all it holds."""

    variable: Variable


def _key(read) -> str:
    if isinstance(read, _Loop):
        return f"for {','.join(read.names)} in {'.'.join(read.sequence.lookups or ())}: {[_key(r) for r in read.reads]}"
    if isinstance(read, _Bound):
        return f"with {[(name, value.token) for name, value in read.bindings]}: {[_key(r) for r in read.reads]}"
    if isinstance(read, _Truth):
        return "if " + _key(read.variable)
    if isinstance(read, _Tag):
        return "tag " + getattr(read.node.token, "contents", "")  # as the template spells it
    return ".".join(read.lookups or ())


def _root(read) -> str:
    if isinstance(read, _Bound):
        return min((_root(value.var) for _name, value in read.bindings if isinstance(value.var, Variable)), default="")
    if isinstance(read, _Tag):
        given = (*read.node.args, *read.node.kwargs.values())  # type: ignore[attr-defined]
        return min((_root(value.var) for value in given if isinstance(value.var, Variable)), default="")
    variable = read.sequence if isinstance(read, _Loop) else read.variable if isinstance(read, _Truth) else read
    return (variable.lookups or ("",))[0]


def _within(body, names, found: dict, assigned: frozenset[str]) -> tuple:
    """What `body` reads of `names` (a loop's or a with's own), in order; the rest of what it reads into `found`."""
    inner: dict = {}
    _read(body, inner, set(), assigned - set(names))
    for name, read in inner.items():
        if _root(read) not in names and _root(read) != "forloop":
            found.setdefault(name, read)
    return tuple(read for _name, read in sorted(inner.items()) if _root(read) in names)


def _looped(node: object) -> Variable | None:
    """The plain variable a `{% for %}` walks (no filter on it), else None."""
    if isinstance(node, ForNode) and isinstance(node.sequence, FilterExpression) and not node.sequence.filters:
        return node.sequence.var if isinstance(node.sequence.var, Variable) else None
    return None


ASSIGNING = ("target_var", "asvar", "var_name", "variable_name")
"""The attributes in which a tag keeps the name it sets (`{% tag … as name %}`): a simple tag, translate,
blocktranslate, url, firstof, regroup, cycle, now."""


def _assigns(thing) -> frozenset[str]:
    """The names a tag sets in the context where it stands (`… as name`)."""
    if not isinstance(thing, Node):
        return frozenset()
    return frozenset(value for attribute in ASSIGNING if isinstance(value := getattr(thing, attribute, None), str))


def _read(thing, found: dict, seen: set, assigned: frozenset[str] = frozenset()) -> None:
    """Every variable a piece of template reads, into `found` by its key: through tags' arguments, nested
    nodes, filters' arguments, loops, `{% partial %}`s and `{% include %}`s of a template named in it.

    A name the part sets itself (`{% refused_form … as sent %}`, `assigned` from there on) is not read from
    the context: what it holds is the tag's doing, from its arguments, which are read. Read from the
    context, it would be whatever an earlier part left there, so a part's digest would change with which
    parts were drawn before it (a phone showing every part was sent the units again after each tap).
    """
    if (id(thing), assigned) in seen:
        return
    seen.add((id(thing), assigned))
    if isinstance(thing, Variable):
        _read_variable(thing, found, assigned)
    elif isinstance(thing, FilterExpression):
        _read(thing.var, found, seen, assigned)
        for _filter, arguments in thing.filters:
            for _is_variable, argument in arguments:
                _read(argument, found, seen, assigned)
    elif _read_tag(thing, found, seen, assigned):
        pass
    elif isinstance(thing, NodeList | list | tuple):
        for item in thing:
            _read(item, found, seen, assigned)
            assigned |= _assigns(item)
    elif isinstance(thing, dict):
        for item in thing.values():
            _read(item, found, seen, assigned)
    elif isinstance(thing, Node) or type(thing).__module__.startswith("django.template"):
        _tag_reads(thing, found, assigned)
        # A tag's own attributes: its arguments (FilterExpressions), its conditions, its nodelists.
        for name, value in vars(thing).items():
            if name not in ("token", "origin", "source", "partial_mapping"):
                _read(value, found, seen, assigned)
        for variable in _spoken(thing):
            _read_variable(variable, found, assigned)


DIGESTED = "digested"
"""The attribute in which a simple tag that reads the context besides its arguments (`refused_form` reads `refused`)
keeps what a part's digest takes of it: a function of the context's names and the tag's arguments
(`digested(names, args, kwargs)`) giving a SIMPLE value. So a page drawn after a refusal draws anew the part that
shows the refused form filled in, with why (and the next answer draws it anew again), and leaves out the others the
phone shows as they are."""


@dataclass(frozen=True)
class _Tag:
    """A simple tag with DIGESTED in a part: what it gives the digest, from its arguments as drawn."""

    node: Node


def _tag_reads(thing, found: dict, assigned: frozenset[str]) -> None:
    """A DIGESTED tag's read, into `found`. A tag given a name the part set itself, or names of more than one root (a
    loop's and the context's: the read is the loop's or the part's, not both), or the loop's counter, reads the
    context's names it names (`digested.names`) as a whole instead: drawn anew after any refusal."""
    digested = getattr(getattr(thing, "func", None), DIGESTED, None)
    if digested is None:
        return
    roots = {_root(value.var) for value in (*thing.args, *thing.kwargs.values()) if isinstance(value.var, Variable)}
    if roots & (assigned | {"forloop"}) or len(roots) > 1:
        for name in digested.names:
            truth = _Truth(Variable(name))
            found.setdefault(_key(truth), truth)
        return
    read = _Tag(thing)
    found.setdefault(_key(read), read)


def _read_variable(variable: Variable, found: dict, assigned: frozenset[str]) -> None:
    if variable.lookups and variable.lookups not in PAGE_OWN | CONSTANTS and variable.lookups[0] not in assigned:
        found.setdefault(_key(variable), variable)


def _spoken(node) -> list[Variable]:
    """What a `{% blocktranslate %}` reads from the context in its text (`{{ lk }}`, a name a `{% with %}` around
    it binds), but the names it binds itself (`with name=…`, `count n=…`): Django takes each as `context[name]`."""
    if not isinstance(getattr(node, "singular", None), list):
        return []
    own = {*(getattr(node, "extra_context", None) or ()), getattr(node, "countervar", None)}
    return [Variable(token.contents) for part in (node.singular, getattr(node, "plural", None) or ()) for token in part
            if getattr(token, "token_type", None) == TokenType.VAR and token.contents not in own]


def _read_tag(thing, found: dict, seen: set, assigned: frozenset[str]) -> bool:
    """What a tag that binds names or reads another template reads (a loop, an if, a with, a partial, an
    include); False for any other thing, whose attributes `_read` walks."""
    if (sequence := _looped(thing)) is not None and isinstance(thing, ForNode):
        if _root(sequence) in assigned:  # a list the part made itself: its items are the tag's doing too
            _read(thing.nodelist_loop, found, seen, assigned | set(thing.loopvars))
            _read(thing.nodelist_empty, found, seen, assigned)
            return True
        loop = _Loop(sequence, tuple(thing.loopvars), _within(thing.nodelist_loop, thing.loopvars, found, assigned))
        # Loops over the same sequence by the same names (a unit's stats in its summary, then in its table) are
        # read as one, each item once for all that they read of it.
        walk = f"for {','.join(loop.names)} in {'.'.join(sequence.lookups or ())}"
        if walk in found:
            reads = {_key(read): read for read in (*found[walk].reads, *loop.reads)}
            loop = _Loop(sequence, loop.names, tuple(read for _name, read in sorted(reads.items())))
        found[walk] = loop
        _read(thing.nodelist_empty, found, seen, assigned)
    elif isinstance(thing, IfNode):
        for condition, nodelist in thing.conditions_nodelists:
            plain = getattr(condition, "value", None)
            if (isinstance(condition, TemplateLiteral) and isinstance(plain, FilterExpression) and not plain.filters
                    and isinstance(plain.var, Variable)):
                if _root(plain.var) not in assigned:
                    truth = _Truth(plain.var)
                    found.setdefault(_key(truth), truth)
            else:
                _read(condition, found, seen, assigned)
            _read(nodelist, found, seen, assigned)
    elif isinstance(thing, WithNode) and thing.extra_context:
        _bind(thing.extra_context, thing.nodelist, found, seen, assigned)
    elif isinstance(thing, PartialNode):
        _read(thing.partial_mapping[thing.partial_name], found, seen, assigned)
    elif isinstance(thing, IncludeNode):
        name = thing.template.var if isinstance(thing.template, FilterExpression) else None
        if not isinstance(name, str):
            raise template.TemplateSyntaxError("{% kept %} reads what a part includes: include a template by its name.")
        included = get_template(name).template.nodelist  # type: ignore[attr-defined]
        if thing.extra_context:
            _bind(thing.extra_context, included, found, seen, assigned)
        else:
            _read(included, found, seen, assigned)
    else:
        return False
    return True


PURE = frozenset({defaultfilters.add, defaultfilters.stringformat})
"""Filters whose result follows from what they are given alone (`_spelled`)."""


def _spelled(value: FilterExpression, assigned: frozenset[str]) -> bool:
    """A value a `with` binds that is a literal through PURE filters (`rid="roll-"|add:unit.id_str`): it holds nothing
    the digest lacks, the literal being the template's and the filters' arguments read by themselves, so what the body
    reads of it is left out (three such a Lonely Star unit, each an `add` that first tried the text as a number)."""
    literal = not isinstance(value.var, Variable) or value.var.lookups in CONSTANTS  # `chosen=None` too
    return literal and all(
        function in PURE and all(not is_variable or isinstance(argument, Variable) and _root(argument) not in assigned
                                 for is_variable, argument in arguments)
        for function, arguments in value.filters)


def _bind(bindings: dict, body, found: dict, seen: set, assigned: frozenset[str]) -> None:
    """Names bound for a body (`with`): what the body reads of them, through the values bound. A name bound to
    one the part set itself (`picked=sent|typed:"target"`) is the tag's doing as well, and one bound to a literal
    the template spells out (`_spelled`) the template's."""
    for value in bindings.values():  # a bound value's filters' arguments count by themselves
        for _filter, arguments in value.filters:
            for _is_variable, argument in arguments:
                _read(argument, found, seen, assigned)
    made = {name for name, value in bindings.items()
            if isinstance(value.var, Variable) and _root(value.var) in assigned or _spelled(value, assigned)}
    read = {name: value for name, value in bindings.items() if name not in made}
    inside = (assigned - set(bindings)) | made
    bound = _Bound(tuple(sorted(read.items())), _within(body, set(read), found, inside))
    if read:
        found.setdefault(_key(bound), bound)


Getter = Callable[[dict, dict, template.Context], Any]
"""A read of a part made ready (`_ready`): its value from the names the loops and `with`s around it bind (`scope`),
else from the context's names as one dict (`names`, `Context.flatten`), with the context itself for Django's own
lookup where the part's steps end (a callable, a list's index, an object's attribute)."""

UNSET = object()
"""What a read of a name not set gives (Django's lookup would raise VariableDoesNotExist, after a costly search)."""

SHOWN, TESTED, VALUE, LOOKUP = "shown", "tested", "value", "lookup"
"""What a read gives (`_ready_variable`): its value as the digest takes it (`_canonical`, None when not set);
whether it is true (`{% if %}`, None when not set); its value as a tag or filter takes it (VariableDoesNotExist
when not set, as in Django); or as it is (UNSET when not set)."""


def _stepping(steps: tuple[str, ...], resolve: Callable) -> Callable:
    """The steps of a read from where they leave plain dicts (or a value to call): Django's own lookup from the
    holder of the read's name (`resolve`), but where it would try a key, an attribute, then an index, and fail."""
    def slowly(current, holder):
        for bit in steps:
            if type(current) is dict:
                if bit in current:
                    current = current[bit]
                    continue
                if not hasattr(dict, bit) and not bit.isdecimal():
                    return UNSET
            elif current is None and not hasattr(None, bit) and not bit.isdecimal():
                return UNSET
            return resolve(holder)
        return resolve(holder) if callable(current) else current
    return slowly


def _ready_variable(variable: Variable, scoped: bool | None = None, gives: str = SHOWN) -> Getter:
    """What the template reads for `variable`, in one call for the common read: from `scope` (`scoped`: a name the
    loop or `with` around it binds, so there), from the context's names (`scoped` False: a read of the part's own
    top, where no name is bound), or from either (None: look); a name not among the context's names is not set
    (Context.flatten holds every name a lookup would find). Through plain dicts (the boards are made of them) to a
    value that is not callable it steps itself, as Django would (a key before an attribute); anything else,
    Django's own lookup (a plain dict serves it as a context)."""
    first, *rest = variable.lookups or ("",)
    steps, resolve = tuple(rest), variable.resolve
    shown, tested, value = gives == SHOWN, gives == TESTED, gives == VALUE
    slowly = _stepping(steps, resolve)

    def read(scope: dict, names: dict, context: template.Context):
        holder: dict | template.Context
        if scoped or scoped is None and first in scope:
            current, holder = scope[first], scope
        else:
            current, holder = names.get(first, UNSET), context
        if current is not UNSET:
            root = current
            for bit in steps:
                if type(current) is not dict or bit not in current:
                    current = slowly(root, holder)
                    break
                current = current[bit]
            else:
                if callable(current):
                    current = resolve(holder)
        if current is UNSET:
            if value:
                raise VariableDoesNotExist(str(variable))
            return None if shown or tested else UNSET
        if shown:
            return current if type(current) in SIMPLE else _canonical(current)
        return bool(current) if tested else current
    return read


def _ready_bound(value: FilterExpression) -> Getter:
    """A value a `with` binds, with the part's own names in reach: a variable, or a literal through filters (the
    `"roll-"|add:unit.id_str` of an include) applied here as FilterExpression.resolve would; else Django's own."""
    if not value.filters and isinstance(value.var, Variable) and value.var.lookups:
        return _ready_variable(value.var, None, VALUE)
    if not value.is_var and not any(getattr(function, "expects_localtime", False) for function, _ in value.filters):
        literal = value.var
        filters = tuple((function, getattr(function, "needs_autoescape", False), getattr(function, "is_safe", False),
                         tuple(_ready_variable(argument, None, VALUE) if lookup else mark_safe(argument) for lookup, argument in arguments))
                        for function, arguments in value.filters)

        def filtered(scope: dict, names: dict, context: template.Context):
            result = literal
            for function, escaping, safe, arguments in filters:
                given = [argument(scope, names, context) if callable(argument) else argument for argument in arguments]
                made = function(result, *given, autoescape=context.autoescape) if escaping else function(result, *given)
                result = mark_safe(made) if safe and isinstance(result, SafeData) else made
            return result
        return filtered

    def bound(scope: dict, names: dict, context: template.Context):
        with context.push(**scope):
            return value.resolve(context)
    return bound


def _ready(read, scoped: bool = False) -> Getter:
    """A read of a part (a variable, a `_Truth`, a `_Bound` or a `_Loop`) as one function, made once per part: the
    digests of a board's parts were a quarter of the other phone's fetch, most of it telling reads apart. `scoped`:
    a read inside a loop or a `with` of the part, whose name that binds (`_within`); else one of the part's top.
    Each gives its value as the digest takes it (`_canonical`)."""
    if isinstance(read, Variable):
        return _ready_variable(read, scoped)
    if isinstance(read, _Truth):
        return _ready_variable(read.variable, scoped, TESTED)
    if isinstance(read, _Tag):
        digested = getattr(read.node.func, DIGESTED)  # type: ignore[attr-defined]
        given = tuple(_ready_bound(value) for value in read.node.args)  # type: ignore[attr-defined]
        named = tuple((name, _ready_bound(value)) for name, value in read.node.kwargs.items())  # type: ignore[attr-defined]

        def tag(scope: dict, names: dict, context: template.Context):
            return digested(names, [value(scope, names, context) for value in given],
                            {name: value(scope, names, context) for name, value in named})
        return tag
    if isinstance(read, _Bound):
        bindings = tuple((name, _ready_bound(value)) for name, value in read.bindings)
        body = tuple(_ready(each, True) for each in read.reads)

        def bound(scope: dict, names: dict, context: template.Context) -> list:
            inner = dict(scope)
            for name, value in bindings:
                inner[name] = value(scope, names, context)
            try:
                return [each(inner, names, context) for each in body]
            except UNREAD:
                return _shown(body, inner, names, context)
        return bound
    sequence, loop_names = _ready_variable(read.sequence, scoped, LOOKUP), read.names
    body = tuple(_ready(each, True) for each in read.reads)

    # The body's reads take their values at once, so one scope serves every item; a read that fails is taken again
    # on its own (`_shown`), the item's others as they are.
    def loop(scope: dict, names: dict, context: template.Context) -> list | None:
        items = sequence(scope, names, context)
        if items is UNSET:
            return None
        inner, values, single = dict(scope), [], len(loop_names) == 1
        for item in items or ():
            if single:
                inner[loop_names[0]] = item
            else:
                inner.update(zip(loop_names, item, strict=True))
            try:
                values.append([each(inner, names, context) for each in body])
            except UNREAD:
                values.append(_shown(body, inner, names, context))
        return values
    return loop


UNREAD = (VariableDoesNotExist, TypeError, ValueError)
"""What a read raises for a value not set, or not a sequence where a loop wants one: that read is then None."""


def _shown(reads: tuple[Getter, ...], scope: dict, names: dict, context: template.Context) -> list:
    """The value of each read of a part as it is now (None for what is not set). `scope`: the names the loops and
    `with`s around these reads bind, kept in a plain dict rather than pushed on the context item by item (the
    digests of a board's parts were a sixth of an action's time)."""
    try:
        return [read(scope, names, context) for read in reads]
    except UNREAD:  # each read on its own
        pass
    values: list = []
    for read in reads:
        try:
            values.append(read(scope, names, context))
        except UNREAD:
            values.append(None)
    return values


class KeptNode(template.Node):
    def __init__(self, region: FilterExpression, changing: bool, nodelist: NodeList, tag: str = "div"):
        self.region, self.changing, self.nodelist, self.tag = region, changing, nodelist, tag
        self.reads: tuple[Getter, ...] | None = None  # found at the first render, when partials can be looked up

    def digest(self, context: template.Context) -> str:
        """The part's digest as it would be drawn now."""
        if self.reads is None:
            found: dict = {}
            _read(self.nodelist, found, set())
            self.reads = tuple(_ready(found[name]) for name in sorted(found))
        names = context.flatten()
        return _hashed(_shown(self.reads, {}, names, context), names)

    def render(self, context: template.Context) -> str:
        region = self.region.resolve(context)
        # As format_html would write it (the id escaped unless safe, the rest is the tag's own), without its
        # escaping of every argument: a Lonely Star answer writes a dozen parts.
        if isinstance(region, Promise):
            region = str(region)
        at = region.__html__() if hasattr(region, "__html__") else html.escape(str(region))
        if not self.changing:
            if context.get("light"):
                return SafeString(f'<div id="{at}" hx-preserve></div>')
            return SafeString(f'<div id="{at}">{self.nodelist.render(context)}</div>')
        key = self.digest(context)
        if f"{region}={key}" in (context.get("parts_shown") or ()):
            return SafeString(f'<{self.tag} id="{at}" data-kept="{key}" hx-preserve></{self.tag}>')
        return SafeString(f'<{self.tag} id="{at}" data-kept="{key}">{self.nodelist.render(context)}</{self.tag}>')


@register.tag
def kept(parser: template.base.Parser, token: template.base.Token) -> KeptNode:
    bits = token.split_contents()
    tag = "div"
    if len(bits) > 3 and bits[-2] == "as":
        tag, bits = bits[-1].strip("\"'"), bits[:-2]
        if tag not in KINDS:
            raise template.TemplateSyntaxError("{% kept … as %} makes a part a div, an li or a tr.")
    if len(bits) not in (2, 3) or bits[2:] not in ([], ["changing"]):
        raise template.TemplateSyntaxError('{% kept "id" %} or {% kept "id" changing %}: what a changing part shows is '
                                           "found in it, not listed.")
    nodelist = parser.parse(("endkept",))
    parser.delete_first_token()
    return KeptNode(parser.compile_filter(bits[1]), len(bits) == 3, nodelist, tag)
