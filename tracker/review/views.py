"""Reviewing matches: the log as a story, replay step by step, export and import."""

import copy

from django import forms
from django.contrib import messages
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from tracker.games import pages_for
from tracker.matches import listing, services
from tracker.matches.forms import CheckboxInput, ListSelect, NumberInput
from tracker.matches.once import made_once
from tracker.matches.views import entry_seats
from tracker.models import Action, Match
from tracker.people import access, consent
from tracker.people.devices import TableRequest
from tracker.review import charts, exchange, stats
from tracker.web import limits


def roll_text(roll: dict) -> str:
    """One die as the log shows it: its value, its size, and who rolled it."""
    if roll["by"] == "player":
        return _("Die rolled at the table: %(v)s on a d%(s)s (%(why)s)") % {"v": roll["value"], "s": roll["sides"], "why": roll["why"]}
    if roll["sides"] == 2:
        return _("Coin flip from the seed: %(v)s (%(why)s)") % {"v": roll["value"], "why": roll["why"]}
    return _("Rolled by the app from the seed: %(v)s on a d%(s)s (%(why)s)") % {"v": roll["value"], "s": roll["sides"], "why": roll["why"]}


def log_entries(match: Match, actions=None) -> list[dict]:
    """Every action ever taken in the match (or just `actions`), oldest first, as a player reads it."""
    game, pages = match.game, pages_for(match.slug)
    names = [player.name for player in match.players()]
    entries = []
    for action in match.actions.select_related("proposal") if actions is None else actions:
        entries.append({
            "action": action,
            "status": "abandoned" if action.abandoned else ("undone" if action.seq > match.head else "applied"),
            "what": pages.describe_action(game.public_action(match.state, action.payload), action.events, names),
            "lines": [line for line in (pages.describe(event, names) for event in action.events) if line],
            "rolls": [roll_text(roll) for roll in action.rolls],
            "override": bool(action.payload.get("override")),
            "agreement": consent.agreement_of(action, names),
            "after_seed_shown": match.after_seed_shown(action),
        })
    return entries


def _round_of(action) -> set[int]:
    return {event.get(key) for event in action.events for key in ("round", "turn") if key in event}


class LogFilterForm(forms.Form):
    player = forms.TypedChoiceField(label=gettext_lazy("Player"), required=False, coerce=int, empty_value=None,
                                    widget=ListSelect)
    round = forms.IntegerField(label=gettext_lazy("Round or turn"), required=False, min_value=1, max_value=10_000,
                               widget=NumberInput)
    rolls = forms.BooleanField(label=gettext_lazy("Only steps with dice"), required=False, widget=CheckboxInput)

    def __init__(self, *args, players, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [("", gettext_lazy("Everyone"))] + [(i, p.name) for i, p in enumerate(players)]

    def keep(self, action) -> bool:
        wanted = self.cleaned_data
        if wanted.get("player") is not None and action.seat != wanted["player"]:
            return False
        if wanted.get("round") and wanted["round"] not in _round_of(action):
            return False
        return not (wanted.get("rolls") and not action.rolls)


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
    actions: QuerySet[Action] | list[Action] = match.actions.all()
    if filtered:
        # A filter reads what was played (seat, dice, rounds in the events), never the words.
        actions = [action for action in actions if form.keep(action)]
    page = Paginator(actions, LOG_STEPS).get_page(request.GET.get("page"))
    shown = list(page.object_list)
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
    agreements = [{"proposal": proposal, "what": consent.describe(proposal, names), "asker": names[proposal.asked_by],
                   "answerer": names[proposal.needs]} for proposal in proposals]
    kept = request.GET.copy()
    kept.pop("page", None)
    context = {"match": match, "players": players, "entries": entries, "form": form, "filtered": filtered,
               "page": page, "filters": kept.urlencode() + "&" if kept else "",
               "exportable": _secrets_revealed(match), "chart": _progress_chart(match), "agreements": agreements,
               "result": listing.match_result(match)}
    return render(request, "tracker/match_log.html", context)


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
        "replaying": True,
        "read_only": True,
        "entry_seats": entry_seats(snapshot, access.Viewer(access.SPECTATOR)),
        "step": step,
        "last": match.head,
        "entry": entry,
        "steps": range(match.head + 1),
    }
    template = "tracker/match_replay.html#replay" if request.htmx else "tracker/match_replay.html"
    return render(request, template, context)


def _secrets_revealed(match: Match) -> bool:
    """Exporting while an entry is still hidden would hand the secret to whoever reads the file."""
    game = match.game
    return all(game.public_action(match.state, payload) == payload
               for payload in match.actions.values_list("payload", flat=True))


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


_CHARTS: dict[tuple, dict | None] = {}
"""Charts drawn lately in this process, by match, change and language (see _progress_chart)."""
CHARTS_KEPT = 256
_NOT_DRAWN: dict = {}


def _progress_chart(match: Match) -> dict | None:
    """The match's chart, drawn again only when the match has changed since this process drew it.

    A game may re-run the whole log for it (Lonely Star reads each turn's board that way: a third
    of a 200-step log page), and a finished match's log is read again and again. The key holds
    what the chart is drawn from: the match (with its seed, as ids come back after a rollback),
    its version (every change raises it), the players' names and the language."""
    key = (match.pk, match.seed, match.version, match.head, tuple(p.name for p in match.players()), get_language())
    chart = _CHARTS.get(key, _NOT_DRAWN)
    if chart is not _NOT_DRAWN:
        return chart
    chart = _draw_chart(match)
    for oldest in list(_CHARTS)[:len(_CHARTS) - CHARTS_KEPT + 1]:
        _CHARTS.pop(oldest, None)
    _CHARTS[key] = chart
    return chart


def _draw_chart(match: Match) -> dict | None:
    progress = stats.match_progress(match)
    if progress is None:
        return None
    title, series = progress
    top = max((max(values) for values in series.values() if values), default=1)
    return {"title": title, "columns": [_("After round or turn"), *series],
            "svg": charts.line_chart(title, series, 0, top, _("round or turn")),
            "rows": [(turn, *values) for turn, values in enumerate(zip(*series.values()))]}
