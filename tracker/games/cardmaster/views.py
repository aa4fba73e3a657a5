"""Cardmaster's own pages beside the board: the AI's move in a Showdown, the hint, and the analysis
of a finished match. The match page and its refusals are the tracker's (tracker/matches/views.py)."""

import time

from django.contrib import messages
from django.core.cache import cache
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import pgettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from rules import RuleError
from rules.cardmaster.ai import Mistake, ai_seat, analyse_part, finish, hints_allowed
from rules.cardmaster.ai.analysis import rounds
from rules.cardmaster.match import phase
from tracker.matches import services, views
from tracker.matches.forms import SeqForm
from tracker.people import access, locks
from tracker.people.devices import TableRequest
from tracker.review import charts
from tracker.web import limits

from ...models import Match
from .narration import move_title, percent, reason_text
from .showdown import ai_to_move, hint_for, play_ai, recent_steps

ANALYSIS_LEVEL = "normal"
ANALYSIS_PART_STEPS = 10
ANALYSIS_PART_SECONDS = 1.0
"""One request analyses at most this many steps, and begins no further step after this long: the
page shows its progress between parts (htmx asks for the next part at once; without JavaScript a
button does)."""


def _cardmaster(request: TableRequest, pk: int, act: bool = False):
    match, seen_by = access.match_for(request, pk, act=act)
    if match.slug != "cardmaster":
        raise Http404(pgettext("cardmaster", "No such Cardmaster match."))
    return match, seen_by


@require_POST
@limits.costly("ai-turn")
def match_ai_turn(request: TableRequest, pk: int) -> HttpResponse:
    """Let the AI play the possession it holds (after an undo, or a match left mid-turn)."""
    match, seen_by = _cardmaster(request, pk, act=True)
    seq_form = SeqForm(request.POST)
    if not seq_form.is_valid():
        return views._refused(
            request,
            pk,
            pgettext("cardmaster", "The form is missing its step number; nothing was applied."),
            400,
        )
    locked = locks.why_locked(match)
    if locked:
        return views._refused(request, pk, locked, status=409)
    if not services.stands_at(match, seq_form.cleaned_data["seq"]):  # worded as every stale tap is: which way it went
        stale = services.StaleSubmission(match, seq_form.cleaned_data["seq"], doubled=False)
        return views._refused(request, pk, str(stale), status=409)
    if not ai_to_move(match):
        return views._refused(request, pk, pgettext("cardmaster", "The AI has no move to make now."), status=409)
    return views._after_change(request, play_ai(match), seen_by)


@require_GET
def match_steps(request: TableRequest, pk: int) -> HttpResponse:
    """What happened since the player last acted in a Showdown (their move, then the AI's), one step
    at a time (?step=N, 1 the oldest, with Previous and Next) or all at once (no step). htmx gets
    the steps region of the board back; without JavaScript it is a page of its own."""
    match, _seen_by = _cardmaster(request, pk)
    ai = ai_seat(match.state["config"])
    if ai is None:
        raise Http404(pgettext("cardmaster", "Only a Showdown has AI steps to go through."))
    steps = recent_steps(match, [player.name for player in match.players()])
    try:
        number = min(max(1, int(request.GET["step"])), len(steps)) if steps else None
    except (KeyError, ValueError):
        number = None
    # The last step leads back to the player's own team, where their next move is (a screen or more below).
    own_team = f"#team-{1 - ai}"
    context = {"match": match, "steps": steps, "number": number, "focus": True,
               "shown": steps[number - 1] if number else None,
               "your_move": own_team if request.htmx else match.get_absolute_url() + own_team}
    template = "games/cardmaster/showdown_steps.html" if request.htmx else "games/cardmaster/steps.html"
    return render(request, template, context)


def _hint_fields(action: dict) -> list[tuple[str, str]]:
    """The board form's fields that make the hinted move (REVIVE names its ally in the form)."""
    names = {"type": "action", "target": "ally" if action["type"] == "revive" else "target"}
    return [(names.get(key, key), str(value)) for key, value in action.items()]


@require_GET
@limits.costly("hint")
def match_hint(request: TableRequest, pk: int) -> HttpResponse:
    """The move the AI suggests for the side in possession, why, and its win chance, on the board."""
    match, seen_by = _cardmaster(request, pk, act=True)
    config = match.state["config"]
    if not hints_allowed(config):
        return views._refused(
            request,
            pk,
            pgettext(
                "cardmaster",
                "Hints are off in this match; the table can switch them on in a new match's options.",
            ),
            status=403,
        )
    if phase(match.state) == "finished":
        return views._refused(
            request,
            pk,
            pgettext(
                "cardmaster",
                "The match is over; there is no move to suggest. Its analysis shows "
                "where it was won and lost.",
            ),
            status=409,
        )
    if ai_to_move(match):
        return views._refused(
            request,
            pk,
            pgettext("cardmaster", "It is the AI's possession; a hint is for your own moves."),
            status=409,
        )
    try:
        decision = hint_for(match)
    except RuleError as error:
        limits.spent(request)  # the AI searched before it failed
        return views._refused(request, pk, services.explain(error, match.players(), match.slug), status=409)
    cards = match.state["cards"]
    action = decision.action
    hint = {"title": move_title(action, _named(cards, action), [player.name for player in match.players()]),
            "reason": reason_text(decision.reason.as_json()), "win_chance": percent(decision.win_chance),
            "simulations": decision.simulations,
            "fields": _hint_fields(action), "step": match.head}
    # The hint is the answer to this tap: the box of the step before goes, or it sat between the hint and its
    # "Play the suggested move", pushing the button off the screen (play-test).
    return views._render_match(request, match, seen_by, hint=hint, outcome={"shown": False, "cleared": True})


def _keys(match: Match) -> tuple[str, str]:
    """The cache keys of the analysis and of its progress, under the match's version (so a reopened
    and replayed match is analysed afresh)."""
    return f"cardmaster-analysis:{match.pk}:{match.version}", f"cardmaster-analysis-part:{match.pk}:{match.version}"


def _analyse_next_part(match: Match) -> None:
    """Analyse the next few steps of a finished match and keep what is found; once every step is
    analysed, keep the analysis (for good) in place of the progress."""
    key, part_key = _keys(match)
    if cache.get(key) is not None:
        return
    played = _played(match)
    so_far = cache.get(part_key) or {"win_chances": [], "mistakes": []}
    start = len(so_far["win_chances"])
    part = analyse_part(match.state["config"], match.seed, played, start, ANALYSIS_LEVEL,
                        stop=start + ANALYSIS_PART_STEPS, deadline=time.monotonic() + ANALYSIS_PART_SECONDS)
    chances = so_far["win_chances"] + part.win_chances
    mistakes = so_far["mistakes"] + [mistake.as_json() for mistake in part.mistakes]
    if len(chances) < len(played):
        cache.set(part_key, {"win_chances": chances, "mistakes": mistakes, "total": len(played)}, 24 * 3600)
        return
    result = finish(chances, [Mistake.from_json(mistake) for mistake in mistakes], len(played))
    cache.set(key, {"win_chances": result.win_chances, "mistakes": [mistake.as_json() for mistake in result.mistakes],
                    "rounds": rounds(match.state["config"], match.seed, played)}, None)
    cache.delete(part_key)


def _played(match: Match) -> list[tuple[dict, list[int]]]:
    return [(action.payload, services.entered_rolls(action))
            for action in match.actions.filter(abandoned=False, seq__lte=match.head).order_by("seq")]


def _named(cards: dict, action: dict) -> list[dict]:
    """The card names a move's title reads from its events, for a move not applied (a hint, a better move)."""
    return [{f"{role}_name": cards[action[key]]["name"] if action.get(key) in cards else ""
             for role, key in (("card", "card"), ("target", "target"), ("reserve", "reserve"))}]


def _mistake_view(match: Match, mistake: dict, names: list[str]) -> dict:
    cards = match.state["cards"]

    def title(action: dict) -> str:
        return move_title(action, _named(cards, action), names)

    return {"step": mistake["step"], "player": names[mistake["seat"]], "played": title(mistake["played"]),
            "better": title(mistake["better"]), "reason": reason_text(mistake["reason"]),
            "cost": percent(mistake["cost"]), "win_chance": percent(mistake["win_chance"]), "also": []}


def _grouped(match: Match, mistakes: list[dict], names: list[str]) -> list[dict]:
    """The costliest choices, each piece of advice once: the costliest step that drew it, with the
    other steps it was given at listed beside it. Advice is what the player reads (who, and the move
    preferred, a Shift with the card it brings in)."""
    groups: dict[tuple, dict] = {}
    for mistake in mistakes:  # costliest first
        view = _mistake_view(match, mistake, names)
        advice = (view["player"], view["better"])
        if advice in groups:
            groups[advice]["also"].append(mistake["step"])
        else:
            groups[advice] = view
    return list(groups.values())


def _viewpoint(match: Match) -> int:
    """Whose win chance the chart shows: the player's in a Showdown, else the first seat's."""
    seat = ai_seat(match.state["config"])
    return 0 if seat is None else 1 - seat


def _chart(match: Match, chances: list[float], marks: list[int], names: list[str]) -> dict:
    """One side's win chance: charted at the start of every round (and at the end), so each point has
    the same side to move as the one before it (within a round the side in possession is rated
    higher, and a point after every step zigzags with possession); tabled after every step, with
    the round it left the match in."""
    seat = _viewpoint(match)
    shown = [round((chance if seat == 0 else 1 - chance) * 100) for chance in chances]
    starts = [
        index
        for index in range(len(shown) - 1)
        if marks[index] and (index == 0 or marks[index] != marks[index - 1])
    ]
    values = [shown[index] for index in starts] + shown[-1:]
    labels = [str(marks[index]) for index in starts] + [pgettext("cardmaster", "end")]
    title = pgettext("cardmaster", "%(name)s's win chance at the start of each round (%%)") % {"name": names[seat]}
    return {"title": title,
            "svg": charts.line_chart(title, {names[seat]: values}, 0, 100, pgettext("cardmaster", "round"), labels),
            "caption": pgettext("cardmaster", "Win chance after each step (%%) for %(name)s") % {"name": names[seat]},
            "columns": [pgettext("cardmaster", "Step"), names[seat], pgettext("cardmaster", "Round")],
            "rows": [(step, f"{value}%", marks[step - 1] or "") for step, value in enumerate(shown, start=1)]}


def _analysis_view(match: Match, kept: dict) -> dict:
    names = [player.name for player in match.players()]
    if "rounds" not in kept:  # kept before the rounds were: the match is re-run for them once, not every visit
        kept["rounds"] = rounds(match.state["config"], match.seed, _played(match))
        cache.set(_keys(match)[0], kept, None)
    return {"chart": _chart(match, kept["win_chances"], kept["rounds"], names),
            "mistakes": _grouped(match, kept["mistakes"], names)}


@require_http_methods(["GET", "POST"])
@limits.costly("analysis")
def match_analysis(request: TableRequest, pk: int) -> HttpResponse:
    """A finished match's win chance after every step (chart and table) and its costliest choices.
    GET shows the kept analysis, or how far it has got, or offers to start it; POST analyses the
    next few steps. htmx gets the analysis region back and asks for the next part until done;
    without JavaScript POST redirects to the page, whose button continues."""
    match, seen_by = _cardmaster(request, pk)
    if phase(match.state) != "finished":
        messages.info(request, pgettext("cardmaster", "Only a finished match can be analysed."))
        return redirect(match)
    if request.method == "POST":
        _analyse_next_part(match)
        if not request.htmx:
            return redirect("cardmaster_analysis", pk=match.pk)
    key, part_key = _keys(match)
    kept = cache.get(key)
    context: dict = {"match": match, "analysis": _analysis_view(match, kept) if kept is not None else None,
                     "progress": None}
    if kept is None:
        so_far = cache.get(part_key)
        if so_far is not None:
            context["progress"] = {"done": len(so_far["win_chances"]), "total": so_far["total"]}
    template = "games/cardmaster/analysis_region.html" if request.htmx else "games/cardmaster/analysis.html"
    return render(request, template, context)
