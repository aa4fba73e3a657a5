"""Clubs: a game store or a group of friends sharing play (pages in views.py).

An account starts a club and becomes its organiser; others join with an invite link or its
QR code (accounts only: a membership is what lets a phone see the club's matches, so it
must survive the phone). Organisers make and revoke links, make members organisers, remove
members and choose what the club shows to everyone (its leaderboard, its tournaments).

Decisions (where the rules of a club were open):
- Revoking a link stops new joins; members who joined with it stay (a store's link on the
  wall is replaced every month without emptying the club). An organiser removes a member.
- A club always keeps an organiser: the last one can neither leave nor be made a member.
- A name in a club's records without an account (a regular the organisers entered) is not taken by signing up
  with it, since anyone may sign up: an organiser gives it to the member (`give_name`), in this club only, and
  may take it back. The club page says who gave it and when; it speaks for the player in the club's battles set
  up after that.
"""

from django.db import IntegrityError, transaction
from django.db.models import Exists, F, OuterRef, Q, Subquery
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from tracker.matches import live, names, news
from tracker.matches.compiled import compiled
from tracker.models import (
    Access,
    Club,
    ClubInvite,
    ClubRemoval,
    Entrant,
    Match,
    Membership,
    Player,
    Tournament,
)
from tracker.people import access, consent

from .devices import TableRequest
from .sharing import member_seats, qr_svg, unseat_member


def club_for(request: TableRequest, pk: int, organiser: bool = False) -> tuple[Club, str | None]:
    """The club and the viewer's role in it; 404 for a club a stranger may not see, 403 for a
    member doing an organiser's job. A club that shows something publicly may be seen by anyone."""
    club = get_object_or_404(Club, pk=pk)
    role = access.club_role(request, club)
    if role is None and not (club.public_leaderboard or club.public_tournaments):
        raise Http404(_("No such club."))
    if organiser and role != Membership.ORGANISER:
        raise access.PermissionDenied(_("Only the club's organisers can do that."))
    return club, role


LINKS_MOST = 5
"""Open invite links a club may hold (a store's link on the wall, one for a group chat, one for a new member
at the table...): its page draws each with its QR code for every organiser's visit."""


def open_invites(club: Club):
    return club.invites.filter(revoked__isnull=True, expires__gt=timezone.now())


def invites(request: TableRequest, club: Club) -> list[dict]:
    shown = []
    for invite in open_invites(club).order_by("created"):
        url = request.build_absolute_uri(reverse("club_join", args=[invite.token]))
        shown.append({"invite": invite, "url": url, "qr": qr_svg(url)})
    return shown


def takes_no_entrant_out(club: Club, organiser, member) -> bool:
    """Whether the organiser may not remove this member now: the member plays in a running tournament of the club
    (removing them leaves their open battles to no one: `leave`; they count nowhere until another organiser takes
    them over), and the organiser is no referee of it (`keeps_the_referees`): she plays, or was made an organiser
    after it began (round 18: a second account of an entrant's, made one then, removed a rival)."""
    return plays_in_running(club, member) and keeps_the_referees(club, organiser)


def seat_refusal(club: Club, organiser, member, name: str, player_id: int | None = None) -> str:
    """Why the organiser may not end the member's seats in the club's open battles ("" if she may): removing the
    member, or taking back the name that seated them (`player_id`), ends the seats they took by opening a battle
    (sharing.unseat_member), and the phone running it holds both seats again. Where she is a side of the battle (she
    runs it, plays in it, or her phone holds a seat) and the member's phone has a say, she would then ask as herself
    and agree as him on one phone, past a reveal she saw (round 24). As with a link (views.invite_revoke), a seat with
    a say is not taken back behind its back: a referee does it, or the battle ends first. Removing the member also
    leaves the open battles they set up to no one: nor that, where she is a side and the battle has begun."""
    if organiser is None or member is None or organiser.pk == member.pk:
        return ""
    for held in member_seats(club.pk, member, player_id).select_related("match"):
        match = held.match
        if _sided(match, organiser) and consent.seat_has_say(match, held):
            return _("%(name)s plays an open battle of the club against you on their own phone and has a say in it: "
                     "removing them or taking back their name would hand their seat to your side. Another organiser "
                     "does it, or the battle ends first; nothing was changed.") % {"name": name}
    if player_id is not None:  # a name taken back leaves the battles the member set up theirs
        return ""
    # Removing the member also leaves the open battles they set up to no one (`leave`): counting nowhere, and shut
    # to their phone, until a referee takes them over (round 25: an organiser who played removed the member who ran
    # the battle once his deck was revealed, and it counted nowhere, with no other organiser to take it over).
    set_up = Match.objects.filter(club_id=club.pk, owner=member, finished__isnull=True, orphaned__isnull=True)
    for match in set_up:
        if _sided(match, organiser) and (match.actions.exists() or match.proposals.exists()):
            return _("%(name)s set up an open battle of the club that you play in, and it has begun: removing them "
                     "would leave it to no one, counting nowhere, and shut them out of it. Another organiser does it, "
                     "or the battle ends first; nothing was changed.") % {"name": name}
    return ""


def _sided(match: Match, organiser) -> bool:
    """Whether the organiser is a side of the battle: she runs it, plays in it, or her account holds a seat."""
    return (match.owner_id == organiser.pk or match.sided_with(organiser)
            or match.accesses.filter(user=organiser, role=Access.PLAYER, revoked__isnull=True).exists())


class NameRefused(Exception):
    """Why a name was not given; nothing changed."""


def _playing_in_running(player_user: int, given_to: int) -> Exists:
    """The clubs (a Club row) with a running tournament the account plays in, under any name it plays as there
    (models.players_of: its own players, and the name an organiser gave it in the club)."""
    given = Membership.objects.filter(club=OuterRef(OuterRef("pk")), user_id=given_to).values("plays_as")
    return Exists(Entrant.objects.filter(tournament__club=OuterRef("pk"), tournament__finished__isnull=True).filter(
        Q(player__user_id=player_user) | Q(player__in=given)))


def _keeping_the_referees(player_user: int, given_to: int, made: int) -> Q:
    """The clubs (a Club row) where the account is no referee: it plays in a running tournament of the club, or was
    made an organiser after one began. One condition, so that every club's answer is one query; the account's id
    comes three times, once for each place it stands (a compiled read takes each value once)."""
    role_changed = Membership.objects.filter(club=OuterRef(OuterRef("pk")), user_id=made).values("role_changed")[:1]
    made_after = Tournament.objects.filter(club=OuterRef("pk"), finished__isnull=True, created__lt=Subquery(role_changed))
    return Q(_playing_in_running(player_user, given_to)) | Q(Exists(made_after))


# Built and compiled once per process (tracker/matches/compiled.py): building the conditions took ten times as long as
# running them, on every card page an organiser opens.
@compiled
def _playing(club: int, *account: int):
    return Club.objects.filter(_playing_in_running(*account), pk=club)


@compiled
def _kept(club: int, *account: int):
    return Club.objects.filter(_keeping_the_referees(*account), pk=club)


@compiled
def _refereed(account: int, *again: int):
    return Club.objects.filter(memberships__user_id=account, memberships__role=Membership.ORGANISER).exclude(
        _keeping_the_referees(*again))


def keeps_the_referees(club: Club, user) -> bool:
    """Whether the organiser is no referee while a tournament of the club runs, and so demotes and removes no other
    organiser, removes no entrant, gives and takes back no names, and enters no other organiser in a tournament
    (which would make him a side of every club battle: Match.sided_with): she plays in a running tournament of the
    club, or was made an organiser after one began (by whoever: an entrant would make a second account of hers one,
    rounds 17 and 18). Each may still step down; the others act once the tournament ends."""
    return bool(user is not None and user.pk and _kept(club.pk, *[user.pk] * 3))


def refereeing(user) -> set[int]:
    """The clubs the account organises and referees (keeps_the_referees says it does not), in one query."""
    return {club.pk for club in _refereed(*[user.pk] * 4)}


def plays_in_running(club: Club, user) -> bool:
    """Whether the account is an entrant of a tournament of the club that is running."""
    return bool(user is not None and user.pk and _playing(club.pk, *[user.pk] * 2))


def _may_give(club: Club, organiser, membership: Membership) -> None:
    if membership.user_id == organiser.pk:
        raise NameRefused(_("Another organiser gives you a name; nothing was changed."))
    if keeps_the_referees(club, organiser):
        raise NameRefused(_("While a tournament of the club runs, an organiser who plays in it, or was made an "
                            "organiser after it began, gives and takes back no names: another organiser does. "
                            "Nothing was changed."))


@transaction.atomic
def give_name(club: Club, organiser, membership: Membership, typed: str) -> Player:
    """An organiser gives a member a name from the club's records that has no account (a regular they entered):
    in this club only, the member plays as that player from now on (models.players_of; the battles set up
    before stay the organisers' to confirm). Raises NameRefused with why not.

    In this club only: a name given in a club of one's own (any account may start one and put a regular's name in
    a battle there) must not speak in the regular's own club. Giving is refereeing: an organiser who plays in a
    running tournament of the club gives no names (she could give a rival's name to an account of hers), nor
    gives one to herself."""
    membership = Membership.objects.select_for_update().get(pk=membership.pk)
    _may_give(club, organiser, membership)
    if refusal := names.player_name_refusal(typed):
        raise NameRefused(refusal)
    player = Player.named(names.player_name(typed))
    if player is None or not player.in_club_records(club):
        raise NameRefused(_("Nobody called %(name)s is in the club's battles, tournaments or collections; nothing "
                            "was changed.") % {"name": names.player_name(typed)})
    if player.user_id is not None:
        raise NameRefused(_("%(name)s is already the name of an account; nothing was changed.") % {"name": player.name})
    if (already := membership.plays_as) is not None:
        raise NameRefused(_("That member already plays as %(name)s in the club: take that name back first. Nothing "
                            "was changed.") % {"name": already.name})
    taken = NameRefused(_("%(name)s is already given to another member; take it back there first. Nothing was "
                          "changed.") % {"name": player.name})
    if club.memberships.filter(plays_as=player).exists():
        raise taken
    membership.plays_as, membership.given_by, membership.given_at = player, organiser, timezone.now()
    try:
        with transaction.atomic():
            membership.save(update_fields=["plays_as", "given_by", "given_at"])
    except IntegrityError:  # given to another member at the same moment
        raise taken from None
    return player


@transaction.atomic
def take_name_back(club: Club, organiser, membership: Membership) -> Player:
    """An organiser takes back a name given to a member (given wrongly, or to the wrong person); raises
    NameRefused when there is none, or when she may not give names."""
    membership = Membership.objects.select_for_update(of=("self",)).select_related("plays_as").get(pk=membership.pk)
    _may_give(club, organiser, membership)
    if membership.plays_as is None:
        raise NameRefused(_("That member plays under no given name; nothing was changed."))
    player = membership.plays_as
    if refusal := seat_refusal(club, organiser, membership.user, player.name, player.pk):
        raise NameRefused(refusal)
    membership.plays_as, membership.given_by, membership.given_at = None, None, None
    membership.save(update_fields=["plays_as", "given_by", "given_at"])
    unseat_member(club.pk, membership.user, player.pk)  # the seats the name gave in open battles end with it
    return player


def names_without_account(club: Club, most: int = 300) -> list[str]:
    """Names in the club's records that no account has nor a member was given (the ones an organiser may give),
    the newest first."""
    given = club.memberships.filter(plays_as__isnull=False).values("plays_as")
    return list(Player.objects.filter(Player.in_records_of(club), user__isnull=True).exclude(pk__in=given).order_by("-created")
                .values_list("name", flat=True).distinct()[:most])


def remove(membership: Membership, organiser) -> None:
    """An organiser ends a membership: as leaving does, and kept (`ClubRemoval`), so that no link of the club made
    before it lets the account back in."""
    ClubRemoval.objects.create(club_id=membership.club_id, user_id=membership.user_id, by=organiser)
    leave(membership)


def removed_since(club: Club, account, invite: ClubInvite) -> bool:
    """Whether an organiser removed `account` from the club after `invite` was made: that link does not let it in."""
    return ClubRemoval.objects.filter(club=club, user=account, at__gte=invite.created).exists()


def leave(membership: Membership) -> None:
    """End a membership: every hold the account had on the club's matches as a member. Its open matches in the
    club lose their owner and count nowhere (`Match.orphaned`) until an organiser takes them over
    (views.match_take_over); its finished matches keep counting, the club's alone: they lose their owner too, and
    the seats it took by opening a battle as a member go, finished battles' too. Round 32: a removed member still
    ran the battles he had set up and finished, made watch and join links to them for anyone, and once a referee
    reopened one played it on from outside the club, counting in its ratings. Reopened, such a match waits for an
    organiser to take it over (`Match.left_open`).

    The membership's row is held first: a club match the account makes at the same moment (access.member_now,
    asked under that row) is then made before, and orphaned here, or refused once the membership is gone."""
    list(Membership.objects.select_for_update().filter(pk=membership.pk).values_list("pk", flat=True))
    owned = Match.objects.filter(club=membership.club_id, owner=membership.user_id)
    open_matches = owned.filter(finished__isnull=True)
    changed = list(open_matches.values_list("pk", flat=True))
    finished = list(owned.filter(finished__isnull=False).values_list("pk", flat=True))
    unseat_member(membership.club_id, membership.user)  # seats taken as a member, in battles still open
    seated = Access.objects.filter(user=membership.user_id, invite__isnull=True, role=Access.PLAYER,
                                   revoked__isnull=True, match__club_id=membership.club_id)  # finished battles'
    held = list(seated.values_list("match_id", "seat"))
    seated.update(revoked=timezone.now())
    for match_id, seat in held:  # a request (to reopen the battle) waiting on that seat lapses with it
        consent.lapse_with_seats(match_id, [seat] if seat is not None else [])
    # The phone that set up its matches is nobody's now: the requests its seats asked, or wait for, lapse.
    lapsed = {match_id: consent.lapse_with_seats(match_id) for match_id in [*changed, *finished]}
    finished += [match_id for match_id, _seat in held]
    membership.delete()
    # The account saw the club's matches as a member: its phones' open streams of them are told to ask again.
    watched = list(Match.objects.filter(club=membership.club_id, finished__isnull=True).values_list("pk", flat=True))
    open_matches.update(owner=None, owner_device="", orphaned=timezone.now(), version=F("version") + 1)
    owned.update(owner=None, owner_device="", version=F("version") + 1)  # the finished ones left: counting on
    for match_id in sorted({*changed, *watched, *finished}):
        live.changed(match_id, access_changed=True)
    for match_id in changed:  # the open matches it owned: the news of their version moved on above
        news.tell(match_id, news.UNOWNED, news.named(membership.user), lapsed=lapsed[match_id])


def lock_organisers(club: Club) -> None:
    """Hold the club's organisers' memberships until the transaction ends (PostgreSQL; SQLite's transactions hold
    the whole database from their start), so a change that must leave the club an organiser counts them as they
    stand."""
    list(club.memberships.select_for_update().filter(role=Membership.ORGANISER).values_list("pk", flat=True))


def organisers_left(club: Club, without: Membership) -> int:
    return club.memberships.filter(role=Membership.ORGANISER).exclude(pk=without.pk).count()
