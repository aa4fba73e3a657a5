import pytest
from django.conf import settings
from django.core.management import call_command


@pytest.fixture(scope="session", autouse=True)
def collected_static(tmp_path_factory):
    """Hashed static names need a manifest, as in production: collect once per run.

    Into a folder of this run's own, so test runs side by side never write over each other.
    """
    settings.STATIC_ROOT = tmp_path_factory.mktemp("static")
    call_command("collectstatic", "--noinput", verbosity=0)
