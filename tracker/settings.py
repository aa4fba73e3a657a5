"""Tablekeeper settings, all read from the environment with safe local defaults.

Production needs: DEBUG=false, SECRET_KEY, ALLOWED_HOSTS, HTTPS=true and usually
DATABASE_URL; `python manage.py check --deploy` is then clean (a test checks it).
"""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if value.lower() in ("1", "true", "yes", "on"):
        return True
    if value.lower() in ("0", "false", "no", "off"):
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}")


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if not value:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    try:
        number = int(value)
    except ValueError:
        number = -1
    if number < 0:
        raise ImproperlyConfigured(f"{name} must be a whole number of 0 or more, not {value!r}")
    return number


DEBUG = env_bool("DEBUG", False)
# The fallback key is for a local run only; `check --deploy` flags it in production.
SECRET_KEY = os.environ.get("SECRET_KEY") or "django-insecure-local-only-tablekeeper"
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

# HTTPS=true behind TLS: redirects, secure cookies and HSTS.
HTTPS = env_bool("HTTPS", False)
SECURE_SSL_REDIRECT = HTTPS
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365 if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SECURE_HSTS_PRELOAD = HTTPS
if env_bool("BEHIND_PROXY", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# How many proxies in front of the app append to X-Forwarded-For; the sign-in limits then take
# the client's address from that header (tracker.people.devices.client_address). 0: the header is ignored.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0)
# Seconds between beats on an idle live stream (tracker/matches/live.py). A phone that hears nothing for
# twice that and 5 s more calls the stream stalled and reopens it (table.js). The browser tests shorten it
# to see a stall in seconds, not in a minute.
LIVE_BEAT_SECONDS = env_int("LIVE_BEAT_SECONDS", 15)
if LIVE_BEAT_SECONDS < 1:
    raise ImproperlyConfigured(f"LIVE_BEAT_SECONDS must be 1 or more, not {LIVE_BEAT_SECONDS}")

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.humanize",  # intcomma: LOGOS damage runs to six digits
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "tracker",
]

MIDDLEWARE = [
    # WhiteNoise answers static files before any header meant for pages is added (security,
    # content policy): every byte counts on a phone's cold load. tracker/web/static_files.py says
    # which headers a static file keeps.
    "tracker.web.static_files.StaticFilesMiddleware",
    # Pages gzipped (static files come compressed from WhiteNoise above): tracker/web/compression.py.
    "tracker.web.compression.PageCompressionMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "tracker.people.devices.DeviceMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # A form's address opened as a page (GET, 405): on to the nearest page above it (form_addresses.py).
    "tracker.web.form_addresses.FormAddressMiddleware",
    # A body larger than any form takes: 413 in the phone's language, before anything reads it (body_limit.py).
    "tracker.web.body_limit.TooLargeMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # A database too busy to answer in time: 503 and Retry-After, nothing changed (tracker/web/busy.py).
    "tracker.web.busy.BusyDatabaseMiddleware",
]

# Django's own form controls drawn in Python, the same HTML without a template per option (tracker/web/widgets.py).
FORM_RENDERER = "tracker.web.widgets.Renderer"

ROOT_URLCONF = "tracker.urls"
WSGI_APPLICATION = "tracker.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            # Our templates reach the phone without their indentation (tracker/web/templating.py).
            "loaders": [("django.template.loaders.cached.Loader", [
                "tracker.web.templating.Loader", "django.template.loaders.app_directories.Loader"])],
            # `{% url %}` reversing each address once per process (tracker/templatetags/reversed.py), and
            # `{% csrf_token %}` drawing its input once per page (tracker/templatetags/csrf_once.py).
            "builtins": ["tracker.templatetags.reversed", "tracker.templatetags.csrf_once"],
            # `{% load i18n %}` loads Django's i18n tags with `translate` and `blocktranslate` looking each message
            # up once per process and language (tracker/templatetags/translated.py).
            "libraries": {"i18n": "tracker.templatetags.translated"},
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "tracker.web.views.theme",
                # After Django's own: `csrf_token` masked with one read of randomness (tracker/web/csrf_mask.py).
                "tracker.web.csrf_mask.csrf",
            ],
        },
    },
]
# templates.W003 warns of a library name two modules answer to: `i18n` above, on purpose. Silenced, every other
# name is still checked by tests/tracker/test_translated.py (`manage.py check --deploy` fails on warnings).
SILENCED_SYSTEM_CHECKS = ["templates.W003"]

# SQLite in WAL mode by default: no set-up, readers never wait for the writer,
# and IMMEDIATE transactions take the write lock up front so two writers queue
# (busy timeout) instead of failing half-way with "database is locked".
SQLITE_OPTIONS = {
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
}
DEFAULT_SQLITE = BASE_DIR / "var" / "tablekeeper.sqlite3"


def database_from_url(url: str) -> dj_database_url.DBConfig:
    """DATABASE_URL read at start: SQLite or PostgreSQL, anything else refused in one line."""
    try:
        database = dj_database_url.parse(url, conn_max_age=0)
    except ValueError:  # dj-database-url's errors; the URL may hold a password, so it is not repeated
        raise ImproperlyConfigured(
            "DATABASE_URL is not a database URL: use sqlite:///path/to/file or "
            "postgres://user:password@host:port/name") from None
    engines = ("django.db.backends.sqlite3", "django.db.backends.postgresql")
    if database["ENGINE"] not in engines or not database["NAME"]:
        raise ImproperlyConfigured(
            "DATABASE_URL must name an SQLite file (sqlite:///…) or a PostgreSQL database (postgres://…/name)")
    return database


DATABASES = {"default": database_from_url(os.environ.get("DATABASE_URL") or f"sqlite:///{DEFAULT_SQLITE}")}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["OPTIONS"] = SQLITE_OPTIONS
    if DATABASES["default"]["NAME"] != ":memory:":
        Path(DATABASES["default"]["NAME"]).parent.mkdir(parents=True, exist_ok=True)
else:
    # Under ASGI each request runs its sync view in a thread of its own, so a persistent
    # connection would be one per request: a pool per worker process shares a few instead. It is closed as the
    # process exits (tracker/apps.py), else its threads held the exit up for 20 s.
    DATABASES["default"]["OPTIONS"] = {"pool": {"min_size": 1, "max_size": 10}}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("de", "Deutsch")]
# The shared catalogue, then each game's own beside its pages (tracker/games/<game>/locale/); a game's messages
# carry its slug as context, so the order never decides a translation. The shared one comes first because
# makemessages (tracker/management/commands/) writes what no other folder claims to the first entry.
# The .po files are committed, the .mo files compiled from them by serve and the tests (tracker/web/translations.py).
LOCALE_PATHS = [BASE_DIR / "tracker" / "locale", *sorted(BASE_DIR.glob("tracker/games/*/locale"))]
# The language switch needs no account: the phone keeps its choice for a year.
LANGUAGE_COOKIE_AGE = 60 * 60 * 24 * 365
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_SECURE = HTTPS
USE_I18N = True
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_TZ = True
# How dates are written per language (tracker/formats/): templates name a format, never spell one out.
FORMAT_MODULE_PATH = "tracker.formats"

STATIC_URL = "static/"
# Where collectstatic puts the files WhiteNoise serves; the load tests' servers share one collected copy.
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Compressed, content-hashed names, our own files without comments (tracker/web/static_files.py;
    # run collectstatic); DEBUG serves the originals.
    "staticfiles": {"BACKEND": "tracker.web.static_files.StaticFilesStorage"},
}

# Only our own pages (and their service worker, same origin) use the static files: no CORS header,
# 32 bytes less on every file a phone loads.
WHITENOISE_ALLOW_ALL_ORIGINS = False

# In the database, so every app server (several gunicorn workers on PostgreSQL) shares it: the limits
# (tracker/web/limits.py), one-time form tokens (tracker/matches/once.py). LocMem would give each worker its own
# counts, a file cache would need a shared disk. Migration 0004 makes its table. Our subclass counts
# atomically and keeps a count's expiry (tracker/web/counting_cache.py). Culling deletes a third of the
# entries once there are more than MAX_ENTRIES: high, so a flood of new keys cannot wipe the counts.
CACHES = {"default": {"BACKEND": "tracker.web.counting_cache.DatabaseCache", "LOCATION": "tracker_cache",
                      "OPTIONS": {"MAX_ENTRIES": 100_000}}}

CSRF_FAILURE_VIEW = "tracker.matches.views.csrf_failure"
LOGIN_URL = "sign_in"
# Messages ride in a signed cookie from the redirect to the page that shows them, so drawing a
# match page (every tap's answer) asks the database nothing about them; only a message too large
# for a cookie falls back to the session.
MESSAGE_STORAGE = "django.contrib.messages.storage.fallback.FallbackStorage"
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

# Content Security Policy: only our own scripts, styles and images (QR codes and charts are
# inline SVG elements, not data URLs); no inline script or style, no eval.
# Scripts, styles, images, connections (the live stream, the poll) and the rest fall back to
# default-src: naming each again as 'self' would change nothing and cost 73 bytes on every page.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "object-src": [CSP.NONE],
}

# Card Crush competition: K, tournament weight and the upgrade table override the documented
# defaults (keys and defaults: tracker/competition/config.py).
CARD_CRUSH_COMPETITION: dict = {}

# --- Serving: logs and errors (tracker/web/server.py runs gunicorn; its own log lines go the same way) ---
# Every log line to standard error, and to LOG_FILE as well when it is set; a server error's
# traceback is logged by django.request at ERROR. ADMINS ("ana@example.org, …") are mailed
# each one too, through Django's default mailer (a mail server on this machine, port 25).
LOG_FILE = os.environ.get("LOG_FILE", "")
# Where `manage.py backup` (and serve, before it migrates existing data) writes by default.
BACKUP_DIR = Path(os.environ.get("BACKUP_DIR") or BASE_DIR / "var" / "backups")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
LOG_LEVEL = os.environ.get("LOG_LEVEL", "INFO").upper()
if LOG_LEVEL not in LOG_LEVELS:
    raise ImproperlyConfigured(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {LOG_LEVEL!r}")
ADMINS = env_list("ADMINS", [])
SERVER_EMAIL = os.environ.get("SERVER_EMAIL", "tablekeeper@localhost")
LOG_HANDLERS = ["stderr", *(["file"] if LOG_FILE else []), *(["mail_admins"] if ADMINS else [])]
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"line": {"format": "%(asctime)s [%(process)d] [%(levelname)s] %(name)s: %(message)s"}},
    "handlers": {
        "stderr": {"class": "logging.StreamHandler", "formatter": "line"},
        **({"file": {"class": "logging.handlers.WatchedFileHandler", "filename": LOG_FILE, "formatter": "line"}}
           if LOG_FILE else {}),
        "mail_admins": {"class": "django.utils.log.AdminEmailHandler", "level": "ERROR"},
    },
    "root": {"handlers": LOG_HANDLERS, "level": LOG_LEVEL},
    # Django's own default sends these to the console only under DEBUG; here they reach the root.
    "loggers": {"django": {"level": LOG_LEVEL, "propagate": True}},
}

# --- HTTPS at the table (`serve --https`: Caddy in front, with a certificate authority of its own) ---
# serve sets these: the authority's root certificate phones download from /trust/, the page's
# plain-HTTP address (its QR code) and the app's HTTPS address. Empty: /trust/ says HTTPS is off.
CA_CERTIFICATE = os.environ.get("CA_CERTIFICATE", "")
TRUST_URL = os.environ.get("TRUST_URL", "")
HTTPS_URL = os.environ.get("HTTPS_URL", "")
# A phone that does not trust the authority yet reaches these over plain HTTP.
SECURE_REDIRECT_EXEMPT = [r"^trust/"]
