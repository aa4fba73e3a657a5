"""The forms of a page, read the way a browser reads them, so a table script fills in what is there.

Only what the pages use: inputs (a checked radio or checkbox counts, an unchecked one
does not), selects (the selected option, else the first), textareas, and submit buttons
with a name. A disabled control is left out, as a browser leaves it out.
"""

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

NEWLINE = re.compile("\n")


@dataclass
class Form:
    action: str
    fields: list[tuple[str, str]] = field(default_factory=list)  # what submitting it as it stands sends
    choices: dict[str, list[str]] = field(default_factory=dict)  # every option of a select or radio group
    buttons: list[tuple[str, str]] = field(default_factory=list)  # enabled named submit buttons
    submittable: bool = False  # has an enabled submit button, named or not
    method: str = "get"
    at: int = 0  # where the form starts in the page read
    parts: tuple[str, ...] = ()  # the kept parts of the screen around it (an htmx phone's, screen.around)

    def value(self, name: str) -> str | None:
        return next((value for key, value in self.fields if key == name), None)

    def has(self, name: str) -> bool:
        return name in self.choices or any(key == name for key, _value in self.fields)

    def button_values(self, name: str = "action") -> list[str]:
        return [value for key, value in self.buttons if key == name]

    def data(self, button: tuple[str, str] | None = None, **changes: str) -> dict[str, list[str]]:
        """The body as a browser sends it after `changes` were typed in and `button` was pressed."""
        sent: dict[str, list[str]] = {}
        for name, value in self.fields:
            sent.setdefault(name, []).append(value)
        for name, value in changes.items():
            sent[name] = [value]
        if button:
            sent[button[0]] = [button[1]]
        return sent


class _Reader(HTMLParser):
    def __init__(self, lines: list[int] | None = None):
        super().__init__(convert_charrefs=True)
        self.lines = lines or [0]  # where each line of the page starts, for a form's offset
        self.forms: list[Form] = []
        self.form: Form | None = None
        self.select: tuple[str, list[str], list[str]] | None = None  # name, options, selected
        self.option: dict | None = None
        self.textarea: tuple[str, list[str]] | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            line, column = self.getpos()
            self.form = Form(action=attrs.get("action") or "", method=(attrs.get("method") or "get").lower(),
                             at=self.lines[line - 1] + column)
            self.forms.append(self.form)
            return
        if self.form is None or "disabled" in attrs:
            return
        name = attrs.get("name")
        if tag == "input" and name:
            kind = (attrs.get("type") or "text").lower()
            value = attrs.get("value") or ""
            if kind in ("radio", "checkbox"):
                self.form.choices.setdefault(name, []).append(value or "on")
                if "checked" in attrs:
                    self.form.fields.append((name, value or "on"))
            elif kind == "submit":
                self.form.buttons.append((name, value))
                self.form.submittable = True
            elif kind not in ("button", "reset", "file", "image"):
                self.form.fields.append((name, value))
        elif tag == "button" and (attrs.get("type") or "submit").lower() == "submit":
            self.form.submittable = True
            if name:
                self.form.buttons.append((name, attrs.get("value") or ""))
        elif tag == "select" and name:
            self.select = (name, [], [])
        elif tag in ("option", "optgroup") and self.select:
            self._close_option()  # an open <option> ends where the next one starts
            if tag == "option":
                self.option = {"value": attrs.get("value"), "text": [], "selected": "selected" in attrs}
        elif tag == "textarea" and name:
            self.textarea = (name, [])

    def handle_data(self, data):
        if self.option is not None:
            self.option["text"].append(data)
        if self.textarea is not None:
            self.textarea[1].append(data)

    def _close_option(self):
        if self.option is None:
            return
        # An option without a value attribute sends its text, as a browser does.
        option, self.option = self.option, None
        value = option["value"] if option["value"] is not None else "".join(option["text"]).strip()
        self.select[1].append(value)
        if option["selected"]:
            self.select[2].append(value)

    def handle_endtag(self, tag):
        if tag in ("option", "select", "optgroup"):
            self._close_option()
        if tag == "select" and self.select is not None:
            name, options, selected = self.select
            self.select = None
            self.form.choices[name] = options
            chosen = selected[:1] or options[:1]
            self.form.fields += [(name, value) for value in chosen]
        elif tag == "textarea" and self.textarea is not None:
            name, text = self.textarea
            self.textarea = None
            self.form.fields.append((name, "".join(text)))
        elif tag == "form":
            self.form = None


def read_forms(html: str) -> list[Form]:
    reader = _Reader([0] + [line.end() for line in NEWLINE.finditer(html)])
    reader.feed(html)
    reader.close()
    return reader.forms


def board_catalog(slug: str) -> list[str]:
    """The names a player types on a board whose card field has no <datalist> (its picker lists them
    with JavaScript, which these phones do not run): the demo catalog the load test loads."""
    from tracker.games import pages_for

    return [card["name"] for card in pages_for(slug).demo_cards]


def datalist(html: str, list_id: str) -> list[str]:
    """The suggestions of a <datalist> (the catalog's card names), in page order."""
    start = html.find(f'<datalist id="{list_id}"')
    if start < 0:
        return []
    end = html.find("</datalist>", start)
    reader = _Reader()
    reader.feed(f"<form><select name=\"x\">{html[html.find('>', start) + 1:end]}</select></form>")
    reader.close()
    return reader.forms[0].choices.get("x", [])
