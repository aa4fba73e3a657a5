from django.core.management.base import BaseCommand, CommandError

from tracker import backups


class Command(BaseCommand):
    help = ("Replace everything in the database with a backup made by `manage.py backup` (one from an older version "
            "is brought up to this version; one from a newer version is refused).")

    def add_arguments(self, parser):
        parser.add_argument("path", help="the backup file (var/backups/tablekeeper-<time>.sqlite3 or .pgdump)")

    def handle(self, *args, path, **options):
        try:
            applied, saved = backups.restore(path)
        except backups.BackupError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"Restored {path}")
        self.stdout.write(f"What the database held before was saved to {saved}: restore that to go back.")
        if applied:
            self.stdout.write(f"It was made by an older version: brought up to this one ({len(applied)} "
                              f"migration{'s' * (len(applied) > 1)} applied: {', '.join(applied)})")
