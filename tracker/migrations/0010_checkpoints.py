# Undo in constant time: checkpoints of the state, and the counters a change reads
# from the match row instead of counting the log. Existing matches get their counters from
# their logs; their checkpoints are filled in by the first undo or redo that passes them.

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import Count, Max, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce


def count_the_logs(apps, schema_editor):
    Match, Action = apps.get_model("tracker", "Match"), apps.get_model("tracker", "Action")
    per_match = Action.objects.filter(match=OuterRef("pk")).values("match")
    Match.objects.update(
        last_number=Coalesce(Subquery(per_match.annotate(last=Max("number")).values("last")), 0),
        line_length=Coalesce(Subquery(per_match.annotate(live=Count("pk", filter=Q(abandoned=False)))
                                      .values("live")), 0),
    )


class Migration(migrations.Migration):
    dependencies = [("tracker", "0009_card_history_and_collections")]

    operations = [
        migrations.AddField(
            model_name="match",
            name="last_number",
            field=models.PositiveIntegerField(
                default=0,
                help_text="The number of the newest action ever recorded (undone and abandoned ones count)."),
        ),
        migrations.AddField(
            model_name="match",
            name="line_length",
            field=models.PositiveIntegerField(
                default=0,
                help_text="How many live actions the current line holds: `head` applied, the rest redoable."),
        ),
        migrations.RunPython(count_the_logs, migrations.RunPython.noop),
        migrations.CreateModel(
            name="Checkpoint",
            fields=[
                ("action", models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True,
                                                related_name="checkpoint", serialize=False, to="tracker.action")),
                ("seq", models.PositiveIntegerField(help_text="The action's step: the state is the one after it.")),
                ("state", models.JSONField()),
                ("match", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE,
                                            related_name="checkpoints", to="tracker.match")),
            ],
            options={
                "constraints": [models.UniqueConstraint(models.F("match"), models.F("seq"),
                                                        name="one_checkpoint_per_step")],
            },
        ),
    ]
