"""German is complete: every message of the catalog is translated, and no page shows English.

(a) The catalog: every message has a German translation that is not fuzzy and keeps the
    English message's placeholders.
(b) The pages: every page a player meets in every game (home, the new-match form, a match
    at every step of a demo game with its live forms, the secret entries, the log, the
    replay, statistics, clubs, ratings, tournaments, collections, the catalog, settings,
    signing in), rendered in German, shows no English sentence from the catalog, and no
    sentence it also shows word for word in English (a string never marked for translation).
    Player and card names are data; a few words in a row are allowed to stay the same.
    Nor does a game's page show a word of the game's own in English where it has German (an affinity,
    a colour, a stat's name: what the engine marks and names in its messages, rules.errors.Word).
(c) Numbers and dates the German way.
(d) A game's own words: each one its engine marks is said in German in the game's context, on its pages,
    in its refusals and in the working of a round (never the shared catalogue's German for the same English).
"""

import ast
import contextlib
import decimal
import functools
import re
from collections import Counter
from datetime import UTC, datetime
from html.parser import HTMLParser
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.template import base as template_base
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse
from django.utils import formats, translation

import rules
from tracker import demo
from tracker.games import ADAPTERS, pages_for
from tracker.games.cardmaster.narration import multiplier_text as narration_multiplier
from tracker.matches import services
from tracker.models import Card, Club, Match, Player, Tournament
from tracker.review import charts

# The shared catalogue, then each game's own (tracker/games/<game>/locale/).
CATALOGS = [Path(folder) / "de" / "LC_MESSAGES" / "django.po" for folder in settings.LOCALE_PATHS]
PLACEHOLDER = re.compile(r"%\([a-z_0-9]+\)[-+ #0]*\d*[srdif]|%%")
# Small words every English sentence has and names do not: what tells a sentence from a card's name.
ENGLISH_GLUE = {"the", "a", "an", "to", "of", "is", "are", "and", "or", "on", "for", "you", "your", "with", "not",
                "no", "this", "that", "it", "its", "be", "by", "at", "from", "has", "have", "can", "cannot",
                "what", "who", "each", "every", "there", "here", "when", "only", "yet", "been", "will"}
# A run of this many words that stays the same in English and German is an untranslated sentence.
WORDS = 4


# --- (a) the catalog -----------------------------------------------------------------------------


def _unquote(line: str) -> str:
    body = line[line.index('"') + 1:line.rindex('"')]
    return re.sub(r'\\(.)', lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), body)


def read_catalog(*paths: Path) -> list[dict]:
    """The messages of .po files (every catalogue by default): msgctxt, msgid, msgid_plural, msgstr (a list:
    one per plural form), flags."""
    messages, entry, field = [], None, None
    lines = [line for path in paths or CATALOGS for line in [*path.read_text(encoding="utf-8").splitlines(), ""]]
    for line in lines:
        if not line.strip():
            if entry and entry.get("msgid"):
                messages.append(entry)
            entry, field = None, None
            continue
        entry = entry or {"msgid": "", "msgid_plural": None, "msgstr": {}, "flags": set()}
        if line.startswith("#,"):
            entry["flags"] |= {flag.strip() for flag in line[2:].split(",")}
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            if field[0] == "msgstr":
                entry["msgstr"][field[1]] += _unquote(line)
            else:
                entry[field[0]] += _unquote(line)
        else:
            keyword = line.split(" ", 1)[0]
            if keyword.startswith("msgstr"):
                index = int(keyword[7:-1]) if "[" in keyword else 0
                field = ("msgstr", index)
                entry["msgstr"][index] = _unquote(line)
            else:
                field = (keyword,)
                entry[keyword] = _unquote(line)
    return messages


def test_the_reader_reads_plurals_flags_and_continued_lines(tmp_path):
    po = tmp_path / "django.po"
    po.write_text('msgid ""\nmsgstr ""\n"Language: de\\n"\n\n'
                  '#, fuzzy, python-format\nmsgid ""\n"%(n)s long "\n"message"\nmsgstr "%(n)s alt"\n\n'
                  'msgid "%(n)s card"\nmsgid_plural "%(n)s cards"\nmsgstr[0] "%(n)s Karte"\nmsgstr[1] ""\n',
                  encoding="utf-8")
    long, plural = read_catalog(po)
    assert (long["msgid"], long["msgstr"], long["flags"]) == ("%(n)s long message", {0: "%(n)s alt"},
                                                               {"fuzzy", "python-format"})
    assert (plural["msgid_plural"], plural["msgstr"]) == ("%(n)s cards", {0: "%(n)s Karte", 1: ""})


def test_every_message_has_a_german_translation_that_keeps_its_placeholders():
    messages = read_catalog()
    assert len(CATALOGS) > len(rules.GAMES)  # the shared catalogue and each game's
    assert len(messages) > 1000  # the whole catalog, not a stray file
    untranslated = [m["msgid"] for m in messages if not all(m["msgstr"].values()) or len(m["msgstr"]) > 2]
    fuzzy = [m["msgid"] for m in messages if "fuzzy" in m["flags"]]
    assert untranslated == []
    assert fuzzy == []
    broken = []
    for m in messages:
        for index, german in m["msgstr"].items():
            english = m["msgid_plural"] if index and m["msgid_plural"] else m["msgid"]
            if sorted(PLACEHOLDER.findall(english)) != sorted(PLACEHOLDER.findall(german)) and (
                    set(PLACEHOLDER.findall(english)) != set(PLACEHOLDER.findall(german))):
                broken.append((english, german))
    assert broken == []
    # Du-form: an English "its" or "their" is never a capital "Ihr", "Ihre", which a German reader takes for "your".
    formal = [m["msgid"] for m in messages if re.search(r"\b(its|their)\b", m["msgid"] + (m["msgid_plural"] or ""), re.I)
              and any(re.search(r"\bIhr(e[mnrs]?)?\b", german) for german in m["msgstr"].values())]
    assert formal == []


TRANSLATING_CALLS = {"_", "gettext", "gettext_lazy", "gettext_noop", "ngettext", "ngettext_lazy"}
# A game's messages carry the game's slug as their context (the first argument).
CONTEXTUAL_CALLS = {"pgettext", "pgettext_lazy", "npgettext", "npgettext_lazy"}


def marked_in_python() -> set[tuple[str, str | None, str]]:
    """(file, context, message) for every literal message marked in the engines' and the pages' Python code."""
    root = Path(settings.BASE_DIR)
    # What a game's engine or pages mark without a context (gettext_noop) is in the game's catalogue in its context.
    games = {folder: pages.slug for pages in ADAPTERS.values() for folder in (pages.engine_package, pages.package)}
    marked = set()
    for path in [*root.glob("rules/**/*.py"), *root.glob("tracker/**/*.py")]:
        game = next((slug for folder, slug in games.items() if folder in path.resolve().parents), None)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            literals = [arg.value for arg in node.args[:2] if isinstance(arg, ast.Constant) and isinstance(arg.value, str)]
            if node.func.id in TRANSLATING_CALLS and literals and isinstance(node.args[0], ast.Constant):
                marked.add((str(path.relative_to(root)), game, literals[0]))
            elif node.func.id in CONTEXTUAL_CALLS and len(literals) == 2:
                marked.add((str(path.relative_to(root)), literals[0], literals[1]))
    return marked


def test_every_message_marked_in_python_is_in_the_catalog():
    """A message added after the last makemessages (tracker/scripts/setup) would stay English."""
    msgids = {(m.get("msgctxt"), m["msgid"]) for m in read_catalog()}
    marked = marked_in_python()
    assert len(marked) > 900  # every file was read
    assert sorted((path, message) for path, context, message in marked if (context, message) not in msgids) == []


def test_an_engine_refusal_reaches_the_player_in_german():
    """The engines stay free of Django: their refusals carry an English template marked with
    gettext_noop, which the pages translate when they explain the refusal."""
    game = rules.GAMES["card-crush"]
    state = game.new_match({}, "seed")
    with pytest.raises(rules.RuleError) as refused:
        game.apply(state, {"type": "play_round"}, rules.Dice("seed", 1))
    with translation.override("de"):
        assert services.explain(refused.value) == "Beide Spieler müssen ihre Decks vor Runde 1 festlegen."
    with translation.override("en"):
        assert services.explain(refused.value) == "Both players must lock in their decks before round 1."


def test_the_compiled_catalog_is_the_one_pages_use():
    """setup compiles the catalog; an English page would be the first sign of a missing .mo."""
    with translation.override("de"):
        assert translation.gettext("Start a match") == "Eine Partie beginnen"


# --- (b) the pages -------------------------------------------------------------------------------

# Text a player reads that is not between tags: labels for screen readers, tooltips, placeholders.
READ_ATTRIBUTES = ("aria-label", "title", "placeholder", "alt")


class _Text(HTMLParser):
    """The text of a page as a player (or a screen reader) meets it, one string per text run."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.runs: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "template"):
            self._skip += 1
        values = dict(attrs)
        self.runs += [values[name] for name in READ_ATTRIBUTES if values.get(name)]
        if tag == "input" and values.get("type") in ("submit", "button") and values.get("value"):
            self.runs.append(values["value"])

    def handle_endtag(self, tag):
        if tag in ("script", "style", "template") and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip and data.strip():
            self.runs.append(data)


def page_text(html: str) -> list[str]:
    parser = _Text()
    parser.feed(html)
    return [" ".join(run.split()) for run in parser.runs]


def _words(text: str) -> list[str]:
    """The words of a text: runs of letters; a token with a digit in it (a hash, a cell like B3) is none."""
    return [token for token in re.findall(r"[\w'’]+", text) if not re.search(r"[\d_]", token)]


def english_phrases() -> set[str]:
    """Every run of WORDS or more words of an English message, between its placeholders and HTML."""
    phrases = set()
    for message in read_catalog():
        for english in filter(None, (message["msgid"], message["msgid_plural"])):
            for piece in re.split(r"%\([a-z_0-9]+\)[-+ #0]*\d*[srdif]|<[^>]+>|[:;()“”\"]", english):
                piece = " ".join(piece.split()).strip(" .,!?…·-—–")
                if len(_words(piece)) >= WORDS:
                    phrases.add(piece)
    return phrases


@pytest.fixture(scope="module")
def phrases() -> set[str]:
    return english_phrases()


@functools.cache
def engine_words(slug: str) -> frozenset[str]:
    """The words of a game's vocabulary its engine marks (rules.errors.Word: an affinity, a colour, a stat's name,
    each a gettext_noop of its own): a marked message of at most three words, no placeholder, no sentence. Read
    once per game (parsing the engine's files for every page read was half the crawl's time)."""
    words = set()
    for path in sorted(pages_for(slug).engine_package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "gettext_noop"
                    and node.args and isinstance(node.args[0], ast.Constant)):
                text = node.args[0].value
                if "%" not in text and not text.endswith((".", "?", "!")) and len(text.split()) <= 3:
                    words.add(text)
    return frozenset(words)


@functools.cache
def english_words(slug: str) -> re.Pattern | None:
    """The game's words whose German is not the English (Evons keeps its elements, by the glossary), as a
    pattern that finds one standing alone in a text."""
    with translation.override("de"):
        words = sorted((w for w in engine_words(slug) if translation.pgettext(slug, w) != w), key=len, reverse=True)
    return re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, words)) + r")(?![\w-])") if words else None


def test_each_game_marks_the_words_its_pages_and_refusals_name():
    """What the page check below looks for: the words are found, and those with German are the reported ones."""
    assert {"Fire", "Light", "Legendary"} <= engine_words("card-crush")
    assert {"red", "grey"} <= engine_words("logos")
    assert {"Reach", "HP"} <= engine_words("lonely-star")
    assert {"Fire", "Remove"} <= engine_words("evons")
    assert english_words("lonely-star").findall("HP 3, Reach 2, Reichweite 1") == ["Reach"]
    # The glossary keeps Evons's elements and abilities in English; what the engine names a piece it made or cannot see
    # is German.
    assert english_words("evons").findall("Fire, Remove, a covered card, a Block card") == ["covered card", "Block card"]


class Reader:
    """Two phones on the same pages: one in English, one in German, both signed in as Ana."""

    def __init__(self, user, phrases: set[str]):
        self.english, self.german = Client(), Client()
        self.german.post(reverse("set_language"), {"language": "de"})
        for client in (self.english, self.german):
            client.force_login(user)
        self.phrases = phrases
        self.found: dict[str, set[str]] = {}

    def read(self, url: str, anonymous: bool = False, compare: bool = True, slug: str | None = None) -> str:
        """The German page at url; what in it is still English is noted against the url.

        With `compare`, the page is read in English too: a sentence that reads the same in both
        was never marked for translation (or is missing from the catalog). With `slug`, the page is that
        game's: none of the game's own words (engine_words) may stand in it in English.
        """
        german, english = (self.german, self.english) if not anonymous else (Client(), Client())
        if anonymous:
            german.post(reverse("set_language"), {"language": "de"})
        response = german.get(url)
        assert response.status_code == 200, (url, response.status_code)
        html = response.content.decode()
        assert '<html lang="de">' in html, url
        runs = page_text(html)
        same = set(runs) & set(page_text(english.get(url).content.decode())) if compare else set()
        text = "\n".join(runs)
        left = {phrase for phrase in self.phrases if phrase in text}
        left |= {run for run in same if len(_words(run)) >= WORDS and ENGLISH_GLUE & {w.lower() for w in _words(run)}}
        words = english_words(slug) if slug else None
        if words:
            names = sorted(Card.objects.filter(slug=slug).values_list("name", flat=True), key=len, reverse=True)
            data = re.compile("|".join(map(re.escape, names))) if names else None
            left |= {f"{found!r} in {run!r}" for run in runs
                     for found in words.findall(data.sub("", run) if data else run)}
        if left:
            self.found[url] = left
        return html


def _in_progress(slug: str) -> Match:
    """A new match of the game with its default options, owned by the table (any phone may play it)."""
    return services.match_create(slug=slug, player_names=["Ana", "Ben"], config={})


class NumbersAsLocalised:
    """While `watching`, each value a template draws in German is also localised by Django as if localisation were on;
    where the two read differently, it is noted against the match and step (`unlike`), and `drawn_off` counts each
    game's numbers drawn with localisation off (the board's, in `{% localize off %}`: match_detail.html).

    The match page draws the board so (Django's localisation of each number costs a tenth of a board and changes
    nothing: whole numbers have no separator, the rest is text from tracker/matches/numbers.py). Django's template
    localises in one place, `render_value_in_context`: a page drawn with localisation off reads as the page with every
    number localised exactly when each value it draws reads the same both ways, so this compares each value as the
    page draws it, not the page drawn twice."""

    def __init__(self, monkeypatch):
        self.monkeypatch = monkeypatch
        self.unlike: dict[str, set[tuple[str, str]]] = {}
        self.drawn_off: Counter[str] = Counter()

    @contextlib.contextmanager
    def watching(self, match: Match, step: int):
        page = f"{match.slug} match {match.pk} step {step}"

        def localize(value, use_l10n=None):
            drawn = formats.localize(value, use_l10n=use_l10n)
            if translation.get_language() == "de":
                localised = formats.localize(value, use_l10n=True)
                if str(drawn) != str(localised):
                    self.unlike.setdefault(page, set()).add((str(drawn), str(localised)))
                if use_l10n is False and isinstance(value, int | float | decimal.Decimal) and not isinstance(value, bool):
                    self.drawn_off[match.slug] += 1
            return drawn

        with self.monkeypatch.context() as patched:
            patched.setattr(template_base, "localize", localize)
            yield


@pytest.mark.django_db
def test_every_page_of_every_game_is_german(phrases, monkeypatch):
    """No English on any German page (b), and every game's demo matches, at every step, read the same in German as
    with every number localised (c): the board is drawn without Django localising each number (NumbersAsLocalised)."""
    call_command("demo", stdout=StringIO())
    # The demo plays every game's every demo match (tests/tracker/test_demo.py), each crawled below at every step.
    matches = list(Match.objects.filter(pairing=None).order_by("pk"))
    assert Counter(match.slug for match in matches) == Counter(slug for slug, _script, _players in demo.matches())
    numbers = NumbersAsLocalised(monkeypatch)
    reader = Reader(get_user_model().objects.get(username="ana"), phrases)
    for url in ("home", "settings", "match_list", "match_import", "stats", "club_list", "card_games",
                "ratings_index", "tournaments_index", "collection_index"):
        reader.read(reverse(url))
    for url in ("sign_in", "sign_up"):
        reader.read(reverse(url), anonymous=True)
    club = Club.objects.get()
    tournament = Tournament.objects.get()
    ana = Player.objects.get(name="Ana")
    for url in (reverse("club_detail", args=[club.pk]), reverse("leaderboard", args=[club.pk]),
                reverse("player_rating", args=[club.pk, ana.pk]), reverse("tournament_list", args=[club.pk]),
                reverse("tournament_detail", args=[tournament.pk]), reverse("club_collections", args=[club.pk]),
                reverse("stats_player", args=[ana.pk])):
        reader.read(url)
    for slug in rules.GAMES:
        reader.read(reverse("match_new", args=[slug]), slug=slug)
        reader.read(reverse("card_list", args=[slug]), slug=slug)
        card = Card.objects.filter(slug=slug).order_by("pk").first()
        reader.read(reverse("card_detail", args=[slug, card.pk]), slug=slug)
        reader.read(reverse("card_edit", args=[slug, card.pk]), slug=slug)
        reader.read(reverse("stats") + f"?game={slug}", slug=slug)
        # A fresh match: the secret entries (pass the phone, then the entry form) or the open board.
        fresh = _in_progress(slug)
        reader.read(fresh.get_absolute_url(), slug=slug)
        for seat in pages_for(slug).seats_to_enter(fresh):
            reader.read(reverse("match_pass", args=[fresh.pk, seat]), slug=slug)
            reader.read(reverse("match_entry", args=[fresh.pk, seat]), slug=slug)
    for match in matches:
        reader.read(reverse("match_log", args=[match.pk]), slug=match.slug)
        if match.slug == "card-crush":
            reader.read(reverse("battle_rating", args=[match.pk]), slug=match.slug)
        head = match.head
        for step in sorted({0, 1, head // 2, head}):
            reader.read(reverse("match_replay", args=[match.pk]) + f"?step={step}", slug=match.slug)
        # The live board with its forms at every step of the game (in English too now and then), its numbers watched.
        for step in range(head + 1):
            services.match_goto(match_id=match.pk, step=step, expected_seq=Match.objects.get(pk=match.pk).head)
            with numbers.watching(match, step):
                board = reader.read(match.get_absolute_url(), compare=step % 5 == 0, slug=match.slug)
            assert "Schritt" in board, (match.slug, step)
        services.match_goto(match_id=match.pk, step=head, expected_seq=Match.objects.get(pk=match.pk).head)
    english_left = "\n".join(f"{url}: {sorted(left)}" for url, left in reader.found.items())
    assert not reader.found, "English on German pages:\n" + english_left
    assert min(numbers.drawn_off[slug] for slug in rules.GAMES) > 100, numbers.drawn_off  # every game's board watched
    unlike = "\n".join(f"{page}: {sorted(values)}" for page, values in numbers.unlike.items())
    assert not numbers.unlike, "Numbers a board draws that localised would read otherwise (as drawn, localised):\n" + unlike


# --- (c) numbers and dates -----------------------------------------------------------------------


def _in(language: str) -> Client:
    client = Client()
    client.post(reverse("set_language"), {"language": language})
    return client


@pytest.fixture
def logos_duel(db) -> Match:
    """A LOGOS duel, Ana against Ben, with its demo catalog; started on 23 November 2026 at 14:05."""
    pages = pages_for("logos")
    Card.objects.bulk_create(Card(slug="logos", name=card["name"], stats=pages.card_stats(card))
                             for card in pages.demo_cards)
    duel = services.match_create(slug="logos", player_names=["Ana", "Ben"], config={})
    Match.objects.filter(pk=duel.pk).update(created=datetime(2026, 11, 23, 14, 5, tzinfo=UTC))
    return duel


def _act(duel: Match, action: dict) -> None:
    duel.refresh_from_db()
    services.match_apply_action(match_id=duel.pk, action=action, expected_seq=duel.head)


def test_large_numbers_and_decimals_are_written_the_german_way(logos_duel):
    """LOGOS HP run to six digits: 100,000 in English is 100.000 in German (100.000 would be a
    hundred in English), and a decimal has a comma: Cardmaster's ATK × 0.66 is ATK × 0,66."""
    url = logos_duel.get_absolute_url()
    assert "100,000" in _in("en").get(url).content.decode()
    german = _in("de").get(url).content.decode()
    assert "100.000" in german and "100,000" not in german
    with translation.override("de"):
        assert narration_multiplier("1/2") == "0,5"
        assert charts.axis_label(1500) == "1,5k"
    with translation.override("en"):
        assert narration_multiplier("1/2") == "0.5"


def test_an_engine_refusal_groups_its_limits_the_german_way():
    """The engine writes a limit the English way ("100,000"); a German player reads 100.000."""
    with pytest.raises(rules.RuleError) as refused:
        rules.GAMES["logos"].new_match({"starting_hp": 0}, "seed")
    assert "from 1 to 10,000,000" in str(refused.value)
    with translation.override("de"):
        assert "von 1 bis 10.000.000 sein" in services.explain(refused.value)


def test_a_score_in_words_and_a_date_read_in_german(logos_duel):
    """A resigned duel's score ("by resignation", recorded by the engine) and when the duel
    started, in the match list: English and German each in their own words and order."""
    card = next(card for card in (c.as_rules_card() for c in Card.objects.filter(slug="logos").order_by("pk"))
                if set(card["combo"]) == {"grey"})  # playable on an empty combo counter
    _act(logos_duel, {"type": "commit", "seat": 0, "round": 1, "card": card, "backup": None})
    _act(logos_duel, {"type": "defenceless", "seat": 1, "round": 1})
    _act(logos_duel, {"type": "resign", "seat": 1})
    logos_duel.refresh_from_db()
    assert logos_duel.score == "by resignation"
    english = page_text(_in("en").get(reverse("match_list")).content.decode())
    german = page_text(_in("de").get(reverse("match_list")).content.decode())
    assert "Ana won by resignation" in " ".join(english)
    assert "23 Nov 2026, 14:05" in english
    assert "Ana hat durch Aufgabe gewonnen" in " ".join(german), german
    assert "23.11.2026, 14:05" in german


def test_an_engine_card_refusal_on_a_form_reaches_the_player_in_german(db):
    """A catalog card the engine refuses: the form shows the refusal in the page's language."""

    class Strict(pages_for("card-crush").card_form):
        @staticmethod
        def validate_card(card):
            return rules.GAMES["card-crush"].validate_card({**card, "affinity": "Steam"})

    data = {"name": "Mist Cat", "power": 3, "speed": 4, "affinity": "Air", "rarity": "Common", "level": 1}
    with translation.override("de"):
        form = Strict(data)
        assert not form.is_valid()
        assert form.non_field_errors()[0].startswith("Unbekannter Wert 'Steam'"), form.errors


def test_the_server_error_page_speaks_the_players_language():
    """Django renders 500.html without a context, in the language the request was in."""
    with translation.override("de"):
        page = render_to_string("500.html")
    with translation.override("en"):
        english = render_to_string("500.html")
    assert '<html lang="de">' in page and "Etwas ist schiefgelaufen" in page
    assert set(page_text(page)) & set(page_text(english)) == set()


@pytest.mark.django_db
def test_a_showdown_against_the_ai_and_its_analysis_read_in_german(phrases):
    """The Cardmaster AI's pages in German: a Showdown's board with the AI's faction, before and after
    the player's first move, its log, and the analysis of a finished match (chart, costliest choices)."""
    from tests.tracker.test_cardmaster_showdown import act, first_attack, form_data, lock, new_showdown
    from tracker.games.cardmaster import demo as cm_demo

    call_command("demo", stdout=StringIO())
    reader = Reader(get_user_model().objects.get(username="ana"), phrases)
    showdown = lock(reader.german, new_showdown(reader.german))
    reader.read(showdown.get_absolute_url())
    act(reader.german, showdown, **form_data(first_attack(showdown)))  # the player's move, then the AI's turn
    reader.read(showdown.get_absolute_url())
    reader.read(reverse("cardmaster_steps", args=[showdown.pk]) + "?step=1")  # the turn a step at a time
    reader.read(reverse("match_log", args=[showdown.pk]))
    finished = cm_demo.knock_out(("Cy", "Di"))
    analysis = reverse("cardmaster_analysis", args=[finished.pk])
    reader.read(analysis)
    reader.german.post(analysis)
    assert "Schritten analysiert" in reader.read(analysis)  # the progress, part way
    for _part in range(100):
        if "Teuerste Entscheidungen" in reader.read(analysis):
            break
        reader.german.post(analysis)
    assert "Teuerste Entscheidungen" in reader.read(analysis)
    assert not reader.found, reader.found


# --- (d) a game's own words ----------------------------------------------------------------------


def test_a_rounds_working_names_the_affinities_in_card_crushs_german():
    """"Fire over Light +1" is "Feuer über Licht +1": Card Crush's affinity, not the theme's "Light" (Hell)."""
    from tracker.games.card_crush.narration import round_working

    played = {"winner": 0, "cards": [{"affinity": "Fire", "power": 3}, {"affinity": "Light", "power": 3}],
              "bonus": [1, 0], "scores": [4, 3], "decided_by": "score", "resolution": "battle-score"}
    with translation.override("de"):
        assert translation.gettext("Light") == "Hell"  # the theme, in the shared catalogue
        assert round_working(played, ["Ana", "Ben"]).startswith("Feuer über Licht +1:")


def test_a_logos_refusal_names_the_colour_in_german():
    from rules.logos.combo import check_playable

    with pytest.raises(rules.RuleError) as refused:
        check_playable({"name": "Iron Golem", "combo": ["red", "grey", "grey"]}, [], 0)
    assert "needs red" in str(refused.value)
    with translation.override("de"):
        assert "Kombofeld 1 verlangt rot," in services.explain(refused.value)


def test_a_logos_card_without_a_combo_requirement_needs_none_in_german():
    """"keine" (die Kombo), where an empty effect field is "keiner" (der Effekt)."""
    from tracker.games.logos.forms import card_facts

    card = {"name": "Plain", "class": "MATTER", "attack": 1, "defense": 1, "speed": 1, "combo": ["grey"] * 3,
            "left_effect": None, "right_effect": None}
    with translation.override("de"):
        facts = {str(fact.label): str(fact.value) for fact in card_facts(card)}
    assert facts["Kombo (Felder 1, 2, 3)"] == "keine nötig"
    assert facts["Linker Effekt (auf den Gegner)"] == "keiner"


def _bad_cards(card: dict):
    """The card with each of its stats in turn made wrong: a word no game knows, a negative number."""
    for stat in card:
        if stat != "name":
            for bad in ("zz", -1, ["zz", "zz", "zz"]):
                yield {**card, stat: bad}
    for side in ("left_effect", "right_effect"):  # LOGOS's effect fields, which a card may leave out
        yield {**card, side: {"name": "zz"}}
        yield {**card, side: {"name": "color-change", "from": "zz", "to": "red"}}


@pytest.mark.parametrize("slug", list(rules.GAMES))
def test_a_card_refusal_names_the_games_words_in_german(slug):
    """Every refusal of a demo card with one stat wrong, explained in German: none of the game's own words
    (a stat's name, the colours or affinities it may choose from) stays English."""
    words = english_words(slug)
    game, left, explained = rules.GAMES[slug], [], 0
    for card in pages_for(slug).demo_cards:
        for bad in _bad_cards(card):
            try:
                game.validate_card(bad)
            except rules.RuleError as refused:
                with translation.override("de"):
                    said = services.explain(refused)
                explained += 1
                if words and words.search(said.replace(card["name"], "")):
                    left.append(said)
    assert explained
    assert sorted(set(left)) == []


@pytest.mark.django_db
def test_lonely_stars_play_unit_form_labels_each_stat_in_german():
    """The stats of a unit typed in on the board: "Reichweite", as the log says, not "Reach"."""
    from tracker.games.lonely_star.forms import PlayUnitForm

    match = _in_progress("lonely-star")
    with translation.override("de"):
        labels = [str(field.label) for field in PlayUnitForm(match=match).fields.values()]
        page = "\n".join(page_text(_in("de").get(match.get_absolute_url()).content.decode()))
    # "Reich\u00adweite": a soft hyphen where a phone's narrow stat column may break the word.
    assert "Reich\u00adweite" in labels and "Reach" not in labels
    assert "Reich\u00adweite" in page and not english_words("lonely-star").search(page)


# --- (e) every line of the log -------------------------------------------------------------------


def _strings(value) -> list[str]:
    """The texts an event or action carries, however deep."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for item in value.values() for text in _strings(item)]
    if isinstance(value, list):
        return [text for item in value for text in _strings(item)]
    return []


def _walked(slug: str, walks: int = 12, steps: int = 300) -> list[tuple[dict, list[dict], list[dict]]]:
    """Every (action, events, rolls) of seeded random walks through legal actions, the cards from the game's demo."""
    import random

    game = rules.GAMES[slug]
    cards = [game.validate_card(card) for card in pages_for(slug).demo_cards]
    played = []
    for walk in range(walks):
        seed, chance = f"sweep-{walk}", random.Random(walk)
        state = game.new_match(game.default_config, seed)
        for _ in range(steps):
            legal = game.legal_actions(state)
            if not legal:
                break
            action = dict(chance.choice(legal))
            if "card" not in action and cards:
                action["card"] = chance.choice(cards)
            if "cards" not in action and cards and game.deck_size is not None:
                action["cards"] = chance.sample(cards, len(cards))[:game.deck_size(state)]
            if action.get("type") == "commit" and "backup" not in action:
                action["backup"] = chance.choice([None, *cards])
            dice = rules.Dice(seed, len(played) + 1)
            try:
                state, events = game.apply(state, action, dice)
            except rules.RuleError:
                continue
            played.append((action, events, dice.rolls))
    return played


@pytest.mark.django_db
@pytest.mark.parametrize("slug", list(rules.GAMES))
def test_every_line_of_the_log_says_the_games_words_in_german(slug):
    """Every event and action of the game's demo matches and of seeded random walks, as the log and the board say
    it in German: no word of the game's own stands in it in English, neither one its engine marks (engine_words)
    nor a value the event carries that the game's catalogue says in German (Lonely Star's "damage" counters were
    "damage-Marker" where the stats beside them were translated). Each die's and coin's reason too: the engine
    records it in its own English ("crit: Ember Drifter (3)", "card-crush round 2"), which the log showed as it was."""
    from tracker.demo import load_catalogs
    from tracker.review.log import roll_text

    load_catalogs()
    pages, names = pages_for(slug), ["Ana", "Ben"]
    played = _walked(slug)
    for make in pages.demo_matches.values():
        match = make(("Ana", "Ben"))
        played += [(action.payload, action.events, action.rolls) for action in match.actions.order_by("number")]
    data = {card["name"] for card in pages.demo_cards} | set(Card.objects.filter(slug=slug).values_list("name", flat=True))
    found, kinds = set(), set()
    with translation.override("de"):
        marked = {word for word in engine_words(slug) if translation.pgettext(slug, word) != word}
        for action, events, rolls in played:
            lines = [(event["type"], pages.describe(event, names), _strings(event)) for event in events]
            for roll in rolls:
                kinds.add("roll")
                if roll["why"] in roll_text(roll, pages):
                    found.add(f"roll: {roll['why']!r} in {roll_text(roll, pages)!r}")
            lines.append((f"action {action.get('type')}", pages.describe_action(action, events, names), _strings(action)))
            for kind, line, carried in lines:
                kinds.add(kind)
                told = {text for text in carried if text not in data and text not in names
                        and any(translation.pgettext(slug, said) != said for said in {text, text.capitalize()})}
                for word in marked | told:
                    if re.search(rf"(?<![\w]){re.escape(word)}(?![\w])", line):
                        found.add(f"{kind}: {word!r} in {line!r}")
    assert len(kinds) >= 6, kinds  # the sweep reached the game's kinds of line, not a few
    assert not found, "English words in German log lines:\n" + "\n".join(sorted(found))


def test_a_refusal_names_lonely_stars_damage_counters_and_an_evons_covered_card_in_german():
    """The engine's own names in a refusal: "Schadensmarker", not "damage-Marker"; "verdeckte Karte"."""
    from rules.evons.pieces import label
    from tracker.matches.engine_messages import spoken

    game = rules.GAMES["lonely-star"]
    state = game.new_match(game.default_config, "sweep")
    state, _events = game.apply(state, {"type": "play_unit", "seat": 0, "card": pages_for("lonely-star").demo_cards[0]},
                                rules.Dice("sweep", 1))
    with pytest.raises(rules.RuleError) as refused:
        game.apply(state, {"type": "adjust", "override": True, "what": "counters", "unit": 1, "counter": "damage",
                           "change": -1}, rules.Dice("sweep", 2))
    with translation.override("de"):
        said = services.explain(refused.value)
        assert "Schadensmarker" in said and "damage" not in said
        assert spoken("evons", label({"card": None})) == "verdeckte Karte"  # a refusal's piece, as services.explain
