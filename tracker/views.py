"""Function views. Every one reads or changes a match through tracker.services."""

from django.contrib import messages
from django.core import signing
from django.core.paginator import Paginator
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.urls import reverse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.csp import csp_override
from django.views.decorators.http import require_GET, require_http_methods, require_POST

import rules
from rules import RuleError

from . import access, catalog_csv, services, sharing
from .access import Viewer
from .forms import MatchFilterForm, PlayersForm, SeqForm, StepForm
from .games import pages_for
from .models import Card, Match, Player

ENTRY_SALT = "tracker.secret-entry"


def _game_or_404(slug: str) -> rules.Game:
    if slug not in rules.GAMES:
        raise Http404(_("No such game."))
    return rules.GAMES[slug]


def _entry_links(match: Match, seen_by: Viewer) -> list[dict]:
    """For each seat awaiting a secret entry: where this device goes to make it, if anywhere.

    The owner's phone passes to the player (hot-seat); a seated phone goes straight to its
    own entry; nobody gets a link for a seat another device holds.
    """
    players = match.players()
    links = []
    for seat in pages_for(match.slug).seats_to_enter(match):
        if not seen_by.can_enter_for(seat):
            url = ""
        elif seen_by.role == access.PLAYER:
            url = reverse("match_entry", args=[match.pk, seat])
        else:
            url = reverse("match_pass", args=[match.pk, seat])
        links.append({"seat": seat, "player": players[seat], "url": url, "own": seen_by.seat == seat,
                      "held_elsewhere": seat in seen_by.claimed and seen_by.seat != seat})
    return links


def _match_context(request: HttpRequest, match: Match, seen_by: Viewer, **extra) -> dict:
    pages = pages_for(match.slug)
    return {
        "match": match,
        "game": match.game,
        "players": match.players(),
        "board": pages.board(match),
        "board_template": pages.BOARD_TEMPLATE,
        "viewer": seen_by,
        "read_only": not seen_by.can_act,
        "viewer_player": match.players()[seen_by.seat] if seen_by.seat is not None else None,
        "entry_links": _entry_links(match, seen_by),
        "own_secret": pages.own_secret(match, seen_by.seat) if seen_by.seat is not None and hasattr(pages, "own_secret")
        else None,
        "can_redo": match.head < match.line_length,
        # A seated phone may undo only its own moves (match_goto enforces it; the button says so).
        "can_undo": match.head > 0 and not (seen_by.role == access.PLAYER
                                            and _moves_of_others(match, seen_by.seat, match.head - 1, match.head)),
        **sharing.share_context(request, match, seen_by),
        **extra,
    }


def _render_match(request: HttpRequest, match: Match, seen_by: Viewer, status: int = 200, **extra) -> HttpResponse:
    """The match page, or only its #match part when htmx asks."""
    template = "tracker/match_detail.html#match" if request.htmx else "tracker/match_detail.html"
    return render(request, template, _match_context(request, match, seen_by, **extra), status=status)


def _refused(request: HttpRequest, match_id: int, message: str, status: int) -> HttpResponse:
    """A refused change: the message and the fresh state; nothing was applied."""
    match, seen_by = access.match_for(request, match_id)
    return _render_match(request, match, seen_by, status=status, refusal=message)


def _after_change(request: HttpRequest, match: Match, seen_by: Viewer, message: str = "") -> HttpResponse:
    """The page after a change, from the match the change just saved (its state and players are fresh)."""
    if message:
        messages.success(request, message)
    if request.htmx:
        return _render_match(request, match, seen_by)
    return redirect(match)


@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    """The cheapest page: proves the app and database answer, and is the benchmarks' floor."""
    Match.objects.exists()
    return HttpResponse("ok", content_type="text/plain")


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    recent = access.visible_matches(request).prefetch_related("seats__player").select_related("winner")[:5]
    return render(request, "tracker/home.html", {"games": rules.GAMES.values(), "recent": recent})


@require_http_methods(["GET", "POST"])
def match_new(request: HttpRequest, slug: str) -> HttpResponse:
    game = _game_or_404(slug)
    pages = pages_for(slug)
    data = request.POST if request.method == "POST" else None
    players_form = PlayersForm(data, seats=game.seats, initial=request.GET)
    config_form = pages.ConfigForm(data, prefix="config")
    if data is not None and players_form.is_valid() and config_form.is_valid():
        try:
            match = services.match_create(
                slug=slug, player_names=players_form.cleaned_data["names"], config=config_form.cleaned_data,
                owner=request.user if request.user.is_authenticated else None, owner_device=request.device,
            )
        except RuleError as error:
            config_form.add_error(None, services.explain(error))
        else:
            messages.success(request, _("Match started."))
            return redirect(match)
    context = {
        "game": game,
        "noun": pages.NEW_MATCH_NOUN,
        "players_form": players_form,
        "config_form": config_form,
        "known_players": Player.objects.all(),
    }
    return render(request, "tracker/match_new.html", context, status=422 if data is not None else 200)


@require_GET
def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    match, seen_by = access.match_for(request, pk)
    return _render_match(request, match, seen_by)


# Every open phone asks this every 2 s, so its answer is kept to a few headers: it is never a
# page (an empty 204 or a little JSON read by live.js), so a content policy or a framing rule
# would govern nothing here. Refusals (404, 403) are pages and still carry both.
@csp_override({})
@xframe_options_exempt
@require_GET
def match_poll(request: HttpRequest, pk: int) -> HttpResponse:
    """Has the match changed since version `v`? 204 and no body when not: polled every 2 s."""
    match, _seen_by = access.match_for(request, pk, only=("version", "finished", "owner", "owner_device", "shared"))
    if request.GET.get("v") == str(match.version):
        response = HttpResponse(status=204)
        del response["Content-Type"]  # no body, nothing to type
        return response
    return JsonResponse({"version": match.version, "finished": match.finished is not None})


def _seat_player(match: Match, seat: int, seen_by: Viewer):
    """The player of `seat`, if this device may make that seat's secret entry."""
    players = match.players()
    if seat >= len(players):
        raise Http404(_("No such seat."))
    if not seen_by.can_enter_for(seat):
        raise PermissionDenied(_("Only %(name)s's own phone can make this entry.") % {"name": players[seat].name})
    return players[seat]


@require_GET
def match_pass(request: HttpRequest, pk: int, seat: int) -> HttpResponse:
    """The hot-seat screen that hides everything until the right player holds the phone."""
    match, seen_by = access.match_for(request, pk, act=True)
    player = _seat_player(match, seat, seen_by)
    if seat not in pages_for(match.slug).seats_to_enter(match):
        messages.info(request, _("%(name)s has nothing secret to enter now.") % {"name": player.name})
        return redirect(match)
    return render(request, "tracker/pass_phone.html", {"match": match, "player": player, "seat": seat})


@never_cache  # no-store: the Back button must not bring a locked-in entry back from the cache
@require_http_methods(["GET", "POST"])
def match_entry(request: HttpRequest, pk: int, seat: int) -> HttpResponse:
    """One player's secret entry (a Card Crush deck), sent with a token bound to their seat."""
    match, seen_by = access.match_for(request, pk, act=True)
    player = _seat_player(match, seat, seen_by)
    pages = pages_for(match.slug)
    if request.method == "GET" and seat not in pages.seats_to_enter(match):
        return redirect(match)
    form = pages.entry_form(match, request.POST if request.method == "POST" else None)
    refusal, status = "", 200
    if request.method == "POST":
        status = 422
        try:
            token = signing.loads(request.POST.get("entry_token", ""), salt=ENTRY_SALT, max_age=60 * 60 * 24)
        except signing.BadSignature:
            token = None
        seq_form = SeqForm(request.POST)
        if token != {"match": match.pk, "seat": seat}:
            return _refused(request, match.pk, _("This entry form was not issued for %(name)s; nothing was locked.")
                            % {"name": player.name}, status=403)
        if not seq_form.is_valid():
            return _refused(request, match.pk, _("The form is missing its step number; nothing was applied."), 400)
        if form.is_valid():
            try:
                services.match_apply_action(
                    match=match, action=pages.entry_action(form, seat), expected_seq=seq_form.cleaned_data["seq"]
                )
            except services.StaleSubmission as stale:
                match.refresh_from_db()
                if seat not in pages.seats_to_enter(match):
                    return _refused(request, match.pk, str(stale), status=409)
                # Another phone moved the match on meanwhile (say, the other player locked in):
                # keep what this player typed and let them confirm it against the fresh step.
                refusal, status = _("The match moved on while you were entering; check your entry and send it again."), 409
            except RuleError as error:
                refusal = services.explain(error, match.players())
            else:
                messages.success(request, _("%(name)s is locked in. The entry is hidden.") % {"name": player.name})
                return redirect(match)
    context = {
        "match": match,
        "player": player,
        "seat": seat,
        "form": form,
        "refusal": refusal,
        "entry_token": signing.dumps({"match": match.pk, "seat": seat}, salt=ENTRY_SALT),
        "catalog": Card.objects.filter(slug=match.slug),
        "card_form": pages.CardForm(prefix="new"),
    }
    return render(request, pages.ENTRY_TEMPLATE, context, status=status)


@require_POST
def match_act(request: HttpRequest, pk: int) -> HttpResponse:
    """An open action taken at the table (reveal the next round, attack, ...).

    Dice a player rolled by hand come as `roll` fields, in the order the engine asks
    for them; a blank `roll` means the app rolls.
    """
    match, seen_by = access.match_for(request, pk, act=True)
    seq_form = SeqForm(request.POST)
    if not seq_form.is_valid():
        return _refused(request, pk, _("The form is missing its step number; nothing was applied."), 400)
    pages = pages_for(match.slug)
    try:
        action = pages.table_action(match, request.POST)
    except ValidationError as error:
        return _refused(request, pk, " ".join(error.messages), status=422)
    acting = pages.acting_seat(match, action) if hasattr(pages, "acting_seat") else action.get("seat")
    if seen_by.role == access.PLAYER and acting is not None and acting != seen_by.seat:
        return _refused(request, pk, _("You can act only for your own seat; nothing was applied."), status=403)
    try:
        rolls = [int(value) for value in request.POST.getlist("roll") if value.strip()]
    except ValueError:
        return _refused(request, pk, _("A die roll must be a whole number; nothing was applied."), status=422)
    try:
        recorded = services.match_apply_action(
            match=match, action=action, expected_seq=seq_form.cleaned_data["seq"], rolls=rolls
        )
    except services.StaleSubmission as stale:
        return _refused(request, pk, str(stale), status=409)
    except RuleError as error:
        return _refused(request, pk, services.explain(error, match.players()), status=422)
    return _after_change(request, recorded.match, seen_by)


def _moves_of_others(match: Match, seat: int, low: int, high: int) -> bool:
    """Whether steps low+1..high hold a move made for another seat than `seat`.

    Undoing or redoing those is the owner's call, not a seated player's. A move names its seat,
    or (Cardmaster) a card whose owner the adapter's acting_seat finds; table actions that
    belong to nobody (a fight, a round reveal) may be undone by either player.
    """
    pages = pages_for(match.slug)
    for action in match.actions.filter(abandoned=False, seq__gt=low, seq__lte=high).only("seat", "payload"):
        acting = action.seat
        if acting is None and hasattr(pages, "acting_seat"):
            acting = pages.acting_seat(match, action.payload)
        if acting is not None and acting != seat:
            return True
    return False


@require_POST
def match_goto(request: HttpRequest, pk: int) -> HttpResponse:
    """Undo or redo: move along the log to a step; actions are never deleted."""
    match, seen_by = access.match_for(request, pk, act=True)
    form = StepForm(request.POST)
    if not form.is_valid():
        return _refused(request, pk, _("Choose a step to go to; nothing was changed."), 400)
    step, seq = form.cleaned_data["step"], form.cleaned_data["seq"]
    if seen_by.role == access.PLAYER and _moves_of_others(match, seen_by.seat, min(step, match.head),
                                                          max(step, match.head)):
        return _refused(request, pk, _("That would undo or redo the other player's move; only the match's owner "
                                       "can do that."), status=403)
    try:
        moved = services.match_goto(match=match, step=step, expected_seq=seq)
    except services.StaleSubmission as stale:
        return _refused(request, pk, str(stale), status=409)
    except services.NoSuchStep as error:
        return _refused(request, pk, str(error), status=422)
    verb = _("Went back to step %(step)s.") if step < seq else _("Went forward to step %(step)s.")
    return _after_change(request, moved, seen_by, verb % {"step": step})


@require_GET
def match_list(request: HttpRequest) -> HttpResponse:
    form = MatchFilterForm(request.GET or None)
    matches = access.visible_matches(request).prefetch_related("seats__player").select_related("winner")
    if form.is_valid():
        if form.cleaned_data["game"]:
            matches = matches.filter(slug=form.cleaned_data["game"])
        if form.cleaned_data["player"]:
            matches = matches.filter(seats__player=form.cleaned_data["player"])
    page = Paginator(matches, 25).get_page(request.GET.get("page"))
    return render(request, "tracker/match_list.html", {"form": form, "page": page})


@require_GET
def card_games(request: HttpRequest) -> HttpResponse:
    """Every game's catalog, with how many cards each holds."""
    counts = {slug: Card.objects.filter(slug=slug).count() for slug in rules.GAMES}
    catalogs = [(game, counts[slug]) for slug, game in rules.GAMES.items()]
    return render(request, "tracker/card_games.html", {"catalogs": catalogs})


@require_GET
def card_list(request: HttpRequest, slug: str) -> HttpResponse:
    """A game's catalog, filtered as you type (htmx asks for just the results)."""
    game = _game_or_404(slug)
    query = request.GET.get("q", "").replace("\x00", "").strip()[:60]  # PostgreSQL text cannot hold NUL
    cards = Card.objects.filter(slug=slug)
    if query:
        cards = cards.filter(name__icontains=query)
    context = {"game": game, "query": query, "form": pages_for(slug).CardForm(prefix="new"),
               "columns": catalog_csv.columns(slug), **_catalog_table(slug, cards[:200])}
    template = "tracker/card_list.html#results" if request.htmx else "tracker/card_list.html"
    return render(request, template, context)


def _catalog_table(slug: str, cards) -> dict:
    """The catalog as a table whose columns are the game's own card fields."""
    fields = pages_for(slug).CardForm.base_fields
    names = [name for name in fields if name != "name"]

    def shown(value) -> str:
        if isinstance(value, dict):
            return ", ".join(f"{key} {item}" for key, item in value.items())
        if isinstance(value, list):
            return ", ".join(str(item) for item in value)
        return "" if value is None else str(value)

    return {
        "headers": [fields[name].label for name in names],
        "rows": [(card.name, [shown(card.stats.get(name)) for name in names]) for card in cards],
    }


def _safe_next(request: HttpRequest, fallback: str) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return target
    return fallback


@require_POST
def card_new(request: HttpRequest, slug: str) -> HttpResponse:
    """Add a card to the catalog, from the catalog page or mid-match when a new card is revealed."""
    game = _game_or_404(slug)
    pages = pages_for(slug)
    form = pages.CardForm(request.POST, prefix="new")
    added = None
    if form.is_valid():
        card = form.cleaned_data
        try:
            if Card.named(slug, card["name"]):
                raise IntegrityError
            with transaction.atomic():  # a savepoint, so a duplicate name leaves any outer transaction usable
                added = Card.objects.create(slug=slug, name=card["name"], stats=pages.card_stats(card))
        except IntegrityError:
            form.add_error("name", _("%(name)s is already in the catalog.") % {"name": card["name"]})
    if request.htmx:
        context = {"game": game, "form": pages.CardForm(prefix="new") if added else form, "added": added,
                   "catalog": Card.objects.filter(slug=slug)}
        return render(request, "tracker/card_added.html", context, status=200 if added else 422)
    if added:
        messages.success(request, _("%(name)s added to the catalog.") % {"name": added.name})
        return redirect(_safe_next(request, f"/cards/{slug}/"))
    context = {"game": game, "form": form, "columns": catalog_csv.columns(slug),
               **_catalog_table(slug, Card.objects.filter(slug=slug)[:200])}
    return render(request, "tracker/card_list.html", context, status=422)


@require_GET
def card_export(request: HttpRequest, slug: str) -> HttpResponse:
    _game_or_404(slug)
    response = HttpResponse(catalog_csv.export_csv(slug), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="tablekeeper-{slug}-cards.csv"'
    return response


@require_POST
def card_import(request: HttpRequest, slug: str) -> HttpResponse:
    """Import a catalog CSV: every row is checked, and a single wrong row stores nothing."""
    game = _game_or_404(slug)
    upload = request.FILES.get("file")
    problems = []
    if upload is None:
        problems = [_("Choose a CSV file to import.")]
    elif upload.size > catalog_csv.MAX_BYTES:
        problems = [_("The file is larger than %(kb)s KB.") % {"kb": catalog_csv.MAX_BYTES // 1024}]
    else:
        try:
            added, updated = catalog_csv.import_csv(slug, upload.read())
        except catalog_csv.CatalogFileError as error:
            problems = error.problems
        else:
            messages.success(request, _("Catalog imported: %(added)s added, %(updated)s updated.")
                             % {"added": added, "updated": updated})
            return redirect("card_list", slug=slug)
    context = {"game": game, "form": pages_for(slug).CardForm(prefix="new"), "import_problems": problems,
               "columns": catalog_csv.columns(slug), **_catalog_table(slug, Card.objects.filter(slug=slug)[:200])}
    return render(request, "tracker/card_list.html", context, status=422)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    return render(request, "403_csrf.html", status=403)
