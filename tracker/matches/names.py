"""Names as people type them, kept so that two names nobody could tell apart on a page are one name.

Card names (tracker/catalog/changes.catalog_name) and player names (services.player_named, and the forms
that take them) go through here. A name is kept in Unicode's compatibility form (a full-width "Ｑ" is a
"Q") with single spaces. Characters a page draws as nothing (joiners, variation selectors, fillers) make
a second "Quin" nobody could tell from the first: a card name holding one is refused, a player's name
drops them (a player's name comes from many places, an imported file among them, and means the same
player either way). A word mixing Latin, Cyrillic or Greek letters ("Qu\u0456n") is refused wherever a
name is typed.
"""

import unicodedata

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


def compatible(typed: str) -> str:
    """Unicode's compatibility form with single spaces."""
    return " ".join(unicodedata.normalize("NFKC", typed).split())


def hidden(name: str) -> bool:
    """Whether the name holds a character a page draws as nothing, or a control character."""
    return not name.isprintable() or any(ord(character) in INVISIBLE for character in name)


def mixes_alphabets(name: str) -> bool:
    """Whether a word of the name mixes Latin, Cyrillic or Greek letters."""
    for word in name.split():
        alphabets = {unicodedata.name(letter, "").partition(" ")[0] for letter in word if letter.isalpha()}
        if len(alphabets & set(ALPHABETS)) > 1:
            return True
    return False


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
    if mixes_alphabets(kept):
        return _("A word of a player's name cannot mix Latin, Cyrillic or Greek letters (they look alike): "
                 "%(name)s.") % {"name": name}
    return ""
