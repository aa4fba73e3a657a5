"""Bytes over the wire, counted from responses made in-process.

A response is counted as an HTTP/1.1 server sends it: the status line, every header
(Django's, the middleware's, Set-Cookie), the headers gunicorn adds itself (Server, Date,
Connection), the blank line and the body. Static files are fetched through WhiteNoise with the
`Accept-Encoding` a phone's browser sends over HTTPS (gzip, deflate, br), so they come compressed
as WhiteNoise serves them (Brotli where it has a .br file); the HTML and the service worker's
script are compressed with gzip at level 6 as a proxy in front of the app would (the app does not
compress its pages itself).
"""

import gzip
import json
import re
from dataclasses import dataclass, field
from http import HTTPStatus
from urllib.parse import urljoin, urlsplit

import brotli
from django.test import Client
from django.urls import reverse
from django.utils.http import http_date

from tracker.models import Match

# What Chrome and Safari send over HTTPS; PHONE_GZIP_ONLY for a browser without Brotli.
PHONE = "gzip, deflate, br"
PHONE_GZIP_ONLY = "gzip"
# gunicorn writes these on every response (gunicorn/http/wsgi.py, default_headers).
SERVER_HEADERS = ("Server: gunicorn", "Connection: close")

_LINKED = re.compile(r"<(?:link|script|img)\b[^>]*?\b(?:href|src)=\"([^\"]+)\"", re.IGNORECASE)
_CSS_URL = re.compile(r"url\(\s*['\"]?([^'\")]+)['\"]?\s*\)")


@dataclass
class Transfer:
    url: str
    head: int
    body: int

    @property
    def total(self) -> int:
        return self.head + self.body


@dataclass
class Poll:
    response: Transfer
    request: int
    """Request line, Host, Accept and the app's cookies: the part of the request the app decides."""
    headers: list[str]


@dataclass
class Wire:
    transfers: list[Transfer] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(transfer.total for transfer in self.transfers)


def head_bytes(response, headers: dict | None = None) -> int:
    """Status line, headers (`headers` instead of the response's own), cookies, server headers, blank line."""
    reason = HTTPStatus(response.status_code).phrase
    lines = [f"HTTP/1.1 {response.status_code} {reason}"]
    lines += [f"{name}: {value}" for name, value in (headers or response.headers).items()]
    lines += [f"Set-Cookie: {morsel.OutputString()}" for morsel in response.cookies.values()]
    lines += [*SERVER_HEADERS, f"Date: {http_date()}"]
    return len("".join(line + "\r\n" for line in lines).encode("latin-1")) + 2


def _body(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


def _proxied(response, url: str) -> Transfer:
    """A response the app sends uncompressed (a page, the worker's script), gzipped by the proxy."""
    body = gzip.compress(response.content, compresslevel=6, mtime=0)
    headers = dict(response.headers)
    headers["Content-Length"] = str(len(body))
    headers["Content-Encoding"] = "gzip"
    headers["Vary"] = ", ".join(filter(None, [headers.get("Vary"), "Accept-Encoding"]))
    return Transfer(url, head_bytes(response, headers), len(body))


def linked(html: str, base: str) -> list[str]:
    """Same-site files the page makes a browser fetch: stylesheets, icons, scripts, images."""
    urls = [urljoin(base, url) for url in _LINKED.findall(html)]
    return [url for url in dict.fromkeys(urls) if not urlsplit(url).netloc and not url.startswith("data:")]


def _decoded(response, body: bytes) -> bytes:
    encoding = response.get("Content-Encoding")
    return gzip.decompress(body) if encoding == "gzip" else brotli.decompress(body) if encoding == "br" else body


def _asset(client: Client, url: str, accept: str) -> tuple[Transfer, bytes]:
    response = client.get(url, HTTP_ACCEPT_ENCODING=accept)
    assert response.status_code == 200, (url, response.status_code)
    body = _body(response)
    return Transfer(url, head_bytes(response), len(body)), _decoded(response, body)


def cold_load(client: Client, url: str, accept: str = PHONE) -> Wire:
    """A first visit to `url`: the page and everything it links, each once."""
    page = client.get(url)
    assert page.status_code == 200, page.status_code
    wire = Wire([_proxied(page, url)])
    queue = linked(page.content.decode(), url)
    seen = set(queue)
    while queue:
        asset = queue.pop(0)
        transfer, text = _asset(client, asset, accept)
        wire.transfers.append(transfer)
        if asset.endswith(".css"):
            for found in _CSS_URL.findall(text.decode()):
                found = urljoin(asset, found)
                if found not in seen and not found.startswith("data:") and not urlsplit(found).netloc:
                    seen.add(found)
                    queue.append(found)
    return wire


def _worker(client: Client, **headers):
    return client.get(reverse("service_worker"), **headers)


def worker_install(client: Client, cold: Wire) -> Wire:
    """What installing the service worker fetches after a cold load, once, in the background: its
    script, every file it keeps that the page did not already load, and the offline page."""
    script = _worker(client)
    wire = Wire([_proxied(script, script.request["PATH_INFO"])])
    loaded = {transfer.url for transfer in cold.transfers}
    precache = re.search(r"const PRECACHE = (\[.*\]);", script.content.decode())
    if precache is None:
        raise ValueError("the service worker names no files to keep")
    kept = json.loads(precache.group(1))
    for url in kept:
        if url not in loaded:
            wire.transfers.append(_asset(client, url, PHONE)[0])
    offline = reverse("offline")
    wire.transfers.append(_proxied(client.get(offline), offline))
    return wire


def repeat_visit(client: Client, url: str) -> Wire:
    """A later visit to `url` by a phone whose service worker keeps the static files: the page itself
    (never served from a cache) and the browser's check for a newer worker (a 304 when unchanged)."""
    etag = _worker(client)["ETag"]
    page = client.get(url)
    assert page.status_code == 200, page.status_code
    check = _worker(client, HTTP_IF_NONE_MATCH=etag)
    assert check.status_code == 304, check.status_code
    return Wire([_proxied(page, url), Transfer(check.request["PATH_INFO"], head_bytes(check), len(check.content))])


def poll(client: Client, match: Match) -> Poll:
    """The live-update check of a phone that has the page open, when nothing changed."""
    client.get(match.get_absolute_url())  # its cookies, as the phone has them
    url = f"{reverse('match_poll', args=[match.pk])}?v={match.version}"
    response = client.get(url, HTTP_ACCEPT="application/json")
    assert response.status_code == 204, response.status_code
    cookies = "; ".join(f"{name}={morsel.value}" for name, morsel in client.cookies.items())
    request = f"GET {url} HTTP/1.1\r\nHost: {client.defaults.get('HTTP_HOST', 'localhost')}\r\n" \
              f"Accept: application/json\r\nCookie: {cookies}\r\n\r\n"
    headers = [f"{name}: {value}" for name, value in response.headers.items()]
    return Poll(Transfer(url, head_bytes(response), len(response.content)), len(request.encode()), headers)
