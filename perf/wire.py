"""Bytes over the wire, counted as `serve`'s stack sends them over HTTP on loopback.

The page weight (cold load, repeat visit, the worker's install) is fetched from a running stack
(tracker/web/server.py: gunicorn, uvicorn, the app's own gzip of pages, WhiteNoise's .br and .gz
static files) by a `Phone` that counts every byte of each answer as it came off the socket: the
status line, every header, the blank line and the body as sent (compressed where the stack
compressed it). It asks as a phone's browser does over HTTPS (`Accept-Encoding: gzip, deflate, br`);
PHONE_GZIP_ONLY for a browser without Brotli. Each request is a connection of its own, kept alive
as a browser keeps it (so no `connection: close` is counted on every answer, which a browser never
gets); an answer is its head and the body its Content-Length (or its chunks) says.

`poll()` still counts in-process (a Django test client; its server headers added as uvicorn writes
them): tests/tracker/test_query_counts.py checks it on every run.
"""

import gzip
import json
import re
import socket
from dataclasses import dataclass, field
from http import HTTPStatus
from http.cookies import SimpleCookie
from urllib.parse import urljoin, urlsplit

import brotli
from django.test import Client
from django.urls import reverse
from django.utils.http import http_date
from django.utils.text import compress_string

from tracker.models import Match
from tracker.web import compression

# What Chrome and Safari send over HTTPS; PHONE_GZIP_ONLY for a browser without Brotli.
PHONE = "gzip, deflate, br"
PHONE_GZIP_ONLY = "gzip"
# uvicorn writes these on every response (with Date, below; serve's stack sends no Server header);
# HTTP/1.1 keeps the connection open.
SERVER_HEADERS: tuple[str, ...] = ()

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
    padding: int = 0
    """Of the bytes, the random ones added to a page against BREACH (0 to 99, and gzip's name's end or the
    Brotli metadata block's two): a run's total moves with them, what the app sends does not."""

    @property
    def total(self) -> int:
        return sum(transfer.total for transfer in self.transfers)


def head_bytes(response, headers: dict | None = None) -> int:
    """Status line, headers (`headers` instead of the response's own), cookies, server headers, blank line."""
    reason = HTTPStatus(response.status_code).phrase
    lines = [f"HTTP/1.1 {response.status_code} {reason}"]
    lines += [f"{name}: {value}" for name, value in (headers or response.headers).items()]
    lines += [f"Set-Cookie: {morsel.OutputString()}" for morsel in response.cookies.values()]
    lines += [*SERVER_HEADERS, f"date: {http_date()}"]
    return len("".join(line + "\r\n" for line in lines).encode("latin-1")) + 2


def linked(html: str, base: str) -> list[str]:
    """Same-site files the page makes a browser fetch: stylesheets, icons, scripts, images."""
    urls = [urljoin(base, url) for url in _LINKED.findall(html)]
    return [url for url in dict.fromkeys(urls) if not urlsplit(url).netloc and not url.startswith("data:")]


@dataclass
class Answer:
    status: int
    headers: dict[str, str]  # names in lower case
    transfer: Transfer
    body: bytes  # decoded


class Phone:
    """A phone's browser on the stack at 127.0.0.1:`port`: it keeps its cookies and counts every byte."""

    def __init__(self, port: int, accept: str = PHONE, host: str = "127.0.0.1"):
        self.port, self.accept, self.host = port, accept, host
        self.cookies: dict[str, str] = {}

    def get(self, url: str, **headers: str) -> Answer:
        lines = [f"GET {url} HTTP/1.1", f"Host: {self.host}:{self.port}", f"Accept-Encoding: {self.accept}",
                 "Accept: text/html,*/*",
                 *([f"Cookie: {'; '.join(f'{k}={v}' for k, v in self.cookies.items())}"] if self.cookies else []),
                 *(f"{name.replace('_', '-')}: {value}" for name, value in headers.items())]
        with socket.create_connection(("127.0.0.1", self.port), timeout=30) as connection:
            connection.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
            raw = b""
            while b"\r\n\r\n" not in raw:
                raw += _received(connection)
            head, _, body = raw.partition(b"\r\n\r\n")
            length = re.search(rb"(?im)^content-length:\s*(\d+)", head)
            while not _complete(head, body, length):
                body += _received(connection)
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        answer_headers: dict[str, str] = {}
        for line in header_lines:
            name, _, value = line.partition(":")
            if name.lower() == "set-cookie":
                for morsel in SimpleCookie(value.strip()).values():
                    self.cookies[morsel.key] = morsel.value
            answer_headers[name.lower()] = value.strip()
        sent = len(body)
        if answer_headers.get("transfer-encoding") == "chunked":
            body = _unchunked(body)
        return Answer(int(status_line.split()[1]), answer_headers, Transfer(url, len(head) + 4, sent),
                      _decoded(answer_headers.get("content-encoding", ""), body))


def _received(connection: socket.socket) -> bytes:
    chunk = connection.recv(65536)
    if not chunk:
        raise ConnectionError("the stack closed the connection mid-answer")
    return chunk


def _complete(head: bytes, body: bytes, length: re.Match | None) -> bool:
    """Whether the whole answer is in: its Content-Length read, its last chunk, or no body at all (204, 304)."""
    if length is not None:
        return len(body) >= int(length.group(1))
    if re.search(rb"(?im)^transfer-encoding:\s*chunked", head):
        return body.endswith(b"0\r\n\r\n")
    return True


def _unchunked(body: bytes) -> bytes:
    out = b""
    while body:
        size, _, body = body.partition(b"\r\n")
        length = int(size.split(b";")[0], 16)
        if length == 0:
            break
        out, body = out + body[:length], body[length + 2:]
    return out


def _decoded(encoding: str, body: bytes) -> bytes:
    return gzip.decompress(body) if encoding == "gzip" else brotli.decompress(body) if encoding == "br" else body


def _fetched(phone: Phone, url: str, **headers: str) -> Answer:
    answer = phone.get(url, **headers)
    assert answer.status == 200, (url, answer.status)
    return answer


def cold_load(phone: Phone, url: str) -> Wire:
    """A first visit to `url`: the page and everything it links, each once."""
    page = _fetched(phone, url)
    wire = Wire([page.transfer], padding=_padding(page))
    queue = linked(page.body.decode(), url)
    seen = set(queue)
    while queue:
        asset = queue.pop(0)
        answer = _fetched(phone, asset)
        wire.transfers.append(answer.transfer)
        if asset.endswith(".css"):
            for found in _CSS_URL.findall(answer.body.decode()):
                found = urljoin(asset, found)
                if found not in seen and not found.startswith("data:") and not urlsplit(found).netloc:
                    seen.add(found)
                    queue.append(found)
    return wire


def _padding(answer: Answer) -> int:
    """The bytes of a compressed page beyond the same body compressed without its random padding (gzip's: Django's
    random file name; Brotli's: tracker/web/compression.py's metadata block)."""
    encoding = answer.headers.get("content-encoding")
    if encoding == "gzip":
        return answer.transfer.body - len(compress_string(answer.body))
    if encoding == "br":
        return answer.transfer.body - len(compression.brotli_padded(answer.body, padding=0))
    return 0


def worker_install(phone: Phone, cold: Wire) -> Wire:
    """What installing the service worker fetches after a cold load, once, in the background: its
    script, every file it keeps that the page did not already load, and the offline page."""
    script = _fetched(phone, "/sw.js")
    wire = Wire([script.transfer])
    loaded = {transfer.url for transfer in cold.transfers}
    precache = re.search(r"const PRECACHE = (\[.*\]);", script.body.decode())
    if precache is None:
        raise ValueError("the service worker names no files to keep")
    for url in json.loads(precache.group(1)):
        if url not in loaded:
            wire.transfers.append(_fetched(phone, url).transfer)
    wire.transfers.append(_fetched(phone, "/offline/").transfer)
    return wire


def repeat_visit(phone: Phone, url: str) -> Wire:
    """A later visit to `url` by a phone whose service worker keeps the static files: the page itself
    (never served from a cache) and the browser's check for a newer worker (a 304 when unchanged)."""
    etag = _fetched(phone, "/sw.js").headers["etag"]
    page = _fetched(phone, url)
    check = phone.get("/sw.js", If_None_Match=etag)
    assert check.status == 304, check.status
    return Wire([page.transfer, check.transfer])


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
