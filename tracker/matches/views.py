"""Function views. Every one reads or changes a match through tracker.matches.services."""

from functools import partial

from django.contrib import messages
from django.contrib.messages.storage.base import Message
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Q, Subquery
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.defaultfilters import urlencode
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.csp import csp_override
from django.views.decorators.http import require_GET, require_http_methods, require_POST

import rules
from rules import RuleError
from tracker.catalog import changes as card_changes
from tracker.catalog.changes import CardRefused, Editor
from tracker.competition import confirmations
from tracker.competition.game import competes
from tracker.games import pages_for
from tracker.games.board_forms import BoardActionForm
from tracker.matches import listing, live, news, services, steps_told
from tracker.matches.club_cards import names_now
from tracker.models import Access, Match, Player, Proposal
from tracker.people import access, consent, locks, sharing
from tracker.people import views as people_views
from tracker.people.access import Viewer
from tracker.people.devices import TableRequest
from tracker.review.log import log_entries
from tracker.templatetags.board_forms import oob_slots
from tracker.web import limits

from .forms import MatchFilterForm, PlayersForm, SeqForm, StepForm
from .last_entry import last_entry
from .once import made_once
from .outcome import in_box, rows, short_names, step_said

ENTRY_SALT = "tracker.secret-entry"


def _game_or_404(slug: str) -> rules.Game:
    if slug not in rules.GAMES:
        raise Http404(_("No such game."))
    return rules.GAMES[slug]


def entry_seats(match: Match, seen_by: Viewer) -> list[dict]:
    """Every seat in order, for the board's lock-in rows: is its secret entry awaited, and where does
    this device go to make it ("" when it may not), with this phone's own hidden entry once made.

    The owner's phone passes to the player (hot-seat); a seated phone goes straight to its
    own entry; nobody gets a link for a seat another device holds. When every other seat is on its
    own phone, the owner's last seat is the host's own: nobody to pass to, so straight to its entry; so is
    every seat of a game whose other side is the app (GamePages.passes_the_phone).
    """
    pages = pages_for(match.slug)
    waiting = pages.seats_to_enter(match)
    players = match.players()
    seats = []
    for seat, player in enumerate(players):
        host_only = seen_by.role == access.OWNER and (seen_by.controls(len(players)) == {seat}
                                                       or not pages.passes_the_phone(match))
        url, direct = "", False
        if seat in waiting and seen_by.can_enter_for(seat):
            direct = seen_by.role == access.PLAYER or host_only
            url = reverse("match_entry" if direct else "match_pass", args=[match.pk, seat])
        seats.append({"seat": seat, "player": player, "waiting": seat in waiting, "url": url,
                      "passed_to": bool(url) and not direct,
                      "own": seen_by.seat == seat, "host_only": host_only,
                      "held_elsewhere": seat in seen_by.claimed and seen_by.seat != seat,
                      "secret": _own_secret(match, seat) if seen_by.seat == seat else None})
    return seats


def _own_secret(match: Match, seat: int) -> list[str] | None:
    """A seated phone's own hidden entry (GamePages.own_secret), if it made it: if it held the seat when the entry
    was made. A phone seated since, by a join link the phone that took the entry made for that seat, was not there
    (round 29: Ana locked in on the hot-seat phone and passed it; Ben made a join link for her seat and opened it on
    his own phone, which showed him her deck). It sees the entry at the reveal, as everyone does."""
    secret = pages_for(match.slug).own_secret(match, seat)
    if secret is None:
        return None
    held_since = Access.objects.filter(match=match, role=Access.PLAYER, seat=seat, revoked__isnull=True).values("created")
    made_there = match.actions.filter(abandoned=False, seq__lte=match.head, seat=seat, face_down__isnull=False,
                                      created__gte=Subquery(held_since[:1])).exists()
    return secret if made_there else None


def _match_context(request: TableRequest, match: Match, seen_by: Viewer, refused: BoardActionForm | None = None,
                   light: bool = False, **extra) -> dict:
    """What the match page shows; `light` leaves out what only the parts no action changes need (the share panel)."""
    pages = pages_for(match.slug)
    locked = locks.why_locked(match)
    read_only = not seen_by.can_act or bool(locked)
    return {
        "match": match,
        "game": match.game,
        "players": match.players(),
        # After a refused board form, that form bound to what it sent: drawn again as the player left it.
        "board": pages.board_refused(match, refused) if refused is not None else pages.board(match),
        "refused": refused,
        "board_template": pages.board_template,
        "board_stylesheet": pages.stylesheet,
        "viewer": seen_by,
        "read_only": read_only,
        # A club's organiser referees the matches they do not play in: undo and redo (and reopening).
        "may_go_to": not read_only or (seen_by.referee and not match.voided and not locked),
        "viewer_player": match.players()[seen_by.seat] if seen_by.seat is not None else None,
        "entry_seats": entry_seats(match, seen_by),
        "can_redo": match.head < match.line_length,
        "undo_to": max(match.head - 1, 0), "redo_to": match.head + 1,  # the steps Undo and Redo go to
        "undo_why": _undo_why(match, seen_by),
        "redo_why": _no_side_to_ask(match, seen_by, match.head + 1) if match.head < match.line_length else "",
        "requests": _requests(match, seen_by),
        "locked": locked if not match.voided else "",
        "pairing": locks.tournament_table(match),
        **_confirming(request, match, seen_by),
        **({} if light else sharing.share_context(request, match, seen_by)),
        "light": light,
        "streams": live.streams(request),
        "stall_ms": live.stall_ms(),
        **extra,
    }


def _confirming(request: TableRequest, match: Match, seen_by: Viewer) -> dict:
    """Where a finished club battle goes next: while it waits for its players' word, "Confirm it" for a phone with a
    part left to confirm (its own seat's, or any as the referee) and who it waits for to the others; once it counts,
    its rating. A play-test found an organiser who played sent to confirm what only the other player could, and a
    confirmed battle with no way on to its rating."""
    if match.finished is None or match.voided or not match.club_id or not competes(match.slug):
        return {}
    if not match.unconfirmed:
        return {"confirming": "counts"}
    return {"confirming": "confirm" if confirmations.to_confirm(match, access.signed_in(request), seen_by.referee)
            else "waiting"}


def _undo_why(match: Match, seen_by: Viewer) -> str:
    """Why this phone may not undo the last step, or "" when it may (match_goto enforces it; the button says so)."""
    if not match.head:
        return ""
    if match.finished is not None and (why := locks.why_not_reopen(match, seen_by)):
        return why
    return _no_side_to_ask(match, seen_by, match.head - 1)


def _no_side_to_ask(match: Match, seen_by: Viewer, step: int) -> str:
    """Why this phone may not go to `step` as match_goto would refuse it: the owner's phone, once both seats are on
    phones of their own, plays no side, so a move along the log that waits for a player's agreement is a player's to
    ask (consent.asking_seat). A play-test tapped Undo there and was refused only then; the pages contract found Redo
    offered alike."""
    if seen_by.can_act and not seen_by.controls(match.game.seats) and \
            consent.goto_needs_agreement(match, seen_by, step):
        try:
            consent.asking_seat(match, seen_by)
        except consent.Refused as refused:
            return str(refused)
    return ""


def _requests(match: Match, seen_by: Viewer) -> list[dict]:
    """Requests waiting for an answer, with what this phone may do about each."""
    if not seen_by.can_act or not seen_by.shared:
        return []  # a request needs a seat on another phone: no query for a match no phone has joined
    waiting = consent.pending(match)
    if not waiting:
        return []
    names = [player.name for player in match.players()]
    answers = consent.answers_for(match, seen_by)
    return [{"proposal": proposal, "asks": consent.asks(proposal, names, consent.describe(proposal, names)),
             "answerer": names[proposal.needs], "can_answer": proposal.needs in answers,
             "can_withdraw": consent.may_withdraw(match, seen_by, proposal)}
            for proposal in waiting]


def _outcome(request: TableRequest, match: Match, refusal: str = "", step: int | None = None,
             seen_by: Viewer | None = None, message: str = "") -> dict:
    """What came of the player's last tap, for the outcome region: a refusal and why, the messages
    waiting for this phone (after `message`, the change's own), and the step just taken with its working. Unless it
    tells this phone's own step, the newest change another phone made (news.py), naming who, so the box never
    contradicts the board."""
    notes: list[Message] = [Message(messages.SUCCESS, message)] if message else []  # what the change just said
    title = None
    for flashed in messages.get_messages(request):
        if steps_told.is_step(flashed):
            if taken := steps_told.step_of(flashed, match.pk):
                step, revealing = taken
                title = _("The entries are revealed") if revealing else None
        else:
            notes.append(flashed)
    entry = None
    if step:
        # The step a change just took is the one it left on the match: no query for it.
        done = services.head_action(match) if step == match.head else (
            match.actions.filter(abandoned=False, seq=step).first())
        entry = log_entries(match, [done])[0] if done else None
    told = news.said(match, seen_by) if seen_by is not None and not (refusal or entry) else ""
    if notes or told:  # they name players too ("… is locked in."): cut short as the step's lines are
        short = short_names(player.name for player in match.players())
        notes = [Message(note.level, in_box(str(note.message), short), note.extra_tags) for note in notes]
        told = in_box(told, short)
    said = step_said(match, entry, title, taken=sum(rows(str(note)) for note in notes)) if entry else {}
    return {"refusal": refusal, "notes": notes, "entry": entry, **said, "news": told,
            "shown": bool(refusal or notes or entry or told)}


def _render_match(request: TableRequest, match: Match, seen_by: Viewer, status: int = 200,
                  outcome: dict | None = None, refused: BoardActionForm | None = None, changed: bool = False,
                  **extra) -> HttpResponse:
    """The match page; for htmx its #match part, and the outcome region when there is something to say.

    After a refused board form (`refused`, bound) it comes back as the player left it, with why. The
    htmx answer to a change (`changed`) sent from the page's #match leaves out the parts no action changes
    (`{% kept %}`, tracker/templatetags/regions.py), and the parts this action left as the phone shows them
    (`X-Shown`): htmx keeps them as the page shows them. The live fetch (an htmx GET of #match after
    another phone's change) draws every part but those some actions change that the phone shows as they
    are now: a change that is not an action (a seat joined) may still have changed the others. So does a
    refusal that comes with the fresh #match (a tap from a page that is behind): the parts that draw the
    refused form are drawn anew (their digests read it), the others as after any change. A page drawn before
    the regions existed (one open across a deploy: it does not send `X-Kept`, and would be left with empty
    placeholders) gets the whole #match.
    """
    kept = request.htmx and request.htmx.target == "match" and request.headers.get("X-Kept") == "1"
    light = kept and changed
    context = _match_context(request, match, seen_by, refused, light=bool(light), **extra)
    if kept:  # the regions some actions change, and the version of each the phone shows ("id=digest")
        context["parts_shown"] = frozenset(request.headers.get("X-Shown", "").split())
    context["outcome"] = outcome if outcome is not None else _outcome(request, match, seen_by=seen_by)
    template = "tracker/match_detail.html#answer" if request.htmx else "tracker/match_detail.html"
    return render(request, template, context, status=status)


def _refused(request: TableRequest, match_id: int, message: str, status: int,
             form: BoardActionForm | None = None) -> HttpResponse:
    """A refused change: the reason where the player is looking, and nothing applied.

    When htmx sent it from the current step, the page already shows the match as it is: only the
    outcome region and the board's error slots change, out of band, so every form stays as the player
    left it, folds and all, with why beside the field it concerns. Otherwise the fresh page (or #match)
    comes back with the board form that was sent (`form`, bound) drawn again.
    """
    match, seen_by = access.match_for(request, match_id)
    outcome = _outcome(request, match, refusal=message)
    if form is not None and not form.errors:  # refused before the form was read (a stale step, a lock)
        form.add_error(None, message)
    drawn = SeqForm(request.POST)
    if request.htmx and drawn.is_valid() and services.stands_at(match, drawn.cleaned_data["seq"]):
        response = render(request, "tracker/match_detail.html#refusal",
                          {"match": match, "outcome": outcome, "oob": True,
                           "error_slots": _error_slots(request, match, seen_by, form)}, status=status)
        response["HX-Reswap"] = "none"  # the out-of-band parts are still swapped in
        return response
    return _render_match(request, match, seen_by, status=status, outcome=outcome, refused=form)


def _error_slots(request: TableRequest, match: Match, seen_by: Viewer, form: BoardActionForm | None) -> str:
    """The board's error slots for an htmx answer (tracker/templatetags/board_forms.py): found by drawing the
    board as the page shows it, with the refused form, which fills its own."""
    drawn: list[tuple[str, list[str], str]] = []
    context = _match_context(request, match, seen_by, form, light=True, error_slots=drawn)
    render_to_string(context["board_template"], context, request)
    return oob_slots(drawn)


def _after_change(request: TableRequest, match: Match, seen_by: Viewer, message: str = "",
                  step: int | None = None) -> HttpResponse:
    """The page after a change, from the match the change just saved (its state and players are fresh).

    htmx gets the fresh #match and the outcome at once; a plain POST is redirected to the page, where the next
    step starts (GamePages.lands), and the message and the step taken travel there as flash messages.
    """
    if request.htmx:
        outcome = _outcome(request, match, step=step, message=message)
        return _render_match(request, match, seen_by, outcome=outcome, changed=True)
    if message:
        messages.success(request, message)
    if step:
        steps_told.tell(request, match.pk, step)
    return redirect(match.get_absolute_url() + pages_for(match.slug).lands(match))


@require_GET
def healthz(request: TableRequest) -> HttpResponse:
    """The cheapest page: proves the app and database answer, and is the benchmarks' floor."""
    Match.objects.exists()
    return HttpResponse("ok", content_type="text/plain")


@require_GET
def home(request: TableRequest) -> HttpResponse:
    recent = listing.rows(Match.objects.visible_to(request)[:5])
    return render(request, "tracker/home.html", {"games": rules.GAMES.values(), "recent": recent})


def _new_match_forms(request: TableRequest, slug: str) -> list:
    """The new-match page's forms, unbound: what its 429 page names each value by (limits.costly)."""
    return [PlayersForm(seats=_game_or_404(slug).seats, clubs=access.my_clubs(request)),
            pages_for(slug).config_form(None, prefix="config")]


class LeftClub(Exception):
    """The account left the club chosen for a new match while it was being started."""


@require_http_methods(["GET", "POST"])
@made_once  # a second tap of the same form is sent where the first went, and counts nowhere
@limits.costly("match-new", labels=_new_match_forms)  # each match may grow to services.LOG_MOST steps: bounded too
def match_new(request: TableRequest, slug: str) -> HttpResponse:
    game = _game_or_404(slug)
    pages = pages_for(slug)
    data = request.POST if request.method == "POST" else None
    clubs = access.my_clubs(request)
    players_form = PlayersForm(data, seats=game.seats, clubs=clubs, initial=request.GET)
    config_form = pages.config_form(data, prefix="config")
    if data is not None and players_form.is_valid() and config_form.is_valid():
        club = players_form.cleaned_data.get("club")
        try:
            with transaction.atomic():
                # The club was offered as the account's before; asked again under the membership's row, which
                # leaving takes first: a club match started as its owner leaves is made before and orphaned, or
                # refused as the form refuses a club that is not the account's.
                if club is not None and not access.member_now(access.signed_in(request), club.pk):
                    raise LeftClub
                match = services.match_create(
                    slug=slug, player_names=players_form.cleaned_data["names"], config=config_form.cleaned_data,
                    owner=request.user if request.user.is_authenticated else None, owner_device=request.device,
                    club=club,
                )
            pages.match_started(match, config_form)
        except LeftClub:
            players_form.add_error("club", players_form.fields["club"].error_messages["invalid_choice"])
        except RuleError as error:
            config_form.add_error(None, services.explain(error, slug=slug))
        else:
            messages.success(request, _("Match started."))
            for note in getattr(config_form, "notes", ()):  # what the options chosen did not do (a Showdown's size)
                messages.info(request, note)
            return redirect(match)
    context = {
        "game": game,
        "noun": pages.noun,
        "players_form": players_form,
        "config_form": config_form,
        "known_players": known_players(request),
    }
    return render(request, "tracker/match_new.html", context, status=422 if data is not None else 200)


def known_players(request: TableRequest):
    """Names to suggest: the players of matches this viewer may see, their own, and their clubs' members."""
    seen = Match.objects.visible_to(request)
    found = Q(seats__match__in=seen)
    user = access.signed_in(request)
    if user is not None:
        found |= Q(user=user) | Q(user__memberships__club__memberships__user=user)
    return Player.objects.filter(found).distinct()


@require_GET
def match_detail(request: TableRequest, pk: int) -> HttpResponse:
    match, seen_by = access.match_for(request, pk)
    seated = sharing.seat_club_member(request, match, seen_by)
    if seated is not None:
        messages.info(request, _("You play as %(name)s on this phone: this battle names you.") % {
            "name": match.players()[seated].name})
        match, seen_by = access.match_for(request, pk)
    return _render_match(request, match, seen_by)


# Every open phone asks this every 2 s, so its answer is kept to a few headers: it is never a
# page (an empty 204 or a little JSON read by table.js), so a content policy or a framing rule
# would govern nothing here. Refusals (404, 403) are pages and still carry both.
@csp_override({})
@xframe_options_exempt
@require_GET
def match_poll(request: TableRequest, pk: int) -> HttpResponse:
    """Has the match changed since version `v`? 204 and no body when not: polled every 2 s."""
    match = access.visible_match(request, pk, only=("version", "finished"))
    if request.GET.get("v") == str(match.version):
        response = HttpResponse(status=204)
        del response["Content-Type"]  # no body, nothing to type
        return response
    return JsonResponse({"version": match.version, "finished": match.finished is not None})


@require_GET
def match_pass(request: TableRequest, pk: int, seat: int) -> HttpResponse:
    """The hot-seat screen that hides everything until the right player holds the phone."""
    match, seen_by = access.match_for(request, pk, act=True)
    player = access.entry_player(match, seat, seen_by)
    if seat not in pages_for(match.slug).seats_to_enter(match):
        messages.info(request, _("%(name)s has nothing secret to enter now.") % {"name": player.name})
        return redirect(match)
    return render(request, "tracker/pass_phone.html", {"match": match, "player": player, "seat": seat})


@never_cache  # no-store: the Back button must not bring a locked-in entry back from the cache
@require_http_methods(["GET", "POST"])
def match_entry(request: TableRequest, pk: int, seat: int) -> HttpResponse:
    """One player's secret entry (a Card Crush deck), sent with a token bound to their seat."""
    match, seen_by = access.match_for(request, pk, act=True)
    player = access.entry_player(match, seat, seen_by)
    pages = pages_for(match.slug)
    if request.method == "GET" and seat not in pages.seats_to_enter(match):
        return redirect(match)
    locked = locks.why_locked(match)
    if locked:
        return _refused(request, match.pk, locked, status=409)
    if request.method == "POST" and (request.POST.get("add_card") or request.POST.get("new-name", "").strip()):
        return _entry_card(request, match, player, seat)
    form = pages.entry_form(match, request.POST if request.method == "POST" else None, seat=seat)
    reuse = None
    if request.method == "GET":
        reuse = last_entry(request, match, seat, pages)
        if reuse is not None and len(reuse) != len([name for name in form.fields if name.startswith("card_")]):
            reuse = None  # a lineup of another size
        if reuse is not None and request.GET.get("reuse") == "last":
            form.initial = {f"card_{position}": name for position, name in enumerate(reuse, start=1)}
            reuse = None  # taken: the form holds it
    if request.method == "POST":
        return _entry_post(request, match, seen_by, player, seat, form)
    return _entry_page(request, match, player, seat, form, last_entry=reuse)


def _entry_post(request: TableRequest, match: Match, seen_by: Viewer, player: Player, seat: int,
                form) -> HttpResponse:
    """A secret entry sent: locked in and the phone sent to the match, or the form back with why not."""
    pages = pages_for(match.slug)
    refusal, status = "", 422
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
            recorded = services.match_apply_action(
                match=match, action=pages.entry_action(form, seat), expected_seq=seq_form.cleaned_data["seq"],
                by=news.by(request, match, seen_by))
        except services.StaleSubmission as stale:
            match.refresh_from_db()
            if seat not in pages.seats_to_enter(match):
                return _refused(request, match.pk, str(stale), status=409)
            # Another phone moved the match on meanwhile (say, the other player locked in):
            # keep what this player typed and let them confirm it against the fresh step.
            refusal, status = _("The match moved on while you were entering; check your entry and send it again."), 409
        except RuleError as error:
            refusal = services.explain(error, match.players(), match.slug)
        else:
            match = pages.after_change(match, partial(limits.Allowance, request))
            confirmations.entered(match, seat, access.signed_in(request), recorded)
            # When it revealed the entries (a log line more than the lock), the box tells what came of them, and no
            # entry is hidden any more.
            names = [seated.name for seated in match.players()]
            if any(pages.describe(event, names) for event in recorded.events):
                messages.success(request, _("%(name)s is locked in.") % {"name": player.name})
                steps_told.tell(request, match.pk, recorded.seq, revealing=True)
                return redirect(match)
            messages.success(request, _("%(name)s is locked in. The entry is hidden.") % {"name": player.name})
            # Hot-seat, nothing revealed yet: the phone goes on to the next player who still enters on it, one
            # tap saved. A reveal (even one that ends the round at once) shows the board.
            handed_on = next((other["url"] for other in entry_seats(match, seen_by) if other["passed_to"]), "")
            return redirect(handed_on or match)
    return _entry_page(request, match, player, seat, form, refusal=refusal, status=status)


def _entry_page(request: TableRequest, match: Match, player: Player, seat: int, form, card_form=None,
                status: int = 200, **extra) -> HttpResponse:
    card_form = card_form or pages_for(match.slug).card_form(prefix="new")
    card_form.use_required_attribute = False  # its fields are in the entry form: locking in must not ask for them
    context = {
        "match": match,
        "player": player,
        "seat": seat,
        "form": form,
        "card_form": card_form,
        "entry_token": signing.dumps({"match": match.pk, "seat": seat}, salt=ENTRY_SALT),
        # The typed-name suggestions: every card of the catalog as it stands, read with the catalog the entry
        # form reads (club_cards.names_now), not a second time.
        "catalog": [{"name": name} for name in names_now(match)],
        **extra,
    }
    return render(request, pages_for(match.slug).entry_template, context, status=status)


def _new_card_form(request: TableRequest, match: Match, player: Player, seat: int) -> list:
    """The entry page's new-card form, unbound: what its 429 page names each value by. The entry typed so far is
    carried to be sent again, never listed."""
    return [pages_for(match.slug).card_form(prefix="new")]


# A new catalog card however it is added, counted as the catalog's own form counts it (round 35: the entry page's
# went round the limit, and one phone with one match filled the shared catalog without end).
@limits.costly("card-new", labels=_new_card_form)
def _entry_card(request: TableRequest, match: Match, player: Player, seat: int) -> HttpResponse:
    """A card added from the entry page (sent with a half-typed card too: the card is added, nothing is
    locked). The page comes back with everything entered as it was, and the card form empty once added."""
    pages = pages_for(match.slug)
    card_form = pages.card_form(request.POST, prefix="new")
    added = None
    if card_form.is_valid():
        card = card_form.cleaned_data
        try:
            added = card_changes.card_add(Editor.of(request), match.slug, card["name"], pages.card_stats(card))
        except CardRefused as refused:
            card_form.add_error("name", str(refused))
    if added:
        card_form = pages.card_form(prefix="new")
    # The entry as typed so far comes back as the form's initial values: not checked, since it is not sent yet.
    entry = pages.entry_form(match, None, seat=seat)
    entry.initial = {name: request.POST[name] for name in entry.fields if name in request.POST}
    return _entry_page(request, match, player, seat, entry, card_form, status=200 if added else 422, added=added)


def _rolls(request: TableRequest) -> list[int]:
    """Dice a player rolled by hand, from the `roll` fields; ValueError for one that is not a number."""
    return [int(value) for value in request.POST.getlist("roll") if value.strip()]


@require_POST
def match_act(request: TableRequest, pk: int) -> HttpResponse:
    """An action taken at the table (reveal the next round, attack, ...).

    Dice a player rolled by hand come as `roll` fields, in the order the engine asks
    for them; a blank `roll` means the app rolls. Once the other seat is on a phone of its own, a
    table action or a correction of the other side's cards becomes a request that phone answers
    (consent.py); everything else is told to it (news.py).
    """
    match, seen_by = access.match_for(request, pk, act=True)
    form = pages_for(match.slug).board_form(match, request.POST)
    seq = SeqForm.sent(request.POST)
    if seq is None:
        return _refused(request, pk, _("The form is missing its step number; nothing was applied."), 400, form)
    locked = locks.why_locked(match)
    if locked:
        return _refused(request, pk, locked, 409, form)
    if not form.is_valid():
        return _refused(request, pk, form.refusal(), 422, form)
    action = form.action
    try:
        rolls = _rolls(request)
        ask = consent.needs_agreement(match, seen_by, action)
    except ValueError:
        message = _("A die roll must be a whole number; nothing was applied.")
        form.add_error("roll" if "roll" in form.fields else None, message)
        return _refused(request, pk, message, 422, form)
    except consent.Refused as refused:
        return _refused(request, pk, str(refused), 403, form)
    made_by = news.by(request, match, seen_by)
    try:
        if ask:
            consent.propose(match_id=pk, seen_by=seen_by, expected_seq=seq, kind=Proposal.ACTION, action=action,
                            rolls=rolls, made_by=made_by)
            return _after_change(request, Match.objects.get(pk=pk), seen_by, _asked_message(match, seen_by))
        recorded = services.match_apply_action(match=match, action=action, expected_seq=seq, rolls=rolls, by=made_by)
    except services.StaleSubmission as stale:
        if stale.recorded_step:  # the first copy got through and its answer was lost: the tap did count
            return _after_change(request, Match.objects.get(pk=pk), seen_by, str(stale), step=stale.recorded_step)
        return _refused(request, pk, str(stale), 409, form)
    except consent.Refused as refused:
        return _refused(request, pk, str(refused), 422, form)
    except RuleError as error:
        message = services.explain(error, match.players(), match.slug)
        form.refuse(error, message)
        return _refused(request, pk, message, 422, form)
    replied = pages_for(match.slug).after_change(recorded.match, partial(limits.Allowance, request))
    return _after_change(request, replied, seen_by, step=recorded.seq)


def _asked_message(match: Match, seen_by: Viewer) -> str:
    other = consent.other_seat(match, consent.asking_seat(match, seen_by), seen_by)
    return _("Asked %(name)s to agree; nothing changes until they do.") % {"name": match.players()[other].name}


@require_POST
def match_goto(request: TableRequest, pk: int) -> HttpResponse:
    """Undo or redo: move along the log to a step; actions are never deleted.

    Going back before the end of a finished match (reopening it) asks for confirmation and,
    in a club, needs an organiser. Going back past a revealed secret entry, over the other side's
    moves, or reopening a match the other side won needs that phone's agreement
    (tracker/people/consent.py), unless a club organiser who does not play in it does it as the referee. Anything else is one
    tap, and the other phone is told.
    """
    match, seen_by = access.match_for(request, pk)
    form = StepForm(request.POST)
    if not form.is_valid():
        return _refused(request, pk, _("Choose a step to go to; nothing was changed."), 400)
    step, seq = form.cleaned_data["step"], form.cleaned_data["seq"]
    reopening = match.finished is not None and step < match.head
    if not seen_by.can_act and not seen_by.referee:  # a club's organiser referees the matches they do not play in
        raise PermissionDenied(_("Spectators can watch this match but not play in it."))
    locked = locks.why_locked(match)
    if locked:
        return _refused(request, pk, locked, status=409)
    if reopening and (why := locks.why_not_reopen(match, seen_by)):
        return _refused(request, pk, why, status=403)
    current = services.stands_at(match, seq)  # drawn on this board: else refused as stale below
    if current and reopening and request.POST.get("confirm") != "reopen":
        return people_views.confirm_reopen(request, match, seen_by, step)
    made_by = news.by(request, match, seen_by)
    try:
        if current and seen_by.can_act:
            if consent.hot_seat(match, seen_by):
                if consent.takes_back_reveal(match, step):
                    return people_views.hot_seat_goto(request, match, seen_by, step)
            elif why := consent.goto_needs_agreement(match, seen_by, step):
                consent.propose(match_id=pk, seen_by=seen_by, expected_seq=seq, kind=Proposal.GOTO, step=step,
                                action={"why": why}, made_by=made_by)
                return _after_change(request, Match.objects.get(pk=pk), seen_by, _asked_message(match, seen_by))
        moved = services.match_goto(match=match, step=step, expected_seq=seq, by=made_by)
    except services.StaleSubmission as stale:
        return _refused(request, pk, str(stale), status=409)
    except services.NoSuchStep as error:
        return _refused(request, pk, str(error), status=422)
    except consent.Refused as refused:
        return _refused(request, pk, str(refused), status=409)
    verb = _("Went back to step %(step)s.") if step < seq else _("Went forward to step %(step)s.")
    return _after_change(request, moved, seen_by, verb % {"step": step})


@require_GET
def match_list(request: TableRequest) -> HttpResponse:
    matches = Match.objects.visible_to(request)
    form = MatchFilterForm(request.GET or None, players=Player.objects.filter(seats__match__in=matches).distinct(),
                           clubs=access.my_clubs(request))
    if form.is_valid():
        if form.cleaned_data.get("club"):
            matches = matches.filter(club=form.cleaned_data["club"])
        if form.cleaned_data["game"]:
            matches = matches.filter(slug=form.cleaned_data["game"])
        if form.cleaned_data["player"]:
            matches = matches.filter(seats__player=form.cleaned_data["player"])
    page, rows = listing.page(matches, request.GET.get("page"), 25)
    # The pager's links keep every filter the form has ("game=...&player=...&club=...&"), then the
    # page number: read from the form's fields, so a filter added to the form is kept too.
    filters = "".join(f"{key}={urlencode(request.GET[key])}&" for key in form.fields if request.GET.get(key))
    return render(request, "tracker/match_list.html",
                  {"form": form, "page": page, "rows": rows, "filters": filters})


def csrf_failure(request: TableRequest, reason: str = "") -> HttpResponse:
    return render(request, "403_csrf.html", status=403)
