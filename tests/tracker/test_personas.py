"""Every write to a club match, tried by every persona: only the right people change anything.

Cast, around one rated Card Crush battle of the Friday Club ("Ana" vs "Ben"):
- owner: the club member whose account started the battle (its phone plays Ana, seat 0);
- seated: Ben's own phone, seated by a join link (no account);
- spectator: a phone with a watch link;
- member: another member of the club (sees the battle, plays no part in it);
- organiser: the club's organiser (referees: may step the log, revoke a link, void a result, mark it rated);
- stranger: organiser of another club; outsider: a new phone.

A refusal answers 403 to those who may see the match and 404 to those who may not, and
changes nothing; an allowed write changes what it says. tests/tracker/test_privacy.py does
the same for every page that reads.
"""

import pytest
from django.test import Client
from django.urls import reverse

from tracker import demo
from tracker.matches import services
from tracker.models import Club, Invite, Match, Membership, Proposal, Tournament

from .helpers import (
    ANA_DECK,
    BEN_DECK,
    club_account,
    entry_data,
    lock,
    lock_both,
    phone_like,
    play,
    play_out,
    seated_phone,
    shared_by_the_class,
    state_of,
    watching_phone,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

PERSONAS = ("owner", "seated", "spectator", "member", "organiser", "stranger", "outsider")


@pytest.fixture(scope="module")
def cast_for_the_module(django_db_setup, django_db_blocker) -> tuple[dict[str, Client], int, int]:
    """The cast made once for the module, as tests/tracker/conftest.py's catalog, club, organiser, member and
    stranger and the battle below make them: every test runs in a savepoint of it (as match_for_the_class), with
    phones of its own (phone_like). Made for each of the 70 tests, it was two thirds of the module's time.
    The phones, the battle's pk and the club's."""
    with shared_by_the_class(django_db_blocker):
        demo.load_catalogs()
        club = Club.objects.create(name="Friday Club")
        organiser, member = club_account("orga", club, Membership.ORGANISER), club_account("mem", club)
        stranger = club_account("far", Club.objects.create(name="Other Club"), Membership.ORGANISER)
        owner = club_account("starter", club)
        battle = services.match_create(slug="card-crush", player_names=["Ana", "Ben"], config={}, club=club,
                                       owner=owner.user)
        yield ({"owner": owner, "seated": seated_phone(owner, battle, 1), "spectator": watching_phone(owner, battle),
                "member": member, "organiser": organiser, "stranger": stranger, "outsider": Client()},
               battle.pk, club.pk)


@pytest.fixture
def cast(cast_for_the_module) -> dict:
    phones, battle, _club = cast_for_the_module
    return {"battle": Match.objects.get(pk=battle), **{persona: phone_like(phone) for persona, phone in phones.items()}}


@pytest.fixture
def club(cast_for_the_module) -> Club:
    return Club.objects.get(pk=cast_for_the_module[2])


@pytest.fixture
def organiser(cast) -> Client:
    return cast["organiser"]


@pytest.fixture
def member(cast) -> Client:
    return cast["member"]


@pytest.fixture
def stranger(cast) -> Client:
    return cast["stranger"]


def everything(match: Match) -> tuple:
    """What any write could change: the log, sharing, requests, the void and whether it is rated."""
    fresh = Match.objects.get(pk=match.pk)
    requests = list(Proposal.objects.filter(match=match).order_by("pk").values_list("status", flat=True))
    return state_of(match), requests, fresh.voided, fresh.rated


def _asked(cast) -> Proposal:
    """Ben's phone asks to take back the reveal (Ana's phone, the owner's, must answer)."""
    battle = lock_both(cast["battle"])
    cast["seated"].post(reverse("match_goto", args=[battle.pk]), {"seq": battle.head, "step": 1})
    return Proposal.objects.get()


# Each write: how to set the battle up, then (url, data). `allowed`: the personas whose write goes through.
WRITES = {
    "act": (lock_both, lambda m, c: (reverse("match_act", args=[m.pk]), {"seq": m.head, "action": "play_round"}),
            {"owner", "seated"}),
    "goto": (lambda m: play(lock_both(m)),
             lambda m, c: (reverse("match_goto", args=[m.pk]), {"seq": m.head, "step": m.head - 1}),
             {"owner", "seated", "organiser"}),
    "entry-seat-0": (lambda m: m, lambda m, c: (reverse("match_entry", args=[m.pk, 0]), entry_data(m, 0, ANA_DECK)),
                     {"owner"}),
    "entry-seat-1": (lambda m: m, lambda m, c: (reverse("match_entry", args=[m.pk, 1]), entry_data(m, 1, BEN_DECK)),
                     {"seated"}),
    "invite-new": (lambda m: m, lambda m, c: (reverse("invite_new", args=[m.pk]), {"kind": "watch"}), {"owner"}),
    "invite-revoke": (lambda m: m, lambda m, c: (
        reverse("invite_revoke", args=[m.pk, Invite.objects.filter(match=m).order_by("pk").first().pk]), {}),
        {"owner", "organiser"}),  # issue 23: in a club an organiser decides for a seat that still has a say
    "answer": (lambda m: m, lambda m, c: (
        reverse("proposal_answer", args=[m.pk, _asked(c).pk]), {"answer": "agree"}), {"owner"}),
    "withdraw": (lambda m: m, lambda m, c: (
        reverse("proposal_withdraw", args=[m.pk, _asked(c).pk]), {}), {"seated"}),
    "void": (lambda m: play_out(lock_both(m)),
             lambda m, c: (reverse("match_void", args=[m.pk]), {"reason": "marked cards"}), {"organiser"}),
    "unrate": (lambda m: play_out(lock_both(m)),
               lambda m, c: (reverse("battle_rating", args=[m.pk]), {"rated": "0"}), {"organiser"}),
}


@pytest.mark.parametrize("persona", PERSONAS)
@pytest.mark.parametrize("write", WRITES)
def test_every_write_to_a_club_battle_per_persona(cast, write, persona):
    setup, build, allowed = WRITES[write]
    battle = setup(cast["battle"])
    battle.refresh_from_db()
    url, data = build(battle, cast)
    before = everything(battle)
    response = cast[persona].post(url, data)
    if persona in allowed:
        assert response.status_code == 302, (write, persona, response.status_code)
        assert everything(battle) != before, f"{persona}'s {write} changed nothing"
        return
    assert everything(battle) == before, f"the {persona} changed the battle with {write}"
    if persona in ("stranger", "outsider"):
        assert response.status_code == 404, (write, persona)
    elif persona in ("owner", "seated") and write in ("answer", "withdraw"):
        assert response.status_code == 302, "a player of the match is told on the match page why not"
    else:
        assert response.status_code == 403, (write, persona, response.status_code)


def test_the_owners_phone_makes_no_entry_for_the_seat_bens_phone_holds(cast):
    battle = lock(cast["battle"], 0, ANA_DECK)
    before = everything(battle)
    response = cast["owner"].post(reverse("match_entry", args=[battle.pk, 1]), entry_data(battle, 1, BEN_DECK))
    assert response.status_code == 403 and everything(battle) == before


@pytest.fixture
def ended_cup(catalog, club, organiser) -> Tournament:
    """The demo's two-round tournament, ended, in the Friday Club."""
    return demo.play_tournament(club, organiser.user)


@pytest.mark.parametrize("persona", ["member", "stranger", "outsider", "organiser"])
def test_only_an_organiser_reopens_an_ended_tournament(ended_cup, club, organiser, member, stranger, persona):
    club.public_tournaments = True  # strangers may read it, so they get the reason, not a 404
    club.save()
    client = {"member": member, "stranger": stranger, "outsider": Client(), "organiser": organiser}[persona]
    response = client.post(reverse("tournament_reopen", args=[ended_cup.pk]), {"round": 2})
    ended_cup.refresh_from_db()
    if persona == "organiser":
        assert response.status_code == 302 and ended_cup.finished is None
    else:
        assert response.status_code == 403 and ended_cup.finished is not None


def test_only_the_showdowns_players_ask_the_ai_to_move(db):
    """The AI's possession after an undo: its owner's phone asks for it; a watcher or a stranger cannot."""
    from .test_cardmaster_showdown import act, first_attack, form_data, new_showdown
    from .test_cardmaster_showdown import lock as lock_lineup

    demo.load_catalogs()
    owner = Client()
    showdown = lock_lineup(owner, new_showdown(owner))
    while not showdown.actions.filter(payload__has_key="ai").exists():
        act(owner, showdown, **form_data(first_attack(showdown)))
        showdown.refresh_from_db()
    first_ai = showdown.actions.filter(payload__has_key="ai").order_by("seq").first()
    services.match_goto(match_id=showdown.pk, step=first_ai.seq - 1, expected_seq=showdown.head)
    showdown.refresh_from_db()
    url, data = reverse("cardmaster_ai_turn", args=[showdown.pk]), {"seq": showdown.head}
    watcher = watching_phone(owner, showdown)
    before = everything(showdown)
    assert watcher.post(url, data).status_code == 403
    assert club_account("stranger").post(url, data).status_code == 404  # (the module's cast has a "far")
    assert Client().post(url, data).status_code == 404
    assert everything(showdown) == before
    assert owner.post(url, data).status_code == 302 and everything(showdown) != before
