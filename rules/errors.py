"""Errors the engines raise when an action or a card breaks a rule.

The engines never import Django, yet their messages reach players and must be
translatable. So each message is an English template marked with `gettext_noop`
(which Django's makemessages extracts) and the parameters travel separately; the
tracker translates the template and fills it in.
"""


def gettext_noop(message: str) -> str:
    """Mark a message for translation without translating it here."""
    return message


class Word(str):
    """A word of the game's own vocabulary that a message names (a colour, an affinity, a stat): English here,
    and in the game's words on the pages, which translate it in the game's context as they do the message
    (services.explain). Several words make a list ("red, grey"), each said on its own.

    Every such word is marked with `gettext_noop` where the engine defines it (AFFINITIES, CLASS_COLOUR, ...),
    so it has German in the game's catalogue; a value put into a message as a plain str stays English."""

    parts: tuple[str, ...]

    def __new__(cls, *words: str) -> "Word":
        word = super().__new__(cls, ", ".join(words))
        word.parts = tuple(words)
        return word

    def __reduce__(self):
        return (Word, self.parts)


class RuleError(ValueError):
    """An action, card or option that the game's rules refuse.

    `rule` is a short stable name of the rule broken ("deck-size"), `template` the
    English message with %(name)s placeholders, `params` the values to fill in.
    """

    def __init__(self, rule: str, template: str, **params: object) -> None:
        self.rule = rule
        self.template = template
        self.params = params
        super().__init__(template % params if params else template)


class IllegalAction(RuleError):
    """The action is not allowed in this state of the match."""


class InvalidCard(RuleError):
    """A card's stats are missing, of the wrong kind or out of range."""


class InvalidConfig(RuleError):
    """A match option has a value the game does not offer."""
