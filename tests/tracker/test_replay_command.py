"""`python manage.py replay FILE`: the outcome of a clean file, or the first step that fails and why."""

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from .test_exchange import as_file, counts, play_script

pytestmark = pytest.mark.django_db

MANAGE = Path(__file__).resolve().parents[2] / "manage.py"


def write(tmp_path: Path, data: dict | bytes, name: str = "match.json") -> Path:
    path = tmp_path / name
    path.write_bytes(data if isinstance(data, bytes) else json.dumps(data).encode())
    return path


def replay(path) -> str:
    out = io.StringIO()
    call_command("replay", str(path), stdout=out)
    return out.getvalue()


@pytest.fixture
def rulebook_file(catalog, tmp_path) -> Path:
    """Ana vs Ben with the rulebook decks: Ben wins 3-2 in 7 steps."""
    return write(tmp_path, as_file(play_script("card-crush", "rulebook")))


def test_it_prints_the_game_the_steps_and_the_winner(rulebook_file):
    assert replay(rulebook_file) == "OK: Card Crush, 7 steps replayed; Ben won 3 rounds to 2.\n"


def test_it_prints_a_coin_flip_battle(catalog, tmp_path):
    match = play_script("card-crush", "coin-flip-tie")
    path = write(tmp_path, as_file(match))
    assert replay(path) == f"OK: Card Crush, {match.head} steps replayed; {match.winner.name} won {match.shown_score}.\n"


@pytest.mark.parametrize(("name", "steps", "score"), [("draw", 2, "0 points to 0"), ("table-ends", 5, "1 point to 1")])
def test_it_prints_a_draw_as_a_draw(catalog, tmp_path, name, steps, score):
    match = play_script("evons", name)
    assert match.winner is None
    assert replay(write(tmp_path, as_file(match))) == f"OK: Evons, {steps} steps replayed; a draw, {score}.\n"


def test_it_says_a_match_cut_before_its_end_is_still_in_progress(catalog, tmp_path):
    """A finished match's file cut after round 2, claiming no outcome: it replays as a running match."""
    data = as_file(play_script("card-crush", "rulebook"))
    data["actions"], data["outcome"] = data["actions"][:4], None
    assert replay(write(tmp_path, data)) == "OK: Card Crush, 4 steps replayed; the match is still in progress.\n"


def test_it_refuses_a_running_matchs_file_whose_seed_was_withheld(catalog, tmp_path):
    path = write(tmp_path, as_file(play_script("card-crush", "in-progress")))
    with pytest.raises(CommandError, match=r"^refused: This file was exported while the match was still running"):
        replay(path)


def test_it_stores_nothing(rulebook_file):
    before = counts()
    replay(rulebook_file)
    assert counts() == before


def test_it_refuses_a_tampered_file_at_its_step(catalog, tmp_path):
    data = as_file(play_script("card-crush", "rulebook"))
    data["actions"][0]["action"]["cards"][0]["power"] = 1
    path = write(tmp_path, data)
    before = counts()
    with pytest.raises(CommandError) as caught:
        replay(path)
    assert str(caught.value) == "refused: Step 1: the result differs from the one recorded in the file (altered or truncated)."
    assert counts() == before


def test_it_refuses_an_illegal_action_at_its_step(catalog, tmp_path):
    data = as_file(play_script("card-crush", "rulebook"))
    data["actions"][1]["action"]["cards"] = data["actions"][1]["action"]["cards"][:4]
    with pytest.raises(CommandError, match=r"^refused: Step 2: the rules refuse this action: "
                                           r"A deck has exactly 5 cards, not 4\.$"):
        replay(write(tmp_path, data))


def test_it_refuses_altered_dice_at_their_step(catalog, tmp_path):
    data = as_file(play_script("card-crush", "coin-flip-tie"))
    roll = data["actions"][2]["rolls"][0]
    roll["value"] = 1 - roll["value"]
    with pytest.raises(CommandError, match=r"^refused: Step 3: the dice do not match the seed"):
        replay(write(tmp_path, data))


def test_it_refuses_a_file_that_is_not_json(tmp_path, db):
    with pytest.raises(CommandError, match=r"^refused: The file is not valid JSON"):
        replay(write(tmp_path, b'{"format": "tablekeeper-match", "actio'))


def test_it_refuses_an_old_rules_version(catalog, tmp_path):
    data = as_file(play_script("card-crush", "rulebook"))
    data["rules_version"] = "0"
    with pytest.raises(CommandError, match="refused rather than re-scored"):
        replay(write(tmp_path, data))


def test_it_says_clearly_when_the_file_is_missing(tmp_path, db):
    missing = tmp_path / "nowhere.json"
    with pytest.raises(CommandError) as caught:
        replay(missing)
    assert str(caught.value) == f"cannot read {missing}: No such file or directory"


def test_it_says_clearly_when_given_a_folder(tmp_path, db):
    with pytest.raises(CommandError, match=f"^cannot read {tmp_path}: Is a directory$"):
        replay(tmp_path)


def test_it_needs_a_file_argument(db):
    with pytest.raises(CommandError, match="the following arguments are required: file"):
        call_command("replay")


# --- a real run from the shell: exit codes --------------------------------------------------------


def run(*args: str) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    return subprocess.run([sys.executable, str(MANAGE), "replay", *args], capture_output=True, text=True,
                          cwd=MANAGE.parent, env=env, timeout=120)


def test_from_the_shell_a_clean_file_exits_0(rulebook_file):
    done = run(str(rulebook_file))
    assert done.returncode == 0, done.stderr
    assert done.stdout == "OK: Card Crush, 7 steps replayed; Ben won 3 rounds to 2.\n"
    assert done.stderr == ""


def test_from_the_shell_a_tampered_file_exits_1(catalog, tmp_path):
    data = as_file(play_script("card-crush", "rulebook"))
    data["outcome"]["score"] = "3-0"
    done = run(str(write(tmp_path, data)))
    assert done.returncode == 1
    assert done.stdout == ""
    assert "refused: Step 7: the file claims the result" in done.stderr


def test_from_the_shell_a_missing_file_exits_1(tmp_path):
    done = run(str(tmp_path / "nowhere.json"))
    assert done.returncode == 1
    assert "cannot read" in done.stderr and "No such file or directory" in done.stderr
    assert "Traceback" not in done.stderr


# --- every game: one finished file each, clean and tampered -----------------------------------------

# A finished match per game and one edit that must stop the replay at its step.
def lonely_star_crit_made_a_1(data):
    """Ember Drifter's crit die typed in as 4 (fails against Luck 3) made a 1 (Resist ignored)."""
    data["actions"][3]["rolls"][0]["value"] = 1
    return 4, "the result differs from the one recorded in the file"


def cardmaster_coin_turned(data):
    """Round 1's possession coin turned over: the seed says otherwise."""
    roll = data["actions"][1]["rolls"][0]
    roll["value"] = 1 - roll["value"]
    return 2, "the dice do not match the seed"


def cardmaster_brainlock_missed(data):
    """Gale Harrier's Brainlock die typed in as 1 (lands) made a 100 (misses)."""
    data["actions"][14]["rolls"][1]["value"] = 100
    return 15, "the result differs from the one recorded in the file"


def lonely_star_crit_4_made_6(data):
    """The same die made a 6: still a fail, so the state is unchanged, but the chain breaks."""
    data["actions"][3]["rolls"][0]["value"] = 6
    return 4, "its action or dice were changed after export"


def evons_stronger_card(data):
    """Moss Golem played with 1 more ATK than it had."""
    data["actions"][1]["action"]["card"]["atk"] += 1
    return 2, "the result differs from the one recorded in the file"


GAMES = [
    pytest.param("lonely-star", "deck-out", lonely_star_crit_made_a_1, id="lonely-star"),
    pytest.param("lonely-star", "deck-out", lonely_star_crit_4_made_6, id="lonely-star-chain"),
    pytest.param("cardmaster", "coin-for-possession", cardmaster_coin_turned, id="cardmaster-coin"),
    pytest.param("cardmaster", "knock-out", cardmaster_brainlock_missed, id="cardmaster-typed-in"),
    pytest.param("evons", "by-passes", evons_stronger_card, id="evons"),
]


def outcome_line(match) -> str:
    return f"OK: {match.game.name}, {match.head} steps replayed; {match.winner.name} won {match.shown_score}.\n"


@pytest.mark.parametrize(("slug", "name", "tamper"), GAMES)
def test_it_prints_the_outcome_of_every_game(catalog, tmp_path, slug, name, tamper):
    match = play_script(slug, name)
    assert replay(write(tmp_path, as_file(match))) == outcome_line(match)


def test_the_lonely_star_outcome_reads_as_the_match_ended(catalog, tmp_path):
    path = write(tmp_path, as_file(play_script("lonely-star", "deck-out")))
    assert replay(path) == "OK: Lonely Star, 12 steps replayed; Ana won by deck-out.\n"


@pytest.mark.parametrize(("slug", "name", "tamper"), GAMES)
def test_it_refuses_a_tampered_file_of_every_game_at_its_step(catalog, tmp_path, slug, name, tamper):
    data = as_file(play_script(slug, name))
    step, says = tamper(data)
    with pytest.raises(CommandError) as caught:
        replay(write(tmp_path, data))
    assert str(caught.value).startswith(f"refused: Step {step}: {says}"), str(caught.value)


@pytest.mark.parametrize(("slug", "name"), [("lonely-star", "mid-turn"), ("cardmaster", "first-round"),
                                            ("evons", "covered-waiting")])
def test_it_refuses_a_running_file_of_every_game(catalog, tmp_path, slug, name):
    path = write(tmp_path, as_file(play_script(slug, name)))
    with pytest.raises(CommandError, match=r"^refused: This file was exported while the match was still running"):
        replay(path)


@pytest.mark.parametrize(("slug", "name", "tamper"), [p for p in GAMES if p.id != "cardmaster-coin"])
def test_from_the_shell_every_game_exits_0_clean_and_1_tampered(catalog, tmp_path, slug, name, tamper):
    match = play_script(slug, name)
    data = as_file(match)
    done = run(str(write(tmp_path, data, "clean.json")))
    assert (done.returncode, done.stdout, done.stderr) == (0, outcome_line(match), "")
    step, says = tamper(data)
    done = run(str(write(tmp_path, data, "tampered.json")))
    assert done.returncode == 1
    assert done.stdout == ""
    assert f"refused: Step {step}: {says}" in done.stderr
    assert "Traceback" not in done.stderr
