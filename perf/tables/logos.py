"""A LOGOS duel: each round both players commit a card in secret on this phone, then the table fights.

The duel starts at 30,000 HP (an option of the "New duel" page) so it ends in a few rounds.
A commit the rules refuse (a combo the counter does not match, a backup card that may not
go to the backup slot) is tried again with another card; after a few refusals the player
taps "I have no playable card". Now and then a player calls the backup card before the
fight; a duel still going after many fights ends with a resignation.
"""

from .common import applied, enter, entry_seats, pick, play_out, send, start_match
from .forms import datalist
from .phone import Phone

STARTING_HP = 30_000
RESIGN_AFTER = 12  # fights; deadlocks and big DEFENSE can make a duel long
CALL_RATE = 0.3  # share of battles where a player with a backup card calls it


def play(phone: Phone, table: int, number: int) -> None:
    match = start_match(phone, "logos", table, number, starting_hp=STARTING_HP)
    if match is None:
        return
    fights = 0

    def turn(page: str, forms) -> bool:
        nonlocal fights
        seats = entry_seats(page, match)
        if seats:
            for seat in seats:
                enter(phone, match, seat, _commit)
            return True
        fight = pick(forms, "fight")
        if fight is None:
            return False  # the duel is over
        calls = [form for form in forms if form.value("action") == "call_backup"]
        if fights >= RESIGN_AFTER:
            resign = phone.rng.choice([form for form in forms if form.value("action") == "resign"])
            send(phone, match, resign, resign.data(), "resign", int(resign.value("seat")))
        elif calls and phone.rng.random() < CALL_RATE:
            call = phone.rng.choice(calls)
            send(phone, match, call, call.data(), "call_backup", int(call.value("seat")))
        else:
            fights += applied(send(phone, match, fight, fight.data(), "fight", None))
        return True

    play_out(phone, match, turn)


def _commit(phone: Phone, form, page: str, attempt: int) -> tuple[dict, str]:
    """A card from the catalog, sometimes with a second one for the backup slot; defenceless at last."""
    if attempt >= 4:
        return form.data(button=("defenceless", "1")), "defenceless"
    names = datalist(page, "catalog")
    backup = phone.rng.choice(names) if attempt == 0 and phone.rng.random() < 0.4 else ""
    return form.data(card=phone.rng.choice(names), backup=backup), "commit"
