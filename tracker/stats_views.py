"""Statistics pages: every player's record per game, a game's own figures, one player's history."""

from django.db.models import Q
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

import rules

from . import access, charts, listing, stats
from .devices import TableRequest
from .models import Match, Player


@require_GET
def stats_overview(request: TableRequest) -> HttpResponse:
    """Records of every player, for one game or all of them, and the game's own figures."""
    slug = request.GET.get("game", "")
    if slug not in rules.GAMES:
        slug = ""
    clubs = access.my_clubs(request)
    club = clubs.filter(pk=request.GET["club"]).first() if request.GET.get("club", "").isdigit() else None
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
