"""Reviewing matches: the log as a story, replay step by step, export and import; the statistics
pages (every player's record per game, a game's own figures, one player's history)."""

import copy
import time
from dataclasses import dataclass

from django import forms
from django.contrib import messages
from django.core.cache import cache
from django.core.paginator import Paginator
from django.db.models import Q, QuerySet
from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

import rules
from rules import Dice, RuleError
from rules.fields import typed_number
from tracker.games import pages_for
from tracker.matches import listing, live, services
from tracker.matches.once import made_once
from tracker.matches.views import entry_seats
from tracker.models import Action, Match, Player
from tracker.people import access, consent
from tracker.people.devices import TableRequest
from tracker.review import charts, exchange, stats
from tracker.review.log import log_entries
from tracker.web import limits


def _steps_by_round(match: Match) -> dict[int, list[int]]:
    """The ids of the steps played in each round or turn: the engine's `round_of` of the state before each, the log
    re-run from the seed in the order its steps were made, each on the line it was made on (a step made at `seq`
    follows the line's steps before it as they stood then; an abandoned one keeps its round too). A step's events
    say when a round began or ended, not when the step was played: read from them, the filter found no Lonely Star
    step at all (its steps name no turn), and in Evons, LOGOS and Cardmaster took a round's last step into the next
    and left its first out (a play-test).

    Kept in the cache for the match's version (every change moves it on): the re-run costs some 0.1 ms a step, a
    second for the longest log, which no repeated request makes a server pay twice."""
    key = f"log-rounds:{match.pk}:{match.version}"
    if (kept := cache.get(key)) is not None:
        return kept
    game = match.game
    rounds: dict[int, list[int]] = {}
    after = [game.new_match(match.config, match.seed)]  # the state after each step of the line, by seq
    for action in match.actions.order_by("number").only("pk", "seq", "payload", "rolls"):
        seq = action.seq
        del after[seq:]  # a step made at `seq` replaces the line from there on
        if len(after) != seq:
            continue  # no line before it (a log stored otherwise): in no round
        if (number := game.round_of(after[-1])) is not None:
            rounds.setdefault(number, []).append(action.pk)
        try:
            after.append(game.apply(after[-1], action.payload, Dice(match.seed, seq, services.entered_rolls(action)))[0])
        except RuleError:  # a step this version's rules refuse: the line after it is in no round
            continue
    cache.set(key, rounds, 24 * 3600)
    return rounds


class LogFilterForm(forms.Form):
    player = forms.TypedChoiceField(label=gettext_lazy("Player"), required=False, coerce=int, empty_value=None)
    round = forms.IntegerField(label=gettext_lazy("Round or turn"), required=False, min_value=1, max_value=10_000)
    rolls = forms.BooleanField(label=gettext_lazy("Only steps with dice"), required=False)

    def __init__(self, *args, players, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [("", gettext_lazy("Everyone"))] + [(i, p.name) for i, p in enumerate(players)]

    def kept(self, match: Match, actions: QuerySet[Action]) -> QuerySet[Action]:
        """The steps the filters keep: the seat and the dice asked of the database, the round of the line re-run."""
        wanted = self.cleaned_data
        if wanted.get("player") is not None:
            actions = actions.filter(services.seats_steps(wanted["player"]))
        if wanted.get("rolls"):
            actions = actions.exclude(rolls=[])
        if wanted.get("round"):
            actions = actions.filter(pk__in=_steps_by_round(match).get(wanted["round"], []))
        return actions


LOG_STEPS = 100
"""Steps a log page shows: a 7,000-step match's page stays small (about 100 KB, not 3 MB)."""


@require_GET
def match_log(request: TableRequest, pk: int) -> HttpResponse:
    """The match's log, oldest step first, LOG_STEPS a page (?page=N), filtered by player, round or dice."""
    match, _seen_by = access.match_for(request, pk)
    players = match.players()
    # The requests between the players are listed below the log anyway: read once, and handed to the
    # steps they let through instead of joined into the read of every step.
    proposals = list(match.proposals.all())
    by_id = {proposal.pk: proposal for proposal in proposals}
    form = LogFilterForm(request.GET or None, players=players)
    filtered = form.is_bound and form.is_valid() and any(
        value is not None and value is not False for value in form.cleaned_data.values()  # seat 0 filters too
    )
    # A filter reads what was played (seat, dice, rounds in the events), never the words.
    actions = form.kept(match, match.actions.all()) if filtered else match.actions.all()
    page = Paginator(actions, LOG_STEPS).get_page(request.GET.get("page"))
    shown: list[Action] = list(page.object_list)
    for action in shown:
        if action.proposal_id in by_id:
            action.proposal = by_id[action.proposal_id]
    entries = log_entries(match, shown)
    # Worked out here once, not by template tags in every entry (the date filter twice an entry cost
    # more than the rest of the entry): its time, and the button to move back or forward to it.
    for entry in entries:
        created, seq = timezone.localtime(entry["action"].created), entry["action"].seq
        entry["iso"], entry["clock"] = created.isoformat(), created.strftime("%H:%M:%S")
        entry["current"] = entry["status"] == "applied" and seq == match.head
        if entry["status"] != "abandoned" and seq != match.head:
            entry["arrow"], entry["go"] = ("↶", _("Back to step %(n)s")) if seq < match.head else ("↷", _("Forward to step %(n)s"))
            entry["go"] %= {"n": seq}
    names = [player.name for player in players]
    agreements = [{"proposal": proposal, "what": consent.describe(proposal, names), "asker": consent.asker(proposal, names),
                   "answerer": names[proposal.needs]} for proposal in proposals]
    kept = request.GET.copy()
    kept.pop("page", None)
    context = {"match": match, "players": players, "entries": entries, "form": form, "filtered": filtered,
               "page": page, "filters": kept.urlencode() + "&" if kept else "",
               "exportable": _secrets_revealed(match), "chart": _progress_chart(match), "agreements": agreements,
               "result": listing.match_result(match), "streams": live.streams(request), "stall_ms": live.stall_ms()}
    # Another phone's change, while the log is open, redraws the log part alone (table.js): the filters stay.
    return render(request, "tracker/match_log.html#log" if request.htmx else "tracker/match_log.html", context)


def _at_step(match: Match, step: int) -> Match:
    """A copy of the match as it stood after `step` applied actions, for showing only."""
    snapshot = copy.copy(match)
    snapshot.state, snapshot.head = services.match_replay(match, step), step
    outcome = match.game.outcome(snapshot.state)
    snapshot.finished = match.finished if outcome else None
    snapshot.winner = match.players()[outcome.winner] if outcome and outcome.winner is not None else None
    snapshot.score = outcome.score if outcome else ""
    return snapshot


@require_GET
def match_replay(request: TableRequest, pk: int) -> HttpResponse:
    """Step through the match from its start; the board shows each step as it stood then."""
    match, _seen_by = access.match_for(request, pk)
    try:
        step = min(max(int(request.GET.get("step", 0)), 0), match.head)
    except ValueError:
        step = 0
    snapshot = _at_step(match, step)
    # Only the step shown is told in words; describing the whole log here would grow with it.
    shown = match.actions.filter(abandoned=False, seq=step) if step else []
    entry = next(iter(log_entries(match, shown)), None)
    pages = pages_for(match.slug)
    context = {
        "match": snapshot,
        "game": match.game,
        "players": match.players(),
        "board": pages.board(snapshot),
        "board_template": pages.board_template,
        "board_stylesheet": pages.stylesheet,
        "replaying": True,
        "read_only": True,
        "entry_seats": entry_seats(snapshot, access.Viewer(access.SPECTATOR)),
        "step": step,
        "last": match.head,
        "entry": entry,
    }
    # A step Back goes to (htmx's history restore, since no copy is kept) is the whole page again.
    part = request.htmx and not request.htmx.history_restore_request
    template = "tracker/match_replay.html#replay" if part else "tracker/match_replay.html"
    return render(request, template, context)


def _secrets_revealed(match: Match) -> bool:
    """Exporting while an entry is still hidden would hand the secret to whoever reads the file. Only an
    entry hidden when it was made (`secret`) can be hidden still: the rest of a long log is not read."""
    game = match.game
    return all(game.public_action(match.state, payload) == payload
               for payload in match.actions.filter(secret=True).values_list("payload", flat=True))


@require_GET
@limits.costly("export")
def match_export(request: TableRequest, pk: int, kind: str) -> HttpResponse:
    match, _seen_by = access.match_for(request, pk)
    if kind == "json":
        if not _secrets_revealed(match):
            messages.warning(request, _("This match can be exported once every hidden entry is revealed."))
            return redirect("match_log", pk=pk)
        response: HttpResponse = JsonResponse(exchange.export_match(match),
                                              json_dumps_params={"indent": 1, "ensure_ascii": False})
        filename = f"tablekeeper-{match.slug}-{match.pk}.json"
    else:
        # The text log hides secrets the same way the log page does, so it is always available.
        response = HttpResponse(exchange.export_text(match, log_entries(match)), content_type="text/plain; charset=utf-8")
        filename = f"tablekeeper-{match.slug}-{match.pk}.txt"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


class ImportForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("Match file (.json)"))


@require_http_methods(["GET", "POST"])
@made_once
@limits.costly("match-import")
def match_import(request: TableRequest) -> HttpResponse:
    """Store a match file, only if it re-runs cleanly through the engine."""
    form = ImportForm(request.POST, request.FILES) if request.method == "POST" else ImportForm()
    status = 200
    if request.method == "POST":
        status = 422
        if form.is_valid():
            upload = form.cleaned_data["file"]
            try:
                if upload.size > exchange.MAX_BYTES:
                    raise exchange.MatchFileError(_("The file is larger than %(mb)s MB; a match file is much smaller.")
                                                  % {"mb": exchange.MAX_BYTES // 2**20})
                if no_room := limits.import_refusal(request, upload.size):
                    raise exchange.MatchFileError(no_room)
                limits.spent(request)  # read and re-run: counted even if the file then fails a check
                match = exchange.import_match(
                    exchange.parse(upload.read()),
                    owner=request.user if request.user.is_authenticated else None, owner_device=request.device,
                )
            except exchange.MatchFileError as error:
                form.add_error("file", str(error))
            else:
                messages.success(request, _("Imported: every step re-ran and agreed with the file."))
                return redirect(match)
    return render(request, "tracker/match_import.html", {"form": form, "max_mb": exchange.MAX_BYTES // 2**20},
                  status=status)


@dataclass
class _Drawn:
    chart: dict | None
    version: int
    head: int
    at: float
    took: float


_CHARTS: dict[tuple, _Drawn] = {}
"""Charts drawn lately in this process, by match, players' names and language (see _progress_chart)."""
CHARTS_KEPT = 256
CHART_SLOW = 0.05
"""CPU seconds past which a chart counts as costly to draw (a Lonely Star log of some 800 steps)..."""
CHART_FRESH = 10.0
"""...and is then drawn again at most this often (seconds), however often the match changes."""


def _progress_chart(match: Match) -> dict | None:
    """The match's chart, drawn again only when the match has changed since this process drew it.

    A game may re-run the whole log for it (Lonely Star reads each turn's board that way: a third
    of a 200-step log page), and a finished match's log is read again and again. A match may grow to
    10,000 steps, where that took 0.6 s: one phone tapping and reading its log in turn would have had
    the server re-run it for every tap. So a costly chart is drawn again at most every CHART_FRESH
    seconds, and said to be of the step it was drawn at meanwhile. The key holds the match (with its
    seed, as ids come back after a rollback), the players' names and the language."""
    key = (match.pk, match.seed, tuple(p.name for p in match.players()), get_language())
    drawn = _CHARTS.get(key)
    if drawn is not None and drawn.version == match.version:
        return drawn.chart
    if drawn is not None and drawn.took > CHART_SLOW and time.monotonic() - drawn.at < CHART_FRESH:
        return drawn.chart and {**drawn.chart, "as_of": drawn.head}
    started = time.process_time()
    chart = _draw_chart(match)
    _CHARTS.pop(key, None)
    for oldest in list(_CHARTS)[:len(_CHARTS) - CHARTS_KEPT + 1]:
        _CHARTS.pop(oldest, None)
    _CHARTS[key] = _Drawn(chart, match.version, match.head, time.monotonic(), time.process_time() - started)
    return chart


def _draw_chart(match: Match) -> dict | None:
    progress = stats.match_progress(match)
    if progress is None or all(len(values) < 2 for values in progress[1].values()):
        return None  # no round or turn played yet: a line needs two points (one drew the names over each other)
    if not any(value for values in progress[1].values() for value in values):
        return None  # nothing yet but zeros (no Lonely Star unit in play): an axis from 0 to 0, the names on top
    title, series = progress
    top = max((max(values) for values in series.values() if values), default=1)
    return {"title": title, "columns": [_("After round or turn"), *series],
            "svg": charts.line_chart(title, series, 0, top, _("round or turn")),
            "rows": [(turn, *values) for turn, values in enumerate(zip(*series.values(), strict=False))]}


@require_GET
@limits.costly("stats")
def stats_overview(request: TableRequest) -> HttpResponse:
    """Records of every player, for one game or all of them, and the game's own figures."""
    slug = request.GET.get("game", "")
    if slug not in rules.GAMES:
        slug = ""
    clubs = access.my_clubs(request)
    club_pk = typed_number(request.GET.get("club", ""))
    club = clubs.filter(pk=club_pk).first() if club_pk is not None else None
    matches = list(stats.finished_matches(Match.objects.visible_to(request), slug or None, club=club and club.pk))
    def url(**params) -> str:
        return reverse("stats") + ("?" + urlencode({k: v for k, v in params.items() if v}) if any(params.values()) else "")

    club_id = club.pk if club else None
    club_links = [{"name": _("Everything I can see"), "url": url(game=slug), "current": club is None}]
    club_links += [{"name": c.name, "url": url(club=c.pk, game=slug), "current": c == club} for c in clubs]
    game_links = [{"name": _("All games"), "url": url(club=club_id), "current": not slug}]
    game_links += [{"name": g.name, "url": url(game=g.slug, club=club_id), "current": g.slug == slug}
                   for g in rules.GAMES.values()]
    context = {
        "clubs": clubs, "club": club, "club_links": club_links, "game_links": game_links,
        "games": rules.GAMES.values(),
        "game": rules.GAMES.get(slug),
        "board": stats.leaderboard(matches),
        "figures": stats.game_figures(slug, matches) if slug else [],
        "match_count": len(matches),
        "corrected": listing.rows(stats.corrected_matches(Match.objects.visible_to(request), slug or None,
                                                          club=club and club.pk)[:25]),
    }
    return render(request, "tracker/stats.html", context)


@require_GET
@limits.costly("stats")
def stats_player(request: TableRequest, pk: int) -> HttpResponse:
    """One player's history: per game records, win rate over time, favourite cards."""
    seen = Match.objects.visible_to(request)
    mine = getattr(access.signed_in(request), "player", None)
    # A player's page exists for those who may see one of their matches (or for the player's own account).
    player = get_object_or_404(Player.objects.filter(Q(seats__match__in=seen) | Q(pk=getattr(mine, "pk", None)))
                               .distinct(), pk=pk)
    per_game = []
    for slug, game in rules.GAMES.items():
        record = stats.records(stats.finished_matches(seen, slug, player)).get(player.pk)
        if record:
            per_game.append((game, record))
    overall = stats.records(stats.finished_matches(seen, None, player)).get(player.pk)
    chart = None
    if overall and overall.played > 1:
        rates = overall.win_rate_over_time()
        title = _("%(name)s's win rate after each match (%%)") % {"name": player.name}
        chart = {"title": title, "columns": [_("After match"), _("Win rate (%)")],
                 "svg": charts.line_chart(title, {player.name: rates}, 0, 100, _("match")),
                 "rows": list(enumerate(rates, start=1))}
    context = {"player": player, "per_game": per_game, "overall": overall, "chart": chart,
               "top_cards": overall.cards.most_common(8) if overall else []}
    return render(request, "tracker/stats_player.html", context)
