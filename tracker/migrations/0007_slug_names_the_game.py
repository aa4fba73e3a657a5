# The game's slug is called `slug` on matches and cards, so `Match.game` can be its rules.

import django.db.models.functions.text
from django.db import migrations, models

import tracker.models


class Migration(migrations.Migration):
    dependencies = [("tracker", "0006_seed_shown_after")]

    operations = [
        migrations.RemoveConstraint("card", "card_name_unique_per_game"),
        migrations.RenameField("card", "game", "slug"),
        migrations.RenameField("match", "game", "slug"),
        migrations.AlterField(
            "card", "slug",
            models.CharField(choices=tracker.models.game_choices, help_text="The game, as in rules.GAMES.",
                             max_length=20)),
        migrations.AlterField(
            "match", "slug",
            models.CharField(choices=tracker.models.game_choices, help_text="The game, as in rules.GAMES.",
                             max_length=20)),
        migrations.AddConstraint(
            "card",
            models.UniqueConstraint(models.F("slug"), django.db.models.functions.text.Lower("name"),
                                    name="card_name_unique_per_game")),
    ]
