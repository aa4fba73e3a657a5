"""A player's last deck or lineup, offered again on their entry page: one tap fills the form with it, in order,
still editable before locking in (fewer taps than entering five cards anew, and than paper).

Taken only from a match this phone may open (Match.objects.visible_to) whose entries are all revealed: an entry
still hidden in another match is never shown, not even to the phone holding it now.
"""

from tracker.models import Action, Match, Seat

LOOKED_AT = 20
"""How many of the player's latest matches of the game are searched for an entry to take again."""


def last_entry(request, match: Match, seat: int, pages) -> list[str] | None:
    """The card names `seat`'s player locked in last in another match of this game (whose pages are `pages`: the
    games' pages build on this package, so the view hands them in), or None."""
    kind = pages.reusable_entry
    if kind is None:
        return None
    player = match.players()[seat]
    earlier = (Seat.objects.filter(player=player, match__slug=match.slug, match__in=Match.objects.visible_to(request))
               .exclude(match=match).select_related("match").order_by("-match__created", "-match__pk"))
    for seated in earlier[:LOOKED_AT]:
        other = seated.match
        if pages.seats_to_enter(other):  # an entry there is still hidden until everyone has locked in
            continue
        entry = (Action.objects.filter(match=other, abandoned=False, seq__lte=other.head, payload__type=kind,
                                       payload__seat=seated.position).order_by("-seq").first())
        if entry is not None:
            return [card["name"] for card in entry.payload["cards"]]
    return None
