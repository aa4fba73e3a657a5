"""Pages where the table agrees before a change: reopening a finished match, taking back a
revealed entry in hot-seat, and answering or withdrawing the other phone's request."""

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from rules import RuleError

from . import access, consent, locks, news, services
from .access import Viewer
from .devices import TableRequest
from .models import Match, Proposal


def _page(request: TableRequest, match: Match, context: dict, status: int = 200) -> HttpResponse:
    """The question in place of the match board (htmx swaps it into #match), or as a page."""
    template = "tracker/agreement.html#match" if request.htmx else "tracker/agreement.html"
    return render(request, template, {"match": match, "players": match.players(), **context}, status=status)


def confirm_reopen(request: TableRequest, match: Match, seen_by: Viewer, step: int) -> HttpResponse:
    """Going back before the end of a finished match: say what it affects, and ask."""
    return _page(request, match, {"question": "reopen", "step": step, "affects": locks.reopen_affects(match)})


def hot_seat_goto(request: TableRequest, match: Match, seen_by: Viewer, step: int) -> HttpResponse:
    """One phone, both players: who asks, then the phone goes to the other player, who answers."""
    players = match.players()
    context = {"step": step, "confirm": request.POST.get("confirm", "")}
    try:
        asker = int(request.POST.get("asker", ""))
    except ValueError:
        return _page(request, match, {"question": "who_asks", **context})
    if not 0 <= asker < len(players):
        return _page(request, match, {"question": "who_asks", **context}, status=422)
    other = consent.other_seat(match, asker, seen_by)
    answer = request.POST.get("answer")
    if answer not in ("agree", "refuse"):
        return _page(request, match, {"question": "pass_to_agree", "asker": players[asker], "asker_seat": asker,
                                      "other": players[other], **context})
    try:
        proposal = consent.agree_in_hot_seat(
            match_id=match.pk, seen_by=seen_by, expected_seq=match.head, asked_by=asker, agree=answer == "agree",
            kind=Proposal.GOTO, step=step)
    except services.StaleSubmission as stale:
        messages.error(request, str(stale))
        return redirect(match)
    return _answered(request, match, proposal)


def _answered(request: TableRequest, match: Match, proposal: Proposal) -> HttpResponse:
    names = [player.name for player in match.players()]
    if proposal.status == Proposal.AGREED:
        messages.success(request, _("%(name)s agreed: %(what)s.") % {
            "name": names[proposal.needs], "what": consent.describe(proposal, names)})
    elif proposal.status == Proposal.LAPSED:
        messages.error(request, _("The match moved on since this was asked; nothing was changed."))
    else:
        messages.info(request, _("%(name)s refused; nothing was changed.") % {"name": names[proposal.needs]})
    return redirect(match)


@require_POST
def proposal_answer(request: TableRequest, pk: int, proposal_id: int) -> HttpResponse:
    """The other side agrees to a request (which is then carried out) or refuses it."""
    match, seen_by = access.match_for(request, pk, act=True)
    agree = request.POST.get("answer") == "agree"
    if request.POST.get("answer") not in ("agree", "refuse"):
        messages.error(request, _("Agree or refuse; nothing was changed."))
        return redirect(match)
    try:
        proposal = consent.answer(proposal_id=proposal_id, match_id=pk, seen_by=seen_by, agree=agree,
                                  made_by=news.by(request, match, seen_by))
    except consent.Refused as refused:
        messages.error(request, str(refused))
        return redirect(match)
    except (services.StaleSubmission, services.NoSuchStep) as stale:
        messages.error(request, str(stale))
        return redirect(match)
    except RuleError as error:
        messages.error(request, _("Not applied: %(why)s") % {"why": services.explain(error, match.players())})
        return redirect(match)
    return _answered(request, match, proposal)


@require_POST
def proposal_withdraw(request: TableRequest, pk: int, proposal_id: int) -> HttpResponse:
    match, seen_by = access.match_for(request, pk, act=True)
    try:
        consent.withdraw(proposal_id=proposal_id, match_id=pk, seen_by=seen_by, made_by=news.by(request, match, seen_by))
    except consent.Refused as refused:
        messages.error(request, str(refused))
    else:
        messages.info(request, _("Request withdrawn; nothing was changed."))
    return redirect(match)
