"""A member who left a club kept the club's finished matches they had set up, and the seats they had taken in its
battles by opening them (round 32): they lose them now as leaving takes them (tracker/people/clubs.py `leave`).
The matches keep counting, as the club's."""

from django.db import migrations
from django.db.models import Exists, OuterRef
from django.utils import timezone


def forward(apps, schema_editor):
    Match, Access, Membership = (apps.get_model("tracker", name) for name in ("Match", "Access", "Membership"))
    member = Membership.objects.filter(club_id=OuterRef("club_id"), user_id=OuterRef("owner_id"))
    Match.objects.filter(club__isnull=False, owner__isnull=False, finished__isnull=False).exclude(
        Exists(member)).update(owner=None, owner_device="")
    seated = Membership.objects.filter(club_id=OuterRef("match__club_id"), user_id=OuterRef("user_id"))
    Access.objects.filter(match__club__isnull=False, user__isnull=False, invite__isnull=True, role="player",
                          revoked__isnull=True).exclude(Exists(seated)).update(revoked=timezone.now())


class Migration(migrations.Migration):

    dependencies = [
        ("tracker", "0021_action_whose"),
    ]

    operations = [migrations.RunPython(forward, migrations.RunPython.noop)]
