"""`python manage.py benchmark` runs and reports every case and goal; timings themselves are not asserted."""

import io
import re

import pytest
from django.conf import settings
from django.core.management import call_command

from tracker.models import Match

# Grouped so that one worker runs the whole module and the short benchmark run the tests share is made
# once; under pytest 9 the group is not applied yet (tracker/scripts/test says why).
pytestmark = [pytest.mark.load, pytest.mark.xdist_group("benchmark")]

CASES = [
    "floor: minimal view (GET /healthz)",
    "live-update poll, nothing changed",
    "apply one action + render its partial (htmx)",
    "match page, finished battle",
    "replay page, finished battle, step 3",
    'catalog search (htmx, "o")',
    "match log, finished battle",
    "match list",
    "reveal a round + undo it (2 POSTs)",
    "long match: action 10 (htmx)",
    "long match: the last action (htmx)",
    "long match: undo at step 10 (htmx)",
    "long match: undo at the last step (htmx)",
    "long match: undo + redo at step 10 (2 POSTs)",
    "long match: undo + redo at the last step",
]

PAGES = ["home (recent matches)", "match list", "match page (Lonely Star)", "match log (Lonely Star)",
         "replay, middle step", "statistics, all games", "statistics, Card Crush", "statistics, Lonely Star",
         "statistics, Evons", "a player's statistics"]


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    return tmp_path_factory.mktemp("bench") / "results.md"


@pytest.fixture(scope="module")
def readme(tmp_path_factory):
    """A README with a benchmark section, standing in for the project's."""
    path = tmp_path_factory.mktemp("bench") / "README.md"
    path.write_text("# Tablekeeper\n\nBefore.\n\n<!-- benchmark table: start -->\nold figures\n"
                    "<!-- benchmark table: end -->\n\nAfter.\n")
    return path


@pytest.fixture(scope="module")
def output(django_db_setup, django_db_blocker, migrated_database, tmp_path_factory, written, readme):
    """One short run for every test here (the command rolls back all it makes), serving the static files this
    session collected (tests/conftest.py) rather than collecting them twice more, its page weight's server on a
    copy of the migrated test database (migrated_database) rather than a file migrated in a process."""
    migrated = tmp_path_factory.mktemp("bench") / "migrated.sqlite3"
    migrated_database(migrated)
    out = io.StringIO()
    with django_db_blocker.unblock():
        call_command("benchmark", rounds=2, long=15, more=3, write=str(written), readme=str(readme),
                     static_root=str(settings.STATIC_ROOT), migrated=str(migrated), stdout=out)
    return out.getvalue()


def test_benchmark_prints_every_case_as_a_ratio_and_leaves_the_database_alone(db, output):
    lines = output.splitlines()
    for case in CASES:
        line = next((line for line in lines if line.strip().startswith(case)), None)
        assert line is not None, f"no line for {case!r} in:\n{output}"
        assert re.search(r"\d+\.\d\d ms\s+x\s*\d+\.\d$", line), line
    assert Match.objects.count() == 0
    assert "Matches stored: 0 (unchanged)" in lines[-1]


def test_benchmark_counts_bytes_of_the_page_and_everything_it_links(output):
    for page in ("Card Crush, battle under way", "LOGOS, new match", "Evons, new match"):
        assert re.search(rf"^  {re.escape(page)}\s+[\d,]+ bytes$", output, re.MULTILINE), page
    transfers = re.findall(r"^  (/\S*)\s+(\d+) \+\s+(\d+) =\s+(\d+) bytes$", output, re.MULTILINE)
    urls = [url for url, *_sizes in transfers]
    assert urls[0].startswith("/matches/"), urls
    for expected in ("/static/css/app.", "/static/favicon.", "/static/django_htmx/htmx", "/static/js/table."):
        assert any(url.startswith(expected) for url in urls), (expected, urls)
    for _url, head, body, total in transfers:
        assert int(head) > 100 and int(head) + int(body) == int(total)
    total = int(re.search(r"^  total\s+([\d,]+) bytes$", output, re.MULTILINE).group(1).replace(",", ""))
    assert total == sum(int(size) for *_rest, size in transfers)
    assert re.search(r"Live-update check, nothing changed: response \d+ bytes", output)
    assert re.search(r"^  \(a browser without Brotli, gzip only: [\d,]+ bytes\)$", output, re.MULTILINE)


def test_benchmark_counts_a_repeat_visit_with_the_service_worker_and_what_installing_it_cost(output):
    # The page itself and the check for a newer worker (a 304 when unchanged); no static file.
    assert re.search(r"^A repeat visit with the service worker's cache \(headers \+ body\): /matches/\d+/ [\d,]+ "
                     r"\+ /sw\.js \d+ = [\d,]+ bytes; every static file comes from the worker's cache$",
                     output, re.MULTILINE)
    assert re.search(r"the service worker installs: [\d,]+ bytes \(its script, \d+ files the page did not load, "
                     r"the offline page\)", output)
    assert re.search(r"4\. repeat visit of that page with the service worker's cache: [\d,]+ bytes", output)


def test_benchmark_compares_query_counts_of_every_page_at_two_sizes(output):
    for page in PAGES:
        assert re.search(rf"^  {re.escape(page)}\s+\d+ ->\s+\d+", output, re.MULTILINE), page
    assert "14-step log" in output  # the long match really was built to --long


def test_benchmark_writes_the_goals_table(output, written):
    written = written.read_text()
    assert written.startswith("# Benchmark results")
    assert "| benchmark | measured | goal | met |" in written
    for goal in ("1. apply one action", "1. queries of one change", "2. actions/s under the load test",
                 "2. the same with htmx phones", "2. p95 of an action POST", "2. the hard AI's reply in a Showdown",
                 "3. action 15 of a long match",
                 "3. undo at step 15 of a long match", "3. undo + redo at step 15", "4. cold load",
                 "4. live-update check", "5. queries per page"):
        assert f"| {goal}" in written, goal
    assert "| not run |" in written  # the load test runs only with --load


def test_benchmark_brings_the_readme_table_up_to_date(output, written, readme):
    text = readme.read_text()
    assert text.startswith("# Tablekeeper\n\nBefore.\n\n<!-- benchmark table: start -->\nLatest run, ")
    assert text.endswith("<!-- benchmark table: end -->\n\nAfter.\n")
    assert "old figures" not in text
    table = [line for line in text.splitlines() if line.startswith("| ")]
    assert table == [line for line in written.read_text().splitlines() if line.startswith("| ")]
    assert f"Full output in `{written}`." in text


def test_benchmark_shows_what_one_change_asks_of_the_database(output):
    # The match row is read once (by the view, for the access check) and written once (the
    # version check); the head, the next number and "can redo" come from that row. An action replacing an undone
    # step marks the old branch abandoned without asking first whether it held a secret entry.
    for change in ("apply one action (htmx)", "undo (htmx)", "an action replacing an undone step (htmx)"):
        assert re.search(rf"^Queries of one change, {re.escape(change)}: \d+ \(match reads 1, match writes 1, "
                         r"MAX over the log 0, exists probes 0\), plus BEGIN and COMMIT:$", output, re.MULTILINE), change
    assert re.search(r"met\s+1\. queries of one change", output)


def test_tables_per_core_charge_each_table_what_it_adds_and_the_server_what_it_costs_alone():
    """Tables per core (perf/propagation.py): the half of a core a server's own running cost leaves, over what a
    table adds (an action every ACTION_EVERY s and two idle phones), the CPU times scaled to a quiet machine's by
    the calibration workload's slowdown in the run; the older scale, in floor requests at the quiet floor, beside
    it. A cut in what every request costs (the floor's CPU) moves the quiet-machine figure only by what it saves."""
    from perf import calibration
    from perf.propagation import ACTION_EVERY, QUIET_FLOOR, Result

    slow = [calibration.QUIET * 2] * 3 + [calibration.QUIET * 9]  # twice as slow as quiet (the median)
    live = Result(tables=50, servers=2, database="PostgreSQL", action_cpu=0.024, alone_cpu=0.004, floor_cpu=0.003,
                  calibration=slow)
    per_table = 0.024 / ACTION_EVERY + 2 * 0.0001
    assert live.tables_per_core(0.0001, live.quiet) == pytest.approx((0.5 - 0.001) / (per_table / 2))
    scale = QUIET_FLOOR / 0.003
    older = live.tables_per_core(0.0001, live.at_quiet_floor)
    assert older == pytest.approx((0.5 - 0.002 * scale) / (per_table * scale))
    assert live.tables_per_core(0.0001) == pytest.approx((0.5 - 0.002) / per_table)
    # Every request 1 ms cheaper, the floor too: more tables on the quiet machine, fewer on the older scale.
    cheaper = Result(tables=50, servers=2, database="PostgreSQL", action_cpu=0.023, alone_cpu=0.004, floor_cpu=0.002,
                     calibration=slow)
    assert cheaper.tables_per_core(0.0001, cheaper.quiet) > live.tables_per_core(0.0001, live.quiet)
    assert cheaper.tables_per_core(0.0001, cheaper.at_quiet_floor) < live.tables_per_core(0.0001, live.at_quiet_floor)
    assert any("on a quiet machine: stream" in line for line in live.lines())
    assert any("the older scale" in line for line in live.lines())
    # The ceiling: an action with its part at one served GET /healthz, the idle phones and the scale as measured.
    live.idle_stream_cpu = 0.0001
    at_floor = 0.003 / ACTION_EVERY + 2 * 0.0001
    assert live.ceiling == pytest.approx((0.5 - 0.001) / (at_floor / 2))
    assert any(f"as cheap as one served GET /healthz: {live.ceiling:,.0f}" in line for line in live.lines())


def test_the_quiet_scale_takes_the_workload_timed_during_the_measured_phases_when_it_was():
    """The workload timed by a thread during the rush and the idle phones (`during`) says how fast the machine ran
    while the servers' CPU was counted; the points between the phases are printed beside it."""
    from perf import calibration
    from perf.propagation import Result

    between, during = [calibration.QUIET * 2] * 5, [calibration.QUIET * 3] * 7
    live = Result(tables=50, servers=2, database="PostgreSQL", action_cpu=0.024, calibration=between, during=during)
    assert live.quiet == pytest.approx(1 / 3)
    assert Result(tables=50, servers=2, database="PostgreSQL", calibration=between).quiet == pytest.approx(1 / 2)
    assert any("timed 7 times during the rush" in line and "between the phases 2.00" in line for line in live.lines())
