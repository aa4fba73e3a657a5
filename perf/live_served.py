"""The stream's side of a live action, served: one app server on PostgreSQL, each table's two phones on it.

    tracker/scripts/with-postgres .venv/bin/python perf/live_served.py [--tables 20] [--phases noop,taps,nostream]

Seats `--tables` tables as the live benchmark does (perf/propagation.py: a tapping phone, the other phone holding the
match's stream from its match page), all on one server, and prints the server's CPU (master and worker, /proc):

- noop: a notice that changes nothing (`pg_notify` sent by hand for each watched match, 2 x tables a second for
  10 s): the listener's wake, the change's read and the streams' wake, with no event;
- taps: a tap a second a table, 8 each, the other phone's part pushed: per tap, and the requests the server's log
  shows meanwhile (the other phone fetching nothing but its stream);
- nostream: the same taps once the streams are closed.

Taps with the stream less taps without is the stream's side of a change; compare it with perf/live_profile.py's
`read_change` and `draw_part` run right after (`--spaced 0.05`), as this machine's speed moves from hour to hour.
"""

import argparse
import collections
import os
import re
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tracker.settings")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--phases", default="noop,taps,nostream")
    args = parser.parse_args()
    import django

    django.setup()
    import psycopg

    from perf import loadtest, propagation
    from tracker.matches.live import CHANNEL

    url, phases = os.environ["DATABASE_URL"], args.phases.split(",")
    report = loadtest.Report(tables=args.tables, workers=1, seconds=600, htmx=True, servers=1)
    lock = threading.Lock()
    with loadtest.fresh(url, None, "live-served-", print) as (folder, database, env):
        log = Path(folder) / "server.log"
        server = loadtest.Server(env, loadtest.free_port(), 1, log)
        server.start()
        try:
            tappers, watchers = propagation._seat_tables(args.tables, lambda n: (server.port, [server.port]), report,
                                                         lock, time.monotonic() + 600)
            time.sleep(2)
            cpu = server.cpu()
            time.sleep(5)
            alone = (server.cpu() - cpu) / 5
            if "noop" in phases:
                with psycopg.connect(database, autocommit=True) as notifying:
                    count, cpu, start = 0, server.cpu(), time.monotonic()
                    while time.monotonic() - start < 10:
                        for _tapper, match in tappers:
                            notifying.execute("SELECT pg_notify(%s, %s)", [CHANNEL, f"{match}::"])
                            count += 1
                            time.sleep(1 / (2 * args.tables))
                    used = server.cpu() - cpu - alone * (time.monotonic() - start)
                print(f"a notice that changes nothing: {used / count * 1000:.2f} ms over {count}")
            if "taps" in phases:
                before = len(log.read_text().splitlines())
                _samples, _lost, per = propagation._taps([server], tappers, watchers, 8, 1.0, lock)
                asked = collections.Counter(
                    re.sub(r"/\d+/", "/N/", found.group(1)) for line in log.read_text().splitlines()[before:]
                    if (found := re.search(r'"((?:GET|POST) \S+)', line)))
                print(f"a tap, the stream open: {per * 1000:.2f} ms; requests meanwhile {dict(asked)}")
            if "nostream" in phases:
                for watcher in watchers:
                    watcher.close()
                time.sleep(1)
                _samples, _lost, per = propagation._taps([server], tappers, watchers, 8, 1.0, lock)
                print(f"a tap, no stream: {per * 1000:.2f} ms")
        finally:
            server.stop()


if __name__ == "__main__":
    main()
