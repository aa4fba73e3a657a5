"""Match options, declared once per game and checked by one function.

A game lists its options as a dict of name -> `Option` (a `Choice`, a `WholeNumber`, a
`YesNo`, or a subclass for a shape of its own), each with its default and the rule and
message its refusal names. `checked_config` fills in the defaults and refuses an unknown
option or a value the option does not take with an `InvalidConfig`, so every engine's
`new_match` starts from options it can trust.

Messages are `gettext_noop` templates; they may use %(option)s, %(value)r, %(allowed)s,
%(low)s and %(high)s.
"""

from collections.abc import Mapping

from .errors import InvalidConfig, gettext_noop


class Option:
    """One match option: its default, the values it accepts, and how a wrong value is refused."""

    rule = "config-value"
    message = gettext_noop("%(option)s cannot be %(value)r.")

    def __init__(self, default: object, *, rule: str | None = None, message: str | None = None) -> None:
        self.default = default
        self.rule = rule or self.rule
        self.message = message or self.message

    def accepts(self, value: object) -> bool:
        raise NotImplementedError

    def clean(self, value):
        """The value as the match keeps it (an accepted value, tidied)."""
        return value

    def params(self) -> dict:
        """What the refusal's message may name beside the option and the value."""
        return {}


class Choice(Option):
    """One of a few values (never True or False standing in for 1 or 0)."""

    rule = "config-choice"
    message = gettext_noop("The option %(option)s is one of %(allowed)s, not %(value)r.")

    def __init__(self, allowed: tuple, default: object, **refusal) -> None:
        super().__init__(default, **refusal)
        self.allowed = allowed

    def accepts(self, value: object) -> bool:
        return not isinstance(value, bool) and value in self.allowed

    def params(self) -> dict:
        *others, last = [str(value) for value in self.allowed]
        return {"allowed": f"{', '.join(others)} or {last}" if others else last}


class WholeNumber(Option):
    """A whole number from `low` to `high`."""

    rule = "config-number"
    message = gettext_noop("The option %(option)s is a whole number from %(low)s to %(high)s, not %(value)r.")

    def __init__(self, low: int, high: int, default: int, **refusal) -> None:
        super().__init__(default, **refusal)
        self.low, self.high = low, high

    def accepts(self, value: object) -> bool:
        return not isinstance(value, bool) and isinstance(value, int) and self.low <= value <= self.high

    def params(self) -> dict:
        return {"low": f"{self.low:,}", "high": f"{self.high:,}"}


class YesNo(Option):
    """True or False."""

    rule = "config-flag"
    message = gettext_noop("%(option)s is either true or false, not %(value)r.")

    def accepts(self, value: object) -> bool:
        return isinstance(value, bool)


def defaults(options: Mapping[str, Option]) -> dict:
    """The options a match gets when the table changes nothing."""
    return {name: option.default for name, option in options.items()}


def checked_config(game_name: str, options: Mapping[str, Option], config: object) -> dict:
    """Every option of a match (defaults filled in), checked; `InvalidConfig` naming the first wrong one."""
    if not isinstance(config, dict):
        raise InvalidConfig("config-shape", gettext_noop("Match options must be a set of named values."))
    unknown = set(config) - set(options)
    if unknown:
        raise InvalidConfig(
            "config-unknown",
            gettext_noop("%(game)s has no option called %(option)s."),
            game=game_name,
            option=", ".join(sorted(map(str, unknown))),
        )
    checked = {}
    for name, option in options.items():
        value = config.get(name, option.default)
        if not option.accepts(value):
            raise InvalidConfig(option.rule, option.message, option=name, value=value, **option.params())
        checked[name] = option.clean(value)
    return checked
