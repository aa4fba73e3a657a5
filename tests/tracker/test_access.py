"""Who may see and do what in a match, view by view, persona by persona.

Cast, each a phone of its own (a separate test client, so a separate `tk_device` cookie):
- owner: the phone that started the battle "Ana vs Ben" through the web, signed in as "ana".
- owner2: a second phone signed in to the same account: also the owner.
- player: a phone that took Ben's seat (seat 1) through a join link.
- spectator: a phone that joined through a watch link.
- outsider: a phone with no link; a private match must not exist for it (404, never 403).

The owner's phone still enters Ana's deck (seat 0) but no longer Ben's: Ben's own phone holds
that seat, so Ana's seat is the host's own and needs no pass screen.
"""

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tracker.matches import services
from tracker.models import Access, Action, Invite, Match, Proposal

from .helpers import (
    ANA_DECK,
    BEN_DECK,
    PASSWORD,
    device_of,
    entry_data,
    join_url,
    lock,
    lock_both,
    make_invite,
    phone_like,
    play_out,
    seated_phone,
    snapshot,
    start_battle,
    state_of,
)
from .helpers import page_text as text

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

PERSONAS = ["owner", "owner2", "player", "spectator", "outsider"]
SEEING = ["owner", "owner2", "player", "spectator"]


# The cast made once for the module (tests/tracker/conftest.py: cast_for_the_module), every test in a savepoint
# of it with phones of its own; the tests of the owner's phone alone meet the battle too.
@pytest.fixture
def cast(cast_for_the_module) -> dict[str, Client]:
    return {persona: phone_like(phone) for persona, phone in cast_for_the_module[0].items()}


@pytest.fixture
def battle(cast_for_the_module) -> Match:
    return Match.objects.get(pk=cast_for_the_module[1])


@pytest.fixture
def owner(cast) -> Client:
    return cast["owner"]


def as_(cast: dict, persona: str) -> Client:
    return cast[persona]


# ---------------------------------------------------------------- the views, as (method, url, data) builders

VIEWS_GET = {
    "detail": lambda m: reverse("match_detail", args=[m.pk]),
    "poll": lambda m: reverse("match_poll", args=[m.pk]),
    "log": lambda m: reverse("match_log", args=[m.pk]),
    "replay": lambda m: reverse("match_replay", args=[m.pk]),
    "export-json": lambda m: reverse("match_export_json", args=[m.pk]),
    "export-txt": lambda m: reverse("match_export_text", args=[m.pk]),
}


def act_post(match: Match) -> tuple[str, dict]:
    match.refresh_from_db()
    return reverse("match_act", args=[match.pk]), {"seq": match.head, "action": "play_round"}


def goto_post(match: Match) -> tuple[str, dict]:
    match.refresh_from_db()
    return reverse("match_goto", args=[match.pk]), {"seq": match.head, "step": max(match.head - 1, 0)}


def invite_post(match: Match) -> tuple[str, dict]:
    return reverse("invite_new", args=[match.pk]), {"kind": "watch"}


def revoke_post(match: Match) -> tuple[str, dict]:
    invite = Invite.objects.filter(match=match, revoked__isnull=True).order_by("pk").first()
    return reverse("invite_revoke", args=[match.pk, invite.pk]), {}


def entry_post(seat: int):
    def build(match: Match) -> tuple[str, dict]:
        names = ANA_DECK if seat == 0 else BEN_DECK
        return reverse("match_entry", args=[match.pk, seat]), entry_data(match, seat, names)

    return build


POSTS = {
    "act": act_post,
    "goto": goto_post,
    "invite-new": invite_post,
    "invite-revoke": revoke_post,
    "entry-seat-0": entry_post(0),
    "entry-seat-1": entry_post(1),
}


# ---------------------------------------------------------------- outsiders: the match does not exist


@pytest.mark.parametrize("view", VIEWS_GET)
def test_outsider_gets_404_not_403_on_every_page_of_a_private_match(cast, battle, view):
    locked = lock_both(battle)
    play_out(locked)  # finished: the JSON export would be allowed to anyone who may see the match
    response = cast["outsider"].get(VIEWS_GET[view](battle))
    assert response.status_code == 404
    page = re.sub(r'(csrftoken|csrfmiddlewaretoken)[^>]*>', "", text(response))  # random tokens may spell "Ana"
    assert "Ana" not in page and "Ben" not in page


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("view", ["match_pass", "match_entry"])
def test_outsider_gets_404_on_the_secret_entry_pages(cast, battle, view, seat):
    assert cast["outsider"].get(reverse(view, args=[battle.pk, seat])).status_code == 404


@pytest.mark.parametrize("post", POSTS)
def test_outsider_gets_404_on_every_post_and_nothing_changes(cast, battle, post):
    if post == "act" or post == "goto":
        lock_both(battle)
    make_invite(cast["owner"], battle, "watch")
    url, data = POSTS[post](battle)
    before = state_of(battle)
    response = cast["outsider"].post(url, data)
    assert response.status_code == 404
    assert state_of(battle) == before


def test_a_guessed_match_id_looks_the_same_as_a_missing_one(cast, battle):
    missing = cast["outsider"].get(reverse("match_detail", args=[battle.pk + 1000]))
    private = cast["outsider"].get(reverse("match_detail", args=[battle.pk]))
    assert missing.status_code == private.status_code == 404
    without_token = lambda response: re.sub(r'"x-csrftoken": "[^"]*"', "", text(response))  # noqa: E731
    assert without_token(missing) == without_token(private)


# ---------------------------------------------------------------- everyone with a link can look


@pytest.mark.parametrize("persona", SEEING)
@pytest.mark.parametrize("view", ["detail", "poll", "log", "replay", "export-txt"])
def test_everyone_with_a_link_can_view_the_match(cast, battle, persona, view):
    response = as_(cast, persona).get(VIEWS_GET[view](battle))
    assert response.status_code == 200


@pytest.mark.parametrize("persona", SEEING)
def test_everyone_with_a_link_can_export_the_finished_match_as_json(cast, battle, persona):
    play_out(lock_both(battle))
    response = as_(cast, persona).get(VIEWS_GET["export-json"](battle))
    assert response.status_code == 200
    assert response.json()["players"]


@pytest.mark.parametrize("persona", SEEING)
def test_json_export_waits_for_the_reveal_for_everyone(cast, battle, persona):
    lock(battle, 0, ANA_DECK)
    response = as_(cast, persona).get(VIEWS_GET["export-json"](battle))
    assert response.status_code == 302
    assert response.url == reverse("match_log", args=[battle.pk])


def test_each_persona_is_told_who_they_are_on_the_match_page(cast, battle):
    assert "◉ You play as Ben on this phone." in text(cast["player"].get(battle.get_absolute_url()))
    watching = text(cast["spectator"].get(battle.get_absolute_url()))
    assert "◎ You are watching; this page follows the match by itself." in watching
    owner_page = text(cast["owner"].get(battle.get_absolute_url()))
    assert "You are watching" not in owner_page and "You play as" not in owner_page


# ---------------------------------------------------------------- spectators watch and never act


@pytest.mark.parametrize("post", POSTS)
def test_spectator_gets_403_on_every_post_and_nothing_changes(cast, battle, post):
    if post == "act" or post == "goto":
        lock_both(battle)
    make_invite(cast["owner"], battle, "watch")
    url, data = POSTS[post](battle)
    before = state_of(battle)
    response = cast["spectator"].post(url, data)
    assert response.status_code == 403
    assert "Nothing was changed." in text(response)
    assert state_of(battle) == before


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("view", ["match_pass", "match_entry"])
def test_spectator_gets_403_on_the_secret_entry_pages(cast, battle, view, seat):
    response = cast["spectator"].get(reverse(view, args=[battle.pk, seat]))
    assert response.status_code == 403
    assert "Spectators can watch this match but not play in it." in text(response)


def test_spectator_page_has_no_buttons_or_forms_that_change_the_match(cast, battle):
    lock_both(battle)
    html = text(cast["spectator"].get(battle.get_absolute_url()))
    for form_target in ("match_act", "match_goto", "invite_new"):
        assert reverse(form_target, args=[battle.pk]) not in html
    assert "Reveal round 1" not in html and "Undo last step" not in html
    assert "Other phones: join or watch" not in html


def test_spectator_page_offers_no_entry_links_during_lock_in(cast, battle):
    html = text(cast["spectator"].get(battle.get_absolute_url()))
    assert "Pass the phone" not in html and "Lock in your deck</a>" not in html
    assert reverse("match_entry", args=[battle.pk, 0]) not in html
    assert reverse("match_pass", args=[battle.pk, 0]) not in html


# ---------------------------------------------------------------- the seated player: only their own seat


def test_seated_player_enters_their_own_deck_without_passing_the_phone(cast, battle):
    html = text(cast["player"].get(battle.get_absolute_url()))
    assert "Lock in your deck</a>" in html
    assert reverse("match_entry", args=[battle.pk, 1]) in html
    assert reverse("match_pass", args=[battle.pk, 1]) not in html
    assert cast["player"].get(reverse("match_entry", args=[battle.pk, 1])).status_code == 200
    url, data = entry_post(1)(battle)
    response = cast["player"].post(url, data)
    assert response.status_code == 302
    battle.refresh_from_db()
    assert battle.state["decks"][1] is not None and battle.state["decks"][0] is None


def test_seated_player_gets_no_link_for_the_other_seat(cast, battle):
    html = text(cast["player"].get(battle.get_absolute_url()))
    assert "Pass the phone to Ana" not in html
    assert reverse("match_entry", args=[battle.pk, 0]) not in html
    assert reverse("match_pass", args=[battle.pk, 0]) not in html


@pytest.mark.parametrize("view", ["match_pass", "match_entry"])
def test_seated_player_gets_403_on_the_other_seats_entry_pages(cast, battle, view):
    response = cast["player"].get(reverse(view, args=[battle.pk, 0]))
    assert response.status_code == 403
    assert "Only Ana's own phone can make this entry." in text(response)


def test_seated_player_cannot_lock_the_other_seats_deck(cast, battle):
    url, data = entry_post(0)(battle)  # a valid token for seat 0, as if copied from the owner's phone
    before = state_of(battle)
    response = cast["player"].post(url, data)
    assert response.status_code == 403
    assert state_of(battle) == before


def test_seated_player_cannot_undo_the_other_seats_lock_in_alone(cast, battle):
    # Issue 23: undoing the other seat's move is a request to that seat's phone (it was a 403).
    lock(battle, 0, ANA_DECK)
    before = snapshot(battle)
    response = cast["player"].post(reverse("match_goto", args=[battle.pk]), {"seq": 1, "step": 0})
    assert response.status_code == 302
    assert snapshot(battle) == before
    assert Proposal.objects.get(match=battle).needs == 0


def test_seated_players_undo_of_the_other_seats_step_asks_the_other_phone(cast, battle):
    # Issue 23: the owner is a seat like any other, so the button stays and asks (it was disabled).
    lock(battle, 0, ANA_DECK)  # Ana (seat 0) locks in on the owner's phone; the player holds seat 1
    html = text(cast["player"].get(battle.get_absolute_url()))
    undo = re.search(r"<button[^>]*>\s*<span aria-hidden=\"true\">↶</span>", html).group(0)
    assert "disabled" not in undo
    owner_undo = re.search(r"<button[^>]*>\s*<span aria-hidden=\"true\">↶</span>",
                           text(cast["owner"].get(battle.get_absolute_url()))).group(0)
    assert "disabled" not in owner_undo


def test_seated_player_is_not_told_the_other_player_has_a_phone_of_their_own(cast, battle):
    html = text(cast["player"].get(battle.get_absolute_url()))
    assert "Waiting for Ana" in html
    assert "Ana locks in on their own phone." not in html  # Ana enters on the owner's phone, by passing it


def test_seated_player_can_reveal_a_round_for_the_table(cast, battle):
    lock_both(battle)
    url, data = act_post(battle)
    assert cast["player"].post(url, data).status_code == 302
    battle.refresh_from_db()
    assert len(battle.state["rounds"]) == 1


@pytest.mark.parametrize("persona", ["player", "spectator", "owner2"])
def test_only_an_owner_sees_the_share_panel(cast, battle, persona):
    html = text(as_(cast, persona).get(battle.get_absolute_url()))
    expected = persona == "owner2"
    assert ("Other phones: join or watch" in html) is expected
    assert ('class="qr"' in html) is expected  # the live links' QR codes
    assert (Invite.objects.filter(match=battle).first().token in html) is expected


@pytest.mark.parametrize("post", ["invite-new", "invite-revoke"])
def test_seated_player_cannot_manage_links_or_sharing(cast, battle, post):
    make_invite(cast["owner"], battle, "watch")
    url, data = POSTS[post](battle)
    before = state_of(battle)
    response = cast["player"].post(url, data)
    assert response.status_code == 403
    assert "Only the phone that set up this match can manage its links." in text(response)
    assert state_of(battle) == before


# ---------------------------------------------------------------- a seat held by another phone


@pytest.mark.parametrize("slug, words", [("card-crush", "Lock in Ana's deck here"),
                                         ("cardmaster", "Lock in Ana's lineup here"),
                                         ("logos", "Commit Ana's card here")])
def test_the_host_enters_its_own_seat_straight_when_the_other_seat_has_its_phone(owner, slug, words):
    match = services.match_create(slug=slug, player_names=["Ana", "Ben"], config={})
    Match.objects.filter(pk=match.pk).update(owner_device=device_of(owner))
    hot_seat = text(owner.get(match.get_absolute_url()))
    assert "Pass the phone to Ana" in hot_seat and "Pass the phone to Ben" in hot_seat
    assert reverse("match_entry", args=[match.pk, 0]) not in hot_seat  # the pass screen first
    assert words not in hot_seat

    seated_phone(owner, match, 1)
    html = text(owner.get(match.get_absolute_url()))
    assert words in html and "Pass the phone" not in html
    assert f'href="{reverse("match_entry", args=[match.pk, 0])}"' in html
    assert reverse("match_pass", args=[match.pk, 0]) not in html
    assert reverse("match_entry", args=[match.pk, 1]) not in html  # Ben's phone holds his seat
    assert owner.get(reverse("match_entry", args=[match.pk, 0])).status_code == 200
    assert owner.get(reverse("match_entry", args=[match.pk, 1])).status_code == 403


def test_owners_phone_no_longer_enters_for_a_seat_another_phone_holds(cast, battle):
    html = text(cast["owner"].get(battle.get_absolute_url()))
    assert "Lock in Ana's deck here" in html  # seat 0 is still the owner's, now its only one
    assert "Pass the phone to Ben" not in html
    assert "Ben locks in on their own phone." in html
    for view in ("match_pass", "match_entry"):
        assert cast["owner"].get(reverse(view, args=[battle.pk, 1])).status_code == 403
    url, data = entry_post(1)(battle)
    before = state_of(battle)
    response = cast["owner"].post(url, data)
    assert response.status_code == 403
    assert "Only Ben's own phone can make this entry." in text(response)
    assert state_of(battle) == before


def test_owners_phone_still_enters_for_an_unclaimed_seat(cast, battle):
    url, data = entry_post(0)(battle)
    assert cast["owner"].post(url, data).status_code == 302
    battle.refresh_from_db()
    assert battle.state["decks"][0] is not None


def test_owner_enters_for_the_seat_again_once_its_link_is_revoked(cast, battle):
    invite = Access.objects.get(match=battle, seat=1).invite
    cast["owner"].post(reverse("invite_revoke", args=[battle.pk, invite.pk]))
    assert cast["owner"].get(reverse("match_pass", args=[battle.pk, 1])).status_code == 200


# ---------------------------------------------------------------- owners, on either phone


@pytest.mark.parametrize("persona", ["owner", "owner2"])
@pytest.mark.parametrize("post", ["invite-new"])
def test_owner_on_either_phone_manages_links_and_sharing(cast, battle, persona, post):
    url, data = POSTS[post](battle)
    response = as_(cast, persona).post(url, data)
    assert response.status_code == 302
    made = Invite.objects.filter(match=battle).latest("pk")
    assert response.url == battle.get_absolute_url() + f"#link-{made.pk}"  # the page opens on the new link


@pytest.mark.parametrize("persona", ["owner", "owner2"])
def test_owner_on_either_phone_revokes_a_link(cast, battle, persona):
    invite = make_invite(cast["owner"], battle, "watch")
    assert as_(cast, persona).post(reverse("invite_revoke", args=[battle.pk, invite.pk])).status_code == 302
    invite.refresh_from_db()
    assert invite.revoked is not None


@pytest.mark.parametrize("persona", ["owner", "owner2", "player"])
def test_who_plays_can_undo_and_reveal(cast, battle, persona):
    lock_both(battle)
    url, data = act_post(battle)
    assert as_(cast, persona).post(url, data).status_code == 302
    url, data = goto_post(battle)
    assert as_(cast, persona).post(url, data).status_code == 302
    battle.refresh_from_db()
    assert battle.head == 2


def test_second_phone_of_the_owner_can_also_hot_seat_enter_for_ana(cast, battle):
    assert cast["owner2"].get(reverse("match_pass", args=[battle.pk, 0])).status_code == 200
    assert cast["owner2"].get(reverse("match_pass", args=[battle.pk, 1])).status_code == 403


def test_a_second_phone_signed_out_of_the_account_loses_the_match(cast, battle):
    cast["owner2"].post(reverse("sign_out"))
    assert cast["owner2"].get(battle.get_absolute_url()).status_code == 404  # it never made the match


# ---------------------------------------------------------------- join, per persona


@pytest.mark.parametrize("persona, status", [("owner", 302), ("owner2", 302), ("player", 302),
                                             ("spectator", 200), ("outsider", 200)])
def test_join_link_for_a_free_seat_per_persona(cast, battle, persona, status):
    invite = make_invite(cast["owner"], battle, "seat", 0)
    response = as_(cast, persona).get(join_url(invite))
    assert response.status_code == status
    if status == 302:  # already part of the match: sent to it, nothing changed
        assert response.url == battle.get_absolute_url()
        assert "This phone is already part of the match." in text(as_(cast, persona).get(response.url))
    else:
        assert "Play as Ana on this phone" in text(response)


# ---------------------------------------------------------------- shared matches and table matches


def test_nobody_can_make_a_private_match_public(cast, battle):
    """Sharing with everyone is gone: a private match stays with its owner, seats and watch links."""
    before = state_of(battle)
    assert cast["owner"].post(f"/matches/{battle.pk}/share/", {"shared": "on"}).status_code == 404
    assert Client().get(battle.get_absolute_url()).status_code == 404
    assert state_of(battle) == before


def test_a_club_match_is_for_the_clubs_members_and_playable_by_nobody_new(cast, battle):
    from tracker.models import Club, Membership

    club = Club.objects.create(name="Games Night")
    Membership.objects.create(club=club, user=get_user_model().objects.get(username="ana"), role=Membership.ORGANISER)
    member_user = get_user_model().objects.create_user("mo", password=PASSWORD)
    Membership.objects.create(club=club, user=member_user, role=Membership.MEMBER)
    Match.objects.filter(pk=battle.pk).update(club=club)
    lock_both(battle)
    member = Client()
    member.force_login(member_user)
    assert member.get(battle.get_absolute_url()).status_code == 200
    assert member.get(reverse("match_poll", args=[battle.pk])).status_code == 200
    assert member.get(reverse("match_log", args=[battle.pk])).status_code == 200
    url, data = act_post(battle)
    before = state_of(battle)
    assert member.post(url, data).status_code == 403
    assert state_of(battle) == before
    Membership.objects.filter(user=member_user).delete()
    assert member.get(battle.get_absolute_url()).status_code == 404, "a member who leaves loses the club's matches"
    assert cast["spectator"].get(battle.get_absolute_url()).status_code == 200  # invited phones keep theirs


@pytest.fixture
def table_match(catalog) -> Match:
    """A battle made by a script: no owner, so it belongs to the whole table."""
    return services.match_create(slug="card-crush", player_names=["Eve", "Fay"], config={})


def test_a_table_match_is_open_to_every_phone(table_match):
    phone = Client()
    assert phone.get(table_match.get_absolute_url()).status_code == 200
    html = text(phone.get(table_match.get_absolute_url()))
    assert "Pass the phone to Eve" in html and "Pass the phone to Fay" in html
    assert "Other phones: join or watch" not in html  # nobody to invite: everyone may play it
    for seat, names in ((0, ANA_DECK), (1, BEN_DECK)):
        url = reverse("match_entry", args=[table_match.pk, seat])
        response = phone.post(url, entry_data(table_match, seat, names))
        assert response.status_code == 302
    other = Client()
    url, data = act_post(table_match)
    assert other.post(url, data).status_code == 302
    table_match.refresh_from_db()
    assert table_match.head == 3


# ---------------------------------------------------------------- lists show only what one may see


@pytest.fixture
def three_matches(cast, battle, table_match):
    """Ana vs Ben (private, the owner's), Eve vs Fay (table), Cleo vs Dan (another phone's private match)."""
    someone = Client()
    other = start_battle(someone, "Cleo", "Dan")
    return {"private": battle, "table": table_match, "other": other}


def _listed(html: str, match: Match) -> bool:
    return f'href="{match.get_absolute_url()}"' in html


@pytest.mark.parametrize("page", ["home", "match_list"])
def test_lists_show_an_outsider_only_table_matches(cast, three_matches, page):
    html = text(cast["outsider"].get(reverse(page)))
    assert _listed(html, three_matches["table"])
    assert not _listed(html, three_matches["private"]) and not _listed(html, three_matches["other"])
    assert "Ana vs Ben" not in html and "Cleo" not in html


@pytest.mark.parametrize("persona", SEEING)
@pytest.mark.parametrize("page", ["home", "match_list"])
def test_lists_show_the_private_match_to_everyone_it_was_shared_with(cast, three_matches, persona, page):
    html = text(as_(cast, persona).get(reverse(page)))
    assert _listed(html, three_matches["private"]) and _listed(html, three_matches["table"])
    assert not _listed(html, three_matches["other"]) and "Cleo" not in html


def test_match_list_filter_by_player_cannot_reveal_a_private_match(cast, three_matches):
    from tracker.models import Player

    ana = Player.objects.get(name="Ana")
    html = text(cast["outsider"].get(reverse("match_list"), {"player": ana.pk}))
    assert not _listed(html, three_matches["private"])
    assert ">Ana<" not in html and ">Cleo<" not in html, "the filter offers only players of visible matches"


def test_a_revoked_phone_loses_the_match_from_its_lists(cast, battle):
    assert _listed(text(cast["player"].get(reverse("match_list"))), battle)
    invite = Access.objects.get(match=battle, seat=1).invite
    cast["owner"].post(reverse("invite_revoke", args=[battle.pk, invite.pk]))
    assert not _listed(text(cast["player"].get(reverse("match_list"))), battle)


@pytest.mark.parametrize("persona", PERSONAS)
def test_a_match_opens_for_exactly_the_phones_whose_list_shows_it(cast, three_matches, persona):
    """The pages of one match decide from its row and its grants; the lists ask visible_to. They agree."""
    client = as_(cast, persona)
    listed = text(client.get(reverse("match_list")))
    for match in three_matches.values():
        opens = {client.get(url).status_code for url in (match.get_absolute_url(),
                                                         reverse("match_poll", args=[match.pk]))}
        assert opens == ({200} if _listed(listed, match) else {404}), (persona, match)


# ---------------------------------------------------------------- acting for the other seat in other games


@pytest.fixture
def logos_duel(owner, db) -> Match:
    """A LOGOS duel owned by the owner's phone, both round-1 cards committed (its table actions name a seat)."""
    from tracker.demo import load_catalogs
    from tracker.models import Card

    load_catalogs()  # the module's cast has them already
    duel = services.match_create(slug="logos", player_names=["Ana", "Ben"], config={},
                                 owner_device=device_of(owner))
    for seat, name in ((0, "Granite Fist"), (1, "Solar Flare")):  # both commit: resigning is open now
        duel.refresh_from_db()
        card = Card.objects.get(slug="logos", name=name).as_rules_card()
        services.match_apply_action(match_id=duel.pk, expected_seq=duel.head, action={
            "type": "commit", "seat": seat, "round": duel.state["round"], "card": card, "backup": None})
    duel.refresh_from_db()
    return duel


def test_seated_player_gets_403_for_an_action_that_names_the_other_seat(owner, logos_duel):
    ben = seated_phone(owner, logos_duel, 1)
    before = state_of(logos_duel)
    response = ben.post(reverse("match_act", args=[logos_duel.pk]),
                        {"seq": logos_duel.head, "action": "resign", "seat": "0"})
    assert response.status_code == 403
    assert "You can act only for your own seat; nothing was applied." in text(response)
    assert state_of(logos_duel) == before
    assert Action.objects.filter(match=logos_duel).count() == 2


def test_seated_player_may_take_an_action_that_names_their_own_seat(owner, logos_duel):
    ben = seated_phone(owner, logos_duel, 1)
    response = ben.post(reverse("match_act", args=[logos_duel.pk]),
                        {"seq": logos_duel.head, "action": "resign", "seat": "1"})
    assert response.status_code == 302
    logos_duel.refresh_from_db()
    assert logos_duel.finished and logos_duel.winner.name == "Ana"


@pytest.fixture
def cardmaster_playing(owner, db) -> Match:
    """A Cardmaster 3v3 owned by the owner's phone, line-ups locked: Ana (seat 0) has possession."""
    from tracker.demo import load_catalogs
    from tracker.models import Card

    load_catalogs()
    match = services.match_create(slug="cardmaster", player_names=["Ana", "Ben"], owner_device=device_of(owner),
                                  config={
        "size": 3, "who_rolls": "app", "type_names": ["Ember", "Tide", "Gale", "Stone", "Volt", "Frost", "Bloom",
                                                      "Venom", "Radiance", "Umbra"],
        "overcook_turns": 3, "undershock_turns": 3, "risen_revivable": False})
    for seat, names in enumerate((["Gale Harrier", "Storm Kite", "Volt Lancer"],
                                  ["Stonewarden", "Granite Brute", "Reef Sentinel"])):
        cards = [Card.objects.get(slug="cardmaster", name=name).as_rules_card() for name in names]
        match.refresh_from_db()
        services.match_apply_action(match_id=match.pk, action={"type": "lock_lineup", "seat": seat, "cards": cards},
                                    expected_seq=match.head)
    match.refresh_from_db()
    assert match.state["possession"] == 0
    return match


def test_seated_player_cannot_move_during_the_other_players_possession(owner, cardmaster_playing):
    ben = seated_phone(owner, cardmaster_playing, 1)
    before = state_of(cardmaster_playing)
    response = ben.post(reverse("match_act", args=[cardmaster_playing.pk]),
                        {"seq": cardmaster_playing.head, "action": "a1", "card": "A1", "target": "B1"})
    assert response.status_code == 403
    assert state_of(cardmaster_playing) == before


# ---------------------------------------------------------------- pages about a match outside tracker/matches/views.py


def test_outsider_gets_404_on_the_rating_page_of_a_private_unfinished_battle(cast, battle):
    response = cast["outsider"].get(reverse("battle_rating", args=[battle.pk]))
    assert response.status_code == 404
    assert "Ana" not in text(response)


@pytest.mark.parametrize("persona", SEEING)
def test_everyone_with_a_link_can_read_the_rating_page(cast, battle, persona):
    assert as_(cast, persona).get(reverse("battle_rating", args=[battle.pk])).status_code == 200


@pytest.mark.parametrize("persona", ["owner", "player", "spectator"])
def test_a_private_battle_counts_in_no_rating_and_nobody_can_rate_it(cast, battle, persona):
    play_out(lock_both(battle))
    response = as_(cast, persona).post(reverse("battle_rating", args=[battle.pk]), {"rated": "1"})
    assert response.status_code == 403
    page = text(as_(cast, persona).get(reverse("battle_rating", args=[battle.pk])))
    assert "Only battles played in a club are rated" in page