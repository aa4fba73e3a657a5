"""The app's settings with perf/cpu_by_kind.py's middleware outermost: for a measured load run only."""

from tracker.settings import *  # noqa: F403
from tracker.settings import MIDDLEWARE as _APP

MIDDLEWARE = ["perf.cpu_by_kind.Middleware", *_APP]
