"""Swiss tournaments in the database: entrants, rounds paired by rules/card_crush/swiss.py, standings.

Each pairing opens a Card Crush battle set up between its two players
(services.match_create); the battle's result is the pairing's result, read from the
match, never typed in a second time. Every change names the round it was made
against, so a doubled or stale form is refused instead of applied twice.
"""

import hashlib
import json
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from rules import RuleError
from rules.card_crush import rating, swiss
from tracker.matches import services

from ..models import Entrant, Match, Pairing, Tournament, players_of
from . import ratings
from .errors import Refused
from .game import competing_slug

ENTRANTS_MOST = 64
"""Entrants a tournament may hold: a store's club night. Each is a player, pairing opens a battle per two, and
the tournament's page shows every one; unbounded, one request made hundreds of each."""


def current_round(tournament: Tournament) -> int:
    return max((p.round for p in tournament.pairings.all()), default=0)


def _winner(pairing: Pairing) -> int | None:
    """The entrant id who won the pairing, or None while its battle is not finished (or voided, or left by the
    organiser who paired it: it counts nowhere until an organiser takes it over; or waiting for its players'
    confirmation, where the organiser who paired it plays in it)."""
    if pairing.second_id is None:
        return pairing.first_id
    match = pairing.match
    if (match is None or match.finished is None or match.winner_id is None or match.voided or match.orphaned
            or match.unconfirmed):
        return None
    return pairing.first_id if match.winner_id == pairing.first.player_id else pairing.second_id


def games(tournament: Tournament) -> list[swiss.Game]:
    pairings = tournament.pairings.select_related("first", "match")
    return [swiss.Game(p.round, p.first_id, p.second_id, _winner(p), voided=bool(p.match and p.match.voided))
            for p in pairings]


def swiss_entrants(tournament: Tournament, rated: dict[int, int]) -> list[swiss.Entrant]:
    return [swiss.Entrant(key=e.pk, rating=ratings.rating_of(rated, e.player_id), dropped=e.dropped_after is not None)
            for e in tournament.entrants.all()]


def rated_until(tournament: Tournament) -> datetime | None:
    """The moment whose club ratings break the tournament's ties: now while it runs for the first time (None); once it
    has ended, when it first did, or when its last battle first finished if it was reopened and played on past that
    (a round paired since). Reopened to set one battle right and ended again, it took the ratings of that second
    moment: a player who had won club battles since took the title on the tiebreak (round 28)."""
    if tournament.first_finished is None:
        return None
    last = Match.objects.filter(pairing__tournament=tournament).aggregate(last=Max("first_finished"))["last"]
    return max(tournament.first_finished, last) if last is not None else tournament.first_finished


@dataclass
class StandingRow:
    standing: swiss.Standing
    entrant: Entrant

    @property
    def owr_percent(self) -> int:
        return round(100 * self.standing.opponent_win_rate)


def standings(tournament: Tournament) -> list[StandingRow]:
    """The table: points, opponents' win rate, rating (as it was when the tournament ended, if it has: kept then,
    so a battle of the club that counts only later, confirmed or voided since, cannot change its winner)."""
    if tournament.final_ratings is not None:
        rated = {int(player): value for player, value in tournament.final_ratings.items()}
    else:
        rated = rating.ratings_from(ratings.history(tournament.club_id, rated_until(tournament))) if tournament.club_id else {}
    entrants = {e.pk: e for e in tournament.entrants.select_related("player")}
    table = swiss.standings(swiss_entrants(tournament, rated), games(tournament))
    return [StandingRow(row, entrants[row.key]) for row in table]


def results_mark(tournament: Tournament, rows: list[StandingRow] | None = None) -> str:
    """What a page ending the tournament or dropping a player was drawn for: the standings as they stood (each
    entrant's place, points, opponents' win rate, rating and whether dropped) and every battle's result
    (`Match.board_mark`, voided or not). A battle reopened and played to another end, or voided, and a club
    battle that moves a tie-breaking rating, all change it within a round, where the round's number stays.
    `rows`: the standings when the caller has them (the tournament's page), so the club's battles are not replayed
    for its ratings twice."""
    table = [(row.entrant.pk, row.standing.points, str(row.standing.opponent_win_rate), row.standing.rating,
              row.standing.dropped) for row in (standings(tournament) if rows is None else rows)]
    battles = sorted((p.pk, p.match.board_mark, bool(p.match.voided)) for p in
                     tournament.pairings.select_related("match") if p.match is not None)
    return hashlib.sha256(json.dumps([table, battles]).encode()).hexdigest()[:16]


def _locked(tournament_id: int, expected_round: int, results: str | None = None, battles: bool = False) -> Tournament:
    """The tournament, its row held until the transaction ends, refused unless it stands as the page saw it;
    with `battles`, its battles' rows held too, before anything of them is read (always the tournament first)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
    if battles:
        held = Match.objects.select_for_update(of=("self",)).filter(pairing__tournament=tournament)
        list(held.order_by("pk").values_list("pk", flat=True))
    now = current_round(tournament)
    if now != expected_round:
        raise Refused(_("The tournament moved on since this page was loaded (round %(then)s, now round %(now)s). "
                        "Nothing was changed.") % {"then": expected_round, "now": now}, status=409)
    if tournament.finished:
        raise Refused(_("This tournament is over; its standings are final."))
    if results is not None and results != results_mark(tournament):
        raise Refused(_("A battle's result changed since this page was loaded; nothing was changed. Look at the "
                        "standings again first."), status=409)
    return tournament


@transaction.atomic
def tournament_create(*, name: str, player_names: list[str], club) -> Tournament:
    """A tournament of `club`, run by its organisers (the form keeps to ENTRANTS_MOST)."""
    if len(player_names) > ENTRANTS_MOST:
        raise ValueError(f"{len(player_names)} entrants, more than {ENTRANTS_MOST}")
    tournament = Tournament.objects.create(name=name, club=club)
    for player in services.players_named(player_names):
        Entrant.objects.create(tournament=tournament, player=player)
    return tournament


@transaction.atomic
def entrant_add(*, tournament_id: int, name: str, expected_round: int) -> Entrant:
    tournament = _locked(tournament_id, expected_round)
    if expected_round:
        raise Refused(_("Entrants can be added until round 1 is paired."))
    player = services.player_named(name)
    if tournament.entrants.filter(player=player).exists():
        raise Refused(_("%(name)s is already entered.") % {"name": player.name})
    if tournament.entrants.count() >= ENTRANTS_MOST:
        raise Refused(_("The tournament has %(most)s entrants, the most it may.") % {"most": ENTRANTS_MOST}, status=422)
    return Entrant.objects.create(tournament=tournament, player=player)


@transaction.atomic
def round_pair(*, tournament_id: int, expected_round: int, organiser=None) -> list[Pairing]:
    """Pair the next round and open a battle for every table; raises Refused. An organiser who is an entrant
    pairs no more than the recommended rounds (one more round could turn the standings her way): another
    organiser of the club pairs more."""
    tournament = _locked(tournament_id, expected_round)
    entrants = {e.pk: e for e in tournament.entrants.select_related("player")}
    organisers_players = players_of(organiser, tournament.club_id)
    entrant_pairs = any(e.player_id in organisers_players for e in entrants.values())
    recommended = swiss.recommended_rounds(len(entrants))
    if entrant_pairs and expected_round >= recommended:
        raise Refused(_("You play in this tournament: its %(n)s rounds are played, and only another organiser of the "
                        "club pairs more.") % {"n": recommended}, status=403)
    try:
        rated = ratings.current_ratings(tournament.club_id) if tournament.club_id else {}
        pairings = swiss.pair_round(swiss_entrants(tournament, rated), games(tournament))
    except RuleError as error:  # the search for a pairing ran (up to swiss.PAIRING_STEPS): it counts
        raise Refused(services.explain(error), spent=True) from error
    number, made = expected_round + 1, []
    for table, (first, second) in enumerate(pairings.pairs, start=1):
        # The organiser who pairs owns every battle (and can seat the players' phones by join
        # links); the club's members can watch them all.
        match = services.match_create(slug=competing_slug(), config={}, owner=organiser, club=tournament.club,
                                      player_names=[entrants[first].player.name, entrants[second].player.name])
        # Paired by an organiser: that is the confirmation a club battle otherwise waits for (confirmations.py),
        # unless the organiser is an entrant. Owning every battle, she could enter both decks of any on her phone
        # and decide it (her own, or a rival's whose result moves her standing): each then waits as any club
        # battle does, for each player's own lock-in or word, or a referee's.
        match.unconfirmed = entrant_pairs
        match.save(update_fields=["unconfirmed"])
        made.append(Pairing.objects.create(tournament=tournament, round=number, table=table,
                                           first=entrants[first], second=entrants[second], match=match))
    if pairings.bye is not None:
        made.append(Pairing.objects.create(tournament=tournament, round=number, table=len(made) + 1,
                                           first=entrants[pairings.bye]))
    return made


def unfinished(tournament: Tournament, round_number: int | None = None) -> list[Pairing]:
    """The battles of a round still being played; with no round, of every round: a battle of an earlier round an
    organiser reopened is played again too, and until it ends its result counts for nobody."""
    pairings = tournament.pairings.all() if round_number is None else tournament.pairings.filter(round=round_number)
    return [p for p in pairings.select_related("first", "match")
            if _winner(p) is None and not (p.match and p.match.voided)]


@transaction.atomic
def entrant_drop(*, tournament_id: int, entrant_id: int, expected_round: int, results: str | None = None,
                 by_entrant: set[int] | None = None) -> Entrant:
    """Drop a player from the next rounds; their played battles still count. An organiser who is an entrant
    (`by_entrant`, her players among the entrants) drops only herself: another organiser drops a rival."""
    tournament = _locked(tournament_id, expected_round, results)
    entrant = tournament.entrants.select_related("player").filter(pk=entrant_id).first()
    if entrant is None:
        raise Refused(_("That player is not entered in this tournament."))
    if by_entrant and entrant.player_id not in by_entrant:
        raise Refused(_("You play in this tournament: another organiser of the club drops %(name)s.")
                      % {"name": entrant.player.name}, status=403)
    if entrant.dropped_after is not None:
        raise Refused(_("%(name)s has already dropped; a dropped player is not paired again.")
                      % {"name": entrant.player.name})
    open_battles = [p for p in unfinished(tournament, expected_round) if entrant.pk in (p.first_id, p.second_id)]
    if open_battles:
        raise Refused(_("%(name)s's battle of round %(round)s is not finished: finish it before they drop.")
                      % {"name": entrant.player.name, "round": expected_round})
    entrant.dropped_after = expected_round
    entrant.save(update_fields=["dropped_after"])
    return entrant


@transaction.atomic
def tournament_finish(*, tournament_id: int, expected_round: int, results: str | None = None,
                      by_entrant: bool = False) -> Tournament:
    """Declare the standings final once every battle of the last round is finished. An organiser who is an
    entrant (`by_entrant`) ends it only after its recommended rounds: ending it early decides its winner.

    Its battles' rows are held before their results are read: a battle reopened or voided at the same moment
    either committed first (and is read here, so the ending is refused) or waits, then finds the tournament
    ended and is refused (locks.why_locked, asked again under the match's row by every change of it)."""
    tournament = _locked(tournament_id, expected_round, results, battles=True)
    if not expected_round:
        raise Refused(_("Play at least one round before ending the tournament."))
    recommended = swiss.recommended_rounds(tournament.entrants.count())
    if by_entrant and expected_round < recommended:
        raise Refused(_("You play in this tournament: it ends after its %(n)s rounds, or another organiser of the "
                        "club ends it sooner.") % {"n": recommended}, status=403)
    # Of every round, not only the last: a battle of round 1 reopened while round 2 was played, left open, counted
    # for nobody in the final standings, and its winner lost the tournament (round 28).
    if still := unfinished(tournament):
        raise Refused(_("Every battle of round %(round)s must be finished first.") % {"round": min(p.round for p in still)})
    tournament.finished = timezone.now()
    tournament.first_finished = tournament.first_finished or tournament.finished
    if tournament.club_id:
        tournament.final_ratings = rating.ratings_from(ratings.history(tournament.club_id, rated_until(tournament)))
    tournament.save(update_fields=["finished", "first_finished", "final_ratings"])
    return tournament


@transaction.atomic
def tournament_reopen(*, tournament_id: int, expected_round: int, by_entrant: bool = False) -> Tournament:
    """Take the final standings back, so an organiser can reopen or void a battle; ending it again redoes them, its ties
    broken by the club's ratings as they stood when it first ended (`rated_until`), club battles since left out.
    An organiser who is an entrant (`by_entrant`) does not: the final standings are hers to gain from."""
    if by_entrant:
        raise Refused(_("You play in this tournament: another organiser of the club reopens it."), status=403)
    tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
    if current_round(tournament) != expected_round:
        raise Refused(_("The tournament moved on since this page was loaded. Nothing was changed."), status=409)
    if not tournament.finished:
        raise Refused(_("This tournament is still running; there is nothing to reopen."))
    tournament.finished, tournament.final_ratings = None, None
    tournament.save(update_fields=["finished", "final_ratings"])
    return tournament
