"""What a phone at the table must show after every tap, shared by the browser tests that check it:

    errors = watch_errors(page)          # console errors and page errors (CSP refusals among them)
    outcome_says(page, 3, "Ben wins.")   # the box tells log entry 3 with its working, in view
    check_page(page)                     # no sideways scroll, no tap target under 44x44 px
    assert_no_horizontal_scroll(page)    # just the first, naming what sticks out

The longest names: players of 40 characters (the most a name may have), one without a space and one
like an e-mail address, and a card of 60 characters (the most a card name may have).
"""

import os
import re
import time
from urllib.parse import parse_qs, urlsplit

from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from playwright.sync_api import BrowserContext, Error, Locator, Page, expect

from tracker.matches.outcome import in_box, short_names

from .accessibility import small_targets

# The phone itself: Debian's Chromium at 360x740, as every browser test (conftest.py) and the HTTPS table drive it.
# Its headless shell (Debian's chromium-headless-shell; `playwright install` cannot download here), which is what
# Playwright itself runs headless: the same Blink without the browser's windowing, at about 60% of the full
# browser's CPU on these tests (the whole browser process drew every frame it never showed).
CHROMIUM = "/usr/lib/chromium/chromium-headless-shell"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {
    "viewport": {"width": 360, "height": 740},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
    # English pages whatever the machine's own language: German is one switch away (test_at_the_table).
    "locale": "en-US",
}

# Chromium on a machine kept busy (tracker/scripts/test runs both passes at once) now and then answers a
# screenshot with "Unable to capture screenshot": its compositor's frame came too late. Screenshots are for
# people to look at, never asserted, so conftest.py has one that fails that way taken again.
CAPTURE_FAILED = "Unable to capture screenshot"


def taken_again(screenshot, tries: int = 3, pause: float = 0.5):
    """`screenshot` (Page's or Locator's), tried up to `tries` times when Chromium could not capture it."""
    def take(self, *args, **kwargs):
        for attempt in range(1, tries + 1):
            try:
                return screenshot(self, *args, **kwargs)
            except Error as error:
                if CAPTURE_FAILED not in str(error) or attempt == tries:
                    raise
                time.sleep(pause)

    return take


SCREENSHOTS_KEPT = not os.environ.get("CI") or bool(os.environ.get("KEEP_SCREENSHOTS"))
"""Whether the browser tests capture their screenshots (var/screenshots/, never asserted). Not in CI, which
starts from a fresh clone and throws it away: some 140 full-page PNGs at twice the phone's pixels each run,
for nobody to look at. KEEP_SCREENSHOTS=1 keeps them there too."""


def not_taken(screenshot):
    """`screenshot` (Page's or Locator's) not captured, as in CI (SCREENSHOTS_KEPT): a Locator's element is still
    waited for and scrolled into view, as capturing it does, so a test goes on from the same page."""
    def skip(self, *args, **kwargs):
        if isinstance(self, Locator):
            self.scroll_into_view_if_needed()
        return b""

    return skip


LONG_PLAYERS = ("Maximilianalexanderbartholomewsmithsonab", "ana.longname.player@example-tablekeeper.x"[:40])
LONG_CARD = "Ancient Thundering Leviathan of the Shattered Northern Deeps"  # 60, the most a card name may have
_LONG_NAMES = {*LONG_PLAYERS, LONG_CARD}
"""The long names the tests give, which the outcome box writes cut short (tracker/matches/outcome.py: short_names)."""
HIDDEN_WITH_LONG_NAMES = 40
"""Most pixels of an outcome box read only by scrolling inside it, with the longest names: what a player must act on
stands open even beyond the box (tracker/matches/outcome.py), and an Evons flip under a play of the 60-letter card
by a 40-letter player is 35 px more than a quarter of a 360x740 screen holds. With ordinary names, none."""


def forty(name: str) -> str:
    """A card name of 40 characters (as long as the longest player name), made from a demo card's."""
    made = f"{name} of the Far Northern Shattered Deeps"[:40]
    _LONG_NAMES.add(made)
    return made


def in_the_box(text: str) -> str:
    """`text` as the outcome box writes it: the tests' long names cut short."""
    return in_box(text, short_names(_LONG_NAMES))


OUTCOME = "#outcome .outcome-box"
# A refusal is answered 409 or 422 by design (with the reason), which Chromium logs as a failed resource.
_REFUSAL = re.compile(r"Failed to load resource: the server responded with a status of (409|422)\b")


def watch_errors(page: Page) -> list[str]:
    """Console errors and failed page scripts, CSP refusals among them, from now on (a list that grows)."""
    found: list[str] = []
    page.on("console", lambda message: message.type == "error" and not _REFUSAL.match(message.text)
            and found.append(message.text))
    page.on("pageerror", lambda error: found.append(str(error)))
    return found


BOX_STAYS = """(() => {
  // Every test page: after each swap of #match, the outcome box's top in every frame until the swap has settled and
  // a few frames more. A move the player did not make (no tap, key or wheel since the swap) is kept for box_stayed.
  const moves = window.tkBoxMoves = [];
  window.tkBoxWatching = false;
  let watch = 0, touched = false;
  for (const name of ["pointerdown", "keydown", "wheel"]) addEventListener(name, () => { touched = true; }, true);
  const top = () => { const box = document.querySelector("#outcome .outcome-box");
    return box ? Math.round(box.getBoundingClientRect().top) : null; };
  document.addEventListener("htmx:afterSwap", (e) => {
    if (!(e.detail.target && e.detail.target.id === "match")) return;
    const id = ++watch;
    let last = null, settled = 0, frames = 0;
    touched = false;
    window.tkBoxWatching = true;
    document.addEventListener("htmx:afterSettle", () => { settled = settled || frames; }, { once: true });
    const frame = () => {
      if (id !== watch) return;
      const now = top();
      if (touched || (settled && frames > settled + 5) || frames > 600) { window.tkBoxWatching = false; return; }
      if (last !== null && now !== null && Math.abs(now - last) > 1) moves.push(`from ${last} to ${now} px, frame ${frames}`);
      last = now;
      frames++;
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
})();"""
"""Installed on every page of the browser tests (conftest.make_context): where the outcome box moved by itself after
a swap. A box that moves once shown is a page that jumps under the player's thumb: a game's stylesheet drawn again
with the board moved it (CI saw it above the screen), the live status line going at the settle moved it 75 px."""


def box_stayed(page: Page) -> None:
    """Fail if the outcome box moved by itself, in any frame since the last swap of #match, once shown."""
    # Polled, and longer than the watch's own end (600 frames, 10 s at 60 a second): a busy machine drew its frames
    # slower than that, and the wait gave up before the watch did (ci69).
    page.wait_for_function("() => !window.tkBoxWatching", polling=100, timeout=30_000)
    moves = page.evaluate("window.tkBoxMoves ? window.tkBoxMoves.splice(0) : []")
    assert moves == [], f"the outcome box moved by itself after it was shown: {moves}"


def in_view(page: Page, selector: str | Locator = OUTCOME) -> dict:
    """Fail unless the element is wholly inside the viewport; its bounding box. The outcome box must also hold all
    it says in view: nothing read by scrolling inside it, which a phone's hidden scroll bars do not show (with the
    longest names, no more than HIDDEN_WITH_LONG_NAMES)."""
    element = page.locator(selector) if isinstance(selector, str) else selector
    box = element.bounding_box()
    height = page.viewport_size["height"]
    assert box is not None, f"{selector} is not shown"
    assert box["height"] > 0 and box["y"] >= 0 and box["y"] + box["height"] <= height, f"{selector} is off-screen: {box}"
    if selector == OUTCOME:
        hidden = element.evaluate("(box) => box.scrollHeight - box.clientHeight")
        most = HIDDEN_WITH_LONG_NAMES if any(name in page.content() for name in _LONG_NAMES) else 1
        assert hidden <= most, f"the outcome box scrolls inside itself: {hidden} px of it hidden"
    return box


# What the player may tap next after the box: the first control after it in the page (the next step's start),
# and every control on the page whose box overlaps the outcome box (none may: a tap there would hit the box).
_AROUND_THE_BOX = """(box) => {
  const taps = 'a[href], button:enabled, input:enabled:not([type=hidden]), select:enabled, textarea:enabled, summary';
  const seen = (el) => el.checkVisibility({ visibilityProperty: true });  // not in a closed <details>
  const mine = box.getBoundingClientRect();
  const all = [...document.querySelectorAll(taps)].filter((el) => seen(el) && !box.contains(el)
    && !el.closest('#outcome'));
  const after = all.find((el) => box.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING);
  const covered = all.filter((el) => { const r = el.getBoundingClientRect();
    return r.width && r.height && r.left < mine.right && r.right > mine.left && r.top < mine.bottom && r.bottom > mine.top; })
    .map((el) => el.outerHTML.slice(0, 80));
  const key = box.querySelector('p').getBoundingClientRect();
  return { covered, key: { y: key.top, bottom: key.bottom },
           next: after ? { y: after.getBoundingClientRect().top, bottom: after.getBoundingClientRect().bottom,
                           html: after.outerHTML.slice(0, 80) } : null };
}"""


# Each paragraph in `root` led by a status symbol (✓, ⚠, ℹ) whose next letter is on a line below the symbol: a
# symbol left alone at a line's end, the 40-letter name after it wrapped onto the lines below.
_LONE_SYMBOLS = """(root) => [...root.querySelectorAll('p')].filter((p) => /^[✓⚠ℹ]/.test(p.textContent.trim())).filter((p) => {
  const two = [], walk = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
  while (two.length < 2 && walk.nextNode()) {
    const text = walk.currentNode;
    for (let i = 0; i < text.data.length && two.length < 2; i++) {
      if (!text.data[i].trim()) continue;
      const range = document.createRange();
      range.setStart(text, i);
      range.setEnd(text, i + 1);
      two.push(range.getBoundingClientRect());
    }
  }
  return two.length === 2 && two[1].top >= two[0].bottom - 2;
}).map((p) => p.textContent.trim().slice(0, 60))"""


def lone_symbols(shown: Locator) -> list[str]:
    """The paragraphs of `shown` whose status symbol ends a line alone, the words after it on the next."""
    return shown.evaluate(_LONE_SYMBOLS)


def next_step_in_view(page: Page, control: Locator | None = None) -> None:
    """The outcome box's key line (its first line) and the next control (`control`, else the first control after
    the box: where the next step starts) both wholly in the viewport, and no control of the page under the box."""
    found = page.locator(OUTCOME).evaluate(_AROUND_THE_BOX)
    height = page.viewport_size["height"]
    assert found["covered"] == [], f"controls under the outcome box: {found['covered']}"
    assert found["key"]["y"] >= 0 and found["key"]["bottom"] <= height, f"the key line is off-screen: {found['key']}"
    if control is not None:
        in_view(page, control)
    else:
        assert found["next"] is not None, "nothing to tap after the outcome box"
        assert found["next"]["y"] >= 0 and found["next"]["bottom"] <= height, f"the next control is off-screen: {found['next']}"


def outcome_says(page: Page, entry: int | None, *working: str, next_control: Locator | None = None) -> None:
    """After a tap: the outcome box tells log entry `entry` (None: a refusal or a message) with each piece of
    `working` (its long names cut short as the box writes them), wholly in view and staying where it was shown
    (box_stayed), in about a third of the screen at most, nothing in it read by scrolling inside it,
    no status symbol alone on its line; the next control is in view beside it and no control lies under it
    (next_step_in_view)."""
    box = page.locator(OUTCOME)
    if entry is not None:
        expect(box).to_contain_text(f"(log entry {entry})")
    for text in working:  # as shown: not folded away in a closed <details>, long names cut short
        expect(box).to_contain_text(in_the_box(text), use_inner_text=True)
    expect(box).not_to_contain_text("Done: the board shows what happened.")
    found = in_view(page)
    box_stayed(page)
    assert lone_symbols(box) == [], "a status symbol alone on its line, the name after it below"
    # An AI's answer, moves the player makes for it at the table, may take nearer half the screen (app.css).
    most = 0.47 if box.locator(".outcome-reply").count() else 0.36
    assert found["height"] <= page.viewport_size["height"] * most, f"the outcome box takes {found['height']}px"
    next_step_in_view(page, next_control)


def assert_nowhere_in(page: Page, names: list[str], who: str = "") -> None:
    """None of `names` anywhere in the page's HTML, hidden inputs and attributes included; standing alone, as a name
    is drawn: a random token (the CSRF token, a nonce) may hold "Ana" between other letters (CI drew one)."""
    html = page.content()
    for name in names:
        found = re.search(rf"(?<![A-Za-z0-9]){re.escape(name)}(?![A-Za-z0-9])", html)
        assert not found, f"{name!r} leaked into {who}'s page {page.url}: ...{html[found.start() - 80:found.end() + 80]}..."


def assert_no_horizontal_scroll(page: Page) -> None:
    """No sideways scroll at the phone's width; when there is, the five elements that stick out say where."""
    width, phone = page.evaluate("document.documentElement.scrollWidth"), page.viewport_size["width"]
    if width > phone:
        wide = page.evaluate(f"""[...document.querySelectorAll('main *')]
            .filter(e => e.getBoundingClientRect().right > {phone})
            .slice(0, 5).map(e => e.tagName + '.' + e.className + ': ' + (e.textContent || '').trim().slice(0, 40))""")
        raise AssertionError(f"{page.url} scrolls sideways: {width}px wide at {phone}px; widest: {wide}")


def check_page(page: Page) -> None:
    """No sideways scroll and no tap target under 44x44 px on the page as it is now."""
    assert_no_horizontal_scroll(page)
    assert small_targets(page) == [], f"tap targets under 44 px on {page.url}"


def go_offline(page: Page) -> None:
    """Cut the phone's connection: every request the phone makes fails at once, and the page knows it is offline.

    set_offline alone is not enough: it returns once DevTools took the switch, which Chromium hands on to its
    network service without waiting, so a request made at once may still reach the server while the page is
    told it failed, and a test asserting that nothing arrived while offline failed now and then in CI (even
    after waiting for one request to fail). A route that aborts everything is decided by Playwright before a
    request leaves the browser, so nothing gets through; set_offline gives the page navigator.onLine and its
    offline event, which the app acts on. go_online undoes both."""
    page.context.route("**/*", lambda route: route.abort("internetdisconnected"))
    page.context.set_offline(True)
    page.wait_for_function("() => !navigator.onLine", polling=100)


def go_online(page: Page) -> None:
    """Give the phone its connection back (after go_offline)."""
    page.context.unroute("**/*")
    page.context.set_offline(False)


def sign_in(context: BrowserContext, site: str, username: str) -> None:
    """Sign this phone in to the site without the form (the other test goes through it)."""
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": site}])


def fill_card(field: Locator, name: str) -> None:
    """Type `name` into a card field and wait for its list of matching cards: a list that arrives after
    the next tap would move what that tap aims at (a busy machine showed it). Other fields, and every field of a
    phone without JavaScript (no list comes), are just filled."""
    if field.get_attribute("data-picker") is None:
        field.fill(name)
        return
    # Typed before htmx took the page's fields in (it does on DOMContentLoaded, before "load"), the input asks
    # nothing: a busy machine filled a just-opened entry page's first field that early, and waited for ever.
    field.page.wait_for_load_state("load")
    if not field.page.evaluate("() => Boolean(window.htmx)"):  # JavaScript off: no list comes
        field.fill(name)
        return
    # Nor does one typed into a part just swapped in: htmx takes its fields in when the swap settles (20 ms later,
    # longer on a busy machine; till then the part is .htmx-added). CI's PostgreSQL pass filled Evons' card field
    # as soon as the turn's text showed, and no list was ever asked for.
    field.page.wait_for_function("() => !document.querySelector('.htmx-added')")

    def asks_for_it(response) -> bool:
        asked = parse_qs(urlsplit(response.url).query)
        return "/pick/" in response.url and name in [value for values in asked.values() for value in values]

    with field.page.expect_response(asks_for_it):
        field.fill(name)
    expect(field).not_to_have_class(re.compile(r"\bhtmx-request\b"))


def has_focus(target: Locator, timeout: float = 10_000) -> None:
    """`target` holds the page's focus (its document's activeElement), waited for as `expect` waits. Playwright's
    to_be_focused also asks that the browser's window have the focus (document.hasFocus()), which a headless
    browser on a busy machine did not always report: ci68 failed on the replay's Go ("inactive") after every step
    before it had found the focus where the page put it. What has the focus instead is said."""
    deadline = time.monotonic() + timeout / 1000
    while not target.evaluate("el => el === el.getRootNode().activeElement"):
        if time.monotonic() > deadline:
            where = target.page.evaluate("() => (document.activeElement || document.body).outerHTML.slice(0, 160)")
            raise AssertionError(f"{target} does not have the focus; it is on {where}")
        target.page.wait_for_timeout(50)


def hand_to(page: Page, name: str) -> None:
    """Hot-seat: the phone shows `name`'s pass screen, where the previous player's lock-in leads by itself, else by
    the board's "Pass the phone to" button."""
    pass_screen = page.get_by_role("heading", level=1, name=f"Pass the phone to {name}")
    button = page.get_by_role("link", name=f"Pass the phone to {name}")
    expect(pass_screen.or_(button)).to_be_visible()
    if not pass_screen.is_visible():
        button.click()
    expect(pass_screen).to_be_visible()


def handed_on(page: Page, name: str, said: str) -> None:
    """After a hot-seat lock-in that leaves `name` to enter: their pass screen tells `said` (what came of the
    lock-in; its status symbol not alone on a line), and it and the button to go on are wholly in view together."""
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Pass the phone to {name}")
    in_view(page, page.locator(".notice", has_text=said))
    assert lone_symbols(page.locator(".messages")) == [], "a status symbol alone on its line, the name after it below"
    in_view(page, page.get_by_role("link", name=f"I am {name}: show my entry"))


def form_with_button(page: Page, name: str) -> Locator:
    """The board form holding the button of that name."""
    return page.locator("form").filter(has=page.get_by_role("button", name=name))


def match_on_this_phone(context: BrowserContext, slug: str, players: list[str], config: dict | None = None):
    """A new match of `slug` set up by this phone (as if it had pressed Start, the demo catalogs loaded), so its
    page is the owner's: entries, the share panel. `config`: its options (the defaults when not given)."""
    from django.http import HttpRequest

    from tracker.demo import load_catalogs
    from tracker.matches import services

    load_catalogs()
    context.request.post("/healthz")  # a form sent gives the phone its device cookie (devices.py), refused or not
    device = next(cookie for cookie in context.cookies() if cookie["name"] == "tk_device")
    request = HttpRequest()
    request.COOKIES = {"tk_device": device["value"]}
    return services.match_create(slug=slug, player_names=players, config=config or {},
                                 owner_device=request.get_signed_cookie("tk_device", salt="tk_device"))
