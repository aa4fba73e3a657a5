"""Static files as a phone's first visit should get them: minified, with only the headers that do something.

Our stylesheets and scripts are written to be read, with comments that say why. `collectstatic`
saves them minified by tdewolff's minify (comments and every space a browser ignores go, and a
script's local names are shortened): about 1.2 KB less on a match page's cold load than stripping
comments and indentation by hand did, 0.5 KB of it the shorter names. The files keep their
content-hashed names, taken from the source.

WhiteNoise serves them, ahead of Django's security middleware. A file with a content hash in its
name is cached for good (`immutable`), so a browser never asks again whether it changed: its
`ETag` and `Last-Modified` would never be used, and they are left out. Referrer-Policy, the
opener policy and HSTS govern documents and the requests a page makes; the pages carry them, a
stylesheet or script has nothing for them to govern. `nosniff` stays: it keeps a script or
stylesheet from being read as anything but what its Content-Type says. `public` goes from the
cache rule: it only matters for a request with credentials. Together that is about 150 bytes
less on each of the six or seven files a match page links.
"""

import minify
from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.conf import settings
from django.core.files.base import ContentFile, File
from whitenoise.middleware import WhiteNoiseFileResponse, WhiteNoiseMiddleware
from whitenoise.storage import CompressedManifestStaticFilesStorage

from tracker.people.devices import TableRequest

VALIDATORS = ("ETag", "Last-Modified")
OURS = ("css/", "js/")
# Nothing newer than the scripts are written in (ES2020: `?.`, a bare `catch`), whatever the minifier knows.
minify.config({"js-version": 2020})


def lean(name: str, text: str) -> str:
    """The stylesheet or script `name` minified."""
    return minify.string("text/css" if name.endswith(".css") else "application/javascript", text)


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    """WhiteNoise's storage (hashed names, Brotli and gzip copies), saving our own files lean."""

    def _save(self, name: str, content: File) -> str:
        if name.startswith(OURS) and name.endswith((".css", ".js")):
            content.seek(0)
            content = ContentFile(lean(name, content.read().decode()).encode())
        return super()._save(name, content)


class StaticFilesMiddleware(WhiteNoiseMiddleware):
    """WhiteNoise's middleware, in the server's own mode (tracker/either_mode.py: WhiteNoise's is sync only, and
    it is the first of the chain, so under ASGI every request went to a thread and back through it)."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response=None, settings=settings) -> None:
        super().__init__(get_response, settings)
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request):
        return self._acall(request) if self.is_async else super().__call__(request)

    async def _acall(self, request):
        # The files are listed at start-up (no autorefresh outside DEBUG); `serve` only opens the one asked for.
        found = (await sync_to_async(self.find_file)(request.path_info) if self.autorefresh
                 else self.files.get(request.path_info))
        if found is not None:
            return self.serve(found, request)
        return await self.get_response(request)

    @staticmethod
    def serve(static_file, request: TableRequest) -> WhiteNoiseFileResponse:
        response = WhiteNoiseMiddleware.serve(static_file, request)
        if "immutable" in response.get("Cache-Control", ""):
            for name in VALIDATORS:
                del response[name]
            # "public" lets a shared cache keep an answer to a request that carried credentials; a static
            # request carries none, so it says nothing here (8 bytes of each file's headers).
            response["Cache-Control"] = response["Cache-Control"].replace(" public,", "")
        response["X-Content-Type-Options"] = "nosniff"
        if response.get("Content-Type", "").startswith(("text/css;", "text/javascript;")):
            # A stylesheet or script without a charset is read in its page's, and every page is UTF-8: `charset="utf-8"`
            # said it again, 17 bytes of each file's headers on a first visit (the Evons page's budget, 4 files).
            response["Content-Type"] = response["Content-Type"].partition(";")[0]
        if hasattr(request, "scope") and response.file_to_stream is not None:
            # Under ASGI a file's sync iterator was read into a list in a thread, with a warning in the log at each
            # worker's first file ("StreamingHttpResponse must consume synchronous iterators"). Our files are a
            # few KB and cached by the system: read at once, in the loop. (The file still closes with the answer.)
            response.streaming_content = _whole(response.file_to_stream)
        return response


async def _whole(file):
    yield file.read()
