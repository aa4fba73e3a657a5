"""One name created by two phones at the same moment (found over real HTTP by sending both at once, on PostgreSQL).

The database holds only lower(name) unique, while the app calls names one in any case and drawn alike
(names.look): "Weiß" and "WEISS", Latin "KOXA" and Greek "ΚΟΧΑ". Whoever creates a player, a card or a claimed
name holds that name's look first (models.hold_names: an advisory lock on PostgreSQL, the write transaction on
SQLite) and reads again, so the second phone finds what the first made. Each test sends the other phone's request
from another thread at the moment the first has just read the name as absent: before the fix it landed between
that read and the write, and made a second row of one name, or a 500 (IntegrityError) for the same spelling.
"""

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from tracker import models
from tracker.catalog import changes as card_changes
from tracker.catalog import csv_files
from tracker.catalog.changes import Editor
from tracker.competition import tournaments
from tracker.matches import names, services
from tracker.models import Card, Club, Membership, NameClaim, Player

from .races import ANSWERS, meanwhile, other_phones_done, settled  # noqa: F401 (an autouse fixture)

pytestmark = pytest.mark.django_db(transaction=True)
race = pytest.mark.skipif(connection.vendor != "postgresql", reason=(
    "SQLite lets one writer in at a time (BEGIN IMMEDIATE) so these cannot interleave, and the in-memory test "
    "database refuses a second writer at once (its shared cache's table locks) instead of queueing it"))

STATS = {"power": 5, "speed": 5, "affinity": "Fire", "rarity": "Common", "level": 1}


@pytest.fixture
def after_reading(monkeypatch):
    """`after_reading(model, name, send)`: the first time `name` (or a name drawn like it) is read as absent from
    `model`'s rows (models._named, which every lookup by name goes through), `send` runs as another phone's request
    (meanwhile)."""
    ANSWERS.clear()
    read = models._named
    sent: list[bool] = []

    def arm(model, typed, send):
        def named(queryset, name, **how):
            found = read(queryset, name, **how)
            if found is None and queryset.model is model and names.look(name) == names.look(typed) and not sent:
                sent.append(True)
                meanwhile(send)
            return found
        monkeypatch.setattr(models, "_named", named)
    yield arm
    settled()


def organiser_of(club_name: str):
    user = get_user_model().objects.create_user(club_name.split()[0].lower())
    club = Club.objects.create(name=club_name)
    Membership.objects.create(club=club, user=user, role=Membership.ORGANISER)
    return Editor(user=user, device=""), club


def new_match(*players: str):
    return services.match_create(slug="card-crush", player_names=list(players), config={"resolution": "battle-score"})


def players() -> list[str]:
    return sorted(Player.objects.values_list("name", flat=True))


@race
@pytest.mark.parametrize(("first", "second"), [("Zed", "Zed"), ("Weiß", "WEISS"), ("KOXA", "ΚΟΧΑ")])
def test_two_phones_naming_one_new_player_at_once_make_one_player(after_reading, first, second):
    """The same spelling answered the second phone with a 500 (player_name_unique); spellings lower() tells apart
    but the app does not made two players of one name."""
    after_reading(Player, first, lambda: new_match(second, "Ana"))
    new_match(first, "Ben")
    settled()
    assert not [answer for answer in ANSWERS if isinstance(answer, Exception)], ANSWERS
    assert players() == sorted(["Ana", "Ben", second])


@race
def test_a_tournament_and_a_match_entering_one_new_player_at_once_make_one(after_reading):
    _organiser, club = organiser_of("Thursday Club")
    after_reading(Player, "KOXA Guest", lambda: new_match("ΚΟΧΑ Guest", "Ana"))
    tournaments.tournament_create(name="Cup", player_names=["Ben", "KOXA Guest"], club=club)
    settled()
    assert players() == ["Ana", "Ben", "ΚΟΧΑ Guest"]


def test_a_name_the_constraint_finds_taken_is_that_player_not_an_error(monkeypatch):
    """Should two spellings that lower() makes one ever be held apart, the constraint's refusal is the same name."""
    made = Player.objects.create(name="Quin")
    reads: list[str] = []
    monkeypatch.setattr(Player, "named", classmethod(lambda cls, name: made if reads.append(name) or len(reads) > 2
                                                     else None))
    assert services.player_named("QUIN") == made
    assert players() == ["Quin"]


@race
def test_two_phones_adding_one_new_card_at_once_make_one_card(after_reading):
    phone, other = Editor(user=None, device="phone-1"), Editor(user=None, device="phone-2")
    after_reading(Card, "Großwurm", lambda: card_changes.card_add(other, "card-crush", "GROSSWURM", STATS))
    card_changes.card_add(phone, "card-crush", "Großwurm", STATS)
    settled()
    assert list(Card.objects.values_list("name", flat=True)) == ["Großwurm"]
    assert "Großwurm is already in the catalog" in str(ANSWERS[0])


@race
def test_a_card_added_as_its_name_is_claimed_by_a_club_the_adder_is_not_in_is_one_or_the_other(after_reading):
    """An outsider's card and a club's claim of its name both stood. The claim is now judged after the card (refused:
    the organiser may not change the outsider's card), or the card after the claim (refused: the name is claimed)."""
    organiser, club = organiser_of("Thursday Club")
    outsider = Editor(user=None, device="outsider")
    after_reading(NameClaim, "Drachen", lambda: card_changes.name_claim(organiser, club, "card-crush", "Drachen"))
    card_changes.card_add(outsider, "card-crush", "Drachen", STATS)
    settled()
    assert (Card.objects.count(), NameClaim.objects.count()) == (1, 0)
    assert "you may not change it, so the club cannot claim it" in str(ANSWERS[0])


@race
def test_two_clubs_claiming_one_name_at_once_hold_one_claim(after_reading):
    thursday, club = organiser_of("Thursday Club")
    friday, other_club = organiser_of("Friday Club")
    after_reading(NameClaim, "Weißdorn",
                  lambda: card_changes.name_claim(friday, other_club, "card-crush", "WEISSDORN"))
    card_changes.name_claim(thursday, club, "card-crush", "Weißdorn")
    settled()
    assert list(NameClaim.objects.values_list("club", "name")) == [(club.pk, "Weißdorn")]
    assert "Weißdorn is already claimed by Thursday Club" in str(ANSWERS[0])


@race
def test_a_card_added_while_a_file_adds_it_fails_the_file(after_reading):
    """The import read the catalog once, before another phone added the card in another spelling: the file added it
    again."""
    after_reading(NameClaim, "Großwurm",
                  lambda: card_changes.card_add(Editor(user=None, device="phone"), "card-crush", "GROSSWURM", STATS))
    with pytest.raises(csv_files.CatalogFileError, match="GROSSWURM is already in the catalog"):
        csv_files.import_csv("card-crush", "name,power,speed,affinity,rarity,level\r\nGroßwurm,5,5,Fire,Common,1\r\n"
                             .encode(), Editor(user=None, device="importer"))
    settled()
    assert list(Card.objects.values_list("name", flat=True)) == ["GROSSWURM"]
