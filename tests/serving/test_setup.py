"""Setting up never changes a tracked file: the venv step of tracker/scripts/serve and
tracker/scripts/test (setup), and serve's own preparation (translations compiled into the
ignored .mo, migrations, demo data, static files)."""

import os
import subprocess
import sys
from pathlib import Path

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
               "SECRET_KEY": "setup-" + "0123456789abcdef" * 4}
    environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    subprocess.run([sys.executable, "manage.py", "serve", "--prepare-only"], cwd=ROOT, env=environ, check=True,
                   capture_output=True, timeout=600)
    assert git_status() == before
