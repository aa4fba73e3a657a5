"""A Card Crush battle: both decks locked on this phone (hot-seat), then rounds until a winner."""

from .common import catalog_picks, enter, pick, play_out, send, start_match
from .phone import Phone


def play(phone: Phone, table: int, number: int) -> None:
    match = start_match(phone, "card-crush", table, number,
                        resolution=phone.rng.choice(["battle-score", "power-only"]))
    if match is None:
        return
    for seat in (0, 1):
        enter(phone, match, seat, _deck)

    def turn(_page: str, forms) -> bool:
        form = pick(forms, "play_round")
        if form is None:
            return False  # the battle is won
        send(phone, match, form, form.data(), "play_round", None)
        return True

    play_out(phone, match, turn)


def _deck(phone: Phone, form, page: str, attempt: int) -> tuple[dict, str]:
    """Five different cards from the catalog the entry page suggests, in a random order."""
    return form.data(**catalog_picks(phone, form, page, "card_")), "lock_deck"
