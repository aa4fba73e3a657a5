"""The static files every test run serves, collected once for all runs alike rather than by each run.

collectstatic minifies our files and writes a Brotli and a gzip copy of every file under both its names:
about 5 s of CPU, which each pytest-xdist worker of each of CI's two passes paid again (four times a CI
run) for the same files. They are kept in the temporary folder under the digest `serve` keeps its own
collection by (tracker/web/static_collection.py: each source file the finders find, the storage's code, the
versions of the packages that write them, the settings they read), so a changed file, storage or package
collects afresh and an unchanged one is never collected twice. The folder is filled under a lock and renamed
into place whole: a run never sees half of it, and runs side by side never write over each other.
"""

import fcntl
import shutil
import tempfile
from pathlib import Path

from django.test import override_settings

from tracker.web import static_collection


def collected() -> Path:
    """The folder holding the collected static files of this source tree (collected now if no run has)."""
    made_from = static_collection.digest()
    root = Path(tempfile.gettempdir()) / f"tablekeeper-test-static-{made_from}"
    if static_collection.holds(root, made_from):
        return root
    with open(f"{root}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another worker collecting: wait for its folder
        if not static_collection.holds(root, made_from):
            making = Path(tempfile.mkdtemp(prefix=f"{root.name}-making-"))
            try:
                with override_settings(STATIC_ROOT=making):
                    static_collection.collect(made_from)
                making.rename(root)
            finally:
                shutil.rmtree(making, ignore_errors=True)
    return root


def copy_for_serve(folder: Path) -> dict[str, str]:
    """The environment for a `manage.py serve` a test starts: STATIC_ROOT a copy of the collected folder (30 ms),
    which `serve` finds whole and does not collect again (4 s of CPU each), where the shared folder itself
    is never written to by anyone."""
    shutil.copytree(collected(), folder / "staticfiles")
    return {"STATIC_ROOT": str(folder / "staticfiles")}
