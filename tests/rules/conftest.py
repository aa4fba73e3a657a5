import pytest


@pytest.fixture(scope="session")
def collected_static():
    """The engines render no page: no static files to collect (tests/conftest.py collects them for the
    suites that do), so a run of the rules alone starts at once."""
