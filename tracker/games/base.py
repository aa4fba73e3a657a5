"""The contract between a game's engine and its pages: one base class, every hook with its default.

The engine in rules/<game>/ decides everything: what is legal, every number, why an action is
refused. A game's pages (a subclass of `GamePages`, registered in tracker/games/__init__.py)
turn form posts into the engine's actions and its states and events into what a page shows,
and compute no rule themselves.

Each game's pages live in a package of the same shape, and the subclass names its modules:

    tracker/games/<game>/__init__.py    the GamePages subclass: slug, noun, modules, consequences,
                                        tampered_demo, tampered_stat, extra hooks
    tracker/games/<game>/forms.py       CardForm, ConfigForm, BOARD_FORMS (the board's forms), secret entry
    tracker/games/<game>/board.py       board(match): what templates/games/<slug>/board.html shows
    tracker/games/<game>/narration.py   describe(event, names), describe_action(action, events, names)
    tracker/games/<game>/statistics.py  figures(matches), progress(match)
    tracker/games/<game>/demo.py        CARDS, MATCHES (scripted demo matches by name) and PLAYED
                                        (which of them `manage.py demo` plays, and who sits where)

Those module members are required, each module held to its protocol below (`FormsModule`,
`BoardModule`, ...): mypy checks their signatures, and `Modules` refuses a module that lacks one when
the pages class is created. The base class calls them. Every other hook has a default
that fits a game played open: a game with a secret entry subclasses `SecretEntryPages` instead,
and one that reads cards from its log overrides that hook.

Board forms post to `match_act` with `seq`, the action's fields, and optional `roll` fields for
dice rolled by hand; each is a BoardActionForm (tracker/games/board_forms.py) whose cleaned data is
the engine's action, and a refused one comes back bound, in the template's `refused`. The board template gets `match`, `board` (from `board()`), `players`,
`viewer` (role and seat), `read_only` (a spectator, or the replay page: no action form, button
or hot-seat link then) and `entry_seats` (per seat: awaiting a secret entry or not, where this
phone goes to make it, and this phone's own hidden entry; templates/tracker/entry_seats.html
shows them). An action with `"override": true` is a manual override in the log.
"""

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

from django import forms
from django.core.exceptions import ValidationError
from django.utils.functional import Promise
from django.utils.translation import gettext

import rules
from tracker.matches import numbers

from .board_forms import BoardActionForm, BoardForms

if TYPE_CHECKING:
    from ..models import Match

Players = tuple[str, str]
Figures = list[tuple[str, list[tuple[str, Any]]]]
"""Statistics: (title, rows of (label, value)), largest first."""
Progress = tuple[str, dict[str, list[int]]]
"""A match's chart: its title, and per player name one value at the start and after each round or turn."""


class Allowance(Protocol):
    """What a game's pages may ask of a costly kind's allowance for one request (tracker/web/limits.Allowance)."""

    def allows(self) -> bool: ...

    def spend(self) -> None: ...


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


@runtime_checkable
class FormsModule(Protocol):
    """forms.py: the catalog card form, the match options form (an empty one for a game without options)
    and the board's forms, each turning what it posts into the engine's action."""

    @property
    def CardForm(self) -> type[forms.Form]: ...  # noqa: N802 - the module's class, by its name

    @property
    def ConfigForm(self) -> type[forms.Form]: ...  # noqa: N802

    @property
    def BOARD_FORMS(self) -> BoardForms: ...  # noqa: N802


@runtime_checkable
class SecretEntryForms(FormsModule, Protocol):
    """forms.py of a game with a secret entry: the entry form and its action (see SecretEntryPages)."""

    def seats_to_enter(self, match: "Match", /) -> list[int]: ...

    def entry_form(self, match: "Match", data: Any = None, seat: int | None = None, /) -> forms.Form: ...

    def entry_action(self, form: Any, seat: int, /) -> dict: ...

    def entry_examples(self, match: "Match", seat: int, /) -> tuple[dict, dict]: ...


@runtime_checkable
class BoardModule(Protocol):
    """board.py: what templates/games/<slug>/board.html shows."""

    def board(self, match: "Match", /) -> dict: ...


@runtime_checkable
class NarrationModule(Protocol):
    """narration.py: the log's lines."""

    def describe(self, event: dict, names: list[str], /) -> str: ...

    def describe_action(self, action: dict, events: list[dict], names: list[str], /) -> str: ...


@runtime_checkable
class StatisticsModule(Protocol):
    """statistics.py: the game's figures and a match's chart."""

    def figures(self, matches: Any, /) -> Figures: ...

    def progress(self, match: "Match", /) -> Progress | None: ...


@runtime_checkable
class DemoModule(Protocol):
    """demo.py: the demo catalog, the scripted matches by name, and which of them `manage.py demo` plays."""

    @property
    def CARDS(self) -> list[dict]: ...  # noqa: N802 - the module's constant, by its name

    @property
    def MATCHES(self) -> Mapping[str, Callable[[Players], "Match"]]: ...  # noqa: N802

    @property
    def PLAYED(self) -> list[tuple[str, Players]]: ...  # noqa: N802


@dataclass(frozen=True)
class Modules:
    """A game's pages package, module by module, each held to its protocol: mypy checks every member's
    signature, and a module that lacks one fails here, when the game's pages class is created."""

    forms: FormsModule
    board: BoardModule
    narration: NarrationModule
    statistics: StatisticsModule
    demo: DemoModule

    def __post_init__(self) -> None:
        for part in fields(self):
            lacking(getattr(self, part.name), part.type)


@dataclass(frozen=True)
class SecretEntryModules(Modules):
    """The modules of a game with a secret entry (SecretEntryPages): its forms module holds the entry too."""

    forms: SecretEntryForms


def lacking(module: object, protocol: Any) -> None:
    """TypeError naming each member of `protocol` that `module` does not have."""
    if not isinstance(module, protocol):
        missing = [name for name in protocol.__protocol_attrs__ if not hasattr(module, name)]
        raise TypeError(f"{getattr(module, '__name__', module)} lacks {', '.join(sorted(missing))} "
                        f"({protocol.__name__}, tracker/games/base.py).")


class GamePages:
    """One game's web side. Subclass it, set the four required members, override the hooks it needs."""

    # ------------------------------------------------------------ required
    slug: ClassVar[str]
    """The game's key in rules.GAMES, URLs, templates/games/<slug>/ and the catalog (required)."""
    noun: ClassVar[str | Promise]
    """What one match is called, for "New <game> <noun>": "battle", "duel" (required, translatable)."""
    modules: ClassVar[Modules]
    """The game's forms, board, narration, statistics and demo modules (required)."""

    consequences: ClassVar[frozenset[str]]
    """The engine's event types a player must act on at the table (a card leaving play, lethal damage, a mill,
    a raid, a status landing or wearing off, a flip, the match's end): the outcome box never folds their
    lines away (tracker/matches/outcome.py; required)."""

    tampered_demo: ClassVar[str]
    """The demo match (a key of the demo module's MATCHES) whose exported file the import tests alter, one
    way per test, to see each tampering refused: finished with a winner, six steps or more, the first
    one a seat's, and a card named in one (tests/tracker/test_exchange.py; required)."""
    tampered_stat: ClassVar[str]
    """A whole-number stat of the first card that match's file names, raised by one by the import tests
    (still a value the card may take): the re-run's result must differ from the one recorded (required)."""

    REQUIRED = ("slug", "noun", "modules", "consequences", "tampered_demo", "tampered_stat")

    # ------------------------------------------------------------ optional, with defaults
    box_rows: ClassVar[int] = 9
    """Rows of text the outcome box holds on a 360x740 phone under its Undo and Close (app.css: 35.5vh, rows of
    1.3 x 0.9rem): the step's key lines open in it fill no more (tracker/matches/outcome.py)."""
    key_stats: ClassVar[tuple[str, ...]] = ()
    """The card_form fields the default card_facts marks key: shown beside a card while choosing one."""
    cards_played_from_log: ClassVar[bool] = False
    """Whether cards_played reads the match's log, so statistics prefetch the logs of many matches at once."""
    competes: ClassVar[bool] = False
    """Whether the game's matches in a club count in the club's ratings and may be tournament battles
    (tracker/competition/): then reopening a finished one says what it changes there."""
    reusable_entry: ClassVar[str | None] = None
    """The type of a secret entry's action (its payload holds "seat" and "cards", in order; its form, fields
    card_1, card_2, ...) that a player may take again from their last match of the game in one tap
    (tracker/matches/last_entry.py): a deck, a lineup. None: nothing to take again (no entry, or a commit)."""
    stylesheet: ClassVar[str | None] = None
    """The board's own look (a static file, "css/games/<slug>.css"), linked by the match and replay pages
    outside the part a tap or a step redraws: a <link> drawn again with each answer was removed and loaded anew,
    and until it applied (a few milliseconds, after the first paint at times) the board was laid out without it,
    the page above the outcome box a line or two taller. None: the board needs only app.css."""
    score_counted: ClassVar[Promise | None] = None
    """What the two numbers of a match's score count, in the game's words: a lazy translation formatted
    with `a` and `b`, the numbers as shown, and `n`, the first one (`npgettext_lazy(slug, one, many, "n")`):
    "%(a)s rounds to %(b)s". None: the engine's score as it is (a score in words, "by deck-out")."""

    def __init_subclass__(cls, abstract: bool = False, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        if abstract:  # a kind of game's pages (SecretEntryPages), not one game's
            return
        missing = [name for name in cls.REQUIRED if name not in dir(cls)]
        if missing:
            raise TypeError(f"{cls.__name__} must set {', '.join(missing)} (see tracker/games/base.py).")

    @property
    def game(self) -> rules.Game:
        """The game's rules."""
        return rules.GAMES[self.slug]

    @property
    def package(self) -> Path:
        """The folder of the game's pages package (tracker/games/<game>/)."""
        return Path(inspect.getfile(type(self))).resolve().parent

    @property
    def engine_package(self) -> Path:
        """The folder of the game's engine package (rules/<game>/): the one holding its match module."""
        return Path(inspect.getfile(self.game.new_match)).resolve().parent

    @property
    def locale(self) -> Path:
        """Where the game's German lives: the messages of its pages package and of its templates, each with
        the game's slug as context (`pgettext("<slug>", ...)`, `{% translate ... context "<slug>" %}`), and its
        engine's (rules/<game>/: marked with `gettext_noop`, they are given the slug as context there, and
        translated with it: services.explain), written there by `manage.py makemessages`."""
        return self.package / "locale"

    def shown_score(self, score: str) -> str:
        """A score in the page's language and the game's words ("3 rounds to 2"), see `score_counted`."""
        return numbers.shown_score(score, self.score_counted, self.slug)

    @property
    def board_template(self) -> str:
        """The board included in the match and replay pages."""
        return f"games/{self.slug}/board.html"

    @property
    def entry_template(self) -> str:
        """The secret-entry page for one seat; a game played open extends tracker/no_entry.html."""
        return f"games/{self.slug}/entry.html"

    @property
    def card_form(self) -> type[forms.Form]:
        """The catalog card form (prefix "new"); its cleaned_data is the card as the engine validated it."""
        return self.modules.forms.CardForm

    @property
    def config_form(self) -> type[forms.Form]:
        """The match options form (prefix "config"); its cleaned_data is the engine's config."""
        return self.modules.forms.ConfigForm

    @property
    def demo_cards(self) -> list[dict]:
        """The demo catalog, as the engine validates cards."""
        return self.modules.demo.CARDS

    @property
    def demo_matches(self) -> Mapping[str, Callable[[Players], "Match"]]:
        """Scripted finished matches by name, each taking the two players' names (`manage.py demo`)."""
        return self.modules.demo.MATCHES

    @property
    def demo_played(self) -> list[tuple[str, Players]]:
        """Which demo_matches `manage.py demo` plays, in order, each with its players in seat order."""
        return self.modules.demo.PLAYED

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

    def passes_the_phone(self, match: "Match") -> bool:
        """Whether the owner's phone is passed between the players for their secret entries (hot-seat). False
        where the other side is the app (a Cardmaster Showdown): nobody to pass to, the entry opens at once."""
        return True

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

    def board(self, match: "Match") -> dict:
        """The context the board template needs, from the engine's state and answers (never a rule of its own)."""
        return self.modules.board.board(match)

    def lands(self, match: "Match") -> str:
        """Where the match page opens after a change sent without JavaScript (the plain POST's redirect): a fragment
        naming where the next step starts ("#ev-play"), for a game whose next step lies a screen or more below the
        page's top; with JavaScript the outcome box docks above it too (static/js/table.js). Default: "", the top."""
        return ""

    def board_refused(self, match: "Match", refused: BoardActionForm) -> dict:
        """The board after one of its forms was refused, `refused` that form bound to what it sent (the
        template finds it as `refused` too). Default: the board as board() shows it."""
        return self.board(match)

    def board_form(self, match: "Match", post) -> BoardActionForm:
        """The board form `post` came from, bound to it (an always-refusing one for an unknown `action`)."""
        return self.modules.forms.BOARD_FORMS.bind(match, post)

    # ------------------------------------------------------------ moves the game makes by itself

    def match_started(self, match: "Match", config_form: forms.Form) -> None:
        """Called once a match is created from a valid `config_form`, to make the moves the game makes
        by itself at the start (Cardmaster's Showdown: the AI locks in its lineup). Default: none."""

    def after_change(self, match: "Match", allowance: "Callable[[str], Allowance]") -> "Match":
        """Called after a player's action or secret entry was applied, to make the moves the game makes by
        itself in reply (Cardmaster's Showdown: the AI's possession); returns the match as it then is.
        `allowance(kind)` is the request's allowance of a costly kind (tracker/web/limits.py COSTLY), for
        work that counts against the phone's hour (each AI search). Default: none, the match as it is."""
        return match


    # ------------------------------------------------------------ the log

    def describe(self, event: dict, names: list[str]) -> str:
        """One log line, with its working, for an engine event ("" for one the action's title covers)."""
        return self.modules.narration.describe(event, names)

    def describe_action(self, action: dict, events: list[dict], names: list[str]) -> str:
        """The log's title for an action, as anyone may see it (the engine's public_action)."""
        return self.modules.narration.describe_action(action, events, names)

    def roll_reason(self, why: str) -> str:
        """What a die or coin decided, as the log tells it: the reason the engine recorded with the roll ("crit:
        Ember Drifter (3)"), which also seeds a coin flip, so the engine's stays as it is and this puts it in the
        reader's language. Default: the engine's words."""
        return why

    def outcome_line(self, event: dict, names: list[str]) -> str:
        """An event's line in the outcome box (tracker/matches/outcome.py), where the player looks right after a tap:
        the key working, short; "" leaves the event to the box's folded "whole working" and the log.
        Default: the log's line."""
        return self.describe(event, names)

    def reply(self, match: "Match", step: int, names: list[str]) -> tuple[str, list[str]] | None:
        """The other side's answer to log entry `step` when the app plays that side (a Showdown AI's moves): a
        heading for the outcome box and a line per move, grouped by the answer's possessions. Default: None
        (nobody answers; every seat is a player's)."""
        return None

    # ------------------------------------------------------------ statistics

    def cards_played(self, match: "Match", seat: int) -> list[str]:
        """The names of the cards a seat played in a match, for "most played cards". Default: none."""
        return []

    def figures(self, matches) -> Figures:
        """The game's own figures over finished matches, for the statistics page."""
        return self.modules.statistics.figures(matches)

    def progress(self, match: "Match") -> Progress | None:
        """The match's chart (a score, HP, ...), or None for no chart."""
        return self.modules.statistics.progress(match)


class SecretEntryPages(GamePages, abstract=True):
    """The pages of a game whose seats enter something in secret before it is revealed (a deck, a
    lineup, a commit): its `modules` are `SecretEntryModules`, whose forms module holds
    seats_to_enter(match), entry_form(match, data, seat), entry_action(form, seat) and
    entry_examples(match, seat), which these hooks call."""

    modules: ClassVar[SecretEntryModules]

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        if not isinstance(cls.modules, SecretEntryModules):
            raise TypeError(f"{cls.__name__}.modules must be SecretEntryModules: its forms hold the secret entry.")

    def seats_to_enter(self, match: "Match") -> list[int]:
        return self.modules.forms.seats_to_enter(match)

    def entry_form(self, match: "Match", data=None, seat: int | None = None) -> forms.Form:
        return self.modules.forms.entry_form(match, data, seat)

    def entry_action(self, form: forms.Form, seat: int) -> dict:
        return self.modules.forms.entry_action(form, seat)

    def entry_examples(self, match: "Match", seat: int) -> tuple[dict, dict]:
        """Two different secret entries `seat` could make now from the catalog, each as the engine's action
        (the forms module's entry_examples). The secrecy tests build two matches identical but for which
        one was made, and every page anyone else sees must be the same in both until the reveal."""
        return self.modules.forms.entry_examples(match, seat)
