"""Pages are compressed by the app (tracker/web/compression.py): Brotli where the browser takes it, else gzip,
padded either way against BREACH; live-update streams never."""

import gzip

import brotli
import pytest
from django.http import HttpResponse, StreamingHttpResponse
from django.test import RequestFactory

from tracker.web.compression import PageCompressionMiddleware, brotli_padded

PAGE = "<p>" + "a table of four " * 50 + "</p>"


def answer(response, accepts="gzip, deflate, br"):
    request = RequestFactory().get("/", HTTP_ACCEPT_ENCODING=accepts)
    return PageCompressionMiddleware(lambda request: response)(request)


@pytest.mark.parametrize("accepts, encoding, decompress", [
    ("gzip, deflate, br", "br", brotli.decompress),  # a phone's browser over HTTPS
    ("gzip, deflate", "gzip", gzip.decompress),  # over plain HTTP
])
def test_a_page_is_compressed_with_random_padding_against_breach(accepts, encoding, decompress):
    sent = [answer(HttpResponse(PAGE), accepts) for _ in range(20)]
    assert {response["Content-Encoding"] for response in sent} == {encoding}
    assert {decompress(response.content) for response in sent} == {PAGE.encode()}
    sizes = {len(response.content) for response in sent}
    assert len(sizes) > 1 and max(sizes) < len(PAGE)  # the length varies, so it gives no secret away
    assert all(response["Content-Length"] == str(len(response.content)) for response in sent)
    assert "Accept-Encoding" in sent[0]["Vary"]


def test_the_brotli_padding_is_any_length_a_decoder_skips():
    for padding in (0, 1, 4, 99, 255, 256):
        assert brotli.decompress(brotli_padded(PAGE.encode(), padding)) == PAGE.encode()
    assert len(brotli_padded(PAGE.encode(), 99)) == len(brotli_padded(PAGE.encode(), 0)) + 101


def test_only_pages_go_in_brotli():
    script = HttpResponse(PAGE, content_type="text/javascript")
    assert answer(script)["Content-Encoding"] == "gzip"  # Django's gzip, padded as ever
    etagged = HttpResponse(PAGE)
    etagged["ETag"] = '"v1"'
    assert answer(etagged)["ETag"] == 'W/"v1"'  # no longer byte for byte the same representation


def test_an_event_stream_is_sent_as_it_comes():
    stream = StreamingHttpResponse(iter(["data: 1\n\n"] * 50), content_type="text/event-stream")
    sent = answer(stream)
    assert not sent.has_header("Content-Encoding")
    assert b"".join(sent.streaming_content) == b"data: 1\n\n" * 50


def plain(response):
    return PageCompressionMiddleware(lambda request: response)(RequestFactory().get("/"))


def test_a_page_loses_the_blank_lines_its_template_tags_left_and_says_its_new_length():
    page = HttpResponse("<p>a</p>\n\n  \n<p>b</p>\n\t\n  <p>c</p>\n")
    page["Content-Length"] = str(len(page.content))  # as CommonMiddleware sets it, before
    sent = plain(page)
    assert sent.content == b"<p>a</p>\n<p>b</p>\n<p>c</p>\n"
    assert sent["Content-Length"] == str(len(sent.content))


def test_whitespace_shown_as_it_is_is_kept():
    for page in ("<pre>a\n\n\nb</pre>", "<textarea>a\n\nb</textarea>"):
        assert plain(HttpResponse(page)).content == page.encode()
    script = HttpResponse("a\n\n\nb", content_type="text/javascript")
    assert plain(script).content == b"a\n\n\nb"  # pages only


def test_a_cookies_lifetime_is_said_once():
    page = HttpResponse(PAGE)
    page.set_cookie("kept", "1", max_age=60)
    page.set_cookie("until", "1", expires="Thu, 01 Jan 2099 00:00:00 GMT")
    page.delete_cookie("gone")
    sent = plain(page)
    assert "expires" not in sent.cookies["kept"].OutputString().lower() and "Max-Age=60" in sent.cookies["kept"].OutputString()
    assert "expires=" in sent.cookies["until"].OutputString()  # no Max-Age to say it
    assert "Max-Age=0" in sent.cookies["gone"].OutputString()
