"""Data migrations: what an installation that already has matches gets when it upgrades."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = ("tracker", "0008_clubs_and_consent")
AFTER = ("tracker", "0009_card_history_and_collections")


@pytest.mark.django_db(transaction=True)
def test_0009_notes_the_catalog_cards_every_match_so_far_carried():
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes("tracker")
    executor.migrate([BEFORE])
    try:
        old = executor.loader.project_state([BEFORE]).apps
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

        executor = MigrationExecutor(connection)
        executor.migrate([AFTER])
        CardUse = executor.loader.project_state([AFTER]).apps.get_model("tracker", "CardUse")
        assert list(CardUse.objects.values_list("card_id", "match_id")) == [(fox.pk, match.pk)]
    finally:
        MigrationExecutor(connection).migrate(latest)
