"""Each game's messages are its own: marked with the game's slug as their context, in German in its own catalogue.

A game's words never meet another game's: one game's "Draw" (a tie) and another's "Draw" (take a card)
are two messages, each with its own German. So every literal message in a game's pages package
(tracker/games/<game>/) and its templates (games/<slug>/) says its game: pgettext and friends with the
slug in Python, `context "<slug>"` in templates. A word the engine marked (an affinity, a colour, a stat's name)
is the game's too: `engine_word(slug, card["element"])`, `{% translate card.affinity context "<slug>" %}`, never
a plain gettext, which would find the shared catalogue's German for the same English (the theme's "Light" for
Card Crush's affinity). The German is beside the code, in the pages
package's locale/ (what `makemessages` writes), and the shared catalogue holds none of it. Checked for
every game and for the sample game in tests/sample_game/.
"""

import ast
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation
from django.utils.translation.template import templatize

import rules
from tests.sample_game import every_game
from tracker.games import ADAPTERS, pages_for
from tracker.management.commands import makemessages
from tracker.matches import engine_messages, services

from .test_german import CATALOGS, read_catalog

CONTEXTUAL = {"pgettext", "pgettext_lazy", "npgettext", "npgettext_lazy"}
PLAIN = {"gettext", "gettext_lazy", "gettext_noop", "ngettext", "ngettext_lazy"}
# A message is (context, msgid, plural msgid or None).
Message = tuple[str | None, str, str | None]


def _literal(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _calls(tree: ast.AST, names: dict[str, str]) -> list[tuple[int, str, list[ast.expr]]]:
    """(line, Django's name of the function, arguments) of every call to a translation function."""
    return [(node.lineno, names[node.func.id], node.args) for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in names]


def _read(calls, slug: str, where: str) -> tuple[set[Message], list[str]]:
    """The messages marked by these calls, and where a literal message lacks the game's context."""
    messages, astray = set(), []
    for line, function, args in calls:
        if function in CONTEXTUAL:
            plural = _literal(args[2]) if function.startswith("np") and len(args) > 2 else None
            if _literal(args[0]) != slug or _literal(args[1]) is None:
                astray.append(f"{where}:{line}: context {ast.unparse(args[0])}")
            else:
                messages.add((slug, _literal(args[1]), plural))
        elif args:  # a literal, or a value looked up in the shared catalogue (engine_word says an engine's word)
            astray.append(f"{where}:{line}: {function}({ast.unparse(args[0])}) has no context")
    return messages, astray


KEPT = {"kept_pgettext": "pgettext"}
"""tracker.matches.engine_messages' own pgettext, its answers kept per language: a game's narration may call it."""


def python_messages(slug: str) -> tuple[set[Message], list[str]]:
    """The messages of the game's pages package, whatever names it imports the functions under."""
    messages, astray = set(), []
    for path in sorted(pages_for(slug).package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {alias.asname or alias.name: alias.name for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) and node.module == "django.utils.translation"
                 for alias in node.names if alias.name in CONTEXTUAL | PLAIN}
        names |= {alias.asname or alias.name: KEPT[alias.name] for node in ast.walk(tree)  # pgettext, kept
                  if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("matches.engine_messages")
                  for alias in node.names if alias.name in KEPT}
        found, wrong = _read(_calls(tree, names), slug, path.name)
        messages |= found
        astray += wrong
    return messages, astray


def refusals(slug: str) -> set[Message]:
    """The messages the game's engine package (rules/<game>/) marks, and the rule refusals its pages package
    raises itself: RuleError templates and the like, marked with the engines' `gettext_noop`, which makemessages
    gives the game's context in its catalogue, and the pages translate in it (services.explain)."""
    found = set()
    for path in sorted([*pages_for(slug).package.rglob("*.py"), *pages_for(slug).engine_package.rglob("*.py")]):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {alias.asname or alias.name: alias.name for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) and node.module in ("rules.errors", "errors")
                 for alias in node.names if alias.name == "gettext_noop"}
        found |= {(slug, args[0].value, None) for _line, _function, args in _calls(tree, names) if _literal(args[0])}
    return found


def game_templates(slug: str) -> list[Path]:
    folders = [Path(folder) / "games" / slug for engine in settings.TEMPLATES for folder in engine["DIRS"]]
    return sorted(path for folder in folders for path in folder.rglob("*.html"))


def template_messages(slug: str) -> tuple[set[Message], list[str]]:
    """The messages of the game's templates, read the way makemessages reads them (Django's templatize)."""
    messages, astray = set(), []
    for path in game_templates(slug):
        source = templatize(path.read_text(encoding="utf-8"), origin=str(path))
        calls = []
        for start in (m.start() for m in re.finditer(r"\b(n?p?gettext)\(", source)):
            end = source.index(")", start)
            while True:  # the call ends at the first ")" after which it parses
                try:
                    call = ast.parse(source[start:end + 1], mode="eval").body
                    break
                except SyntaxError:
                    end = source.index(")", end + 1)
            assert isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
            calls.append((source.count("\n", 0, start) + 1, call.func.id, call.args))
        found, wrong = _read(calls, slug, path.name)
        messages |= found
        astray += wrong
    return messages, astray


@pytest.mark.parametrize("slug", every_game())
def test_every_message_of_a_game_carries_the_games_context(slug):
    in_python, astray_python = python_messages(slug)
    in_templates, astray_templates = template_messages(slug)
    assert game_templates(slug) and in_python and in_templates  # the game's folders were found and read
    assert astray_python + astray_templates == []


# {% translate value %} of a variable, without a context: it would find the shared catalogue's German.
PLAIN_VALUE = re.compile(r"{%\s*(?:translate|trans)\s+(?![\"'])(?:(?!%}).)*%}", re.S)


def test_no_template_translates_a_value_without_its_games_context():
    """A game's word shown by a template (an affinity on the board, a rarity in a collection) names its game's
    context, as a literal or a variable (`context game`): Card Crush's affinity "Light" is not the theme's."""
    folders = [Path(folder) for engine in settings.TEMPLATES for folder in engine["DIRS"]]
    found = [f"{path.relative_to(folder)}: {tag}" for folder in folders for path in sorted(folder.rglob("*.html"))
             for tag in PLAIN_VALUE.findall(path.read_text(encoding="utf-8")) if " context " not in tag]
    assert found == []


def test_a_value_in_a_plain_gettext_is_astray():
    """The check above reads a plain gettext of a value (not only of a literal) as a message without context."""
    tree = ast.parse('gettext(card["affinity"])\npgettext("card-crush", "Fire")')
    found, astray = _read(_calls(tree, {"gettext": "gettext", "pgettext": "pgettext"}), "card-crush", "x.py")
    assert found == {("card-crush", "Fire", None)} and astray == ["x.py:1: gettext(card['affinity']) has no context"]


@pytest.mark.parametrize("slug", every_game())
def test_every_message_of_a_game_has_german_in_its_own_catalogue(slug):
    """makemessages put each of the game's messages in the game's catalogue, and each has German."""
    own = read_catalog(pages_for(slug).locale / "de" / "LC_MESSAGES" / "django.po")
    catalog = {(m.get("msgctxt"), m["msgid"], m["msgid_plural"]): m for m in own}
    messages = python_messages(slug)[0] | template_messages(slug)[0]
    missing = sorted(message[1] for message in messages if message not in catalog)
    untranslated = sorted(message[1] for message in messages if message in catalog and (
        not all(catalog[message]["msgstr"].values()) or "fuzzy" in catalog[message]["flags"]))
    assert (missing, untranslated) == ([], [])
    # Nothing else lives there, but for the refusals the pages raise themselves.
    assert {(m.get("msgctxt"), m["msgid"], m["msgid_plural"]) for m in own} - messages <= refusals(slug)
    assert [m["msgid"] for m in read_catalog(CATALOGS[0]) if m.get("msgctxt") == slug] == []  # nor in the shared one
    with translation.override("de"):  # and the compiled catalogue answers with it under the game's context
        wrong = [msgid for context, msgid, plural in messages
                 if plural is None and translation.pgettext(slug, msgid) != catalog[context, msgid, None]["msgstr"][0]]
    assert wrong == []


def test_a_message_of_one_game_is_not_another_games():
    """A new game's message never borrows the German another game has for the same English."""
    with translation.override("de"):
        assert translation.pgettext("logos", "Round %(n)s") == "Runde %(n)s"
        assert translation.pgettext("high-card-duel", "Round %(n)s") == "Round %(n)s"


def test_makemessages_sends_each_games_files_to_its_own_catalogue(monkeypatch):
    """Django's makemessages would send templates/games/<slug>/ to the shared catalogue (the first of
    LOCALE_PATHS, as no locale folder's parent holds them); the project's command routes them to the game's."""
    monkeypatch.chdir(settings.BASE_DIR)
    command = makemessages.Command()
    command.settings_available, command.verbosity, command.symlinks = True, 0, False
    command.extensions, command.ignore_patterns = {".py", ".html"}, [*makemessages.IGNORED, ".*"]
    command.locale_paths = [str(folder) for folder in settings.LOCALE_PATHS]
    command.default_locale_path = command.locale_paths[0]
    where = {Path(file.path).as_posix(): Path(file.locale_dir) for file in command.find_files(".")}
    shared = Path(settings.LOCALE_PATHS[0])
    for slug, pages in ADAPTERS.items():
        assert where[f"templates/games/{slug}/board.html"] == pages.locale
        assert where[(pages.package / "board.py").relative_to(settings.BASE_DIR).as_posix()] == pages.locale
    assert where["templates/base.html"] == where["rules/errors.py"] == where["tracker/games/base.py"] == shared
    for pages in ADAPTERS.values():  # and each engine's own folder to its game's
        engine = pages.engine_package.relative_to(settings.BASE_DIR)
        assert {where[name] for name in where if Path(name).parent == engine} == {pages.locale}
    assert where["rules/options.py"] == where["rules/dice.py"] == shared  # the engines' shared parts stay shared


@pytest.mark.parametrize("slug", list(ADAPTERS))
def test_an_engines_refusals_are_its_games_in_german_in_its_catalogue(slug):
    """What a game's engine marks (its refusals, Cardmaster's AI reasons) is in the game's catalogue with the game's
    context and German, none of it in the shared one; a refusal of the engine reaches a German player in it."""
    marked = refusals(slug)
    catalog = {(m.get("msgctxt"), m["msgid"]): m for m in read_catalog(pages_for(slug).locale / "de" / "LC_MESSAGES" / "django.po")}
    assert marked and {(context, msgid) for context, msgid, _plural in marked} <= set(catalog)
    assert [msgid for _context, msgid, _plural in marked if not catalog[slug, msgid]["msgstr"][0]] == []
    engine = pages_for(slug).engine_package.relative_to(settings.BASE_DIR).as_posix()
    shared = (settings.LOCALE_PATHS[0] / "de" / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    assert f"#: {engine}/" not in shared
    with translation.override("de"):
        for _context, msgid, _plural in marked:
            said = engine_messages.engine_message(slug, msgid)
            assert said == catalog[slug, msgid]["msgstr"][0] and said == translation.pgettext(slug, msgid)


def test_a_refusal_is_translated_in_the_context_of_the_game_whose_engine_raised_it():
    """Known by where it was raised (engine_messages.game_of): in the engine's own modules, or in the shared rules/options.py
    for a game's option, it is the game's; a shared part's own message falls back to the shared catalogue."""
    with pytest.raises(rules.RuleError) as refused:
        rules.GAMES["logos"].new_match({"starting_hp": 0}, "seed")
    assert engine_messages.game_of(refused.value) == "logos"
    with pytest.raises(rules.RuleError) as refused:
        rules.GAMES["card-crush"].apply(rules.GAMES["card-crush"].new_match({}, "seed"), {"type": "play_round"},
                                        rules.Dice("seed", 1))
    assert engine_messages.game_of(refused.value) == "card-crush"
    with translation.override("de"):
        assert services.explain(refused.value) == translation.pgettext("card-crush", refused.value.template) != (
            refused.value.template)
        assert engine_messages.engine_message("card-crush", "Choose a step to go to; nothing was changed.") == (
            translation.gettext("Choose a step to go to; nothing was changed."))
