"""A refused form comes back as the player left it.

After a refusal the page is drawn afresh from the match, so its forms would come back blank and
their folds closed. `refill` finds the form the player sent in that page (a POST to the same
address whose hidden fields and pressed button agree with what was sent, and that has a field for
everything sent) and puts back every value typed, picked or ticked, opening the folds around it.
Hidden fields keep their fresh values: the step number above all, so the form is sent against the
match as it is now.

It works on the page's HTML, so every game's board forms are covered as they are written, with no
per-field bookkeeping in the templates.
"""

from html import escape
from html.parser import HTMLParser
from urllib.parse import urlsplit

from django.http import QueryDict

FRESH = frozenset({"csrfmiddlewaretoken", "seq", "entry_token", "once"})
"""Fields issued anew with every page: never put back."""
TYPED = frozenset({"text", "number", "search", "email", "tel", "url", "password"})
"""Input types whose value is what the player typed (password for completeness; no board asks one)."""

Attrs = list[tuple[str, str | None]]


class _Tag:
    """A start tag found in the page: its name, attributes and where its text starts and ends."""

    def __init__(self, name: str, attrs: Attrs, start: int, end: int) -> None:
        self.name, self.attrs, self.start, self.end = name, attrs, start, end
        self.select: _Tag | None = None  # an option's select
        self.content: tuple[int, int] | None = None  # a textarea's text

    def get(self, attr: str, default: str = "") -> str:
        for name, value in self.attrs:
            if name == attr:
                return value if value is not None else ""
        return default

    @property
    def kind(self) -> str:
        """input types in lower case; other controls by their tag name."""
        return self.get("type", "text").lower() if self.name == "input" else self.name


class _Form:
    def __init__(self, tag: _Tag, folds: list[_Tag]) -> None:
        self.tag, self.folds = tag, folds
        self.controls: list[_Tag] = []


class _Page(HTMLParser):
    """Every form of a page with its controls and the <details> folds it sits in, by offsets in the text."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.lines = [0] + [i + 1 for i, char in enumerate(text) if char == "\n"]
        self.forms: list[_Form] = []
        self._folds: list[_Tag] = []
        self._form: _Form | None = None
        self._select: _Tag | None = None
        self._textarea: _Tag | None = None
        self.feed(text)
        self.close()

    def _offset(self) -> int:
        line, column = self.getpos()
        return self.lines[line - 1] + column

    def handle_starttag(self, tag: str, attrs: Attrs) -> None:
        start = self._offset()
        found = _Tag(tag, attrs, start, start + len(self.get_starttag_text() or ""))
        if tag == "details":
            self._folds.append(found)
        elif tag == "form":
            self._form = _Form(found, list(self._folds))
            self.forms.append(self._form)
        elif self._form is not None and tag in ("input", "select", "option", "textarea", "button"):
            if tag == "select":
                self._select = found
            elif tag == "option":
                found.select = self._select
            elif tag == "textarea":
                self._textarea = found
            self._form.controls.append(found)

    def handle_endtag(self, tag: str) -> None:
        if tag == "details" and self._folds:
            self._folds.pop()
        elif tag == "form":
            self._form = None
        elif tag == "select":
            self._select = None
        elif tag == "textarea" and self._textarea is not None:
            self._textarea.content = (self._textarea.end, self._offset())
            self._textarea = None


def _sent_from(form: _Form, posted: QueryDict, path: str) -> int | None:
    """How closely `form` matches what was posted (more hidden fields and buttons agreeing is closer), or
    None when it cannot be the form that was sent."""
    tag = form.tag
    if tag.get("method").lower() != "post" or urlsplit(tag.get("action") or path).path != path:
        return None
    names = {control.get("name") for control in form.controls}
    if any(name not in names for name in posted if name not in FRESH):
        return None
    score = 0
    for control in form.controls:
        name = control.get("name")
        if not name or name in FRESH:
            continue
        if control.kind == "hidden":
            if control.get("value") not in posted.getlist(name):
                return None
            score += 1
        elif control.kind in ("button", "submit") and control.get("value") in posted.getlist(name):
            score += 1
    return score


def _with(tag: _Tag, **changes: str | None | bool) -> str:
    """The tag's text with attributes set (a string), made bare (True) or taken away (False)."""
    attrs = [(name, value) for name, value in tag.attrs if name not in changes]
    for name, value in changes.items():
        if value is True:
            attrs.append((name, None))
        elif value is not False:
            attrs.append((name, value))
    text = "".join(f" {name}" if value is None else f' {name}="{escape(value)}"' for name, value in attrs)
    return f"<{tag.name}{text}>"


def _edits(form: _Form, posted: QueryDict) -> list[tuple[int, int, str]]:
    """(start, end, new text) for every control the player filled in, and every fold around the form."""
    edits = [(fold.start, fold.end, _with(fold, open=True)) for fold in form.folds]
    used: dict[str, int] = {}  # several fields of one name (two d100 rolls) take the sent values in order
    for control in form.controls:
        name = control.get("name") or (control.select.get("name") if control.select else "")
        sent = posted.getlist(name)
        if not name or name in FRESH:
            continue
        kind = control.kind
        if kind in TYPED:
            index = used[name] = used.get(name, -1) + 1
            edits.append((control.start, control.end, _with(control, value=sent[index] if index < len(sent) else "")))
        elif kind in ("checkbox", "radio"):
            edits.append((control.start, control.end, _with(control, checked=control.get("value", "on") in sent)))
        elif kind == "option":
            edits.append((control.start, control.end, _with(control, selected=control.get("value") in sent)))
        elif kind == "textarea" and control.content:
            edits.append((*control.content, escape(sent[0] if sent else "", quote=False)))
    return edits


def refill(page: str, posted: QueryDict, path: str) -> str:
    """`page` with the form posted to `path` filled in again with `posted`; unchanged when no form fits."""
    forms = [(score, index, form) for index, form in enumerate(_Page(page).forms)
             if (score := _sent_from(form, posted, path)) is not None]
    if not forms:
        return page
    form = max(forms, key=lambda found: (found[0], -found[1]))[2]
    for start, end, text in sorted(_edits(form, posted), reverse=True):
        page = page[:start] + text + page[end:]
    return page
