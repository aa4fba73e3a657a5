"""perf/wire.py's count of the random bytes added to a page against BREACH: Django's gzip name, our Brotli block."""

from django.utils.text import compress_string

from perf.wire import Answer, Transfer, _padding
from tracker.web.compression import brotli_padded

PAGE = b"<!doctype html><title>A page</title>" * 40


def answer(sent: bytes, encoding: str = "gzip") -> Answer:
    return Answer(200, {"content-encoding": encoding}, Transfer("/matches/1/", 200, len(sent)), PAGE)


def test_the_padding_is_what_the_random_name_adds():
    for _ in range(20):
        padded = compress_string(PAGE, max_random_bytes=100)
        assert 1 <= _padding(answer(padded)) <= 100  # a name of 0 to 99 random bytes and its end
    assert _padding(answer(compress_string(PAGE))) == 0


def test_the_brotli_padding_is_its_metadata_block():
    for padding in (1, 50, 99):
        assert _padding(answer(brotli_padded(PAGE, padding), encoding="br")) == padding + 2  # and its header
    assert _padding(answer(brotli_padded(PAGE, 0), encoding="br")) == 0


def test_a_file_not_compressed_has_none():
    assert _padding(answer(b"x" * 500, encoding="identity")) == 0
