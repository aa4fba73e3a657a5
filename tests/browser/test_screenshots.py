"""Screenshots a busy machine's Chromium failed to capture are taken again (phone.taken_again); in CI none is
captured (phone.not_taken)."""

import pytest
from playwright.sync_api import Error, Locator, Page

from .phone import CAPTURE_FAILED, SCREENSHOTS_KEPT, not_taken, taken_again


def failing(times: int, message: str = f"Protocol error (Page.captureScreenshot): {CAPTURE_FAILED}"):
    calls = []

    def screenshot(page, **kwargs):
        calls.append(kwargs)
        if len(calls) <= times:
            raise Error(message)
        return b"png"

    return screenshot, calls


def test_a_capture_that_failed_is_taken_again_with_the_same_arguments():
    screenshot, calls = failing(2)
    assert taken_again(screenshot, pause=0)(None, path="a.png") == b"png"
    assert calls == [{"path": "a.png"}] * 3


def test_it_gives_up_after_its_tries_and_never_retries_another_error():
    screenshot, calls = failing(3)
    with pytest.raises(Error, match=CAPTURE_FAILED):
        taken_again(screenshot, pause=0)(None)
    assert len(calls) == 3
    screenshot, calls = failing(1, "Target page, context or browser has been closed")
    with pytest.raises(Error, match="closed"):
        taken_again(screenshot, pause=0)(None)
    assert len(calls) == 1


def test_the_browser_tests_take_their_screenshots_this_way():
    way = "taken_again.<locals>.take" if SCREENSHOTS_KEPT else "not_taken.<locals>.skip"
    assert Page.screenshot.__qualname__ == Locator.screenshot.__qualname__ == way


def test_a_screenshot_not_taken_still_waits_for_its_element_and_captures_nothing():
    screenshot, calls = failing(0)
    scrolled = []

    class Element(Locator):
        def __init__(self):
            pass

        def scroll_into_view_if_needed(self, timeout=None):
            scrolled.append(True)

    assert not_taken(screenshot)(None, path="a.png", full_page=True) == b""
    assert not_taken(screenshot)(Element(), path="b.png") == b""
    assert calls == [] and scrolled == [True]
