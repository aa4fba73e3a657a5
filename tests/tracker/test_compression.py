"""Pages are gzipped by the app (tracker/web/compression.py), live-update streams never."""

from django.http import HttpResponse, StreamingHttpResponse
from django.test import RequestFactory

from tracker.web.compression import PageCompressionMiddleware

PAGE = "<p>" + "a table of four " * 50 + "</p>"


def answer(response):
    request = RequestFactory().get("/", HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    return PageCompressionMiddleware(lambda request: response)(request)


def test_a_page_is_gzipped_with_random_padding_against_breach():
    sizes = {len(answer(HttpResponse(PAGE)).content) for _ in range(20)}
    assert answer(HttpResponse(PAGE))["Content-Encoding"] == "gzip"
    assert len(sizes) > 1 and max(sizes) < len(PAGE)  # the length varies, so it gives no secret away


def test_an_event_stream_is_sent_as_it_comes():
    stream = StreamingHttpResponse(iter(["data: 1\n\n"] * 50), content_type="text/event-stream")
    sent = answer(stream)
    assert not sent.has_header("Content-Encoding")
    assert b"".join(sent.streaming_content) == b"data: 1\n\n" * 50
