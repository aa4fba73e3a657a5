"""Cardmaster's own pages beside the board: the AI's move in a Showdown, the hint, and the analysis
of a finished match. The match page and its refusals are the tracker's (tracker/views.py)."""

from django.contrib import messages
from django.core.cache import cache
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from rules import RuleError
from rules.cardmaster.ai import analyse, hints_allowed
from rules.cardmaster.match import phase

from ... import access, charts, locks, services, views
from ...devices import TableRequest
from ...forms import SeqForm
from ...models import Match
from .narration import move_title, percent, reason_text
from .showdown import ai_to_move, hint_for, play_ai

ANALYSIS_SECONDS = 15
"""The analysis searches every position for at most this long, then estimates the rest quickly."""
ANALYSIS_LEVEL = "normal"


def _cardmaster(request: TableRequest, pk: int, act: bool = False):
    match, seen_by = access.match_for(request, pk, act=act)
    if match.slug != "cardmaster":
        raise Http404(_("No such Cardmaster match."))
    return match, seen_by


@require_POST
def match_ai_turn(request: TableRequest, pk: int) -> HttpResponse:
    """Let the AI play the possession it holds (after an undo, or a match left mid-turn)."""
    match, seen_by = _cardmaster(request, pk, act=True)
    seq_form = SeqForm(request.POST)
    if not seq_form.is_valid():
        return views._refused(request, pk, _("The form is missing its step number; nothing was applied."), 400)
    locked = locks.why_locked(match)
    if locked:
        return views._refused(request, pk, locked, status=409)
    if seq_form.cleaned_data["seq"] != match.head:
        return views._refused(request, pk, _("The match moved on since this page was drawn; here it is as it is "
                                             "now. Nothing was applied."), status=409)
    if not ai_to_move(match):
        return views._refused(request, pk, _("The AI has no move to make now."), status=409)
    return views._after_change(request, play_ai(match), seen_by)


def _hint_fields(action: dict) -> list[tuple[str, str]]:
    """The board form's fields that make the hinted move (REVIVE names its ally in the form)."""
    names = {"type": "action", "target": "ally" if action["type"] == "revive" else "target"}
    return [(names.get(key, key), str(value)) for key, value in action.items()]


@require_GET
def match_hint(request: TableRequest, pk: int) -> HttpResponse:
    """The move the AI suggests for the side in possession, why, and its win chance, on the board."""
    match, seen_by = _cardmaster(request, pk, act=True)
    config = match.state["config"]
    if not hints_allowed(config):
        return views._refused(request, pk, _("Hints are off in this match; the table can switch them on in a new "
                                             "match's options."), status=403)
    if phase(match.state) == "finished":
        return views._refused(request, pk, _("The match is over; there is no move to suggest. Its analysis shows "
                                             "where it was won and lost."), status=409)
    if ai_to_move(match):
        return views._refused(request, pk, _("It is the AI's possession; a hint is for your own moves."), status=409)
    try:
        decision = hint_for(match)
    except RuleError as error:
        return views._refused(request, pk, services.explain(error, match.players()), status=409)
    cards = match.state["cards"]
    action = decision.action
    named = [{"card_name": cards[action["card"]]["name"],
              "target_name": cards[action["target"]]["name"] if "target" in action else ""}]
    hint = {"title": move_title(action, named, [player.name for player in match.players()]),
            "reason": reason_text(decision.reason.as_json()), "win_chance": percent(decision.win_chance),
            "fields": _hint_fields(action), "step": match.head}
    return views._render_match(request, match, seen_by, hint=hint)


def _analysis(match: Match) -> dict:
    """The analysis of a finished match, kept in the cache under its version (so a reopened and
    replayed match is analysed afresh)."""
    key = f"cardmaster-analysis:{match.pk}:{match.version}"
    kept = cache.get(key)
    if kept is not None:
        return kept
    played = [(action.payload, services.entered_rolls(action))
              for action in match.actions.filter(abandoned=False, seq__lte=match.head).order_by("seq")]
    result = analyse(match.state["config"], match.seed, played, level=ANALYSIS_LEVEL, seconds=ANALYSIS_SECONDS)
    kept = {"win_chances": result.win_chances, "complete": result.complete,
            "mistakes": [{"step": m.step, "seat": m.seat, "played": m.played, "better": m.better, "cost": m.cost,
                          "reason": m.reason.as_json(), "win_chance": m.win_chance} for m in result.mistakes]}
    cache.set(key, kept, None)
    return kept


def _mistake_view(match: Match, mistake: dict, names: list[str]) -> dict:
    cards = match.state["cards"]

    def title(action: dict) -> str:
        named = [{"card_name": cards[action["card"]]["name"] if action.get("card") in cards else "",
                  "target_name": cards[action["target"]]["name"] if action.get("target") in cards else ""}]
        return move_title(action, named, names)

    return {"step": mistake["step"], "player": names[mistake["seat"]], "played": title(mistake["played"]),
            "better": title(mistake["better"]), "reason": reason_text(mistake["reason"]),
            "cost": percent(mistake["cost"]), "win_chance": percent(mistake["win_chance"])}


@require_http_methods(["GET", "POST"])
def match_analysis(request: TableRequest, pk: int) -> HttpResponse:
    """A finished match's win chance after every step (chart and table) and its costliest choices.
    GET shows a kept analysis or offers to run one; POST runs it (bounded in time) and keeps it."""
    match, seen_by = _cardmaster(request, pk)
    if phase(match.state) != "finished":
        messages.info(request, _("Only a finished match can be analysed."))
        return redirect(match)
    key = f"cardmaster-analysis:{match.pk}:{match.version}"
    if request.method == "POST":
        _analysis(match)
        return redirect("cardmaster_analysis", pk=match.pk)
    kept = cache.get(key)
    context: dict = {"match": match, "seconds": ANALYSIS_SECONDS, "analysis": None}
    if kept is not None:
        names = [player.name for player in match.players()]
        chances = [round(chance * 100) for chance in kept["win_chances"]]
        title = _("Win chance after each step (%)")
        context["analysis"] = {
            "complete": kept["complete"],
            "chart": {"title": title,
                      "svg": charts.line_chart(title, {names[0]: chances, names[1]: [100 - c for c in chances]}, 0, 100,
                                               _("step")),
                      "columns": [_("Step"), *names],
                      "rows": [(step, f"{chance}%", f"{100 - chance}%") for step, chance in enumerate(chances, start=1)]},
            "mistakes": [_mistake_view(match, mistake, names) for mistake in kept["mistakes"]],
        }
    return render(request, "games/cardmaster/analysis.html", context)
