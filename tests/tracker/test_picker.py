"""Choosing a card by sight (tracker/catalog/picker.py): matching cards with their key stats as you type,
recently used first, never from a match one may not see, never from an entry still hidden; and
every card field of every game offers the picker."""

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from tracker import demo
from tracker.catalog.picker import PICKS, rank
from tracker.matches import services
from tracker.models import Access, Card, Match

from .helpers import (
    ANA_DECK,
    BEN_DECK,
    JUNK,
    JUNK_IDS,
    device_of,
    entry_url,
    lock,
    lock_both,
    play_out,
    text,
)

pytestmark = pytest.mark.django_db

PICK = reverse("card_picks", args=["card-crush"])


def picks(client: Client, query: str = "", slug: str = "card-crush", **params) -> list[str]:
    """The cards offered, in order, as the picker's buttons name them."""
    response = client.get(reverse("card_picks", args=[slug]), {"q": query, **params}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    return [html.unescape(name) for name in re.findall(r'<button type="button" class="pick" data-pick="([^"]+)"',
                                                       text(response))]


def used_lately(client: Client, query: str = "") -> list[str]:
    """The offered cards marked as used lately."""
    body = text(client.get(PICK, {"q": query}, HTTP_HX_REQUEST="true"))
    return [html.unescape(name) for name, tag in
            re.findall(r'data-pick="([^"]+)">.*?</strong>\s*(<span class="tag">used lately</span>)?', body, re.S) if tag]


def phone_with_match(catalog, **create) -> tuple[Client, Match]:
    phone = Client()
    match = services.match_create(slug="card-crush", player_names=["Ana", "Ben"], config={},
                                  owner_device=device_of(phone), **create)
    return phone, match


def entry_page(client: Client, match: Match) -> str:
    """Seat 0's entry page, without its signed token and CSRF token (new on every visit)."""
    page = text(client.get(entry_url(match, 0)))
    return re.sub(r'(name="(?:entry_token|csrfmiddlewaretoken)" value=")[^"]+', r"\1", page).replace(
        re.search(r'"x-csrftoken": "([^"]+)"', page).group(1), "")


ALPHABETICAL = sorted(["Ancient Oak", "Canyon Brute", "Dawn Acolyte", "Ember Fox", "Flame Knight", "Frost Wisp"])


# ---------------------------------------------------------------- ranking (no database)


@pytest.mark.django_db(False)
def test_names_that_start_with_the_query_come_before_words_and_inner_matches():
    names = ["Radiant Seraph", "Phoenix", "Sun Paladin", "Graphite", "Leviathan"]
    assert rank(names, "ph", []) == ["Phoenix", "Graphite", "Radiant Seraph"]
    assert rank(names, "pa", []) == ["Sun Paladin"]
    assert rank(names, "  PHOE ", []) == ["Phoenix"]
    assert rank(names, "", []) == sorted(names)
    assert rank(names, "zz", []) == []


@pytest.mark.django_db(False)
def test_recently_used_cards_come_first_most_recent_first():
    names = ["Phoenix", "Ember Fox", "Leviathan", "Flame Knight"]
    assert rank(names, "", ["leviathan", "ember fox"]) == ["Leviathan", "Ember Fox", "Flame Knight", "Phoenix"]
    # A recent card still has to match what is typed.
    assert rank(names, "f", ["leviathan", "flame knight"]) == ["Flame Knight", "Ember Fox"]


# ---------------------------------------------------------------- the view


def test_it_offers_the_matching_cards_with_their_key_stats_and_pages(client, catalog):
    response = client.get(PICK, {"q": "pho"}, HTTP_HX_REQUEST="true")
    body = text(response)
    assert picks(client, "pho") == ["Phoenix"]
    assert "Power <b>9</b>" in body and "Speed <b>8</b>" in body and "Affinity <b>Fire</b>" in body
    assert "Rarity" not in body  # not a key stat: the catalog and the card's page have it
    assert reverse("card_detail", args=["card-crush", catalog["Phoenix"].pk]) in body
    assert "<html" not in body and "<form" not in body


def test_it_reads_the_query_from_the_field_it_is_named_after(client, catalog):
    assert picks(client, field="card_3", card_3="storm") == ["Storm Caller"]
    assert picks(client, "", field="card_name", card_name="leviathan") == ["Leviathan"]


def test_it_offers_at_most_a_screenful_and_says_how_many_more(client, catalog):
    offered = picks(client, "")
    assert offered == sorted(catalog)[:PICKS]
    assert f"{len(catalog) - PICKS} more cards: type more of the name." in text(
        client.get(PICK, {"q": ""}, HTTP_HX_REQUEST="true"))


def test_it_says_when_no_card_matches(client, catalog):
    response = client.get(PICK, {"q": "<b>zzz"}, HTTP_HX_REQUEST="true")
    assert picks(client, "zzz") == []
    assert "No card in the catalog matches “&lt;b&gt;zzz”." in text(response)


def test_cards_this_phone_played_lately_come_first(catalog):
    phone, match = phone_with_match(catalog)
    play_out(lock_both(match))
    # Ben's deck was locked last, so it comes first, in its round order; then Ana's.
    assert picks(phone, "") == BEN_DECK + ANA_DECK[:1]
    assert used_lately(phone) == picks(phone, "")
    # Typing narrows the list; the recent ones that still match stay first, in the same order.
    assert picks(phone, "s") == ["Frost Wisp", "Sky Lancer", "Thorn Sprout", "Storm Caller", "Stone Golem",
                                 "Gale Sprite"]


def test_the_newest_use_wins_across_matches(catalog):
    phone, older = phone_with_match(catalog)
    play_out(lock_both(older))
    _phone, newer = phone, services.match_create(slug="card-crush", player_names=["Ana", "Cleo"], config={},
                                                 owner_device=device_of(phone))
    play_out(lock_both(newer, ["Leviathan", "Sun Paladin", "Night Stalker", "Winter Queen", "Volt Imp"], BEN_DECK))
    assert picks(phone, "")[:5] == BEN_DECK
    # Then the newer match's other deck, before anything of the older match.
    assert picks(phone, "l") == ["Sky Lancer", "Void Lord", "Leviathan", "Sun Paladin", "Night Stalker", "Volt Imp"]


def test_a_deck_still_hidden_never_moves_a_card_up(catalog):
    """During lock-in, Ben's locked deck is a secret on this very phone: Ana's entry page must not learn it."""
    phone, match = phone_with_match(catalog)
    before = entry_page(phone, match)
    lock(match, 1, BEN_DECK)
    assert picks(phone, "") == ALPHABETICAL
    assert used_lately(phone) == []
    for name in BEN_DECK:
        assert picks(phone, name[:3]) == picks(Client(), name[:3])
    assert entry_page(phone, match) == before.replace('name="seq" value="0-0"', 'name="seq" value="1-1"')


def test_another_phones_private_matches_never_count(catalog):
    _owner, match = phone_with_match(catalog)
    play_out(lock_both(match))
    outsider = Client()
    assert picks(outsider, "") == ALPHABETICAL
    assert used_lately(outsider) == []


def test_a_seat_joined_by_link_counts_and_a_watch_link_does_not(catalog):
    _owner, match = phone_with_match(catalog)
    play_out(lock_both(match))
    seated, watching = Client(), Client()
    Access.objects.create(match=match, device=device_of(seated), role=Access.PLAYER, seat=1)
    Access.objects.create(match=match, device=device_of(watching), role=Access.SPECTATOR)
    assert picks(seated, "")[:5] == BEN_DECK
    assert picks(watching, "") == ALPHABETICAL


def test_a_club_match_one_only_watches_does_not_count(catalog, club, organiser, member):
    match = services.match_create(slug="card-crush", player_names=["Ana", "Ben"], config={}, club=club,
                                  owner=organiser.user)
    play_out(lock_both(match))
    assert picks(member, "") == ALPHABETICAL
    assert picks(organiser, "")[:5] == BEN_DECK


def test_undone_cards_no_longer_count(catalog):
    phone, match = phone_with_match(catalog)
    lock_both(match)
    services.match_goto(match_id=match.pk, step=1, expected_seq=2)
    # Ben's deck is taken back, and Ana's is hidden again until he locks one.
    assert picks(phone, "") == ALPHABETICAL
    services.match_goto(match_id=match.pk, step=2, expected_seq=1)
    assert picks(phone, "")[:5] == BEN_DECK


def test_only_cards_of_the_asked_game_count(catalog):
    demo.load_catalogs()
    phone, match = phone_with_match(catalog)
    play_out(lock_both(match))
    assert picks(phone, "", slug="lonely-star") == sorted(
        Card.objects.filter(slug="lonely-star").values_list("name", flat=True))[:PICKS]


@pytest.mark.parametrize("query", JUNK, ids=JUNK_IDS)
def test_junk_never_breaks_it(client, catalog, query):
    response = client.get(PICK, {"q": query, "field": "q"}, HTTP_HX_REQUEST="true")
    if query == "\x00":
        assert response.status_code == 400
        assert "NUL" in text(response)
    else:
        assert response.status_code == 200
        assert "<script>alert" not in text(response)


def test_a_nul_anywhere_in_the_query_is_refused(client, catalog):
    assert client.get(PICK, {"q": "Pho\x00enix"}, HTTP_HX_REQUEST="true").status_code == 400
    assert client.get(PICK, {"field": "a\x00"}, HTTP_HX_REQUEST="true").status_code == 400


def test_without_htmx_it_is_the_catalogs_search(client, catalog):
    response = client.get(PICK, {"q": "pho"})
    assert response.status_code == 302
    assert response.url == reverse("card_list", args=["card-crush"]) + "?q=pho"


def test_it_404s_for_an_unknown_game_and_refuses_post(client):
    assert client.get(reverse("card_picks", args=["chess"]), HTTP_HX_REQUEST="true").status_code == 404
    assert client.post(PICK).status_code == 405


def test_its_queries_do_not_grow_with_the_matches_played(catalog, django_assert_max_num_queries):
    phone, match = phone_with_match(catalog)
    play_out(lock_both(match))
    for _ in range(5):
        _phone, more = phone, services.match_create(slug="card-crush", player_names=["Ana", "Ben"], config={},
                                                    owner_device=device_of(phone))
        play_out(lock_both(more))
    with django_assert_max_num_queries(6):
        picks(phone, "s")


# ---------------------------------------------------------------- every card field offers it


def picker_fields(page: str) -> list[str]:
    """The names of the inputs that ask the picker as they are typed in."""
    return re.findall(r'<input type="text" id="[^"]+" name="([^"]+)"[^>]*data-picker[^>]*hx-get="/cards/[^/]+/pick/\?field=\1"',
                      page, re.S)


def test_the_card_crush_deck_entry_offers_it_for_every_round(client, match):
    assert picker_fields(text(client.get(entry_url(match, 0)))) == [f"card_{n}" for n in range(1, 6)]


def test_the_cardmaster_lineup_entry_offers_it_for_every_slot(client):
    demo.load_catalogs()
    match = services.match_create(slug="cardmaster", player_names=["Ana", "Ben"], config={"size": 3})
    page = text(client.get(entry_url(match, 0)))
    assert picker_fields(page) == ["card_1", "card_2", "card_3"]
    assert 'hx-get="/cards/cardmaster/pick/?field=card_1"' in page


def test_the_logos_commit_offers_it_for_the_card_and_the_backup(client):
    demo.load_catalogs()
    match = services.match_create(slug="logos", player_names=["Ana", "Ben"], config={})
    assert picker_fields(text(client.get(entry_url(match, 0)))) == ["card", "backup"]


@pytest.mark.parametrize(("slug", "field"), [("lonely-star", "name"), ("evons", "card_name")],
                         ids=["the lonely star unit form", "the evons play form"])
def test_a_board_form_offers_it(client, slug, field):
    demo.load_catalogs()
    match = services.match_create(slug=slug, player_names=["Ana", "Ben"], config={})
    page = text(client.get(match.get_absolute_url()))
    assert field in picker_fields(page)
    assert f'hx-get="/cards/{slug}/pick/?field={field}"' in page


def test_a_refused_entry_keeps_each_picked_card_in_its_field(client, match):
    response = client.post(entry_url(match, 0), {**{f"card_{n}": name for n, name in enumerate(ANA_DECK, 1)},
                                                 "card_5": "Phoenix", "seq": 0,
                                                 "entry_token": re.search(r'name="entry_token" value="([^"]+)"',
                                                                          text(client.get(entry_url(match, 0)))).group(1)})
    assert response.status_code == 422
    page = text(response)
    for name in ANA_DECK[:4]:
        assert f'value="{name}"' in page
    assert 'aria-invalid="true" aria-describedby="id_card_5_error"' in page
    assert "Phoenix is already in this deck" in page


@pytest.mark.parametrize(("slug", "config", "sent", "first"), [
    ("card-crush", {}, {"card_1": "Ember Fox", "card_2": "Phoenix", "card_3": "No Such Card", "card_4": "Void Lord",
                        "card_5": "Phoenix"}, "card_3"),
    ("cardmaster", {"size": 3}, {"card_1": "Gale Harrier", "card_2": "No Such Card", "card_3": "Nor This One"}, "card_2"),
    ("logos", {}, {"card": "Iron Golem", "backup": "No Such Card"}, "backup"),
], ids=["a card crush deck", "a cardmaster lineup", "a logos commit"])
def test_a_refused_entry_opens_on_its_first_refused_card_field(client, slug, config, sent, first):
    """As a form drawn by tracker/field.html (refused_forms): the first refused card field alone has `autofocus`, so
    the page opens on it, and each refused field's error stands between its label and the field."""
    demo.load_catalogs()
    match = services.match_create(slug=slug, player_names=["Ana", "Ben"], config=config)
    token = re.search(r'name="entry_token" value="([^"]+)"', text(client.get(entry_url(match, 0)))).group(1)
    response = client.post(entry_url(match, 0), {**sent, "seq": match.head, "entry_token": token})
    assert response.status_code == 422
    page = text(response)
    focused = re.findall(r'<[a-z]+[^>]*\sautofocus\b[^>]*>', page)
    assert len(focused) == 1 and f'name="{first}"' in focused[0] and "data-autofocus" in focused[0], focused
    refused = [name for name in sent if f'id="id_{name}_error"' in page]
    assert first == refused[0]
    for name in refused:
        label, error, field = (page.index(f'<label for="id_{name}">'), page.index(f'<p class="error" id="id_{name}_error">'),
                               page.index(f'name="{name}"'))
        assert label < error < field, name


# ---------------------------------------------------------------- every stat in the catalog


def catalog_row(client: Client, slug: str, name: str) -> dict[str, str]:
    """One card's row of a game's catalog page, by column header."""
    page = text(client.get(reverse("card_list", args=[slug]), {"q": name}))
    headers = [html.unescape(h) for h in re.findall(r'<th scope="col">(.*?)</th>', page)]
    row = re.search(rf'<tr><th scope="row"><a [^>]*>{re.escape(name)}</a></th>(.*?)</tr>', page, re.S)
    assert row, f"{name} is not in the {slug} catalog"
    return dict(zip(headers[1:], [html.unescape(v) for v in re.findall(r"<td>(.*?)</td>", row.group(1))], strict=True))


@pytest.mark.parametrize(("slug", "name", "shown"), [
    ("logos", "Rulebook Datacard", {"Class": "INFORMATION", "ATTACK": "5000", "DEFENSE": "20000", "SPEED": "70",
                                    "Combo (panels 1, 2, 3)": "grey, blue, blue", "Left effect (on the opponent)": "none",
                                    "Right effect (on its owner)": "Regeneration"}),
    ("logos", "Recolor Virus", {"Combo (panels 1, 2, 3)": "none needed", "Left effect (on the opponent)": "Color Change red → white"}),
    ("cardmaster", "Gale Harrier", {"Types (A1 / A2)": "➶ Gale / ✹ Ember", "HP": "520", "ATK": "300", "DEF": "80",
                                    "SPD": "170"}),
    ("evons", "Ember Fox", {"Cost": "3", "ATK": "4", "DEF": "5", "Arrows": "↑ Normal, → Normal"}),
    ("card-crush", "Ember Fox", {"Power": "7", "Speed": "5", "Affinity": "Fire"}),
])
def test_every_games_catalog_shows_every_stat_its_cards_have(client, slug, name, shown):
    demo.load_catalogs()
    row = catalog_row(client, slug, name)
    assert {label: row.get(label) for label in shown} == shown
