"""Starting a match: who plays, which options; names are people, reused in any case."""

import pytest
from django.urls import reverse

from tracker.matches import names, services
from tracker.models import Match, Player, Seat

from .helpers import JUNK, JUNK_IDS, assert_csrf_refused, csrf_token_from, text

pytestmark = pytest.mark.django_db

URL = reverse("match_new", args=["card-crush"])


def start(client, *names, resolution="battle-score", **extra):
    data = {f"player_{seat}": name for seat, name in enumerate(names)}
    data["config-resolution"] = resolution
    data.update(extra)
    return client.post(URL, data)


def test_it_shows_the_form(client, catalog):
    services.match_create(slug="card-crush", player_names=["Dev", "Eve"], config={})  # a table match: open to all
    services.match_create(slug="card-crush", player_names=["Kim", "Lou"], config={}, owner_device="another phone")
    response = client.get(URL)
    assert response.status_code == 200
    html = text(response)
    assert "New Card Crush battle" in html
    assert 'name="player_0"' in html and 'name="player_1"' in html
    assert 'name="config-resolution"' in html
    assert '<option value="Dev">' in html  # players of matches this phone may see are offered
    assert "Kim" not in html and "Lou" not in html, "another phone's private match names nobody here"


def test_it_prefills_names_from_the_query(client):
    html = text(client.get(URL, {"player_0": "Ana"}))
    assert 'value="Ana"' in html


def test_it_creates_the_match_and_its_players(client):
    response = start(client, "Ana", "Ben")
    match = Match.objects.get()
    assert response.status_code == 302
    assert response.url == match.get_absolute_url()
    assert match.slug == "card-crush"
    assert match.head == 0
    assert [p.name for p in match.players()] == ["Ana", "Ben"]
    assert match.config == {"resolution": "battle-score"}
    assert match.state["decks"] == [None, None]
    assert "Match started." in text(client.get(response.url))


def test_it_reuses_an_existing_player_in_any_case(client):
    ana = Player.objects.create(name="Ana")
    start(client, "  aNA ", "Ben")
    match = Match.objects.get()
    assert match.players()[0] == ana
    assert Player.objects.count() == 2


def test_it_tidies_spaces_in_names(client):
    start(client, "Ana   Lee", "Ben")
    assert Player.objects.filter(name="Ana Lee").exists()


def test_it_reuses_a_player_whose_name_has_accents_in_another_case(client):
    elodie = Player.objects.create(name="Élodie")
    start(client, "élodie", "Ben")
    assert Match.objects.get().players()[0] == elodie
    assert Player.objects.filter(name__in=["Élodie", "élodie"]).count() == 1


def test_it_stores_the_power_only_option(client):
    start(client, "Ana", "Ben", resolution="power-only")
    match = Match.objects.get()
    assert match.config == {"resolution": "power-only"}
    assert match.state["resolution"] == "power-only"
    html = text(client.get(match.get_absolute_url()))
    assert "rounds decided by Power only" in html


def test_it_refuses_the_same_player_twice(client):
    response = start(client, "Ana", "ana")
    assert response.status_code == 422
    assert "Each seat needs a different player." in text(response)
    assert not Match.objects.exists()
    assert not Player.objects.exists()


@pytest.mark.parametrize("names", [("", "Ben"), ("Ana", "   "), ("", "")])
def test_it_refuses_blank_names(client, names):
    response = start(client, *names)
    assert response.status_code == 422
    assert "This field is required." in text(response)
    assert not Match.objects.exists()
    assert not Seat.objects.exists()
    assert not Player.objects.exists()


def test_it_refuses_an_unknown_option(client):
    response = start(client, "Ana", "Ben", resolution="dice-only")
    assert response.status_code == 422
    assert "Select a valid choice" in text(response)
    assert not Match.objects.exists()


def test_it_refuses_a_name_too_long(client):
    response = start(client, "A" * 41, "Ben")
    assert response.status_code == 422
    assert not Match.objects.exists()


def test_it_404s_for_an_unknown_game(client):
    assert client.get(reverse("match_new", args=["chess"])).status_code == 404
    assert client.post(reverse("match_new", args=["chess"]), {"player_0": "A", "player_1": "B"}).status_code == 404
    assert not Match.objects.exists()


def test_it_refuses_other_methods(client):
    assert client.put(URL).status_code == 405
    assert client.delete(URL).status_code == 405


# ---------------------------------------------------------------- CSRF and junk


def test_it_refuses_a_post_without_csrf_token(csrf_client):
    assert_csrf_refused(csrf_client.post(URL, {"player_0": "Ana", "player_1": "Ben", "config-resolution": "battle-score"}))
    assert not Match.objects.exists()
    assert not Player.objects.exists()


def test_it_accepts_a_post_with_the_pages_csrf_token(csrf_client):
    token = csrf_token_from(csrf_client, URL)
    data = {"player_0": "Ana", "player_1": "Ben", "config-resolution": "battle-score", "csrfmiddlewaretoken": token}
    assert csrf_client.post(URL, data).status_code == 302
    assert Match.objects.count() == 1


@pytest.mark.parametrize("junk", JUNK, ids=JUNK_IDS)
@pytest.mark.parametrize("shape", ["all-fields", "config-resolution"])
def test_no_junk_makes_it_fail(client, junk, shape):
    Player.objects.create(name="Ben")
    data = {"player_0": "Ana", "player_1": "Ben", "config-resolution": "battle-score"}
    if shape == "all-fields":
        data = {key: junk for key in data}
    else:
        data[shape] = junk
    response = client.post(URL, data)
    assert 400 <= response.status_code < 500
    assert not Match.objects.exists()
    assert list(Player.objects.values_list("name", flat=True)) == ["Ben"]


@pytest.mark.parametrize("junk", JUNK, ids=JUNK_IDS)
def test_an_odd_name_is_refused_or_kept_exactly(client, junk):
    """Any text may be a name; it is either refused (nothing stored) or stored in its compatibility form, without
    the characters a page draws as nothing (tracker/matches/names.py), and shown escaped."""
    Player.objects.create(name="Ben")
    response = client.post(URL, {"player_0": junk, "player_1": "Ben", "config-resolution": "battle-score"})
    if 400 <= response.status_code < 500:
        assert not Match.objects.exists()
        assert Player.objects.count() == 1
        return
    assert response.status_code == 302
    name = names.player_name(junk[-1] if isinstance(junk, list) else junk)
    match = Match.objects.get()
    assert match.players()[0].name == name
    html = text(client.get(match.get_absolute_url()))
    assert "<script>alert(1)</script>" not in html


@pytest.mark.parametrize(("kept", "twin"), [
    ("Ana", "ΑΝΑ"),  # Greek capitals
    ("KIM", "\u039a\u0399\u039c"),  # Greek capitals, an iota drawn as a capital I
    ("Isa", "\u0406\u0455\u0430"),  # Cyrillic
    ("Ali", "Al\u0131\u0307"),  # a dotless i with a dot above
    ("Eli", "Eli\u0307"),  # an i with a second dot above, drawn on its own
    ("Noé", "Noe\u0301\u0301"),  # an accent typed twice, drawn once
    ("Anja", "An\u0237\u0307a"),  # a dotless j with a dot above
    ("Anja", "Anj\u0327a"),  # a cedilla in the j's tail
    ("Dev", "De\u0335v"),  # a short stroke along the e's bar
    ("Qi", "\u051a\u0456"),  # Cyrillic, with a capital qa the confusables table leaves out
])
def test_a_name_drawn_like_a_player_s_is_that_player(client, kept, twin):
    """A name drawn like a kept one on every page is the same player, never a second one (an organiser entered
    herself so, and refereed her rivals' battles again)."""
    player = Player.objects.create(name=kept)
    assert names.look(twin) == names.look(kept)
    assert client.post(reverse("match_new", args=["card-crush"]), {
        "player_0": twin, "player_1": "Ben", "config-resolution": "battle-score"}).status_code == 302
    assert Match.objects.get().players()[0].pk == player.pk
    assert not Player.objects.exclude(name__in=[kept, "Ben"]).exists()


@pytest.mark.parametrize("typed", [["ꓮna", "Ben"], ["Ⲃen", "Ana"], ["Ana", "ΑΝΑ"], ["Dev", "ꭰev".upper()],
                                   ["Chloé", "C\u05c2hloé"]])
def test_a_look_alike_is_refused_where_it_is_typed(client, typed):
    """A Lisu A or a Coptic B in a Latin word, or two seats drawn alike: refused, nothing made."""
    response = client.post(reverse("match_new", args=["card-crush"]), {
        "player_0": typed[0], "player_1": typed[1], "config-resolution": "battle-score"})
    assert response.status_code == 422
    assert "another script" in text(response) or "Each seat needs a different player." in text(response)
    if typed[0] == "ꓮna":  # on the page it looks like an A: the message says which letter, by its number
        assert "in ꓮna, “ꓮ” (U+A4EE) is of another script" in text(response)
    assert not Match.objects.exists()


def test_latin_names_that_differ_stay_apart():
    """The table also makes "m" an "rn" and "0" an "O": Tom and Torn, Bob and B0b are two players; a capital İ
    shows its dot."""
    for one, other in (("Tom", "Torn"), ("Bob", "B0b"), ("Modem Knight", "Modern Knight"), ("Sliver", "Silver"),
                       ("Istanbul", "İstanbul")):
        assert names.look(one) != names.look(other)


def test_a_word_of_a_look_alike_alphabet_mixed_with_another_script_is_named():
    assert names.foreign_letter("ОᏞᎶА") == "“Ꮮ” (U+13DE)"  # Cyrillic with Cherokee
    # A Hebrew point on a Latin letter, drawn on it as nothing: "C\u05c2hloé" was a second Chloé.
    assert names.foreign_letter("C\u05c2hloé") == "“\u05c2” (U+05C2)"
    assert names.foreign_letter("Ọ̀ṣun") == names.foreign_letter("שָׁלוֹם") == names.foreign_letter("नमस्ते") == ""
    assert names.foreign_letter("田中さん") == names.foreign_letter("Hawaiʻi") == names.foreign_letter("Сергей") == ""
def test_chloe_in_cyrillic_letters_is_chloe():
    assert names.look("Сһӏое́") == names.look("Chloé") != names.look("Chloe")
    assert names.look("Сергей") != names.look("Sergei")  # a Russian name is its own
