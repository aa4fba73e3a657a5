"""Pages gzipped by the app itself, so every way of serving it sends them compressed; and made small first.

Django's GZipMiddleware adds up to 100 random bytes to each gzip header ("Heal the Breach"),
so a page's compressed length does not give away a secret it holds (BREACH: the CSRF token
and a seat's hidden entry are in the same page as text a visitor can choose). Brotli would
save a few hundred bytes more on the largest page (docs/club-night.md) but has no such
mitigation in Django, and phones ask for it only over HTTPS. Static files never get here:
WhiteNoise answers them first with its own precompressed .br and .gz files.
"""

import re

from django.middleware.gzip import GZipMiddleware

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
        if content_type.startswith("text/html") and not response.streaming:
            response.content = without_blank_lines(response.content)
            if response.has_header("Content-Length"):  # set by CommonMiddleware, from the content before
                response["Content-Length"] = str(len(response.content))
        lifetimes_said_once(response)
        return super().process_response(request, response)
