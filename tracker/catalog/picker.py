"""Choosing a card by sight: the cards matching what is typed, with their key stats, recently used first.

A card field (templates/tracker/picker.html) is a plain text input that accepts a typed name,
so it works without JavaScript. With htmx, typing (or focusing the field) asks `card_picks` for
the matching catalog cards as buttons; a tap fills the field (static/js/picker.js, which comes
with the first answer, so a page pays for it only once a card is chosen).

"Recently used" are the catalog cards of this game in the matches this phone or account plays
(its own, or a seat it joined), newest action first, read from each match's log as anyone at
that table may see it (`public_action`): a deck still hidden, in this match or another one, never
moves a card up. Cards of matches it only watches, or cannot see, never count. The answer holds
catalog data only, so a secret entry page shows nothing of the other seat's entry.
"""

from django.core.exceptions import PermissionDenied
from django.db.models import F, Q
from django.http import Http404

from tracker.competition.collection import seat_collections
from tracker.matches.card_uses import card_names
from tracker.matches.club_cards import for_match
from tracker.models import Access, Action, Match
from tracker.people import access
from tracker.people.devices import TableRequest

PICKS = 6
"""Most cards one answer offers: a phone screen's worth above the keyboard; typing narrows them."""
RECENT_ACTIONS = 300
"""How far back in this phone's logs "recently used" looks (actions, newest first)."""
QUERY_MAX = 60


def _played_by(request: TableRequest) -> Q:
    """Matches this phone or account plays: made by it, or joined with a seat (not only watched)."""
    device, user = access.device_of(request), access.signed_in(request)
    seats = Access.objects.filter(role=Access.PLAYER, revoked__isnull=True)
    mine = Q(owner_device=device)
    if user is not None:
        mine |= Q(owner=user)
        seats = seats.filter(Q(device=device, user__isnull=True) | Q(user=user))
    else:
        seats = seats.filter(device=device, user__isnull=True)
    return mine | Q(pk__in=seats.values("match"))


def recent_names(request: TableRequest, slug: str) -> list[str]:
    """Card names of this game in the matches this phone plays, most recently used first (casefolded);
    the cards of one action (a deck) in its own order.

    Only the actions each log shows to anyone at its table count, judged on the match as it is now,
    so an entry still hidden is not read; undone and abandoned actions do not count.
    """
    # A match this phone or account plays is one it sees (Match.objects.visible_to: its own, its seats): the
    # visibility rule's club join and DISTINCT added nothing here but half the picker's time.
    played = Match.objects.filter(_played_by(request), slug=slug)
    actions = list(Action.objects.filter(match__in=played.values("pk"), abandoned=False)
                   .exclude(seq__gt=F("match__head")).order_by("-created", "-pk")
                   .values_list("match_id", "payload")[:RECENT_ACTIONS])
    matches = {match.pk: match for match in Match.objects.filter(pk__in={pk for pk, _payload in actions})
               .only("pk", "slug", "rules_version", "state")}
    names: dict[str, None] = {}
    for match_id, payload in actions:
        try:
            game = matches[match_id].game
        except LookupError:  # rules version not installed here: its log is not read
            continue
        for name in card_names(game.public_action(matches[match_id].state, payload)):
            names.setdefault(name.casefold(), None)
    return list(names)


def collection_names(request: TableRequest, deck: str, source: str) -> set[str] | None:
    """The cards (casefolded names) a deck entry may take once its player chose to play their collection: `deck`
    names the entry ("<match>-<seat>", from the entry page), `source` the choice ("seat-<seat>"). None when the
    deck is played as printed (any catalog card), or the entry offers no collection.

    Only a phone that may make that seat's entry learns what the collection holds (the entry page lists it).
    """
    try:
        match_pk, seat = (int(part) for part in deck.split("-"))
    except ValueError:
        return None
    if source != f"seat-{seat}":
        return None
    match, seen_by = access.match_for(request, match_pk, act=True)
    access.entry_player(match, seat, seen_by)  # 404 or 403 for a phone that may not see what the seat holds
    owned = seat_collections(match, seat).get(seat)
    return set(owned["cards"]) if owned else None


def as_the_match_plays(request: TableRequest, cards) -> None:
    """A card field on a club match's page says which (`match`): the cards' stats become those the match plays (as
    they stood when it was made, its club's corrections in place), so the picker shows what the entry will lock in.
    Only to a phone that plays in it: a watcher outside the club would learn the club's corrections (round 20)."""
    try:
        match, _seen_by = access.match_for(request, int(request.GET.get("match", "")), act=True)
    except (ValueError, Http404, PermissionDenied):
        return
    for_match(match, cards)


def rank(names: list[str], query: str, recent: list[str]) -> list[str]:
    """The names that match `query`, best first: recently used (most recent first), then names that
    start with it, then names with a word that starts with it, then names that hold it; A to Z within.

    Case and surrounding spaces do not matter; an empty query matches every name.
    """
    typed = " ".join(query.split()).casefold()
    last_used = {name: place for place, name in enumerate(recent)}
    never = len(last_used)

    def fit(folded: str) -> int | None:
        if folded.startswith(typed):
            return 1
        if any(word.startswith(typed) for word in folded.split()):
            return 2
        return 3 if typed in folded else None

    found = []
    for name in names:
        folded = " ".join(name.split()).casefold()
        how = fit(folded)
        if how is not None:
            found.append(((last_used.get(name.casefold(), never), how, folded), name))
    return [name for _key, name in sorted(found)]
