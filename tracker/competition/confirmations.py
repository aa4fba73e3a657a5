"""A rated battle counts when its players took part.

A club's Card Crush battle changes ratings, the leaderboard, the statistics and the rating
histories only once every seat's player has said it was theirs. Until then it is
"unconfirmed" (`Match.unconfirmed`) and `Match.objects.counted()` leaves it out. A seat is
confirmed (one `Confirmation` each) when:
- its player's own account made the seat's secret entry (the deck lock-in): on their own
  phone, seated by a join link or by opening the battle as a club member, or signed in on
  the hot-seat phone when the phone was passed to them;
- its player confirms the result afterwards, signed in, on the battle's rating page;
- an organiser of the club confirms on the player's behalf (marked as such everywhere).
A player without an account can only be confirmed by an organiser.

Decisions (where the rule was open):
- Tournament battles need no confirmation: an organiser paired the entrants and referees the
  battles, so the pairing is the organiser's confirmation (their standings counted as before).
  Except where the organiser who pairs is an entrant: she owns every battle of the round, so she
  could enter both decks of any of them on her phone and decide it (her own, or a rival's she
  gains from). Then every battle of the round waits as any club battle does, for its players' word
  or a referee's (an organiser who is no entrant), and holds its round open meanwhile.
- A confirmed battle takes its place in the ratings by when it first finished, not when it
  was confirmed (ratings are replayed: tracker/competition/ratings.py).
- Only a member's account speaks for a player of the club's battles (`seat_of`): an account outside the club,
  seated by a join link, is confirmed by an organiser as a player without an account is (round 32).
- Other games' club matches and matches outside clubs need no confirmation: nothing is rated.
- Battles from before this rule are kept as they counted (the migration leaves them confirmed).
"""

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils.translation import gettext as _

from ..matches import live, news
from ..models import Action, Confirmation, Match, Membership, Player, players_of
from .errors import Refused
from .game import competes, competing_slug


def needs_players(slug: str, club) -> bool:
    """Whether a new match of this game in this club waits for its players' confirmation."""
    return club is not None and competes(slug)


def _confirm(match: Match, seat: int, by, kind: str, entry: Action | None = None) -> bool:
    """Record the seat's confirmation (once); the battle counts when every seat has one. Whether it was new.

    Under the match's lock, which a new step instead of undone ones takes as it abandons them and withdraws
    confirmations (services.match_apply_action): had a secret entry been taken back since `entry` was made (this one,
    or another seat's), it would have withdrawn this confirmation, so recorded after, it is not made; and whether
    every seat is confirmed is judged and written under it too (round 17 read a window between the two)."""
    try:
        with transaction.atomic():
            unconfirmed, version, told = Match.objects.select_for_update(of=("self",)).filter(pk=match.pk).values_list(
                "unconfirmed", "version", "news").get()
            if entry is not None and Action.objects.filter(match=match, abandoned=True, secret=True,
                                                           number__gte=entry.number).exists():
                return False
            Confirmation.objects.create(match=match, seat=seat, by=by, kind=kind, entry=entry)
            every = bool(unconfirmed) and Confirmation.objects.filter(match=match).count() >= match.seats.count()
            Match.objects.filter(pk=match.pk).update(**({"unconfirmed": False} if every else {}),
                                                     version=F("version") + 1)
            live.changed(match.pk)  # told once this commits
            if kind != Confirmation.SEATED:
                news.tell(match.pk, news.CONFIRMED, news.named(by), seat=seat, all=every)
            else:  # made by the lock-in's own request: the other phones are told of the lock-in ("Ana locks in a
                # hidden deck"), not "Ana confirmed the result", which was said before any reveal
                news.carry_on(match.pk, told, version)
    except IntegrityError:  # confirmed already (a double tap, or two ways at once)
        return False
    if every:
        match.unconfirmed = False
    return True


def entered(match: Match, seat: int, account, entry: Action) -> None:
    """The seat's secret entry `entry` was just made by this request's account: if it is the seat's player's
    own account, the player took part, for as long as no secret entry is taken back (an undone entry, this one
    or another seat's, that a new step replaced withdraws it: services._withdraw_confirmations)."""
    if match.unconfirmed and seat_of(match, account) == seat:
        _confirm(match, seat, account, Confirmation.SEATED, entry)


def seat_of(match: Match, account) -> int | None:
    """The seat whose player is this account, if the player was the account's when the match was set up
    (models.players_of: its own name from its sign-up, a name an organiser gave it in the club from then on).
    Anyone may sign up as a player with no account, so a name taken since speaks for no seat of it: an organiser
    confirms that player's part. Nor does an account that is two of its players, nor a name given by a side."""
    if account is None:
        return None
    if match.club_id is not None and not Membership.objects.filter(club_id=match.club_id, user=account).exists():
        # A club's battles count in its ratings by its members' word: an account outside the club speaks for none
        # of its players, as a player without an account does not (an organiser confirms their part). Round 32: a
        # member's second account, never in the club's member list, took the other seat by a join link and
        # confirmed the battle it lost by its own lock-in.
        return None
    mine = players_of(account, match.club_id)
    players = match.players()
    seats = [seat for seat, player in enumerate(players) if player.pk in mine]
    if len(seats) != 1:  # an account that is two players of one battle (its own name, a given one) is neither
        return None
    held = mine[players[seats[0]].pk]
    if held.since > match.created:
        return None
    # A name given by a side of the battle is not the word of its player: an organiser gave a regular's name to a
    # second account of hers and played it.
    if held.given_by is not None and match.sided_with(get_user_model().objects.filter(pk=held.given_by).first()):
        return None
    return seats[0]


@transaction.atomic
def confirm(*, match_id: int, seat: int, account, referee: bool, drawn: str | None = None) -> Confirmation:
    """The seat's player confirms the finished battle, or an organiser of its club confirms for them
    (marked) when the request is the club's referee in it (`access.referees`: the caller asks, since the
    phone's seat counts too). `drawn` is the result the confirming page showed (`Match.board_mark`).
    Raises Refused with why not; nothing changes then."""
    # Only the match's row is locked: PostgreSQL refuses FOR UPDATE on the nullable side of the club's
    # outer join (the write sweep found every confirmation answering 500 there).
    match = Match.objects.select_for_update(of=("self",)).select_related("club").get(pk=match_id)
    players = match.players()
    if not 0 <= seat < len(players):
        raise Refused(_("Choose a player of this battle; nothing was confirmed."), status=400)
    if match.finished is None or match.voided:
        raise Refused(_("Only a finished battle whose result stands can be confirmed; nothing was confirmed."),
                      status=409)
    if match.result_changed_since(drawn):  # reopened and played to another end since the page was drawn
        raise Refused(_("The battle's result changed since this page was drawn, so nothing was confirmed: read it "
                        "again first."), status=409)
    if account is None:
        raise Refused(_("Sign in first: a player confirms with their own account."), status=403)
    own = seat_of(match, account) == seat
    # An organiser confirms for a player only as the referee: one who plays in the battle is a side of it.
    # The caller's answer counts the phone's seat; the account is asked again here, under the match's lock.
    club_id = match.club_id
    organiser = referee and club_id is not None and not match.sided_with(account) and (
        Membership.objects.filter(club_id=club_id, user=account, role=Membership.ORGANISER).exists())
    if not own and not organiser and players[seat].pk in players_of(account, club_id):
        if club_id is not None and not Membership.objects.filter(club_id=club_id, user=account).exists():
            raise Refused(_("Your account is not a member of %(club)s, so it does not speak for %(name)s in the club's "
                            "battles: an organiser of the club confirms %(name)s's part.") % {
                "club": getattr(match.club, "name", ""), "name": players[seat].name}, status=403)
        raise Refused(_("Your account does not speak for %(name)s in this battle (it took the name after the battle "
                        "was set up, plays both its sides, or was given the name by one of its sides): an organiser "
                        "of the club confirms %(name)s's part.") % {"name": players[seat].name}, status=403)
    if not own and not organiser:
        raise Refused(_("Only %(name)s (signed in) or an organiser of the club who plays neither in this battle nor "
                        "in its tournament can confirm %(name)s's part in it.") % {"name": players[seat].name}, status=403)
    held = Confirmation.objects.filter(match=match, seat=seat).first()
    if held is not None:
        return held
    _confirm(match, seat, account, Confirmation.AFTER if own else Confirmation.ORGANISER)
    return Confirmation.objects.get(match=match, seat=seat)


def to_confirm(match: Match, account, referee: bool) -> bool:
    """Whether this account has a part of the finished, unconfirmed battle left to confirm: its own seat's (`seat_of`),
    or any seat's as the club's referee in it (`access.referees`). The battle's page offers nothing else, so the match
    page says "Confirm it" only then, and otherwise shows who the battle waits for."""
    if account is None:
        return False
    confirmed = set(match.confirmations.values_list("seat", flat=True))
    if referee:
        return len(confirmed) < len(match.players())
    seat = seat_of(match, account)
    return seat is not None and seat not in confirmed


def waiting(club_id: int, player: Player | None = None):
    """The club's finished battles that wait for a player's confirmation (of this player's, if given)."""
    found = Match.objects.filter(club_id=club_id, slug=competing_slug(), finished__isnull=False, voided__isnull=True,
                                 unconfirmed=True, rated=True)
    return found.filter(seats__player=player) if player is not None else found


def seat_lines(match: Match) -> list[dict]:
    """Each seat's player, how (or whether) they confirmed, and who gave the name when a member plays under one
    given in the club (a confirmation by that member reads as the player's own: the club sees whose gift it is)."""
    held = {c.seat: c for c in match.confirmations.select_related("by__player")}
    players = match.players()
    given = {player: (name or username) for player, name, username in Membership.objects.filter(
        club_id=match.club_id, plays_as__in=[p.pk for p in players]).values_list(
        "plays_as", "given_by__player__name", "given_by__username")} if match.club_id else {}
    return [{"seat": seat, "player": player, "confirmation": held.get(seat), "given_by": given.get(player.pk)}
            for seat, player in enumerate(players)]
