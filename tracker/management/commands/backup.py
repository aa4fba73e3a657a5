from django.core.management.base import BaseCommand, CommandError

from tracker import backups


class Command(BaseCommand):
    help = "Save the whole database to a file (var/backups/ by default), while the server runs."

    def add_arguments(self, parser):
        parser.add_argument("path", nargs="?", help="where to write it (default: var/backups/tablekeeper-<time>)")

    def handle(self, *args, path=None, **options):
        try:
            written = backups.backup(path)
        except backups.BackupError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"Backed up to {written}")
