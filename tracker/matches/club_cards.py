"""The catalog as a match plays it: a club's own corrections of cards in place of the catalog's stats.

A club that needs other stats for a card keeps a correction (ClubCorrection, set by its organisers
through tracker/catalog/changes.py); its new matches play the card with it, and nobody else's card
changes. Every game's pages look catalog cards up for a match through here.
"""

from tracker.models import Card, ClubCorrection, Match


def as_seen_in(club_id: int | None, cards) -> list[Card]:
    """The cards with the club's corrections in place of their catalog stats (not saved: for its matches)."""
    cards = list(cards)
    if club_id is None or not cards:
        return cards
    corrected = dict(ClubCorrection.objects.filter(club_id=club_id, card__in=cards).values_list("card_id", "stats"))
    for card in cards:
        if card.pk in corrected:
            card.stats = corrected[card.pk]
    return cards


def match_catalog(match: Match) -> dict[str, Card]:
    """The game's catalog as this match plays it (casefolded name -> card): its club's corrections in place."""
    return {card.name.casefold(): card for card in as_seen_in(match.club_id, Card.objects.filter(slug=match.slug))}


def match_catalog_by_name(match: Match) -> list[Card]:
    """The same, as a list in name order (the entry examples the secrecy tests make take the first few)."""
    return as_seen_in(match.club_id, Card.objects.filter(slug=match.slug).order_by("name"))


def match_card(match: Match, name: str) -> Card | None:
    """The catalog card called `name` (any case) as this match plays it, or None."""
    card = None if "\x00" in name else Card.objects.filter(slug=match.slug, name__iexact=name).first()
    return as_seen_in(match.club_id, [card])[0] if card is not None else None
