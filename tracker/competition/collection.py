"""Collections in the database: copies and levels of catalog cards, upgraded by rules/card_crush/collection.py.

Changes carry what the form saw (the card's copies and level); if the row moved on
meanwhile (a double tap, a second phone), the change is refused, not applied twice.
"""

from django.db import transaction
from django.utils.translation import gettext as _

from rules import RuleError
from rules.card_crush import collection, validate_card

from .. import services
from ..models import Card, CollectionCard, Player
from . import config
from .errors import Refused


def owned(entry: CollectionCard) -> collection.Owned:
    return collection.Owned(rarity=entry.card.stats.get("rarity", "Common"), copies=entry.copies, level=entry.level)


def playing_card(entry: CollectionCard) -> dict:
    """The card as it plays at the entry's level (what a deck from the collection locks in)."""
    return collection.leveled(validate_card(entry.card.as_rules_card()), entry.level, config.upgrade_rules())


def cards_of(player: Player) -> list[dict]:
    """The player's collection with what the page shows: the leveled card and the next upgrade's cost."""
    rules = config.upgrade_rules()
    rows = []
    for entry in player.collection.select_related("card"):
        state = owned(entry)
        rows.append({"entry": entry, "card": playing_card(entry), "needed": collection.duplicates_needed(state, rules),
                     "duplicates": state.duplicates, "can_upgrade": collection.can_upgrade(state, rules)})
    return rows


@transaction.atomic
def copies_add(*, player: Player, card_name: str, count: int) -> CollectionCard:
    card = Card.objects.filter(slug="card-crush", name__iexact=card_name.strip()).first()
    if card is None:
        raise Refused(_("No card called “%(name)s” in the Card Crush catalog.") % {"name": card_name})
    entry = CollectionCard.objects.select_for_update().filter(player=player, card=card).first()
    start_level = validate_card(card.as_rules_card())["level"]
    if entry is None:
        entry = CollectionCard(player=player, card=card, copies=0, level=start_level)
    try:
        # A new entry starts from zero copies: adding its first copy is the same rule as adding more.
        state = collection.add_copies(owned(entry), count)
    except RuleError as error:
        raise Refused(services.explain(error)) from error
    entry.copies = state.copies
    entry.save()
    return entry


@transaction.atomic
def card_upgrade(*, entry_id: int, player: Player, expected_level: int, expected_copies: int) -> CollectionCard:
    entry = CollectionCard.objects.select_for_update().select_related("card").filter(pk=entry_id, player=player).first()
    if entry is None:
        raise Refused(_("That card is not in this collection."), status=404)
    if (entry.level, entry.copies) != (expected_level, expected_copies):
        raise Refused(_("This card changed since the page was loaded (now level %(level)s, %(copies)s copies). "
                        "Nothing was changed.") % {"level": entry.level, "copies": entry.copies}, status=409)
    try:
        state = collection.upgrade(owned(entry), config.upgrade_rules())
    except RuleError as error:
        raise Refused(services.explain(error)) from error
    entry.copies, entry.level = state.copies, state.level
    entry.save(update_fields=["copies", "level"])
    return entry


def seat_collections(match) -> dict[int, dict]:
    """For the deck entry: per seat whose player owns cards, a label listing them at their levels, and the cards.

    Collections are not secret (only locked decks are), so the list may show on any seat's entry page.
    """
    found = {}
    for seat, player in enumerate(match.players()):
        cards = [playing_card(entry) for entry in player.collection.select_related("card")]
        if not cards:
            continue
        listing = ", ".join(_("%(name)s (level %(level)s, Power %(power)s, Speed %(speed)s)") % card for card in cards)
        found[seat] = {
            "label": _("%(name)s's collection at its levels: %(cards)s") % {"name": player.name, "cards": listing},
            "owner": player.name,
            "cards": {card["name"].casefold(): card for card in cards},
        }
    return found
