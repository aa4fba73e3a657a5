"""The layout a newcomer reads at a glance stays that way.

- Every game's pages are one `GamePages` subclass, registered as an instance, in a package of the
  same shape (forms, board, narration, statistics, demo), and nothing probes a pages object with
  hasattr: a hook the base class does not declare does not exist.
- Speed tools live in perf/, their management commands only parse arguments.
- The code names no issue of the tracker (a newcomer has no use for "issue 19").
- htmx's target and swap for the match are set once, on #match, and inherited.
- README's "How it is built" map names every module and folder of rules/, tracker/ and static/,
  and every file it names exists.
- The web app's packages import each other without a circle (see `test_no_import_circle_between_packages`).
"""

import ast
import graphlib
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
    assert files >= SHAPE, f"{package} lacks {SHAPE - files}"
    undeclared = [name for name in vars(type(pages)) if not name.startswith("__")
                  and name not in GamePages.REQUIRED and not hasattr(GamePages, name)]
    assert not undeclared, f"{slug}'s pages define hooks GamePages does not declare: {undeclared}"
    for part, module in vars(pages.modules).items():
        assert module.__name__ == f"{type(pages).__module__}.{part}", f"{slug}'s {part} lives elsewhere: {module.__name__}"


def test_a_pages_class_missing_a_required_member_fails_when_it_is_created():
    """The contract is checked where a game's pages are written, not when a page first needs a hook."""
    import types

    from tracker.games.base import SecretEntryModules, SecretEntryPages
    from tracker.games.lonely_star import board, demo, forms, narration, statistics

    with pytest.raises(TypeError, match="lacks board"):
        Modules(forms, types.ModuleType("boardless"), narration, statistics, demo)
    with pytest.raises(TypeError, match="lacks entry_action, entry_examples, entry_form, seats_to_enter"):
        SecretEntryModules(forms, board, narration, statistics, demo)
    with pytest.raises(TypeError, match="must set tampered_demo, tampered_stat"):
        type("Untampered", (GamePages,), {"slug": "x", "noun": "match", "consequences": frozenset(),
                                          "modules": Modules(forms, board, narration, statistics, demo)})
    with pytest.raises(TypeError, match="must be SecretEntryModules"):
        type("Unentered", (SecretEntryPages,), {
            "slug": "x", "noun": "match", "consequences": frozenset(), "tampered_demo": "deck-out",
            "tampered_stat": "hp", "modules": Modules(forms, board, narration, statistics, demo)})


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
    # The outcome box lies outside #match (a live region filled out of band): it sets them once too.
    assert [place.split(":")[0] for place in found] == ["templates/tracker/match_detail.html",
                                                       "templates/tracker/outcome.html"], found


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
            if (path.suffix == ".py" or path.is_dir()) and not any(
                    word == name or word.startswith(name) or word.endswith("/" + name) for word in words):
                missing.append(top + name)
            if path.is_dir() and path.name in CONCERNS:
                missing += [f"{top}{name}{module.name}" for module in sorted(path.glob("*.py"))
                            if not module.name.startswith("_") and module.name not in words]
    for path in sorted((ROOT / "static").rglob("*")):
        if (path.suffix in (".css", ".js") and "games" not in path.parts
                and str(path.relative_to(ROOT / "static")) not in " ".join(named["static/"])):
            missing.append(str(path.relative_to(ROOT)))
    assert not missing, "not in README's 'How it is built' map: " + ", ".join(missing)


def test_every_file_the_readme_map_names_exists():
    absent = [top + word for top, words in _readme_map().items() if top in ("rules/", "tracker/", "static/", "templates/")
              for word in words if not any((ROOT / top).rglob(word.rstrip("/")))]
    assert not absent, "README's map names what is not there: " + ", ".join(absent)


PACKAGES = ("matches", "people", "catalog", "review", "competition", "games", "web")


def _layer(module: str) -> str | None:
    """Where a module sits: "people" for what a package decides, "people.views" for its pages (a
    views.py, or a urls.py routing to them), None outside the packages (models, urls, demo: below or
    above all of them)."""
    parts = module.split(".")
    if len(parts) < 2 or parts[0] != "tracker" or parts[1] not in PACKAGES:
        return None
    return parts[1] + (".views" if {"views", "urls"} & set(parts[2:]) else "")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(node: ast.Import | ast.ImportFrom, module: str, package: bool) -> list[str]:
    """The dotted names an import statement reaches: "tracker.people.access" for `from tracker.people
    import access`, relative imports resolved."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        here = module.split(".") if package else module.split(".")[:-1]
        base = ".".join(here[:len(here) - node.level + 1] + ([node.module] if node.module else []))
    return [f"{base}.{alias.name}" for alias in node.names]


def _is_type_checking(node: ast.stmt) -> bool:
    return isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING")


def _imports(tree: ast.Module) -> tuple[list, list]:
    """A module's imports made when it loads (its body, inside top-level if/try too, but not under
    `if TYPE_CHECKING`, which never runs) and those made when a function runs."""
    at_load, at_call = [], []
    pending = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            at_load.append(node)
        elif isinstance(node, (ast.If, ast.Try)) and not _is_type_checking(node):
            pending += [child for child in ast.iter_child_nodes(node) if isinstance(child, ast.stmt)]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            at_call += [inner for inner in ast.walk(node) if isinstance(inner, (ast.Import, ast.ImportFrom))]
    return at_load, at_call


def test_no_import_circle_between_packages():
    """The packages of tracker/ form layers a reader can follow downwards.

    A package has two layers: its pages (views.py) and what they build on (every other module).
    The graph's nodes are those layers ("people", "people.views"); an edge is an import made when a
    module loads. The test fails on a circle, and on a module other than a views.py importing pages
    (what a page builds on never reaches up into pages). So a page may use any package, and the
    packages below the pages stand in one order, each using only those before it (today: matches,
    competition, games, people, catalog, review, web).

    Imports inside functions run after every module has loaded and are not in the graph; one that
    reaches another package says why on its line or the line above (the next test).
    """
    graph: dict[str, set[str]] = {}
    where: dict[tuple[str, str], str] = {}
    upward = []
    for path in _sources("tracker", suffixes=(".py",)):
        module = _module_name(path)
        source = _layer(module)
        if source is None:
            continue
        graph.setdefault(source, set())
        at_load, _at_call = _imports(ast.parse(path.read_text()))
        for node in at_load:
            for name in _imported(node, module, path.name == "__init__.py"):
                target = _layer(name)
                if target is None:
                    continue
                if target.endswith(".views") and not source.endswith(".views"):
                    upward.append(f"{path.relative_to(ROOT)}:{node.lineno} imports pages: {name}")
                if target != source:
                    graph[source].add(target)
                    where.setdefault((source, target), f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not upward, "\n".join(upward)
    try:
        tuple(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as error:
        circle = error.args[1]
        steps = [f"{a} -> {b} ({where[(a, b)]})" for a, b in zip(circle[1:], circle, strict=False)]
        raise AssertionError("import circle: " + "; ".join(steps)) from None


def test_an_import_made_at_call_time_says_why():
    """Importing another package inside a function hides an edge from the graph above: only with a
    reason written beside it (a comment on its line or the line before)."""
    silent = []
    for path in _sources("tracker", suffixes=(".py",)):
        module = _module_name(path)
        source = _layer(module)
        if source is None:
            continue
        lines = path.read_text().splitlines()
        _at_load, at_call = _imports(ast.parse("\n".join(lines)))
        for node in at_call:
            targets = {_layer(name) for name in _imported(node, module, path.name == "__init__.py")} - {None}
            if targets and any(target.split(".")[0] != source.split(".")[0] for target in targets):
                said = "#" in lines[node.lineno - 1] or lines[node.lineno - 2].strip().startswith("#")
                if not said:
                    silent.append(f"{path.relative_to(ROOT)}:{node.lineno}: {lines[node.lineno - 1].strip()}")
    assert not silent, "imported at call time without a reason: " + ", ".join(silent)


def test_tests_import_helpers_from_helpers_modules_not_from_conftest():
    """A suite's fixtures are in its conftest.py and its shared helpers in a helpers module (tests/tracker/
    helpers.py, tests/browser/phone.py): importing from a conftest.py runs it twice under two names."""
    found = [f"{path.relative_to(ROOT)}:{node.lineno}"
             for path in _sources("tests", suffixes=(".py",))
             for node in ast.walk(ast.parse(path.read_text()))
             if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[-1] == "conftest"]
    assert not found, "helpers imported out of conftest.py: " + ", ".join(found)
