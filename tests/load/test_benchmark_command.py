"""`python manage.py benchmark` runs and reports every case; timings themselves are not asserted."""

import io
import re

import pytest
from django.core.management import call_command

from tracker.models import Match

pytestmark = pytest.mark.load

CASES = [
    "floor: minimal view (GET /healthz)",
    "live-update poll, nothing changed",
    "match page, finished battle",
    "replay page, finished battle, step 3",
    'catalog search (htmx, "o")',
    "match log, finished battle",
    "match list",
    "reveal a round + undo it (2 POSTs)",
]


def test_benchmark_prints_every_case_as_a_ratio_and_leaves_the_database_alone(db):
    out = io.StringIO()
    call_command("benchmark", rounds=2, stdout=out)
    lines = out.getvalue().splitlines()
    for case in CASES:
        line = next((line for line in lines if line.strip().startswith(case)), None)
        assert line is not None, f"no line for {case!r} in:\n{out.getvalue()}"
        assert re.search(r"\d+\.\d\d ms\s+x\s*\d+\.\d$", line), line
    assert Match.objects.count() == 0
    assert "Matches stored: 0 (unchanged)" in lines[-1]
