"""Catalog cards are shared data: who may change one, club corrections and name claims, and the record
of every change and use.

Anyone may add a card at the table. Whether someone may change (edit, delete, or overwrite by a
CSV row) an existing card is decided in one place, `refusal`, which every write path calls:
the card means something in each *place* that has it, and only someone who answers for EVERY
place may change it (the site's staff always may, through these pages or the admin):
- its origin: the club that claimed its name, else the account (or phone, without an account)
  that added it, else the installation (the demo catalog, cards from before creators were
  kept), which only staff answer for;
- each match that used it: a club match is the club's (its organisers answer), any other match
  is its owner's and each phone or account seated in it by a link; a match with neither owner
  nor club (demo data, scripts) is the installation's.
So the creator changes a card while it is theirs alone, an organiser a card only their club
has played and only if they also added it (or the club claimed its name), and starting a club
grants nothing over cards other people or clubs played.

A club that needs other stats keeps its own correction (ClubCorrection): its organisers set
it, the club's new matches play the card with it, and nobody else's card changes.

A club claims a card name (NameClaim): only its members may then add a card by that name, and
the club is that card's origin. A claim never takes a card from anyone: a name already in the
catalog is claimed only by an organiser who may change that card anyway, and a club holds at
most CLAIMS_PER_CLUB claims.

Every edit, deletion and club correction leaves a CardChange. Matches never depend on the
catalog after the fact: their actions carry each card with the stats it had when it was
entered, so an edit never rescores or redraws an old match. What the catalog learns from a
match is only that the card was used (`record_uses`, in tracker/matches/card_uses.py).
"""

import hashlib
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils.translation import gettext as _

from tracker.matches import names
from tracker.models import (
    Access,
    Card,
    CardChange,
    Club,
    ClubCorrection,
    Match,
    Membership,
    NameClaim,
    hold_names,
)
from tracker.people import access, clubs

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


@dataclass(frozen=True)
class Place:
    """Somewhere a card means something, named by who answers for it: a club (its organisers), an
    account, a phone without an account, or none of them (the installation: only staff)."""

    club: int | None = None
    account: int | None = None
    phone: str = ""

    def answered_by(self, editor: Editor, organised: set[int]) -> bool:
        if self.club is not None:
            return self.club in organised
        if self.account is not None:
            return editor.user is not None and editor.user.pk == self.account
        return bool(self.phone) and self.phone == editor.device


INSTALLATION = Place()


def origin(card: Card, claim: NameClaim | None) -> Place:
    """Where the card comes from: the club that claimed its name, else who added it, else the installation."""
    if claim is not None:
        return Place(club=claim.club_id)
    if card.created_by_id is not None:
        return Place(account=card.created_by_id)
    return Place(phone=card.created_device) if card.created_device else INSTALLATION


def places_used(card: Card) -> set[Place]:
    """Every place whose matches used the card (clubs, owners, and phones or accounts seated by a link), every
    collection holding it (its club's, or its player's account), and every club that corrected it (deleting the
    card would take the correction with it, round 21): an edit changes each of them."""
    places: set[Place] = {Place(club=club) if club is not None else Place(account=user) if user else INSTALLATION
                          for club, user in card.collected.values_list("club_id", "player__user_id")}
    places.update(Place(club=club) for club in card.corrections.values_list("club_id", flat=True))
    loose: list[int] = []
    for pk, club, owner, device in Match.objects.filter(card_uses__card=card).values_list(
            "pk", "club_id", "owner_id", "owner_device"):
        if club is not None:
            places.add(Place(club=club))
            continue
        places.add(Place(account=owner) if owner else Place(phone=device) if device else INSTALLATION)
        loose.append(pk)
    if loose:  # a seat taken by a link, even one revoked since: that player played the card
        for device, user in Access.objects.filter(match__in=loose, role=Access.PLAYER).values_list("device", "user_id"):
            places.add(Place(account=user) if user else Place(phone=device))
    return places


def _organised(editor: Editor) -> set[int]:
    """The clubs whose cards, corrections and claims this editor answers for as their organiser: each she organises
    but one whose tournament she may not referee while it runs (clubs.keeps_the_referees: she plays in it, or was
    made an organiser after it began). Its battles would play what she changed (rounds 19 and 20)."""
    return clubs.refereeing(editor.user) if editor.user is not None else set()


def _organiser_refusal(editor: Editor, club: Club, only: str) -> str:
    """Why this editor may not act for the club as its organiser (`only`: the words for a non-organiser); "" if
    she may."""
    if club.pk in _organised(editor):
        return ""
    if editor.user is not None and Membership.objects.filter(user=editor.user, club=club,
                                                             role=Membership.ORGANISER).exists():
        return _("While a tournament of the club runs, an organiser who plays in it, or was made an organiser after "
                 "it began, changes none of the club's cards, corrections or claimed names: another organiser does.")
    return only % {"club": club.name}


_UNREAD = object()


def refusal(editor: Editor, card: Card, claim=_UNREAD) -> str:
    """Why this editor may not change (edit, delete, overwrite by import, claim) the card; "" when they may.

    The one rule of the catalog (see the module's docstring): the editor answers for every place the
    card has, or is staff. Every write path asks here (tests/tracker/test_card_rule.py proves it).
    `claim`: the card name's NameClaim (or None), when the caller has read it already.
    """
    if editor.user is not None and editor.user.is_staff:
        return ""
    if claim is _UNREAD:
        claim = NameClaim.named(card.slug, card.name)
    start, organised = origin(card, claim), _organised(editor)
    names = {"name": card.name}
    # The origin is asked first: whoever it does not answer to is refused without reading every place that used
    # the card (the card's page asks this of every visitor, and nearly every visitor is not its origin).
    if not start.answered_by(editor, organised):
        if claim is not None:
            return _("%(name)s is a name %(club)s has claimed: only that club's organisers can change it, and only "
                     "while every match and club that used it is theirs.") % {**names, "club": claim.club.name}
        if start == INSTALLATION:
            return _("%(name)s has no recorded creator (it came with the demo catalog or from before cards kept "
                     "who added them), so only the site's staff can change it.") % names
        return _("%(name)s was added by another phone or account: only they can change it, and only while every "
                 "match and club that used it is theirs.") % names
    if all(place.answered_by(editor, organised) for place in places_used(card)):
        return ""
    return _("%(name)s has been played in other players' or a club's matches, or collected by them, since you added "
             "it, so you can no longer change it alone: only someone who runs every match, club and collection that "
             "holds it (or the site's staff) can.") % names


def name_refusal(editor: Editor, slug: str, name: str) -> str:
    """Why this editor may not give a card this name (a name another club claimed); "" when they may."""
    claim = NameClaim.named(slug, name)
    if claim is None or (editor.user is not None and (editor.user.is_staff or Membership.objects.filter(
            user=editor.user, club_id=claim.club_id).exists())):
        return ""
    return _("%(name)s is a name %(club)s has claimed for its cards; only its members can add a card by that "
             "name. Choose another name.") % {"name": name, "club": claim.club.name}


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


CARD_NAME_MAX = cast(int, Card._meta.get_field("name").max_length)
"""Characters a card's name may hold as the catalog keeps it."""


def catalog_name(typed: str) -> str:
    """The name as the catalog keeps it: Unicode's compatibility form (a full-width "Ｐ" is a "P") with single
    spaces. CardRefused when it could pass for another name on every page: "Phoe\u200bnix" (an invisible
    character) or "Ph\u043eenix" (a Cyrillic letter in a Latin word) would be a second Phoenix nobody could tell
    apart, or a way round a club's claim."""
    name = names.compatible(typed)
    if len(name) > CARD_NAME_MAX:  # counted as kept: the compatibility form may be longer than what was typed
        raise CardRefused(_("A card name has at most %(most)s characters (as it is kept, this one has %(n)s).")
                          % {"most": CARD_NAME_MAX, "n": len(name)}, status=422)
    if not name:
        raise CardRefused(_("A card needs a name."), status=422)
    if names.hidden(name):
        raise CardRefused(_("A card name cannot hold invisible or control characters; type it again."), status=422)
    if letter := names.foreign_letter(name):
        raise CardRefused(_("A word of a card name cannot mix Latin letters with those of another script, nor "
                            "Cyrillic with Greek (they look alike): %(letter)s is of another script; type it "
                            "again.") % {"letter": letter}, status=422)
    return name


def _name_taken(card: Card, name: str) -> bool:
    other = Card.named(card.slug, name)
    return other is not None and other.pk != card.pk


CARD_NAMES = "card"
"""The kind under which card names are held while one is given (models.hold_names), in every game alike (an edit
holds its name before it knows the card's game): a card added or renamed and a name claimed are one kind, so a
claim and a card of one name sent at the same moment are judged one after the other (the claim refuses a card it
may not change; the card refuses a name claimed)."""


def card_add(editor: Editor, slug: str, name: str, stats: dict, catalog: dict[str, Card] | None = None) -> Card:
    """A new catalog card, remembered as the editor's; CardRefused if the name is taken, or one nobody could tell
    from it. `catalog`: the game's cards by look (names.look), read once for many cards added in one transaction
    (an import), after that transaction held their names (models.hold_names)."""
    name = catalog_name(name)
    with transaction.atomic():  # the name is held, and judged as it stands, until the outermost transaction ends
        hold_names(CARD_NAMES, [name])
        held = Card.named(slug, name) if catalog is None else catalog.get(names.look(name))
        if held is not None:
            raise CardRefused((_("%(name)s is already in the catalog.") if held.name.casefold() == name.casefold()
                               else _("%(name)s is already in the catalog (the name typed is drawn the same way).")) % {
                                  "name": held.name}, status=422)
        if why := name_refusal(editor, slug, name):
            raise CardRefused(why)
        try:
            with transaction.atomic():  # a savepoint: a name taken meanwhile leaves an outer transaction usable
                return Card.objects.create(slug=slug, name=name, stats=stats, **editor.creator_fields())
        except IntegrityError as error:
            raise CardRefused(_("%(name)s is already in the catalog.") % {"name": name}, status=422) from error


def drawn_as(name: str, stats: dict) -> str:
    """A short fingerprint of a card as a form shows it (its name and stats, or a club's correction of them): the
    change the form sends says which it saw, so a form drawn before another phone's change cannot undo it."""
    seen = json.dumps([name, stats], sort_keys=True, ensure_ascii=False)
    return hashlib.blake2b(seen.encode(), digest_size=8).hexdigest()


def _as_drawn(card: Card, stats: dict, drawn: str | None) -> None:
    """CardRefused when the form was drawn (`drawn`) from other stats than the card shows now (`stats`)."""
    if drawn is not None and drawn != drawn_as(card.name, stats):
        raise CardRefused(_("%(name)s was corrected on another phone since this page was drawn, so nothing was "
                            "changed: open the card again to see that correction, or save yours again to replace "
                            "it.") % {"name": card.name}, status=409)


@transaction.atomic
def card_edit(editor: Editor, card_id: int, name: str, stats: dict, drawn: str | None = None) -> CardChange | None:
    """Correct a card's name and stats, recorded; None when nothing differs. Raises CardRefused, also when the
    form was drawn (`drawn`: drawn_as) from a card changed since: it would quietly undo that change."""
    # The name is held as a card added holds it, before the card's row is locked: an import holds its names first
    # and then locks the cards it changes, so the other order could wait on it in a circle.
    hold_names(CARD_NAMES, [name])
    card = _locked(card_id)
    if why := refusal(editor, card):
        raise CardRefused(why)
    _as_drawn(card, card.stats, drawn)
    name = catalog_name(name)
    if (card.name, card.stats) == (name, stats):
        return None
    taken = CardRefused(_("Another card is already called %(name)s; nothing was changed.") % {"name": name},
                        status=422)
    if _name_taken(card, name):
        raise taken
    if card.name.casefold() != name.casefold() and (why := name_refusal(editor, card.slug, name)):
        raise CardRefused(why)
    change = _recorded(editor, card, CardChange.EDIT, new_name=name, new_stats=stats)
    card.name, card.stats = name, stats
    try:
        with transaction.atomic():
            card.save(update_fields=["name", "stats"])
    except IntegrityError as error:  # the name was taken meanwhile
        raise taken from error
    return change


def _recorded(editor: Editor, card: Card, kind: str, **values) -> CardChange:
    """The change, recorded with who made it and the card as it was (its id and birth kept past a deletion)."""
    return CardChange.objects.create(
        card=None if kind == CardChange.DELETE else card, card_key=card.pk, card_created=card.created, slug=card.slug,
        kind=kind, user=editor.user, device="" if editor.user else editor.device,
        **{"old_name": card.name, "old_stats": card.stats, **values})


@transaction.atomic
def card_delete(editor: Editor, card_id: int) -> CardChange:
    """Remove a card from the catalog, recorded; its matches keep it. Raises CardRefused."""
    card = _locked(card_id)
    if why := refusal(editor, card):
        raise CardRefused(why)
    if why := collected(card):
        raise CardRefused(why, status=409)
    change = _recorded(editor, card, CardChange.DELETE)
    card.delete()
    return change


# ---------------------------------------------------------------- club corrections


def correction_refusal(editor: Editor, club: Club) -> str:
    """Why this editor may not set the club's correction of a card; "" for its organisers, but one who is no
    referee while a tournament of the club runs (clubs.keeps_the_referees: she plays in it, or was made an
    organiser after it began). Its next rounds' battles would play her stats (round 19)."""
    return _organiser_refusal(editor, club, _("Only an organiser of %(club)s can correct a card for the club."))


@transaction.atomic
def card_correct(editor: Editor, card_id: int, club: Club, stats: dict, drawn: str | None = None) -> CardChange | None:
    """Set the club's own stats for the card (the catalog's stats again remove the correction), recorded;
    None when nothing differs. The card itself, and every other club's and player's matches, stay as they are.
    `drawn`: as card_edit's."""
    card = _locked(card_id)
    if why := correction_refusal(editor, club):
        raise CardRefused(why)
    current = ClubCorrection.objects.filter(club=club, card=card).first()
    before = current.stats if current else card.stats
    _as_drawn(card, before, drawn)
    if before == stats:
        return None
    if stats == card.stats:
        ClubCorrection.objects.filter(club=club, card=card).delete()
    else:
        ClubCorrection.objects.update_or_create(club=club, card=card, defaults={"stats": stats})
    return _recorded(editor, card, CardChange.CLUB, club=club, old_stats=before, new_name=card.name, new_stats=stats)


# ---------------------------------------------------------------- name claims

CLAIMS_PER_CLUB = 300
"""Most names one club may hold: a store's card list, not the whole namespace."""


@transaction.atomic
def name_claim(editor: Editor, club: Club, slug: str, name: str) -> NameClaim:
    """Claim a card name for the club. Raises CardRefused: not an organiser, the name claimed already,
    too many claims, or a card by that name the organiser may not change."""
    if why := _organiser_refusal(editor, club, _("Only an organiser of %(club)s can claim card names for it.")):
        raise CardRefused(why)
    Club.objects.select_for_update().filter(pk=club.pk).first()  # one claim at a time per club: the count holds
    name = catalog_name(name)
    hold_names(CARD_NAMES, [name])  # one claim or card of this name at a time, whichever club or phone
    held = NameClaim.named(slug, name)
    if held is not None:
        raise CardRefused(_("%(name)s is already claimed by %(club)s.") % {"name": held.name, "club": held.club.name},
                          status=409 if held.club_id == club.pk else 422)
    if NameClaim.objects.filter(club=club).count() >= CLAIMS_PER_CLUB:
        raise CardRefused(_("%(club)s already claims %(n)s names, the most a club may.") % {
            "club": club.name, "n": CLAIMS_PER_CLUB}, status=422)
    card = Card.named(slug, name)
    if card is not None and (why := refusal(editor, card)):
        raise CardRefused(_("%(name)s is already in the catalog and you may not change it, so the club cannot claim "
                            "it. %(why)s") % {"name": card.name, "why": why})
    try:
        with transaction.atomic():
            return NameClaim.objects.create(club=club, slug=slug, name=card.name if card else name, by=editor.user)
    except IntegrityError as error:  # claimed meanwhile by another club
        raise CardRefused(_("%(name)s was claimed a moment ago.") % {"name": name}, status=409) from error


def name_release(editor: Editor, club: Club, claim_id: int) -> NameClaim | None:
    """Give up one of the club's claims (its organisers); None when it was already given up."""
    if why := _organiser_refusal(editor, club, _("Only an organiser of %(club)s can claim card names for it.")):
        raise CardRefused(why)
    claim = NameClaim.objects.filter(club=club, pk=claim_id).first()
    if claim is not None:
        claim.delete()
    return claim
