"""Pages compressed by the app itself, so every way of serving it sends them compressed; and made small first.

A page goes out as Brotli to a browser that asks for it (every phone's, over HTTPS: `serve --https`), else as
gzip. Django's GZipMiddleware adds up to 100 random bytes to each gzip header ("Heal the Breach"), so a page's
compressed length does not give away a secret it holds (BREACH: the CSRF token and a seat's hidden entry are
in the same page as text a visitor can choose); a Brotli page carries as many random bytes, in a metadata block
every decoder skips. At quality 5 Brotli costs what Django's gzip does (0.4 ms for the largest page, 30 KB) and
sends 10 % fewer bytes. Static files never get here: WhiteNoise answers them first with its own precompressed
.br and .gz files.
"""
import re
import secrets

import brotli
from django.middleware.gzip import GZipMiddleware
from django.utils.cache import patch_vary_headers

BLANK_LINES = re.compile(rb"\n[ \t\n]+")
"""A line break followed by lines of nothing but spaces, or by the next line's indentation: what a template's
tag lines and its indentation leave behind (one line break says as much to a browser)."""
KEEPS_WHITESPACE = (b"<pre", b"<textarea")


def without_blank_lines(html: bytes) -> bytes:
    """The page without the blank lines and indentation its templates left (some 90 bytes of the largest
    page, compressed), which a browser collapses anyway; unless an element shows whitespace as it is."""
    if any(tag in html for tag in KEEPS_WHITESPACE):
        return html
    return BLANK_LINES.sub(b"\n", html)


def lifetimes_said_once(response) -> None:
    """Each cookie's lifetime as Max-Age alone. Django writes it twice (Expires too, for browsers older
    than any phone's): some 40 bytes a cookie, on a first visit's page that sets two."""
    for morsel in response.cookies.values():
        if morsel["max-age"] != "":
            morsel["expires"] = ""  # an empty attribute is not written


DOCUMENTS_ONLY = ("Referrer-Policy", "Cross-Origin-Opener-Policy")
"""Headers that govern a document (the requests it makes, the windows it opens): Django's security middleware
adds them to every answer, and on anything but a page (the manifest, the live poll's JSON, the stream) they
govern nothing: some 70 bytes of each such answer."""


ACCEPTS_BROTLI = re.compile(r"\bbr\b")


def brotli_padded(data: bytes, padding: int | None = None) -> bytes:
    """`data` in Brotli, with `padding` random bytes (by default 0 to 99, as Django pads gzip) in a metadata
    meta-block (RFC 7932, section 9.2: skipped by the decoder) after the data, where a flush leaves the
    stream on a byte boundary: ISLAST 0, MNIBBLES 0 (code 3), a reserved 0, MSKIPBYTES 1, MSKIPLEN - 1."""
    compressor = brotli.Compressor(quality=5, mode=brotli.MODE_TEXT)
    sent = compressor.process(data) + compressor.flush()
    padding = secrets.randbelow(100) if padding is None else padding
    if padding:
        skip = padding - 1
        sent += bytes([0b00010110 | (skip & 0b11) << 6, skip >> 2]) + secrets.token_bytes(padding)
    return sent + compressor.finish()


def in_brotli(request, response) -> bool:
    """Send the page in Brotli, if the browser takes it and it is worth it (as GZipMiddleware decides)."""
    if len(response.content) < 200 or response.has_header("Content-Encoding"):
        return False
    patch_vary_headers(response, ("Accept-Encoding",))
    if not ACCEPTS_BROTLI.search(request.META.get("HTTP_ACCEPT_ENCODING", "")):
        return False
    compressed = brotli_padded(response.content)
    if len(compressed) >= len(response.content):
        return False
    response.content = compressed
    response.headers["Content-Length"] = str(len(compressed))
    etag = response.get("ETag")
    if etag and etag.startswith('"'):  # a strong ETag made weak, as GZipMiddleware does (RFC 9110, 8.8.1)
        response.headers["ETag"] = "W/" + etag
    response.headers["Content-Encoding"] = "br"
    return True


class PageCompressionMiddleware(GZipMiddleware):
    # A stream of live updates must reach the phone event by event; gzip would hold each
    # event back until its buffer fills.
    NEVER_COMPRESSED = ("text/event-stream",)

    def process_response(self, request, response):
        content_type = response.get("Content-Type", "")
        if not content_type.startswith("text/html"):
            for name in DOCUMENTS_ONLY:
                del response[name]
        if content_type.startswith(self.NEVER_COMPRESSED):
            return response
        lifetimes_said_once(response)
        if content_type.startswith("text/html") and not response.streaming:
            response.content = without_blank_lines(response.content)
            if response.has_header("Content-Length"):  # set by CommonMiddleware, from the content before
                response["Content-Length"] = str(len(response.content))
            if in_brotli(request, response):
                return response
        return super().process_response(request, response)
