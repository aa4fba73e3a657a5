"""The catalog as a match plays it: a club's own corrections of cards in place of the catalog's stats.

A club that needs other stats for a card keeps a correction (ClubCorrection, set by its organisers
through tracker/catalog/changes.py); its new matches play the card with it, and nobody else's card
changes. Every game's pages look catalog cards up for a match through here.

Decided (round 19): a match plays the corrections as they stood when it was made. One made while it is
played would change it between its entries: an organiser who played set her cards to 999 after the other
side locked in. So a match reads them from their records (CardChange, one for every correction made), as
of its own creation; the club's other matches, and those made later, are not its business.
"""

from datetime import datetime

from tracker.models import Card, CardChange, ClubCorrection, Match


def as_seen_in(club_id: int | None, cards, at: datetime | None = None) -> list[Card]:
    """The cards with the club's corrections in place of their catalog stats (not saved: for its matches), as they
    stand now, or as they stood at `at`."""
    cards = list(cards)
    if club_id is None or not cards:
        return cards
    if at is None:
        corrected = dict(ClubCorrection.objects.filter(club_id=club_id, card__in=cards).values_list("card_id", "stats"))
    else:
        corrected = _as_of(club_id, cards, at)
    for card in cards:
        if card.pk in corrected:
            card.stats = corrected[card.pk]
    return cards


def _as_of(club_id: int, cards: list[Card], at: datetime) -> dict[int, dict]:
    """The club's corrections of these cards as they stood at `at`: each card's last one made by then. A card first
    corrected later plays with its catalog stats."""
    made = (CardChange.objects.filter(club_id=club_id, kind=CardChange.CLUB, card__in=cards, at__lte=at)
            .order_by("at", "id").values_list("card_id", "new_stats"))
    return {card_id: stats for card_id, stats in made if stats is not None}


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
