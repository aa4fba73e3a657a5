"""perf/wire.py's count of the random bytes Django's gzip adds to a page against BREACH."""

from django.utils.text import compress_string

from perf.wire import Answer, Transfer, _gzip_padding

PAGE = b"<!doctype html><title>A page</title>" * 40


def answer(sent: bytes, encoding: str = "gzip") -> Answer:
    return Answer(200, {"content-encoding": encoding}, Transfer("/matches/1/", 200, len(sent)), PAGE)


def test_the_padding_is_what_the_random_name_adds():
    for _ in range(20):
        padded = compress_string(PAGE, max_random_bytes=100)
        assert 1 <= _gzip_padding(answer(padded)) <= 100  # a name of 0 to 99 random bytes and its end
    assert _gzip_padding(answer(compress_string(PAGE))) == 0


def test_a_file_not_gzipped_has_none():
    assert _gzip_padding(answer(b"x" * 500, encoding="br")) == 0
