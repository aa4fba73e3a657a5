"""Whether STATIC_ROOT already holds the collection of this source tree, and collecting it when not.

collectstatic minifies our files (tracker/web/static_files.py) and writes a Brotli and a gzip copy of every
file under both its names: about 4 s of CPU, which `serve` paid at every start although nothing had
changed since the last one (a store laptop restarted for each club night, CI's tests starting `serve`).
The collected files follow from nothing but each source file the finders find, the storage's code, the
versions of the packages that write them and the settings they read: their digest, written into
STATIC_ROOT once a collection is complete, says that the folder needs nothing more. A changed file,
storage, package or setting gives another digest and collects again; a collection stopped half-way has
no digest written (it is removed before collecting) and is collected again too. The tests collect once
for every run by the same digest (tests/static_cache.py).
"""

import hashlib
from importlib import metadata
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.management import call_command

from tracker.web import static_files

PACKAGES = ("django", "whitenoise", "tdewolff-minify", "brotli", "django-htmx")
# In STATIC_ROOT, beside collectstatic's manifest (ignored by git with the folder).
MARKER = "collected-from.txt"


def digest() -> str:
    """Of everything the collected files follow from (about 10 ms: some 60 small files read)."""
    found = hashlib.sha256(Path(static_files.__file__).read_bytes() + Path(__file__).read_bytes())
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


def _marker(root: Path, made_from: str) -> str:
    """The digest, and the manifest's: a collection an older checkout of the app made over this one (it knows no
    marker) is not taken for it."""
    return f"{made_from} {hashlib.sha256((root / 'staticfiles.json').read_bytes()).hexdigest()[:20]}"


def holds(root: Path, made_from: str) -> bool:
    """`root` holds a whole collection made from the digest `made_from`."""
    try:
        return (root / MARKER).read_text() == _marker(root, made_from)
    except OSError:
        return False


def collect(made_from: str | None = None) -> bool:
    """Collect into STATIC_ROOT unless it holds this source tree's collection; whether it collected."""
    root, made_from = Path(settings.STATIC_ROOT), made_from or digest()
    if holds(root, made_from):
        return False
    (root / MARKER).unlink(missing_ok=True)  # until the collection is whole again
    call_command("collectstatic", interactive=False, verbosity=0)
    (root / MARKER).write_text(_marker(root, made_from))  # cut short, it says no digest
    return True
