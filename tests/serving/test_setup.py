"""Setting up never changes a tracked file: the venv step of tracker/scripts/serve and
tracker/scripts/test (setup), and serve's own preparation (translations compiled into the
ignored .mo, migrations, demo data, static files)."""

import os
import subprocess
import sys
from pathlib import Path

from tests import static_cache
from tracker.web import static_collection

ROOT = Path(__file__).resolve().parents[2]


def git_status() -> str:
    return subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout


def test_setting_up_for_serve_and_for_the_tests_changes_no_tracked_file(tmp_path):
    before = git_status()
    for po in (ROOT / "tracker" / "locale").glob("*/LC_MESSAGES/*.po"):
        os.utime(po)  # newer than its .mo: the catalogue is compiled again
    for extra in ("", "test"):
        subprocess.run(["bash", "-c", f'source tracker/scripts/setup {extra}'], cwd=ROOT, check=True, timeout=600)
    environ = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "ADDRESS": "127.0.0.1:0",
               "SECRET_KEY": "setup-" + "0123456789abcdef" * 4, **static_cache.copy_for_serve(tmp_path)}
    environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    subprocess.run([sys.executable, "manage.py", "serve", "--prepare-only"], cwd=ROOT, env=environ, check=True,
                   capture_output=True, timeout=600)
    assert git_status() == before
    # In the default STATIC_ROOT too, what serve writes (the files, the digest they follow from) is ignored.
    marker = f"staticfiles/{static_collection.MARKER}"
    assert subprocess.run(["git", "check-ignore", "-q", "--no-index", marker], cwd=ROOT).returncode == 0


def test_serve_collects_the_static_files_again_only_when_what_they_follow_from_changed(tmp_path, settings,
                                                                                         monkeypatch):
    """`serve` collected at every start (4 s of CPU) when nothing had changed (tracker/web/static_collection.py)."""
    collecting: list[Path] = []
    monkeypatch.setattr(static_collection, "call_command",
                        lambda *args, **options: collecting.append(Path(settings.STATIC_ROOT)))
    settings.STATIC_ROOT = Path(static_cache.copy_for_serve(tmp_path)["STATIC_ROOT"])
    marker = settings.STATIC_ROOT / static_collection.MARKER
    assert not static_collection.collect() and not collecting  # a whole collection of this source tree
    (tmp_path / "more").mkdir()
    (tmp_path / "more" / "new.css").write_text("p{}")
    settings.STATICFILES_DIRS = [*settings.STATICFILES_DIRS, tmp_path / "more"]  # a source file more
    assert static_collection.collect() and collecting == [settings.STATIC_ROOT]
    assert marker.read_text().startswith(static_collection.digest())  # written once the collection was whole
    assert not static_collection.collect()
    manifest = settings.STATIC_ROOT / "staticfiles.json"
    manifest.write_text(manifest.read_text().replace("css/app.", "css/app.0"))  # an older app collected over it
    assert static_collection.collect() and len(collecting) == 2
    assert not static_collection.collect()
    marker.write_text(marker.read_text()[:7])  # cut short: a start stopped while it collected, or another tree
    assert static_collection.collect() and len(collecting) == 3
    marker.unlink()
    assert static_collection.collect() and len(collecting) == 4
