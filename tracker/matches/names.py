"""Names as people type them, kept so that two names nobody could tell apart on a page are one name.

Card names (tracker/catalog/changes.catalog_name) and player names (services.player_named, and the forms
that take them) go through here. A name is kept in Unicode's compatibility form (a full-width "Ｑ" is a
"Q") with single spaces. Characters a page draws as nothing (joiners, variation selectors, fillers) make
a second "Quin" nobody could tell from the first: a card name holding one is refused, a player's name
drops them (a player's name comes from many places, an imported file among them, and means the same
player either way). A word mixing Latin, Cyrillic or Greek letters with those of another script ("Qu\u0456n",
"ꓮna" with a Lisu A) is refused wherever a name is typed. And a name drawn like one already kept (`look`: in
letters of another script, "ΑΝΑ" in Greek capitals or "Сһӏое́" all in Cyrillic, by Unicode's confusables; or with
marks a page draws as one, an accent typed twice, a dot above an i) is that name: a player's look-alike is the
same player, a card's is the card already in the catalog, a claimed name's is claimed.
"""

import re
import unicodedata
from functools import lru_cache

from confusable_homoglyphs.confusables import confusables_data
from django.utils.translation import gettext as _

INVISIBLE = frozenset([0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x2800, 0x3164, 0xFEFF, 0xFFA0,
                       *range(0x180B, 0x1810), *range(0x200B, 0x2010), *range(0x2060, 0x2070), *range(0xFE00, 0xFE10),
                       *range(0xE0000, 0xE1000)])
"""Characters a page draws as nothing or a blank though Python calls them printable: joiners, variation selectors,
fillers, the blank braille cell (Unicode's default-ignorable code points, and those blanks)."""
PLAYER_NAME_MAX = 40
"""Characters a player's name may hold as it is kept (Player.name), counted after `player_name`: the compatibility
form may make a name longer ("\ufdfa" is 18 characters), and invisible characters shorter."""
ALPHABETS = ("LATIN", "CYRILLIC", "GREEK")
"""Alphabets whose letters look alike (a Cyrillic "о" is a Latin "o" on the screen)."""


DRAWN_AS = {"\u04cf": "l", "\u0237": "j", "\u051a": "Q"}
"""Where pages draw a letter otherwise than Unicode's table says: the Cyrillic palochka "ӏ" is an "l" ("Сһӏое́" was
Chloé on every page), not the "i" of the table; a dotless j with a dot above is a j ("Anȷ̇a" was Anja); the Cyrillic
capital qa "Ԛ", which the table leaves out, is drawn as a Q to the pixel ("Ԛі" was Qi)."""


def _prototype(character: str) -> str:
    """What a character is drawn like, as Unicode's confusables table says (UTS #39): the one character it maps
    to, or itself when others map to it. Two characters that map only to each other take the lower. A capital
    the table draws as an "l" (Greek Ι, Cyrillic І) is a capital I here, since ASCII stays as typed: "ΚΙΜ" is
    KIM."""
    if character in DRAWN_AS:
        return DRAWN_AS[character]
    if unicodedata.category(character) == "Lu" and _table(character) == "l":
        return "I"
    return _table(character)


def _table(character: str) -> str:
    """The character the confusables table draws `character` as (itself when it draws others)."""
    found = confusables_data.get(character)
    if not found:
        return character
    if len(found) > 1:  # others are drawn like it: it is their prototype
        return character
    target = found[0]["c"]
    back = confusables_data.get(target)
    if back is not None and len(back) == 1 and back[0]["c"] == character:
        return min(character, target)
    return target


@lru_cache(maxsize=4096)
def look(name: str) -> str:
    """What a name looks like on a page (its "skeleton"): two names with one look are names nobody could tell
    apart. Every character outside ASCII is replaced by the one it is drawn like (a Greek "Ν", a Coptic "Ⲛ" and a
    Lisu "ꓠ" are an "N"), twice, in Unicode's decomposed form; then letter case is set aside, since names are
    one in any case. ASCII stays as typed: the table also makes "m" an "rn", "0" an "O" and "I" an "l", which
    would make Tom and Torn, Bob and B0b one player, and Modem Knight a second Modern Knight."""
    text = unicodedata.normalize("NFD", player_name(name))
    for _round in range(2):
        text = unicodedata.normalize("NFD", "".join(
            character if character.isascii() else _prototype(character) for character in text))
        text = DOTTED.sub(r"\1", text)  # a dot above an i is drawn as its own dot: "ı̇" and "i̇" are "i"
        text = _one_of_each_mark(text)  # an accent typed twice is drawn once, in one place: "Noé́" is Noé
    return text.casefold()


DOTTED = re.compile("([ij](?:(?!\u0307)[\u0300-\u036f\u1dc0-\u1dff\u20d0-\u20ff])*)\u0307")
"""A small i or j with a combining dot above (after any other marks of it), which a page draws as the letter
alone (its own dot); a capital's dot (Turkish "İ") is seen."""


BELOW = frozenset({202, 218, 220, 222, 233, 240})
"""Unicode's combining classes of marks drawn below a letter (attached, left, centre, right, double, iota)."""
DESCENDERS = frozenset("gjpqyJ")
"""Small letters whose tail a mark below is drawn into: a cedilla under a j is hidden by it ("Anj̧a" was Anja)."""


def _one_of_each_mark(text: str) -> str:
    """The text without the marks a page draws as nothing more: each combining mark that repeats the mark just
    before it, marks below (by their combining class: BELOW) on a letter with a descender, and overlays (class 1),
    which run along an e's bar ("Be̵n" was a second Ben at 16 px)."""
    kept: list[str] = []
    base = ""
    for character in text:
        combining = unicodedata.combining(character)
        if not combining:
            base = character
        elif (kept and character == kept[-1]) or (base in DESCENDERS and combining in BELOW) or combining == 1:
            continue
        kept.append(character)
    return "".join(kept)


def compatible(typed: str) -> str:
    """Unicode's compatibility form with single spaces."""
    return " ".join(unicodedata.normalize("NFKC", typed).split())


def hidden(name: str) -> bool:
    """Whether the name holds a character a page draws as nothing, or a control character."""
    return not name.isprintable() or any(ord(character) in INVISIBLE for character in name)


def foreign_letter(name: str) -> str:
    """A letter of a word that mixes Latin, Cyrillic or Greek letters with letters of another script ("ꓮna" with a
    Lisu A, "Ⲃen" with a Coptic B, "ОᏞᎶА" with Cherokee ones): said as "“А” (U+0410)", since on the page it looks
    like the letter it passes for. "" when no word mixes. Other scripts may mix (a Japanese name mixes kanji and
    kana)."""
    for word in name.split():
        scripts = {letter: unicodedata.name(letter, "").partition(" ")[0] for letter in word
                   if unicodedata.category(letter) in ("Lu", "Ll", "Lt", "Lo")}  # not a modifier: "Hawaiʻi"
        # A mark of a script (a Hebrew point): drawn on the letter before it, often as nothing ("C\u05c2hloé"
        # was a second Chloé). Unicode's marks of any script are named "COMBINING ..." and may go anywhere.
        scripts.update((mark, script) for mark in word if unicodedata.category(mark) in ("Mn", "Mc", "Me")
                       and (script := unicodedata.name(mark, "COMBINING").partition(" ")[0]) != "COMBINING")
        alphabets = set(scripts.values())
        if len(alphabets) < 2 or not alphabets & set(ALPHABETS):
            continue
        main = next(script for script in ALPHABETS if script in alphabets)  # Latin, else Cyrillic, else Greek
        letter = next(letter for letter, script in scripts.items() if script != main)
        return f"“{letter}” (U+{ord(letter):04X})"
    return ""


def player_name(typed: str) -> str:
    """A player's name as it is kept: compatible, without the characters a page draws as nothing."""
    return compatible("".join(character for character in typed if ord(character) not in INVISIBLE
                              and (character.isprintable() or character.isspace())))


def player_name_refusal(name: str) -> str:
    """Why a typed player name is refused ("" when it is not): one that would pass for another name, one the page
    would draw as nothing, or one too long as it is kept."""
    kept = player_name(name)
    if not kept:
        return _("A player's name needs a letter or a digit that can be seen.")
    if len(kept) > PLAYER_NAME_MAX:
        return _("A player's name has at most %(most)s characters (as it is kept, this one has %(n)s).") % {
            "most": PLAYER_NAME_MAX, "n": len(kept)}
    if letter := foreign_letter(kept):
        return _("A word of a player's name cannot mix Latin letters with those of another script, nor Cyrillic with "
                 "Greek (they look alike): in %(name)s, %(letter)s is of another script.") % {
            "name": name, "letter": letter}
    return ""
