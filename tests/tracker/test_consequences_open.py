"""No consequence inside a closed fold: over every step of every game's demo matches, each event a player must
act on (the game's `consequences`: lethal damage, a card leaving play, a mill, a raid, a status landing or
wearing off, a flip, the match's end) stands open in the outcome box, and the box's fold holds none of it."""

import pytest

from tracker.games import ADAPTERS, pages_for
from tracker.matches.outcome import step_said
from tracker.models import Match
from tracker.review.log import log_entries

from .test_demo import demo_loaded  # noqa: F401 (the fixture: one demo for the class)

pytestmark = pytest.mark.django_db


@pytest.mark.xdist_group("consequences")  # one worker, one demo (--dist loadgroup)
@pytest.mark.usefixtures("demo_loaded")
class TestTheDemoMatches:
    """Both tests read the demo's matches and write nothing: `manage.py demo` runs once for the two (it ran in each,
    1.5 s of CPU)."""

    def test_every_game_declares_events_its_engine_makes(self):
        made = {slug: set() for slug in ADAPTERS}
        for match in Match.objects.all():
            for action in match.actions.all():
                made[match.slug].update(event["type"] for event in action.events)
        for slug, pages in ADAPTERS.items():
            assert pages.consequences, slug
            assert pages.consequences & made[slug], f"{slug}: no consequence in any demo match: {sorted(made[slug])}"

    def test_no_consequence_is_folded_in_any_step_of_the_demo_matches(self):
        seen = 0
        for match in Match.objects.all():
            pages = pages_for(match.slug)
            names = [player.name for player in match.players()]
            for entry in log_entries(match, list(match.actions.filter(abandoned=False))):
                said = step_said(match, entry)
                for event in entry["action"].events:
                    if event["type"] not in pages.consequences:
                        continue
                    line = pages.outcome_line(event, names) or pages.describe(event, names)
                    if not line:
                        continue
                    seen += 1
                    assert line in said["lines"], f"{match.slug} step {entry['action'].seq}: {line!r} not open"
                    assert pages.describe(event, names) not in said["folded"], f"{match.slug}: {line!r} folded"
        assert seen > 20


def test_an_answers_long_moves_stand_open_two_at_a_time_within_the_box():
    """A Showdown answer over two possessions names each move's possession, and three such moves ran past a 360-px
    box (the third read in part): a long move takes two of its rows."""
    from tracker.matches.outcome import REPLY_SHOWN, _fitting

    short = ["Cinder Stag: A1 on Tidecaller", "Iron Wisp: STACK", "Moon Owl: A1 on Cinder Wolf", "Iron Wisp: A2"]
    long = ["Possession 1: Mire Sentry: Shift, Hollow Drake comes in", "Possession 1: Moon Wyrm: A1 on Tidecaller",
            "Possession 2: Brine Bastion: STACK", "Possession 2: Moon Wyrm: A1 on Tidecaller"]
    assert _fitting(short, REPLY_SHOWN) == 3
    assert _fitting(long, REPLY_SHOWN) == 2
    assert _fitting([long[0], short[0], short[1]], REPLY_SHOWN) == 3  # two rows and two of one
    assert _fitting(["x" * 200], REPLY_SHOWN) == 1 and _fitting(short, 1) == 1 and _fitting([], 3) == 0


def test_a_long_name_is_cut_short_at_a_word_or_after_its_letters_and_never_like_another():
    from tracker.matches.outcome import NAME_MOST, in_box, short_names

    card = "Ancient Thundering Leviathan of the Shattered Northern Deeps"
    short = short_names(["Ana", "x" * NAME_MOST, card, "Maximilianalexanderbartholomewsmithsonab",
                         "Maximilianalexanderbarnabyjonesandsoforth", "A" + "e\u0301" * 20])
    assert short[card] == "Ancient Thundering…"  # after its last whole word within the letters kept
    assert "Ana" not in short and "x" * NAME_MOST not in short  # as long as the box writes whole: kept whole
    # Two names alike in their first letters are kept longer until they differ.
    assert short["Maximilianalexanderbartholomewsmithsonab"] == "Maximilianalexanderbart…"
    assert short["Maximilianalexanderbarnabyjonesandsoforth"] == "Maximilianalexanderbarn…"
    assert short["A" + "e\u0301" * 20] == "A" + "e\u0301" * 9 + "…"  # an accent stays on its letter
    assert in_box(f"{card} attacks; {card[:30]} waits", {card: "Ancient Thundering…", card[:30]: "Ancient Th…"}) == (
        "Ancient Thundering… attacks; Ancient Th… waits")  # a name inside a longer one is the longer one's
    assert in_box(f"C3 flipped to {card}.", short) == "C3 flipped to Ancient Thundering…"


def test_the_box_writes_long_names_cut_short_and_the_log_whole():
    from tracker.demo import load_catalogs
    from tracker.matches import services

    from .helpers import lock_both, play

    load_catalogs()
    names = ["Maximilianalexanderbartholomewsmithsonab", "ana.longname.player@example-tablekeeper."]
    match = play(lock_both(services.match_create(slug="card-crush", player_names=names, config={})))
    entry = log_entries(match, [match.actions.get(seq=match.head)])[0]
    said = step_said(match, entry)
    shown = " ".join([said["title"], *said["lines"]])
    assert "Maximilianalexande…" in shown or "ana.longname.playe…" in shown, shown
    assert not any(name in shown for name in names), shown
    assert any(name in line for line in entry["lines"] for name in names), entry["lines"]


def test_rows_are_counted_as_a_phone_wraps_words():
    from tracker.matches.outcome import ROW_CHARS, rows

    assert rows("") == 1 and rows("x" * ROW_CHARS) == 1 and rows("x" * (ROW_CHARS + 1)) == 2
    assert rows("x" * (ROW_CHARS - 2) + " yyyy") == 2  # a word that does not fit goes whole to the next row
    assert rows("Maximilianalexanderbartholomewsmithsonab" * 2) == 3  # a word longer than a row is broken
    assert rows("Round 1 is over. Refill your empty card slots for the next one.") == 3


def test_the_key_lines_open_fill_the_box_rows_and_what_must_be_acted_on_stands_open_beyond():
    from tracker.matches.outcome import _open

    said = [(False, "a" * 25), (True, "fall " * 20), (False, "b" * 25), (False, "c " * 30)]
    wholes = ["A", "FALL", "B", "C"]
    shown, opened = _open(said, wholes, room=3, left=2)  # two rows for the key lines: the first two fit, not the third
    assert shown == [said[0][1], said[1][1], said[2][1]] and opened == {"A", "FALL", "B"}
    shown, opened = _open(said, wholes, room=1, left=9)  # at most `room` of them, however many rows are left
    assert opened == {"A", "FALL"}
    shown, opened = _open(said, wholes, room=3, left=0)
    assert opened == {"FALL"}
