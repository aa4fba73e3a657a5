"""Catalog cards are shared data: who may change one, and the record of every change and use.

Anyone may add a card at the table. Changing or deleting an existing card is for:
- its creator (the account that added it, else the phone), while nobody else has played it:
  every match that used it is the creator's own (no club, no phone seated by a link);
- an organiser of a club whose matches used it;
- the site's staff.
A card with no recorded creator (the demo catalog, cards from before creators were kept)
is changed only by those organisers and staff. Every edit and deletion leaves a CardChange.

Matches never depend on the catalog after the fact: their actions carry each card with the
stats it had when it was entered, so an edit never rescores or redraws an old match. What
the catalog learns from a match is only that the card was used (`record_uses`, in
tracker/matches/card_uses.py).
"""

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.http import HttpRequest
from django.utils.translation import gettext as _

from tracker.models import Access, Card, CardChange, Match, Membership
from tracker.people import access

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class CardRefused(Exception):
    """A change to a catalog card that this person may not make, or that would break something; says why.

    `status` is the HTTP status a page answers it with.
    """

    def __init__(self, message: str, status: int = 403) -> None:
        self.status = status
        super().__init__(message)


@dataclass(frozen=True)
class Editor:
    """Who is changing the catalog: an account, else the phone."""

    user: "User | None"
    device: str

    @classmethod
    def of(cls, request: HttpRequest) -> "Editor":
        return cls(user=access.signed_in(request), device=access.device_of(request))

    def creator_fields(self) -> dict:
        """What a new card records of who added it (like a match, an account's card is not the phone's)."""
        return {"created_by": self.user, "created_device": "" if self.user else self.device}

    def made(self, card: Card) -> bool:
        """Whether this editor added `card`."""
        if card.created_by_id is not None and self.user is not None and card.created_by_id == self.user.pk:
            return True
        return bool(card.created_device) and card.created_device == self.device


def _creators_own(card: Card) -> Q:
    """Matches that belong to the card's creator alone: theirs, in no club, with no other phone seated."""
    theirs = Q(pk__in=[])
    if card.created_by_id is not None:
        theirs |= Q(owner_id=card.created_by_id)
    if card.created_device:
        theirs |= Q(owner_device=card.created_device)
    return theirs & Q(club__isnull=True) & ~Q(accesses__role=Access.PLAYER)


def used_by_others(card: Card) -> bool:
    """Whether a match other than its creator's own has used the card."""
    return Match.objects.filter(card_uses__card=card).exclude(_creators_own(card)).exists()


def organises_a_club_that_used(editor: Editor, card: Card) -> bool:
    """Whether the editor organises a club whose matches used the card."""
    if editor.user is None:
        return False
    return Membership.objects.filter(user=editor.user, role=Membership.ORGANISER,
                                     club__matches__card_uses__card=card).exists()


def refusal(editor: Editor, card: Card) -> str:
    """Why this editor may not change or delete the card; "" when they may."""
    if editor.user is not None and editor.user.is_staff:
        return ""
    if organises_a_club_that_used(editor, card):
        return ""
    if editor.made(card):
        if not used_by_others(card):
            return ""
        return _("%(name)s has been played in other players' or a club's matches since you added it, so only an "
                 "organiser of a club whose matches used it (or the site's staff) can change it now.") % {
            "name": card.name}
    if card.created_by_id is None and not card.created_device:
        return _("%(name)s has no recorded creator (it came with the demo catalog or from before cards kept who "
                 "added them), so only an organiser of a club whose matches used it (or the site's staff) can "
                 "change it.") % {"name": card.name}
    return _("%(name)s was added by another phone or account. Only they can change it while nobody else has "
             "played it, and after that an organiser of a club whose matches used it (or the site's staff).") % {
        "name": card.name}


def collected(card: Card) -> str:
    """Why the card cannot be deleted whoever asks: a collection holds it. "" when none does."""
    if card.collected.exists():
        return _("%(name)s is in a player's collection, so it cannot be deleted; correct it instead.") % {
            "name": card.name}
    return ""


# ---------------------------------------------------------------- changes


def _locked(card_id: int) -> Card:
    card = Card.objects.select_for_update().filter(pk=card_id).first()
    if card is None:
        raise CardRefused(_("That card is no longer in the catalog; nothing was changed."), status=404)
    return card


def _name_taken(card: Card, name: str) -> bool:
    other = Card.named(card.slug, name)
    return other is not None and other.pk != card.pk


def card_add(editor: Editor, slug: str, name: str, stats: dict) -> Card:
    """A new catalog card, remembered as the editor's; CardRefused if the name is taken."""
    taken = CardRefused(_("%(name)s is already in the catalog.") % {"name": name}, status=422)
    if Card.named(slug, name) is not None:
        raise taken
    try:
        with transaction.atomic():  # a savepoint: a name taken meanwhile leaves an outer transaction usable
            return Card.objects.create(slug=slug, name=name, stats=stats, **editor.creator_fields())
    except IntegrityError as error:
        raise taken from error


@transaction.atomic
def card_edit(editor: Editor, card_id: int, name: str, stats: dict) -> CardChange | None:
    """Correct a card's name and stats, recorded; None when nothing differs. Raises CardRefused."""
    card = _locked(card_id)
    if why := refusal(editor, card):
        raise CardRefused(why)
    if (card.name, card.stats) == (name, stats):
        return None
    taken = CardRefused(_("Another card is already called %(name)s; nothing was changed.") % {"name": name},
                        status=422)
    if _name_taken(card, name):
        raise taken
    change = CardChange.objects.create(card=card, slug=card.slug, kind=CardChange.EDIT, user=editor.user,
                                       device="" if editor.user else editor.device, old_name=card.name,
                                       old_stats=card.stats, new_name=name, new_stats=stats)
    card.name, card.stats = name, stats
    try:
        with transaction.atomic():
            card.save(update_fields=["name", "stats"])
    except IntegrityError as error:  # the name was taken meanwhile
        raise taken from error
    return change


@transaction.atomic
def card_delete(editor: Editor, card_id: int) -> CardChange:
    """Remove a card from the catalog, recorded; its matches keep it. Raises CardRefused."""
    card = _locked(card_id)
    if why := refusal(editor, card):
        raise CardRefused(why)
    if why := collected(card):
        raise CardRefused(why, status=409)
    change = CardChange.objects.create(card=None, slug=card.slug, kind=CardChange.DELETE, user=editor.user,
                                       device="" if editor.user else editor.device, old_name=card.name,
                                       old_stats=card.stats)
    card.delete()
    return change
