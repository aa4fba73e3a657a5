"""Issue 24: a rated battle counts when its players took part (tracker/competition/confirmations.py).

Cast, in the club "Thursday Club" (each a phone of its own, signed in): olga organises; ana, ben
and dev are plain members whose accounts play as the players Ana, Ben and Dev.
"""

import html
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tracker.competition import confirmations, ratings, tournaments
from tracker.matches import live
from tracker.models import Access, Club, Confirmation, Match, Membership, Player

from .helpers import (
    ANA_DECK,
    BEN_DECK,
    LOSING_DECK,
    PASSWORD,
    WINNING_DECK,
    club_account,
    entry_data,
    entry_url,
    join,
    lock_both,
    make_invite,
    play_out,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


def text(response) -> str:
    return html.unescape(response.content.decode())


@pytest.fixture
def club(catalog) -> Club:
    return Club.objects.create(name="Thursday Club", public_leaderboard=True)


def member_playing_as(name: str, club: Club, role: str = Membership.MEMBER) -> Client:
    phone = club_account(name.lower(), club, role)
    Player.objects.create(name=name, user=phone.user)
    return phone


@pytest.fixture
def olga(club) -> Client:
    return club_account("olga", club, Membership.ORGANISER)


@pytest.fixture
def ana(club) -> Client:
    return member_playing_as("Ana", club)


@pytest.fixture
def ben(club) -> Client:
    return member_playing_as("Ben", club)


@pytest.fixture
def dev(club) -> Client:
    return member_playing_as("Dev", club)


def start(phone: Client, club: Club, *names: str) -> Match:
    before = set(Match.objects.values_list("pk", flat=True))
    data = {f"player_{seat}": name for seat, name in enumerate(names)}
    data.update({"club": club.pk, "config-resolution": "battle-score"})
    response = phone.post(reverse("match_new", args=["card-crush"]), data)
    assert response.status_code == 302, text(response)
    return Match.objects.exclude(pk__in=before).get()


def enter(phone: Client, match: Match, seat: int, deck: list[str]) -> None:
    response = phone.post(entry_url(match, seat), entry_data(match, seat, deck))
    assert response.status_code == 302, text(response)


def reveal_all(phone: Client, match: Match) -> Match:
    match.refresh_from_db()
    while match.finished is None:
        response = phone.post(reverse("match_act", args=[match.pk]), {"seq": match.head, "action": "play_round"})
        assert response.status_code == 302, text(response)
        match.refresh_from_db()
    return match


def leaderboard(phone: Client, club: Club) -> str:
    return text(phone.get(reverse("leaderboard", args=[club.pk])))


def confirm(phone: Client, match: Match, seat: int):
    return phone.post(reverse("battle_confirm", args=[match.pk]), {"seat": seat})


def counted_ids(club: Club) -> set[int]:
    return {change.battle for change in ratings.history(club) if change.battle}


# ---------------------------------------------------------------- unconfirmed battles count nowhere


def test_the_dev_moves_ana_and_ben_loop_moves_no_rating(club, dev, ana, ben):
    """Dev starts "Ana vs Ben" on his own phone, locks both decks himself and reveals to the end, again and again."""
    for _ in range(3):
        match = start(dev, club, "Ana", "Ben")
        enter(dev, match, 0, ANA_DECK)
        enter(dev, match, 1, BEN_DECK)
        match = reveal_all(dev, match)
        assert match.winner is not None and match.unconfirmed
    assert ratings.history(club) == []
    board = leaderboard(Client(), club)
    assert "Ana" not in board and "Ben" not in board
    assert "3 battles wait for their players' confirmation and count nowhere until then." in board
    assert not Match.objects.counted().filter(club=club).exists()  # statistics and standings start from counted()
    # Dev cannot confirm for them either.
    assert confirm(dev, match, 0).status_code == 403 and match.confirmations.count() == 0


def test_an_unconfirmed_battle_says_so_on_every_page(club, dev, ana, olga):
    match = start(dev, club, "Ana", "Ben")
    enter(dev, match, 0, ANA_DECK)
    enter(dev, match, 1, BEN_DECK)
    reveal_all(dev, match)
    page = text(dev.get(match.get_absolute_url()))
    assert "Unconfirmed: this battle counts in no rating" in page
    # ...and beside the buttons the last tap leaves in view, not only in the header a screen up.
    controls = page[page.index('<section class="controls"'):page.index("</section>", page.index('<section class="controls"'))]
    # Dev set the battle up and plays in it neither: it waits for Ana and Ben, whose own pages say "Confirm it".
    assert reverse("battle_rating", args=[match.pk]) in controls and "Who has yet to confirm" in controls
    assert "Confirm it" not in page
    own = text(ana.get(match.get_absolute_url()))
    controls = own[own.index('<section class="controls"'):own.index("</section>", own.index('<section class="controls"'))]
    assert reverse("battle_rating", args=[match.pk]) in controls and "Confirm it" in controls
    assert "◔ unconfirmed" in text(dev.get(reverse("match_list")))
    page = text(ana.get(reverse("battle_rating", args=[match.pk])))
    assert "◔ Unconfirmed" in page and "I played this battle" in page
    ana_player = Player.objects.get(name="Ana")
    history = ana.get(reverse("player_rating", args=[club.pk, ana_player.pk]))
    assert history.status_code == 200
    assert "1 more battle waits for its players' confirmation" in text(history)
    assert "waits" in leaderboard(ana, club) and f"Battle #{match.pk}" in leaderboard(ana, club)
    assert f"Battle #{match.pk}" not in leaderboard(Client(), club)  # outsiders learn only how many
    # Ana's part confirmed, her page too shows who it waits for; both confirmed, every page leads on to its rating.
    confirm(ana, match, 0)
    assert "Who has yet to confirm" in text(ana.get(match.get_absolute_url()))
    confirm(olga, match, 1)
    for phone in (ana, dev):
        page = text(phone.get(match.get_absolute_url()))
        controls = page[page.index('<section class="controls"'):page.index("</section>",
                                                                            page.index('<section class="controls"'))]
        assert "Unconfirmed" not in page and reverse("battle_rating", args=[match.pk]) in controls and "Rating" in controls


def test_an_outsider_finds_no_player_through_battles_that_wait(club, dev, ana, olga):
    """A public leaderboard hides which battles wait: a player's page does not name who played them."""
    match = start(dev, club, "Ana", "Ben")
    enter(dev, match, 0, ANA_DECK)
    enter(dev, match, 1, BEN_DECK)
    reveal_all(dev, match)
    ana_player = Player.objects.get(name="Ana")
    url = reverse("player_rating", args=[club.pk, ana_player.pk])
    assert Client().get(url).status_code == 404
    assert "waits" in text(ana.get(url))  # a member still sees it
    confirm(ana, match, 0)
    confirm(olga, match, 1)
    assert counted_ids(club) == {match.pk}
    other = start(dev, club, "Ana", "Dev")
    enter(dev, other, 0, ANA_DECK)
    enter(dev, other, 1, BEN_DECK)
    reveal_all(dev, other)  # Ana now has a counted battle and one that waits
    page = Client().get(url)
    assert page.status_code == 200 and "Ana" in text(page)
    assert "waits" not in text(page)  # how many of hers wait is for members


# ---------------------------------------------------------------- confirming


def test_the_player_confirms_and_an_organiser_confirms_on_a_players_behalf_marked(club, dev, ana, olga):
    match = start(dev, club, "Ana", "Ben")  # Ben has no account: only an organiser can confirm for him
    enter(dev, match, 0, ANA_DECK)
    enter(dev, match, 1, BEN_DECK)
    reveal_all(dev, match)
    assert confirm(ana, match, 1).status_code == 403  # Ana answers for herself only
    assert confirm(ana, match, 0).status_code == 302
    match.refresh_from_db()
    assert match.unconfirmed and counted_ids(club) == set()
    assert live.read_change(match.pk).said["en"] == "Ana confirmed the result."  # the other phones are told who
    assert confirm(olga, match, 1).status_code == 302
    match.refresh_from_db()
    assert not match.unconfirmed and counted_ids(club) == {match.pk}
    said = live.read_change(match.pk).said["en"]
    assert said.endswith(" confirmed the result for Ben. Every player has confirmed: the battle counts."), said
    kinds = dict(match.confirmations.values_list("seat", "kind"))
    assert kinds == {0: Confirmation.AFTER, 1: Confirmation.ORGANISER}
    page = text(Client().get(reverse("battle_rating", args=[match.pk])))
    assert "confirmed by an organiser on their behalf" in page and "confirmed the result" in page
    assert "Ana" in leaderboard(Client(), club)


def test_an_account_given_the_name_after_the_battle_does_not_speak_for_the_player(club, dev, olga):
    """Ben, entered by name in the club's battles, is not taken by signing up as Ben (anyone may sign up); given to
    Ben's new account in the club by an organiser, the name neither confirms his loss set up before nor takes his
    seat in a battle under way; an organiser confirms for him."""
    lost = start(dev, club, "Dev", "Ben")
    enter(dev, lost, 0, WINNING_DECK)
    enter(dev, lost, 1, LOSING_DECK)
    reveal_all(dev, lost)
    under_way = start(dev, club, "Dev", "Ben")
    Match.objects.filter(pk__in=[lost.pk, under_way.pk]).update(created=timezone.now() - timedelta(minutes=5))
    alt = Client()
    form = {"username": "benn", "password1": PASSWORD, "password2": PASSWORD, "player_name": "Ben"}
    refused = alt.post(reverse("sign_up"), form)
    assert refused.status_code == 422 and "Ben already plays in a club's battles" in text(refused)
    assert Player.objects.get(name="Ben").user is None
    assert alt.post(reverse("sign_up"), {**form, "player_name": "Ben B."}).status_code == 302
    membership = Membership.objects.create(club=club, user=Player.objects.get(name="Ben B.").user)
    given = olga.post(reverse("club_member", args=[club.pk, membership.pk]), {"do": "name", "name": "ben"})
    assert given.status_code == 302 and Membership.objects.get(pk=membership.pk).plays_as.name == "Ben"
    refused = confirm(alt, lost, 1)
    assert refused.status_code == 403 and "Your account does not speak for Ben in this battle" in text(refused)
    assert not Confirmation.objects.filter(match=lost, seat=1).exists()
    assert "You play as Ben" not in text(alt.get(under_way.get_absolute_url()))
    assert not Access.objects.filter(match=under_way, role=Access.PLAYER).exists()
    assert confirm(olga, lost, 1).status_code == 302


def test_a_reopened_battle_waits_for_its_players_again_but_keeps_who_made_their_own_entry(club, dev, ana, olga):
    """A confirmation was of a result: once an organiser reopens the battle and it plays on, that result may
    change (an undo and redo along the same line keeps it: test_competition_ratings)."""
    match = start(dev, club, "Ana", "Ben")
    assert ana.get(match.get_absolute_url()).status_code == 200  # seats Ana on her phone
    enter(ana, match, 0, ANA_DECK)  # Ana's own entry: she took part, whatever the result
    enter(dev, match, 1, BEN_DECK)
    match = reveal_all(dev, match)
    assert confirm(olga, match, 1).status_code == 302
    match.refresh_from_db()
    assert not match.unconfirmed and counted_ids(club) == {match.pk}
    response = olga.post(reverse("match_goto", args=[match.pk]),
                         {"seq": match.head, "step": match.head - 1, "confirm": "reopen"})
    assert response.status_code == 302, text(response)
    match.refresh_from_db()
    assert match.finished is None
    match = reveal_all(dev, match)
    assert match.unconfirmed and counted_ids(club) == set()
    assert dict(match.confirmations.values_list("seat", "kind")) == {0: Confirmation.SEATED}
    assert "1 battle waits for its players' confirmation" in leaderboard(olga, club)


def test_an_own_entry_undone_and_replaced_by_another_phone_confirms_nothing(club, dev, ana, olga):
    """Ana locked in her own deck, then left the club: her seat went back to Dev's phone, which undid her hidden
    lock-in and entered a weak deck in her name. Her confirmation stood for the entry it came from, which is no
    longer in the battle's line, so the battle waits for her word (adversarial round 15: it counted, 3-0)."""
    match = start(dev, club, "Dev", "Ana")
    assert ana.get(match.get_absolute_url()).status_code == 200  # seats Ana on her phone
    enter(ana, match, 1, WINNING_DECK)
    assert dict(match.confirmations.values_list("seat", "kind")) == {1: Confirmation.SEATED}
    assert ana.post(reverse("club_leave", args=[club.pk])).status_code == 302
    match.refresh_from_db()
    response = dev.post(reverse("match_goto", args=[match.pk]), {"seq": match.head, "step": 0})
    assert response.status_code == 302, text(response)
    enter(dev, match, 1, LOSING_DECK)  # in Ana's name, on Dev's phone
    enter(dev, match, 0, WINNING_DECK)
    match = reveal_all(dev, match)
    assert match.winner.name == "Dev"
    assert dict(match.confirmations.values_list("seat", "kind")) == {0: Confirmation.SEATED}  # Dev's own, only
    assert match.unconfirmed and counted_ids(club) == set()
    assert "1 battle waits for its players' confirmation" in leaderboard(olga, club)


def test_an_entry_made_again_after_the_reveal_withdraws_the_other_sides_own_entry(club, dev, ana, olga):
    """Ana locked in first; Dev locked second, which showed him her deck. A referee reopened the battle before
    Dev's lock-in and Dev locked a counter-deck: Ana's lock-in no longer confirms the battle as played
    (adversarial round 16: it read "confirmed by its players" and cost her 16 points)."""
    match = start(dev, club, "Dev", "Ana")
    ana.get(match.get_absolute_url())
    enter(ana, match, 1, WINNING_DECK)
    enter(dev, match, 0, LOSING_DECK)
    match = reveal_all(dev, match)
    assert match.winner.name == "Ana" and not match.unconfirmed
    asked = text(olga.post(reverse("match_goto", args=[match.pk]), {"seq": match.head, "step": 1}))
    assert "It takes back a hidden entry both players have seen" in asked  # the referee is told before
    assert "takes back a hidden entry" not in text(
        olga.post(reverse("match_goto", args=[match.pk]), {"seq": match.head, "step": match.head - 1}))
    response = olga.post(reverse("match_goto", args=[match.pk]), {"seq": match.head, "step": 1, "confirm": "reopen"})
    assert response.status_code == 302, text(response)
    enter(dev, match, 0, WINNING_DECK)  # having seen hers
    match = reveal_all(dev, match)
    assert dict(match.confirmations.values_list("seat", "kind")) == {0: Confirmation.SEATED}  # Dev's new one
    assert match.unconfirmed and counted_ids(club) == set()
    assert confirm(ana, match, 1).status_code == 302  # Ana says the new result is hers to count
    match.refresh_from_db()
    assert not match.unconfirmed and counted_ids(club) == {match.pk}


def test_the_other_phone_is_told_of_a_lock_in_not_of_a_confirmation(club, dev, ana):
    """Ana's own lock-in confirms her seat, in the same request: her opponent's phone is told she locked in a
    hidden deck, as in any match (the verification play-test saw "Ana confirmed the result." before any reveal)."""
    match = start(dev, club, "Dev", "Ana")
    ana.get(match.get_absolute_url())
    enter(ana, match, 1, ANA_DECK)
    assert dict(match.confirmations.values_list("seat", "kind")) == {1: Confirmation.SEATED}
    assert live.read_change(match.pk).said["en"] == "Ana locks in a hidden deck."


def test_an_own_entry_undone_and_redone_still_confirms(club, dev, ana):
    """Undo and redo along the same line abandon nothing: the entry is the one the player made."""
    match = start(dev, club, "Dev", "Ana")
    ana.get(match.get_absolute_url())
    enter(ana, match, 1, ANA_DECK)
    for step in (0, 1):
        match.refresh_from_db()
        assert ana.post(reverse("match_goto", args=[match.pk]), {"seq": match.head, "step": step}).status_code == 302
    enter(dev, match, 0, BEN_DECK)
    match = reveal_all(dev, match)
    assert dict(match.confirmations.values_list("seat", "kind")) == {0: "seated", 1: "seated"}
    assert not match.unconfirmed


def test_a_double_tapped_confirmation_is_recorded_once(club, dev, ana, olga):
    match = start(dev, club, "Ana", "Ben")
    enter(dev, match, 0, ANA_DECK)
    enter(dev, match, 1, BEN_DECK)
    reveal_all(dev, match)
    assert confirm(ana, match, 0).status_code == 302 and confirm(ana, match, 0).status_code == 302
    assert match.confirmations.count() == 1


@pytest.mark.parametrize("seat", ["", "x", "2", "-1", "99999999999999999999"])
def test_a_bad_seat_confirms_nothing(club, dev, olga, seat):
    match = start(dev, club, "Ana", "Ben")
    lock_both(match)
    play_out(match)
    response = olga.post(reverse("battle_confirm", args=[match.pk]), {"seat": seat})
    assert response.status_code == 400 and "Choose a player of this battle" in text(response)
    assert not match.confirmations.exists()


def test_an_unfinished_battle_and_an_outsider_confirm_nothing(club, dev, olga):
    match = start(dev, club, "Ana", "Ben")
    assert confirm(olga, match, 0).status_code == 409
    assert Client().post(reverse("battle_confirm", args=[match.pk]), {"seat": 0}).status_code == 404
    assert club_account("otto").post(reverse("battle_confirm", args=[match.pk]), {"seat": 0}).status_code == 404
    assert not match.confirmations.exists()


# ---------------------------------------------------------------- taking part


def test_a_member_opening_a_battle_that_names_them_is_seated_and_their_own_entries_confirm_it(club, dev, ana):
    match = start(dev, club, "Dev", "Ana")
    page = text(ana.get(match.get_absolute_url()))
    assert "You play as Ana on this phone" in page
    assert Access.objects.filter(match=match, user=ana.user, role=Access.PLAYER, seat=1).exists()
    assert dev.post(entry_url(match, 1), entry_data(match, 1, BEN_DECK)).status_code == 403  # Ana's seat is hers
    enter(dev, match, 0, ANA_DECK)   # Dev's own seat, by his own account: he took part
    enter(ana, match, 1, BEN_DECK)   # Ana's, on her phone
    match = reveal_all(dev, match)
    assert not match.unconfirmed
    assert dict(match.confirmations.values_list("seat", "kind")) == {0: "seated", 1: "seated"}
    assert counted_ids(club) == {match.pk}


def test_a_signed_in_player_locking_in_on_the_shared_phone_confirms_their_seat(club, ana, ben):
    match = start(ana, club, "Ana", "Ben")
    enter(ana, match, 0, ANA_DECK)  # her own seat, signed in
    enter(ana, match, 1, BEN_DECK)  # Ben's seat on Ana's phone: not Ben's account
    match = reveal_all(ana, match)
    assert dict(match.confirmations.values_list("seat", "kind")) == {0: "seated"} and match.unconfirmed
    assert confirm(ben, match, 1).status_code == 302  # Ben confirms afterwards on his phone
    match.refresh_from_db()
    assert not match.unconfirmed


def test_a_non_member_is_not_seated_by_opening_and_a_finished_battle_seats_nobody(club, dev, ana):
    finished = start(dev, club, "Dev", "Ana")
    lock_both(finished)
    play_out(finished)
    ana.get(finished.get_absolute_url())
    assert not Access.objects.filter(match=finished).exists()


def test_an_account_outside_the_club_confirms_no_seat_of_its_battles(club, dev, olga):
    """Round 32: Dev's second account "Zed", never in the club's member list, took the other seat of his battle by
    a join link and locked in a deck to lose: its own lock-in confirmed the battle, and Dev's rating rose. An account
    outside the club speaks for no player of its battles, as a player without an account does not."""
    zed = club_account("zed")  # signed up, not a member
    Player.objects.create(name="Zed", user=zed.user)
    match = start(dev, club, "Dev", "Zed")
    join(zed, make_invite(dev, match, "seat", 1))
    enter(zed, match, 1, LOSING_DECK)
    enter(dev, match, 0, WINNING_DECK)
    match = reveal_all(dev, match)
    assert dict(match.confirmations.values_list("seat", "kind")) == {0: "seated"} and match.unconfirmed
    assert ratings.history(club) == []
    refused = confirm(zed, match, 1)
    assert refused.status_code == 403 and "is not a member of Thursday Club" in text(refused)
    assert "I played this battle" not in text(zed.get(reverse("battle_rating", args=[match.pk])))
    assert confirm(olga, match, 1).status_code == 302, "an organiser who does not play confirms it"
    match.refresh_from_db()
    assert not match.unconfirmed and counted_ids(club) == {match.pk}


# ---------------------------------------------------------------- ordering and tournaments


def test_a_confirmed_battle_counts_by_when_it_first_finished(club, olga):
    early, late = (confirmations_ready(club, olga) for _ in range(2))
    now = timezone.now()
    Match.objects.filter(pk=early.pk).update(first_finished=now - timedelta(hours=2))
    Match.objects.filter(pk=late.pk).update(first_finished=now - timedelta(hours=1))
    for seat in (0, 1):
        confirmations.confirm(match_id=late.pk, seat=seat, account=olga.user, referee=True)
    assert counted_ids(club) == {late.pk}
    for seat in (0, 1):
        confirmations.confirm(match_id=early.pk, seat=seat, account=olga.user, referee=True)
    order = [change.battle for change in ratings.history(club) if change.kind == "battle"]
    assert order == [early.pk, early.pk, late.pk, late.pk]


def confirmations_ready(club: Club, organiser: Client) -> Match:
    from tracker.matches import services

    match = services.match_create(slug="card-crush", player_names=["Ana", "Ben"], config={}, owner=organiser.user,
                                  club=club)
    lock_both(match)
    return play_out(match)


def test_tournament_battles_are_confirmed_by_the_organisers_pairing(club, olga, ana, ben):
    tournament = tournaments.tournament_create(name="Cup", player_names=["Ana", "Ben"], club=club)
    pairing = tournaments.round_pair(tournament_id=tournament.pk, expected_round=0, organiser=olga.user)[0]
    assert pairing.match is not None and not Match.objects.get(pk=pairing.match.pk).unconfirmed
    lock_both(pairing.match)
    play_out(pairing.match)
    assert counted_ids(club) == {pairing.match.pk}


def test_private_matches_and_other_games_need_no_confirmation(club, dev):
    from tracker.matches import services

    private = services.match_create(slug="card-crush", player_names=["Ana", "Ben"], config={}, owner=dev.user)
    logos = services.match_create(slug="logos", player_names=["Ana", "Ben"], config={}, owner=dev.user, club=club)
    assert not private.unconfirmed and not logos.unconfirmed


def test_a_confirmation_or_void_drawn_for_a_result_since_reopened_changes_nothing(club, dev, olga):
    """Olga draws the battle page; another organiser reopens the battle and it is played to an end again. Her
    page's "Confirm for Ben", "Mark as unrated" and "Void this result" were of the result she read, not of the new
    one."""
    match = start(dev, club, "Ana", "Ben")
    enter(dev, match, 0, ANA_DECK)
    enter(dev, match, 1, BEN_DECK)
    match = reveal_all(dev, match)
    battle = text(olga.get(reverse("battle_rating", args=[match.pk])))
    page = text(olga.get(match.get_absolute_url()))
    drawn = re.search(r'name="result" value="([^"]+)"', battle).group(1)
    assert f'name="result" value="{drawn}"' in page
    referee = member_playing_as("Rita", club, Membership.ORGANISER)
    referee.post(reverse("match_goto", args=[match.pk]), {"seq": match.head, "step": match.head - 1, "confirm": "reopen"})
    match = reveal_all(dev, match)
    assert match.board_mark != drawn

    response = olga.post(reverse("battle_confirm", args=[match.pk]), {"seat": 1, "result": drawn})
    assert response.status_code == 409 and "result changed since this page was drawn" in text(response)
    olga.post(reverse("match_void", args=[match.pk]), {"reason": "marked cards", "result": drawn})
    assert "marked cards" in text(olga.get(match.get_absolute_url())), "the reason she typed is in the message"
    response = olga.post(reverse("battle_rating", args=[match.pk]), {"rated": "0", "result": drawn})
    assert response.status_code == 409 and "result changed since this page was drawn" in text(response)
    match.refresh_from_db()
    assert not match.confirmations.filter(seat=1).exists() and match.voided is None and match.rated
    assert olga.post(reverse("battle_confirm", args=[match.pk]), {"seat": 1, "result": match.board_mark}).status_code == 302
