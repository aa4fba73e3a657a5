"""`{% kept "id" %}…{% endkept %}`: a part of the match page that no action changes (the title, the share
panel, a form that adds a card to the catalog).

The page renders it as `<div id="id">…</div>`. The htmx answer to an action (`light` in the context, see
`_render_match`) sends only `<div id="id" hx-preserve></div>`: htmx keeps the element the phone already
shows, as it is (an open fold, a half-typed field), and the answer skips rendering it.

`{% kept "id" changing %}`: a part that some actions change and others do not (a Lonely Star unit, a
Cardmaster card); `{% kept "id" changing as "li" %}` makes the part a list item instead of a `<div>`. The
part carries a short digest (`data-kept`) of every value it reads: each variable in it, in the partials and
templates it includes, found from the template itself (so a part edited to show something new is digested
with it), besides the viewer and the language, which count by themselves. Every htmx request from the page
says which digests it shows (`X-Shown`, static/js/table.js). The answer to an action leaves out a part the
phone shows as it would be drawn now, and draws the others. Its forms keep the step number they were drawn
with: htmx sends the page's own (`hx-vals` on #match) in its place, so the step number (`match.head`, and
`match.board_mark` as the forms send it) and the CSRF token are the page's, not the part's, and left out of the
digest.
"""
import hashlib
import json
import re
from dataclasses import dataclass
from functools import cache

from django import template
from django.conf import settings
from django.template.base import FilterExpression, Node, NodeList, Variable, VariableDoesNotExist
from django.template.defaulttags import ForNode, IfNode, PartialNode, TemplateLiteral, WithNode
from django.template.loader import get_template
from django.template.loader_tags import IncludeNode
from django.utils.html import format_html
from django.utils.translation import get_language

register = template.Library()

PART = re.compile(r'<(?:div|li) id="([^"]+)" data-kept="([^"]+)"')
"""A changing kept part as `KeptNode` writes it, drawn or left out: its id and digest (table.js reads it so too)."""


def parts_shown(html: str, leave_out: tuple[str, ...] = ()) -> str:
    """What a screen showing `html` says it shows (`X-Shown`): "id=digest" of each changing kept part in it, but
    those left out (the parts around the form a tap came from)."""
    return " ".join(f"{region}={key}" for region, key in PART.findall(html) if region not in leave_out)


@cache
def _release() -> str:
    """What the templates and translations are in this process: a part drawn before a deploy changed how it
    looks has another digest, so it is drawn anew instead of kept."""
    files = sorted(path for folder in ("templates", "tracker/locale") for path in (settings.BASE_DIR / folder).rglob("*")
                   if path.is_file())
    return hashlib.blake2b(repr([(str(path), path.stat().st_mtime_ns, path.stat().st_size) for path in files]).encode(),
                           digest_size=6).hexdigest()


def digest(values: list, context: template.Context) -> str:
    """A short digest of what a part shows, for this viewer in this language (names and lazy words as text)."""
    viewer = context.get("viewer")
    # A page drawn after a refusal shows the refused form filled in, with why: the next answer draws it anew.
    seen = [_release(), get_language(), bool(context.get("read_only")), getattr(viewer, "role", None),
            getattr(viewer, "seat", None), context.get("refused") is not None, values]
    # Keys sorted: a state read back from PostgreSQL's jsonb has its keys in jsonb's order, not the order the
    # engine wrote them, and the same part must get the same digest either way.
    try:
        text = json.dumps(seen, default=str, sort_keys=True)
    except TypeError:  # keys of mixed types cannot be sorted: the part is then drawn anew more often, never wrong
        text = json.dumps(seen, default=str)
    return hashlib.blake2b(text.encode(), digest_size=6).hexdigest()


PAGE_OWN = {("match", "head"), ("match", "board_mark"), ("csrf_token",)}
"""What a part's forms carry that is the page's, not the part's (see above): never in a digest."""


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
    return ".".join(read.lookups or ())


def _root(read) -> str:
    if isinstance(read, _Bound):
        return min((_root(value.var) for _name, value in read.bindings if isinstance(value.var, Variable)), default="")
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
        if thing.lookups and thing.lookups not in PAGE_OWN and thing.lookups[0] not in assigned:
            found.setdefault(_key(thing), thing)
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
        # A tag's own attributes: its arguments (FilterExpressions), its conditions, its nodelists.
        for name, value in vars(thing).items():
            if name not in ("token", "origin", "source", "partial_mapping"):
                _read(value, found, seen, assigned)


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


def _bind(bindings: dict, body, found: dict, seen: set, assigned: frozenset[str]) -> None:
    """Names bound for a body (`with`): what the body reads of them, through the values bound. A name bound to
    one the part set itself (`picked=sent|typed:"target"`) is the tag's doing as well."""
    for value in bindings.values():  # a bound value's filters' arguments count by themselves
        for _filter, arguments in value.filters:
            for _is_variable, argument in arguments:
                _read(argument, found, seen, assigned)
    made = {name for name, value in bindings.items() if isinstance(value.var, Variable) and _root(value.var) in assigned}
    read = {name: value for name, value in bindings.items() if name not in made}
    inside = (assigned - set(bindings)) | made
    bound = _Bound(tuple(sorted(read.items())), _within(body, set(read), found, inside))
    if read:
        found.setdefault(_key(bound), bound)


def _looked_up(variable: Variable, scope: dict, context: template.Context):
    """What the template reads for `variable`: from the names a loop or a `with` in the part binds (`scope`), else
    from the context. Through plain dicts (the boards are made of them) it steps itself, as Django would (a key
    before an attribute); anything else, Django's own lookup (a plain dict serves it as a context)."""
    lookups = variable.lookups or ()
    holder = scope if lookups[0] in scope else context
    try:
        current = holder[lookups[0]]
    except KeyError:
        return variable.resolve(holder)
    for bit in lookups[1:]:
        if type(current) is dict and bit in current:
            current = current[bit]
        elif (current is None or type(current) is dict) and not hasattr(current, bit) and not bit.isdecimal():
            # Where Django would try a key, an attribute, then an index, and fail (after a costly dir()).
            raise VariableDoesNotExist(bit)
        else:
            return variable.resolve(holder)
    return variable.resolve(holder) if callable(current) else current


def _bound_value(value: FilterExpression, scope: dict, context: template.Context):
    """A value a `with` binds, with the part's own names in reach."""
    if not value.filters and isinstance(value.var, Variable) and value.var.lookups:
        return _looked_up(value.var, scope, context)
    with context.push(**scope):
        return value.resolve(context)


def _shown(reads: list, context: template.Context, scope: dict | None = None) -> list:
    """The value of each read of a part as it is now (None for what is not set). `scope`: the names the loops and
    `with`s around these reads bind, kept in a plain dict rather than pushed on the context item by item (the
    digests of a board's parts were a sixth of an action's time)."""
    scope = scope if scope is not None else {}
    values: list = []
    for read in reads:
        try:
            if isinstance(read, Variable):
                values.append(_looked_up(read, scope, context))
            elif isinstance(read, _Truth):
                values.append(bool(_looked_up(read.variable, scope, context)))
            elif isinstance(read, _Bound):
                bound = {name: _bound_value(value, scope, context) for name, value in read.bindings}
                values.append(_shown(list(read.reads), context, {**scope, **bound}))
            else:
                names, reads_of_item = read.names, list(read.reads)
                per_item = []
                for item in _looked_up(read.sequence, scope, context) or ():
                    each = dict(zip(names, item, strict=True)) if len(names) > 1 else {names[0]: item}
                    per_item.append(_shown(reads_of_item, context, {**scope, **each}))
                values.append(per_item)
        except (VariableDoesNotExist, TypeError, ValueError):  # not set, or not a sequence: as it is
            values.append(None)
    return values


class KeptNode(template.Node):
    def __init__(self, region: FilterExpression, changing: bool, nodelist: NodeList, tag: str = "div"):
        self.region, self.changing, self.nodelist, self.tag = region, changing, nodelist, tag
        self.reads: list | None = None  # found at the first render, when partials can be looked up

    def render(self, context: template.Context) -> str:
        region = self.region.resolve(context)
        if not self.changing:
            if context.get("light"):
                return format_html('<div id="{}" hx-preserve></div>', region)
            return format_html('<div id="{}">{}</div>', region, self.nodelist.render(context))
        if self.reads is None:
            found: dict = {}
            _read(self.nodelist, found, set())
            self.reads = [found[name] for name in sorted(found)]
        key = digest(_shown(self.reads, context), context)
        if f"{region}={key}" in (context.get("parts_shown") or ()):
            return format_html('<{} id="{}" data-kept="{}" hx-preserve></{}>', self.tag, region, key, self.tag)
        return format_html('<{} id="{}" data-kept="{}">{}</{}>', self.tag, region, key, self.nodelist.render(context),
                           self.tag)


@register.tag
def kept(parser: template.base.Parser, token: template.base.Token) -> KeptNode:
    bits = token.split_contents()
    tag = "div"
    if len(bits) > 3 and bits[-2] == "as":
        tag, bits = bits[-1].strip("\"'"), bits[:-2]
        if tag not in ("div", "li"):
            raise template.TemplateSyntaxError("{% kept … as %} makes a part a div or an li.")
    if len(bits) not in (2, 3) or bits[2:] not in ([], ["changing"]):
        raise template.TemplateSyntaxError('{% kept "id" %} or {% kept "id" changing %}: what a changing part shows is '
                                           "found in it, not listed.")
    nodelist = parser.parse(("endkept",))
    parser.delete_first_token()
    return KeptNode(parser.compile_filter(bits[1]), len(bits) == 3, nodelist, tag)
