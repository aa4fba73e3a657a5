"""Competition pages: leaderboard and rating histories, Swiss tournaments, collections and upgrades.

Refused changes answer with the page, a clear message and a 4xx status (409 for a
stale or doubled form); nothing is changed.
"""

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from rules.card_crush import rating, swiss

from .. import access, charts
from ..devices import TableRequest
from ..models import Card, Match, Player, Tournament
from . import collection, config, ratings, tournaments
from .errors import Refused
from .forms import CopiesForm, DropForm, EntrantForm, RatedForm, RoundForm, TournamentForm, UpgradeForm


def _settings_context() -> dict:
    rules = config.rating_rules()
    return {"k_open": rules.k_for(False), "k_tournament": rules.k_for(True), "baseline": rating.BASELINE,
            "weight": rules.tournament_weight}


@require_GET
def leaderboard(request: TableRequest) -> HttpResponse:
    board = ratings.leaderboard(ratings.history())
    return render(request, "competition/leaderboard.html", {"board": board, **_settings_context()})


def _rating_chart(player: Player, changes: list[rating.Change]) -> dict | None:
    if not changes:
        return None
    values = [rating.BASELINE] + [change.after for change in changes]
    low, high = (min(values) // 50) * 50, -(-max(values) // 50) * 50
    title = _("%(name)s's rating after each change") % {"name": player.name}
    return {"title": title, "series": {player.name: values},
            "svg": charts.line_chart(title, {player.name: values}, low, max(high, low + 50), _("change")),
            "rows": [(value,) for value in values]}


@require_GET
def player_rating(request: TableRequest, pk: int) -> HttpResponse:
    """A player's rating and every change that made it, newest first, each with its working."""
    player = get_object_or_404(Player, pk=pk)
    everything = ratings.history()
    changes = [change for change in everything if change.player == player.pk]
    names = dict(Player.objects.filter(pk__in={c.opponent for c in changes if c.opponent}).values_list("pk", "name"))
    entries = [{"change": c, "opponent": names.get(c.opponent) if c.opponent else None,
                "expected_percent": round(100 * c.expected)
                if c.expected is not None else None} for c in reversed(changes)]
    context = {"player": player, "rating": changes[-1].after if changes else rating.BASELINE, "entries": entries,
               "chart": _rating_chart(player, changes), "played": sum(c.kind == "battle" for c in changes),
               **_settings_context()}
    return render(request, "competition/player.html", context)


def _card_crush_match(pk: int) -> Match:
    match = get_object_or_404(Match.objects.select_related("winner"), pk=pk)
    if match.slug != ratings.SLUG:
        raise Http404(_("Only Card Crush battles are rated."))
    return match


@require_http_methods(["GET", "POST"])
def battle_rating(request: TableRequest, pk: int) -> HttpResponse:
    """How one battle moved both ratings; and marking an open-play battle rated or unrated."""
    match = _card_crush_match(pk)
    if not (match.finished and match.rated):
        # A rated result is public (it is on the leaderboard); anything else stays with who may see the match.
        access.match_for(request, pk)
    refusal, status = "", 200
    if request.method == "POST":
        # Only whoever owns the battle may take it out of the ratings (a table battle: anyone at the table).
        if access.match_for(request, pk, act=True)[1].role != access.OWNER:
            raise PermissionDenied(_("Only the battle's owner can change whether it is rated."))
        form = RatedForm(request.POST)
        tournament = hasattr(match, "pairing")
        if not form.is_valid():
            refusal, status = _("Choose rated or unrated; nothing was changed."), 400
        elif match.finished is None:
            refusal, status = _("This battle is not finished; only a finished battle can be rated. Nothing was changed."), 422
        elif tournament and not form.cleaned_data["rated"]:
            refusal, status = _("A tournament battle always counts toward ratings. Nothing was changed."), 422
        else:
            match.rated = form.cleaned_data["rated"]
            match.save(update_fields=["rated"])
            messages.success(request, _("This battle now counts toward ratings.") if match.rated
                             else _("This battle no longer counts toward ratings."))
            return redirect("battle_rating", pk=pk)
    changes = [c for c in ratings.history() if c.battle == match.pk]
    names = dict(Player.objects.filter(pk__in={c.player for c in changes}).values_list("pk", "name"))
    rows = [{"change": c, "name": names[c.player], "expected_percent": round(100 * (c.expected or 0))} for c in changes]
    context = {"match": match, "rows": rows, "players": match.players(), "refusal": refusal,
               "tournament": getattr(match, "pairing", None), **_settings_context()}
    return render(request, "competition/battle.html", context, status=status)


# ---------------------------------------------------------------- tournaments


@require_http_methods(["GET", "POST"])
def tournament_list(request: TableRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        tournament = tournaments.tournament_create(
            name=form.cleaned_data["name"], player_names=form.cleaned_data["entrants"],
            owner=request.user if request.user.is_authenticated else None, owner_device=request.device)
        messages.success(request, _("Tournament created."))
        return redirect(tournament)
    context = {"form": form, "tournaments": Tournament.objects.prefetch_related("entrants")[:50],
               "known_players": Player.objects.all()}
    return render(request, "competition/tournament_list.html", context, status=422 if request.method == "POST" else 200)


def _tournament_page(request: TableRequest, tournament: Tournament, refusal: str = "", status: int = 200,
                     entrant_form: EntrantForm | None = None) -> HttpResponse:
    tournament = Tournament.objects.get(pk=tournament.pk)
    number = tournaments.current_round(tournament)
    pairings = list(tournament.pairings.select_related("first__player", "second__player", "match__winner"))
    rounds = [(n, [p for p in pairings if p.round == n]) for n in range(number, 0, -1)]
    entrants = tournament.entrants.count()
    context = {
        "tournament": tournament, "round": number, "rounds": rounds, "standings": tournaments.standings(tournament),
        "recommended": swiss.recommended_rounds(entrants), "entrant_count": entrants,
        "round_open": bool(tournaments.unfinished(tournament, number)), "refusal": refusal,
        "entrant_form": entrant_form or EntrantForm(initial={"round": number}),
        "known_players": Player.objects.all(),
        "organiser": access.organises(request, tournament),
    }
    return render(request, "competition/tournament_detail.html", context, status=status)


@require_GET
def tournament_detail(request: TableRequest, pk: int) -> HttpResponse:
    return _tournament_page(request, get_object_or_404(Tournament, pk=pk))


def _tournament_change(request: TableRequest, pk: int, form_class, change, done: str | Callable[[Any], str]) -> HttpResponse:
    """Run one tournament change from a posted form; on refusal, the page with the reason and nothing changed."""
    tournament = get_object_or_404(Tournament, pk=pk)
    if not access.organises(request, tournament):
        return _tournament_page(request, tournament, _("Only the tournament's organiser can change it; "
                                                       "nothing was changed."), 403)
    form = form_class(request.POST)
    if not form.is_valid():
        message = _("The form is incomplete or out of date; nothing was changed.")
        if isinstance(form, EntrantForm) and "name" in form.errors:
            return _tournament_page(request, tournament, message, 422, entrant_form=form)
        return _tournament_page(request, tournament, message, 400)
    try:
        result = change(tournament.pk, form.cleaned_data)
    except Refused as refused:
        return _tournament_page(request, tournament, str(refused), refused.status)
    messages.success(request, done(result) if callable(done) else done)
    return redirect(tournament)


@require_POST
def tournament_pair(request: TableRequest, pk: int) -> HttpResponse:
    return _tournament_change(
        request, pk, RoundForm,
        lambda t, data: tournaments.round_pair(tournament_id=t, expected_round=data["round"]),
        lambda made: _("Round %(round)s is paired: every battle is set up.") % {"round": made[0].round},
    )


@require_POST
def tournament_entrant(request: TableRequest, pk: int) -> HttpResponse:
    return _tournament_change(
        request, pk, EntrantForm,
        lambda t, data: tournaments.entrant_add(tournament_id=t, name=data["name"], expected_round=data["round"]),
        lambda entrant: _("%(name)s is entered.") % {"name": entrant.player.name},
    )


@require_POST
def tournament_drop(request: TableRequest, pk: int) -> HttpResponse:
    return _tournament_change(
        request, pk, DropForm,
        lambda t, data: tournaments.entrant_drop(tournament_id=t, entrant_id=data["entrant"],
                                                 expected_round=data["round"]),
        lambda entrant: _("%(name)s dropped; they will not be paired again.") % {"name": entrant.player.name},
    )


@require_POST
def tournament_finish(request: TableRequest, pk: int) -> HttpResponse:
    return _tournament_change(
        request, pk, RoundForm,
        lambda t, data: tournaments.tournament_finish(tournament_id=t, expected_round=data["round"]),
        _("The tournament is over: these are the final standings."),
    )


# ---------------------------------------------------------------- collections


@require_GET
def collection_index(request: TableRequest) -> HttpResponse:
    return render(request, "competition/collection_index.html", {"players": Player.objects.all()})


def _collection_page(request: TableRequest, player: Player, refusal: str = "", status: int = 200,
                     form: CopiesForm | None = None) -> HttpResponse:
    rules = config.upgrade_rules()
    context = {"player": player, "rows": collection.cards_of(player), "form": form or CopiesForm(),
               "catalog": Card.objects.filter(slug=ratings.SLUG), "refusal": refusal, "max_level": rules.max_level,
               "gains": rules.gains, "table": [(rarity, costs[:rules.max_level - 1])
                                               for rarity, costs in rules.duplicates.items()]}
    return render(request, "competition/collection.html", context, status=status)


@require_GET
def collection_detail(request: TableRequest, pk: int) -> HttpResponse:
    return _collection_page(request, get_object_or_404(Player, pk=pk))


@require_POST
def collection_add(request: TableRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=pk)
    form = CopiesForm(request.POST)
    if not form.is_valid():
        return _collection_page(request, player, _("Nothing was added: fix the fields marked below."), 422, form)
    try:
        entry = collection.copies_add(player=player, card_name=form.cleaned_data["card"],
                                      count=form.cleaned_data["count"])
    except Refused as refused:
        return _collection_page(request, player, str(refused), refused.status, form)
    messages.success(request, _("%(name)s: %(copies)s copies now.") % {"name": entry.card.name, "copies": entry.copies})
    return redirect("collection_detail", pk=pk)


@require_POST
def collection_upgrade(request: TableRequest, pk: int, entry: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=pk)
    form = UpgradeForm(request.POST)
    if not form.is_valid():
        return _collection_page(request, player, _("The form is incomplete; nothing was changed."), 400)
    try:
        upgraded = collection.card_upgrade(entry_id=entry, player=player, expected_level=form.cleaned_data["level"],
                                           expected_copies=form.cleaned_data["copies"])
    except Refused as refused:
        return _collection_page(request, player, str(refused), refused.status)
    messages.success(request, _("%(name)s is now level %(level)s.") % {"name": upgraded.card.name,
                                                                         "level": upgraded.level})
    return redirect("collection_detail", pk=pk)
