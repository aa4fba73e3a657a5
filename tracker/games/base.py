"""The contract between a game's engine and its pages: one base class, every hook with its default.

The engine in rules/<game>/ decides everything: what is legal, every number, why an action is
refused. A game's pages (a subclass of `GamePages`, registered in tracker/games/__init__.py)
turn form posts into the engine's actions and its states and events into what a page shows,
and compute no rule themselves.

A subclass must set the class attributes marked *required* and implement the four abstract
methods (board, table_action, describe, describe_action); every other hook has a default that
fits a game played open, with no statistics of its own. Each game's pages live in a package
of the same shape:

    tracker/games/<game>/__init__.py    the GamePages subclass: this contract filled in
    tracker/games/<game>/forms.py       catalog card, match options, secret entry, board forms -> actions
    tracker/games/<game>/board.py       what the board template shows
    tracker/games/<game>/narration.py   describe(event) and describe_action(action): the log in words
    tracker/games/<game>/statistics.py  figures, progress chart, cards played
    tracker/games/<game>/demo.py        demo cards and scripted demo matches

Board forms post to `match_act` with `seq`, the action's fields, and optional `roll` fields for
dice rolled by hand. The board template gets `match`, `board` (from `board()`), `players`,
`viewer` (role and seat), `read_only` (a spectator, or the replay page: no action form, button
or hot-seat link then) and `entry_seats` (per seat: awaiting a secret entry or not, where this
phone goes to make it, and this phone's own hidden entry; templates/tracker/entry_seats.html
shows them). An action with `"override": true` is a manual override in the log.
"""

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from django import forms
from django.core.exceptions import ValidationError
from django.utils.functional import Promise
from django.utils.translation import gettext

import rules

if TYPE_CHECKING:
    from ..models import Match

Players = tuple[str, str]
Figures = list[tuple[str, list[tuple[str, Any]]]]
"""Statistics: (title, rows of (label, value)), largest first."""
Progress = tuple[str, dict[str, list[int]]]
"""A match's chart: its title, and per player name one value at the start and after each round or turn."""


@dataclass(frozen=True)
class CardFact:
    """One stat of a catalog card as pages show it: the catalog's column, a row on the card's page,
    and, when `key`, a figure beside the card's name while a player chooses a card (the picker)."""

    label: str | Promise
    value: str
    key: bool = False


def shown(value: Any) -> str:
    """A stat as words: nothing for None, lists joined by commas, numbers as they are."""
    if value is None:
        return ""
    if isinstance(value, list | tuple):
        return ", ".join(str(item) for item in value)
    return str(value)


class NoEntryForm(forms.Form):
    """The secret-entry form of a game played open: whatever is sent, it says there is nothing to enter."""

    def __init__(self, data=None, *, reason: str) -> None:
        super().__init__(data)
        self.reason = reason

    def clean(self):
        raise ValidationError(self.reason)


class GamePages(ABC):
    """One game's web side. Subclass it, fill in the required members, override the hooks it needs."""

    # ------------------------------------------------------------ required
    slug: ClassVar[str]
    """The game's key in rules.GAMES, URLs and the catalog (required)."""
    noun: ClassVar[str | Promise]
    """What one match is called, for "New <game> <noun>": "battle", "duel" (required, translatable)."""
    board_template: ClassVar[str]
    """The board included in the match and replay pages: templates/games/<slug>/board.html (required)."""
    entry_template: ClassVar[str]
    """The secret-entry page for one seat; a game played open extends tracker/no_entry.html (required)."""
    card_form: ClassVar[type[forms.Form]]
    """The catalog card form (prefix "new"); its cleaned_data is the card as the engine validated it (required)."""
    config_form: ClassVar[type[forms.Form]]
    """The match options form (prefix "config"); its cleaned_data is the engine's config (required)."""
    demo_cards: ClassVar[list[dict]]
    """The demo catalog, as the engine validates cards (required)."""
    demo_matches: ClassVar[Mapping[str, Callable[[Players], "Match"]]]
    """Scripted finished matches by name, each taking the two players' names (required; `manage.py demo`)."""

    REQUIRED = ("slug", "noun", "board_template", "entry_template", "card_form", "config_form", "demo_cards",
                "demo_matches")

    # ------------------------------------------------------------ optional, with defaults
    key_stats: ClassVar[tuple[str, ...]] = ()
    """The card_form fields the default card_facts marks key: shown beside a card while choosing one."""
    cards_played_from_log: ClassVar[bool] = False
    """Whether cards_played reads the match's log, so statistics prefetch the logs of many matches at once."""

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        missing = [name for name in cls.REQUIRED if name not in dir(cls)]
        if missing:
            raise TypeError(f"{cls.__name__} must set {', '.join(missing)} (see tracker/games/base.py).")

    @property
    def game(self) -> rules.Game:
        """The game's rules."""
        return rules.GAMES[self.slug]

    # ------------------------------------------------------------ the catalog

    def card_stats(self, card: dict) -> dict:
        """What the catalog stores beside a card's name. Default: every field but the name."""
        return {key: value for key, value in card.items() if key != "name"}

    def card_initial(self, card: dict) -> dict:
        """A catalog card as card_form data (for CSV rows). Default: the card as it is, for flat cards."""
        return card

    def card_facts(self, card: dict) -> list[CardFact]:
        """Every stat of a catalog card, labelled, in the order the catalog's columns show them; the
        `key` ones are also shown while choosing a card. Default: each card_form field but the name,
        by its label, a choice by its label; key when named in `key_stats`."""
        facts = []
        row = self.card_initial(card)
        for name, field in self.card_form().fields.items():
            if name == "name":
                continue
            value = row.get(name)
            if isinstance(value, str | int):
                value = dict(getattr(field, "choices", ())).get(value, value)
            facts.append(CardFact(field.label or name, shown(value), key=name in self.key_stats))
        return facts

    # ------------------------------------------------------------ secret entry (hot-seat)

    def seats_to_enter(self, match: "Match") -> list[int]:
        """Seats whose secret entry is awaited now. Default: none, the game is played open."""
        return []

    def entry_form(self, match: "Match", data=None, seat: int | None = None) -> forms.Form:
        """The form of `seat`'s secret entry. Default: a form that refuses anything, saying why."""
        return NoEntryForm(data, reason=self._nothing_secret())

    def entry_action(self, form: forms.Form, seat: int) -> dict:
        """The engine action from a valid entry form. Default: refused, there is nothing secret to enter."""
        raise ValidationError(self._nothing_secret())

    def own_secret(self, match: "Match", seat: int) -> list[str] | None:
        """What a seated phone entered in secret, shown to that phone alone until the reveal. Default: none."""
        return None

    def _nothing_secret(self) -> str:
        return gettext("%(game)s has nothing secret to enter; everything is played on the board.") % {
            "game": self.game.name}

    # ------------------------------------------------------------ the board

    @abstractmethod
    def board(self, match: "Match") -> dict:
        """The context the board template needs, from the engine's state and answers (never a rule of its own)."""

    @abstractmethod
    def table_action(self, match: "Match", post) -> dict:
        """The engine action an open board form asks for; ValidationError when the form is malformed.

        Whether the action is legal is the engine's call, when it is applied.
        """

    # ------------------------------------------------------------ the log

    @abstractmethod
    def describe(self, event: dict, names: list[str]) -> str:
        """One log line, with its working, for an engine event ("" for one the action's title covers)."""

    @abstractmethod
    def describe_action(self, action: dict, events: list[dict], names: list[str]) -> str:
        """The log's title for an action, as anyone may see it (the engine's public_action)."""

    # ------------------------------------------------------------ statistics

    def cards_played(self, match: "Match", seat: int) -> list[str]:
        """The names of the cards a seat played in a match, for "most played cards". Default: none."""
        return []

    def figures(self, matches) -> Figures:
        """The game's own figures over finished matches, for the statistics page. Default: none."""
        return []

    def progress(self, match: "Match") -> Progress | None:
        """The match's chart (a score, HP, ...). Default: no chart."""
        return None
