"""Competition pages: leaderboard and rating histories, Swiss tournaments, and collections (a
player's cards with their copies and levels, adding copies and upgrading).

Who sees and changes which collection is decided in collection.py (`may_see`,
`change_refusal`): a collection the viewer may not see does not exist for them (404); one
they may see but not change is shown without its forms.

Refused changes answer with the page, a clear message and a 4xx status (409 for a
stale or doubled form); nothing is changed.
"""

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from rules.card_crush import rating, swiss
from tracker.matches import live, news
from tracker.matches.once import made_once
from tracker.people import access, clubs, locks
from tracker.people.devices import TableRequest
from tracker.review import charts
from tracker.web import limits

from ..models import Card, Club, CollectionChange, Entrant, Match, Membership, Player, Tournament, players_of
from . import collection, config, confirmations, ratings, tournaments
from .errors import Refused
from .forms import (
    CopiesForm,
    DropForm,
    EntrantForm,
    RatedForm,
    RoundForm,
    TournamentForm,
    UpgradeForm,
    VoidForm,
)
from .game import competes, competing_slug


def _settings_context() -> dict:
    rules = config.rating_rules()
    return {"k_open": rules.k_for(False), "k_tournament": rules.k_for(True), "baseline": rating.BASELINE,
            "weight": rules.tournament_weight}


def _club_shows(request: TableRequest, club_id: int, what: str) -> Club:
    """The club, if this viewer may see its leaderboard or tournaments (`what`): members always,
    everyone else when the club shows it publicly; 404 otherwise."""
    club = get_object_or_404(Club, pk=club_id)
    if access.club_role(request, club) is None and not getattr(club, f"public_{what}"):
        raise Http404(_("No such club."))
    return club


def _clubs_showing(request: TableRequest, what: str):
    """Clubs whose leaderboard (or tournaments) this viewer may see."""
    return (access.my_clubs(request) | Club.objects.filter(**{f"public_{what}": True})).distinct()


@require_GET
def ratings_index(request: TableRequest) -> HttpResponse:
    """Ratings belong to clubs: the leaderboards this viewer may open."""
    return render(request, "competition/ratings_index.html", {"clubs": _clubs_showing(request, "leaderboard")})


@require_GET
@limits.costly("ratings")
def leaderboard(request: TableRequest, club_id: int) -> HttpResponse:
    club = _club_shows(request, club_id, "leaderboard")
    board = ratings.leaderboard(ratings.history(club))
    waiting = confirmations.waiting(club.pk)
    member = access.club_role(request, club) is not None
    context = {"club": club, "board": board, "unconfirmed": waiting.count(), **_settings_context(),
               # Members see which battles wait (and can open them); everyone else only how many.
               "unconfirmed_battles": waiting.prefetch_related("seats__player").order_by("first_finished")[:20]
               if member else []}
    return render(request, "competition/leaderboard.html", context)


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
@limits.costly("ratings")
def player_rating(request: TableRequest, club_id: int, pk: int) -> HttpResponse:
    """A player's rating in a club and every change that made it, newest first, each with its working."""
    club = _club_shows(request, club_id, "leaderboard")
    player = get_object_or_404(Player, pk=pk)
    everything = ratings.history(club)
    changes = [change for change in everything if change.player == player.pk]
    member = access.club_role(request, club) is not None
    # Only members learn which battles wait (as on the leaderboard): to anyone else a player whose battles all
    # wait is not on the board, so neither their page nor a count of their waiting battles is shown.
    waiting = confirmations.waiting(club.pk, player).count() if member else 0
    if not changes and not waiting:
        raise Http404(_("No rated battle of this player in this club."))  # never a name: anyone may guess numbers
    names = dict(Player.objects.filter(pk__in={c.opponent for c in changes if c.opponent}).values_list("pk", "name"))
    # Unrounded, so the working checks by hand: 32 × (100% − 45.4%) = 17.47, rounded +17.
    entries = [{"change": c, "opponent": names.get(c.opponent) if c.opponent else None,
                "expected_percent": 100 * c.expected if c.expected is not None else None,
                "exact": (c.k or 0) * ((1 if c.won else 0) - c.expected) if c.expected is not None else None}
               for c in reversed(changes)]
    context = {"club": club, "player": player, "rating": changes[-1].after if changes else rating.BASELINE,
               "entries": entries, "unconfirmed": waiting,
               "chart": _rating_chart(player, changes), "played": sum(c.kind == "battle" for c in changes),
               "member": member, **_settings_context()}
    return render(request, "competition/player.html", context)


def _battle(request: TableRequest, pk: int) -> Match:
    """A Card Crush battle the viewer may see: by the one visibility rule, or because it counts on a
    leaderboard its club shows to everyone (then only its rating working is shown, never its decks)."""
    match = Match.objects.visible_to(request).select_related("winner", "club").filter(pk=pk).first()
    if match is None:
        match = (Match.objects.counted().select_related("winner", "club")
                 .filter(pk=pk, club__public_leaderboard=True, rated=True).first())
    if match is None:
        raise Http404(_("No such match."))
    if not competes(match.slug):
        raise Http404(_("Only Card Crush battles are rated."))
    return match


@require_http_methods(["GET", "POST"])
@limits.costly("ratings")
def battle_rating(request: TableRequest, pk: int) -> HttpResponse:
    """How one battle moved both ratings; and, for the club's organisers, marking it rated or unrated."""
    match = _battle(request, pk)
    refusal, status = "", 200
    if request.method == "POST" and not access.referees(request, match):
        raise PermissionDenied(_("You play in this battle: another organiser of its club decides whether it is rated.")
                               if access.organises(request, match.club_id) else
                               _("Only an organiser of the battle's club can change whether it is rated."))
    if request.method == "POST":
        form = RatedForm(request.POST)
        tournament = hasattr(match, "pairing")
        if not form.is_valid():
            refusal, status = _("Choose rated or unrated; nothing was changed."), 400
        elif match.result_changed_since(request.POST.get("result")):
            refusal, status = _("The battle's result changed since this page was drawn, so nothing was changed: "
                                "read it again first."), 409
        elif match.finished is None:
            refusal, status = _("This battle is not finished; only a finished battle can be rated. Nothing was changed."), 422
        elif tournament and not form.cleaned_data["rated"]:
            refusal, status = _("A tournament battle always counts toward ratings. Nothing was changed."), 422
        else:
            # Who changed it and when stays on the battle page, as a void's does; open pages are told. One update
            # of the result as read moves the version on: two taps at once each move it (a page following the
            # match is told of both), and a result changed meanwhile changes nothing.
            rated = form.cleaned_data["rated"]
            if match.row_as_read().update(rated=rated, rated_changed=timezone.now(), rated_changed_by=access.signed_in(request),
                                      version=F("version") + 1):
                news.tell(match.pk, news.RATED, news.named(access.signed_in(request)), rated=rated)
                live.changed(match.pk)
                messages.success(request, _("This battle now counts toward ratings.") if rated
                                 else _("This battle no longer counts toward ratings."))
            else:
                messages.error(request, _("The battle's result changed since this page was drawn, so nothing was "
                                          "changed: read it again first."))
            return redirect("battle_rating", pk=pk)
    return _battle_page(request, match, refusal, status)


def _battle_page(request: TableRequest, match: Match, refusal: str = "", status: int = 200) -> HttpResponse:
    pk = match.pk
    organiser = access.referees(request, match)  # confirms for others, and marks it rated or not
    changes = [c for c in ratings.history(match.club_id) if c.battle == match.pk] if match.club_id else []
    names = dict(Player.objects.filter(pk__in={c.player for c in changes}).values_list("pk", "name"))
    rows = [{"change": c, "name": names[c.player], "expected_percent": 100 * (c.expected or 0)} for c in changes]
    # A tournament battle its pairing confirmed has no lines to show; one its players confirmed shows how.
    lines = confirmations.seat_lines(match) if match.club_id else []
    context = {"match": match, "rows": rows, "players": match.players(), "refusal": refusal, "organiser": organiser,
               "seat_lines": lines if match.unconfirmed or not hasattr(match, "pairing")
               or any(line["confirmation"] for line in lines) else [],
               "my_seat": confirmations.seat_of(match, access.signed_in(request)),
               "can_open": Match.objects.visible_to(request).filter(pk=pk).exists(),
               "tournament": getattr(match, "pairing", None), **_settings_context()}
    return render(request, "competition/battle.html", context, status=status)


@require_POST
def battle_confirm(request: TableRequest, pk: int) -> HttpResponse:
    """A player confirms they took part in a finished club battle, or an organiser does so on their behalf."""
    match = _battle(request, pk)
    if not Match.objects.visible_to(request).filter(pk=pk).exists():
        raise Http404(_("No such match."))
    try:
        seat = int(request.POST.get("seat", ""))
    except ValueError:
        seat = -1
    try:
        made = confirmations.confirm(match_id=match.pk, seat=seat, account=access.signed_in(request),
                                     referee=access.referees(request, match), drawn=request.POST.get("result"))
    except Refused as refused:
        return _battle_page(request, match, str(refused), refused.status)
    name = match.players()[seat].name
    messages.success(request, _("%(name)s's part is confirmed.") % {"name": name}
                     if made.kind != made.ORGANISER else
                     _("Confirmed on %(name)s's behalf; the battle page says so.") % {"name": name})
    return redirect("battle_rating", pk=pk)


@require_POST
def match_void(request: TableRequest, pk: int) -> HttpResponse:
    """An organiser sets a club match's result aside: it stays in the log, marked, and counts nowhere."""
    match, seen_by = access.match_for(request, pk)
    if not seen_by.referee:
        raise PermissionDenied(_("You play in this match or its tournament: another organiser of its club voids its "
                                 "result.")
                               if seen_by.organiser else _("Only an organiser of the match's club can void its result."))
    form = VoidForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Say why the result is voided; nothing was changed."))
    elif match.result_changed_since(request.POST.get("result")):
        messages.error(request, _("The result changed since this page was drawn, so nothing was voided: read it "
                                  "again, and void it if you still mean to (your reason: “%(reason)s”).")
                       % {"reason": form.cleaned_data["reason"]})
    elif match.finished is None:
        messages.error(request, _("Only a finished match's result can be voided; nothing was changed."))
    elif match.voided:
        messages.info(request, _("This result was already voided."))
    elif locked := locks.why_locked(match):  # a battle of an ended tournament: its standings are final
        messages.error(request, locked)
    else:
        _void(request, match, form.cleaned_data["reason"])
    return redirect(match)


def _void(request: TableRequest, match: Match, reason: str) -> None:
    """One update of the result as read (two voids at once make one), then, holding the match's row, its
    tournament asked again: a tournament that ended meanwhile keeps the battle as it ended it (locks.why_locked)."""
    with transaction.atomic():
        voided = match.row_as_read().filter(voided__isnull=True).update(
            voided=timezone.now(), voided_by=access.signed_in(request), void_reason=reason, version=F("version") + 1)
        locked = locks.why_locked(match, fresh=True) if voided else ""
        if locked:
            transaction.set_rollback(True)
        elif voided:
            live.changed(match.pk)  # inside the transaction, with its news: told once it commits
            news.tell(match.pk, news.VOIDED, news.named(access.signed_in(request)))
    if locked:
        messages.error(request, locked)
    elif voided:
        messages.success(request, _("Result voided: it stays in the log and counts nowhere."))
    else:
        messages.info(request, _("This result was already voided, or changed since this page was drawn; nothing "
                                 "was changed."))


# ---------------------------------------------------------------- tournaments


@require_GET
def tournaments_index(request: TableRequest) -> HttpResponse:
    """Tournaments belong to clubs: the ones this viewer may follow."""
    shown = Tournament.objects.filter(club__in=_clubs_showing(request, "tournaments")).select_related("club")
    return render(request, "competition/tournaments_index.html", {"tournaments": shown.prefetch_related("entrants")})


def _entrant_names(club: Club) -> list[str]:
    """Names to suggest for entrants: the players of the club's members and of its matches."""
    return sorted({p.name for p in Player.objects.filter(
        Q(user__memberships__club=club) | Q(seats__match__club=club)).distinct()}, key=str.casefold)


@require_http_methods(["GET", "POST"])
@made_once
# Each makes up to ENTRANTS_MOST players: their number is bounded too.
@limits.costly("tournament-new", labels=lambda request, club_id: [TournamentForm()])
def tournament_list(request: TableRequest, club_id: int) -> HttpResponse:
    club = _club_shows(request, club_id, "tournaments")
    organiser = access.organises(request, club)
    form = TournamentForm(request.POST or None)
    if request.method == "POST":
        if not organiser:
            raise PermissionDenied(_("Only the club's organisers can start a tournament."))
        if form.is_valid() and (refusal := _enters_a_referee(request, club, form.cleaned_data["entrants"])):
            form.add_error("entrants", refusal)
        if form.is_valid():
            tournament = tournaments.tournament_create(
                name=form.cleaned_data["name"], player_names=form.cleaned_data["entrants"], club=club)
            messages.success(request, _("Tournament created."))
            return redirect(tournament)
    context = {"club": club, "form": form, "organiser": organiser,
               # Before it begins is when a referee can still be named: one made after referees none of it.
               "only_referee": organiser and not _has_a_referee(club, besides=access.signed_in(request)),
               "tournaments": club.tournaments.prefetch_related("entrants")[:50],
               "known_players": _entrant_names(club) if organiser else []}
    return render(request, "competition/tournament_list.html", context, status=422 if request.method == "POST" else 200)


def _enters_a_referee(request: TableRequest, club, typed: list[str]) -> str:
    """Why these entrants may not be entered by this organiser, or "". An entrant of a running tournament is a side
    of every battle of the club (Match.sided_with): an organiser who is no referee meanwhile (clubs.keeps_the_referees)
    entered the one who was into a tournament she never paired, and her battles had none (round 18)."""
    organiser = access.signed_in(request)
    if not clubs.keeps_the_referees(club, organiser):
        return ""
    others = club.memberships.filter(role=Membership.ORGANISER).exclude(user=organiser).select_related("user")
    theirs = {pk for membership in others for pk in players_of(membership.user, club.pk)}
    named = [player for name in typed if (player := Player.named(name)) is not None and player.pk in theirs]
    if not named:
        return ""
    return _("%(name)s is an organiser of the club: while a tournament of the club runs, an organiser who plays in it, "
             "or was made an organiser after it began, enters no other organiser in a tournament (another organiser "
             "does). Nothing was changed.") % {"name": named[0].name}


def _tournament(request: TableRequest, pk: int) -> Tournament:
    """A tournament this viewer may follow: its club's members, or anyone when the club shows its tournaments.
    Tournaments from before clubs (no club) stay readable by everyone."""
    tournament = get_object_or_404(Tournament.objects.select_related("club"), pk=pk)
    if tournament.club is not None and not (access.club_role(request, tournament.club_id)
                                            or tournament.club.public_tournaments):
        raise Http404(_("No such tournament."))
    return tournament


def _tournament_page(request: TableRequest, tournament: Tournament, refusal: str = "", status: int = 200,
                     entrant_form: EntrantForm | None = None) -> HttpResponse:
    tournament = Tournament.objects.select_related("club").get(pk=tournament.pk)
    number = tournaments.current_round(tournament)
    pairings = list(tournament.pairings.select_related("first__player", "second__player", "match__winner"))
    rounds = [(n, [p for p in pairings if p.round == n]) for n in range(number, 0, -1)]
    entrants = tournament.entrants.count()
    organiser = access.organises(request, tournament.club_id)
    visible = set(Match.objects.visible_to(request).filter(pairing__tournament=tournament).values_list("pk", flat=True))
    recommended = swiss.recommended_rounds(entrants)
    # Every round's open battles: this round's, and one of an earlier round an organiser reopened, which holds
    # both the next pairing and the end.
    still_open = tournaments.unfinished(tournament)
    unfinished = [p for p in still_open if p.round == number]
    # An organiser who is an entrant pairs and ends it only within its recommended rounds (tournaments.py).
    plays = organiser and bool(_entrant(request, tournament.pk))
    # The waiting battles this viewer may confirm: an organiser (for players without a say), or a player of it; to
    # anyone else "confirm" led to a page with nothing for them to do.
    user = access.signed_in(request)
    standings = tournaments.standings(tournament)
    mine = players_of(user, tournament.club_id)
    confirmable = {p.pk for p in pairings if organiser or p.first.player_id in mine
                   or (p.second is not None and p.second.player_id in mine)}
    # The battles left that this viewer plays on their phone: any for an organiser, their own for a player, whose
    # battle said "Watch" as if it were someone else's.
    to_play = {p.pk for p in pairings if p.match is not None and p.match.finished is None and p.pk in confirmable}
    context = {
        "tournament": tournament, "round": number, "rounds": rounds, "standings": standings,
        # Who this organiser may drop: anyone not dropped yet, or, playing in it, only themselves.
        "droppable": [row for row in standings if not row.standing.dropped
                      and (not plays or row.entrant.player_id in mine)],
        "recommended": recommended, "entrant_count": entrants,
        "round_open": bool(unfinished), "refusal": refusal,
        "reopened": min((p.round for p in still_open if p.round < number), default=None),
        # Every battle left is played and waits for confirmations: the round is not "being played" any more.
        "round_confirming": bool(unfinished) and all(p.match and p.match.finished and p.match.unconfirmed
                                                     for p in unfinished),
        "entrant_form": entrant_form or EntrantForm(initial={"round": number}),
        "known_players": _entrant_names(tournament.club) if organiser and tournament.club else [],
        "organiser": organiser, "visible_battles": visible, "results": tournaments.results_mark(tournament, standings),
        "plays": plays, "may_pair": not plays or number < recommended, "confirmable": confirmable, "to_play": to_play,
        "may_finish": number and (not plays or number >= recommended),
        "no_referee": plays and not tournament.finished and tournament.club is not None
        and not _has_a_referee(tournament.club),
    }
    return render(request, "competition/tournament_detail.html", context, status=status)


def _has_a_referee(club: Club, besides=None) -> bool:
    """Whether an organiser of the club (but `besides`) is free to referee its battles while its tournaments run
    (round 19: with none, a player who did not lock in with his own account holds his lost battle, and its round,
    open)."""
    organisers = Membership.objects.filter(club=club, role=Membership.ORGANISER).exclude(user=besides)
    return any(not clubs.keeps_the_referees(club, membership.user) for membership in organisers.select_related("user"))


@require_GET
@limits.costly("ratings")
def tournament_detail(request: TableRequest, pk: int) -> HttpResponse:
    return _tournament_page(request, _tournament(request, pk))


TOLD_BESIDE = "told-beside"
"""The tag of a flash message the page tells beside where it lands, not at its top (tracker/messages.html)."""


def _tournament_change(request: TableRequest, pk: int, form_class, change, done: str | Callable[[Any], str],
                       lands: str = "", told_beside: bool = False) -> HttpResponse:
    """Run one tournament change from a posted form; on refusal, the page with the reason and nothing changed.
    Done, the page opens at `lands` (a fragment) when what comes next is further down than a phone's screen;
    `told_beside`: what was done is told there too (the page's template shows it), not at the page's top."""
    tournament = _tournament(request, pk)
    if not tournament.club_id or not access.organises(request, tournament.club_id):
        return _tournament_page(request, tournament, _("Only the club's organisers can change the tournament; "
                                                       "nothing was changed."), 403)
    form = form_class(request.POST)
    if not form.is_valid():
        message = _("The form is incomplete or out of date; nothing was changed.")
        if isinstance(form, EntrantForm) and "name" in form.errors:
            return _tournament_page(request, tournament, message, 422, entrant_form=form)
        return _tournament_page(request, tournament, message, 400)
    try:
        with transaction.atomic():
            # Asked again under the membership's row, which leaving takes first: an organiser leaving the club on
            # another phone meanwhile either left before (refused here) or finds the round's battles to orphan.
            if not access.member_now(access.signed_in(request), tournament.club_id, organiser=True):
                raise Refused(_("Only the club's organisers can change the tournament; nothing was changed."),
                              status=403)
            result = change(tournament.pk, form.cleaned_data)
    except Refused as refused:
        if refused.spent:
            limits.spent(request)
        if isinstance(form, EntrantForm):
            # The name typed (40 letters, maybe) kept, the reason beside it, where the page opens: the page opened at
            # its top, the form a screen below it empty ("Ben is already entered").
            form.add_error("name", str(refused))
            return _tournament_page(request, tournament, str(refused), refused.status, entrant_form=form)
        return _tournament_page(request, tournament, str(refused), refused.status)
    messages.success(request, done(result) if callable(done) else done, extra_tags=TOLD_BESIDE if told_beside else "")
    return redirect(tournament.get_absolute_url() + lands)


@require_POST
@limits.costly("round-pair")  # each opens up to ENTRANTS_MOST / 2 battles
def tournament_pair(request: TableRequest, pk: int) -> HttpResponse:
    return _tournament_change(
        request, pk, RoundForm,
        lambda t, data: tournaments.round_pair(tournament_id=t, expected_round=data["round"],
                                                   organiser=access.signed_in(request)),
        lambda made: _("Round %(round)s is paired: every battle is set up.") % {"round": made[0].round},
        lands="#round-state",  # its battles, the first to play among them
    )


@require_POST
@made_once
def tournament_entrant(request: TableRequest, pk: int) -> HttpResponse:
    return _tournament_change(
        request, pk, EntrantForm,
        lambda t, data: _entrant_added(request, t, data),
        lambda entrant: _("%(name)s is entered.") % {"name": entrant.player.name},
        # The form again, the next name to type in view, and beside it who was just entered: the page's top with
        # the message was some 1,150 px above the form.
        lands="#entrants", told_beside=True,
    )


def _entrant_added(request: TableRequest, tournament_id: int, data: dict) -> Entrant:
    club = Tournament.objects.select_related("club").get(pk=tournament_id).club
    if club is not None and (refusal := _enters_a_referee(request, club, [data["name"]])):
        raise Refused(refusal, status=403)
    return tournaments.entrant_add(tournament_id=tournament_id, name=data["name"], expected_round=data["round"])


def _entrant(request: TableRequest, tournament_id: int) -> set[int]:
    """The acting organiser's players that are entrants of the tournament (her own name, one given her in the
    club): she is a side of it when there is one."""
    club_id = Tournament.objects.filter(pk=tournament_id).values_list("club_id", flat=True).first()
    return set(Player.objects.filter(pk__in=players_of(access.signed_in(request), club_id),
                                     entries__tournament_id=tournament_id).values_list("pk", flat=True))


@require_POST
def tournament_drop(request: TableRequest, pk: int) -> HttpResponse:
    return _tournament_change(
        request, pk, DropForm,
        lambda t, data: tournaments.entrant_drop(tournament_id=t, entrant_id=data["entrant"],
                                                 expected_round=data["round"], results=request.POST.get("results"),
                                                 by_entrant=_entrant(request, t)),
        lambda entrant: _("%(name)s dropped; they will not be paired again.") % {"name": entrant.player.name},
    )


@require_POST
def tournament_finish(request: TableRequest, pk: int) -> HttpResponse:
    return _tournament_change(
        request, pk, RoundForm,
        lambda t, data: tournaments.tournament_finish(tournament_id=t, expected_round=data["round"],
                                                      results=request.POST.get("results"),
                                                      by_entrant=bool(_entrant(request, t))),
        _("The tournament is over: these are the final standings."),
    )


@require_POST
def tournament_reopen(request: TableRequest, pk: int) -> HttpResponse:
    return _tournament_change(
        request, pk, RoundForm,
        lambda t, data: tournaments.tournament_reopen(tournament_id=t, expected_round=data["round"],
                                                      by_entrant=bool(_entrant(request, t))),
        _("The tournament is running again: its battles can be reopened or voided, and it must be ended again. Its "
          "ties stay broken by the ratings of when it first ended."),
    )


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
    clubs = access.my_clubs(request).order_by("name")
    # Their own collection in a club they are not in (they left it, or played there as a guest): theirs to read.
    away = (Club.objects.filter(collections__player=mine).exclude(pk__in=clubs.values("pk")).distinct().order_by("name")
            if mine else Club.objects.none())
    context = {"mine": mine, "signed_in": user is not None, "clubs": clubs, "away": away}
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
        "member": club is not None and access.club_role(request, club) is not None,  # the club's pages are theirs
        "cannot_change": collection.change_refusal(access.signed_in(request), player, club),
        "add_url": _url("collection_add", player, club),
        "history": [(change, _who(request, change.user)) for change in
                    CollectionChange.objects.filter(entry__player=player, entry__club=club)
                    .select_related("entry__card", "user__player")[:20]],
        "catalog": Card.objects.filter(slug=competing_slug()), "max_level": rules.max_level, "gains": rules.gains,
        "game": competing_slug(),  # the context its cards' words are translated in (a rarity, an affinity)
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
