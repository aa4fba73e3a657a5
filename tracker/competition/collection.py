"""Collections in the database: copies and levels of catalog cards, upgraded by rules/card_crush/collection.py.

A player has a personal collection (`club` None) and one in each club they play in. Who sees
and changes one:
- the personal collection: only the player's own account (Player.user), which changes it;
- a club collection: the club's members see it; the player's own account and the club's
  organisers change it. The player's own account changes it only while a member: once it left the club,
  or was never in it (a guest seated by a join link), it may still read its own collection there and
  changes it no more; the organisers go on changing it.
Nobody else learns what is in it. A deck "from the collection" in a club match plays the
player's collection in that club, in any other match their personal one, and only when the
account entering for that seat may see it.

Changes carry what the form saw (the card's copies and level); if the row moved on
meanwhile (a double tap, a second phone), the change is refused, not applied twice. Every
change is kept (CollectionChange): which account made it, and the copies and level before and after.
"""

import collections
from copy import copy

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from rules import RuleError
from rules.card_crush import collection, validate_card
from tracker.matches import services
from tracker.matches.club_cards import as_seen_in, playable

from ..models import Access, Card, Club, CollectionCard, CollectionChange, Membership, Player, players_of
from . import config
from .errors import Refused
from .game import competing_slug


def club_players(club: Club):
    """The players a club's collections are for: its members' players, players of its matches, and any
    player already holding cards in it."""
    return Player.objects.filter(Q(user__memberships__club=club) | Q(seats__match__club=club)
                                 | Q(collection__club=club)).distinct()


def _role(user, club: Club | None, held: bool = False) -> str | None:
    """The account's role in `club` as it stands now (None: no account, no club, or not a member); `held`: its
    membership's row held until the transaction ends (PostgreSQL; SQLite's write transaction holds the database)."""
    if user is None or club is None:
        return None
    rows = Membership.objects.select_for_update() if held else Membership.objects
    return rows.filter(club=club, user=user).values_list("role", flat=True).first()


def may_see(user, player: Player, club: Club | None) -> bool:
    """Whether this account (None: no account) may see the player's collection in `club` (None: personal): its
    own, wherever it is, and in a club it belongs to, every one."""
    if user is None:
        return False
    if player.pk in players_of(user, club.pk if club else None):
        return True
    return _role(user, club) is not None


def change_refusal(user, player: Player, club: Club | None, held: bool = False) -> str:
    """Why this account may not change the collection; "" when it may. The one place it is decided, for every
    collection page and form: the player's own account changes a club collection only while it is a member
    (found after round 33: a member removed from a club still added copies to, and upgraded, his collection
    there). `held`: asked again in the transaction that writes the change, the membership's row held, as leaving
    holds it first (clubs.leave): a change sent as the member leaves lands before, or is refused."""
    role = _role(user, club, held)  # the row first: what the account plays as there is read once leaving committed
    own = player.pk in players_of(user, club.pk if club else None)
    if club is None:
        if own:
            return ""
        return _("Only %(name)s's own account can change their personal collection; nothing was changed.") % {
            "name": player.name}
    if role == Membership.ORGANISER or (own and role is not None):
        return ""
    if own:
        return _("You are not a member of %(club)s: your collection there is its organisers' to change; you can "
                 "still read it. Nothing was changed.") % {"club": club.name}
    return _("Only %(name)s's own account and the organisers of %(club)s can change this collection; nothing was "
             "changed.") % {"name": player.name, "club": club.name}


def owned(entry: CollectionCard) -> collection.Owned:
    return collection.Owned(rarity=entry.card.stats.get("rarity", "Common"), copies=entry.copies, level=entry.level)


def playing_cards(rows, at=None) -> list[dict]:
    """The entries' cards as they play at their levels (what a deck from the collection locks in): a club
    collection's cards with the club's corrections in place, as its matches play the catalog (club_cards), so a
    deck from the collection cannot get round a correction. `at`: for a match made then, as it plays them (a
    correction or an edit made since changes nothing in it: round 20)."""
    rows = list(rows)
    club_id = rows[0].club_id if rows else None
    cards = [copy(entry.card) for entry in rows]
    cards = as_seen_in(club_id, cards) if at is None else playable(club_id, cards, at)
    levels = {entry.pk: entry.level for entry in rows}
    if at is not None:
        # At the levels of that moment: the card's own level then, and the upgrades made by then (round 22: four
        # upgrades mid-match; round 23: an entry made after the card's own level was edited to 99).
        gained: collections.Counter[int] = collections.Counter()
        for entry, before, after in CollectionChange.objects.filter(
                entry__in=rows, kind=CollectionChange.UPGRADE, at__lte=at).values_list("entry", "level_before", "level_after"):
            gained[entry] += after - before
        levels = {entry.pk: card.stats.get("level", 1) + gained[entry.pk]
                  for entry, card in zip(rows, cards, strict=True) if card is not None}
    return [collection.leveled(validate_card(card.as_rules_card()), levels[entry.pk], config.upgrade_rules())
            for entry, card in zip(rows, cards, strict=True) if card is not None]


def entries(player: Player, club: Club | None):
    """The player's collection in `club` (None: their personal one)."""
    return player.collection.filter(club=club).select_related("card")


def cards_of(player: Player, club: Club | None = None) -> list[dict]:
    """The player's collection with what the page shows: the leveled card, the next upgrade's cost,
    and why it cannot be taken yet (the engine's own refusal)."""
    rules = config.upgrade_rules()
    rows, listed = [], list(entries(player, club))
    for entry, card in zip(listed, playing_cards(listed), strict=True):
        state = owned(entry)
        try:
            collection.upgrade(state, rules)
            why_not = ""
        except RuleError as error:
            why_not = services.explain(error)
        rows.append({"entry": entry, "card": card, "needed": collection.duplicates_needed(state, rules),
                     "duplicates": state.duplicates, "can_upgrade": not why_not, "why_not": why_not})
    return rows


def _recorded(entry: CollectionCard, kind: str, by, before: tuple[int, int]) -> None:
    """Keep the change: who made it, and the copies and level before and after."""
    CollectionChange.objects.create(entry=entry, kind=kind, user=by, copies_before=before[0], level_before=before[1],
                                    copies_after=entry.copies, level_after=entry.level)


def _may_change(by, player: Player, club: Club | None) -> None:
    """Refused (403) unless `by` may change the collection, judged in the writing transaction with the membership's
    row held (`change_refusal`). No account (`by` None) is a script's change: the demo's, a test's."""
    if by is not None and (why := change_refusal(by, player, club, held=True)):
        raise Refused(why, status=403)


@transaction.atomic
def copies_add(*, player: Player, club: Club | None = None, card_name: str, count: int, by=None) -> CollectionCard:
    _may_change(by, player, club)
    card = Card.named(competing_slug(), card_name)
    if card is None:
        raise Refused(_("No card called “%(name)s” in the Card Crush catalog.") % {"name": card_name})
    entry = CollectionCard.objects.select_for_update().filter(player=player, club=club, card=card).first()
    start_level = validate_card(card.as_rules_card())["level"]
    if entry is None:
        entry = CollectionCard(player=player, club=club, card=card, copies=0, level=start_level)
    try:
        # A new entry starts from zero copies: adding its first copy is the same rule as adding more.
        state = collection.add_copies(owned(entry), count)
    except RuleError as error:
        raise Refused(services.explain(error)) from error
    before = (entry.copies, entry.level)
    entry.copies = state.copies
    entry.save()
    _recorded(entry, CollectionChange.ADD, by, before)
    return entry


@transaction.atomic
def card_upgrade(*, entry_id: int, player: Player, club: Club | None = None, expected_level: int,
                 expected_copies: int, by=None) -> CollectionCard:
    _may_change(by, player, club)
    entry = (CollectionCard.objects.select_for_update().select_related("card")
             .filter(pk=entry_id, player=player, club=club).first())
    if entry is None:
        raise Refused(_("That card is not in this collection."), status=404)
    if (entry.level, entry.copies) != (expected_level, expected_copies):
        raise Refused(_("This card changed since the page was loaded (now level %(level)s, %(copies)s copies). "
                        "Nothing was changed.") % {"level": entry.level, "copies": entry.copies}, status=409)
    try:
        state = collection.upgrade(owned(entry), config.upgrade_rules())
    except RuleError as error:
        raise Refused(services.explain(error)) from error
    before = (entry.copies, entry.level)
    entry.copies, entry.level = state.copies, state.level
    entry.save(update_fields=["copies", "level"])
    _recorded(entry, CollectionChange.UPGRADE, by, before)
    return entry


def entering_account(match, seat: int):
    """The account that enters for `seat` in this match: the one holding the seat by a join link,
    else the match's owner (None when that phone has no account)."""
    held = match.accesses.filter(seat=seat, role=Access.PLAYER, revoked__isnull=True).select_related("user").first()
    return held.user if held is not None else match.owner


def seat_collections(match, seat: int | None) -> dict[int, dict]:
    """For the deck entry of `seat`: the collection its player may lock a deck from, as {seat: …}
    with a label listing the cards at their levels, and the cards; {} when there is none to offer.

    The collection is the player's in the match's club (a match in no club: their personal one),
    offered only when the account entering for the seat may see it: the entry page lists it.
    """
    if seat is None:
        return {}
    player, club = match.players()[seat], match.club
    if not may_see(entering_account(match, seat), player, club):
        return {}
    cards = playing_cards(entries(player, club), at=match.created)
    if not cards:
        return {}
    listing = ", ".join(_("%(name)s (level %(level)s, Power %(power)s, Speed %(speed)s)") % card for card in cards)
    label = (_("%(name)s's collection in %(club)s at its levels: %(cards)s") if club else
             _("%(name)s's collection at its levels: %(cards)s"))
    return {seat: {
        "label": label % {"name": player.name, "club": club.name if club else "", "cards": listing},
        "owner": player.name,
        "cards": {card["name"].casefold(): card for card in cards},
    }}
