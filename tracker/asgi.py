"""The ASGI application every route is served by (gunicorn with uvicorn workers: tracker/web/server.py)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tracker.settings")
application = get_asgi_application()
