"""A Cardmaster Showdown against the AI, played beside the tables to time the AI's replies under load.

The phone starts a Showdown at `level` (9 cards a side, the AI's faction made at its default power),
locks its lineup from the catalog and plays its possessions as the Cardmaster table does. A tap that
ends its possession is answered with the AI's whole possession, decided and applied in that same
request: the phone times each such answer and counts the AI's moves in it (the step number `#match`
carries, before and after). No doubled or stale taps here: this phone measures, the tables test.
"""

from . import screen
from .cardmaster import lineup, turns
from .common import applied, enter, play_out, send, start_match
from .phone import Phone


def play(phone: Phone, table: int, number: int, level: str = "hard") -> None:
    match = start_match(phone, "cardmaster", table, number, opponent=level)
    if match is None:
        return
    enter(phone, match, 0, lineup)

    def post(form, data: dict, move: str) -> int:
        # The step on screen before the tap: only this phone moves a Showdown on, so the poll while the
        # player thinks (in send) finds nothing new.
        before = screen.head(phone.shown(match) or "")
        status = send(phone, match, form, data, move, None, tricks=False)
        after = screen.head(phone.shown(match) or "")
        if applied(status) and before is not None and after is not None and (
                replied := screen.step(after) - screen.step(before) - 1) > 0:
            with phone.lock:
                phone.report.ai_replies.append((phone.took, replied))
        return status

    play_out(phone, match, turns(phone, post))
