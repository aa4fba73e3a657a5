"""A game's card catalog as CSV: export every card; import with each bad line named (a wrong row stores nothing,
a row changing a protected card is left out)."""

import csv
import html as htmllib
import io
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

import rules
from tracker import demo
from tracker.catalog import csv_files as catalog_csv
from tracker.catalog.changes import Editor
from tracker.matches import services
from tracker.models import Card, CardChange

from .helpers import ANA_DECK, BEN_DECK, device_of, lock, text

pytestmark = pytest.mark.django_db

HEADER = "name,power,speed,affinity,rarity,level"
EXPORT_URL = reverse("card_export", args=["card-crush"])
IMPORT_URL = reverse("card_import", args=["card-crush"])
LIST_URL = reverse("card_list", args=["card-crush"])


def catalog_rows() -> list[tuple]:
    """Everything the catalog holds, to compare before and after a refused import."""
    return sorted((c.slug, c.name, sorted(c.stats.items())) for c in Card.objects.all())


def crush_card(name: str) -> Card:
    return Card.objects.get(slug="card-crush", name=name)


def upload(client, raw: bytes, name: str = "cards.csv"):
    return client.post(IMPORT_URL, {"file": SimpleUploadedFile(name, raw, content_type="text/csv")})


def csv_of(*rows: str) -> bytes:
    return ("\r\n".join([HEADER, *rows]) + "\r\n").encode()


def added_by(client, *names: str) -> None:
    """Make these catalog cards the client's own (as if its phone had added them): the importer
    may change its own cards while nobody else has played them."""
    Card.objects.filter(name__in=names).update(created_device=device_of(client))


IMPORTER = Editor(user=None, device="importing-phone")


def problems(response) -> list[str]:
    html = text(response)
    start = html.index("Not imported, nothing was stored:")
    block = html[start: html.index("</ul>", start)]
    return [htmllib.unescape(item) for item in re.findall(r"<li>(.*?)</li>", block, flags=re.S)]


# --- export --------------------------------------------------------------------------------------


def test_it_exports_every_card_with_the_header(client, catalog):
    response = client.get(EXPORT_URL)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="tablekeeper-card-crush-cards.csv"'
    lines = response.content.decode().splitlines()
    assert lines[0] == HEADER
    assert len(lines) == 1 + len(catalog)
    assert "Ember Fox,7,5,Fire,Common,1" in lines
    assert "Grove Warden,7,5,Nature,Rare,2" in lines
    assert [line.split(",")[0] for line in lines[1:]] == sorted(catalog)


def test_it_exports_an_empty_catalog_as_just_the_header(client, db):
    assert client.get(EXPORT_URL).content.decode().splitlines() == [HEADER]


def test_it_quotes_names_with_commas_and_quotes(client, catalog):
    Card.objects.create(slug="card-crush", name='Rock, "the" Paper', stats={
        "power": 1, "speed": 2, "affinity": "Earth", "rarity": "Common", "level": 1})
    assert '"Rock, ""the"" Paper",1,2,Earth,Common,1' in client.get(EXPORT_URL).content.decode().splitlines()


def test_the_catalog_page_offers_export_and_import(client, catalog):
    html = text(client.get(LIST_URL))
    assert f'href="{EXPORT_URL}"' in html
    assert f'action="{IMPORT_URL}"' in html
    assert "Columns: name, power, speed, affinity, rarity, level." in html


def test_an_unknown_game_404s(client, db):
    assert client.get(reverse("card_export", args=["chess"])).status_code == 404
    assert client.post(reverse("card_import", args=["chess"])).status_code == 404


# --- import --------------------------------------------------------------------------------------


def test_it_adds_and_updates_and_counts_both(client, catalog):
    added_by(client, "Ember Fox")
    response = upload(client, csv_of(
        "Moss Golem,6,2,Nature,Rare,1",      # new
        "Ember Fox,8,5,Fire,Rare,2",         # changed
        "Phoenix,9,8,Fire,Legendary,1",      # unchanged
        "Dusk Owl,4,7,Shadow,Common,1",      # new
    ))
    assert response.status_code == 302
    assert response["Location"] == LIST_URL
    assert "Catalog imported: 2 added, 1 updated." in text(client.get(LIST_URL))
    assert crush_card("Moss Golem").stats == {
        "power": 6, "speed": 2, "affinity": "Nature", "rarity": "Rare", "level": 1}
    assert crush_card("Ember Fox").stats == {
        "power": 8, "speed": 5, "affinity": "Fire", "rarity": "Rare", "level": 2}
    assert Card.objects.filter(slug="card-crush").count() == len(catalog) + 2


def test_a_name_in_another_case_updates_the_card(client, catalog):
    added_by(client, "Ember Fox")
    upload(client, csv_of("ember fox,1,1,Fire,Common,1"))
    assert not Card.objects.filter(slug="card-crush", name="ember fox").exists()
    assert crush_card("Ember Fox").stats["power"] == 1


def test_an_accented_name_in_another_case_updates_the_card(client, db):
    Card.objects.create(slug="card-crush", name="Éclair Imp", created_device=device_of(client), stats={
        "power": 5, "speed": 9, "affinity": "Lightning", "rarity": "Common", "level": 1})
    response = upload(client, csv_of("ÉCLAIR IMP,6,9,Lightning,Common,1"))
    assert response.status_code == 302
    assert "Catalog imported: 0 added, 1 updated." in text(client.get(LIST_URL))
    assert crush_card("Éclair Imp").stats["power"] == 6
    assert Card.objects.filter(slug="card-crush").count() == 1


def test_an_import_reads_the_catalog_once_however_many_rows_it_has(client, catalog):
    """A name outside ASCII is found by reading every card of the game: read once a row (and again as each was
    added), 1,000 such rows held the database's writes for 28 s, 3,000 a served one for three minutes."""
    def reads_of_the_catalog(rows: int, tag: str) -> int:
        with CaptureQueriesContext(connection) as done:
            assert upload(client, csv_of(*(f"Drach\u00eb {tag}{n:03d},5,5,Fire,Common,1" for n in range(rows)))
                          ).status_code == 302
        return sum(query["sql"].startswith("SELECT") and 'FROM "tracker_card"' in query["sql"]
                   for query in done.captured_queries)

    assert reads_of_the_catalog(5, "A") == reads_of_the_catalog(50, "B") <= 2
    assert Card.objects.filter(slug="card-crush", name__startswith="Drach").count() == 55


def test_an_excel_file_with_a_bom_and_spaces_imports(client, db):
    raw = "\ufeff" + HEADER + "\r\n  Moss Golem , 6 ,2, Nature ,Rare, 1\r\n"
    response = upload(client, raw.encode())
    assert response.status_code == 302
    assert crush_card("Moss Golem").stats == {
        "power": 6, "speed": 2, "affinity": "Nature", "rarity": "Rare", "level": 1}


def test_columns_may_come_in_any_order_and_extra_columns_are_ignored(client, db):
    raw = b"level,rarity,affinity,speed,power,name,notes\n1,Common,Air,9,4,Breeze,fast\n"
    assert upload(client, raw).status_code == 302
    assert crush_card("Breeze").stats == {
        "power": 4, "speed": 9, "affinity": "Air", "rarity": "Common", "level": 1}


def test_export_then_import_changes_nothing(client, catalog):
    before = catalog_rows()
    raw = client.get(EXPORT_URL).content
    response = upload(client, raw)
    assert response.status_code == 302
    assert "Catalog imported: 0 added, 0 updated." in text(client.get(LIST_URL))
    assert catalog_rows() == before


def test_export_import_into_an_empty_catalog_restores_it(client, catalog):
    before = catalog_rows()
    raw = client.get(EXPORT_URL).content
    Card.objects.filter(slug="card-crush").delete()
    upload(client, raw)
    assert catalog_rows() == before


GOOD = "Moss Golem,6,2,Nature,Rare,1"


@pytest.mark.parametrize(("bad_row", "says"), [
    pytest.param("Dusk Owl,-1,7,Shadow,Common,1", "Line 3: power: Ensure this value is greater than or equal to 0.",
                 id="negative-power"),
    pytest.param("Dusk Owl,4,fast,Shadow,Common,1", "Line 3: speed: Enter a whole number.", id="text-speed"),
    pytest.param("Dusk Owl,4,7,Plasma,Common,1", "Line 3: affinity: Select a valid choice. Plasma is not one of",
                 id="unknown-affinity"),
    pytest.param(",4,7,Shadow,Common,1", "Line 3: name: This field is required.", id="empty-name"),
    pytest.param("Dusk Owl,4,7,Shadow,Mythic,1", "Line 3: rarity: Select a valid choice.", id="unknown-rarity"),
    pytest.param("Dusk Owl,4,7,Shadow,Common,0", "Line 3: level: Ensure this value is greater than or equal to 1.",
                 id="level-0"),
    pytest.param("Dusk Owl,1000,7,Shadow,Common,1", "Line 3: power: Ensure this value is less than or equal to 999.",
                 id="power-too-big"),
    pytest.param("Dusk Owl,4", "Line 3: speed: This field is required.", id="short-row"),
    pytest.param("moss golem,4,7,Shadow,Common,1", "Line 3: moss golem appears twice in the file.",
                 id="duplicate-name"),
])
def test_one_bad_row_stores_nothing(client, catalog, bad_row, says):
    added_by(client, "Ember Fox")
    before = catalog_rows()
    response = upload(client, csv_of(GOOD, bad_row, "Ember Fox,1,1,Fire,Common,1"))
    assert response.status_code == 422
    found = problems(response)
    assert len(found) == 1 and found[0].startswith(says), found
    assert catalog_rows() == before  # not even the good new card, nor the Ember Fox update


def test_every_bad_line_is_numbered(client, catalog):
    before = catalog_rows()
    response = upload(client, csv_of(
        GOOD,                                   # line 2
        "Dusk Owl,-1,7,Shadow,Common,1",        # line 3
        "Breeze,4,9,Air,Common,1",              # line 4
        "Gust,x,9,Air,Common,1",                # line 5
        "Sleet,4,9,Snow,Common,1",              # line 6
        "MOSS GOLEM,1,1,Air,Common,1",          # line 7
    ))
    assert response.status_code == 422
    assert [p.split(":")[0] for p in problems(response)] == ["Line 3", "Line 5", "Line 6", "Line 7"]
    assert catalog_rows() == before
    html = text(response)
    assert "Not imported, nothing was stored:" in html
    assert '<details class="new-card" open>' in html


def test_line_numbers_count_blank_lines(client, catalog):
    raw = (HEADER + "\n" + GOOD + "\n\n" + "Dusk Owl,-1,7,Shadow,Common,1\n").encode()
    assert problems(upload(client, raw))[0].startswith("Line 4:")


@pytest.mark.parametrize(("raw", "says"), [
    pytest.param(b"name,power,affinity,rarity\nDusk Owl,4,Shadow,Common\n", "Missing columns: speed, level.",
                 id="missing-columns"),
    pytest.param(b"Dusk Owl,4,7,Shadow,Common,1\n", "Missing columns: name, power, speed, affinity, rarity, level.",
                 id="no-header"),
    pytest.param((HEADER + "\nCaf\xe9 Imp,4,7,Fire,Common,1\n").encode("latin-1"), "The file is not UTF-8 text.",
                 id="latin-1"),
    pytest.param(b"\x89PNG\r\n\x1a\n\x00\x00", "The file is not UTF-8 text.", id="binary"),
])
def test_a_file_that_cannot_be_read_stores_nothing(client, catalog, raw, says):
    before = catalog_rows()
    response = upload(client, raw)
    assert response.status_code == 422
    assert problems(response) == [says]
    assert catalog_rows() == before


def test_an_empty_upload_stores_nothing(client, catalog):
    before = catalog_rows()
    response = upload(client, b"")
    assert response.status_code == 422
    assert problems(response)  # a message, whichever it is
    assert catalog_rows() == before


def test_no_file_at_all(client, catalog):
    response = client.post(IMPORT_URL, {})
    assert response.status_code == 422
    assert problems(response) == ["Choose a CSV file to import."]


def test_a_file_too_large_stores_nothing(client, catalog):
    before = catalog_rows()
    raw = csv_of(GOOD)
    raw += b" " * (catalog_csv.MAX_BYTES + 1 - len(raw))
    response = upload(client, raw)
    assert response.status_code == 422
    assert problems(response) == ["The file is larger than 1024 KB."]
    assert catalog_rows() == before


def test_too_many_rows(client, db):
    rows = [f"Card {n},1,1,Air,Common,1" for n in range(catalog_csv.MAX_ROWS + 1)]
    response = upload(client, csv_of(*rows))
    assert response.status_code == 422
    assert problems(response) == [f"At most {catalog_csv.MAX_ROWS} cards per file."]
    assert not Card.objects.filter(slug="card-crush").exists()


def test_a_header_only_file_imports_nothing(client, catalog):
    before = catalog_rows()
    response = upload(client, (HEADER + "\n").encode())
    assert response.status_code == 302
    assert catalog_rows() == before


def test_import_opened_as_a_page_leads_to_the_catalog(client, db):
    response = client.get(IMPORT_URL)
    assert response.status_code == 302 and response.url == IMPORT_URL.rsplit("/", 2)[0] + "/"


# --- the module itself --------------------------------------------------------------------------


def test_import_csv_raises_with_every_problem(db):
    with pytest.raises(catalog_csv.CatalogFileError) as caught:
        catalog_csv.import_csv("card-crush", csv_of("A,-1,1,Air,Common,1", "B,1,1,Air,Common,1", "C,1,1,Nope,Common,1"),
                               IMPORTER)
    assert [p.split(":")[0] for p in caught.value.problems] == ["Line 2", "Line 4"]
    assert not Card.objects.filter(slug="card-crush").exists()


def test_import_csv_returns_the_counts(catalog):
    Card.objects.filter(name="Phoenix").update(created_device=IMPORTER.device)
    assert catalog_csv.import_csv("card-crush", csv_of(GOOD, "Phoenix,1,1,Fire,Common,1"), IMPORTER) == (1, 1, [])
    Card.objects.filter(name="Phoenix").update(created_device="another-phone")
    assert catalog_csv.import_csv("card-crush", csv_of("Phoenix,2,1,Fire,Common,1"), IMPORTER) == (
        0, 0, ["Line 2: Phoenix was added by another phone or account: only they can change it, and only while "
               "every match and club that used it is theirs."])


def test_columns_are_the_card_forms_fields():
    assert catalog_csv.columns("card-crush") == HEADER.split(",")


@pytest.mark.parametrize("slug", sorted(rules.GAMES))
def test_every_games_catalog_round_trips_through_csv(slug):
    """Export then import changes nothing, for every game, whatever shape its cards have."""
    demo.load_catalogs()
    before = {card.name: card.stats for card in Card.objects.filter(slug=slug)}
    assert before, f"{slug} has demo cards"
    assert catalog_csv.import_csv(slug, catalog_csv.export_csv(slug).encode(), IMPORTER) == (0, 0, [])
    assert {card.name: card.stats for card in Card.objects.filter(slug=slug)} == before


# --- who may change what through a file (tracker/catalog/changes.py) --------------------------------


def notices(response) -> list[str]:
    """The warnings shown after an import (the page the import redirected to)."""
    return [htmllib.unescape(item).strip()
            for item in re.findall(r'<p class="notice notice-warning">.*?</span>(.*?)</p>', text(response), flags=re.S)]


def test_a_row_that_would_change_a_protected_card_is_refused_with_its_line_and_the_rest_is_stored(client, catalog):
    phoenix = crush_card("Phoenix").stats
    response = upload(client, csv_of(
        GOOD,                                   # line 2: new, added
        "Phoenix,1,1,Fire,Common,1",            # line 3: a demo card, nobody's to rewrite
        "Ember Fox,7,5,Fire,Common,1",          # line 4: unchanged, so not a change at all
    ))
    assert response.status_code == 302
    page = client.get(response.url)
    assert "Catalog imported: 1 added, 0 updated." in text(page)
    found = notices(page)
    assert len(found) == 1 and found[0].startswith("Not changed: Line 3: Phoenix has no recorded creator"), found
    assert crush_card("Phoenix").stats == phoenix
    assert crush_card("Moss Golem").stats["power"] == 6
    assert not CardChange.objects.filter(kind=CardChange.EDIT).exists()


def test_a_wrong_row_still_stops_a_file_with_protected_rows(client, catalog):
    before = catalog_rows()
    response = upload(client, csv_of(GOOD, "Phoenix,1,1,Fire,Common,1", "Dusk Owl,-1,7,Shadow,Common,1"))
    assert response.status_code == 422
    assert [p.split(":")[0] for p in problems(response)] == ["Line 4"]
    assert catalog_rows() == before


def test_past_ten_protected_rows_the_rest_are_counted(client, catalog):
    protected = sorted(catalog)[:12]
    response = upload(client, csv_of(*(f"{name},0,0,Fire,Common,1" for name in protected)))
    found = notices(client.get(response.url))
    assert len(found) == 11 and found[-1] == "2 more rows would change cards you may not change.", found
    assert all(crush_card(name).stats == catalog[name].stats for name in protected)


def test_another_phones_card_is_protected_and_the_importers_own_is_changed_and_recorded(client, catalog):
    other = Client()
    added_by(other, "Storm Caller")
    added_by(client, "Ember Fox")
    response = upload(client, csv_of("Storm Caller,1,1,Air,Common,1"))
    assert notices(client.get(response.url)) == [
        "Not changed: Line 2: Storm Caller was added by another phone or account: only they can change it, and only "
        "while every match and club that used it is theirs."]
    assert crush_card("Storm Caller").stats["power"] != 1
    assert upload(client, csv_of("Ember Fox,8,5,Fire,Rare,2", GOOD)).status_code == 302
    change = CardChange.objects.get(kind=CardChange.EDIT)
    assert (change.card.name, change.kind, change.device) == ("Ember Fox", "edit", device_of(client))
    assert change.old_stats["power"] == 7 and change.new_stats["power"] == 8
    assert crush_card("Moss Golem").created_device == device_of(client)


def test_an_importers_own_card_that_someone_else_played_is_protected(client, catalog):
    added_by(client, "Ember Fox")
    match = services.match_create(slug="card-crush", player_names=["Ana", "Ben"], config={}, owner_device="phone-2")
    lock(match, 0, ANA_DECK)  # Ember Fox is in it, counted as played once the other lock-in reveals it
    lock(match, 1, BEN_DECK)
    response = upload(client, csv_of("Ember Fox,1,1,Fire,Common,1"))
    assert notices(client.get(response.url))[0].startswith(
        "Not changed: Line 2: Ember Fox has been played in other players' or a club's matches")
    assert crush_card("Ember Fox").stats["power"] == 7


# --- cells a spreadsheet would run as formulas -----------------------------------------------------


@pytest.mark.parametrize("name", ["=HYPERLINK(\"http://evil.example\",\"x\")", "+1 Sprite", "-Minus", "@SUM(A1)",
                                  "'Tis Imp", "''Twice"])
def test_the_export_marks_formula_cells_as_text_and_the_import_takes_the_mark_off(client, db, name):
    Card.objects.create(slug="card-crush", name=name, stats={
        "power": 1, "speed": 2, "affinity": "Earth", "rarity": "Common", "level": 1})
    raw = client.get(EXPORT_URL).content
    row = next(csv.reader(io.StringIO(raw.decode().splitlines()[1])))
    assert row[0] == "'" + name  # a spreadsheet shows it as text, and never runs it
    before = catalog_rows()
    Card.objects.all().delete()
    assert upload(client, raw).status_code == 302
    assert catalog_rows() == before


@pytest.mark.parametrize("value", ["=1+1", "+1", "-1", "@x", "\tx", "\rx", "'x", "plain", "Tis' Imp"])
def test_text_cells_round_trip(value):
    cell = catalog_csv.as_text_cell(value)
    assert not cell.startswith(("=", "+", "-", "@", "\t", "\r"))
    assert catalog_csv.from_text_cell(cell) == value


def test_a_lone_apostrophe_typed_by_hand_is_kept(client, db):
    assert upload(client, csv_of("'Tis Imp,1,2,Earth,Common,1")).status_code == 302
    assert crush_card("'Tis Imp").stats["power"] == 1


def test_numbers_are_not_marked(client, catalog):
    assert "Ember Fox,7,5,Fire,Common,1" in client.get(EXPORT_URL).content.decode().splitlines()
