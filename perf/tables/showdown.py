"""A Cardmaster Showdown against the AI, played beside the tables to time the AI's replies under load.

The phone starts a Showdown at `level` (9 cards a side, the AI's faction made at its default power),
locks its lineup from the catalog and plays its possessions as the Cardmaster table does. A tap that
ends its possession is answered with the AI's whole possession, decided and applied in that same
request: the phone times each such answer and counts the AI's moves in it (the step number `#match`
carries, before and after). No doubled or stale taps here: this phone measures, the tables test.
"""

import time

from . import screen
from .cardmaster import _lineup, turns
from .common import applied, enter, play_out, start_match
from .phone import Phone


def play(phone: Phone, table: int, number: int, level: str = "hard") -> None:
    match = start_match(phone, "cardmaster", table, number, opponent=level)
    if match is None:
        return
    enter(phone, match, 0, _lineup)

    def post(form, data: dict, move: str) -> int:
        phone.think()
        before = screen.head(phone.shown(match) or "")
        data = {**data, "seq": [before]} if before is not None else data
        seq = int(data["seq"][0])
        started = time.perf_counter()
        status, _location = phone.act(form.action, data, phone.htmx, form.parts)
        took = time.perf_counter() - started
        if not applied(status):
            phone.count(phone.report.refusals, f"showdown action {status}, page reloaded")
            phone.show(match, None)
            return status
        phone.acknowledge(match, seq + 1, move, None)
        after = screen.head(phone.shown(match) or "")
        replied = int(after) - seq - 1 if after is not None else 0
        if replied > 0:
            with phone.lock:
                phone.report.ai_replies.append((took, replied))
        return status

    play_out(phone, match, turns(phone, post))
