"""The card catalogs: browse and search them, add a card at the table, correct or remove a card,
and move a catalog in and out as CSV.

Cards are shared data. Anyone may add one; who may correct or delete an existing card is
decided in tracker/catalog/changes.py, which also keeps every change. A refused change says why,
keeps what was typed, and changes nothing.
"""

import json

from django.contrib import messages
from django.db.models import Q
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import trigger_client_event

import rules
from tracker.catalog import changes as card_changes
from tracker.catalog import csv_files as catalog_csv
from tracker.catalog.changes import CardRefused, Editor
from tracker.catalog.picker import PICKS, QUERY_MAX, as_the_match_plays, collection_names, rank, recent_names
from tracker.games import pages_for
from tracker.matches import listing
from tracker.matches.once import made_once
from tracker.models import Card, CardChange, Club, ClubCorrection, Match, NameClaim
from tracker.people import access
from tracker.people.devices import TableRequest
from tracker.web import limits
from tracker.web.next_page import back_to, next_page

SHOWN = 200
"""Most rows the catalog table shows; the search narrows it down."""


def _game_or_404(slug: str) -> rules.Game:
    if slug not in rules.GAMES:
        raise Http404(_("No such game."))
    return rules.GAMES[slug]


def _new_card_forms(slug: str) -> list:
    """The new-card form, unbound: what its 429 page names each value by (limits.costly)."""
    _game_or_404(slug)
    return [pages_for(slug).card_form(prefix="new")]


def _facts(slug: str, name: str, stats: dict) -> list:
    """A card's stats as labelled words (the game's card_facts)."""
    return pages_for(slug).card_facts({"name": name, **stats})


def _catalog_table(slug: str, cards) -> dict:
    """The catalog as a table: one column per stat the game's cards have, one row per card."""
    rows = [(card, _facts(slug, card.name, card.stats)) for card in cards]
    return {
        "headers": [fact.label for fact in rows[0][1]] if rows else [],
        "rows": [(card, [fact.value for fact in facts]) for card, facts in rows],
    }


def _list_page(request: TableRequest, slug: str, status: int = 200, cards=None, **extra) -> HttpResponse:
    """The catalog page (or just its results for htmx), with the add and import forms."""
    context = {"game": rules.GAMES[slug], "form": pages_for(slug).card_form(prefix="new"),
               "columns": catalog_csv.columns(slug), **extra,
               **_catalog_table(slug, (Card.objects.filter(slug=slug) if cards is None else cards)[:SHOWN])}
    # No rows: a search that found nothing, or a catalog with no card yet (which says so, and leads to the form).
    context["empty"] = not context["rows"] and not Card.objects.filter(slug=slug).exists()
    template = "tracker/card_list.html#results" if request.htmx and request.method == "GET" else "tracker/card_list.html"
    return render(request, template, context, status=status)


@require_GET
def card_games(request: TableRequest) -> HttpResponse:
    """Every game's catalog, with how many cards each holds."""
    counts = {slug: Card.objects.filter(slug=slug).count() for slug in rules.GAMES}
    catalogs = [(game, counts[slug]) for slug, game in rules.GAMES.items()]
    return render(request, "tracker/card_games.html", {"catalogs": catalogs})


@require_GET
def card_list(request: TableRequest, slug: str) -> HttpResponse:
    """A game's catalog, filtered as you type (htmx asks for just the results)."""
    _game_or_404(slug)
    query = request.GET.get("q", "").replace("\x00", "").strip()[:60]  # PostgreSQL text cannot hold NUL
    cards = Card.objects.filter(slug=slug)
    if query:
        cards = cards.filter(name__icontains=query)
    return _list_page(request, slug, cards=cards, query=query)


@require_http_methods(["GET", "POST"])
@made_once
@limits.costly("card-new", labels=lambda request, slug: _new_card_forms(slug))
def card_new(request: TableRequest, slug: str) -> HttpResponse:
    """Add a card to the catalog, from the catalog page or mid-match when a new card is revealed.

    GET is the empty form, which a match page fetches (htmx) when its fold is opened; without htmx,
    the catalog page's own form.
    """
    game = _game_or_404(slug)
    pages = pages_for(slug)
    if request.method == "GET":
        if not request.htmx:
            return redirect(reverse("card_list", args=[slug]) + "#new-card")
        return render(request, "tracker/card_form.html",
                      {"form": pages.card_form(prefix="new"), "slug": slug, "next": next_page(request, "")})
    form = pages.card_form(request.POST, prefix="new")
    added = None
    if form.is_valid():
        card = form.cleaned_data
        try:
            added = card_changes.card_add(Editor.of(request), slug, card["name"], pages.card_stats(card))
        except CardRefused as refused:
            form.add_error("name", str(refused))
    if request.htmx:
        context = {"game": game, "form": pages.card_form(prefix="new") if added else form, "added": added,
                   "catalog": Card.objects.filter(slug=slug)}
        answer = render(request, "tracker/card_added.html", context, status=200 if added else 422)
        # The catalog page's list asks for itself again (with the search typed) to show the card; a match page
        # does not listen.
        return trigger_client_event(answer, "card-added") if added else answer
    if added:
        messages.success(request, _("%(name)s added to the catalog.") % {"name": added.name})
        return back_to(request, reverse("card_list", args=[slug]))
    return _list_page(request, slug, status=422, form=form)


def _card_or_404(slug: str, pk: int, cards=Card.objects) -> Card:
    _game_or_404(slug)
    return get_object_or_404(cards, slug=slug, pk=pk)


def _who(request: TableRequest, user, device: str) -> str:
    """Who added or changed a card, as the page may say it: never a phone's id, nor an account's login."""
    if user is not None:
        if user == access.signed_in(request):
            return _("you")
        player = getattr(user, "player", None)
        return player.name if player is not None else _("an account")
    if device:
        return _("this phone") if device == access.device_of(request) else _("a phone without an account")
    return ""


@require_GET
def card_detail(request: TableRequest, slug: str, pk: int) -> HttpResponse:
    """One card: its stats, who added it, the matches you can see that used it, and every change."""
    card = _card_or_404(slug, pk, Card.objects.select_related("created_by__player"))  # who added it, named
    # A club's corrections are its own business: only its members see them.
    history = (CardChange.objects.filter(card=card).filter(Q(club__isnull=True) | Q(club__in=access.my_clubs(request)))
               .select_related("user__player", "club"))
    used_in = Match.objects.visible_to(request).filter(card_uses__card=card)
    claim = NameClaim.named(slug, card.name)
    context = {
        "game": rules.GAMES[slug], "card": card,
        "stats": [(fact.label, fact.value) for fact in _facts(slug, card.name, card.stats)],
        "added_by": _who(request, card.created_by, card.created_device),
        "history": [(change, _who(request, change.user, change.device), _changed(slug, change)) for change in history],
        "used_in": listing.rows(used_in[:20]),
        "why_not": card_changes.refusal(Editor.of(request), card, claim),
        "claim": claim,
        **_club_corrections(request, card),
    }
    return render(request, "tracker/card_detail.html", context)


def _club_corrections(request: TableRequest, card: Card) -> dict:
    """The corrections of the viewer's clubs (each club's own stats for the card), and the clubs they may correct it for."""
    clubs = access.my_clubs(request)
    corrected = ClubCorrection.objects.filter(card=card, club__in=clubs).select_related("club")
    organised = Club.objects.filter(memberships__user=access.signed_in(request), memberships__role="organiser")
    return {
        "corrections": [(correction.club, [(fact.label, fact.value) for fact in _facts(card.slug, card.name,
                                                                                      correction.stats)])
                        for correction in corrected],
        "correctable": organised.distinct() if access.signed_in(request) else [],
    }


def _changed(slug: str, change: CardChange) -> list[tuple]:
    """(label, old, new) for each stat of a recorded change; a deletion has no new values."""
    old = _facts(slug, change.old_name, change.old_stats)
    if change.new_stats is None:
        return [(fact.label, fact.value, "") for fact in old]
    new = _facts(slug, change.new_name, change.new_stats)
    return [(before.label, before.value, after.value) for before, after in zip(old, new, strict=True)]


@require_http_methods(["GET", "POST"])
def card_edit(request: TableRequest, slug: str, pk: int) -> HttpResponse:
    """Correct a card. Who may is said before anything is typed; a refused change keeps the typing."""
    card = _card_or_404(slug, pk)
    pages = pages_for(slug)
    editor = Editor.of(request)
    why_not, refusal, status = card_changes.refusal(editor, card), "", 200
    initial = catalog_csv.as_row(slug, card.as_rules_card())
    form = pages.card_form(request.POST if request.method == "POST" else None, prefix="card", initial=initial)
    if request.method == "POST":
        status = 422
        if form.is_valid():
            edited = form.cleaned_data
            try:
                change = card_changes.card_edit(editor, card.pk, edited["name"], pages.card_stats(edited),
                                                drawn=request.POST.get("drawn"))
            except CardRefused as refused:
                refusal, status = str(refused), refused.status
            else:
                done = _("%(name)s corrected; matches already played keep the stats they were played with.")
                messages.success(request, done % {"name": edited["name"]} if change else
                                 _("Nothing was different, so nothing was changed."))
                return redirect("card_detail", slug=slug, pk=pk)
    context = {"game": rules.GAMES[slug], "card": card, "form": form, "why_not": why_not, "refusal": refusal,
               "drawn": card_changes.drawn_as(card.name, card.stats)}
    return render(request, "tracker/card_edit.html", context, status=status)


@require_http_methods(["GET", "POST"])
@made_once
def card_club_correction(request: TableRequest, slug: str, pk: int, club_id: int) -> HttpResponse:
    """A club's own stats for a card, for the club's new matches only; its organisers set them."""
    card = _card_or_404(slug, pk)
    club = get_object_or_404(Club, pk=club_id)
    if access.club_role(request, club) is None:
        raise Http404(_("No such club."))
    pages = pages_for(slug)
    editor = Editor.of(request)
    why_not, refusal, status = card_changes.correction_refusal(editor, club), "", 200
    current = ClubCorrection.objects.filter(club=club, card=card).first()
    initial = catalog_csv.as_row(slug, {"name": card.name, **(current.stats if current else card.stats)})
    form = pages.card_form(request.POST if request.method == "POST" else None, prefix="card", initial=initial)
    form.fields["name"].disabled = True  # a correction changes the stats; the name is the catalog's
    if request.method == "POST":
        status = 422
        if form.is_valid():
            try:
                change = card_changes.card_correct(editor, card.pk, club, pages.card_stats(form.cleaned_data),
                                                   drawn=request.POST.get("drawn"))
            except CardRefused as refused:
                refusal, status = str(refused), refused.status
            else:
                messages.success(request, _("%(club)s's new matches play %(name)s with these stats; nobody else's "
                                            "card changed.") % {"club": club.name, "name": card.name} if change
                                 else _("Nothing was different, so nothing was changed."))
                return redirect("card_detail", slug=slug, pk=pk)
    current = ClubCorrection.objects.filter(club=club, card=card).first()  # as it stands now, a refusal drawn
    context = {"game": rules.GAMES[slug], "card": card, "club": club, "form": form, "why_not": why_not,
               "refusal": refusal, "corrected": current is not None,
               "drawn": card_changes.drawn_as(card.name, current.stats if current else card.stats)}
    return render(request, "tracker/card_club_correction.html", context, status=status)


@require_http_methods(["GET", "POST"])
def card_delete(request: TableRequest, slug: str, pk: int) -> HttpResponse:
    """Remove a card, after a confirmation page that says who may and what it leaves alone."""
    card = _card_or_404(slug, pk)
    editor = Editor.of(request)
    why_not = card_changes.refusal(editor, card) or card_changes.collected(card)
    refusal, status = "", 200
    if request.method == "POST":
        if request.POST.get("confirm") != "yes" and not why_not:
            refusal, status = _("Confirm the deletion with the button below; nothing was deleted."), 400
        else:
            try:
                card_changes.card_delete(editor, card.pk)
            except CardRefused as refused:
                refusal, status = str(refused), refused.status
            else:
                messages.success(request, _("%(name)s was deleted from the catalog; matches already played keep "
                                            "it.") % {"name": card.name})
                return redirect("card_list", slug=slug)
    context = {"game": rules.GAMES[slug], "card": card, "why_not": why_not, "refusal": refusal}
    return render(request, "tracker/card_delete.html", context, status=status)


@require_GET
def card_export(request: TableRequest, slug: str) -> HttpResponse:
    _game_or_404(slug)
    response = HttpResponse(catalog_csv.export_csv(slug), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="tablekeeper-{slug}-cards.csv"'
    return response


REFUSED_SHOWN = 10  # protected rows named one by one after an import; the rest are counted


@require_POST
@made_once
@limits.costly("card-csv")
def card_import(request: TableRequest, slug: str) -> HttpResponse:
    """Import a catalog CSV: a single wrong row stores nothing; rows changing protected cards are named and left out."""
    _game_or_404(slug)
    upload = request.FILES.get("file")
    problems = []
    if upload is None:
        problems = [_("Choose a CSV file to import.")]
    elif (upload.size or 0) > catalog_csv.MAX_BYTES:
        problems = [_("The file is larger than %(kb)s KB.") % {"kb": catalog_csv.MAX_BYTES // 1024}]
    else:
        limits.spent(request)  # the file is read: counted even if a row is then refused
        try:
            imported = catalog_csv.import_csv(slug, upload.read(), Editor.of(request))
        except catalog_csv.CatalogFileError as error:
            problems = error.problems
        else:
            messages.success(request, _("Catalog imported: %(added)s added, %(updated)s updated.")
                             % {"added": imported.added, "updated": imported.updated})
            for why in imported.refused[:REFUSED_SHOWN]:
                messages.warning(request, _("Not changed: %(why)s") % {"why": why})
            more = len(imported.refused) - REFUSED_SHOWN
            if more > 0:
                messages.warning(request, ngettext("%(n)s more row would change a card you may not change.",
                                                   "%(n)s more rows would change cards you may not change.", more)
                                 % {"n": more})
            return redirect("card_list", slug=slug)
    return _list_page(request, slug, status=422, import_problems=problems)


@require_GET
def card_picks(request: TableRequest, slug: str) -> HttpResponse:
    """The catalog cards matching what a card field holds, as buttons with their key stats (htmx).

    The field's own value is sent under its name, and `field` says which name that is (or `q`); a deck entry's
    field sends `deck` and the deck's `source`, so a deck from a collection is offered only its cards.
    Without htmx this is the catalog's search.
    """
    if slug not in rules.GAMES:
        raise Http404(_("No such game."))
    field = request.GET.get("field", "q")
    query = request.GET.get(field, "")
    if "\x00" in query or "\x00" in field:
        return HttpResponse(_("A card name cannot hold a NUL character."), status=400,
                            content_type="text/plain; charset=utf-8")
    query = query.strip()[:QUERY_MAX]
    if not request.htmx:
        return redirect(f"{reverse('card_list', args=[slug])}?{urlencode({'q': query})}")
    catalog = dict(Card.objects.filter(slug=slug).values_list("name", "pk"))
    # A deck played from its player's collection: only the cards they own, not a refusal at lock-in.
    owned = collection_names(request, request.GET.get("deck", ""), request.GET.get("source", ""))
    if owned is not None:
        catalog = {name: pk for name, pk in catalog.items() if name.casefold() in owned}
    recent = recent_names(request, slug)
    found = rank(list(catalog), query, recent)
    used = set(recent)
    shown = {card.pk: card for card in Card.objects.filter(pk__in=[catalog[name] for name in found[:PICKS]])}
    as_the_match_plays(request, shown.values())
    pages = pages_for(slug)
    picks = []
    for name in found[:PICKS]:
        card = shown[catalog[name]]
        facts = [fact for fact in pages.card_facts(card.as_rules_card()) if fact.key]
        picks.append({"card": card, "facts": facts, "recent": name.casefold() in used})
    # What a screen reader is told, for each number of cards the list may show: picker.js hides the cards the form's
    # other fields already hold, and says the number it left.
    said = [ngettext("%(n)s card to choose from", "%(n)s cards to choose from", n) % {"n": n}
            for n in range(len(picks) + 1)]
    context = {"slug": slug, "query": query, "picks": picks, "more": max(len(found) - PICKS, 0),
               "said": said[-1], "said_json": json.dumps(said, ensure_ascii=False)}
    return render(request, "tracker/picker.html#picks", context)
