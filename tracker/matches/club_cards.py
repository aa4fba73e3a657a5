"""The catalog as a match plays it: a club's own corrections of cards in place of the catalog's stats.

A club that needs other stats for a card keeps a correction (ClubCorrection, set by its organisers
through tracker/catalog/changes.py); its new matches play the card with it, and nobody else's card
changes. Every game's pages look catalog cards up for a match through here.

Decided (rounds 19 to 21): a match plays the catalog as it stood when the match was made: each name with the
stats it had then, and the club's corrections as they stood then. A change made while it is played would
change it between its entries: an organiser who played set her cards to 999 after the other side locked in,
by a club correction (round 19), by editing the card, a CSV row over it, or deleting and adding it (round 20),
by renaming cards or editing one before deleting it (round 21). So a match rebuilds the catalog of its moment
from the records (CardChange: every edit, deletion and correction, each naming its card by id and birth even
once it is deleted), undoing every change made since. A card added since plays as it stands, under a name no
card had then (the entry page adds cards; it is public). A correction set back to the catalog's stats is none
(card_correct deletes it). The club's other matches, and those made later, are not a match's business.
"""

import collections
import functools
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.utils import timezone

from tracker.matches.names import look
from tracker.models import Card, CardChange, ClubCorrection, Match

KEPT_AFTER = timedelta(minutes=10)
"""How old a match's moment is before a process keeps the catalog it had (`_stood`)."""


def as_seen_in(club_id: int | None, cards) -> list[Card]:
    """The cards with the club's corrections as they stand now in place of their catalog stats (not saved: a
    collection's page; a match plays the catalog of its moment, below)."""
    cards = list(cards)
    if club_id is None or not cards:
        return cards
    played = dict(ClubCorrection.objects.filter(club_id=club_id, card__in=cards).values_list("card_id", "stats"))
    for card in cards:
        if card.pk in played:
            card.stats = played[card.pk]
    return cards


def playable(club_id: int | None, cards, at: datetime) -> list[Card | None]:
    """Each card (a collection's, by its id) as a match made at `at` plays it: named and with the stats it had then
    (its name is how a deck finds it, round 22), or as it stands if added since; None for one added since under a
    name drawn like a card of that moment's, which the match does not take."""
    cards = list(cards)
    if not cards:
        return []
    moment = _Moment.of(cards[0].slug, club_id, at)
    added = {card.pk for card in moment.added}
    for card in cards:
        if (then := moment.stood.get(card.pk)) is not None:
            card.name, card.stats = then.name, then.stats
    return [card if card.pk in moment.stood or card.pk in added else None for card in cards]


@dataclass
class _Moment:
    """The game's catalog as it stood at `at` for a club: `stood`, each card then by its id (name and stats then,
    the club's correction then in place), and `added`, the cards added since, as they stand."""

    stood: dict[int, Card] = field(default_factory=dict)
    added: list[Card] = field(default_factory=list)
    now: dict[int, str] = field(default_factory=dict)  # each card's name today, by id

    @classmethod
    def of(cls, slug: str, club_id: int | None, at: datetime) -> "_Moment":
        live = {card.pk: card for card in Card.objects.filter(slug=slug)}
        moment = cls(now={key: card.name for key, card in live.items()})
        # Kept once the moment is well past: a change still being written then (a long CSV import) is in by now.
        stood = _stood(slug, club_id, at) if at < timezone.now() - KEPT_AFTER else _stood_from(live, slug, club_id, at)
        for key, created, name, stats in stood:
            card = live.get(key) or Card(pk=key, slug=slug, created=created)
            card.name, card.stats = name, dict(stats)
            moment.stood[key] = card
        # Nor a name drawn like one of them (names.look: "Асе8" in Cyrillic letters is Ace8).
        looks = {look(card.name) for card in moment.stood.values()}
        moment.added = [card for key, card in live.items() if key not in moment.stood and look(card.name) not in looks]
        return moment

    def by_name(self) -> dict[str, Card]:
        """Each card by its name then, or, added since, by its name now. A card of the moment renamed since (a typo
        fixed: round 23) is also found by its name now, where no card of the moment had or looked like that name."""
        named = {card.name.casefold(): card for card in [*self.stood.values(), *self.added]}
        looks = {look(card.name) for card in self.stood.values()}
        for key, card in self.stood.items():
            today = self.now.get(key)
            if today and today.casefold() not in named and look(today) not in looks:
                named[today.casefold()] = card
        return named


@functools.lru_cache(maxsize=512)
def _stood(slug: str, club_id: int | None, at: datetime) -> tuple:
    """The cards of the game's catalog at `at` as (id, birth, name, stats), the club's corrections then in place.
    What stood at a moment gone does not change, so a process reads it once per moment (a match's making), not at
    each card typed: undoing many later edits (a CSV of thousands, again and again) cost every lookup (round 22)."""
    return _stood_from({card.pk: card for card in Card.objects.filter(slug=slug)}, slug, club_id, at)


def _stood_from(live: dict[int, Card], slug: str, club_id: int | None, at: datetime) -> tuple:
    """The same from the game's cards as they are now (`live`, by id), read by the caller."""
    born: dict[int, datetime | None] = {key: card.created for key, card in live.items()}
    corrected = {key: (when, new) for key, when, new in CardChange.objects.filter(
        club_id=club_id, slug=slug, kind=CardChange.CLUB, card_key__isnull=False, at__lte=at).order_by(
        "at", "id").values_list("card_key", "at", "new_stats") if key is not None} if club_id is not None else {}
    # Only the changes since: undone back to `at`, and to each correction's moment (was it the catalog's stats?).
    since = min([at, *(when for when, _new in corrected.values())])
    before = collections.defaultdict(list)  # id -> [(when, name, stats)]: the card as it was before each change
    for key, when, kind, name, stats, created in (
            CardChange.objects.filter(slug=slug, kind__in=(CardChange.EDIT, CardChange.DELETE), card_key__isnull=False,
                                      at__gt=since)
            .order_by("at", "id").values_list("card_key", "at", "kind", "old_name", "old_stats", "card_created")):
        if key is None:  # not asked for (card_key__isnull=False): says so to the type checker
            continue
        before[key].append((when, name, stats))
        if kind == CardChange.DELETE:
            born[key] = created

    def then(key: int, when: datetime) -> tuple[str, dict] | None:
        """The card's name and stats at `when`; None if it was not in the catalog then."""
        birth = born.get(key)
        if birth is None or birth > when:
            return None
        changed = next(((name, stats) for moment, name, stats in before[key] if moment > when), None)
        return changed or ((live[key].name, live[key].stats) if key in live else None)

    stood = {key: [born[key], *state] for key in born if (state := then(key, at)) is not None}
    for key, (when, new) in corrected.items():
        state = then(key, when)
        if key in stood and new is not None and state is not None and new != state[1]:
            stood[key][2] = new
    return tuple((key, *values) for key, values in stood.items())


def for_match(match: Match, cards) -> list[Card]:
    """The cards as this match plays them, by their names: each as the catalog had it when the match was made."""
    catalog = match_catalog(match)
    cards = list(cards)
    for card in cards:
        if (played := catalog.get(card.name.casefold())) is not None:
            card.stats = played.stats
    return cards


def match_catalog(match: Match) -> dict[str, Card]:
    """The game's catalog as this match plays it (casefolded name -> card, not to be saved, nor changed).

    Read once for the match as loaded (a request's): the form that reads an entry's cards and the uses its action
    notes then look them up in the same catalog. Reading it took three queries, a third of an Evons play read
    twice; a match loaded again (the next request) reads it again, so a card added since is found."""
    return _read(match)[1]


def _read(match: Match) -> tuple[int | None, dict[str, Card], list[str]]:
    """(the club read for, `match_catalog`, `names_now`), read once for the match as loaded."""
    kept = match.__dict__.get("_catalog")
    if kept is None or kept[0] != match.club_id:
        moment = _Moment.of(match.slug, match.club_id, match.created)
        kept = match.__dict__["_catalog"] = (match.club_id, moment.by_name(), list(moment.now.values()))
    return kept


def names_now(match: Match) -> list[str]:
    """Every card of the game's catalog by its name today, in the catalog's order (by name, as the database sorts):
    what `Card.objects.filter(slug=…)` lists, read with the match's catalog rather than again (the entry page's
    typed-name suggestions: the page read the catalog twice)."""
    return _read(match)[2]


def match_catalog_by_name(match: Match) -> list[Card]:
    """The same, as a list in name order (the entry examples the secrecy tests make take the first few)."""
    return sorted(match_catalog(match).values(), key=lambda card: card.name)


def match_card(match: Match, name: str) -> Card | None:
    """The catalog card called `name` (any case) as this match plays it, or None."""
    return None if "\x00" in name else match_catalog(match).get(name.casefold())
