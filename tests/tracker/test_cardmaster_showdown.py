"""Cardmaster Showdown pages: a match against the AI set up from the new-match page, the AI's
possessions played after the player's move with their reasons, hints, the AI's button after an
undo, and the analysis of a finished match.

Ana (seat 0) plays the first nine demo cards; the AI sits in seat 1 ("Bot").
"""

import re
from html import unescape

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from rules.cardmaster.ai import analyse
from tracker.demo import load_catalogs
from tracker.games.cardmaster import demo as cm_demo
from tracker.games.cardmaster import views as cm_views
from tracker.matches import services
from tracker.models import Action, Card, Match

from .helpers import entry_token, snapshot
from .helpers import text as raw_text

pytestmark = pytest.mark.django_db



def text(response) -> str:
    return unescape(raw_text(response))


NINE = [card["name"] for card in cm_demo.CARDS[:9]]


@pytest.fixture
def cm_catalog(db):
    load_catalogs()
    cache.clear()  # analyses are kept in the cache
    return {card.name: card for card in Card.objects.filter(slug="cardmaster")}


def new_showdown(client, level="easy", faction="generate", power="6", **extra) -> Match:
    response = client.post(reverse("match_new", args=["cardmaster"]), {
        "player_0": "Ana", "player_1": "Bot", "config-size": "3", "config-who_rolls": "app",
        "config-type_names": "Ember, Tide, Gale, Stone, Volt, Frost, Bloom, Venom, Radiance, Umbra",
        "config-overcook_turns": "3", "config-undershock_turns": "3", "config-opponent": level,
        "config-ai_faction": faction, "config-ai_power": power, **extra})
    assert response.status_code == 302, text(response)
    return Match.objects.latest("pk")


def lock(client, match, seat=0, names=NINE):
    match.refresh_from_db()
    data = {"seq": match.head, "entry_token": entry_token(match, seat)}
    data.update({f"card_{n}": name for n, name in enumerate(names, start=1)})
    response = client.post(reverse("match_entry", args=[match.pk, seat]), data)
    assert response.status_code == 302, text(response)
    match.refresh_from_db()
    return match


def form_data(action: dict) -> dict:
    """A legal action as the board's move form posts it."""
    data = {"action": action["type"], "card": action["card"]}
    if action["type"] == "revive":
        data["ally"] = action["target"]
    elif "target" in action:
        data["target"] = action["target"]
    for key in ("reserve", "stat"):
        if key in action:
            data[key] = action[key]
    return data


def act(client, match, **data):
    match.refresh_from_db()
    return client.post(reverse("match_act", args=[match.pk]), {"seq": match.head, **data})


def first_attack(match) -> dict:
    legal = match.game.legal_actions(match.state)
    return next(a for a in legal if a["type"] == "a1")


@pytest.fixture
def showdown(client, cm_catalog) -> Match:
    return lock(client, new_showdown(client))


def test_it_starts_a_showdown_with_the_ais_faction_locked_and_shown(client, cm_catalog):
    page = text(client.get(reverse("match_new", args=["cardmaster"])))
    assert "Showdown against the AI, hard" in page and "the AI's faction" in page
    match = new_showdown(client, level="hard", power="7")
    config = match.state["config"]
    assert config["showdown"] == {"ai_seat": 1, "level": "hard"} and config["size"] == 9  # 9 a side, whatever was ticked
    assert match.state["lineups"] == [False, True]
    ai_cards = [card for card in match.state["cards"].values() if card["seat"] == 1]
    assert len(ai_cards) == 9
    page = text(client.get(match.get_absolute_url()))
    assert "Bot is the AI (hard)" in page and "power 7" in page
    assert all(card["name"] in page for card in ai_cards)


def test_the_lineup_screen_of_a_showdown_passes_the_phone_to_nobody(client, cm_catalog):
    match = new_showdown(client)
    page = text(client.get(match.get_absolute_url()))
    assert "Pass the phone" not in page and "Lock in Ana's lineup here" in page
    assert reverse("match_entry", args=[match.pk, 0]) in page  # straight to the entry, no pass screen


def test_the_ai_can_field_catalog_cards_or_wait_for_a_faction_entered_by_hand(client, cm_catalog):
    from_catalog = new_showdown(client, faction="catalog", power="7")
    names = {card["name"] for card in from_catalog.state["cards"].values()}
    assert len(names) == 9 and names <= set(cm_catalog)
    by_hand = new_showdown(client, faction="hand")
    assert by_hand.state["lineups"] == [False, False]
    assert "entered by hand" in text(client.get(by_hand.get_absolute_url()))
    by_hand = lock(client, lock(client, by_hand, seat=1, names=[card["name"] for card in cm_demo.CARDS[9:18]]))
    assert by_hand.state["possession"] == 0  # the AI moved straight away if it had possession first


def test_a_custom_match_keeps_its_options_without_showdown_or_hints(client, cm_catalog):
    match = new_showdown(client, level="custom")
    assert "showdown" not in match.state["config"] and "hints" not in match.state["config"]
    assert match.state["config"]["size"] == 3


def test_the_ai_plays_its_possession_after_the_players_move_with_a_reason_for_each(client, showdown):
    assert showdown.state["possession"] == 0
    while not showdown.actions.filter(payload__has_key="ai").exists():
        act(client, showdown, **form_data(first_attack(showdown)))
        showdown.refresh_from_db()
    assert showdown.state["possession"] == 0 and showdown.finished is None  # the AI's possession is over
    ai_moves = [action for action in showdown.actions.order_by("seq") if "ai" in action.payload]
    assert ai_moves and all(action.payload["ai"]["level"] == "easy" for action in ai_moves)
    page = text(client.get(showdown.get_absolute_url()))
    assert 'class="cm-reason"' in page and "win chance" in page
    assert ai_moves[-1].payload["ai"]["reason"]["params"]["card"] in page
    assert "Pass the phone" not in page  # one player: no handover banner
    log = text(client.get(reverse("match_log", args=[showdown.pk])))
    assert log.count("— AI:") == len(ai_moves)


def test_the_ais_turn_can_be_gone_through_a_step_at_a_time_or_shown_all_at_once(client, showdown):
    while not showdown.actions.filter(payload__has_key="ai").exists():
        act(client, showdown, **form_data(first_attack(showdown)))
        showdown.refresh_from_db()
    recent = list(showdown.actions.filter(abandoned=False).order_by("-seq"))
    turn = [recent[0]]
    for action in recent[1:]:
        turn.append(action)
        if "ai" not in action.payload:
            break
    turn.reverse()  # the player's move, then each of the AI's
    assert len(turn) >= 2 and "ai" not in turn[0].payload
    url = reverse("cardmaster_steps", args=[showdown.pk])
    board = text(client.get(showdown.get_absolute_url()))
    assert "Step through the AI's turn" in board
    for number, action in enumerate(turn, start=1):
        page = text(client.get(url, {"step": number}))
        assert f"Step {number} of {len(turn)}" in page
        shown = page.split(f"Step {number} of {len(turn)}")[1]
        if "ai" in action.payload:
            reason = action.payload["ai"]["reason"]
            assert reason["template"] % reason["params"] in shown  # the move's reason, in English
        others = [other for other in turn if other.seq != action.seq and "ai" in other.payload]
        for other in others:
            if other.payload["ai"]["reason"] != action.payload.get("ai", {}).get("reason"):
                assert other.payload["ai"]["reason"]["template"] % other.payload["ai"]["reason"]["params"] not in shown
        assert ("Previous" in shown) == (number > 1) and ("Next" in shown) == (number < len(turn))
        assert "Show all" in shown
        # The last step leads back to the player's own moves (a play-test found them 2,000 px below).
        assert ("Your move" in shown) == (number == len(turn))
        if number == len(turn):
            human = 1 - showdown.state["config"]["showdown"]["ai_seat"]
            assert f'href="{showdown.get_absolute_url()}#team-{human}"' in shown
    htmx = client.get(url, {"step": 2}, headers={"HX-Request": "true"}).content.decode()
    assert htmx.startswith('<div id="cm-ai-steps">') and 'hx-get="/matches/' in htmx
    everything = text(client.get(url))
    assert everything.count('class="cm-reason"') == len(turn) - 1  # all at once: every AI move with its reason
    assert text(client.get(url, {"step": 99})).count(f"Step {len(turn)} of {len(turn)}") == 1
    junk = text(client.get(url, {"step": "junk"}))
    assert 'class="cm-steps"' in junk and "Step 1 of" not in junk  # not a step: all at once
    log = text(client.get(reverse("match_log", args=[showdown.pk])))
    for action in turn[1:]:
        reason = action.payload["ai"]["reason"]
        assert reason["template"] % reason["params"] in log  # the log keeps each reason


def test_stepping_keeps_previous_and_next_above_the_step_and_says_whose_win_chance(client, showdown):
    """Previous and Next come before the step's text, so a long step does not push them down the page (a
    play-test had Next at 625, 549, then 763 px below the fold); the chance beside a reason is the AI's."""
    while not showdown.actions.filter(payload__has_key="ai").exists():
        act(client, showdown, **form_data(first_attack(showdown)))
        showdown.refresh_from_db()
    url = reverse("cardmaster_steps", args=[showdown.pk])
    total = int(re.search(r"Step 1 of (\d+)", text(client.get(url, {"step": 1}))).group(1))
    for number in range(1, total + 1):
        html = client.get(url, {"step": number}, headers={"HX-Request": "true"}).content.decode()
        assert html.index('class="cm-step-nav"') < html.index('class="cm-step"')  # the buttons, then the step
        if 'class="cm-reason"' in html:
            assert "the AI&#x27;s win chance:" in html or "the AI's win chance:" in html
    everything = text(client.get(url))
    assert everything.count("the AI's win chance:") == everything.count('class="cm-reason"') > 0


def test_a_custom_match_has_no_ai_steps(client, cm_catalog):
    match = new_showdown(client, level="custom")
    assert client.get(reverse("cardmaster_steps", args=[match.pk])).status_code == 404


def test_the_player_cannot_move_the_ais_cards(client, showdown):
    ai_card = next(card for card in showdown.state["cards"].values() if card["seat"] == 1)
    before, count = snapshot(showdown), Action.objects.count()
    response = act(client, showdown, action="stack", card=ai_card["id"])
    assert response.status_code == 422
    assert "the AI makes its own moves" in text(response)
    assert snapshot(showdown) == before and Action.objects.count() == count


def undone_before_the_ais_first_move(client, showdown) -> Action:
    """Play until the AI has moved, then undo back to just before its first move; that move is returned."""
    while not any("ai" in action.payload for action in showdown.actions.all()):
        act(client, showdown, **form_data(first_attack(showdown)))
        showdown.refresh_from_db()
    first_ai = showdown.actions.filter(payload__has_key="ai").order_by("seq").first()
    services.match_goto(match_id=showdown.pk, step=first_ai.seq - 1, expected_seq=showdown.head)
    showdown.refresh_from_db()
    return first_ai


def test_the_ai_button_from_an_old_page_says_which_way_the_match_went(client, showdown):
    """A stale "let the AI play" is worded as every stale tap is (services.StaleSubmission): from a page behind, the
    match moved on; from a page ahead of an undo, it was taken back; each with the steps, and nothing applied."""
    undone_before_the_ais_first_move(client, showdown)
    head, version = showdown.head, showdown.version
    url = reverse("cardmaster_ai_turn", args=[showdown.pk])
    behind = client.post(url, {"seq": head - 1})
    assert behind.status_code == 409
    assert f"The match moved on since this page was loaded (step {head - 1}, now step {head})" in text(behind)
    ahead = client.post(url, {"seq": head + 1})
    assert ahead.status_code == 409
    assert f"The match was taken back since this page was loaded (step {head + 1}, now step {head})" in text(ahead)
    showdown.refresh_from_db()
    assert (showdown.head, showdown.version) == (head, version)


def test_after_an_undo_the_ai_moves_again_by_its_button_and_makes_the_same_move(client, showdown):
    first_ai = undone_before_the_ais_first_move(client, showdown)
    page = text(client.get(showdown.get_absolute_url()))
    assert "Let Bot (the AI) play its possession" in page
    stale = client.post(reverse("cardmaster_ai_turn", args=[showdown.pk]), {"seq": showdown.head - 1})
    assert stale.status_code == 409
    response = client.post(reverse("cardmaster_ai_turn", args=[showdown.pk]), {"seq": showdown.head})
    assert response.status_code == 302
    showdown.refresh_from_db()
    again = showdown.actions.filter(abandoned=False, seq=first_ai.seq).get()
    assert again.payload == first_ai.payload  # the same decision from the same seed, step and state
    assert showdown.state["possession"] == 0 or showdown.finished
    nothing = client.post(reverse("cardmaster_ai_turn", args=[showdown.pk]), {"seq": showdown.head})
    assert nothing.status_code == 409 and "no move to make" in text(nothing)


def test_a_hint_shows_the_move_its_reason_and_win_chance_and_is_marked_in_the_log(client, showdown):
    page = text(client.get(showdown.get_absolute_url()))
    assert "Hint: what would the AI play?" in page
    response = client.get(reverse("cardmaster_hint", args=[showdown.pk]))
    page = text(response)
    assert response.status_code == 200 and "the search's estimate after looking at" in page
    assert "Play the suggested move" in page
    hinted = services.match_replay(showdown)  # the hint changed nothing
    assert hinted == showdown.state and showdown.head == Match.objects.get(pk=showdown.pk).head
    from rules.cardmaster.ai import hint
    suggested = hint(showdown.state, showdown.seed, showdown.head + 1).action
    response = act(client, showdown, hinted=str(showdown.head), **form_data(suggested))
    assert response.status_code == 302
    made = showdown.actions.filter(abandoned=False).order_by("seq").exclude(payload__has_key="ai").last()
    assert made.payload["hinted"] is True and made.payload["card"] == suggested["card"]
    assert "(with a hint)" in text(client.get(reverse("match_log", args=[showdown.pk])))


def test_hints_are_refused_where_they_are_off_and_on_a_finished_match(client, cm_catalog):
    custom = lock(client, lock(client, new_showdown(client, level="custom"), 0, NINE[:3]), 1,
                  [card["name"] for card in cm_demo.CARDS[9:12]])
    response = client.get(reverse("cardmaster_hint", args=[custom.pk]))
    assert response.status_code == 403 and "Hints are off" in text(response)
    assert "Hint: what would the AI play?" not in text(client.get(custom.get_absolute_url()))
    with_hints = lock(client, lock(client, new_showdown(client, level="custom", **{"config-hints": "on"}), 0, NINE[:3]),
                      1, [card["name"] for card in cm_demo.CARDS[9:12]])
    assert with_hints.state["config"]["hints"] is True
    assert client.get(reverse("cardmaster_hint", args=[with_hints.pk])).status_code == 200
    finished = cm_demo.knock_out(("Cy", "Di"))
    finished.state = {**finished.state, "config": {**finished.state["config"], "hints": True}}
    finished.save(update_fields=["state"])
    response = client.get(reverse("cardmaster_hint", args=[finished.pk]))
    assert response.status_code == 409 and "The match is over" in text(response)


def test_a_showdown_played_to_the_end_replays_from_its_log(client, showdown):
    while showdown.finished is None:
        legal = showdown.game.legal_actions(showdown.state)
        attacks = [a for a in legal if a["type"] in ("a3", "a2", "a1")]
        move = attacks[-1] if attacks else next(a for a in legal if a["type"] != "deposit")
        assert act(client, showdown, **form_data(move)).status_code == 302
        showdown.refresh_from_db()
        assert showdown.head < 600
    assert services.replay_problems(showdown) == []
    page = text(client.get(showdown.get_absolute_url()))
    assert "MVPs" in page and "Analyse this match" in page
    exported = client.get(reverse("match_export_json", args=[showdown.pk])).content
    response = client.post(reverse("match_import"),
                           {"file": SimpleUploadedFile("showdown.json", exported, content_type="application/json")})
    assert response.status_code == 302
    imported = Match.objects.latest("pk")
    assert imported.pk != showdown.pk and imported.state == showdown.state
    assert [a.payload for a in imported.actions.order_by("seq")] == [a.payload for a in showdown.actions.order_by("seq")]


def analyse_to_the_end(client, url) -> list[str]:
    """POST the analysis's parts as the page's button does, without JavaScript; each page seen."""
    seen = []
    while True:
        response = client.post(url)
        assert response.status_code == 302
        seen.append(text(client.get(url)))
        if "Continue analysis" not in seen[-1]:
            return seen
        assert len(seen) < 100


def test_the_analysis_of_a_finished_match_is_charted_kept_and_lists_the_costliest_choices(client, cm_catalog,
                                                                                           monkeypatch):
    finished = cm_demo.knock_out(("Cy", "Di"))
    url = reverse("cardmaster_analysis", args=[finished.pk])
    page = text(client.get(url))
    assert "Analyse the match" in page
    runs = []
    real = cm_views.analyse_part
    monkeypatch.setattr(cm_views, "analyse_part", lambda *args, **kwargs: runs.append(1) or real(*args, **kwargs))
    analyse_to_the_end(client, url)
    page = text(client.get(url))
    assert "Win chance after each step" in page and "<svg" in client.get(url).content.decode()
    assert page.count('<th scope="row">') == finished.head  # the table beside the chart: every step
    assert "Costliest choices" in page
    searched = len(runs)
    client.post(url)
    assert len(runs) == searched  # kept: opening or asking again does not search again
    replays = []
    monkeypatch.setattr(cm_views, "rounds", lambda *args: replays.append(1) or [])
    assert "Win chance after each step" in text(client.get(url))
    assert replays == [], "a kept analysis is shown without re-running the match (0.2 s at 3,000 steps)"


def test_the_analysis_goes_a_part_at_a_time_showing_its_progress_and_ends_as_the_one_shot_analysis(
        client, cm_catalog, monkeypatch):
    monkeypatch.setattr(cm_views, "ANALYSIS_PART_STEPS", 4)
    monkeypatch.setattr(cm_views, "ANALYSIS_PART_SECONDS", 600)  # parts by steps only, however busy the machine
    finished = cm_demo.knock_out(("Cy", "Di"))
    url = reverse("cardmaster_analysis", args=[finished.pk])
    pages = analyse_to_the_end(client, url)
    total = finished.head
    shown = [int(found) for page in pages[:-1] for found in re.findall(rf"Analysed (\d+) of {total} steps", page)]
    assert shown == list(range(4, total, 4))  # every part moved the bar on, and the count is the match's steps
    assert all('<progress class="cm-analysis-progress"' in page for page in pages[:-1])
    htmx = client.get(url, headers={"HX-Request": "true"})
    assert htmx.content.decode().startswith('<div id="cm-analysis">')  # the region alone, for htmx

    played = [(action.payload, services.entered_rolls(action))
              for action in finished.actions.filter(abandoned=False).order_by("seq")]
    one_shot = analyse(finished.state["config"], finished.seed, played, level=cm_views.ANALYSIS_LEVEL)
    page = text(client.get(url))
    rows = re.findall(r'<th scope="row">(\d+)</th><td>(\d+)%</td>', client.get(url).content.decode())
    assert [int(chance) for _step, chance in rows] == [round(chance * 100) for chance in one_shot.win_chances]
    # Each piece of advice once, at its costliest step; the other steps it was given at beside it.
    headed = [int(step) for step in re.findall(r"Step (\d+): ", page)]
    grouped = [int(step) for line in re.findall(r"The same advice at steps? ([\d, ]+)\.", page)
               for step in line.split(", ")]
    assert sorted(headed + grouped) == sorted(mistake.step for mistake in one_shot.mistakes)
    assert len(set(headed)) == len(headed)


def test_an_analysis_left_half_way_continues_where_it_stopped(client, cm_catalog, monkeypatch):
    monkeypatch.setattr(cm_views, "ANALYSIS_PART_STEPS", 5)
    monkeypatch.setattr(cm_views, "ANALYSIS_PART_SECONDS", 600)
    finished = cm_demo.knock_out(("Cy", "Di"))
    url = reverse("cardmaster_analysis", args=[finished.pk])
    client.post(url, headers={"HX-Request": "true"})
    starts = []
    real = cm_views.analyse_part
    monkeypatch.setattr(cm_views, "analyse_part", lambda *args, **kwargs: starts.append(args[3]) or real(*args, **kwargs))
    page = text(client.get(url))
    assert f"Analysed 5 of {finished.head} steps" in page and "Continue analysis" in page
    response = client.post(url, headers={"HX-Request": "true"})
    assert starts == [5] and f"Analysed 10 of {finished.head} steps" in text(response)


def test_the_analysis_charts_one_sides_win_chance_by_round_and_groups_the_same_advice(client, cm_catalog):
    finished = cm_demo.knock_out(("Cy", "Di"))
    url = reverse("cardmaster_analysis", args=[finished.pk])
    analyse_to_the_end(client, url)
    html = client.get(url).content.decode()
    first = finished.players()[0].name
    assert f"{first}&#x27;s win chance at the start of each round" in html or f"{first}'s win chance" in html
    ticks = re.findall(r'<text class="x-tick"[^>]*>([^<]+)</text>', html)
    assert ticks and ticks[0] == "1" and ticks[-1] in ("end", *map(str, range(2, 99)))
    assert len(ticks) <= 8
    advice = re.findall(r"<dt>Better</dt><dd>([^<]+)</dd>", html)
    players = re.findall(r"<strong>Step \d+: ([^<]+)</strong>", html)
    assert len(set(zip(players, advice, strict=True))) == len(advice), "each piece of advice once"


def test_a_hint_is_kept_per_position_and_asked_again_costs_no_search(client, showdown, monkeypatch):
    from tracker.games.cardmaster import showdown as cm_showdown
    searches = []
    real = cm_showdown.hint
    monkeypatch.setattr(cm_showdown, "hint", lambda *args: searches.append(1) or real(*args))
    def shown() -> str:
        page = client.get(reverse("cardmaster_hint", args=[showdown.pk])).content.decode()
        hint = re.search(r'<section class="cm-hint".*?</section>', page, re.S).group()
        return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", hint)  # a per-request token

    first, again = shown(), shown()
    assert searches == [1] and first == again and "Play the suggested move" in first


def test_an_unfinished_match_has_no_analysis(client, showdown):
    response = client.get(reverse("cardmaster_analysis", args=[showdown.pk]))
    assert response.status_code == 302
    assert "Only a finished match can be analysed" in text(client.get(response.url))


SEED_WITH_BOTH_ANSWERS = "two possessions in one answer"


@pytest.fixture
def seed_with_both_answers(monkeypatch):
    """New matches get a seed whose Showdown has answers of one possession and of two. With a fresh
    random seed, 3 matches in 40 never gave the AI two possessions in one answer, and the
    test failed for that match, not for the page. Patched at `get_default`: the field keeps its default
    function once a first match has been made, so patching `default` worked only when this test ran first."""
    monkeypatch.setattr(Match._meta.get_field("seed"), "get_default", lambda: SEED_WITH_BOTH_ANSWERS)


def test_the_box_tells_the_ais_answer_grouped_by_its_possessions(client, seed_with_both_answers, showdown):
    """Issue 28: one answer of the AI may hold two of its possessions; the box said the player's own move and
    nothing marked where the second possession began, so a card seemed to move twice."""
    assert showdown.seed == SEED_WITH_BOTH_ANSWERS
    seen_one, seen_two, seen_folded = False, False, False
    # The page a phone is sent to after locking in shows the messages kept for it (the reveal, and the AI's
    # reply when it had the first possession); unread, they would still be in the first tap's box.
    client.get(showdown.get_absolute_url())
    for _tap in range(200):
        showdown.refresh_from_db()
        if showdown.finished is not None or (seen_one and seen_two and seen_folded):
            break
        before = showdown.head
        response = client.post(reverse("match_act", args=[showdown.pk]),
                               {"seq": before, **form_data(first_attack(showdown))},
                               headers={"HX-Request": "true", "HX-Target": "match"})
        showdown.refresh_from_db()
        moves = list(showdown.actions.filter(abandoned=False, seq__gt=before + 1, seq__lte=showdown.head)
                     .order_by("seq"))
        if not moves:
            assert "replied with" not in text(response)
            continue
        page = text(response)
        opened = sum(1 for move in moves[:-1] for event in move.events
                     if event["type"] == "possession" and event["seat"] == 1)
        assert f"Bot replied with {len(moves)} move" in page
        # Every move is in the box, numbered in order: those open under the heading, and the rest leading the
        # fold, whose summary counts them apart (a player read "3 moves" above two, and looked for the third).
        html = response.content.decode()
        shown = html[html.index("outcome-reply"):].split("</ol>")[0].count("<li>")
        rest = re.search(r'<ol class="outcome-working" start="(\d+)">(.*?)</ol>', html, re.S)
        folded = rest.group(2).count("<li>") if rest else 0
        assert shown + folded == len(moves)
        if rest:
            assert int(rest.group(1)) == shown + 1
            assert f"({folded} more move{'s' * (folded > 1)}" in page
            seen_folded = True
        if opened:  # the AI kept possession after a possession of its own: two in one answer
            assert f"in {opened + 1} possessions:" in page and "Possession 2: " in page
            steps = text(client.get(reverse("cardmaster_steps", args=[showdown.pk])))
            assert steps.count('<span class="tag">Possession ') == opened + 1
            seen_two = True
        else:
            assert "Possession 1" not in page
            seen_one = True
    assert seen_one and seen_two and seen_folded


def test_advice_to_shift_names_the_card_it_brings_in(showdown):
    # "Quartz Lynx: Shift" played and "Quartz Lynx: Shift" better read alike: a player learns nothing.
    team = showdown.state["teams"][0]
    card, (first, second) = team["active"][0], team["reserve"][:2]
    cards = showdown.state["cards"]
    mistake = {"step": 5, "seat": 0, "played": {"type": "shift", "card": card, "reserve": first},
               "better": {"type": "shift", "card": card, "reserve": second}, "reason": {"template": "A reason.", "params": {}},
               "cost": 0.2, "win_chance": 0.6}
    view = cm_views._mistake_view(showdown, mistake, ["Ana", "AI"])
    assert view["played"] == f"{cards[card]['name']}: Shift, {cards[first]['name']} comes in"
    assert view["better"] == f"{cards[card]['name']}: Shift, {cards[second]['name']} comes in"
    # Two Shifts of one card to different reserves are two pieces of advice.
    other = {**mistake, "step": 7, "better": mistake["played"], "played": mistake["better"]}
    assert len(cm_views._grouped(showdown, [mistake, other], ["Ana", "AI"])) == 2


def test_the_ais_searches_in_answer_to_moves_count_against_the_phones_hour(client, showdown, monkeypatch):
    """A phone played a move the AI answers, then undid it, again and again: 0.6 s of CPU a move on a 9v9 hard
    Showdown, counted nowhere (only the AI's own button was). Each search now counts against the phone's AI moves
    an hour, the same position again costs none (the decision is kept), and past the hour the AI's turn waits for
    its button, which says when to try again."""
    from rules.cardmaster.ai import choose as real_choose
    from tracker.games.cardmaster import showdown as cm_showdown
    from tracker.web import limits

    searches = []
    monkeypatch.setattr(cm_showdown, "choose", lambda *args: searches.append(1) or real_choose(*args))
    monkeypatch.setitem(limits.COSTLY, "ai-turn", limits.Limit(limits.COSTLY["ai-turn"].what, 2))
    while not searches:
        start = showdown.head
        act(client, showdown, **form_data(first_attack(showdown)))
        showdown.refresh_from_db()
    answered = showdown.head
    services.match_goto(match_id=showdown.pk, step=start, expected_seq=answered)
    showdown.refresh_from_db()
    before = len(searches)
    act(client, showdown, **form_data(first_attack(showdown)))
    showdown.refresh_from_db()
    assert showdown.head == answered and len(searches) == before, "the same position: the decision kept"
    while showdown.finished is None and not cm_showdown.ai_to_move(showdown):
        act(client, showdown, **form_data(first_attack(showdown)))
        showdown.refresh_from_db()
    assert len(searches) == 2 and cm_showdown.ai_to_move(showdown) and showdown.finished is None
    assert "Let Bot (the AI) play its possession" in text(client.get(showdown.get_absolute_url()))
    refused = client.post(reverse("cardmaster_ai_turn", args=[showdown.pk]), {"seq": showdown.head})
    assert refused.status_code == 429 and "Try again in" in text(refused)
