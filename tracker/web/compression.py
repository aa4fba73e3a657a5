"""Pages gzipped by the app itself, so every way of serving it sends them compressed.

Django's GZipMiddleware adds up to 100 random bytes to each gzip header ("Heal the Breach"),
so a page's compressed length does not give away a secret it holds (BREACH: the CSRF token
and a seat's hidden entry are in the same page as text a visitor can choose). Brotli would
save a few hundred bytes more on the largest page (docs/club-night.md) but has no such
mitigation in Django, and phones ask for it only over HTTPS. Static files never get here:
WhiteNoise answers them first with its own precompressed .br and .gz files.
"""

from django.middleware.gzip import GZipMiddleware


class PageCompressionMiddleware(GZipMiddleware):
    # A stream of live updates must reach the phone event by event; gzip would hold each
    # event back until its buffer fills.
    NEVER_COMPRESSED = ("text/event-stream",)

    def process_response(self, request, response):
        if response.get("Content-Type", "").startswith(self.NEVER_COMPRESSED):
            return response
        return super().process_response(request, response)
