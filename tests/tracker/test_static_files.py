"""Static files reach a phone lean: minified, and only the headers that do something for them."""

import re
from pathlib import Path

import brotli
import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from tracker.web.static_files import lean

pytestmark = pytest.mark.django_db

DROPPED = ("ETag", "Last-Modified", "Referrer-Policy", "Cross-Origin-Opener-Policy", "Content-Security-Policy")


def linked(client: Client, pattern: str) -> str:
    page = client.get("/").content.decode()
    return re.search(rf'"(/static/{pattern})"', page).group(1)


def body(response) -> bytes:
    return b"".join(response.streaming_content)


def test_a_stylesheet_comes_without_comments_and_with_only_the_headers_it_needs(client: Client):
    url = linked(client, r"css/app\.[0-9a-f]+\.css")
    response = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert response.status_code == 200 and response["Content-Encoding"] == "br"
    css = brotli.decompress(body(response)).decode()
    source = Path(finders.find("css/app.css")).read_text(encoding="utf-8")
    assert "/*" in source and "/*" not in css
    assert css == lean("css/app.css", source)
    assert response["Cache-Control"] == "max-age=315360000, immutable"  # no "public": no credentials to say it over
    assert response["X-Content-Type-Options"] == "nosniff"  # never run or applied as another type
    assert response["Content-Type"] == "text/css"  # read as UTF-8, its page's encoding: no charset to repeat
    for name in DROPPED:
        assert name not in response, name


def test_a_script_keeps_its_code_and_loses_its_comments_and_spaces(client: Client):
    url = linked(client, r"js/table\.[0-9a-f]+\.js")
    response = client.get(url, HTTP_ACCEPT_ENCODING="br")
    assert response["Content-Type"] == "text/javascript"
    script = brotli.decompress(body(response)).decode()
    source = Path(finders.find("js/table.js")).read_text(encoding="utf-8")
    assert script == lean("js/table.js", source)
    assert "//" in source and not any(line.lstrip().startswith("//") for line in script.splitlines())
    assert len(script) < len(source) * 0.7
    # The code is the same: every string the source says is still said.
    assert set(re.findall(r'"[^"\n]*"', script)) <= set(re.findall(r'"[^"\n]*"', source))


def test_a_file_under_its_plain_name_can_still_be_checked_for_a_change(client: Client):
    """Only content-hashed names are cached for good; the plain name is revalidated, so it keeps its ETag."""
    first = client.get("/static/css/app.css")
    assert "immutable" not in first["Cache-Control"] and first["ETag"]
    assert client.get("/static/css/app.css", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304


def test_only_what_means_nothing_is_taken_out():
    css = 'a::before { content: "/* kept */"; }\n  /* dropped */\nb { color: red; } /* dropped too */\n'
    assert lean("css/x.css", css) == 'a::before{content:"/* kept */"}b{color:red}'
    # The minifier may write the same code shorter (`if (a) b()` as `a&&b()`), never change a string or a pattern.
    script = '// dropped\nconst url = "http://example.org"; // dropped\n  if (a) {\n    b(/re\\/ /g);\n  }\n'
    assert lean("js/x.js", script) == 'const url="http://example.org";a&&b(/re\\/ /g)'
    literal = "const text = `two\n  // lines`;\n"
    assert lean("js/x.js", literal) == "const text=`two\n  // lines`"  # a template literal is kept as written


def test_a_scripts_own_names_are_shortened_and_the_pages_names_kept():
    script = "(() => { const answer = document.title; let counter = 0; window.told = () => answer + counter++; })();"
    assert lean("js/x.js", script) == "(()=>{const e=document.title;let t=0;window.told=()=>e+t++})()"


def test_the_worker_keeps_the_stylesheets_only_some_pages_link(client: Client):
    """The picker's and the log/replay/settings stylesheets are not on every page; offline, they come from the cache."""
    script = client.get("/sw.js").content.decode()
    for name in ("picker", "pages"):
        assert re.search(rf'"/static/css/{name}\.[0-9a-f]+\.css"', script), name


def test_a_file_served_under_asgi_is_read_in_the_loop_not_a_thread(client: Client):
    """Its sync iterator made Django's ASGI handler read it into a list in a thread, with a warning in the served
    log at each worker's first file (a play-test found it)."""
    import asyncio

    from django.test import AsyncClient

    url = linked(client, r"js/table\.[0-9a-f]+\.js")

    async def fetched():
        response = await AsyncClient().get(url)
        return response, b"".join([chunk async for chunk in response.streaming_content])

    response, content = asyncio.run(fetched())
    assert response.status_code == 200 and response.is_async
    assert content == body(client.get(url)) and content
