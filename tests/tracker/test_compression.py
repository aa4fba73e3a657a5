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
