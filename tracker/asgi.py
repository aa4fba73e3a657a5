"""The ASGI application every route is served by (gunicorn with uvicorn workers: tracker/web/server.py).

ASGI because a phone with a match open holds one stream of live updates (tracker/matches/live.py),
which a sync worker could only hold by tying up a whole thread; the pages are sync views, which
Django runs in a thread per request.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tracker.settings")
django_application = get_asgi_application()

from tracker.web.body_limit import bounded  # noqa: E402  (after Django is set up)

application = bounded(django_application)
