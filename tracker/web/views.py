"""The app around the pages: installing Tablekeeper on a phone and the phone's own settings.

- The web app manifest and the service worker (served at the site's root so it controls every
  page). The worker keeps the static files and an offline page; pages themselves always come
  from the network, so a match is never shown stale as if it were current.
- Theme (system, light, dark) and language, remembered by the phone in cookies, no account
  needed; both switches are plain forms on one settings page (linked from every page's footer)
  that work without JavaScript.
"""

import hashlib
import json
from functools import cache
from pathlib import Path
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.contrib.staticfiles import finders
from django.http import HttpResponse
from django.middleware.gzip import GZipMiddleware
from django.shortcuts import render
from django.template.loader import get_template, render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.decorators import decorator_from_middleware
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views import i18n
from django.views.decorators.cache import never_cache
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.csp import csp_override
from django.views.decorators.http import require_GET, require_POST

from tracker.people.devices import TableRequest
from tracker.people.sharing import qr_svg
from tracker.web.next_page import back_to, local_path, next_page

THEMES = ("system", "light", "dark")
THEME_COOKIE = "tk_theme"
THEME_COOKIE_AGE = 60 * 60 * 24 * 365
# What {% htmx_script %} links (django-htmx's minified htmx 2); our own files are found below.
HTMX = "django_htmx/htmx-2.min.js"
# Templates whose text or look ends up in the cached offline page or the worker itself.
SHELL_TEMPLATES = ("base.html", "tracker/offline.html", "tracker/service_worker.js")


def theme(request: TableRequest) -> dict:
    """Context processor: the phone's theme; "system" follows the phone's light or dark setting."""
    chosen = request.COOKIES.get(THEME_COOKIE, "")
    return {"theme": chosen if chosen in THEMES else "system"}


def _came_from(request: TableRequest) -> str:
    """The page of ours the player opened the settings from (its Referer), to go back to after a switch."""
    referer = request.headers.get("Referer", "")
    if url_has_allowed_host_and_scheme(referer, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        parts = urlsplit(referer)
        if parts.path != reverse("settings"):
            return local_path(parts.path + (f"?{parts.query}" if parts.query else ""), request) or reverse("home")
    return reverse("home")


@require_GET
def settings_page(request: TableRequest) -> HttpResponse:
    """Theme and language: one tap each, and back to the page the player came from."""
    themes = [("system", _("System")), ("light", _("Light")), ("dark", _("Dark"))]
    return render(request, "tracker/settings.html", {"themes": themes, "back": _came_from(request)})


def _back(request: TableRequest) -> str:
    """Where a settings form came from (its `next`), if that is a page of ours; else home."""
    return next_page(request, reverse("home"))


def _refused(request: TableRequest, message: str) -> HttpResponse:
    return render(request, "tracker/setting_refused.html", {"message": message, "back": _back(request)}, status=400)


@require_POST
def set_theme(request: TableRequest) -> HttpResponse:
    """Switch between following the phone (system), light and dark; nothing else is accepted."""
    chosen = request.POST.get("theme", "")
    if chosen not in THEMES:
        return _refused(request, _("Tablekeeper has no theme “%(value)s”; the themes are system, light and "
                                   "dark. Nothing was changed.") % {"value": chosen[:40]})
    response = back_to(request, reverse("home"))
    if chosen == "system":
        response.delete_cookie(THEME_COOKIE, samesite="Lax")
    else:
        # Readable by table.js too, so the cached offline page can take the same theme.
        response.set_cookie(THEME_COOKIE, chosen, max_age=THEME_COOKIE_AGE, samesite="Lax",
                            secure=settings.SESSION_COOKIE_SECURE)
    return response


@require_POST
def set_language(request: TableRequest) -> HttpResponse:
    """Django's language switch, but a language we do not have is refused plainly.

    (Django's own view would quietly redirect and leave the language as it was.)
    """
    code = request.POST.get("language", "")
    if code not in dict(settings.LANGUAGES):
        names = ", ".join(name for _code, name in settings.LANGUAGES)
        return _refused(request, _("Tablekeeper has no language “%(code)s”; it speaks %(names)s. Nothing was changed.")
                        % {"code": code[:20], "names": names})
    # Django's switch sets the language cookie; where it goes is only ours to decide (it follows any `next` its
    # host check lets through, "x": a path relative to the switch), and no URL here carries the language.
    response = back_to(request, _came_from(request))
    response.cookies.update(i18n.set_language(request).cookies)
    return response


@never_cache  # the worker fetches it again after a language switch: never an old copy
@require_GET
def offline(request: TableRequest) -> HttpResponse:
    """The page the service worker shows when a page cannot be reached; it is cached at install.

    Drawn for no account: the worker keeps it in the phone's cache, which signing out does not clear (its
    `Clear-Site-Data: "cache"` is the browser's cache of pages), so a shared phone kept the last account's name."""
    return render(request, "tracker/offline.html", {"user": AnonymousUser()})


def _precached_names() -> list[str]:
    """Every stylesheet, script and the favicon: what the pages link, small enough to keep all.

    The PNG icons are left out: only the phone's installer asks for them, once.
    """
    names = {HTMX}
    for finder in finders.get_finders():
        for path, _storage in finder.list(ignore_patterns=[]):
            if path.startswith(("css/", "js/")) and path.endswith((".css", ".js")) or path == "favicon.svg":
                names.add(path)
    return sorted(names)


def _worker_config() -> dict:
    """The worker's precache list and a version that changes whenever anything it caches does.

    The version hashes the files' bytes (not only their hashed names, which DEBUG does not use),
    the templates of the shell and the compiled translations, so a deploy that changes any of
    them installs a new worker, which replaces the old cache.
    """
    names = _precached_names()
    digest = hashlib.sha256()
    for name in names:
        digest.update(name.encode())
        path = finders.find(name)
        if not isinstance(path, str):
            raise LookupError(f"{name} is not among the static files")
        with open(path, "rb") as file:
            digest.update(file.read())
    for name in SHELL_TEMPLATES:
        digest.update(get_template(name).template.source.encode())  # type: ignore[attr-defined]  # Django's own engine
    for locale in settings.LOCALE_PATHS:
        for catalog in sorted(locale.glob("*/LC_MESSAGES/django.mo")):
            digest.update(catalog.read_bytes())
    return {"version": digest.hexdigest()[:16], "precache": [static(name) for name in names]}


_cached_worker_config = cache(_worker_config)


@require_GET
def service_worker(request: TableRequest) -> HttpResponse:
    """The service worker script, at the root so its scope is the whole site.

    Its cache is named after the version of what it keeps, so a deploy replaces it. The script
    itself speaks the phone's language (its last-resort message), hence the language in the ETag.
    """
    config = _worker_config() if settings.DEBUG else _cached_worker_config()
    etag = f'"{config["version"]}-{get_language()}"'
    # Browsers check for a new worker on every visit; an unchanged one costs a 304.
    response = get_conditional_response(request, etag=etag)
    if response is None:
        context = {
            "version": config["version"],
            "precache": json.dumps(config["precache"]),
            "offline_url": reverse("offline"),
            "static_url": settings.STATIC_URL,  # with the script prefix, as Django gives it
        }
        response = HttpResponse(render_to_string("tracker/service_worker.js", context, request),
                                content_type="text/javascript; charset=utf-8")
    response["ETag"] = etag
    patch_cache_control(response, no_cache=True)
    patch_vary_headers(response, ["Cookie"])
    return response


class _UnpaddedGZip(GZipMiddleware):
    # Django pads compressed responses by up to 100 random bytes against BREACH, which guesses
    # secrets in a page from its compressed size; the manifest holds no secret.
    max_random_bytes = 0


# Not a page: a content policy or framing rule would govern nothing here (as for the live poll).
# Compressed (no secret in it), as the static files are.
@decorator_from_middleware(_UnpaddedGZip)
@csp_override({})
@xframe_options_exempt
@require_GET
def web_manifest(request: TableRequest) -> HttpResponse:
    """What a phone needs to install Tablekeeper as an app: names, icons, colours, where it starts."""
    home = reverse("home")
    icon = {"type": "image/png"}
    manifest = {
        "name": "Tablekeeper",
        "short_name": "Tablekeeper",
        "description": _("The phone beside a physical card game: rules, state, hot-seat and match logs."),
        "lang": get_language(),
        "id": home,
        "start_url": home,
        "scope": home,
        "display": "standalone",
        "background_color": "#f7f6f2",
        "theme_color": "#1f5fbf",
        "icons": [
            {**icon, "src": static("icons/icon-192.png"), "sizes": "192x192", "purpose": "any"},
            {**icon, "src": static("icons/icon-512.png"), "sizes": "512x512", "purpose": "any"},
            {**icon, "src": static("icons/maskable-512.png"), "sizes": "512x512", "purpose": "maskable"},
        ],
    }
    response = HttpResponse(json.dumps(manifest, ensure_ascii=False), content_type="application/manifest+json")
    patch_cache_control(response, max_age=60 * 60 * 24)
    patch_vary_headers(response, ["Cookie"])  # the language cookie picks the description's language
    return response


# --- HTTPS at the table: trusting the certificate authority of `serve --https` -------------------
# Caddy, in front of the app, signs its certificates with an authority of its own made on this
# machine (docs/club-night.md). A phone trusts it once; then install, the offline page and the
# wake lock work over HTTPS. These two answer over plain HTTP too (Caddy's HTTP port passes only
# them on; settings.SECURE_REDIRECT_EXEMPT), as a phone cannot open HTTPS before it trusts it.

@require_GET
def trust_page(request: TableRequest) -> HttpResponse:
    """How each phone trusts this table's certificate authority, with its download and a QR code."""
    running = bool(settings.CA_CERTIFICATE)
    here = request.build_absolute_uri(reverse("trust_page"))
    context = {"running": running, "qr": qr_svg(settings.TRUST_URL or here) if running else "",
               "https_url": settings.HTTPS_URL}
    return render(request, "tracker/trust.html", context, status=200 if running else 404)


@require_GET
def trust_certificate(request: TableRequest) -> HttpResponse:
    """Caddy's root certificate (public), as the file type phones offer to install."""
    try:
        pem = Path(settings.CA_CERTIFICATE).read_bytes() if settings.CA_CERTIFICATE else b""
    except OSError:
        pem = b""
    if not pem:
        return render(request, "tracker/trust.html", {"running": False}, status=404)
    response = HttpResponse(pem, content_type="application/x-x509-ca-cert")
    response["Content-Disposition"] = 'attachment; filename="tablekeeper-table.crt"'
    return response
