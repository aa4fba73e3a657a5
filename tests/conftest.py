import pytest
from django.core.management import call_command


@pytest.fixture(scope="session", autouse=True)
def collected_static():
    """Hashed static names need a manifest, as in production: collect once per run."""
    call_command("collectstatic", "--noinput", verbosity=0)
