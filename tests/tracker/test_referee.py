"""A club's organiser referees the club's matches they play no part in, and only those (access.Viewer.referee).

Every power that decides a club match without its sides' agreement is tried by a referee (another organiser of
the club), by an organiser who plays in the match on their own phone against a seated phone, by one whose
account's player is in the match though their phone is only watching, and by one entered in the tournament the
match is a battle of. The referee's takes effect; the playing
organiser's changes nothing. (An organiser who played once revoked the other phone's seat at once, took back a
revealed deck on the phone that then held both seats, and confirmed the other side's part as an organiser.)
"""

import pytest
from django.test import Client
from django.urls import reverse

from tracker.matches import services
from tracker.models import Access, Confirmation, Entrant, Match, Membership, Pairing, Player, Tournament
from tracker.people import clubs

from .helpers import (
    BEN_DECK,
    WINNING_DECK,
    club_account,
    join,
    lock,
    make_invite,
    play_out,
    seated_phone,
    state_of,
)

pytestmark = pytest.mark.django_db


def club_battle(club, olga: Client, owner: Client, *, hot_seat: bool = False,
                name: str = "Olga") -> tuple[Match, Client | None]:
    """Olga (her account's player, or a table name) against Ben, in the club, run on the owner's phone; Ben on his
    own phone (seated, and he has locked in since: his phone has a say) unless it is hot-seat."""
    Player.objects.create(name="Olga", user=olga.user)
    match = services.match_create(slug="card-crush", player_names=[name, "Ben"], config={}, club=club,
                                  owner=owner.user)
    ben = None if hot_seat else seated_phone(owner, match, 1)
    lock(match, 1, BEN_DECK)
    return match, ben


def finished(match: Match) -> Match:
    """Ben wins: Olga's deck is the losing one."""
    lock(match, 0, ["Shade Rat", "Flame Knight", "Stone Golem", "Sky Lancer", "Frost Wisp"])
    return play_out(match)


def revoke_bens_seat(match, actor, ben):
    invite = Access.objects.get(match=match, role=Access.PLAYER, seat=1).invite
    actor.post(reverse("invite_revoke", args=[match.pk, invite.pk]))
    return ben.get(match.get_absolute_url()).status_code == 403


def void(match, actor, ben):
    actor.post(reverse("match_void", args=[finished(match).pk]), {"reason": "marked cards"})
    return Match.objects.get(pk=match.pk).voided is not None


def unrate(match, actor, ben):
    actor.post(reverse("battle_rating", args=[finished(match).pk]), {"rated": "0"})
    return not Match.objects.get(pk=match.pk).rated


def confirm_for_ben(match, actor, ben):
    actor.post(reverse("battle_confirm", args=[finished(match).pk]), {"seat": 1})
    return Confirmation.objects.filter(match=match, seat=1).exists()


def reopen(match, actor, ben):
    finished(match)  # back one round: no entry is hidden again, the result alone is taken back
    actor.post(reverse("match_goto", args=[match.pk]), {"step": match.head - 1, "seq": match.head, "confirm": "reopen"})
    return Match.objects.get(pk=match.pk).finished is None


def undo_past_the_reveal(match, actor, ben):
    lock(match, 0, WINNING_DECK)
    match.refresh_from_db()
    actor.post(reverse("match_goto", args=[match.pk]), {"step": 0, "seq": match.head})
    return Match.objects.get(pk=match.pk).head == 0


def take_over(match, actor, ben):
    clubs.leave(Membership.objects.get(club=match.club, user=match.owner))
    actor.post(reverse("match_take_over", args=[match.pk]))
    return Match.objects.get(pk=match.pk).orphaned is None


POWERS = [revoke_bens_seat, void, unrate, confirm_for_ben, reopen, undo_past_the_reveal, take_over]
HOT_SEAT = {reopen}  # on one phone nobody else would agree; with Ben's phone the request waits for him


TABLE_NAME = "organiser playing on their phone under a table name"
ENTRANT = "organiser entered in the battle's tournament"


ENTRANT_BESIDE = "organiser entered in a running tournament of the club"


def entered(club, match: Match, actor: Client, battle: bool = True) -> None:
    """The match is a battle of a tournament the actor is an entrant of, though not of this battle: its result
    moves their standing (an organiser who was an entrant decided her rivals' battles, and so the winner). Or
    (`battle` False) a club battle outside it while it runs: the club's ratings break the tournament's ties, and
    each is replayed through every battle (she confirmed and voided a rival's club battles until he sank below
    her, then unrated one of two others to move him)."""
    cup = Tournament.objects.create(name="Cup", club=club)
    olga, ben, quin = (Entrant.objects.create(tournament=cup, player=services.player_named(name))
                       for name in ("Olga", "Ben", "Quin"))
    Player.objects.filter(name="Quin").update(user=actor.user)
    Pairing.objects.create(tournament=cup, round=1, table=1, first=olga, second=ben, match=match if battle else None)
    Pairing.objects.create(tournament=cup, round=1, table=2, first=quin)


# Under a table name on one phone (hot-seat, or the table a member runs), nothing says she plays: she runs it.
TRIES = [(power, who) for who in ("referee", "organiser playing on their phone", "organiser playing, watching", TABLE_NAME,
                                  ENTRANT, ENTRANT_BESIDE)
         for power in POWERS if not (who == TABLE_NAME and power in HOT_SEAT | {take_over})]


@pytest.mark.parametrize(("power", "who"), TRIES, ids=[f"{who}-{power.__name__}" for power, who in TRIES])
def test_only_an_organiser_who_does_not_play_referees(club, catalog, power, who):
    olga = club_account("olga", club, Membership.MEMBER if who == "referee" else Membership.ORGANISER)
    # Olga runs the table on her own phone; else (and for a match its owner left) a member does.
    runs = (olga if who not in ("organiser playing, watching", ENTRANT, ENTRANT_BESIDE) and power is not take_over
            else club_account("mo", club))
    match, ben = club_battle(club, olga, runs, hot_seat=power in HOT_SEAT, name="Oz" if who == TABLE_NAME else "Olga")
    if who == "organiser playing on their phone" and runs is not olga:
        join(olga, make_invite(runs, match, "seat", 0))  # her seat on her own phone
    if who in ("referee", ENTRANT, ENTRANT_BESIDE):
        actor = club_account("ref", club, Membership.ORGANISER)
        if who != "referee":
            entered(club, match, actor, battle=who == ENTRANT)
    elif who == "organiser playing, watching":
        actor = Client()  # her account on another phone: a club member watching, her player one of the match's
        actor.force_login(olga.user)
    else:
        actor = olga
    before = state_of(match)
    took = power(Match.objects.get(pk=match.pk), actor, ben)
    assert took == (who == "referee")
    if who != "referee" and power in (revoke_bens_seat, undo_past_the_reveal):
        assert state_of(match)[4] == before[4], "Ben's seat stands"


def test_who_keeps_the_referees_is_one_rule_for_one_club_and_for_all(club):
    """clubs.keeps_the_referees (one club) and clubs.refereeing (every club an organiser referees, one query, the
    catalog's rule) decide alike: an organiser playing in a running tournament under her own player or under the name
    an organiser gave her in the club (not one given in another club), or made an organiser after it began, referees
    nothing there; one whose tournament ended, or made before it began and not playing, referees."""
    from django.utils import timezone

    from tracker.models import Club

    other = Club.objects.create(name="Other Club")
    cases = {}
    for name in ("own", "given", "given elsewhere", "made after", "made before", "ended"):
        account = club_account(name.replace(" ", "-"), club, Membership.ORGANISER).user
        Membership.objects.create(club=other, user=account)
        here = Club.objects.create(name=f"Club {name}")
        membership = Membership.objects.create(club=here, user=account, role=Membership.ORGANISER)
        tournament = Tournament.objects.create(name="Cup", club=here, finished=timezone.now() if name == "ended" else None)
        player = Player.objects.create(name=f"P {name}", user=account if name in ("own", "ended") else None)
        if name != "made after" and name != "made before":
            Entrant.objects.create(tournament=tournament, player=player)
        if name == "given":
            Membership.objects.filter(pk=membership.pk).update(plays_as=player, given_at=timezone.now())
        if name == "given elsewhere":
            Membership.objects.filter(club=other, user=account).update(plays_as=player, given_at=timezone.now())
        if name == "made after":
            Membership.objects.filter(pk=membership.pk).update(role_changed=timezone.now())
        if name == "made before":
            Membership.objects.filter(pk=membership.pk).update(role_changed=tournament.created - timezone.timedelta(1))
        cases[name] = (here, account)
    keeps = {name: clubs.keeps_the_referees(here, account) for name, (here, account) in cases.items()}
    assert keeps == {"own": True, "given": True, "given elsewhere": False, "made after": True, "made before": False,
                     "ended": False}
    assert {name: here.pk not in clubs.refereeing(account) for name, (here, account) in cases.items()} == keeps
