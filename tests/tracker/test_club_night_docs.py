"""What README.md and docs/ tell a store owner to run: a server the phones on the network reach (`serve --https`)
is started without the demo data (`--empty`), whose accounts have a password anyone may read (`serve` prints
it). A store owner following README's "Run a club night" had Ana, the demo club's organiser, open to anyone at
the table who read the README."""

import re
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
SERVE = re.compile(r"(?:tracker/scripts/serve|manage\.py serve)\b[^\n#]*")


def commands(text: str) -> list[str]:
    """The `serve` commands in a Markdown file's code: indented blocks, fenced blocks and inline code."""
    code = [line for line in text.splitlines() if line.startswith("    ")]
    code += re.findall(r"```.*?```", text, re.S) + re.findall(r"`([^`\n]+)`", text)
    return [found.strip() for block in code for found in SERVE.findall(block)]


def test_every_served_to_the_network_command_leaves_the_demo_out():
    to_the_network = {}
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for command in commands(path.read_text()):
            if "--https" in command or "0.0.0.0" in command:
                to_the_network.setdefault(path.name, []).append(command)
    assert to_the_network["README.md"] and to_the_network["club-night.md"]  # the commands were found
    with_demo = [(name, command) for name, found in to_the_network.items() for command in found if "--empty" not in command]
    assert with_demo == []
