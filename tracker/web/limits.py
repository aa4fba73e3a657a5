"""How often a phone, an account or an address may do what costs the server: the one place limits live.

Counting is django-ratelimit's (fixed windows in Django's cache, which here is the database cache:
every app server shares it). Two kinds of limit:

- Sign-in failures (and wrong old passwords when changing one), per address: a budget of wrong passwords
  an hour, refused before hashing, whatever the names. Per (user name, address) pair: five wrong passwords
  lock only that pair for the
  rest of its quarter hour, so a prankster on a store's shared address locks out nobody else's name,
  and nobody anywhere locks a named account out from another address. Across addresses a name under
  attack is slowed, never locked: once it has many failures in the hour, an address that fails for it
  waits `pace` seconds before its next try (growing with the failures, at most two minutes), while an
  address that has not failed for it (the player on their own phone) gets straight in.
- Costly requests (`@costly(kind)` on the view; COSTLY lists them): counted per device, per account
  when signed in, and per address (more generously: a store's phones share one), refused with 429
  and when to try again. Only a request that did the work counts (`did_work`): a form refused before
  any work is as cheap as showing it, and counting it let one phone lock its network out.
"""

import hashlib
import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import wraps

from django import forms
from django.core.cache import cache
from django.core.exceptions import BadRequest, PermissionDenied, SuspiciousOperation
from django.forms import BoundField
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django_ratelimit.core import get_usage

from tracker.people import devices


def wait_text(seconds: int) -> str:
    """"Try again in …" in the largest unit that is not vague: seconds under two minutes, then minutes."""
    seconds = max(1, seconds)
    if seconds < 120:
        return ngettext("Try again in %(n)s second.", "Try again in %(n)s seconds.", seconds) % {"n": seconds}
    minutes = math.ceil(seconds / 60)
    return ngettext("Try again in %(n)s minute.", "Try again in %(n)s minutes.", minutes) % {"n": minutes}


def _usage(request: HttpRequest, group: str, value: str, rate: str | tuple[int, int], count: bool) -> dict:
    usage = get_usage(request, group=group, key=lambda _group, _request: value, rate=rate, increment=count)
    return usage or {"count": 0, "limit": 1, "should_limit": False, "time_left": 0}  # None: limits switched off


# ---------------------------------------------------------------- sign-in

PAIR_FAILURES = 5
PAIR_RATE = (PAIR_FAILURES, 15 * 60)
NAME_RATE = (10**6, 60 * 60)
"""Failures per name across addresses are only counted (never refused by this count itself)."""
NAME_FAILURES_BEFORE_PACE = 10
PACE_FIRST, PACE_LONGEST = 15, 120
ADDRESS_FAILURES = 100
"""Wrong passwords one address may have checked in an hour, whatever the names: each check hashes (about 0.4 CPU
seconds), and counting only (name, address) pairs let one address try name after name without end."""
ADDRESS_RATE = (ADDRESS_FAILURES, 60 * 60)


def _pair(request: HttpRequest, name: str) -> str:
    return f"{name}|{devices.client_address(request)}"


def pace(name_failures: int) -> int:
    """Seconds between tries for an address that failed for a name with this many failures in the hour:
    none below the threshold, then 15 s, doubling with every ten more failures, at most two minutes."""
    if name_failures < NAME_FAILURES_BEFORE_PACE:
        return 0
    return min(PACE_FIRST * 2 ** ((name_failures - NAME_FAILURES_BEFORE_PACE) // 10), PACE_LONGEST)


def _pace_key(request: HttpRequest, name: str) -> str:
    return "sign-in-pace:" + hashlib.sha256(_pair(request, name).encode()).hexdigest()


def sign_in_wait(request: HttpRequest, name: str) -> int:
    """Seconds this address must wait before trying the (normalised, hashed) name again; 0: go ahead."""
    pair = _usage(request, "sign-in-pair", _pair(request, name), PAIR_RATE, count=False)
    if pair["count"] >= PAIR_FAILURES:
        return max(1, pair["time_left"])  # 0 in the window's last second: still refused
    next_try = cache.get(_pace_key(request, name))
    return math.ceil(next_try - time.time()) if next_try and next_try > time.time() else 0


KNOWN_FOR = 90 * 24 * 60 * 60
"""How long a phone that signed in to an account is known for it (seconds): it is not held by its network's budget."""


def _known_key(request: HttpRequest, name: str) -> str | None:
    device = getattr(request, "device", "")
    return "sign-in-known:" + hashlib.sha256(f"{name}|{device}".encode()).hexdigest() if device else None


def remember_sign_in(request: HttpRequest, name: str) -> None:
    """This phone signed in to the (normalised) name: the network's budget of wrong passwords no longer holds it
    back for that name, so one phone spending a store's budget cannot keep its regulars out."""
    if key := _known_key(request, name):
        cache.set(key, True, KNOWN_FOR)


def password_check_refusal(request: HttpRequest, name: str) -> tuple[int, str]:
    """Why a password may not be checked for the (normalised, hashed) name from this address now, and the seconds
    to wait; (0, "") if it may. Asked before the password is hashed. The address's budget refuses every name from
    it but on a phone that signed in to that name before (its player's own), the pair and the pace only this name:
    no name is ever locked from another address."""
    address = _usage(request, "sign-in-address", devices.client_address(request), ADDRESS_RATE, count=False)
    known = (key := _known_key(request, name)) is not None and cache.get(key) is True
    if address["count"] >= ADDRESS_FAILURES and not known:
        return max(1, address["time_left"]), _("Too many wrong passwords from this network in the last hour.")
    if wait := sign_in_wait(request, name):
        return wait, _("Too many failed attempts for this name from here.")
    return 0, ""


def count_sign_in_failure(request: HttpRequest, name: str) -> None:
    """Count a wrong password (one that was checked) for the address, the pair and the name; if the name is under
    attack, this address waits its pace before its next try (an address that has not failed for the name has no
    pace to wait)."""
    _usage(request, "sign-in-address", devices.client_address(request), ADDRESS_RATE, count=True)
    _usage(request, "sign-in-pair", _pair(request, name), PAIR_RATE, count=True)
    wait = pace(_usage(request, "sign-in-name", name, NAME_RATE, count=True)["count"])
    if wait:
        cache.set(_pace_key(request, name), time.time() + wait, wait)


# ---------------------------------------------------------------- costly requests


@dataclass(frozen=True)
class Limit:
    what: Promise
    """What is counted, in the refusal: "Too many {what} from this phone"."""
    per_hour: int
    """Per device, and per account when signed in."""
    methods: tuple[str, ...] = ("POST",)
    address_share: int = 5
    """An address may make this many times `per_hour`: a store's phones share one address."""


COSTLY: dict[str, Limit] = {
    "match-import": Limit(gettext_lazy("match imports"), 10, address_share=3),
    # A club night starts a few matches a phone; a store's phones share one address, hence the share.
    "match-new": Limit(gettext_lazy("new matches"), 60, address_share=20),
    "export": Limit(gettext_lazy("match exports"), 60, methods=("GET",)),
    # A statistics page reads the events of every finished match its phone may see: long matches (imported, or
    # seen through watch links) made one page cost most of a CPU second. Browsing them is far below this.
    "stats": Limit(gettext_lazy("statistics pages"), 300, methods=("GET",)),
    # A leaderboard, a rating history, a battle's working and a tournament's standings each replay every counted
    # battle of the club (competition/ratings.py `history`, nothing kept), and a public leaderboard is open to any
    # phone. A tournament night's entrants share the store's address, each reading the standings every round.
    "ratings": Limit(gettext_lazy("rating and standings pages"), 300, methods=("GET",), address_share=20),
    "card-new": Limit(gettext_lazy("new cards"), 60),
    "card-csv": Limit(gettext_lazy("catalog uploads"), 10),
    "hint": Limit(gettext_lazy("hints"), 120, methods=("GET",)),
    "analysis": Limit(gettext_lazy("analysis steps"), 200),
    "ai-turn": Limit(gettext_lazy("AI moves asked for"), 200),
    "sign-up": Limit(gettext_lazy("new accounts"), 5),
    # Every password checked is hashed (about 0.4 CPU seconds), the right one too: signing in, and the old
    # password on changing it. A phone signs in a few times a night; a store's phones share an address.
    "password-check": Limit(gettext_lazy("password checks"), 30, address_share=10),
    # A club claims at most CLAIMS_PER_CLUB names, so clubs and claims are counted too: else one account
    # starting club after club could claim the catalog's every future name.
    "club-new": Limit(gettext_lazy("new clubs"), 5),
    "name-claim": Limit(gettext_lazy("card name claims"), 60),
    # A tournament holds at most tournaments.ENTRANTS_MOST entrants (each a player) and each round it pairs opens a
    # battle per two: a store runs a tournament or two a night, a round every quarter hour at the quickest.
    "tournament-new": Limit(gettext_lazy("new tournaments"), 5),
    "round-pair": Limit(gettext_lazy("tournament rounds paired"), 12),
}
HOUR = 60 * 60


def _costly_counters(request: HttpRequest, kind: str) -> list[tuple[str, str, int]]:
    """Who a costly request counts against: ("phone" | "account" | "network", whose key, allowed an hour)."""
    limit = COSTLY[kind]
    counters = [("phone", getattr(request, "device", ""), limit.per_hour)]
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        counters.append(("account", str(user.pk), limit.per_hour))
    counters.append(("network", devices.client_address(request), limit.per_hour * limit.address_share))
    return counters


def costly_wait(request: HttpRequest, kind: str) -> tuple[int, str]:
    """The seconds to wait before this request may do the work of `kind` (0 if it may go ahead now), and who
    used up their hour ("phone", "account" or "network"). Asking counts nothing: `count_costly` does, once the
    work is done."""
    waits = []
    for who, value, allowed in _costly_counters(request, kind):
        usage = _usage(request, f"costly:{kind}:{who}", value, (allowed, HOUR), count=False)
        if usage["count"] >= allowed:
            waits.append((max(1, usage["time_left"]), who))
    return max(waits) if waits else (0, "")


def count_costly(request: HttpRequest, kind: str) -> None:
    """Count one request that did the work of `kind` against its phone, account and network."""
    for who, value, allowed in _costly_counters(request, kind):
        _usage(request, f"costly:{kind}:{who}", value, (allowed, HOUR), count=True)


@dataclass(frozen=True)
class Allowance:
    """One request's allowance of a costly kind, handed to code below this module (a game's pages, which may
    not import it) that does such work now and then inside another request: a Showdown AI's search."""

    request: HttpRequest
    kind: str

    def allows(self) -> bool:
        return not costly_wait(self.request, self.kind)[0]

    def spend(self) -> None:
        count_costly(self.request, self.kind)


SPENT = "_costly_work_done"


def spent(request: HttpRequest) -> None:
    """The view did its costly work though it refuses (an import read and re-ran a file that then failed a
    check): the request counts all the same."""
    setattr(request, SPENT, True)


def did_work(request: HttpRequest, response: HttpResponse) -> bool:
    """Whether a costly view's request counts: it made something or answered (below 400), or said it `spent`
    the work. A form refused before any work (empty, invalid, not allowed) costs what showing the form costs, so
    it counts nowhere: else one phone dropping its cookie and sending empty forms would use up its network's
    share and refuse every other phone there."""
    return response.status_code < 400 or getattr(request, SPENT, False)


NOT_SHOWN = {"once", "next", "seq", "csrfmiddlewaretoken"}
"""Fields a form sends that nobody typed: carried again, not listed."""


@dataclass(frozen=True)
class Kept:
    """A refused POST as the 429 page sends it again: what was typed survives the wait."""

    fields: list[tuple[str, str]]
    """Every posted (name, value), a field sent twice twice; not the CSRF token (the page's own is fresh),
    nor a password (never written into a page)."""
    shown: list[tuple[str, str]]
    """What the player filled in, to see on the page: (the field's label, the value as the form offered it)."""
    files: list[str]
    """The names of the files sent: a file cannot be kept, the player chooses it again."""
    passwords: bool
    """Whether a password was left out: the form asks for it again."""


Labels = Callable[..., Iterable[forms.BaseForm]]
"""A costly view's forms, unbound, as it draws them (called with the view's request and arguments): each value the
429 page lists is named by its field's label."""


def _field_labels(request: HttpRequest, labels: Labels | None, args: tuple, kwargs: dict) -> dict[str, BoundField]:
    """The fields of the view's forms by the name each posts as (its prefix included); none for a view whose
    arguments name nothing (a game that does not exist: the view itself answers that with a 404)."""
    if labels is None:
        return {}
    try:
        return {field.html_name: field for form in labels(request, *args, **kwargs) for field in form}
    except Http404:
        return {}


def _as_shown(field: BoundField, value: str) -> str:
    """A value as the form offered it: a choice by the words it was offered with, a ticked box as "yes"."""
    if isinstance(field.field, forms.BooleanField):
        return _("yes")
    choices = getattr(field.field, "choices", None)
    if choices is not None:  # a club offered by its name, too
        return str({str(key): label for key, label in choices}.get(value, value))
    return value


def kept(request: HttpRequest, fields_by_name: dict[str, BoundField] | None = None) -> Kept | None:
    """What the 429 page carries back of a refused POST (None for a GET: nothing was typed). It lists each value
    of a field the player sees in the view's forms (`fields_by_name`) with the field's label; the others (hidden
    fields, what no form of the view has) are sent again but not listed: a value without its label says nothing."""
    if request.method != "POST":
        return None
    fields, shown, passwords = [], [], False
    for name, values in request.POST.lists():
        if "password" in name:
            passwords = True
        elif name != "csrfmiddlewaretoken":
            fields += [(name, value) for value in values]
            field = (fields_by_name or {}).get(name)
            if field is None or field.is_hidden or name in NOT_SHOWN:
                continue
            shown += [(str(field.label), _as_shown(field, value)) for value in values if value.strip()]
    return Kept(fields, shown, sorted(request.FILES), passwords)


def refusal(request: HttpRequest, message: str, seconds: int,
            fields_by_name: dict[str, BoundField] | None = None) -> HttpResponse:
    """The 429 page: what was refused and when to try again (also as Retry-After), and a refused form's
    fields in a form to send again once the wait is over, so nothing typed is lost. htmx swaps it in as the
    whole page (base.html lets a 429 through), so the reason shows wherever the player tapped."""
    context = {"message": message, "wait": wait_text(seconds), "kept": kept(request, fields_by_name)}
    response = render(request, "tracker/limited.html", context, status=429)
    response["Retry-After"] = str(max(1, seconds))
    if getattr(request, "htmx", False):
        response["HX-Retarget"], response["HX-Reswap"] = "body", "innerHTML"
    return response


def costly(kind: str, labels: Labels | None = None) -> Callable:
    """The view's requests of the limit's methods are refused beyond COSTLY[kind], and counted when they did
    the work (`did_work`). `labels` gives the view's forms, whose labels name what a refused POST's page lists."""
    if kind not in COSTLY:
        raise KeyError(kind)

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def bounded(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            if request.method not in COSTLY[kind].methods:
                return view(request, *args, **kwargs)
            seconds, who = costly_wait(request, kind)
            if seconds:
                what = COSTLY[kind].what
                message = {"phone": _("Too many %(what)s from this phone in the last hour."),
                           "account": _("Too many %(what)s from this account in the last hour."),
                           "network": _("Too many %(what)s from this network in the last hour."),
                           }[who] % {"what": what}
                return refusal(request, message, seconds, _field_labels(request, labels, args, kwargs))
            try:
                response = view(request, *args, **kwargs)
            except (Http404, PermissionDenied, SuspiciousOperation, BadRequest):
                raise  # refused before any work: a 404, 403 or 400 answer
            except Exception:
                # A request that failed (a bug: a 500) may have done all of the work first, as a whole match file
                # re-run did before its last step could not be stored: it counts, or it would be free to repeat.
                count_costly(request, kind)
                raise
            # Counted once the work is done; requests sent at the same moment are all checked first, so a burst
            # passes the limit by at most as many as the server answers at once.
            if did_work(request, response):
                count_costly(request, kind)
            return response

        bounded.costly = kind  # type: ignore[attr-defined]  # read by the test that finds every costly route
        bounded.labels = labels  # type: ignore[attr-defined]  # and by the one that sends each a typed field
        return bounded

    return decorate


# ---------------------------------------------------------------- stored bytes

HELD_BYTES = 20 * 2**20
"""What the matches of one phone (or one account) may take in the database before an import is refused."""
IMPORTED_BYTES_A_DAY = 100 * 2**20
"""What one address may import in a day: a phone that clears its cookie is a new phone, not a new network."""
DAY = 24 * 60 * 60


def held_bytes(matches) -> int:
    """What these matches take in the database: their states, their actions (what was played, what it
    did, the dice) and their checkpoints, as the JSON text each is stored as."""
    from django.db.models import Sum, TextField
    from django.db.models.functions import Cast, Coalesce, Length

    from tracker.models import Action, Checkpoint

    def size(field: str):
        return Coalesce(Sum(Length(Cast(field, TextField()))), 0)

    return (matches.aggregate(n=size("state"))["n"]
            + Action.objects.filter(match__in=matches).aggregate(n=size("payload") + size("events") + size("rolls"))["n"]
            + Checkpoint.objects.filter(match__in=matches).aggregate(n=size("state"))["n"])


def import_refusal(request: "devices.TableRequest", size: int) -> str:
    """Why a file of `size` bytes may not be imported now ("" if it may): the phone's or the account's
    matches would hold too much, or the address imported too much today. Counts the bytes when allowed."""
    from tracker.models import Match

    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        held = Match.objects.filter(owner=user)
        full = _("There is no room for it: your account's matches already take %(held).1f MB of the %(most)s MB "
                 "they may.")
    else:
        held = Match.objects.filter(owner__isnull=True, owner_device=request.device)
        full = _("There is no room for it: this phone's matches already take %(held).1f MB of the %(most)s MB "
                 "they may.")
    mb = 2**20
    taken = held_bytes(held)
    if taken + size > HELD_BYTES:
        return full % {"held": taken / mb, "most": HELD_BYTES // mb}
    key = f"imported-bytes:{devices.client_address(request)}"
    cache.add(key, 0, DAY)
    if cache.get(key, 0) + size > IMPORTED_BYTES_A_DAY:
        return _("This network has imported %(most)s MB of matches today, the most it may. Try again "
                 "tomorrow.") % {"most": IMPORTED_BYTES_A_DAY // mb}
    cache.incr(key, size)
    return ""
