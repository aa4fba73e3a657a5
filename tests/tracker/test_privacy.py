"""Nobody learns of a match they may not open: not from its pages, and not from any list, filter,
suggestion, count, chart, leaderboard, rating, tournament or statistics page.

Cast:
- a private match made on a phone without an account: "Marguerite" vs "Octavian";
- a club match of the Friday Club, rated, with a tournament: "Zephyrine" vs "Quillon";
- personas: an outsider (a new phone), a stranger (organiser of another club), a club member,
  the club's organiser, and the phone that made the private match.
"""

import html
import importlib
from urllib.parse import urlsplit

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve, reverse

import rules
from tracker import demo
from tracker.competition import tournaments
from tracker.games import pages_for
from tracker.matches import services
from tracker.models import (
    Card,
    Club,
    ClubInvite,
    CollectionCard,
    Confirmation,
    Invite,
    Match,
    Membership,
    Player,
)

from .helpers import (
    ANA_DECK,
    BEN_DECK,
    club_account,
    device_of,
    lock_both,
    phone_like,
    play_out,
    shared_by_the_class,
)

pytestmark = pytest.mark.django_db

PRIVATE_NAMES = ("Marguerite", "Octavian")
CLUB_NAMES = ("Zephyrine", "Quillon")
CUP = "Zephyr Cup"


def page(client: Client, url: str, **params) -> tuple[int, str]:
    response = client.get(url, params)
    return response.status_code, html.unescape(response.content.decode())


@pytest.fixture(scope="module")
def world_for_the_module(django_db_setup, django_db_blocker) -> dict:
    """The world made once for the module, each test in a savepoint of it (as conftest's match_for_the_class), with
    the club, organiser, member and stranger as tests/tracker/conftest.py makes them: made for each of the eight
    tests (a Cardmaster match played to its end among them), it was a third of their time."""
    with shared_by_the_class(django_db_blocker):
        demo.load_catalogs()
        club = Club.objects.create(name="Friday Club")
        organiser, member = club_account("orga", club, Membership.ORGANISER), club_account("mem", club)
        stranger = club_account("far", Club.objects.create(name="Other Club"), Membership.ORGANISER)
        yield _world(club, organiser, member, stranger)


@pytest.fixture
def world(world_for_the_module) -> dict:
    """The module's world read again, with phones of its own (phone_like)."""
    return {key: phone_like(value) if isinstance(value, Client) else type(value).objects.get(pk=value.pk)
            for key, value in world_for_the_module.items()}


def _world(club, organiser, member, stranger) -> dict:
    phone = Client()
    private = services.match_create(slug="card-crush", player_names=list(PRIVATE_NAMES), config={},
                                    owner_device=device_of(phone))
    play_out(lock_both(private))
    cardmaster = pages_for("cardmaster").demo_matches["knock-out"](PRIVATE_NAMES)  # a finished match
    Match.objects.filter(pk=cardmaster.pk).update(owner_device=device_of(phone))
    # Dead links: a revoked seat link of the private match and a revoked invite of the club.
    Invite.objects.create(match=private, kind=Invite.SEAT, seat=1, token="dead-seat-link", revoked=private.created)
    ClubInvite.objects.create(club=club, token="dead-club-link", revoked=private.created)
    club_match = services.match_create(slug="card-crush", player_names=list(CLUB_NAMES), config={}, club=club,
                                       owner=organiser.user)
    play_out(lock_both(club_match, ANA_DECK, BEN_DECK))
    for seat in (0, 1):  # its players confirmed it, so it counts in the club's statistics and ratings
        Confirmation.objects.create(match=club_match, seat=seat, kind=Confirmation.AFTER)
    Match.objects.filter(pk=club_match.pk).update(unconfirmed=False)
    cup = tournaments.tournament_create(name=CUP, player_names=list(CLUB_NAMES), club=club)
    tournaments.round_pair(tournament_id=cup.pk, expected_round=0, organiser=organiser.user)
    phoenix = Card.objects.get(slug="card-crush", name="Phoenix")
    CollectionCard.objects.create(player=Player.objects.get(name=CLUB_NAMES[0]), card=phoenix, club=club)
    CollectionCard.objects.create(player=Player.objects.get(name=PRIVATE_NAMES[0]), card=phoenix)
    return {"phone": phone, "private": private, "club_match": club_match, "cup": cup, "club": club, "cardmaster": cardmaster,
            "outsider": Client(), "stranger": stranger, "member": member, "organiser": organiser}


def every_page(world) -> dict[str, str]:
    """Every page that reads (each URL name, see test_every_url_is_read_here_or_written_in_a_persona_test)."""
    urls = {
        "healthz": reverse("healthz"), "service worker": reverse("service_worker"),
        "manifest": reverse("web_manifest"), "offline": reverse("offline"), "settings": reverse("settings"),
        "sign in": reverse("sign_in"), "sign up": reverse("sign_up"), "password": reverse("password_change"),
        "import a match": reverse("match_import"), "catalogs": reverse("card_games"),
        "dead join link": reverse("join", args=["dead-seat-link"]),
        "dead club link": reverse("club_join", args=["dead-club-link"]),
        "home": reverse("home"),
        "match list": reverse("match_list"),
        "stats": reverse("stats"),
        "stats of the game": reverse("stats") + "?game=card-crush",
        "stats of the club": reverse("stats") + f"?club={world['club'].pk}",
        "new match": reverse("match_new", args=["card-crush"]),
        "ratings": reverse("ratings_index"),
        "tournaments": reverse("tournaments_index"),
        "clubs": reverse("club_list"),
        "club": reverse("club_detail", args=[world["club"].pk]),
        "leaderboard": reverse("leaderboard", args=[world["club"].pk]),
        "club tournaments": reverse("tournament_list", args=[world["club"].pk]),
        "cup": reverse("tournament_detail", args=[world["cup"].pk]),
        "collections": reverse("collection_index"),
        "club collections": reverse("club_collections", args=[world["club"].pk]),
    }
    for slug in rules.GAMES:
        urls[f"catalog of {slug}"] = reverse("card_list", args=[slug])
        urls[f"recent cards of {slug}"] = reverse("card_picks", args=[slug])
        urls[f"catalog file of {slug}"] = reverse("card_export", args=[slug])
    for card in Card.objects.filter(slug="card-crush", name__in=[ANA_DECK[0], BEN_DECK[0]]):
        for name in ("card_detail", "card_edit", "card_delete"):
            urls[f"{name} {card.name}"] = reverse(name, args=["card-crush", card.pk])
        urls[f"club correction of {card.name}"] = reverse("card_club_correction",
                                                          args=["card-crush", card.pk, world["club"].pk])
    for player in Player.objects.filter(name__in=PRIVATE_NAMES + CLUB_NAMES):
        urls[f"match list of {player.name}"] = reverse("match_list") + f"?player={player.pk}"
        urls[f"stats of {player.name}"] = reverse("stats_player", args=[player.pk])
        urls[f"rating of {player.name}"] = reverse("player_rating", args=[world["club"].pk, player.pk])
        urls[f"collection of {player.name}"] = reverse("collection_detail", args=[player.pk])
        urls[f"club collection of {player.name}"] = reverse("club_collection_detail",
                                                            args=[world["club"].pk, player.pk])
    for which in ("private", "club_match"):
        match = world[which]
        for name in ("match_detail", "match_log", "match_replay", "match_export_json", "match_export_text",
                     "match_poll", "battle_rating"):
            urls[f"{which} {name}"] = reverse(name, args=[match.pk])
        for seat in (0, 1):
            for name in ("match_entry", "match_pass"):
                urls[f"{which} {name} {seat}"] = reverse(name, args=[match.pk, seat])
    for name in ("match_detail", "cardmaster_steps", "cardmaster_hint", "cardmaster_analysis"):
        urls[f"private cardmaster {name}"] = reverse(name, args=[world["cardmaster"].pk])
    return urls


def url_names(patterns) -> set[str]:
    names = set()
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            names |= url_names(pattern.url_patterns)
        elif isinstance(pattern, URLPattern) and pattern.name:
            names.add(pattern.name)
    return names


# Views that only take a POST, each with the persona test that proves who may use it.
WRITES_PROVEN = {
    "match_act": "test_personas::test_every_write_to_a_club_battle_per_persona",
    "match_goto": "test_personas::test_every_write_to_a_club_battle_per_persona",
    "proposal_answer": "test_personas::test_every_write_to_a_club_battle_per_persona",
    "proposal_withdraw": "test_personas::test_every_write_to_a_club_battle_per_persona",
    "invite_new": "test_personas::test_every_write_to_a_club_battle_per_persona",
    "invite_revoke": "test_personas::test_every_write_to_a_club_battle_per_persona",
    "match_void": "test_personas::test_every_write_to_a_club_battle_per_persona",
    "cardmaster_ai_turn": "test_personas::test_only_the_showdowns_players_ask_the_ai_to_move",
    "tournament_reopen": "test_personas::test_only_an_organiser_reopens_an_ended_tournament",
    "tournament_pair": "test_competition_tournaments::test_only_the_organiser_changes_a_tournament",
    "tournament_entrant": "test_competition_tournaments::test_only_the_organiser_changes_a_tournament",
    "tournament_finish": "test_competition_tournaments::test_only_the_organiser_changes_a_tournament",
    "tournament_drop": "test_competition_tournaments::test_only_the_organiser_drops_a_player",
    "club_new": "test_clubs::test_a_phone_without_an_account_cannot_start_a_club",
    "club_invite_new": "test_clubs::test_only_organisers_manage_the_club",
    "club_invite_revoke": "test_clubs::test_only_organisers_manage_the_club",
    "club_settings": "test_clubs::test_only_organisers_manage_the_club",
    "club_member": "test_clubs::test_only_organisers_manage_the_club",
    "club_leave": "test_clubs::test_a_club_keeps_an_organiser",
    "card_new": "test_card_changes::test_a_card_added_on_a_phone_is_that_phones",
    "club_claim": "test_card_rule::test_only_organisers_claim_and_give_up_names",
    "club_claim_release": "test_card_rule::test_only_organisers_claim_and_give_up_names",
    "battle_confirm": "test_rating_confirmation::test_an_unfinished_battle_and_an_outsider_confirm_nothing",
    "card_import": "test_catalog_csv::test_a_row_that_would_change_a_protected_card_is_refused_with_its_line_and_the_rest_is_stored",
    "collection_add": "test_competition_collections::test_a_personal_collection_does_not_exist_for_anyone_else",
    "collection_upgrade": "test_competition_collections::test_a_personal_collection_does_not_exist_for_anyone_else",
    "club_collection_add": "test_competition_collections::test_a_club_member_sees_a_club_collection_but_cannot_change_it",
    "club_collection_upgrade":
        "test_competition_collections::test_a_club_member_sees_a_club_collection_but_cannot_change_it",
    # The phone's own settings and session: nothing anyone else owns.
    "set_theme": "test_app_shell::test_a_theme_that_is_not_ours_is_refused_plainly",
    "set_language": "test_app_shell::test_a_language_we_do_not_have_is_refused_plainly",
    "sign_out": "test_accounts::test_sign_out_needs_a_post",
    # Pages of their own, with their own tests: the stream answers as the poll does; the HTTPS
    # steps and certificate are the same for every phone; a take-over is an organiser's.
    "match_events": "test_live_stream::test_the_stream_is_refused_to_outsiders_as_the_poll_is",
    "trust_page": "test_trust_page::test_with_https_a_phone_gets_the_steps_a_qr_code_and_the_certificate",
    "trust_certificate": "test_trust_page::test_with_https_a_phone_gets_the_steps_a_qr_code_and_the_certificate",
    "match_take_over":
        "test_table_authority::test_a_removed_members_open_club_match_counts_only_once_an_organiser_takes_it_over",
}


def test_every_url_is_read_here_or_written_in_a_persona_test(world):
    """A new page cannot be forgotten: it is rendered by the tests below, or its writes are proven."""
    read = {resolve(urlsplit(url).path).url_name for url in every_page(world).values()}
    missing = url_names(get_resolver().url_patterns) - read - set(WRITES_PROVEN)
    assert not missing, f"pages no persona test renders or writes: {sorted(missing)}"
    for proof in WRITES_PROVEN.values():
        module, name = proof.split("::")
        assert hasattr(importlib.import_module(f"tests.tracker.{module}"), name), proof


def test_an_outsider_and_another_clubs_organiser_learn_nothing(world):
    for who in ("outsider", "stranger"):
        client = world[who]
        for where, url in every_page(world).items():
            status, text = page(client, url)
            assert status < 500, (who, where)
            for name in PRIVATE_NAMES + CLUB_NAMES + (CUP,):
                assert name not in text, f"{name} shown to the {who} on {where}"
            if any(part in where for part in ("match_", "battle_rating", "cardmaster_")):
                assert status == 404, (who, where)


def test_counts_leave_out_what_one_may_not_open(world):
    for who, expected in (("outsider", 0), ("stranger", 0), ("member", 1), ("organiser", 1)):
        response = world[who].get(reverse("stats"), {"game": "card-crush"})
        assert response.context["match_count"] == expected, who
    assert world["phone"].get(reverse("stats"), {"game": "card-crush"}).context["match_count"] == 1


@pytest.mark.parametrize("who", ["member", "organiser"])
def test_a_club_member_sees_the_clubs_matches_and_nothing_private(world, who):
    client = world[who]
    for where, url in every_page(world).items():
        _status, text = page(client, url)
        for name in PRIVATE_NAMES:
            assert name not in text, f"{name} shown to a {who} on {where}"
    for name in ("match list", "leaderboard", "cup", "stats of the club"):
        _status, text = page(client, every_page(world)[name])
        assert all(n in text for n in CLUB_NAMES), (who, name)
    assert client.get(world["club_match"].get_absolute_url()).status_code == 200
    assert client.get(world["private"].get_absolute_url()).status_code == 404


def test_the_private_matchs_phone_sees_only_its_own(world):
    client = world["phone"]
    for where, url in every_page(world).items():
        _status, text = page(client, url)
        for name in CLUB_NAMES + (CUP,):
            assert name not in text, f"{name} shown to the private match's phone on {where}"
    _status, text = page(client, reverse("match_list"))
    assert all(name in text for name in PRIVATE_NAMES)


def test_a_club_that_shows_its_results_shows_names_and_results_but_never_decks(world):
    club = world["club"]
    club.public_leaderboard = club.public_tournaments = True
    club.save()
    outsider = world["outsider"]
    for where in ("leaderboard", "cup"):
        status, text = page(outsider, every_page(world)[where])
        assert status == 200 and all(name in text for name in CLUB_NAMES), where
    status, text = page(outsider, reverse("battle_rating", args=[world["club_match"].pk]))
    assert status == 200 and "Open the battle" not in text
    for name in ANA_DECK + BEN_DECK:
        assert name not in text
    assert outsider.get(world["club_match"].get_absolute_url()).status_code == 404
    status, text = page(outsider, reverse("stats"))
    assert not any(name in text for name in CLUB_NAMES), "statistics stay with the members"


def test_a_guessed_player_number_names_nobody_even_on_a_development_servers_404(world, settings):
    """A development server's 404 page shows the refusal's words: they must not name the player."""
    settings.DEBUG = True
    club = world["club"]
    club.public_leaderboard = True
    club.save()
    for player in Player.objects.filter(name__in=PRIVATE_NAMES):
        status, text = page(world["outsider"], reverse("player_rating", args=[club.pk, player.pk]))
        assert status == 404 and player.name not in text
