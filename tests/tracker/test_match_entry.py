"""Hot-seat secret entry: the pass screen, the deck lock-in, and the secret never leaking.

A locked deck is seat 0's secret until both decks are locked: no page another player
can open may carry it, hidden inputs and attributes included.
"""

import contextlib
import re

import pytest
from django.core import signing
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import NoReverseMatch, reverse
from django.utils import translation

from tracker import demo
from tracker.matches import services
from tracker.matches.views import ENTRY_SALT
from tracker.models import Action, Match

from .helpers import (
    ANA_DECK,
    ANA_OTHER_DECK,
    BEN_DECK,
    JUNK,
    JUNK_IDS,
    assert_csrf_refused,
    csrf_token_from,
    entry_data,
    entry_token,
    entry_url,
    lock,
    lock_both,
    play_out,
    snapshot,
    text,
    token_from_page,
)

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------- the pass screen


def test_it_asks_to_pass_the_phone(client, match):
    response = client.get(reverse("match_pass", args=[match.pk, 1]))
    assert response.status_code == 200
    html = text(response)
    assert "Pass the phone to Ben" in html
    assert "Only Ben should look at the next screen." in html
    assert entry_url(match, 1) in html


def test_it_sends_a_locked_seat_back_to_the_match(client, match):
    lock(match, 0, ANA_DECK)
    response = client.get(reverse("match_pass", args=[match.pk, 0]))
    assert response.status_code == 302
    assert response.url == match.get_absolute_url()
    assert "Ana has nothing secret to enter now." in text(client.get(response.url))


def test_pass_404s_for_a_seat_out_of_range(client, match):
    assert client.get(reverse("match_pass", args=[match.pk, 2])).status_code == 404


def test_pass_404s_for_an_unknown_match(client, match):
    assert client.get(reverse("match_pass", args=[match.pk + 1000, 0])).status_code == 404


def test_pass_refuses_post(client, match):
    assert client.post(reverse("match_pass", args=[match.pk, 0])).status_code == 405


# ---------------------------------------------------------------- the entry page


def test_it_shows_the_entry_form(client, match):
    response = client.get(entry_url(match, 0))
    assert response.status_code == 200
    html = text(response)
    assert "Ana: lock in your deck" in html
    for position in range(1, 6):
        assert f'name="card_{position}"' in html
    assert signing.loads(token_from_page(html), salt=ENTRY_SALT) == {"match": match.pk, "seat": 0}
    assert 'name="seq" value="0-0"' in html
    assert '<datalist id="catalog">' in html and '<option value="Ember Fox">' in html


def test_the_entry_page_reads_the_catalog_once_and_lists_every_card_as_it_stands(client, match):
    from tracker.models import Card

    Card.objects.filter(name="Ember Fox").update(name="Ember Fox II")  # renamed since the match was made
    with CaptureQueriesContext(connection) as queries:
        html = text(client.get(entry_url(match, 0)))
    assert sum('FROM "tracker_card"' in query["sql"] for query in queries.captured_queries) == 1
    listed = re.findall(r'<option value="([^"]+)">', html[html.index('<datalist id="catalog">'):])
    assert listed == list(Card.objects.filter(slug=match.slug).values_list("name", flat=True))
    assert "Ember Fox II" in listed and "Ember Fox" not in listed


def test_the_new_card_fields_drawn_once_are_those_drawn_afresh(client, match):
    """The empty new-card fields are kept once drawn ({% memo %} by game and language): the kept drawing is the one
    drawn afresh, German is kept apart, and a card sent and refused comes back with what was typed."""
    from tracker.templatetags import memo

    memo._forget()
    fold = re.compile(r'<details class="new-card".*?</details>', re.S)
    first = fold.search(text(client.get(entry_url(match, 0)))).group(0)  # drawn, and kept
    kept = fold.search(text(client.get(entry_url(match, 0)))).group(0)
    memo._forget()
    afresh = fold.search(text(client.get(entry_url(match, 0)))).group(0)
    assert first == kept == afresh and 'name="new-name"' in kept
    with translation.override("de"):
        german = fold.search(text(client.get(entry_url(match, 0), HTTP_ACCEPT_LANGUAGE="de"))).group(0)
    assert german != kept  # kept by language
    refused = text(client.post(entry_url(match, 0), {"add_card": "1", "new-name": "Half Typed Card"}))
    assert 'value="Half Typed Card"' in fold.search(refused).group(0)  # as sent, never the kept empty fields


def test_it_keeps_the_entry_page_out_of_the_browser_cache(client, match):
    response = client.get(entry_url(match, 0))
    assert "no-store" in response.get("Cache-Control", "")


def test_it_sends_a_locked_seat_from_the_entry_page_back_to_the_match(client, match):
    lock(match, 0, ANA_DECK)
    response = client.get(entry_url(match, 0))
    assert response.status_code == 302
    assert response.url == match.get_absolute_url()


def test_entry_404s_for_a_seat_out_of_range(client, match):
    assert client.get(entry_url(match, 2)).status_code == 404
    response = client.post(entry_url(match, 2), entry_data(match, 2, ANA_DECK))
    assert response.status_code == 404
    assert match.actions.count() == 0


def test_entry_404s_for_an_unknown_match(client, match):
    assert client.get(reverse("match_entry", args=[match.pk + 1000, 0])).status_code == 404


def test_entry_refuses_other_methods(client, match):
    assert client.put(entry_url(match, 0)).status_code == 405


# ---------------------------------------------------------------- locking in


def test_it_locks_the_deck(client, match):
    page = text(client.get(entry_url(match, 0)))
    data = {"seq": 0, "entry_token": token_from_page(page)}
    data.update({f"card_{i}": name for i, name in enumerate(ANA_DECK, start=1)})
    response = client.post(entry_url(match, 0), data)
    assert response.status_code == 302
    # Hot-seat: the phone goes on to Ben's pass screen (issue 28: one tap fewer), which tells of Ana's lock.
    assert response.url == reverse("match_pass", args=[match.pk, 1])
    match.refresh_from_db()
    assert match.head == 1
    assert [card["name"] for card in match.state["decks"][0]] == ANA_DECK
    assert match.state["decks"][1] is None
    html = text(client.get(response.url))
    assert "Ana is locked in. The entry is hidden." in html and "Pass the phone to Ben" in html
    assert "Ana is locked in. The entry is hidden." not in text(client.get(match.get_absolute_url()))  # told once


def test_the_last_lock_in_goes_back_to_the_board(client, match):
    lock(match, 1, ANA_DECK)
    page = text(client.get(entry_url(match, 0)))
    data = {"seq": 1, "entry_token": token_from_page(page)}
    data.update({f"card_{i}": name for i, name in enumerate(ANA_DECK, start=1)})
    response = client.post(entry_url(match, 0), data)
    assert response.status_code == 302 and response.url == match.get_absolute_url()


def test_it_accepts_card_names_in_any_case(client, match):
    names = [name.upper() for name in ANA_DECK[:3]] + [f"  {ANA_DECK[3].lower()} ", ANA_DECK[4]]
    response = client.post(entry_url(match, 0), entry_data(match, 0, names))
    assert response.status_code == 302
    match.refresh_from_db()
    assert [card["name"] for card in match.state["decks"][0]] == ANA_DECK


def test_it_starts_the_battle_when_both_are_locked(client, match):
    client.post(entry_url(match, 1), entry_data(match, 1, BEN_DECK))
    client.post(entry_url(match, 0), entry_data(match, 0, ANA_DECK))
    match.refresh_from_db()
    assert match.head == 2
    assert [card["name"] for card in match.state["decks"][0]] == ANA_DECK
    assert [card["name"] for card in match.state["decks"][1]] == BEN_DECK
    assert "Reveal round 1" in text(client.get(match.get_absolute_url()))


# ---------------------------------------------------------------- refused lock-ins change nothing


def refused(client, match, seat, data, status):
    """Post a lock-in that must be refused with `status`; check nothing changed; the page's HTML."""
    before, count = snapshot(match), Action.objects.count()
    response = client.post(entry_url(match, seat), data)
    assert response.status_code == status
    assert snapshot(match) == before
    assert Action.objects.count() == count
    return text(response)


def test_it_refuses_an_unknown_card(client, match):
    html = refused(client, match, 0, entry_data(match, 0, ANA_DECK[:4] + ["Dragon Emperor"]), 422)
    assert "No card called “Dragon Emperor” in the catalog" in html
    notice = html.split("Not locked:", 1)[1].split("</p>", 1)[0]
    assert re.search(r'<a href="#[\w-]+">Round 5 card</a>', notice), "the notice names the slot"


def test_the_first_refused_card_says_the_deck_was_not_locked(client, match):
    """The page opens on the first refused card (autofocus), the notice that says nothing was locked above the
    screen: that card's error says it first, and the other refused cards' errors do not repeat it."""
    cards = [ANA_DECK[0], "Dragon Emperor", *ANA_DECK[2:4], "Glass Unicorn"]
    html = refused(client, match, 0, entry_data(match, 0, cards), 422)
    errors = dict(re.findall(r'<p class="error" id="id_card_(\d)_error">(.*?)</p>', html, re.S))
    assert set(errors) == {"2", "5"}
    assert re.match(r"⚠ <strong>Not locked:</strong>\s+No card called “Dragon Emperor”", errors["2"]), errors["2"]
    assert "Not locked" not in errors["5"]


@pytest.mark.parametrize("twice", ["Ember Fox", "EMBER fox"])
def test_it_refuses_the_same_card_twice(client, match, twice):
    html = refused(client, match, 0, entry_data(match, 0, ["Ember Fox", twice, *ANA_DECK[2:]]), 422)
    assert re.search(r"Ember Fox (is already in this deck|is in it twice)", html)


def test_a_card_named_twice_is_refused_with_the_engines_deck_size(client, match):
    html = refused(client, match, 0, entry_data(match, 0, ["Ember Fox", "Ember Fox", *ANA_DECK[2:]]), 422)
    assert "Ember Fox is already in this deck; a deck holds 5 different cards." in html


def test_it_refuses_fewer_than_five_cards(client, match):
    data = entry_data(match, 0, ANA_DECK[:4])
    html = refused(client, match, 0, data, 422)
    assert "This field is required." in html


def test_it_refuses_a_missing_entry_token(client, match):
    data = entry_data(match, 0, ANA_DECK)
    del data["entry_token"]
    html = refused(client, match, 0, data, 403)
    assert "This entry form was not issued for Ana; nothing was locked." in html


@pytest.mark.parametrize(
    "token",
    ["", "garbage", "eyJtYXRjaCI6MSwic2VhdCI6MH0:forged:signature", signing.dumps({"match": 1, "seat": 0})],
    ids=["empty", "garbage", "forged-signature", "signed-without-the-entry-salt"],
)
def test_it_refuses_a_garbled_entry_token(client, match, token):
    html = refused(client, match, 0, entry_data(match, 0, ANA_DECK, entry_token=token), 403)
    assert "was not issued for Ana" in html


def test_it_refuses_seat_zeros_token_on_seat_ones_form(client, match):
    """A forged POST for another player's lock-in."""
    data = entry_data(match, 1, BEN_DECK, entry_token=entry_token(match, 0))
    html = refused(client, match, 1, data, 403)
    assert "This entry form was not issued for Ben; nothing was locked." in html


def test_it_refuses_a_token_from_another_match(client, match):
    other = services.match_create(slug="card-crush", player_names=["Ana", "Ben"], config={})
    data = entry_data(match, 0, ANA_DECK, entry_token=entry_token(other, 0))
    refused(client, match, 0, data, 403)
    assert other.actions.count() == 0


def test_it_refuses_a_missing_step_number(client, match):
    data = entry_data(match, 0, ANA_DECK)
    del data["seq"]
    html = refused(client, match, 0, data, 400)
    assert "The form is missing its step number; nothing was applied." in html


def test_it_refuses_a_stale_step_number_but_keeps_the_entry(client, match):
    stale = entry_data(match, 1, BEN_DECK)  # Ben's page was loaded at step 0...
    lock(match, 0, ANA_DECK)  # ... then Ana locked in from another phone.
    html = refused(client, match, 1, stale, 409)
    assert html.count("The match moved on while you were entering") == 1, "said once"
    # Ben's typed deck comes back, made against the fresh step, ready to send again.
    assert 'name="seq" value="1-1"' in html
    for name in BEN_DECK:
        assert f'value="{name}"' in html
    assert client.post(entry_url(match, 1), {**stale, "seq": "1"}).status_code == 302


def test_it_applies_a_doubled_lock_in_once(client, match):
    data = entry_data(match, 0, ANA_DECK)
    assert client.post(entry_url(match, 0), data).status_code == 302
    html = refused(client, match, 0, data, 409)
    # Told it was not applied (whether as "already recorded" or "moved on": see the guess test below).
    assert "Not applied:" in html
    assert match.actions.count() == 1


def test_it_refuses_to_lock_a_seat_twice(client, match):
    lock(match, 0, ANA_DECK)
    html = refused(client, match, 0, entry_data(match, 0, ANA_OTHER_DECK), 422)
    assert "Ana has already locked in a deck." in html
    match.refresh_from_db()
    assert [card["name"] for card in match.state["decks"][0]] == ANA_DECK


def test_it_refuses_a_lock_in_once_the_battle_is_over(client, match):
    finished = play_out(lock_both(match))
    html = refused(client, finished, 0, entry_data(finished, 0, ANA_OTHER_DECK), 422)
    assert "The battle is over; no more actions can be taken." in html


def test_it_refuses_a_lock_in_once_the_battle_started(client, match):
    locked = lock_both(match)
    html = refused(client, locked, 0, entry_data(locked, 0, ANA_OTHER_DECK), 422)
    assert "the order cannot change once the battle starts" in html


# ---------------------------------------------------------------- the secret never leaks


def other_players_pages(client, match, seat1_waiting: bool = True) -> dict[str, str]:
    """Every page someone other than seat 0 can open while seat 0's deck is secret."""
    pk = match.pk
    urls = {
        "detail": reverse("match_detail", args=[pk]),
        "pass": reverse("match_pass", args=[pk, 1]),
        "entry": reverse("match_entry", args=[pk, 1]),
        "log": reverse("match_log", args=[pk]),
        "list": reverse("match_list"),
        "list-by-game": reverse("match_list") + "?game=card-crush",
        "home": reverse("home"),
    }
    # Review pages added since (replay, text export, statistics): swept too while they exist.
    for name, route, args, query in [
        ("replay-start", "match_replay", [pk], "?step=0"),
        ("replay-now", "match_replay", [pk], f"?step={match.head}"),
        ("export-text", "match_export_text", [pk], ""),
        ("stats", "stats", [], ""),
        ("stats-ben", "stats_player", [match.players()[1].pk], ""),
    ]:
        with contextlib.suppress(NoReverseMatch):
            urls[name] = reverse(route, args=args) + query
    pages = {}
    for name, url in urls.items():
        response = client.get(url)
        expected = 302 if name in ("pass", "entry") and not seat1_waiting else 200
        assert response.status_code == expected, name
        pages[name] = text(response)
    response = client.get(urls["detail"], HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    pages["detail-htmx"] = text(response)
    return pages


def normalized(html: str, match: Match) -> str:
    """The page without what legitimately differs between two matches: ids, tokens, seeds, times."""
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', 'name="csrfmiddlewaretoken" value="CSRF"', html)
    html = re.sub(r'"x-csrftoken": "[^"]*"', '"x-csrftoken": "CSRF"', html)
    html = re.sub(r'name="entry_token" value="[^"]*"', 'name="entry_token" value="TOKEN"', html)
    html = re.sub(r"<time [^>]*>[^<]*</time>", "<time>TIME</time>", html)
    html = html.replace(match.seed_fingerprint, "FINGERPRINT").replace(match.seed, "SEED")
    html = html.replace(f"/matches/{match.pk}/", "/matches/ID/")
    html = re.sub(rf"#{match.pk}(?![0-9A-Za-z])", "#ID", html)
    return html.replace(f'"match": "{match.pk}"', '"match": "ID"')  # a card list's match (its stats as it plays)


def without_catalog(html: str) -> str:
    """The page without the catalog <datalist> (every card of the game, for anyone's entry)."""
    return re.sub(r'<datalist id="catalog"[^>]*>.*?</datalist>', "", html, flags=re.S)


def pages_after_seat_zero_locks(client, seat0_deck, seat1_deck=None):
    """A match where Ana (seat 0) locked `seat0_deck` (and Ben `seat1_deck`, if given): its pages."""
    Match.objects.all().delete()
    match = services.match_create(slug="card-crush", player_names=["Ana", "Ben"], config={})
    lock(match, 0, seat0_deck)
    if seat1_deck:
        lock(match, 1, seat1_deck)
    return match, other_players_pages(client, match, seat1_waiting=not seat1_deck)


def test_it_renders_the_same_pages_whichever_deck_seat_zero_locked(client, catalog):
    match_x, pages_x = pages_after_seat_zero_locks(client, ANA_DECK)
    match_y, pages_y = pages_after_seat_zero_locks(client, ANA_OTHER_DECK)
    assert match_x.pk != match_y.pk
    assert pages_x.keys() == pages_y.keys()
    for name in pages_x:
        assert normalized(pages_x[name], match_x) == normalized(pages_y[name], match_y), name


def test_the_differential_check_does_see_a_revealed_deck(client, catalog):
    """Once both are locked the decks are public: the same comparison then finds them."""
    match_x, pages_x = pages_after_seat_zero_locks(client, ANA_DECK, BEN_DECK)
    match_y, pages_y = pages_after_seat_zero_locks(client, ANA_OTHER_DECK, BEN_DECK)
    assert normalized(pages_x["log"], match_x) != normalized(pages_y["log"], match_y)


@pytest.mark.parametrize("deck", [ANA_DECK, ANA_OTHER_DECK])
def test_no_page_names_a_card_of_the_secret_deck(client, catalog, deck):
    _match, pages = pages_after_seat_zero_locks(client, deck)
    for page, html in pages.items():
        visible = without_catalog(html) if page == "entry" else html
        for name in deck:
            assert name not in visible, (page, name)
            assert name.casefold() not in visible.casefold(), (page, name)


def test_no_hidden_input_carries_the_deck(client, catalog):
    match, pages = pages_after_seat_zero_locks(client, ANA_DECK)
    hidden = []
    for html in pages.values():
        for tag in re.findall(r"<input[^>]*>", html):
            if 'type="hidden"' in tag:
                hidden.append(dict(re.findall(r'(\w[\w-]*)="([^"]*)"', tag)))
    assert hidden, "expected the pages' forms to have hidden inputs"
    allowed = {"csrfmiddlewaretoken", "seq", "step", "entry_token", "next", "action"}
    for field in hidden:
        assert field["name"] in allowed, field
        for name in ANA_DECK:
            assert name.casefold() not in field.get("value", "").casefold(), field
        if field["name"] == "entry_token":
            assert signing.loads(field["value"], salt=ENTRY_SALT) == {"match": match.pk, "seat": 1}
    # No attribute anywhere carries card data either (data-*, hx-vals, ...).
    for page, html in pages.items():
        # The hx-vals are #match's step number, which htmx sends in place of each form's own, and a card list's
        # match (whose stats it shows).
        for vals in re.findall(r"hx-vals='([^']*)'", html):
            assert re.fullmatch(r'\{"(seq|match)": "\d+(-\d+)?"\}', vals), (page, vals)
        assert html.count("hx-vals") == len(re.findall(r"hx-vals='", html)), page
        assert not re.search(r'data-[\w-]+="[^"]*(Ember|Storm|Stone|Phoenix|Gale)', html), page


def test_the_match_file_is_not_handed_out_while_a_deck_is_secret(client, match):
    try:
        url = reverse("match_export_json", args=[match.pk])
    except NoReverseMatch:
        pytest.skip("no match export yet")
    lock(match, 0, ANA_DECK)
    response = client.get(url)
    body = response.content.decode()
    for name in ANA_DECK:
        assert name not in body


def test_refusals_answered_to_another_player_do_not_leak_the_deck(client, match):
    lock(match, 0, ANA_DECK)
    responses = [
        # Ben forges Ana's lock-in (his own token on her form) ...
        client.post(entry_url(match, 0), entry_data(match, 0, BEN_DECK, entry_token=entry_token(match, 1))),
        # ... or re-posts a stale form for her seat.
        client.post(entry_url(match, 0), entry_data(match, 0, BEN_DECK, seq=0)),
        # ... or tries to reveal round 1 before he locked in.
        client.post(reverse("match_act", args=[match.pk]), {"seq": 1, "action": "play_round"}),
    ]
    assert [r.status_code for r in responses] == [403, 409, 422]
    for response in responses:
        for name in ANA_DECK:
            assert name not in text(response)


def test_both_decks_are_shown_once_both_are_locked(client, match):
    locked = lock_both(match)
    log = text(client.get(reverse("match_log", args=[locked.pk])))
    assert "Ana locks in: " + ", ".join(ANA_DECK) in log
    assert "Ben locks in: " + ", ".join(BEN_DECK) in log
    # The board turns the cards over round by round; by the end every played pair is shown.
    finished = play_out(locked)
    detail = text(client.get(finished.get_absolute_url()))
    played = len(finished.state["rounds"])
    for name in ANA_DECK[:played] + BEN_DECK[:played]:
        assert name in detail


# ---------------------------------------------------------------- CSRF and junk


def test_it_refuses_a_lock_in_without_csrf_token(csrf_client, match):
    before = snapshot(match)
    assert_csrf_refused(csrf_client.post(entry_url(match, 0), entry_data(match, 0, ANA_DECK)))
    assert snapshot(match) == before


def test_it_accepts_a_lock_in_with_the_pages_csrf_token(csrf_client, match):
    token = csrf_token_from(csrf_client, entry_url(match, 0))
    response = csrf_client.post(entry_url(match, 0), entry_data(match, 0, ANA_DECK, csrfmiddlewaretoken=token))
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.head == 1


class TestJunk:
    """The junk tests share one battle (conftest.match_for_the_class), each in a savepoint of it."""

    @pytest.fixture
    def match(self, match_for_the_class) -> Match:
        return Match.objects.get(pk=match_for_the_class)

    @pytest.mark.parametrize("junk", JUNK, ids=JUNK_IDS)
    @pytest.mark.parametrize("shape", ["all-fields", "entry_token", "seq", "card_1", "all-cards"])
    def test_no_junk_makes_it_fail(self, client, match, junk, shape):
        data = entry_data(match, 0, ANA_DECK)
        if shape == "all-fields":
            data = {key: junk for key in data}
        elif shape == "all-cards":
            data.update({f"card_{n}": junk for n in range(1, 6)})
        else:
            data[shape] = junk
        before, count = snapshot(match), Action.objects.count()
        response = client.post(entry_url(match, 0), data)
        assert 400 <= response.status_code < 500
        assert snapshot(match) == before
        assert Action.objects.count() == count


def test_a_stale_lock_in_does_not_confirm_a_guess_at_the_secret_deck(client, match):
    # Ben opens Ana's entry page before she locks in (any phone can), and keeps its token.
    token = token_from_page(text(client.get(entry_url(match, 0))))
    lock(match, 0, ANA_DECK)
    wrong = client.post(entry_url(match, 0), entry_data(match, 0, ANA_OTHER_DECK, seq=0, entry_token=token))
    right = client.post(entry_url(match, 0), entry_data(match, 0, ANA_DECK, seq=0, entry_token=token))
    assert wrong.status_code == right.status_code == 409
    assert normalized(text(wrong), match) == normalized(text(right), match)


@pytest.mark.parametrize("slug", ["card-crush", "logos", "cardmaster"])
def test_an_entry_page_leaves_the_phone_nothing_of_what_was_typed(client, slug):
    """Hot-seat: what one player types is not offered to the next on the same phone. The browser keeps no copy of
    the page (no-store) and offers no typed name again (autocomplete off, the whole form: the card fields and the
    new card's), and the form is a plain post that table.js never keeps in the phone's storage when the connection
    drops (it keeps htmx posts alone). Round 29 looked for each on one phone at 360x740."""
    demo.load_catalogs()
    match = services.match_create(slug=slug, player_names=["Ana", "Ben"], config={})
    response = client.get(entry_url(match, 0))
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    html = text(response)
    form = re.search(r"<form[^>]*\bid=\"entry\"[^>]*>", html).group(0)
    assert 'autocomplete="off"' in form and "hx-" not in form
    assert 'autocomplete="on"' not in html and "hx-post" not in html and "hx-boost" not in html
