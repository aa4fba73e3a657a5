from django.core.management.base import BaseCommand, CommandError

from tracker import backups


class Command(BaseCommand):
    help = "Replace everything in the database with a backup made by `manage.py backup`."

    def add_arguments(self, parser):
        parser.add_argument("path", help="the backup file (var/backups/tablekeeper-<time>.sqlite3 or .pgdump)")

    def handle(self, *args, path, **options):
        try:
            backups.restore(path)
        except backups.BackupError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"Restored {path}")
