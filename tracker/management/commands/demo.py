from django.core.management.base import BaseCommand

from tracker import demo


class Command(BaseCommand):
    help = "Load demo players, card catalogs and finished matches (safe to run again)."

    def handle(self, *args, **options):
        self.stdout.write(demo.load())
