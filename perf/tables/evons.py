"""An Evons game: cards played on the 7x7 board, their abilities and conflicts, until both pass.

Each turn the player reveals any covered card (naming it from the catalog), then plays a
catalog card into an empty main-zone cell, face-up or now and then covered. When a card
activates, some of its abilities are used on the first target the page offers (a
Resurrection names a catalog card, a Firestorm deals 1 damage), every
conflict is fought, and the phase is ended. After a few cards each, both players pass in
a row and the board is scored.
"""

import re

from .common import applied, need, pick, play_out, send, start_match
from .forms import board_catalog
from .phone import Phone

MAIN_ZONE = re.compile(r"[A-E][1-5]")
COVERED_RATE = 0.25
ABILITY_RATE = 0.4


def play(phone: Phone, table: int, number: int) -> None:
    match = start_match(phone, "evons", table, number)
    if match is None:
        return
    to_play = phone.rng.randint(4, 8)  # cards played from hand in the whole game, then both pass
    tried: set[tuple[str, str]] = set()  # (seq, arrow) abilities already tried, so a refusal is not retried

    def turn(page: str, forms) -> bool:
        nonlocal to_play
        if not forms:
            return False  # the game is over
        form, data, kind = _choice(phone, forms, board_catalog("evons"), to_play, tried)
        if applied(send(phone, match, form, data, kind, int(form.value("seat")))) and kind == "play":
            to_play -= 1
        return True

    play_out(phone, match, turn)


def _choice(phone: Phone, forms, names: list[str], to_play: int, tried: set):
    """What the page asks for now: a reveal, a conflict, an ability or the phase's end, a play or a pass."""
    reveal = pick(forms, "reveal")
    if reveal:
        return reveal, reveal.data(card_name=phone.rng.choice(names)), "reveal"
    conflict = pick(forms, "conflict")
    if conflict:
        return conflict, conflict.data(), "conflict"
    abilities = [form for form in forms if form.value("action") == "ability" and "choice" in form.choices
                 and (form.value("seq"), form.value("arrow")) not in tried]
    if abilities and phone.rng.random() < ABILITY_RATE:
        ability = abilities[0]
        tried.add((ability.value("seq"), ability.value("arrow")))
        typed = {"card_name": phone.rng.choice(names)} if ability.has("card_name") else {}
        storm = [name for name, _value in ability.fields if name.startswith("damage_")]
        if storm:
            typed[storm[0]] = "1"  # Firestorm: 1 damage on the first card it can hit (at most its DEF)
        return ability, ability.data(**typed), "ability"
    done = pick(forms, "next")
    if done:
        return done, done.data(), "next"
    play_form = pick(forms, "play")
    if to_play > 0 and play_form:
        cells = [cell for cell in play_form.choices["cell"] if MAIN_ZONE.fullmatch(cell)]
        if phone.rng.random() < COVERED_RATE:
            return play_form, play_form.data(cell=phone.rng.choice(cells), face="covered"), "play"
        return play_form, play_form.data(cell=phone.rng.choice(cells), face="up",
                                         card_name=phone.rng.choice(names)), "play"
    passing = need(forms, "pass")
    return passing, passing.data(), "pass"
