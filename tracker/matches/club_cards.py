"""The catalog as a match plays it: a club's own corrections of cards in place of the catalog's stats.

A club that needs other stats for a card keeps a correction (ClubCorrection, set by its organisers
through tracker/catalog/changes.py); its new matches play the card with it, and nobody else's card
changes. Every game's pages look catalog cards up for a match through here.

Decided (rounds 19 and 20): a match plays its cards as they stood when it was made. A change made while it
is played would change it between its entries: an organiser who played set her cards to 999 after the other
side locked in, by a club correction (round 19), then by editing the catalog card, importing a CSV row over
it, or deleting it and adding it again (round 20). So a match reads both from their records (CardChange, one
for every edit, deletion and correction), as of its own creation; the club's other matches, and those made
later, are not its business. A correction set back to the catalog's stats is none (card_correct deletes it).
"""

import collections
from datetime import datetime

from tracker.models import Card, CardChange, ClubCorrection, Match


def as_seen_in(club_id: int | None, cards, at: datetime | None = None) -> list[Card]:
    """The cards with the club's corrections in place of their catalog stats (not saved: for its matches), as they
    stand now, or as a match made at `at` plays them (the catalog's stats then too)."""
    cards = list(cards)
    if not cards:
        return cards
    if at is not None:
        played = _as_of(club_id, cards, at)
    elif club_id is not None:
        played = dict(ClubCorrection.objects.filter(club_id=club_id, card__in=cards).values_list("card_id", "stats"))
    else:
        played = {}
    for card in cards:
        if card.pk in played:
            card.stats = played[card.pk]
    return cards


def _as_of(club_id: int | None, cards: list[Card], at: datetime) -> dict[int, dict]:
    """Each card's stats as they stood at `at`: the catalog's (undoing each edit made since), then the club's last
    correction made by then, unless that one set the catalog's stats back."""
    edits = collections.defaultdict(list)
    for card_id, when, old in (CardChange.objects.filter(kind=CardChange.EDIT, card__in=cards).order_by("at", "id")
                               .values_list("card_id", "at", "old_stats")):
        edits[card_id].append((when, old))
    now = {card.pk: card.stats for card in cards}

    def catalog(card_id: int, when: datetime) -> dict:
        return next((old for moment, old in edits[card_id] if moment > when), now[card_id])

    # A card added since had no stats then: it plays as it stands (anyone may add a card, and it is public)...
    stats = {card.pk: catalog(card.pk, at) if card.created <= at else now[card.pk] for card in cards}
    # ...unless it takes the name of one deleted since: that card again, as deleting and adding is an edit.
    added = {card.name.casefold(): card.pk for card in cards if card.created > at}
    if added:
        for name, old in (CardChange.objects.filter(kind=CardChange.DELETE, slug__in={card.slug for card in cards},
                                                    at__gt=at).order_by("-at", "-id").values_list("old_name", "old_stats")):
            if name.casefold() in added:
                stats[added[name.casefold()]] = old  # the first deleted since, the last written
    if club_id is not None:
        last = {card_id: (when, new) for card_id, when, new in CardChange.objects.filter(
            club_id=club_id, kind=CardChange.CLUB, card__in=cards, at__lte=at).order_by("at", "id").values_list(
            "card_id", "at", "new_stats")}
        for card_id, (when, new) in last.items():
            if new is not None and new != catalog(card_id, when):
                stats[card_id] = new
    return stats


def for_match(match: Match, cards) -> list[Card]:
    """The cards as this match plays them: its club's corrections as they stood when it was made."""
    return as_seen_in(match.club_id, cards, at=match.created)


def match_catalog(match: Match) -> dict[str, Card]:
    """The game's catalog as this match plays it (casefolded name -> card): its club's corrections in place."""
    return {card.name.casefold(): card for card in for_match(match, Card.objects.filter(slug=match.slug))}


def match_catalog_by_name(match: Match) -> list[Card]:
    """The same, as a list in name order (the entry examples the secrecy tests make take the first few)."""
    return for_match(match, Card.objects.filter(slug=match.slug).order_by("name"))


def match_card(match: Match, name: str) -> Card | None:
    """The catalog card called `name` (any case) as this match plays it, or None."""
    card = None if "\x00" in name else Card.objects.filter(slug=match.slug, name__iexact=name).first()
    return for_match(match, [card])[0] if card is not None else None
