"""A Lonely Star match played open on the board until a deck runs out.

Small decks (an option of the "New match" page) make the match end after a few turns:
whoever must draw from an empty deck loses. Each turn the player plays a unit from the
catalog, attacks once with each unit that can, sometimes rolls a plain D6, and ends the
turn; at the end step a unit with status counters sometimes rolls Resist, then both draw.
The app rolls every die (the roll fields stay blank).
"""

from .common import applied, need, pick, play_out, send, start_match
from .forms import board_catalog
from .phone import Phone

PLAY_RATE = 0.8
D6_RATE = 0.15
RESIST_RATE = 0.5


def play(phone: Phone, table: int, number: int) -> None:
    match = start_match(phone, "lonely-star", table, number, deck=4, hand=3)
    if match is None:
        return
    done: set[str] = set()  # what the player whose turn it is has done this turn

    def turn(page: str, forms) -> bool:
        nonlocal done
        if not forms:
            return False  # the match is over
        finish = pick(forms, "finish_turn")
        if finish:
            seat = int(finish.value("seat") or 0)
            resist = [form for form in forms if form.value("action") == "resist_roll"]
            if resist and phone.rng.random() < RESIST_RATE:
                send(phone, match, resist[0], resist[0].data(), "resist_roll", seat)
            else:
                send(phone, match, finish, finish.data(), "finish_turn", seat)
            return True
        seat = int(need(forms, "end_turn").value("seat") or 0)
        form, data, kind = _next_move(phone, page, forms, seat, done)
        if applied(send(phone, match, form, data, kind, seat)) and kind == "end_turn":
            done = set()
        return True

    play_out(phone, match, turn)


def _next_move(phone: Phone, page: str, forms, turn: int, done: set[str]):
    """The form to send next this turn, its data and the action type; each step is tried once a turn."""
    if "play" not in done:
        done.add("play")
        unit = pick(forms, "play_unit", seat=str(turn))
        if unit and phone.rng.random() < PLAY_RATE:
            return unit, unit.data(name=phone.rng.choice(board_catalog("lonely-star"))), "play_unit"
    for attack in (form for form in forms if form.value("action") == "attack"):
        if f"attack {attack.value('unit')}" not in done:
            done.add(f"attack {attack.value('unit')}")
            return attack, attack.data(target=phone.rng.choice(attack.choices["target"])), "attack"
    if "d6" not in done:
        done.add("d6")
        if phone.rng.random() < D6_RATE:
            d6 = need(forms, "d6")
            return d6, d6.data(), "d6"
    end = need(forms, "end_turn")
    return end, end.data(), "end_turn"
