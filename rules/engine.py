"""The contract every game engine offers, and the value types it returns.

A match is a seed plus a list of actions. An engine turns that into state:

    state = game.new_match(config, seed)
    state, events = game.apply(state, action, Dice(seed, step))

States, actions and events are plain dicts and lists that round-trip through JSON; each
game documents its state's shape once, in the docstring of the module that builds it.
`apply` never changes the state it is given; when the action breaks a rule it
raises a `RuleError` naming the rule, and the caller's state is as it was.

Inside an engine every kind of action has one handler, all with the same signature
(`Handler`): `handler(state, action, dice) -> events`. `apply` checks the action's kind,
copies the state, and lets the handler change the copy and say what happened. Match
options are declared with `rules.options` and checked by `new_match` through it.

What shared code and the contract tests need to know about a game is declared here, on its
`Game`, and nowhere else: its handlers, its options, how many cards its deck entry takes.
"""

import copy
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any, TypeVar, cast

from .dice import Dice
from .options import Option, defaults

State = dict
Action = dict
Event = dict
S = TypeVar("S")
Handler = Callable[[S, Action, Dice], list[Event]]
"""One kind of action: changes the engine's own copy of the state and returns what happened. Each
engine names its state's TypedDict: `Handler[Battle]`."""

OPEN = "open"
"""Whose action: anyone at the table may take it (it holds no choice that favours a side)."""
TABLE = "table"
"""Whose action: the table's as a whole (a fight, a declared winner, the end of the game): the
match's owner takes it, or one seat proposes and the other agrees."""


def seat_named(state: object, action: Action) -> int | str:
    """The default answer to whose action this is: the seat it names, else the table's."""
    seat = action.get("seat") if isinstance(action, dict) else None
    return seat if type(seat) is int else TABLE


_ATOMS = frozenset({str, int, float, bool, type(None)})


def copied[T](value: T) -> T:
    """A deep copy of plain data, for an `apply` to change: dicts, lists and tuples copied, strings, numbers,
    booleans and None shared (they cannot change), anything else left to `copy.deepcopy`.

    Each apply copies the whole state, and `copy.deepcopy` (which also keeps track of objects met twice, which
    a state that round-trips through JSON never holds) spends four to five times as long on it.
    """
    return cast(T, _plain_copy(value))


def _plain_copy(value: Any) -> Any:
    kind = type(value)
    if kind is dict:
        return {key: item if type(item) in _ATOMS else _plain_copy(item) for key, item in value.items()}
    if kind is list:
        return [item if type(item) in _ATOMS else _plain_copy(item) for item in value]
    if kind in _ATOMS:
        return value
    if kind is tuple:
        return tuple(_plain_copy(item) for item in value)
    return copy.deepcopy(value)


@dataclass(frozen=True)
class Outcome:
    """How a finished match ended."""

    winner: int | None
    """The winning seat (0 or 1), or None for a draw."""
    score: str
    """The final score as the table would say it, e.g. "3-1"."""


@dataclass(frozen=True)
class Game:
    """One game's rules, found in `rules.GAMES` by its slug."""

    slug: str
    """The game's name in URLs and exports, e.g. "card-crush"."""
    name: str
    """The game's name as players know it."""
    rules_version: str
    """Changes whenever a rule change could score an old log differently."""
    seats: int
    """How many players sit at a match."""
    new_match: Callable[[dict, str], State]
    """The state before any action, from the match options and seed."""
    legal_actions: Callable[[State], list[Action]]
    """The kinds of action allowed now (free choices such as cards are left out)."""
    apply: Callable[[State, Action, Dice], tuple[State, list[Event]]]
    """The state after an action and what happened, or a `RuleError`."""
    outcome: Callable[[State], Outcome | None]
    """How the match ended, or None while it goes on."""
    validate_card: Callable[[dict], dict]
    """A card's stats checked and normalised, or an `InvalidCard`."""
    public_action: Callable[[State, Action], Action]
    """The action as anyone at the table may see it, given the current state."""
    actions: Mapping[str, Handler]
    """Every kind of action, by its `type`, with its one handler (see `Handler`)."""
    options: Mapping[str, Option]
    """The match options, by name (rules/options.py); empty for a game the table cannot set up otherwise."""
    deck_size: Callable[[State], int] | None
    """How many cards an action's `cards` holds now (a deck or a lineup locked in): the one free choice
    legal_actions cannot list. None for a game with no such action."""
    round_of: Callable[[State], int | None]
    """The round or turn the match is in, the one its next step is played in; None while it is in none (before the
    first, as while Card Crush decks are locked in). The log's filter by round reads it of the state before each
    step (tracker/review/views.py): what a step's events say is when a round began or ended, not when it was played."""
    authority: Callable[[State, Action], int | str] = seat_named
    """Whose action this is: a seat (it belongs to that side), `OPEN` or `TABLE`. A seated phone
    takes its own side's actions and open ones alone; a table action, or a correction of the
    other side's cards, needs the other side's agreement (tracker/people/consent.py)."""

    @property
    def default_config(self) -> dict:
        """The options a match gets when the table changes nothing: each option's default."""
        return defaults(self.options)

    @classmethod
    def of(cls, play: ModuleType, *, slug: str, name: str, rules_version: str,
           validate_card: Callable[[dict], dict], deck_size: Callable[[State], int] | None) -> "Game":
        """The game whose match module `play` holds the engine contract under its usual names: SEATS,
        ACTIONS, OPTIONS, new_match, legal_actions, apply, outcome, public_action, round_of, authority. A name
        it lacks fails here, when the game is imported; so does a handler of the wrong shape."""
        for kind, handler in play.ACTIONS.items():
            if list(inspect.signature(handler).parameters) != ["state", "action", "dice"]:
                raise TypeError(f"{slug}: the handler of {kind!r} must take (state, action, dice)")
        if not all(isinstance(option, Option) for option in play.OPTIONS.values()):
            raise TypeError(f"{slug}: every match option must be a rules.options.Option")
        return cls(slug=slug, name=name, rules_version=rules_version, seats=play.SEATS, new_match=play.new_match,
                   legal_actions=play.legal_actions, apply=play.apply, outcome=play.outcome,
                   validate_card=validate_card, public_action=play.public_action, round_of=play.round_of,
                   authority=play.authority,
                   actions=play.ACTIONS, options=play.OPTIONS, deck_size=deck_size)
