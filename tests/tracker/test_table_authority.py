"""Issue 23's findings: nobody at the table decides alone once the other seat has its own phone.

Cast: the owner's phone plays Ana (seat 0); Ben (seat 1) plays on his own phone, seated by a join
link. Each test plays one finding over HTTP and checks it no longer gives an edge.
"""

import html
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from rules import Dice, RuleError
from tracker import demo
from tracker.games import ADAPTERS
from tracker.matches import live, services
from tracker.models import Access, Card, Invite, Match, Membership, Player, Proposal
from tracker.people import consent

from .helpers import (
    ANA_DECK,
    BEN_DECK,
    club_account,
    device_of,
    entry_data,
    finish,
    join,
    lock,
    make_invite,
    play_out,
    seated_phone,
    snapshot,
)
from .helpers import page_text as text

pytestmark = pytest.mark.django_db


def _match(slug: str, owner: Client, **extra) -> Match:
    demo.load_catalogs()
    return services.match_create(slug=slug, player_names=["Ana", "Ben"], config={}, owner_device=device_of(owner),
                                 **extra)


@pytest.fixture
def owner() -> Client:
    return Client()


def act(client: Client, match: Match, **data):
    match.refresh_from_db()
    return client.post(reverse("match_act", args=[match.pk]), {"seq": match.head, **data})


def goto(client: Client, match: Match, step: int, **extra):
    match.refresh_from_db()
    return client.post(reverse("match_goto", args=[match.pk]), {"step": step, "seq": match.head, **extra})


def answer(client: Client, proposal: Proposal, verdict: str):
    return client.post(reverse("proposal_answer", args=[proposal.match_id, proposal.pk]), {"answer": verdict})


def newest(client: Client, match: Match) -> str:
    return text(client.get(match.get_absolute_url()))


# ---------------------------------------------------------------- revoke, then take back


def test_revoking_a_seat_that_has_a_say_asks_its_phone_and_the_owner_cannot_take_back_alone(owner):
    battle = _match("card-crush", owner)
    ben = seated_phone(owner, battle, 1)
    assert ben.post(reverse("match_entry", args=[battle.pk, 1]), entry_data(battle, 1, BEN_DECK)).status_code == 302
    lock(battle, 0, ANA_DECK)  # Ana locks in second and sees Ben's deck
    goto(owner, battle, 1)  # asks to take her lock-in back
    assert Proposal.objects.get().status == Proposal.PENDING
    invite = Invite.objects.get(kind=Invite.SEAT)
    response = owner.post(reverse("invite_revoke", args=[battle.pk, invite.pk]))
    assert response.status_code == 302
    assert Access.objects.get(invite=invite).revoked is None, "the seat stays Ben's until he agrees"
    release = Proposal.objects.get(kind=Proposal.RELEASE, status=Proposal.PENDING)
    assert (release.asked_by, release.needs) == (0, 1)
    # The owner's phone still cannot act for Ben's seat: it is not hot-seat again.
    assert owner.get(reverse("match_entry", args=[battle.pk, 1])).status_code == 403
    assert "Ana asks: Ben's phone gives up the seat" in newest(ben, battle)
    answer(ben, Proposal.objects.get(kind=Proposal.RELEASE, status=Proposal.PENDING), "agree")
    assert Access.objects.get(invite=invite).revoked is not None
    refused = ben.get(battle.get_absolute_url())
    assert refused.status_code == 403 and "You gave up your seat in this match" in text(refused)


def test_a_release_waiting_is_pushed_as_a_release_when_the_newest_change_has_no_news(owner):
    """The live push words the request waiting when the newest change told nothing itself (a script's step, the
    Showdown AI's answer): a seat's release, whose payload names its link, was worded as a move of the game from it
    (round 35: "Ana asks: ." in Card Crush, "The phone that set up the match asks: None." in LOGOS)."""
    battle = _match("card-crush", owner)
    ben = seated_phone(owner, battle, 1)
    assert ben.post(reverse("match_entry", args=[battle.pk, 1]), entry_data(battle, 1, BEN_DECK)).status_code == 302
    invite = Invite.objects.get(kind=Invite.SEAT)
    assert owner.post(reverse("invite_revoke", args=[battle.pk, invite.pk])).status_code == 302
    Match.objects.filter(pk=battle.pk).update(news={})  # as a change nobody at the table made leaves it
    assert live.read_change(battle.pk).said["en"] == "Ana asks: Ben's phone gives up the seat (its link is revoked)."


def test_a_phone_that_only_moved_along_the_log_since_it_joined_has_a_say(owner):
    """Round 34: Ben's phone joined after the last step and undid his own move, alone as it may; the owner then took
    his link back alone (only new steps counted as a say) and held both seats again, to play his side as she liked."""
    demo.load_catalogs()
    match = ADAPTERS["cardmaster"].demo_matches["knock-out"](("Ana", "Ben"))
    Match.objects.filter(pk=match.pk).update(owner_device=device_of(owner))
    step = next(action.seq for action in services.live_actions(match)
                if action.whose == 1 and action.seq > 2 and all(roll["by"] == "player" for roll in action.rolls))
    services.match_goto(match=match, step=step, expected_seq=match.head)  # Ben's move is the last step
    ben = seated_phone(owner, match, 1)
    assert goto(ben, match, step - 1).status_code == 302
    match.refresh_from_db()
    assert match.head == step - 1 and not Proposal.objects.exists(), "his own move, undone alone"
    invite = Invite.objects.get(kind=Invite.SEAT)
    owner.post(reverse("invite_revoke", args=[match.pk, invite.pk]))
    assert Access.objects.get(invite=invite).revoked is None, "the seat stays Ben's until he agrees"
    assert Proposal.objects.get(kind=Proposal.RELEASE).status == Proposal.PENDING


def test_a_phone_whose_link_was_revoked_is_told_why(owner):
    battle = _match("card-crush", owner)
    ben = seated_phone(owner, battle, 1)  # nothing played since he joined: revoked at once
    owner.post(reverse("invite_revoke", args=[battle.pk, Invite.objects.get().pk]))
    refused = ben.get(battle.get_absolute_url())
    assert refused.status_code == 403 and "was revoked" in text(refused)
    assert ben.get(reverse("match_poll", args=[battle.pk])).status_code == 403
    assert Client().get(battle.get_absolute_url()).status_code == 404, "a stranger learns nothing"


def test_an_owner_phone_playing_no_seat_asks_a_release_in_its_own_name(owner):
    """Both seats on phones of their own: the owner's phone asking Ben's to give up the seat filed it in Ana's name
    ("Ana asks"), withdrew Ana's own request doing so, and let Ana's phone withdraw it but not the owner's."""
    match = _match("lonely-star", owner)
    ana, ben = seated_phone(owner, match, 0), seated_phone(owner, match, 1)
    assert act(ana, match, action="declare_winner", winner="0").status_code == 302
    hers = Proposal.objects.get()  # Ana asks Ben: his seat has a say now
    assert owner.post(reverse("invite_revoke", args=[match.pk, Invite.objects.get(seat=1).pk])).status_code == 302
    release = Proposal.objects.get(kind=Proposal.RELEASE, status=Proposal.PENDING)
    assert Proposal.objects.get(pk=hers.pk).status == Proposal.PENDING, "Ana's own request is hers to withdraw"
    asked = "The phone that set up the match asks: Ben's phone gives up the seat (its link is revoked)."
    assert pushed(match) == asked
    assert live.read_change(match.pk).said["de"].startswith("Das Handy, das die Partie eingerichtet hat, fragt: ")
    page = newest(ben, match)
    assert asked in page and "Ana asks: Ben's phone" not in page
    # The log says who asked what as the news does, after a colon: an engine's title is a sentence of its own, with its
    # capital ("Ana asked to The table declares…" before), and German keeps its nouns' and a sentence's capitals.
    log = text(ben.get(reverse("match_log", args=[match.pk])))
    assert "Ana asked: The table declares Ana the winner." in log
    assert "The phone that set up the match asked: Ben's phone gives up the seat (its link is revoked)." in log
    ben.cookies["django_language"] = "de"
    log = text(ben.get(reverse("match_log", args=[match.pk])))
    assert "Ana hat gebeten: Der Tisch erklärt Ana zum Sieger." in log
    assert "Das Handy, das die Partie eingerichtet hat, hat gebeten: Das Handy von Ben gibt den Platz ab" in log
    del ben.cookies["django_language"]
    withdraw = reverse("proposal_withdraw", args=[match.pk, release.pk])
    assert withdraw not in newest(ana, match) and withdraw in newest(owner, match)
    ana.post(withdraw)
    assert Proposal.objects.get(pk=release.pk).status == Proposal.PENDING, "not Ana's to withdraw"
    owner.cookies["django_language"] = "de"  # its news was kept in its own language, lower-case: said by the reader's
    owner.post(withdraw)
    assert Proposal.objects.get(pk=release.pk).status == Proposal.WITHDRAWN
    assert ("Newest:</strong> The phone that set up the match withdrew the request: Ben's phone gives up the seat (its "
            "link is revoked).") in newest(ben, match)
    assert live.read_change(match.pk).said["de"].startswith("Das Handy, das die Partie eingerichtet hat, hat die Anfrage "
                                                            "zurückgezogen: Das Handy von Ben gibt den Platz ab")
    assert Proposal.objects.get(pk=hers.pk).status == Proposal.PENDING
    release.match.owner = get_user_model().objects.create(username="olga")  # an owner signed in: the account's name
    assert consent.asks(release, ["Ana", "Ben"], "x") == "olga asks: x."


def test_a_request_lapses_when_a_seat_it_involves_changes_hands(owner):
    """Ana asked Ben; the owner's phone, playing no seat, had Ben's phone give up his seat: Ana's request to Ben stayed
    open, and the owner's phone now holding Ben's seat was offered to agree to it, for a player who never saw it. A
    request lapses when the seat it awaits (or its asker's) changes hands: every page and the push say so, and an
    answer sent to it is refused."""
    match = _match("lonely-star", owner)
    ana, ben = seated_phone(owner, match, 0), seated_phone(owner, match, 1)
    assert act(ana, match, action="declare_winner", winner="0").status_code == 302
    hers = Proposal.objects.get()
    owner.post(reverse("invite_revoke", args=[match.pk, Invite.objects.get(seat=1).pk]))
    answer(ben, Proposal.objects.get(kind=Proposal.RELEASE), "agree")
    assert Proposal.objects.get(pk=hers.pk).status == Proposal.RESEATED
    lapsed = "Ana's request lapsed, as a seat changed hands: The table declares Ana the winner."
    assert pushed(match).endswith(" " + lapsed)
    assert lapsed in newest(ana, match)
    agree = reverse("proposal_answer", args=[match.pk, hers.pk])
    assert agree not in newest(owner, match) and "Ana asks" not in newest(owner, match)
    refused = text(owner.post(agree, {"answer": "agree"}, follow=True))
    assert "That request lapsed: a seat it involves changed hands since it was asked. Nothing was changed." in refused
    assert Match.objects.get(pk=match.pk).finished is None
    assert "lapsed: a seat changed hands" in text(ana.get(reverse("match_log", args=[match.pk])))
    # A seat joined anew by a link changes hands too: the owner's phone asked as Ben, and another phone joins as Ben.
    assert act(owner, match, action="declare_winner", winner="1").status_code == 302
    owners = Proposal.objects.get(status=Proposal.PENDING)
    assert (owners.asked_by, owners.needs) == (1, 0)
    join(Client(), make_invite(owner, match, seat=1))
    assert Proposal.objects.get(pk=owners.pk).status == Proposal.RESEATED
    assert live.read_change(match.pk).said["de"].endswith("Die Anfrage von Ben ist verfallen, weil ein Platz das Handy "
                                                          "gewechselt hat: Der Tisch erklärt Ben zum Sieger.")


# ---------------------------------------------------------------- the owner is a seat like any other


def test_the_owner_declaring_itself_the_winner_asks_the_other_phone(owner):
    match = _match("lonely-star", owner)
    ben = seated_phone(owner, match, 1)
    before = snapshot(match)
    assert act(owner, match, action="declare_winner", winner="0").status_code == 302
    assert snapshot(match) == before
    request = Proposal.objects.get()
    assert (request.asked_by, request.needs, request.payload["type"]) == (0, 1, "declare_winner")
    assert "Ana asks: The table declares Ana the winner." in newest(ben, match)
    answer(ben, request, "refuse")
    assert Match.objects.get(pk=match.pk).finished is None


def test_the_owner_setting_the_other_sides_hp_asks_and_its_own_is_applied_and_told(owner):
    match = _match("logos", owner)
    ben = seated_phone(owner, match, 1)
    before = snapshot(match)
    act(owner, match, action="set_hp", seat="1", hp="0")
    assert snapshot(match) == before and Proposal.objects.get().needs == 1
    act(owner, match, action="set_hp", seat="0", hp="90000")
    match.refresh_from_db()
    assert match.state["hp"][0] == 90000 if "hp" in match.state else match.head == 1
    told = newest(ben, match)
    said = told[told.index("Newest:"):][:200]
    assert "Ana corrected: Manual correction: Ana's HP 100" in said and "→ 90" in said, said
    assert "Ana corrected" not in newest(owner, match), "the phone that did it is not told its own change"


def test_the_phone_that_agrees_is_shown_what_the_request_it_carried_out_did(owner):
    """Agreeing carries the request out as a step: its working is in the answering phone's outcome box, as
    after any tap of its own (a LOGOS fight agreed to showed only "Ana agreed: Fight", the damage off-screen)."""
    match = _match("logos", owner)
    ben = seated_phone(owner, match, 1)
    act(owner, match, action="set_hp", seat="1", hp="50000")
    response = answer(ben, Proposal.objects.get(), "agree")
    page = html.unescape(ben.get(response.url).content.decode())
    box = page[page.index('id="outcome"'):page.index('id="outcome"') + 3000]
    outcome = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", box))
    assert "Ben agreed" in outcome and "Ben's HP 100,000 → 50,000" in outcome, outcome


def test_ending_the_duel_before_the_reveal_never_shows_the_other_sides_hidden_card(owner):
    """Ben sets his own HP to 0 in the commit phase (his own correction: no request): Ana wins, and her card and
    backup, never turned over, stay hidden from him in the log and the exports (found by an adversarial run)."""
    match = _match("logos", owner)
    ben = seated_phone(owner, match, 1)
    match.refresh_from_db()
    secret = ADAPTERS["logos"].entry_examples(match, 0)[1]  # a card and a backup, hidden from Ben
    services.match_apply_action(match=match, action=secret, expected_seq=0)
    assert act(ben, match, action="set_hp", seat="1", hp="0").status_code == 302
    assert not Proposal.objects.exists()
    match.refresh_from_db()
    assert match.finished is not None and match.winner.name == "Ana"
    shown = "".join(text(ben.get(reverse(name, args=[match.pk])))
                    for name in ("match_detail", "match_log", "match_export_json", "match_export_text"))
    assert secret["card"]["name"] not in shown and secret["backup"]["name"] not in shown


def test_the_owner_undoing_the_other_seats_move_asks_that_phone(owner):
    battle = _match("card-crush", owner)
    ben = seated_phone(owner, battle, 1)
    ben.post(reverse("match_entry", args=[battle.pk, 1]), entry_data(battle, 1, BEN_DECK))
    before = snapshot(battle)
    goto(owner, battle, 0)
    assert snapshot(battle) == before
    request = Proposal.objects.get()
    assert (request.kind, request.needs, request.payload) == (Proposal.GOTO, 1, {"why": "moves"})
    answer(ben, request, "agree")
    assert Match.objects.get(pk=battle.pk).head == 0
    assert "Ben agreed: move to step 0" in newest(owner, battle)


def test_a_seated_phone_undoing_the_owners_move_asks_instead_of_being_refused(owner):
    # Issue 23 made this symmetric: it used to be refused ("only the match's owner can undo it").
    battle = _match("card-crush", owner)
    ben = seated_phone(owner, battle, 1)
    lock(battle, 0, ANA_DECK)
    goto(ben, battle, 0)
    assert Proposal.objects.get().needs == 0 and Match.objects.get(pk=battle.pk).head == 1


# ---------------------------------------------------------------- who did what, on the other phone


def pushed(match: Match) -> str:
    """What the live push tells every phone of the match about its newest change (tracker/matches/live.py)."""
    return live.read_change(match.pk).said["en"]


def test_a_phone_taking_or_losing_a_seat_is_pushed_by_name_not_as_the_match_changed(owner):
    """A second phone joining a seat was pushed to the host as "The match changed." alone: each change of who sits
    where now says who and which seat, on the live push in every language and as the host page's newest message."""
    match = _match("logos", owner)
    watch = make_invite(owner, match, "watch")
    join(Client(), watch)
    assert pushed(match) == "Another phone is watching the match now."
    seat = make_invite(owner, match, "seat", 1)
    ben = Client()
    join(ben, seat)
    assert pushed(match) == "Ben joined on a phone of their own."
    assert live.read_change(match.pk).said["de"] == "Ben ist mit einem eigenen Handy beigetreten."
    assert "Ben joined on a phone of their own." in text(owner.get(match.get_absolute_url()))
    assert "Ben joined" not in text(ben.get(match.get_absolute_url()))  # not news to the phone that joined
    assert owner.post(reverse("invite_revoke", args=[match.pk, seat.pk])).status_code == 302
    assert pushed(match) == "Ben's seat is back on the phone that set up the match."
    assert owner.post(reverse("invite_revoke", args=[match.pk, watch.pk])).status_code == 302
    assert pushed(match) == "A link to this match was revoked."


def test_the_other_phone_is_pushed_and_shown_who_did_what(owner):
    """A correction, an undo, a redo, requests and agreements (one reopens the match): each is pushed to the
    other phone naming who did it, in the very words its page shows as the newest message once it refreshes."""
    match = _match("logos", owner)
    ben = seated_phone(owner, match, 1)
    seen = []

    def told(by: Client, other: Client, who: str) -> None:
        newest(by, match)  # the phone that did it follows its answer, as a browser does, and is told there
        said, page = pushed(match), newest(other, match)
        assert said.startswith(who) and said in page, (said, re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))
        seen.append(said)

    act(owner, match, action="set_hp", seat="0", hp="90000")
    told(owner, ben, "Ana corrected:")
    goto(owner, match, 0)
    told(owner, ben, "Ana went back from step 1 to step 0.")
    goto(owner, match, 1)
    told(owner, ben, "Ana went forward from step 0 to step 1.")
    act(owner, match, action="set_hp", seat="1", hp="0")  # the other side's: a request
    told(owner, ben, "Ana asks:")
    answer(ben, Proposal.objects.get(status=Proposal.PENDING), "agree")
    told(ben, owner, "Ben agreed:")
    match.refresh_from_db()
    assert match.finished is not None and match.winner.name == "Ana"
    goto(owner, match, 1, confirm="reopen")  # reopening undoes the correction of Ben's side: his say
    told(owner, ben, "Ana asks: move to step 1, taking back or redoing Ben's moves.")
    answer(ben, Proposal.objects.get(status=Proposal.PENDING), "agree")
    told(ben, owner, "Ben agreed: move to step 1, taking back or redoing Ben's moves.")
    assert Match.objects.get(pk=match.pk).finished is None
    assert len(set(seen)) == len(seen) == 7


def test_the_other_phone_is_told_what_a_step_did_that_it_must_act_on(owner):
    """Not only the move: what the players must act on at the table (here the battle won; a card falling, a flip,
    a raid in the other games: each game's consequences) is told the other phone with the news, pushed and on
    its page, as the tapping phone's box keeps it open."""
    battle = _match("card-crush", owner)
    ben = seated_phone(owner, battle, 1)
    lock(battle, 0, ANA_DECK)
    lock(battle, 1, BEN_DECK)
    battle.refresh_from_db()
    while battle.finished is None:
        act(owner, battle, action="play_round")
        battle.refresh_from_db()
    said = pushed(battle)
    assert said.startswith("Ana: Round") and f"{battle.winner.name} wins the battle" in said, said
    assert said in newest(ben, battle)


def test_the_phone_that_asked_is_told_what_its_agreed_request_did(owner):
    match = _match("logos", owner)
    ben = seated_phone(owner, match, 1)
    act(owner, match, action="set_hp", seat="1", hp="50000")
    answer(ben, Proposal.objects.get(), "agree")
    said = pushed(match)
    assert said.startswith("Ben agreed:") and "Ben's HP 100,000 → 50,000" in said, said
    assert said in newest(owner, match)


def test_news_of_an_action_names_who_did_it_once(owner):
    """A narration that starts with the actor ("Ben locks in…") is told as it is, not as "Ben: Ben locks in…";
    one that does not name them first keeps the name in front."""
    battle = _match("card-crush", owner)
    ben = seated_phone(owner, battle, 1)
    assert ben.post(reverse("match_entry", args=[battle.pk, 1]), entry_data(battle, 1, BEN_DECK)).status_code == 302
    told = newest(owner, battle)
    assert "Ben locks in a hidden deck." in told and "Ben: Ben" not in told, told
    assert owner.post(reverse("match_entry", args=[battle.pk, 0]), entry_data(battle, 0, ANA_DECK)).status_code == 302
    act(owner, battle, action="play_round")
    told = newest(ben, battle)
    assert re.search(r"Ana: Round 1\b", told) and "Ana: Ana" not in told, told
    winner = battle.players()[Match.objects.get(pk=battle.pk).state["rounds"][0]["winner"]].name
    assert f"Round 1 revealed. {winner} wins." in told, "who won the round, as the tapping phone's box says"


def test_a_tap_another_phone_made_first_is_not_called_this_phones_double(owner):
    """Ana and Ben both tap "Reveal round 1" at once: it counts once, and Ben's phone, which sent it once, is not
    told that it sent it twice."""
    battle = _match("card-crush", owner)
    ben = seated_phone(owner, battle, 1)
    lock(battle, 0, ANA_DECK)
    lock(battle, 1, BEN_DECK)
    battle.refresh_from_db()
    drawn = battle.head
    assert owner.post(reverse("match_act", args=[battle.pk]), {"seq": drawn, "action": "play_round"}).status_code == 302
    told = text(ben.post(reverse("match_act", args=[battle.pk]), {"seq": drawn, "action": "play_round"}, follow=True))
    assert "That tap was already recorded" in told and "this phone sent it twice" not in told, told
    battle.refresh_from_db()
    assert len(battle.state["rounds"]) == 1


def test_news_names_the_actor_once_after_the_round_it_belongs_to(owner):
    """LOGOS says "Round 1: Ben commits in secret": the other phone is told just that, not "Ben: Round 1: Ben…"."""
    match = _match("logos", owner)
    ben = seated_phone(owner, match, 1)
    card = ADAPTERS["logos"].entry_examples(match, 1)[1]["card"]["name"]
    assert ben.post(reverse("match_entry", args=[match.pk, 1]), entry_data(match, 1, [], card=card)).status_code == 302
    told = newest(owner, match)
    assert "Round 1: Ben commits in secret." in told and "Ben: Round 1" not in told, told


def outcome_tools(client: Client, match: Match) -> str:
    """The buttons of the outcome box (templates/tracker/outcome.html) on this phone's match page."""
    page = client.get(match.get_absolute_url()).content.decode().split('<div id="outcome"', 1)[1]
    return page.split('class="outcome-tools"', 1)[1].split("</div>", 1)[0] if 'class="outcome-tools"' in page else ""


def test_the_phone_asked_sees_the_request_as_news_without_undo_beside_it(owner):
    """Undo and Redo in the outcome box belong beside this phone's own step: beside "Ana asks: …" on Ben's
    phone they would read as undoing her request. The page's own Undo (under the board) stays."""
    match = _match("logos", owner)
    ben = seated_phone(owner, match, 1)
    act(owner, match, action="set_hp", seat="0", hp="90000")  # Ana's own side: her step, told in her box
    assert "Undo" in outcome_tools(owner, match)
    act(owner, match, action="set_hp", seat="1", hp="0")  # the other side's: a request to Ben's phone
    assert "Ana asks:" in newest(ben, match)
    assert "Undo" not in outcome_tools(ben, match) and "Redo" not in outcome_tools(ben, match)
    assert "Undo" in text(ben.get(match.get_absolute_url())), "the board's own Undo is still there"


# ---------------------------------------------------------------- reopening


def test_the_loser_reopens_a_finished_match_only_with_the_winners_agreement(owner):
    battle = _match("card-crush", owner)
    ben = seated_phone(owner, battle, 1)
    ben.post(reverse("match_entry", args=[battle.pk, 1]), entry_data(battle, 1, BEN_DECK))
    lock(battle, 0, ANA_DECK)
    battle = play_out(battle)
    winner_seat = [player.pk for player in battle.players()].index(battle.winner_id)
    loser = ben if winner_seat == 0 else owner
    before = snapshot(battle)
    goto(loser, battle, battle.head - 1, confirm="reopen")
    assert snapshot(battle) == before, "the result stays until the winner agrees"
    request = Proposal.objects.get()
    assert request.needs == winner_seat and request.payload == {"why": "reopen"}


def test_a_side_reopens_a_draw_only_with_the_other_sides_agreement(owner):
    """Round 32: a draw is both sides' result. Ana resigned into a draw with her own step and took it back alone,
    one tap, to play on for the win Ben no longer had a say in; the winner alone reopens only their own win."""
    demo.load_catalogs()
    duel = services.match_create(slug="logos", player_names=["Ana", "Ben"], config={"resignation": "draw"},
                                 owner_device=device_of(owner))
    ben = seated_phone(owner, duel, 1)
    for seat, name in ((0, "Granite Fist"), (1, "Solar Flare")):
        duel.refresh_from_db()
        card = Card.objects.get(slug="logos", name=name).as_rules_card()
        services.match_apply_action(match_id=duel.pk, expected_seq=duel.head, action={
            "type": "commit", "seat": seat, "round": duel.state["round"], "card": card, "backup": None})
    assert act(owner, duel, action="resign", seat="0").status_code == 302, text(owner.get(duel.get_absolute_url()))
    duel.refresh_from_db()
    assert duel.finished is not None and duel.winner is None, "a draw"
    before = snapshot(duel)
    goto(owner, duel, duel.head - 1, confirm="reopen")
    assert snapshot(duel) == before, "the draw stands until Ben agrees"
    request = Proposal.objects.get()
    assert request.needs == 1 and request.payload == {"why": "drawn"}
    assert "reopening the drawn match" in text(ben.get(duel.get_absolute_url()))
    answer(ben, request, "agree")
    duel.refresh_from_db()
    assert duel.finished is None


# ---------------------------------------------------------------- corrections and results


def test_the_ai_of_a_showdown_cannot_be_corrected():
    state = {"config": {"showdown": {"ai_seat": 1}}, "cards": {}, "teams": [{"raided": 0}, {"raided": 0}]}
    from rules.cardmaster.overrides import adjust

    with pytest.raises(RuleError, match="AI"):
        adjust(state, {"type": "adjust", "override": True, "seat": 1, "raided": 0}, None)


def test_a_match_decided_while_a_correction_stood_is_listed_apart(owner):
    match = _match("logos", owner)
    act(owner, match, action="set_hp", seat="1", hp="0")  # hot-seat: the owner's phone alone
    match.refresh_from_db()
    assert match.finished is not None and match.corrected
    stats = text(owner.get(reverse("stats") + "?game=logos"))
    assert "0 finished matches." in stats and "Decided with manual corrections" in stats
    assert "decided with manual corrections" in text(owner.get(reverse("match_list")))


# ---------------------------------------------------------------- requests are well formed


def test_a_lonely_star_table_status_request_renders_for_both_phones(owner):
    match = _match("lonely-star", owner)
    ben = seated_phone(owner, match, 1)
    act(ben, match, action="define_status", name="Frozen", stat="at")
    assert Proposal.objects.get().payload["type"] == "define_status"
    for phone in (owner, ben):
        for url in (match.get_absolute_url(), reverse("match_log", args=[match.pk])):
            response = phone.get(url)
            assert response.status_code == 200 and "Frozen" in text(response)


@pytest.mark.parametrize("sent", [{}, {"action": ""}, {"action": "no-such-thing"}])
def test_an_empty_or_unknown_action_is_refused_before_anything_is_stored(owner, sent):
    match = _match("lonely-star", owner)
    ben = seated_phone(owner, match, 1)
    before = snapshot(match)
    response = act(ben, match, **sent)
    assert response.status_code == 422
    assert snapshot(match) == before and not Proposal.objects.exists()


def test_every_kind_of_request_renders_in_every_game(owner):
    """For every game: a request of every kind (each action the engine offers at the start, a go-back for
    each reason, a seat to give up), pending and answered, renders on both phones' match page and log."""
    for slug in ADAPTERS:
        match = _match(slug, owner)
        ben = seated_phone(owner, match, 1)
        game = match.game
        offered = [action for action in game.legal_actions(match.state) if isinstance(action, dict)]
        for action in offered:
            try:
                _state, events = game.apply(match.state, action, Dice(match.seed, 1))
            except RuleError:
                continue
            Proposal.objects.create(match=match, kind=Proposal.ACTION, payload=action, events=events, at_seq=0,
                                    asked_by=1, needs=0, status=Proposal.REFUSED)
        for why in ("reveal", "moves", "reopen", "drawn"):
            Proposal.objects.create(match=match, kind=Proposal.GOTO, step=0, payload={"why": why}, at_seq=0,
                                    asked_by=1, needs=0, status=Proposal.REFUSED)
        Proposal.objects.create(match=match, kind=Proposal.RELEASE, payload={"invite": 0}, at_seq=0, asked_by=0,
                                needs=1)
        for phone in (owner, ben):
            for url in (match.get_absolute_url(), reverse("match_log", args=[match.pk])):
                assert phone.get(url).status_code == 200, (slug, url)


# ---------------------------------------------------------------- sign-out and clubs


def test_signing_out_leaves_the_tablet_nothing_the_account_joined(owner):
    battle = _match("card-crush", owner)
    get_user_model().objects.create_user("chloe", password="pw-chloe-123")
    tablet = Client()
    assert tablet.post(reverse("sign_in"), {"username": "chloe", "password": "pw-chloe-123"}).status_code == 302
    invite = Invite.objects.create(match=battle, kind=Invite.SEAT, seat=1)
    assert tablet.post(reverse("join", args=[invite.token])).status_code == 302
    assert tablet.get(battle.get_absolute_url()).status_code == 200
    tablet.post(reverse("sign_out"))
    assert tablet.get(battle.get_absolute_url()).status_code == 404
    assert tablet.get(reverse("match_entry", args=[battle.pk, 1])).status_code == 404
    get_user_model().objects.create_user("dan", password="pw-dan-12345")
    tablet.post(reverse("sign_in"), {"username": "dan", "password": "pw-dan-12345"})
    assert tablet.get(battle.get_absolute_url()).status_code == 404, "nor the next account on the tablet"


def test_a_removed_members_open_club_match_counts_only_once_an_organiser_takes_it_over(club, catalog):
    organiser = club_account("orga", club, Membership.ORGANISER)
    member = club_account("mem", club)
    match = services.match_create(slug="lonely-star", player_names=["Ana", "Ben"], config={}, owner=member.user,
                                  club=club)
    club_member = Membership.objects.get(user=member.user)
    organiser.post(reverse("club_member", args=[club.pk, club_member.pk]), {"do": "remove"})
    assert member.get(match.get_absolute_url()).status_code == 404, "the removed member no longer plays it"
    services.match_apply_action(match_id=match.pk, action={"type": "declare_winner", "winner": 0}, expected_seq=0)
    assert not Match.objects.counted().filter(pk=match.pk).exists()
    page = text(organiser.get(match.get_absolute_url()))
    assert "counts nowhere until an organiser takes it over" in page
    organiser.post(reverse("match_take_over", args=[match.pk]))
    assert Match.objects.counted().filter(pk=match.pk, owner=organiser.user).exists()


def test_card_uses_of_a_hidden_deck_are_noted_only_at_the_reveal(owner):
    battle = _match("card-crush", owner)
    lock(battle, 0, ANA_DECK)
    assert not Card.objects.filter(uses__match=battle).exists()
    lock(battle, 1, BEN_DECK)
    assert set(Card.objects.filter(uses__match=battle).values_list("name", flat=True)) == {*ANA_DECK, *BEN_DECK}


def test_a_removed_member_keeps_no_hold_on_the_clubs_finished_battles(club, catalog):
    """Round 32: removed, Ben still ran the battle he had set up and finished (and the one he had taken a seat in by
    opening it): he read it, made watch and join links to it for anyone, and once a referee reopened it played it on
    from outside the club, counting in its ratings. His finished battles keep counting, as the club's alone; one
    reopened waits for an organiser to take it over."""
    organiser = club_account("orga", club, Membership.ORGANISER)
    ben = club_account("ben", club)
    Player.objects.create(name="Ben", user=ben.user)
    ana = club_account("ana", club)
    Player.objects.create(name="Ana", user=ana.user)
    his = finish(services.match_create(slug="card-crush", player_names=["Ben", "Ana"], config={}, club=club,
                                       owner=ben.user), winner_seat=1)
    hers = services.match_create(slug="card-crush", player_names=["Ana", "Ben"], config={}, club=club, owner=ana.user)
    assert ben.get(hers.get_absolute_url()).status_code == 200  # his seat, taken by opening it as a member
    assert Access.objects.filter(match=hers, user=ben.user, revoked__isnull=True).exists()
    hers = finish(hers, winner_seat=0)
    counted = set(Match.objects.counted().values_list("pk", flat=True))
    membership = Membership.objects.get(club=club, user=ben.user)
    organiser.post(reverse("club_member", args=[club.pk, membership.pk]), {"do": "remove", "was": "member"})
    assert not Membership.objects.filter(pk=membership.pk).exists()
    for battle in (his, hers):
        assert ben.get(battle.get_absolute_url()).status_code in (403, 404)
        assert ben.get(reverse("match_export_json", args=[battle.pk])).status_code in (403, 404)
        assert ben.post(reverse("invite_new", args=[battle.pk]), {"kind": "watch"}).status_code in (403, 404)
    assert not Invite.objects.exists()
    assert set(Match.objects.counted().values_list("pk", flat=True)) == counted, "they keep counting"
    his.refresh_from_db()
    goto(organiser, his, his.head - 1, confirm="reopen")  # the referee reopens it
    his.refresh_from_db()
    assert his.finished is None
    assert ben.post(reverse("match_act", args=[his.pk]), {"seq": his.board_mark, "action": "play_round"}
                    ).status_code in (403, 404)
    assert "It counts nowhere until an organiser takes it over." in text(organiser.get(his.get_absolute_url()))
    organiser.post(reverse("match_take_over", args=[his.pk]))
    his.refresh_from_db()
    assert his.owner == organiser.user
    goto(organiser, his, his.head + 1)  # hers to run now: the same line again, its confirmations kept
    assert Match.objects.counted().filter(pk=his.pk).exists()
