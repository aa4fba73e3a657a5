"""The app around the pages: manifest, service worker, offline page, theme and language switches."""

import json
import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from tracker.web import views as app_shell

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return response.content.decode()


# --- installable ---------------------------------------------------------------------------------


def test_it_links_the_manifest_and_the_script_that_installs_the_worker(client: Client):
    page = text(client.get("/"))
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert re.search(r'<script src="/static/js/table\.[0-9a-f]+\.js" data-worker="/sw\.js"', page)


def test_it_describes_the_app_for_installing(client: Client):
    response = client.get(reverse("web_manifest"))
    assert response["Content-Type"] == "application/manifest+json"
    # Not a document: the headers that govern one are left out (tracker/web/compression.py); a page keeps them.
    assert "Referrer-Policy" not in response and "Cross-Origin-Opener-Policy" not in response
    page = client.get("/")
    assert page["Referrer-Policy"] == "same-origin" and page["Cross-Origin-Opener-Policy"] == "same-origin"
    manifest = json.loads(response.content)
    assert manifest["name"] == manifest["short_name"] == "Tablekeeper"
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == ("/", "/", "standalone")
    assert manifest["theme_color"] and manifest["background_color"]
    sizes = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    assert sizes == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    for icon in manifest["icons"]:
        image = client.get(icon["src"])
        assert image.status_code == 200
        body = b"".join(image.streaming_content)
        assert body[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = int.from_bytes(body[16:20]), int.from_bytes(body[20:24])
        assert f"{width}x{height}" == icon["sizes"]


def test_the_worker_controls_the_whole_site_and_keeps_every_static_file(client: Client):
    response = client.get(reverse("service_worker"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    script = text(response)
    precache = json.loads(re.search(r"const PRECACHE = (\[.*\]);", script).group(1))
    page = text(client.get("/"))
    # Every stylesheet and script a page links is kept, by its content-hashed name.
    for linked in re.findall(r'(?:href|src)="(/static/[^"]+\.(?:css|js|svg))"', page):
        assert linked in precache
    assert any(re.fullmatch(r"/static/css/games/evons\.[0-9a-f]+\.css", url) for url in precache)
    assert not any(url.endswith(".png") for url in precache)
    assert 'const OFFLINE = "/offline/"' in script


def test_an_unchanged_worker_costs_a_304(client: Client):
    first = client.get(reverse("service_worker"))
    again = client.get(reverse("service_worker"), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    assert again.content == b""


def test_a_deploy_that_changes_a_cached_file_brings_a_new_worker(client: Client, monkeypatch, tmp_path):
    def version() -> str:
        app_shell._cached_worker_config.cache_clear()
        return re.search(r'const CACHE = "tablekeeper-([^"]+)"', text(client.get(reverse("service_worker")))).group(1)

    before = version()
    real_find = app_shell.finders.find
    edited = tmp_path / "app.css"
    edited.write_bytes(Path(real_find("css/app.css")).read_bytes() + b"\n.new-rule { color: red; }\n")
    monkeypatch.setattr(app_shell.finders, "find",
                        lambda name, *args, **kwargs: str(edited) if name == "css/app.css" else real_find(name))
    try:
        assert version() != before
    finally:
        monkeypatch.undo()
        app_shell._cached_worker_config.cache_clear()
    assert version() == before


def test_the_worker_speaks_the_phone_s_language(client: Client):
    english = client.get(reverse("service_worker"))
    client.post(reverse("set_language"), {"language": "de"})
    german = client.get(reverse("service_worker"), HTTP_IF_NONE_MATCH=english["ETag"])
    assert german.status_code == 200
    assert "Du bist offline" in text(german)
    # Its cache is the same: a language is no reason to fetch the static files again.
    cache_name = re.compile(r'const CACHE = "([^"]+)"')
    assert cache_name.search(text(english)).group(1) == cache_name.search(text(german)).group(1)


def test_the_offline_page_says_what_happened_and_offers_a_retry(client: Client):
    response = client.get(reverse("offline"))
    assert response.status_code == 200
    page = text(response)
    assert "<h1>No connection</h1>" in page
    assert "Nothing is lost" in page
    assert "data-offline-page" in page
    assert "/settings/" not in page  # nothing that could not be reached while offline


@pytest.mark.django_db
def test_the_offline_page_the_worker_keeps_names_no_account(client: Client, django_user_model):
    """The worker keeps the offline page in the phone's cache, fetched with the phone's cookies, and signing out
    clears the browser's cache of pages but not the worker's (round 35): on a store's shared tablet, the next player
    offline read the last account's name in its top bar. It is drawn for no account, the same for everyone."""
    django_user_model.objects.create_user("ana-on-the-tablet", password="tablekeeper-demo")
    anonymous = text(client.get(reverse("offline")))
    client.login(username="ana-on-the-tablet", password="tablekeeper-demo")
    page = text(client.get(reverse("offline")))
    assert "ana-on-the-tablet"[:9] not in page and "/accounts/password/" not in page
    csrf = re.compile(r'"x-csrftoken": "[^"]*"')
    assert csrf.sub("", page) == csrf.sub("", anonymous)


# --- theme ---------------------------------------------------------------------------------------


def test_every_page_links_the_settings_and_names_the_other_language_in_its_own(client: Client):
    page = text(client.get("/"))
    # The footer's words are split over template lines (none over 160 characters): whitespace between them is free.
    assert re.search(r'<footer class="site-foot"><a href="/settings/">[^<]*<span aria-hidden="true">⚙</span>\s*'
                     r'Theme and language\s+· <span lang="de">Deutsch</span>\s*</a>', page)
    client.post(reverse("set_language"), {"language": "de"})
    assert '<span lang="en">English</span>' in text(client.get("/"))


def test_it_follows_the_system_theme_by_default(client: Client):
    page = text(client.get("/"))
    assert "<html lang=\"en\">" in page
    assert '<meta name="color-scheme" content="light dark">' in page
    settings = text(client.get(reverse("settings")))
    assert '<button class="button" name="theme" value="system" aria-pressed="true">' in settings


def test_the_settings_take_the_player_back_where_they_came_from(client: Client):
    page = text(client.get(reverse("settings"), HTTP_REFERER="http://testserver/stats/?game=evons"))
    assert page.count('<input type="hidden" name="next" value="/stats/?game=evons">') == 2
    assert '<a href="/stats/?game=evons">← Back</a>' in page
    # Anywhere else (another site, no Referer, the settings page itself): home.
    for referer in ["https://elsewhere.example/stats/", "", "http://testserver/settings/"]:
        page = text(client.get(reverse("settings"), HTTP_REFERER=referer))
        assert page.count('name="next" value="/"') == 2, referer


@pytest.mark.parametrize("chosen", ["light", "dark"])
def test_a_chosen_theme_is_remembered_and_set_on_the_html_element(client: Client, chosen):
    response = client.post(reverse("set_theme"), {"theme": chosen, "next": "/stats/"})
    assert response.status_code == 302
    assert response["Location"] == "/stats/"
    assert response.cookies["tk_theme"].value == chosen
    assert response.cookies["tk_theme"]["max-age"] == app_shell.THEME_COOKIE_AGE
    page = text(client.get("/"))
    assert f'<html lang="en" data-theme="{chosen}">' in page
    assert f'<meta name="color-scheme" content="{chosen}">' in page
    assert f'value="{chosen}" aria-pressed="true"' in text(client.get(reverse("settings")))


def test_phones_in_other_languages_and_themes_each_get_their_own_head_menu_and_footer():
    """The parts every page shares are drawn once per language and theme, never handed to the wrong phone."""
    english, german, dark = Client(), Client(), Client()
    german.post(reverse("set_language"), {"language": "de"})
    dark.post(reverse("set_theme"), {"theme": "dark"})
    for _round in range(2):
        page = text(english.get("/"))
        assert '<meta name="color-scheme" content="light dark">' in page and ">Matches</a>" in page
        assert '<span lang="de">Deutsch</span>' in page
        page = text(german.get("/"))
        assert '<html lang="de">' in page and ">Partien</a>" in page and '<span lang="en">English</span>' in page
        page = text(dark.get("/"))
        assert '<meta name="color-scheme" content="dark">' in page and ">Matches</a>" in page


def test_system_forgets_the_chosen_theme(client: Client):
    client.post(reverse("set_theme"), {"theme": "dark"})
    response = client.post(reverse("set_theme"), {"theme": "system"})
    assert response.cookies["tk_theme"]["max-age"] == 0
    assert "data-theme" not in text(client.get("/"))


@pytest.mark.parametrize("value", ["purple", "", "<script>", "DARK"])
def test_a_theme_that_is_not_ours_is_refused_plainly(client: Client, value):
    response = client.post(reverse("set_theme"), {"theme": value, "next": "/stats/"})
    assert response.status_code == 400
    assert "Tablekeeper has no theme" in text(response)
    assert "<script>" not in text(response).split("<main", 1)[1]
    assert "tk_theme" not in response.cookies
    assert 'href="/stats/"' in text(response)


def test_a_forged_theme_cookie_is_ignored(client: Client):
    client.cookies["tk_theme"] = '"><script>'
    page = text(client.get("/"))
    assert "data-theme" not in page
    assert '<meta name="color-scheme" content="light dark">' in page


def test_the_theme_switch_goes_back_only_to_our_own_pages(client: Client):
    response = client.post(reverse("set_theme"), {"theme": "dark", "next": "https://elsewhere.example/"})
    assert response["Location"] == "/"


def test_the_theme_switch_takes_only_posts(client: Client):
    response = client.get(reverse("set_theme"), {"theme": "dark"})
    assert response.status_code == 302 and response["Location"] == reverse("settings")  # the page above it
    assert client.cookies.get("tk_theme") is None


# --- language ------------------------------------------------------------------------------------


def test_the_language_switch_shows_the_page_in_german(client: Client):
    response = client.post(reverse("set_language"), {"language": "de", "next": "/"})
    assert response.status_code == 302
    assert response["Location"] == "/"
    page = text(client.get("/"))
    assert '<html lang="de">' in page
    assert ">Partien</a>" in page
    assert "<h1>Eine Partie beginnen</h1>" in page
    assert 'value="de" lang="de" aria-pressed="true">Deutsch' in text(client.get(reverse("settings")))


def test_the_language_is_remembered_for_a_year(client: Client):
    response = client.post(reverse("set_language"), {"language": "de"})
    assert response.cookies["django_language"]["max-age"] == 60 * 60 * 24 * 365


@pytest.mark.parametrize("code", ["xx", "", "de-XX-evil", "en\n"])
def test_a_language_we_do_not_have_is_refused_plainly(client: Client, code):
    response = client.post(reverse("set_language"), {"language": code, "next": "/"})
    assert response.status_code == 400
    assert "Tablekeeper has no language" in text(response)
    assert "English, Deutsch" in text(response)
    assert "django_language" not in response.cookies


def test_the_offline_page_and_the_manifest_speak_the_phone_s_language(client: Client):
    client.post(reverse("set_language"), {"language": "de"})
    assert "<h1>Keine Verbindung</h1>" in text(client.get(reverse("offline")))
    manifest = json.loads(client.get(reverse("web_manifest")).content)
    assert manifest["lang"] == "de"
    assert manifest["description"].startswith("Das Handy neben dem echten Kartenspiel")
