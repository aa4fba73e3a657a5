"""The compiled catalogues (.mo, git-ignored) made from the committed .po files when missing or stale:
the shared catalogue and each game's own (LOCALE_PATHS in tracker/settings.py).

Run by `serve` before it starts and by the tests before they run, so a fresh clone is in German
where asked without a developer step, and nothing tracked is ever rewritten: gathering new
messages into the .po files (`makemessages`) is a developer's step, and a test
(tests/tracker/test_german.py) says when it is due.
"""

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from django.conf import settings


class MissingGettext(RuntimeError):
    pass


def stale_catalogues() -> list[Path]:
    """Every .po whose .mo is missing or older than it."""
    stale = []
    for po in sorted(po for folder in settings.LOCALE_PATHS for po in Path(folder).glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            stale.append(po)
    return stale


def compile_catalogues() -> list[Path]:
    """Compile each stale catalogue with GNU gettext's msgfmt; returns the .po files compiled.

    Each .mo is written beside its .po under another name and renamed into place, so two test
    processes starting together never read a half-written catalogue.
    """
    stale = stale_catalogues()
    if not stale:
        return []
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        raise MissingGettext("gettext's msgfmt is missing ('apt-get install gettext'): pages stay in English")
    for po in stale:
        handle, partial = tempfile.mkstemp(dir=po.parent, suffix=".mo-partial")
        os.close(handle)
        try:
            subprocess.run([msgfmt, "--check-format", "-o", partial, str(po)], check=True)
            os.replace(partial, po.with_suffix(".mo"))
        finally:
            Path(partial).unlink(missing_ok=True)
    return stale
