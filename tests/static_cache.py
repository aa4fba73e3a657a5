"""The static files every test run serves, collected once for all runs alike rather than by each run.

collectstatic minifies our files and writes a Brotli and a gzip copy of every file under both its names:
about 5 s of CPU, which each pytest-xdist worker of each of CI's two passes paid again (four times a CI
run) for the same files. They are kept in the temporary folder under a digest of everything the
collected files follow from (each source file the finders find, the storage's code, the versions of the
packages that write them, the settings they read), so a changed file, storage or package collects afresh and an unchanged one is
never collected twice. The folder is filled under a lock and renamed into place whole: a run never sees
half of it, and runs side by side never write over each other.
"""

import fcntl
import hashlib
import shutil
import tempfile
from importlib import metadata
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.test import override_settings

from tracker.web import static_files

PACKAGES = ("django", "whitenoise", "tdewolff-minify", "brotli", "django-htmx")


def _digest() -> str:
    found = hashlib.sha256(Path(static_files.__file__).read_bytes())
    found.update(repr((settings.STORAGES, settings.STATIC_URL, sorted(
        (name, str(getattr(settings, name))) for name in dir(settings) if name.startswith("WHITENOISE_")))).encode())
    for package in PACKAGES:
        try:
            found.update(f"{package}={metadata.version(package)}".encode())
        except metadata.PackageNotFoundError:
            found.update(f"{package} missing".encode())
    for finder in finders.get_finders():
        for name, storage in sorted(finder.list([]), key=lambda item: item[0]):
            found.update(name.encode() + b"\0" + Path(storage.path(name)).read_bytes())
    return found.hexdigest()[:20]


def collected() -> Path:
    """The folder holding the collected static files of this source tree (collected now if no run has)."""
    root = Path(tempfile.gettempdir()) / f"tablekeeper-test-static-{_digest()}"
    if (root / "staticfiles.json").exists():
        return root
    with open(f"{root}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another worker collecting: wait for its folder
        if not (root / "staticfiles.json").exists():
            making = Path(tempfile.mkdtemp(prefix=f"{root.name}-making-"))
            try:
                with override_settings(STATIC_ROOT=making):
                    call_command("collectstatic", "--noinput", verbosity=0)
                making.rename(root)
            finally:
                shutil.rmtree(making, ignore_errors=True)
    return root
