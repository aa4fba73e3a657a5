"""The rules engines are pure Python: nothing under rules/ may import Django."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "rules"
SOURCES = sorted(RULES.rglob("*.py"))


def is_django(module):
    return module == "django" or module.startswith("django.")


def django_imports(path):
    """Every place in the file that imports django, as "line: what"."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [f"{node.lineno}: import {a.name}" for a in node.names if is_django(a.name)]
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0 and node.module and is_django(node.module):
                found.append(f"{node.lineno}: from {node.module} import ...")
        elif isinstance(node, ast.Call):
            # importlib.import_module("django...") or __import__("django...")
            name = getattr(node.func, "attr", None) or getattr(node.func, "id", None)
            if name in ("import_module", "__import__") and node.args:
                arg = node.args[0]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and is_django(arg.value):
                    found.append(f"{node.lineno}: {name}({arg.value!r})")
    return found


def test_rules_package_has_sources():
    # Guards the walk below against silently checking nothing.
    assert RULES / "__init__.py" in SOURCES
    assert RULES / "card_crush" / "battle.py" in SOURCES


@pytest.mark.parametrize("path", SOURCES, ids=[str(p.relative_to(ROOT)) for p in SOURCES])
def test_no_rules_module_imports_django(path):
    assert django_imports(path) == []


def test_the_import_check_spots_django_imports(tmp_path):
    # The checker itself must catch each form of import.
    source = tmp_path / "bad.py"
    source.write_text(
        "import os, django\n"
        "import django.conf as conf\n"
        "from django.utils.translation import gettext\n"
        "import importlib\n"
        "importlib.import_module('django.db')\n"
        "from . import djangoish\n"
    )
    assert [line.split(":")[0] for line in django_imports(source)] == ["1", "2", "3", "5"]


def test_importing_rules_loads_no_django():
    code = (
        "import sys, rules, rules.card_crush; "
        "loaded = sorted(m for m in sys.modules if m.startswith('django')); "
        "assert not loaded, loaded"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
