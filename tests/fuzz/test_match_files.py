"""Match files that once crashed an import, kept as a corpus (match_files/, what each must say in
expected.json), and generated ones: every file is refused with a message naming what is wrong, or
imported and read back exactly as sent, on SQLite and on PostgreSQL alike (run the module under
tracker/scripts/with-postgres for the second)."""

import copy
import html
import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tracker.models import Action, Match, Player
from tracker.review import exchange

CORPUS = Path(__file__).parent / "match_files"
EXPECTED: dict[str, str | None] = json.loads((CORPUS / "expected.json").read_text())
CLEAN = json.loads((CORPUS / "clean.json").read_text())

pytestmark = pytest.mark.django_db


def stored() -> tuple[int, int, int]:
    return Match.objects.count(), Action.objects.count(), Player.objects.count()


def test_every_corpus_file_says_what_it_expects():
    assert sorted(EXPECTED) == sorted(path.name for path in CORPUS.glob("*.json") if path.name != "expected.json")


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_corpus_file_is_refused_naming_the_trouble_or_imported(settings, name):
    settings.RATELIMIT_ENABLE = False
    before = stored()
    raw = (CORPUS / name).read_bytes()
    response = Client().post(reverse("match_import"), {"file": SimpleUploadedFile(name, raw)})
    if EXPECTED[name] is None:
        assert response.status_code == 302
        assert_stored_as_sent(Match.objects.latest("pk"), json.loads(raw))
    else:
        assert response.status_code == 422
        shown = html.unescape(response.content.decode())
        assert EXPECTED[name] in shown, shown[-3000:]
        assert stored() == before


def assert_stored_as_sent(match: Match, data: dict) -> None:
    """What the database gives back is what the file said, to the character."""
    match.refresh_from_db()
    assert (match.seed, match.rules_version) == (data["seed"], data["rules_version"])
    assert match.config == {**match.game.default_config, **data["config"]}
    assert [player.name for player in match.players()] == data["players"]
    assert list(match.actions.order_by("seq").values_list("payload", flat=True)) == [
        entry["action"] for entry in data["actions"]]


# Any JSON at all, surrogates, NULs and non-finite numbers included, nested up to 30 deep.
TEXT = st.text(st.characters(codec=None, categories=None), max_size=80) | st.sampled_from(
    ["\ud800", "\x00", "x" * 1001, "s" * 65, "0001-01-01T00:30:00+05:00", "9999-12-31T23:30:00-05:00"])
LEAF = st.none() | st.booleans() | st.integers() | st.floats() | TEXT
VALUES = st.recursive(LEAF, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
                      max_leaves=40)
PLACES = {
    "an option": lambda data, value: data["config"].__setitem__("x", value),
    "a player": lambda data, value: data["players"].__setitem__(0, value),
    "the seed": lambda data, value: (data.__setitem__("seed", value), data.pop("seed_fingerprint", None)),
    "the rules version": lambda data, value: data.__setitem__("rules_version", value),
    "an action": lambda data, value: data["actions"][0]["action"].__setitem__("note", value),
    "a time": lambda data, value: data["actions"][1].__setitem__("at", value),
}


def reseal(data: dict) -> None:
    """The hashes recomputed, as anyone editing a file can: the values are what is under test."""
    try:
        data["header_sha256"] = previous = exchange.header_hash(
            data["game"], data["rules_version"], data["config"], data["seed"], data["players"])
        for entry in data["actions"]:
            entry["step_sha256"] = previous = exchange.step_hash(previous, entry)
    except (TypeError, ValueError, UnicodeEncodeError, AttributeError, RecursionError):
        pass  # a value the hashes cannot take is refused before they are read


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(place=st.sampled_from(sorted(PLACES)), value=VALUES)
def test_any_value_anywhere_is_refused_with_a_reason_or_stored_exactly(place, value):
    data = copy.deepcopy(CLEAN)
    PLACES[place](data, value)
    reseal(data)
    raw = json.dumps(data, ensure_ascii=True, allow_nan=True).encode()
    before = stored()
    try:
        match = exchange.import_match(exchange.parse(raw))
    except exchange.MatchFileError as error:
        assert str(error)
        assert stored() == before
    else:
        assert_stored_as_sent(match, json.loads(raw))
