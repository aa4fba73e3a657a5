"""`python manage.py benchmark`: the speed figures as ratios to a minimal view (perf/benchmark.py)."""

from django.conf import settings
from django.core.management.base import BaseCommand

from perf import benchmark, worst


class Command(BaseCommand):
    help = "Benchmarks: times as ratios to a minimal view, bytes, queries, and the load test."

    def add_arguments(self, parser):
        parser.add_argument("--rounds", type=int, default=100, help="timed requests per case")
        parser.add_argument("--long", type=int, default=1000, help="length of the long match's log (goal 3)")
        parser.add_argument("--more", type=int, default=30, help="goal 5: extra Card Crush battles "
                            "(and a third as many Lonely Star and Evons matches)")
        parser.add_argument("--load", action="store_true", help="also run the gunicorn load test (goal 2)")
        parser.add_argument("--tables", type=int, default=50, help="load test: tables at once")
        parser.add_argument("--workers", type=int, default=4, help="load test: gunicorn workers")
        parser.add_argument("--load-seconds", type=float, default=120, help="load test: deadline")
        parser.add_argument("--write", metavar="PATH", help="also write the results as Markdown to PATH, and "
                            "bring the goals table in --readme up to date")
        parser.add_argument("--readme", metavar="PATH", default=str(settings.BASE_DIR / "README.md"),
                            help="the README whose benchmark table --write replaces (default: the project's)")
        parser.add_argument("--live", action="store_true",
                            help="also run the live tables (goal 6): propagation, idle cost, tables per core; two "
                            "app servers when DATABASE_URL is PostgreSQL, one on SQLite")
        parser.add_argument("--live-database", metavar="URL", default=None,
                            help="the live tables' database (default: DATABASE_URL; PostgreSQL gives two app servers)")
        parser.add_argument("--worst", action="store_true",
                            help="only the costliest single requests within the limits, in CPU seconds (perf/worst.py)")
        parser.add_argument("--pace", type=float, default=3.0,
                            help="load test: seconds each htmx player thinks before a tap, in the latency run")
        parser.add_argument("--static-root", metavar="PATH", default=None,
                            help="static files collected already with this project's settings (the tests' copy): "
                            "served as they are instead of collected again")
        parser.add_argument("--migrated", metavar="PATH", default=None,
                            help="an SQLite file migrated to this version already (the tests' copy): the page "
                            "weight's server starts from a copy of it instead of migrating a new one")

    def handle(self, *args, **options):
        if options["worst"]:
            worst.run(say=self.stdout.write)
            return
        benchmark.run(say=self.stdout.write, **{key: options[key] for key in (
            "rounds", "long", "more", "load", "tables", "workers", "load_seconds", "write", "readme", "pace", "live",
            "live_database", "static_root", "migrated")})
