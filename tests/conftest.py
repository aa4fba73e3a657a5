import pytest
from django.conf import settings
from django.core.management import call_command

from tracker.web import translations


def pytest_configure(config):
    """The German catalogue compiled (git-ignored .mo) before any test reads it: a plain pytest
    in a fresh clone works, and running the tests never changes a tracked file."""
    translations.compile_catalogues()


@pytest.fixture(scope="session", autouse=True)
def collected_static(tmp_path_factory):
    """Hashed static names need a manifest, as in production: collect once per run.

    Into a folder of this run's own, so test runs side by side never write over each other.
    """
    settings.STATIC_ROOT = tmp_path_factory.mktemp("static")
    call_command("collectstatic", "--noinput", verbosity=0)
