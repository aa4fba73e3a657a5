"""The layout a newcomer reads at a glance stays that way.

- Every game's pages are one `GamePages` subclass, registered as an instance, in a package of the
  same shape (forms, board, narration, statistics, demo), and nothing probes a pages object with
  hasattr: a hook the base class does not declare does not exist.
- Speed tools live in perf/, their management commands only parse arguments.
- The code names no issue of the tracker (a newcomer has no use for "issue 19").
- htmx's target and swap for the match are set once, on #match, and inherited.
- README's "How it is built" map names every module and folder of rules/, tracker/ and static/,
  and every file it names exists.
"""

import ast
import re
from pathlib import Path

import pytest
from django.conf import settings

import rules
from tracker.games import ADAPTERS
from tracker.games.base import GamePages, Modules

ROOT = Path(settings.BASE_DIR)
SHAPE = {"__init__.py", "forms.py", "board.py", "narration.py", "statistics.py", "demo.py"}


def _sources(*folders: str, suffixes=(".py", ".html", ".js", ".css")) -> list[Path]:
    return [path for folder in folders for path in sorted((ROOT / folder).rglob("*"))
            if path.is_file() and path.suffix in suffixes and "locale" not in path.parts]


@pytest.mark.parametrize("slug", list(rules.GAMES))
def test_every_game_has_one_pages_object_in_a_package_of_the_same_shape(slug):
    pages = ADAPTERS[slug]
    assert isinstance(pages, GamePages) and pages.slug == slug
    assert isinstance(pages.modules, Modules)
    package = Path(type(pages).__module__.replace(".", "/"))
    assert package.parts[:2] == ("tracker", "games"), package
    files = {path.name for path in (ROOT / package).glob("*.py")}
    assert SHAPE <= files, f"{package} lacks {SHAPE - files}"
    undeclared = [name for name in vars(type(pages)) if not name.startswith("__")
                  and name not in ("slug", "noun", "modules") and not hasattr(GamePages, name)]
    assert not undeclared, f"{slug}'s pages define hooks GamePages does not declare: {undeclared}"
    for part, module in vars(pages.modules).items():
        assert module.__name__ == f"{type(pages).__module__}.{part}", f"{slug}'s {part} lives elsewhere: {module.__name__}"


def test_nothing_asks_a_pages_object_with_hasattr():
    """Optional hooks have defaults in GamePages; probing for one hides a missing hook."""
    probes = []
    for path in _sources("tracker", suffixes=(".py",)):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("hasattr", "getattr") and node.args:
                probed = ast.unparse(node.args[0])
                if re.search(r"\b(pages|adapter|game_pages)\b", probed) or "pages_for(" in probed:
                    probes.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
    assert not probes, "\n".join(probes)


def test_the_speed_tools_live_in_perf_and_their_commands_stay_thin():
    commands = ROOT / "tracker" / "management" / "commands"
    for name in ("loadtest", "benchmark"):
        source = (commands / f"{name}.py").read_text()
        assert "from perf import" in source, f"the {name} command does not call perf/"
        assert len(source.splitlines()) <= 60, f"the {name} command holds more than argument parsing"
    assert (ROOT / "perf" / "tables").is_dir() and not (ROOT / "tracker" / "perf").exists()


def test_the_code_names_no_issue():
    mentions = [f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
                for path in _sources("rules", "tracker", "templates", "static")
                for number, line in enumerate(path.read_text().splitlines(), start=1)
                if re.search(r"\bissues?\b", line, re.IGNORECASE)]
    assert not mentions, "\n".join(mentions)


def test_the_match_target_and_swap_are_set_once_and_inherited():
    found = [f"{path.relative_to(ROOT)}:{number}"
             for path in _sources("templates", suffixes=(".html",))
             for number, line in enumerate(path.read_text().splitlines(), start=1)
             if 'hx-target="#match"' in line]
    assert len(found) == 1 and found[0].startswith("templates/tracker/match_detail.html:"), found


def test_seats_are_matched_to_their_links_in_the_view():
    nested = [str(path.relative_to(ROOT)) for path in _sources("templates", suffixes=(".html",))
              if "parentloop" in path.read_text()]
    assert not nested, nested


CONCERNS = {"matches", "people", "catalog", "review", "web"}  # each module named in the map
NAMED = re.compile(r"(?<![\w<./-])\w[\w./-]*(?:\.(?:py|css|js|html)\b|/(?![\w]))")


def _readme_map() -> dict[str, list[str]]:
    """The file and folder names under each top-level folder of README's map: {"tracker/": ["models.py", ...]}."""
    text = (ROOT / "README.md").read_text()
    block = text[text.index("## How it is built"):].split("```")[1]
    named: dict[str, list[str]] = {"": []}
    top = ""
    for line in block.splitlines():
        if line and not line.startswith(" "):
            top, line = line.split(maxsplit=1)
            named[top] = []
        named[top] += NAMED.findall(line)
    return named


def test_the_readme_map_names_every_module_and_folder():
    named = _readme_map()
    missing = []
    for top in ("rules/", "tracker/"):
        words = set(named[top])
        for path in sorted((ROOT / top).iterdir()):
            if path.name.startswith(("_", ".")) or path.name in ("locale", "migrations"):
                continue
            if path.is_dir() and top == "rules/":
                continue  # one package per game: "<game>/"
            name = path.name + ("/" if path.is_dir() else "")
            if path.suffix == ".py" or path.is_dir():
                if not any(word == name or word.startswith(name) or word.endswith("/" + name) for word in words):
                    missing.append(top + name)
            if path.is_dir() and path.name in CONCERNS:
                missing += [f"{top}{name}{module.name}" for module in sorted(path.glob("*.py"))
                            if not module.name.startswith("_") and module.name not in words]
    for path in sorted((ROOT / "static").rglob("*")):
        if path.suffix in (".css", ".js") and "games" not in path.parts:
            if str(path.relative_to(ROOT / "static")) not in " ".join(named["static/"]):
                missing.append(str(path.relative_to(ROOT)))
    assert not missing, "not in README's 'How it is built' map: " + ", ".join(missing)


def test_every_file_the_readme_map_names_exists():
    absent = [top + word for top, words in _readme_map().items() if top in ("rules/", "tracker/", "static/", "templates/")
              for word in words if not any((ROOT / top).rglob(word.rstrip("/")))]
    assert not absent, "README's map names what is not there: " + ", ".join(absent)
