"""Play many tables at once against gunicorn on loopback, then check nothing was lost or doubled.

Tables take the five games in turn, so five tables or more play every game.

    python manage.py loadtest --tables 50 --workers 4            # on a fresh temporary SQLite file
    DATABASE_URL=postgres://... python manage.py loadtest        # on PostgreSQL
    python manage.py loadtest --crash                             # SIGKILL the server mid-load
    python manage.py loadtest --htmx                              # phones with JavaScript: htmx taps, 2 s poll
    python manage.py loadtest --htmx --pace 3                     # ... each player tapping every 3 s or so
    python manage.py loadtest --htmx --no-shown                   # ... without X-Shown: every part drawn
    DATABASE_URL=postgres://... python manage.py loadtest --servers 2 --crash   # two app servers, one killed
    python manage.py loadtest --htmx --pace 3 --showdown 1        # and a phone against the hard AI, timed

Exits with status 1 when a check fails (see perf/loadtest.py for what is checked).
"""

import os

from django.core.management.base import BaseCommand, CommandError

from perf import loadtest


class Command(BaseCommand):
    help = "Concurrent tables over HTTP against gunicorn; then checks every match and acknowledged action."

    def add_arguments(self, parser):
        parser.add_argument("--tables", type=int, default=50, help="tables at once; they take the five games in turn")
        parser.add_argument("--workers", type=int, default=None,
                            help="worker processes a server (default: as serve, one on SQLite, one a core on PostgreSQL)")
        parser.add_argument("--matches", type=int, default=2, help="matches each table plays, the games in turn")
        parser.add_argument("--seconds", type=float, default=300,
                            help="deadline for the whole load (a Cardmaster match alone is some 50 actions)")
        parser.add_argument("--crash", action="store_true", help="SIGKILL gunicorn mid-load and restart it")
        parser.add_argument("--restart", choices=["HUP", "TERM"], default="",
                            help="a graceful restart mid-load instead: SIGHUP, or SIGTERM and a fresh start")
        parser.add_argument("--wsgi", action="store_true",
                            help="gunicorn's threaded WSGI workers instead of serve's uvicorn workers (to compare)")
        parser.add_argument("--htmx", action="store_true",
                            help="phones with JavaScript: one htmx POST a tap, the #match part back, the 2 s poll")
        parser.add_argument("--pace", type=float, default=0.0,
                            help="seconds a player thinks before each tap, on average (0: as fast as answered)")
        parser.add_argument("--no-shown", dest="shown", action="store_false",
                            help="htmx phones send no X-Shown, so every answer draws every part (to compare)")
        parser.add_argument("--servers", type=int, default=1,
                            help="gunicorn servers on as many loopback ports, one database; tables spread over them")
        parser.add_argument("--showdown", type=int, default=0,
                            help="phones playing hard Showdowns beside the tables, timing the AI's replies")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--floor-seconds", type=float, default=3,
                            help="first time GET /healthz for this long, as the floor (0 to skip)")

    def handle(self, *args, tables, workers, matches, seconds, crash, restart, wsgi, seed, floor_seconds, htmx, pace,
               servers, shown, showdown, **options):
        report = loadtest.run(tables=tables, workers=workers, matches=matches, seconds=seconds, crash=crash,
                              restart=restart, wsgi=wsgi, seed=seed, floor_seconds=floor_seconds, htmx=htmx, pace=pace,
                              servers=servers, shown=shown, showdown=showdown, say=self.stdout.write,
                              database_url=os.environ.get("DATABASE_URL") or None)
        if not report.ok:
            raise CommandError("the load test found problems (above)")
