"""Data migrations: what an installation that already has matches gets when it upgrades."""

from contextlib import contextmanager

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = ("tracker", "0008_clubs_and_consent")
AFTER = ("tracker", "0009_card_history_and_collections")


@contextmanager
def migrated_back_to(before: tuple[str, str]):
    """The database migrated back to `before`, its models given; migrated forward to the latest again afterwards."""
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes("tracker")
    executor.migrate([before])
    try:
        yield executor.loader.project_state([before]).apps
    finally:
        MigrationExecutor(connection).migrate(latest)


def migrated_to(after: tuple[str, str]):
    """The database migrated forward to `after`: its models."""
    executor = MigrationExecutor(connection)
    executor.migrate([after])
    return executor.loader.project_state([after]).apps


@pytest.mark.django_db(transaction=True)
def test_0009_notes_the_catalog_cards_every_match_so_far_carried():
    with migrated_back_to(BEFORE) as old:
        Card, Match, Action = (old.get_model("tracker", name) for name in ("Card", "Match", "Action"))
        stats = {"power": 7, "speed": 5, "affinity": "Fire", "rarity": "Common", "level": 1}
        fox = Card.objects.create(slug="card-crush", name="Ember Fox", stats=stats)
        Card.objects.create(slug="card-crush", name="Tide Runner", stats=stats)  # in no match
        Card.objects.create(slug="logos", name="Ember Fox", stats={})  # same name, another game
        match = Match.objects.create(slug="card-crush", rules_version="1")
        deck = [{"name": "Ember Fox", **stats}, {"name": "Typed In", **stats}]
        Action.objects.create(match=match, number=1, seq=1, seat=0, abandoned=True,
                              payload={"type": "lock_deck", "seat": 0, "cards": deck})
        Action.objects.create(match=match, number=2, seq=1, seat=0, payload={"type": "play_round"})

        CardUse = migrated_to(AFTER).get_model("tracker", "CardUse")
        assert list(CardUse.objects.values_list("card_id", "match_id")) == [(fox.pk, match.pk)]


@pytest.mark.django_db(transaction=True)
def test_0017_ties_each_own_entry_confirmation_to_the_lock_in_in_the_line():
    before, after = ("tracker", "0016_names_given"), ("tracker", "0017_seated_confirmation_entry")
    with migrated_back_to(before) as old:
        Match, Action, Confirmation = (old.get_model("tracker", name) for name in ("Match", "Action", "Confirmation"))
        match = Match.objects.create(slug="card-crush", rules_version="1")
        Action.objects.create(match=match, number=1, seq=1, seat=1, secret=True, abandoned=True, payload={})
        kept = Action.objects.create(match=match, number=2, seq=1, seat=1, secret=True, payload={})
        Action.objects.create(match=match, number=3, seq=2, seat=0, secret=True, abandoned=True, payload={})
        for seat, kind in ((0, "seated"), (1, "seated")):
            Confirmation.objects.create(match=match, seat=seat, kind=kind)
        other = Match.objects.create(slug="card-crush", rules_version="1")
        Confirmation.objects.create(match=other, seat=0, kind="after")

        new = migrated_to(after).get_model("tracker", "Confirmation")
        # Seat 1's lock-in in the line; seat 0's was abandoned already (kept as it counted); a confirmation of
        # the result stands for no entry.
        assert dict(new.objects.values_list("seat", "entry_id").filter(match_id=match.pk)) == {0: None, 1: kept.pk}
        assert new.objects.get(match_id=other.pk).entry_id is None


@pytest.mark.django_db(transaction=True)
def test_0020_leaves_face_down_every_secret_entry_hidden_now_and_shows_the_rest_as_before():
    import rules

    before, after = ("tracker", "0019_tournament_first_finished"), ("tracker", "0020_action_face_down")
    with migrated_back_to(before) as old:
        Match, Action = (old.get_model("tracker", name) for name in ("Match", "Action"))
        locking = rules.GAMES["card-crush"].new_match({}, "5eed")
        deck = {"type": "lock_deck", "seat": 0, "cards": [{"name": "Ember Fox"}]}
        open_match = Match.objects.create(slug="card-crush", rules_version="1", state=locking)
        taken_back = Action.objects.create(match=open_match, number=1, seq=1, secret=True, abandoned=True, payload=deck)
        hidden = Action.objects.create(match=open_match, number=2, seq=1, secret=True, payload=deck)
        played = Match.objects.create(slug="card-crush", rules_version="1", state={**locking, "decks": [[], []]})
        unknown = Action.objects.create(match=played, number=1, seq=1, secret=True, abandoned=True, payload=deck)

        new = migrated_to(after).get_model("tracker", "Action")
        face_down = {"type": "lock_deck", "seat": 0}
        assert new.objects.get(pk=taken_back.pk).face_down == face_down  # hidden now: hidden for good
        assert new.objects.get(pk=hidden.pk).face_down == face_down  # until its reveal
        assert new.objects.get(pk=unknown.pk).face_down is None  # shown now, perhaps revealed before: as it was


@pytest.mark.django_db(transaction=True)
def test_0022_a_member_who_left_loses_the_clubs_finished_matches_and_seats():
    before, after = ("tracker", "0021_action_whose"), ("tracker", "0022_left_members_finished_matches")
    with migrated_back_to(before) as old:
        User = old.get_model("auth", "User")
        Club, Membership, Match, Access = (old.get_model("tracker", name)
                                           for name in ("Club", "Membership", "Match", "Access"))
        club = Club.objects.create(name="Friday Club")
        stayed, left = User.objects.create(username="stayed"), User.objects.create(username="left")
        Membership.objects.create(club=club, user=stayed, role="member")
        now = "2026-11-30T10:00:00Z"
        his = Match.objects.create(slug="card-crush", rules_version="1", club=club, owner=left, finished=now)
        theirs = Match.objects.create(slug="card-crush", rules_version="1", club=club, owner=stayed, finished=now)
        private = Match.objects.create(slug="card-crush", rules_version="1", owner=left, finished=now)
        took = Access.objects.create(match=theirs, device="d1", user=left, role="player", seat=1)
        kept = Access.objects.create(match=his, device="d2", user=stayed, role="player", seat=1)

        new = migrated_to(after)
        Match, Access = new.get_model("tracker", "Match"), new.get_model("tracker", "Access")
        assert dict(Match.objects.values_list("pk", "owner_id")) == {his.pk: None, theirs.pk: stayed.pk,
                                                                     private.pk: left.pk}
        assert Access.objects.get(pk=took.pk).revoked is not None
        assert Access.objects.get(pk=kept.pk).revoked is None
