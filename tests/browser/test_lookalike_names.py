"""Names a page draws alike are one name: every variant the name rules let through with a look of its own is drawn
visibly otherwise (tracker/matches/names.py).

The variants of a few names are generated the way an impostor would make them: every combining mark after each
letter (the name as typed and decomposed), every swap the confusables table offers for a letter, and every format
or blank character between two letters. Those the rules refuse, or keep with the name's own `look` (the same
player, card or claim), are fine. Each other one is drawn beside its name in Chromium with the app's fonts, on a
canvas, and the two drawings' alpha compared. Found this way: Hebrew points on a Latin letter, drawn as nothing
(identical pixels), and a cedilla in a j's tail (a few pixels at 48 px).

And every letter Unicode has, outside the ideographs and syllables that look like no Latin letter, is drawn at 16 px
and compared with the 52 ASCII letters: one drawn exactly like a letter is that letter by `look` (Unicode's table
leaves the Cyrillic "Ԛ" out; names.DRAWN_AS has it).

Variants in ASCII are left out: "Jlj" for "Jij" or "Torn" for "Tom" are names people have (names.look keeps ASCII as
typed). Thresholds are in alpha units summed over the drawing (255 is one pixel fully inked); with Debian's DejaVu
Sans the closest variants were 306 at 16 px (a second small mark stacked on an acute, as Vietnamese writes its
tones) and 3,689 at 48 px bold.
"""

import string
import unicodedata

import pytest
from confusable_homoglyphs.confusables import confusables_data
from playwright.sync_api import Browser

from tracker.matches import names

pytestmark = [pytest.mark.browser]

NAMES = ("Chloé", "Jij", "Olga", "Inès", "Zoë", "Kim", "Nova Drake", "Phoenix")
"""Accents, dotted letters, descenders, capitals and a space: where the rules have had holes."""
FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif'
"""static/css/app.css's body font."""
LEAST = {"16px": 1, "bold 48px": 1000}
CANVAS = {"16px": (240, 40), "bold 48px": (560, 110)}
"""Room for the longest name and its marks above and below at each size, and no more: the comparison reads every
pixel."""
"""How much, at least, a variant's drawing differs from its name's at each size: at 16 px anything, at 48 px bold
four pixels' worth."""

DRAW = """([pairs, font, width, height]) => {
  const canvas = new OffscreenCanvas(width, height);
  const pen = canvas.getContext('2d', {willReadFrequently: true});
  pen.font = font; pen.textBaseline = 'middle'; pen.fillStyle = '#000';
  const drawn = new Map();
  function alpha(text) {
    if (!drawn.has(text)) {
      pen.clearRect(0, 0, width, height); pen.fillText(text, 4, height / 2);
      const rgba = pen.getImageData(0, 0, width, height).data, only = new Uint8Array(width * height);
      for (let k = 0; k < only.length; k++) only[k] = rgba[4 * k + 3];
      drawn.set(text, only);
    }
    return drawn.get(text);
  }
  return pairs.map(([name, variant]) => {
    const a = alpha(name), b = alpha(variant);
    let differ = 0;
    for (let k = 0; k < a.length; k++) differ += Math.abs(a[k] - b[k]);
    if (drawn.size > 500) drawn.clear();
    return differ;
  });
}"""


def _drawn_like() -> dict[str, set[str]]:
    """Each character, and those the confusables table says are drawn like it, both ways."""
    alike: dict[str, set[str]] = {}
    for character, entries in confusables_data.items():
        for entry in entries:
            alike.setdefault(entry["c"], set()).add(character)
            alike.setdefault(character, set()).add(entry["c"])
    return alike


def variants(name: str) -> set[str]:
    marks = [chr(c) for c in range(0x300, 0x110000) if unicodedata.category(chr(c)) in ("Mn", "Me")]
    blanks = [chr(c) for c in range(0x80, 0x30000) if unicodedata.category(chr(c)) in ("Cf", "Zs")]
    alike = _drawn_like()
    made = set()
    for form in {name, unicodedata.normalize("NFD", name)}:
        for at in range(1, len(form) + 1):
            made.update(form[:at] + mark + form[at:] for mark in marks)
        for at, letter in enumerate(form):
            swaps = alike.get(letter, set()) | alike.get(letter.lower(), set()) | alike.get(letter.upper(), set())
            made.update(form[:at] + swap + form[at + 1:] for swap in swaps)
    for at in range(1, len(name)):
        made.update(name[:at] + blank + name[at:] for blank in blanks)
    return made - {name}


def impostors() -> list[tuple[str, str]]:
    """(name, variant) for each variant kept as a name of its own and not written in ASCII."""
    found = []
    for name in NAMES:
        for variant in variants(name):
            if variant.isascii() or names.player_name_refusal(variant):
                continue
            if names.look(variant) != names.look(name):
                found.append((name, variant))
    return sorted(found)


def test_every_name_of_its_own_is_drawn_as_one(browser: Browser):
    pairs = impostors()
    assert len(pairs) > 10_000  # the generator still makes what the rules must judge
    page = browser.new_page()
    try:
        too_close = []
        for size, least in LEAST.items():
            differ = []
            for start in range(0, len(pairs), 10_000):
                differ += page.evaluate(DRAW, [pairs[start:start + 10_000], f"{size} {FONT}", *CANVAS[size]])
            too_close += [(amount, size, name, ascii(variant))
                          for (name, variant), amount in zip(pairs, differ, strict=True) if amount < least]
    finally:
        page.close()
    assert not too_close, f"{len(too_close)} names drawn like another, closest first: {sorted(too_close)[:10]}"


SAME_AS = """([letters, font, latin]) => {
  const size = 40, canvas = new OffscreenCanvas(size, size), pen = canvas.getContext('2d', {willReadFrequently: true});
  pen.font = font; pen.textBaseline = 'middle'; pen.fillStyle = '#000';
  function drawing(text) {
    pen.clearRect(0, 0, size, size); pen.fillText(text, 4, size / 2);
    return pen.getImageData(0, 0, size, size).data.filter((_, k) => k % 4 === 3).join(',');
  }
  const ascii = new Map([...latin].map(letter => [drawing(letter), letter]));
  return letters.map(letter => ascii.get(drawing(letter)) || '');
}"""
FAR_FROM_LATIN = (range(0x3400, 0xA000), range(0xAC00, 0xD7B0), range(0x20000, 0x110000))
"""Ideographs and syllables (CJK, Hangul): 100,000 letters none of which is drawn like a Latin one."""
ALEF = "\u0627"
"""Arabic alef, drawn as an "l" (its isolated form too, which the kept form makes an alef): a word of alefs alone is
the only name it could copy, and an alef in a Latin word is refused (names.foreign_letter)."""


def test_no_letter_is_drawn_exactly_as_another(browser: Browser):
    kept = set()
    for code in range(0x80, 0x30000):
        if unicodedata.category(chr(code))[0] != "L" or any(code in far for far in FAR_FROM_LATIN):
            continue
        letter = names.player_name(chr(code))
        if letter and not names.player_name_refusal(letter) and not (len(look := names.look(letter)) == 1
                                                                       and look.isascii()):
            kept.add(letter)
    letters = sorted(kept - {ALEF})
    assert len(letters) > 10_000
    page = browser.new_page()
    try:
        drawn_as = []
        for start in range(0, len(letters), 10_000):
            drawn_as += page.evaluate(SAME_AS, [letters[start:start + 10_000], f"16px {FONT}", string.ascii_letters])
    finally:
        page.close()
    same = [(ascii(letter), latin) for letter, latin in zip(letters, drawn_as, strict=True) if latin]
    assert not same, f"drawn exactly as an ASCII letter, with a look of their own: {same}"
