"""Collection pages: a player's cards with their copies and levels, adding copies and upgrading.

Who sees and changes which collection is decided in collection.py (`may_see`,
`change_refusal`). A collection the viewer may not see does not exist for them (404); one
they may see but not change is shown without its forms, and a change posted anyway is
refused with the reason. Nothing is changed by a refusal.
"""

from django.contrib import messages
from django.db import IntegrityError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tracker.matches.once import made_once
from tracker.people import access
from tracker.people.devices import TableRequest

from ..models import Card, Club, CollectionChange, Player
from . import collection, config, ratings
from .errors import Refused
from .forms import CopiesForm, UpgradeForm


def _url(name: str, player: Player, club: Club | None, *more) -> str:
    """A collection URL: the club's ones carry the club."""
    if club is not None:
        return reverse(f"club_{name}", args=[club.pk, player.pk, *more])
    return reverse(name, args=[player.pk, *more])


def _who(request: TableRequest, user) -> str:
    """Who changed a collection, as the page says it: the account's player name, never its login."""
    if user is None:
        return _("someone")
    if user == access.signed_in(request):
        return _("you")
    player = getattr(user, "player", None)
    return player.name if player is not None else _("an account")


def _collection_or_404(request: TableRequest, pk: int, club_id: int | None) -> tuple[Player, Club | None]:
    """The player and club of a collection this request may see; 404 otherwise, as if it did not exist."""
    club = get_object_or_404(Club, pk=club_id) if club_id is not None else None
    player = get_object_or_404(collection.club_players(club) if club else Player.objects.all(), pk=pk)
    if not collection.may_see(access.signed_in(request), player, club):
        raise Http404(_("No such collection."))
    return player, club


@require_GET
def collection_index(request: TableRequest) -> HttpResponse:
    """The collections this viewer may open: their own, and those of the clubs they belong to."""
    user = access.signed_in(request)
    mine = Player.objects.filter(user=user).first() if user else None
    context = {"mine": mine, "signed_in": user is not None, "clubs": access.my_clubs(request).order_by("name")}
    return render(request, "competition/collection_index.html", context)


@require_GET
def club_collections(request: TableRequest, club: int) -> HttpResponse:
    """A club's players, each with their collection in the club; for members only."""
    found = get_object_or_404(Club, pk=club)
    if access.club_role(request, found) is None:
        raise Http404(_("No such club."))
    context = {"club": found, "players": collection.club_players(found).order_by("name")}
    return render(request, "competition/club_collections.html", context)


def _collection_page(request: TableRequest, player: Player, club: Club | None, refusal: str = "", status: int = 200,
                     form: CopiesForm | None = None) -> HttpResponse:
    rules = config.upgrade_rules()
    rows = collection.cards_of(player, club)
    for row in rows:
        row["upgrade_url"] = _url("collection_upgrade", player, club, row["entry"].pk)
    context = {
        "player": player, "club": club, "rows": rows, "form": form or CopiesForm(), "refusal": refusal,
        "cannot_change": collection.change_refusal(access.signed_in(request), player, club),
        "add_url": _url("collection_add", player, club),
        "history": [(change, _who(request, change.user)) for change in
                    CollectionChange.objects.filter(entry__player=player, entry__club=club)
                    .select_related("entry__card", "user__player")[:20]],
        "catalog": Card.objects.filter(slug=ratings.SLUG), "max_level": rules.max_level, "gains": rules.gains,
        "table": [(rarity, costs[:rules.max_level - 1]) for rarity, costs in rules.duplicates.items()],
    }
    return render(request, "competition/collection.html", context, status=status)


@require_GET
def collection_detail(request: TableRequest, pk: int, club: int | None = None) -> HttpResponse:
    player, found = _collection_or_404(request, pk, club)
    return _collection_page(request, player, found)


@require_POST
@made_once
def collection_add(request: TableRequest, pk: int, club: int | None = None) -> HttpResponse:
    player, found = _collection_or_404(request, pk, club)
    form = CopiesForm(request.POST)
    if why := collection.change_refusal(access.signed_in(request), player, found):
        return _collection_page(request, player, found, why, 403, form)
    if not form.is_valid():
        return _collection_page(request, player, found, _("Nothing was added: fix the fields marked below."), 422, form)
    try:
        entry = collection.copies_add(player=player, club=found, card_name=form.cleaned_data["card"],
                                      count=form.cleaned_data["count"], by=access.signed_in(request))
    except Refused as refused:
        return _collection_page(request, player, found, str(refused), refused.status, form)
    except IntegrityError:  # the card's first copies added by another request in the same instant
        return _collection_page(request, player, found, _("This collection changed at the same moment; look at it "
                                                          "again before adding."), 409, form)
    messages.success(request, _("%(name)s: %(copies)s copies now.") % {"name": entry.card.name, "copies": entry.copies})
    return redirect(_url("collection_detail", player, found))


@require_POST
def collection_upgrade(request: TableRequest, pk: int, entry: int, club: int | None = None) -> HttpResponse:
    player, found = _collection_or_404(request, pk, club)
    if why := collection.change_refusal(access.signed_in(request), player, found):
        return _collection_page(request, player, found, why, 403)
    form = UpgradeForm(request.POST)
    if not form.is_valid():
        return _collection_page(request, player, found, _("The form is incomplete; nothing was changed."), 400)
    try:
        upgraded = collection.card_upgrade(entry_id=entry, player=player, club=found,
                                           expected_level=form.cleaned_data["level"],
                                           expected_copies=form.cleaned_data["copies"], by=access.signed_in(request))
    except Refused as refused:
        return _collection_page(request, player, found, str(refused), refused.status)
    messages.success(request, _("%(name)s is now level %(level)s.") % {"name": upgraded.card.name,
                                                                         "level": upgraded.level})
    return redirect(_url("collection_detail", player, found))
