"""The costliest single requests one phone may make within the limits (docs/limits.md), in CPU seconds.

    DATABASE_URL=sqlite:////tmp/worst.sqlite3 python manage.py migrate
    DATABASE_URL=sqlite:////tmp/worst.sqlite3 python manage.py benchmark --worst

Each request runs once, cold (what the first phone to ask pays: hints and analyses are kept after it),
in this process through Django's test client, on SQLite so the database's work is counted too; all of
it in one transaction rolled back at the end. The largest import is a Lonely Star file of plain D6
rolls grown until the next step would pass the file size limit: the most steps a file can carry, so
the most the import re-runs, stores and the log and the export then show.
"""

import json
import tempfile
import time
from collections.abc import Callable
from functools import partial

from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db import transaction
from django.test import Client
from django.test.utils import override_settings
from django.urls import reverse

import rules
from rules.dice import Dice
from tracker import demo
from tracker.games.cardmaster import demo as cardmaster_demo
from tracker.matches import services
from tracker.models import Match
from tracker.review import exchange
from tracker.review.views import LOG_STEPS

SEED = "worst-case"


def largest_match_file() -> bytes:
    """A Lonely Star match file of D6 rolls, as many steps as MAX_BYTES (and MAX_ACTIONS) allow."""
    slug, players = "lonely-star", ["Ana", "Ben"]
    game = rules.GAMES[slug]
    config = services.match_create(slug=slug, player_names=players, config={}).config  # the options as stored
    state = game.new_match(config, SEED)
    header = exchange.header_hash(slug, game.rules_version, config, SEED, players)
    data = {"format": "tablekeeper-match", "format_version": exchange.FORMAT_VERSION, "game": slug,
            "rules_version": game.rules_version, "config": config, "seed": SEED, "players": players,
            "header_sha256": header, "actions": [], "outcome": None}
    size, chain = len(json.dumps(data)), header
    for step in range(1, exchange.MAX_ACTIONS + 1):
        action = {"type": "d6", "seat": step % 2}
        dice = Dice(SEED, step, None)
        state, _events = game.apply(state, action, dice)
        entry = {"step": step, "seat": step % 2, "at": "2026-11-28T00:00:00+00:00", "action": action,
                 "rolls": dice.rolls, "state_sha256": exchange.state_hash(state)}
        entry["step_sha256"] = chain = exchange.step_hash(chain, entry)
        size += len(json.dumps(entry)) + 2
        if size > exchange.MAX_BYTES:
            break
        data["actions"].append(entry)
    return json.dumps(data).encode()


def _cpu[T](call: Callable[[], T]) -> tuple[float, T]:
    start = time.process_time()
    response = call()
    return time.process_time() - start, response


def run(say) -> dict[str, float]:
    """Measure each case once; say a table of them, the worst first. Returns the CPU seconds by case."""
    seconds: dict[str, float] = {}
    with (tempfile.TemporaryDirectory(prefix="tablekeeper-worst-") as root, override_settings(STATIC_ROOT=root),
          transaction.atomic()):
        call_command("collectstatic", "--noinput", verbosity=0)
        demo.load_catalogs()
        phone = Client(HTTP_HOST="127.0.0.1")  # a host the settings allow
        raw = largest_match_file()
        steps = len(json.loads(raw)["actions"])
        took, response = _cpu(lambda: phone.post(reverse("match_import"),
                                                 {"file": SimpleUploadedFile("long.json", raw)}))
        assert response.status_code == 302, response.status_code
        long = Match.objects.latest("pk")
        seconds[f"import of the largest file ({len(raw) // 1024} KB, {steps:,} steps)"] = took
        pages = -(-(steps + 1) // LOG_STEPS)
        for label, url in (
                ("that match's page", long.get_absolute_url()),
                ("its log, first page", reverse("match_log", args=[long.pk])),
                (f"its log, last page ({pages})", reverse("match_log", args=[long.pk]) + f"?page={pages}"),
                ("its JSON export", reverse("match_export_json", args=[long.pk])),
                ("its text export", reverse("match_export_text", args=[long.pk])),
                ("the statistics page", reverse("stats") + "?game=lonely-star")):
            took, response = _cpu(partial(phone.get, url))
            assert response.status_code == 200, (url, response.status_code)
            seconds[label] = took
        player = Client(HTTP_HOST="127.0.0.1")
        showdown = _showdown(player)
        took, response = _cpu(lambda: player.get(reverse("cardmaster_hint", args=[showdown.pk])))
        assert response.status_code == 200, response.status_code
        seconds["Cardmaster hint, 9v9 Showdown, first move"] = took
        seconds["a move the hard AI answers, 9v9 (costliest of 20)"] = _costliest_move(player, showdown)
        finished = cardmaster_demo.knock_out(("Cy", "Di"))
        took, response = _cpu(lambda: player.post(reverse("cardmaster_analysis", args=[finished.pk])))
        assert response.status_code == 302, response.status_code
        seconds["Cardmaster analysis, one part"] = took
        transaction.set_rollback(True)
    say("| request | CPU seconds |\n|---|---|")
    for label, took in sorted(seconds.items(), key=lambda item: -item[1]):
        say(f"| {label} | {took:.2f} |")
    return seconds


def _showdown(phone: Client) -> Match:
    """A 9v9 Showdown against the hard AI, the player's lineup locked: the player's first move is next."""
    response = phone.post(reverse("match_new", args=["cardmaster"]), {
        "player_0": "Ana", "player_1": "Bot", "config-size": "9", "config-who_rolls": "app",
        "config-type_names": "Ember, Tide, Gale, Stone, Volt, Frost, Bloom, Venom, Radiance, Umbra",
        "config-overcook_turns": "3", "config-undershock_turns": "3", "config-opponent": "hard",
        "config-ai_faction": "generate", "config-ai_power": "6"})
    assert response.status_code == 302, response.status_code
    match = Match.objects.latest("pk")
    page = phone.get(reverse("match_entry", args=[match.pk, 0])).content.decode()
    token = page.split('name="entry_token" value="', 1)[1].split('"', 1)[0]
    names = [card["name"] for card in cardmaster_demo.CARDS[:9]]
    data = {"seq": match.head, "entry_token": token, **{f"card_{n}": name for n, name in enumerate(names, 1)}}
    assert phone.post(reverse("match_entry", args=[match.pk, 0]), data).status_code == 302
    match.refresh_from_db()
    return match


def _costliest_move(phone: Client, match: Match, moves: int = 20) -> float:
    """The player's first legal attack (or STACK), move after move: the CPU seconds of the costliest request,
    one the hard AI answers by playing its whole possession in the same request."""
    worst = 0.0
    for _move in range(moves):
        match.refresh_from_db()
        if match.finished is not None:
            break
        move = next(a for a in match.game.legal_actions(match.state) if a["type"] in ("a1", "stack"))
        data = {"seq": match.head, "action": move["type"], "card": move["card"], **(
            {"target": move["target"]} if "target" in move else {})}
        took, response = _cpu(partial(phone.post, reverse("match_act", args=[match.pk]), data))
        assert response.status_code == 302, response.status_code
        worst = max(worst, took)
    return worst
