"""One htmx action per game, timed for two code trees in turn in one run: is a change to the answer faster?

    .venv/bin/python perf/side_by_side.py /path/to/other/tree [--rounds 60]

Each tree runs in its own process (its own code, templates and a scratch SQLite file next to this
one), with the same matches: a Card Crush reveal, a Lonely Star D6 and attack with three units
each, a Cardmaster 3v3 STACK and A1, a LOGOS fight, an Evons play (face-up, and covered) and reveal;
the other phone's fetch of `#match` after a Lonely Star D6; and that attack and A1 sent from a page a
step behind (refused, 409).
Every request is sent as the match page sends it with htmx, with the parts the page shows (`X-Shown`,
as table.js sends it: every kept part but those around the form). The processes take turns round by round (the
order swapped each round), so a busy moment on a shared machine moves both alike; only ratios
within one run compare. Times are CPU time per request, medians, and ratios to the floor
(GET /healthz) measured in the same process; beside them each answer's size in bytes (uncompressed).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

HERE = Path(__file__).resolve().parents[1]  # the code tree this file is in


def _cases(client) -> dict:
    """Every timed request by name: each action in a savepoint rolled back, so it is timed again and again."""
    from django.urls import reverse

    from perf.benchmark import HTMX, _battle_under_way, _rolled_back
    from perf.tables import screen
    from perf.tables.forms import read_forms
    from tracker import demo
    from tracker.games.cardmaster import demo as cardmaster_demo
    from tracker.games.common import catalog_card, play_steps
    from tracker.games.evons.demo import play as evons_play
    from tracker.games.logos import demo as logos_demo
    from tracker.matches import services

    def rolled_back(url: str, data: dict, headers: dict):
        # URL-encoded, as the page's form and htmx send it (the test client's own default is multipart). Here,
        # not in a client of perf.benchmark's: this code runs with the other tree's perf modules too.
        sent = urlencode(data, doseq=True)
        return _rolled_back(lambda: client.post(url, sent, content_type="application/x-www-form-urlencoded", headers=headers))

    def page_of(match) -> tuple[str, str]:
        return client.get(match.get_absolute_url()).content.decode(), reverse("match_act", args=[match.pk])

    def shown(page: str, sent=None) -> dict:
        """As table.js sends it: every kept part the page shows, but those around the form sent."""
        parts = screen.shown(page, screen.around(page, sent.at) if sent else ())
        return {**HTMX, "X-Shown": parts} if parts else HTMX

    def form(page: str, action: str = "", button: str = ""):
        return next(f for f in read_forms(page) if f.value("action") == action or button in f.button_values())

    demo.load_catalogs()
    cases = {"floor": lambda: client.get(reverse("healthz"))}
    battle = _battle_under_way()
    page, url = page_of(battle)
    cases["Card Crush reveal"] = rolled_back(url, {"seq": 2, "action": "play_round"}, shown(page))
    # The same reveal after it was undone (the benchmark's reveal + undo leaves its battle so): it replaces that step.
    undone = _battle_under_way()
    services.match_apply_action(match_id=undone.pk, action={"type": "play_round"}, expected_seq=2)
    services.match_goto(match_id=undone.pk, step=2, expected_seq=3)
    page, url = page_of(undone)
    cases["Card Crush reveal, replacing an undone one"] = rolled_back(url, {"seq": 2, "action": "play_round"},
                                                                      shown(page))

    star = services.match_create(slug="lonely-star", player_names=["Ana", "Ben"], config={})
    units = ["Comet Wanderer", "Nebula Warden", "Ember Drifter", "Quiet Moon", "Dust Knight", "Void Spark"]
    play_steps(star, [{"type": "play_unit", "seat": n % 2, "card": catalog_card("lonely-star", name)}
                      for n, name in enumerate(units)])
    page, url = page_of(star)
    d6, attack = form(page, "d6"), form(page, "attack")
    cases["Lonely Star D6"] = rolled_back(url, d6.data(), shown(page, d6))
    cases["Lonely Star attack"] = rolled_back(url, attack.data(), shown(page, attack))
    # The same tap from a page a step behind (a stale page, a double tap's twin): refused with the fresh #match.
    behind = {"seq": str(star.head - 1)}
    cases["Lonely Star attack from a page behind (409)"] = rolled_back(url, {**attack.data(), **behind},
                                                                       shown(page, attack))
    # The other phone, showing the page from before that D6, fetches its #match when told of it (table.js).
    other = services.match_create(slug="lonely-star", player_names=["Ana", "Ben"], config={})
    play_steps(other, [{"type": "play_unit", "seat": n % 2, "card": catalog_card("lonely-star", name)}
                       for n, name in enumerate(units)])
    before, _url = page_of(other)
    play_steps(other, [{"type": "d6", "seat": 0}])
    cases["Lonely Star D6, the other phone's fetch"] = lambda: client.get(other.get_absolute_url(),
                                                                          headers=shown(before))

    cardmaster = cardmaster_demo.locked([cardmaster_demo.STORM_LINEUP, cardmaster_demo.STONE_LINEUP])
    page, url = page_of(cardmaster)
    moves = form(page, button="stack")
    cases["Cardmaster STACK"] = rolled_back(url, moves.data(button=("action", "stack")), shown(page, moves))
    cases["Cardmaster A1"] = rolled_back(url, moves.data(button=("action", "a1")), shown(page, moves))
    cases["Cardmaster A1 from a page behind (409)"] = rolled_back(
        url, {**moves.data(button=("action", "a1")), "seq": str(cardmaster.head - 1)}, shown(page, moves))

    duel = services.match_create(slug="logos", player_names=["Ana", "Ben"], config={"starting_hp": 30_000})
    card = {c["name"]: c for c in logos_demo.CARDS}.get
    play_steps(duel, [{"type": "commit", "seat": 0, "round": 1, "card": card("Granite Fist"), "backup": card("Seraph")},
                      {"type": "commit", "seat": 1, "round": 1, "card": card("Solar Flare"), "backup": None}])
    page, url = page_of(duel)
    cases["LOGOS fight"] = rolled_back(url, form(page, "fight").data(), shown(page))

    evons = services.match_create(slug="evons", player_names=["Ana", "Ben"], config={})
    play_steps(evons, [{"type": "pass", "seat": 0}, evons_play(1, "C3", "Moss Golem"), evons_play(0, "B3", "Ember Fox"),
                       {"type": "conflict", "seat": 0, "target": "C3"}, evons_play(1, "D2", None)])
    page, url = page_of(evons)
    played = form(page, "play").data(cell="C2", face="up", card_name="Boulder Ram")
    cases["Evons play"] = rolled_back(url, played, shown(page))
    # A card played covered: the next player's turn starts on the same phone, the board as it was but two cells.
    opened = play_steps(services.match_create(slug="evons", player_names=["Ana", "Ben"], config={}),
                        [evons_play(0, "B4", "Ember Fox")])
    page, url = page_of(opened)
    cases["Evons play, covered"] = rolled_back(url, form(page, "play").data(cell="D2", face="covered"), shown(page))
    # A covered card revealed at the start of its player's turn, its Shockwave to use next: the other covered card
    # and the rest of the board stay as they were.
    covered = play_steps(services.match_create(slug="evons", player_names=["Ana", "Ben"], config={}),
                         [evons_play(0, "B2", None), evons_play(1, "D2", None)])
    page, url = page_of(covered)
    cases["Evons reveal"] = rolled_back(url, form(page, "reveal").data(card_name="Boulder Ram"), shown(page))
    return cases


def _status(case: str) -> int:
    """The status a case is answered with: 409 for a tap refused as stale, else 200."""
    return 409 if case.endswith("(409)") else 200


def worker(tree: str, database: str) -> None:
    """Set up the matches with `tree`'s code, then time one round of every case each time asked."""
    sys.path.insert(0, tree)
    os.environ["DJANGO_SETTINGS_MODULE"] = "tracker.settings"
    os.environ["DATABASE_URL"] = f"sqlite:///{database}"
    import django

    django.setup()
    import tracker

    assert str(Path(tracker.__file__).resolve()).startswith(str(Path(tree).resolve())), tracker.__file__
    from django.conf import settings
    from django.core.management import call_command
    from django.db import transaction
    from django.test import Client
    from django.test.utils import override_settings

    call_command("migrate", verbosity=0)
    override_settings(STATIC_ROOT=tempfile.mkdtemp(prefix="side-by-side-")).enable()
    call_command("collectstatic", "--noinput", verbosity=0)
    with transaction.atomic():
        cases = _cases(Client(HTTP_HOST=settings.ALLOWED_HOSTS[0]))
        for name, call in cases.items():
            assert call().status_code == _status(name), name
        print("ready", flush=True)
        for _line in sys.stdin:
            times = {}
            for name, call in cases.items():
                start = time.process_time()
                response = call()
                times[name] = (time.process_time() - start, len(response.content))
                assert response.status_code == _status(name), (name, response.status_code)
            print(json.dumps(times), flush=True)
        transaction.set_rollback(True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("other", help="the other code tree (a checkout or `git archive` of it)")
    parser.add_argument("--rounds", type=int, default=60)
    parser.add_argument("--worker", nargs=2, metavar=("TREE", "DATABASE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(*args.worker)
        return
    trees = {"other": str(Path(args.other).resolve()), "this": str(HERE)}
    scratch = Path(tempfile.mkdtemp(prefix="side-by-side-"))
    runs = {name: subprocess.Popen([sys.executable, __file__, "x", "--worker", tree, str(scratch / f"{name}.sqlite3")],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=scratch)
            for name, tree in trees.items()}
    for name, run in runs.items():
        assert run.stdout and run.stdout.readline().strip() == "ready", name
    samples: dict[str, dict[str, list[float]]] = {name: {} for name in runs}
    sizes: dict[str, dict[str, int]] = {name: {} for name in runs}  # each case's answer, bytes (the last round's)
    for number in range(args.rounds):
        for name in (list(runs) if number % 2 == 0 else list(runs)[::-1]):
            run = runs[name]
            assert run.stdin and run.stdout
            run.stdin.write("round\n")
            run.stdin.flush()
            for case, (spent, size) in json.loads(run.stdout.readline()).items():
                samples[name].setdefault(case, []).append(spent)
                sizes[name][case] = size
    for run in runs.values():
        assert run.stdin
        run.stdin.close()
        run.wait()
    median = {name: {case: statistics.median(times) for case, times in cases.items()} for name, cases in samples.items()}
    print(f"{args.rounds} rounds each, in turn; median CPU ms per request and its ratio to the floor of the same tree, "
          "and the answer's bytes")
    width = max(map(len, median["other"]))
    print(f"{'':{width}} {'other':>8} {'x':>5} {'this':>8} {'x':>5}  this/other {'bytes':>8} {'this':>8}")
    for case in median["other"]:
        was, now = median["other"][case], median["this"][case]
        print(f"{case:{width}} {was * 1000:8.2f} {was / median['other']['floor']:5.1f} "
              f"{now * 1000:8.2f} {now / median['this']['floor']:5.1f}  {now / was:10.2f} "
              f"{sizes['other'][case]:8,} {sizes['this'][case]:8,}")


if __name__ == "__main__":
    main()
