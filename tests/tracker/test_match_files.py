"""The export and import pages: a match as a JSON file or plain text, and a file stored only if it re-runs."""

import json

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from tracker.matches import services
from tracker.models import Match
from tracker.review import exchange

from .helpers import ANA_DECK, BEN_DECK, csrf_token_from, lock, lock_both, play, text
from .test_exchange import as_file, counts, play_script, rename

pytestmark = pytest.mark.django_db

IMPORT_URL = reverse("match_import")


def json_url(match: Match) -> str:
    return reverse("match_export_json", args=[match.pk])


def text_url(match: Match) -> str:
    return reverse("match_export_text", args=[match.pk])


def upload(client, raw: bytes, name: str = "match.json"):
    return client.post(IMPORT_URL, {"file": SimpleUploadedFile(name, raw, content_type="application/json")})


@pytest.fixture
def rulebook(catalog) -> Match:
    """Ana vs Ben with the rulebook decks: Ben wins 3-2 in 7 steps."""
    return play_script("card-crush", "rulebook")


@pytest.fixture
def clean_file(rulebook) -> dict:
    return rename(as_file(rulebook), "Zed", "Yara")


# --- export as JSON -----------------------------------------------------------------------------


def test_it_exports_a_finished_match_as_a_json_file(client, rulebook):
    response = client.get(json_url(rulebook))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == f'attachment; filename="tablekeeper-card-crush-{rulebook.pk}.json"'
    assert json.loads(response.content) == as_file(rulebook)


def test_it_keeps_accented_names_readable(client, catalog):
    match = play_script("card-crush", "power-only")  # Ben vs Chloé
    raw = client.get(json_url(match)).content
    assert "Chloé".encode() in raw
    assert json.loads(raw)["players"] == ["Ben", "Chloé"]


def test_the_log_page_links_the_exports(client, rulebook):
    html = text(client.get(reverse("match_log", args=[rulebook.pk])))
    assert f'href="{json_url(rulebook)}"' in html
    assert f'href="{text_url(rulebook)}"' in html


def test_it_refuses_json_while_a_deck_is_hidden(client, match):
    lock(match, 0, ANA_DECK)
    response = client.get(json_url(match))
    assert response.status_code == 302
    assert response["Location"] == reverse("match_log", args=[match.pk])
    page = text(client.get(response["Location"]))
    assert "This match can be exported once every hidden entry is revealed." in page
    assert f'href="{json_url(match)}"' not in page  # no link to a refused export
    for name in ANA_DECK:
        assert name not in page


def test_it_refuses_json_while_an_undone_deck_would_leak(client, locked):
    """Both decks locked, then the second lock undone: that deck is hidden again."""
    services.match_goto(match_id=locked.pk, step=1, expected_seq=2)
    assert client.get(json_url(locked)).status_code == 302


def test_it_exports_json_once_both_decks_are_locked(client, locked):
    play(locked, 2)
    response = client.get(json_url(locked))
    assert response.status_code == 200
    data = json.loads(response.content)
    assert len(data["actions"]) == 4 and data["outcome"] is None


@pytest.mark.parametrize("moment", ["fresh", "locked", "round-2"])
def test_a_running_match_never_gives_its_seed_away(client, match, moment):
    if moment != "fresh":
        lock_both(match)
    if moment == "round-2":
        play(match, 2)
    response = client.get(json_url(match))
    assert response.status_code == 200
    assert match.seed.encode() not in response.content
    data = json.loads(response.content)
    assert data["seed"] is None and data["seed_fingerprint"] == match.seed_fingerprint


def test_a_running_matchs_file_is_refused_with_the_reason(client, match):
    lock_both(match)
    raw = client.get(json_url(match)).content
    before = counts()
    assert_not_imported(upload(client, raw), before, "This file was exported while the match was still running")


def test_it_404s_for_an_unknown_match(client, match):
    assert client.get(reverse("match_export_json", args=[match.pk + 1000])).status_code == 404
    assert client.get(reverse("match_export_text", args=[match.pk + 1000])).status_code == 404


def test_export_refuses_post(client, rulebook):
    assert client.post(json_url(rulebook)).status_code == 405


# --- export as text -----------------------------------------------------------------------------


def test_it_exports_the_log_as_text(client, rulebook):
    response = client.get(text_url(rulebook))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="tablekeeper-card-crush-{rulebook.pk}.txt"'
    lines = response.content.decode().splitlines()
    assert lines[0] == f"Card Crush #{rulebook.pk} — Ana vs Ben"
    assert lines[1] == f"Rules version 1. Seed fingerprint {rulebook.seed_fingerprint}."
    assert lines[2] == f"Seed {rulebook.seed}. Result: Ben won 3 rounds to 2."
    body = response.content.decode()
    assert "1. Ana locks in: Ember Fox, Storm Caller, Stone Golem, Phoenix, Gale Sprite" in body
    assert "3. Round 1 revealed\n   Ben wins. Water over Fire +3: 6 + 3 = 9 beats 7 + 0 = 7." in body
    assert "Ben wins the battle 3 rounds to 2." in body


def test_the_text_log_never_names_a_hidden_card(client, match):
    lock(match, 0, ANA_DECK)
    body = client.get(text_url(match)).content.decode()
    assert "1. Ana locks in a hidden deck" in body
    assert match.seed not in body
    for name in ANA_DECK:
        assert name not in body


def test_the_text_log_keeps_the_decks_the_table_saw_after_an_undo(client, locked):
    """Going back before the reveal (with the other side's agreement) hides the decks in the state again, not from the
    table, which saw them: the log keeps them shown (round 30; it once hid them again)."""
    services.match_goto(match_id=locked.pk, step=1, expected_seq=2)
    body = client.get(text_url(locked)).content.decode()
    assert "Ben locks in: Tide Runner" in body and "[undone]" in body
    for name in ANA_DECK + BEN_DECK:
        assert name in body


def test_the_text_log_marks_undone_branches(client, catalog):
    match = play_script("card-crush", "undo-branch")
    body = client.get(text_url(match)).content.decode()
    assert "x Round 1 revealed [undone, replaced by a new branch]" in body
    assert "\n3. Round 1 revealed\n" in body


def test_the_text_log_shows_the_coin_flip(client, catalog):
    match = play_script("card-crush", "coin-flip-tie")
    coin = match.state["rounds"][0]["coin"]
    body = client.get(text_url(match)).content.decode()
    assert f"   Coin flip from the seed: {coin} (who wins round 1)" in body


# --- import -------------------------------------------------------------------------------------


def test_it_shows_the_import_form(client, db):
    response = client.get(IMPORT_URL)
    assert response.status_code == 200
    html = text(response)
    assert "Import a match" in html
    assert "at most 2 MB" in html
    assert 'enctype="multipart/form-data"' in html


def test_it_imports_a_clean_file(client, clean_file):
    matches, actions, players, seats = counts()
    response = upload(client, json.dumps(clean_file).encode())
    assert response.status_code == 302
    imported = Match.objects.latest("id")
    assert response["Location"] == imported.get_absolute_url()
    assert counts() == (matches + 1, actions + 7, players + 2, seats + 2)
    page = client.get(response["Location"])
    assert page.status_code == 200
    assert "Imported: every step re-ran and agreed with the file." in text(page)
    assert imported.winner.name == "Yara" and imported.score == "3-2"


def test_an_export_downloaded_from_the_page_imports_back(client, rulebook):
    raw = client.get(json_url(rulebook)).content
    response = upload(client, raw)
    assert response.status_code == 302
    imported = Match.objects.latest("id")
    assert imported.state == rulebook.state and imported.pk != rulebook.pk


def _tampered(clean: dict, change) -> bytes:
    change(clean)
    return json.dumps(clean).encode()


def _power(f):
    f["actions"][0]["action"]["cards"][0]["power"] = 99


def _deck_of_4(f):
    f["actions"][1]["action"]["cards"].pop()


def _step_removed(f):
    del f["actions"][3]


def _truncated(f):
    f["actions"] = f["actions"][:6]


def _seat(f):
    f["actions"][0]["seat"] = 1


def _renamed(f):
    f["players"][0] = "Xia"


def _score(f):
    f["outcome"]["score"] = "3-0"


def _version(f):
    f["format_version"] = 7


def _rules(f):
    f["rules_version"] = "0"


def _game(f):
    f["game"] = "go-fish"


def _players(f):
    f["players"] = ["Zed"]


TAMPERS = [
    pytest.param(_power, "Step 1: the result differs from the one recorded in the file", id="power"),
    pytest.param(_deck_of_4, "Step 2: the rules refuse this action: A deck has exactly 5 cards, not 4.", id="deck-of-4"),
    pytest.param(_step_removed, "Step 4: the entry is malformed or out of order.", id="step-removed"),
    pytest.param(_truncated, "Step 6: the file claims the result", id="truncated"),
    pytest.param(_score, "Step 7: the file claims the result", id="score"),
    pytest.param(_seat, "Step 1: its action or dice were changed after export", id="chain"),
    pytest.param(_renamed, "The file's game, rules version, options, seed or players were changed after export",
                 id="header"),
    pytest.param(_version, "Match file format version 7 is not supported", id="format-version"),
    pytest.param(_rules, "It is refused rather than re-scored under other rules.", id="rules-version"),
    pytest.param(_game, "This Tablekeeper does not know the game", id="game"),
    pytest.param(_players, "Card Crush needs 2 named players.", id="players"),
]


def assert_not_imported(response, before, says: str) -> None:
    assert response.status_code == 422
    html = text(response)
    assert "Not imported:" in html and "nothing was stored." in html
    assert says in html.replace("&#x27;", "'").replace("&quot;", '"'), html
    assert counts() == before


@pytest.mark.parametrize(("change", "says"), TAMPERS)
def test_it_refuses_a_tampered_file(client, clean_file, change, says):
    before = counts()
    assert_not_imported(upload(client, _tampered(clean_file, change)), before, says)


@pytest.mark.parametrize(("raw", "says"), [
    pytest.param(b'{"format": "tablekeeper-match", "actions": [', "The file is not valid JSON", id="cut"),
    pytest.param(b"[1, 2, 3]", "This is not a Tablekeeper match file.", id="list"),
    pytest.param(b"\xff\xfe\x00{", "The file is not valid JSON", id="not-utf8"),
    pytest.param(b"name,power\nEmber Fox,7\n", "The file is not valid JSON", id="csv"),
])
def test_it_refuses_a_file_that_is_not_a_match_file(client, db, raw, says):
    before = counts()
    assert_not_imported(upload(client, raw), before, says)


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_log_as_text_or_broken_json_is_refused_in_the_readers_words(client, rulebook, language):
    """A play-test imported the log as text and read Python's "(Expecting value: line 1 column 1 (char 0))", in
    English on the German page too. The text export is named as such, and broken JSON is said without the parser."""
    client.post(reverse("set_language"), {"language": language})
    exported = client.get(text_url(rulebook)).content
    before = counts()
    response = upload(client, exported, name="match.txt")
    assert response.status_code == 422
    page = text(response).replace("&#x27;", "'")
    says = {"en": "This is the log as text", "de": "Das ist das Protokoll als Text"}[language]
    assert says in page and "Expecting value" not in page and counts() == before
    for raw in (b'{"format": "tablekeeper-match", "actions": [', b"name,power\nEmber Fox,7\n", b"\xff\xfe\x00{"):
        page = text(upload(client, raw)).replace("&#x27;", "'")
        assert "Expecting" not in page and "char " not in page and "codec" not in page, page
        if language == "de":
            assert "Die Datei ist kein gültiges JSON" in page
    cut = text(upload(client, b'{"format": "tablekeeper-match", "actions": ['))
    assert {"en": "line 1, column 45", "de": "Zeile 1, Spalte 45"}[language] in cut


def _nul_seed(f):
    f["seed"] += "\x00"
    f.pop("seed_fingerprint")


def _nul_option(f):
    f["config"]["resolution\x00"] = "battle-score"


def _nul_card(f):
    f["actions"][1]["action"]["cards"][2]["name"] = "Sky\x00Lancer"


def _nul_elsewhere(f):
    f["note"] = "\x00"


# A NUL in any text that would be stored is refused, naming where; PostgreSQL would refuse to store it.
@pytest.mark.parametrize(("change", "says"), [
    pytest.param(lambda f: f.update(rename(f, "Ze\x00d", "Yara")), "The file holds a NUL character (in the players' names)",
                 id="player"),
    pytest.param(_nul_seed, "The file holds a NUL character (in the seed)", id="seed"),
    pytest.param(_nul_option, "The file holds a NUL character (in the options)", id="option"),
    pytest.param(_nul_card, "Step 2: it holds a NUL character, which no match file has.", id="action"),
    pytest.param(_nul_elsewhere, "The file holds a NUL character (in the file)", id="anywhere"),
])
def test_it_refuses_a_nul_character_and_says_where(client, clean_file, change, says):
    before = counts()
    assert_not_imported(upload(client, _tampered(clean_file, change)), before, says)


def test_an_accounts_import_is_the_accounts_alone(clean_file):
    phone = Client()
    phone.force_login(get_user_model().objects.create_user("ana"))
    assert upload(phone, json.dumps(clean_file).encode()).status_code == 302
    imported = Match.objects.latest("id")
    assert imported.owner.username == "ana" and imported.owner_device == ""  # signing out leaves the phone nothing


def test_it_refuses_a_file_over_the_limit(client, clean_file):
    raw = json.dumps(clean_file).encode()
    raw += b" " * (exchange.MAX_BYTES + 1 - len(raw))
    before = counts()
    assert_not_imported(upload(client, raw), before, "The file is larger than 2 MB")


def test_it_asks_for_a_file(csrf_client, db):
    """The form sent without a file, as a browser sends it (with its CSRF token)."""
    token = csrf_token_from(csrf_client, IMPORT_URL)
    before = counts()
    response = csrf_client.post(IMPORT_URL, {"csrfmiddlewaretoken": token})
    assert response.status_code == 422
    assert "This field is required." in text(response)
    assert counts() == before


def test_it_refuses_an_empty_file(client, db):
    before = counts()
    response = upload(client, b"")
    assert response.status_code == 422
    assert "The submitted file is empty." in text(response)
    assert counts() == before


def test_it_refuses_deeply_nested_json_without_a_500(client, db):
    before = counts()
    assert_not_imported(upload(client, b"[" * 100_000), before, "nested too deeply")


def test_it_refuses_a_huge_integer_without_a_500(client, db):
    before = counts()
    assert_not_imported(upload(client, b'{"format": ' + b"9" * 5000 + b"}"), before, "The file is not valid JSON")


def test_import_refuses_other_methods(client, db):
    assert client.put(IMPORT_URL).status_code == 405
