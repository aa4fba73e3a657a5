"""Time Tablekeeper's pages against Django's floor, in one run on one machine.

Absolute times depend on the machine; the ratios to the floor (a minimal view that
makes one query, through the same middleware) are what to compare between changes:

    python manage.py benchmark --rounds 200
"""

import statistics
import time

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import transaction
from django.test import Client
from django.urls import reverse

from tracker import demo, services
from tracker.models import Match


def _time(call, rounds: int) -> list[float]:
    call()  # warm caches and connections; not counted
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        response = call()
        samples.append(time.perf_counter() - start)
        assert response.status_code in (200, 204, 302), response.status_code
    return samples


class Command(BaseCommand):
    help = "Measure request times of the main pages as ratios to a minimal Django view."

    def add_arguments(self, parser):
        parser.add_argument("--rounds", type=int, default=200)

    def handle(self, *args, rounds: int, **options):
        demo.load_catalogs()
        client = Client(HTTP_HOST=settings.ALLOWED_HOSTS[0])
        with transaction.atomic():
            finished = demo.play_battle(("Bench A", "Bench B"), "battle-score", [
                ["Ember Fox", "Storm Caller", "Stone Golem", "Phoenix", "Gale Sprite"],
                ["Tide Runner", "Frost Wisp", "Sky Lancer", "Void Lord", "Thorn Sprout"]])
            playing = services.match_create(game="card-crush", player_names=["Bench A", "Bench B"], config={})
            for seat, names in enumerate(demo.BATTLES[1][2:]):
                services.match_apply_action(match_id=playing.pk, expected_seq=seat, action={
                    "type": "lock_deck", "seat": seat, "cards": demo._deck(names)})

            def reveal_then_undo():
                # One action and its undo per sample, so the match never runs out of rounds.
                client.post(reverse("match_act", args=[playing.pk]), {"seq": 2, "action": "play_round"})
                return client.post(reverse("match_goto", args=[playing.pk]), {"seq": 3, "step": 2})

            poll = reverse("match_poll", args=[finished.pk])
            cases = {
                "floor: minimal view (GET /healthz)": lambda: client.get(reverse("healthz")),
                # What every open phone asks every 2 s: should cost about the floor.
                "live-update poll, nothing changed": lambda: client.get(poll, {"v": finished.version}),
                "match page, finished battle": lambda: client.get(finished.get_absolute_url()),
                "replay page, finished battle, step 3": lambda: client.get(
                    reverse("match_replay", args=[finished.pk]), {"step": 3}),
                "catalog search (htmx, \"o\")": lambda: client.get(
                    reverse("card_list", args=["card-crush"]), {"q": "o"}, HTTP_HX_REQUEST="true"),
                "match log, finished battle": lambda: client.get(reverse("match_log", args=[finished.pk])),
                "match list": lambda: client.get(reverse("match_list")),
                "reveal a round + undo it (2 POSTs)": reveal_then_undo,
            }
            results = {name: statistics.median(_time(call, rounds)) for name, call in cases.items()}
            transaction.set_rollback(True)  # leave the database as it was
        floor = next(iter(results.values()))
        self.stdout.write(f"{rounds} requests each, median per request, ratio to the floor:")
        for name, seconds in results.items():
            self.stdout.write(f"  {name:<40} {seconds * 1000:8.2f} ms  x{seconds / floor:5.1f}")
        self.stdout.write(f"Matches stored: {Match.objects.count()} (unchanged)")
