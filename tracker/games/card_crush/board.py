"""What the Card Crush board shows: per round the two cards and the result, once revealed.

The board's words are given here, in the phone's language, where the template would draw each with a tag of
its own: a reveal draws the board on every tap, and Django's cost is per tag (some 2 to 6 µs each).
"""

from django.utils.html import format_html_join
from django.utils.safestring import SafeString

from rules.card_crush.battle import DECK_SIZE, phase, team_initiative

from ...matches.engine_messages import engine_word
from ...matches.engine_messages import kept_pgettext as pgettext  # the same words on every tap: kept
from ...models import Match
from .narration import round_working

_CARD = """<div class="cc-card{}">
<span class="cc-owner">{}</span>
<strong class="cc-name">{}</strong>
<span class="cc-stats">{}</span>
<span class="cc-affinity affinity-{}">{}</span>
<span class="cc-result">{}</span>
</div>
"""
"""One card of a played round, as `_clash` draws it: its class, whose, its name, stats, affinity (its class and
word) and result."""


def _clash(cards: list[dict], names: list[str], winner: int) -> SafeString:
    """A played round's two cards, each with whose it is, its stats and affinity, and whether it won: drawn here, a
    few lines each, where the template drew some fifteen tags a card."""
    return format_html_join("", _CARD, (
        (" cc-card-won" if seat == winner else "", name, card["name"],
         pgettext("card-crush", "Power %(p)s · Speed %(s)s") % {"p": card["power"], "s": card["speed"]},
         card["affinity"].lower(), engine_word("card-crush", card["affinity"]),
         "✓ " + pgettext("card-crush", "wins") if seat == winner else "✗ " + pgettext("card-crush", "loses"))
        for seat, (card, name) in enumerate(zip(cards, names, strict=True))))


def board(match: Match) -> dict:
    state = match.state
    players = match.players()
    names = [player.name for player in players]
    revealed = phase(state) != "lock-in"
    next_round = len(state["rounds"]) + 1
    rounds = []
    for number in range(1, DECK_SIZE + 1):
        result = state["rounds"][number - 1] if number <= len(state["rounds"]) else None
        cards = [deck[number - 1] for deck in state["decks"]] if revealed else None
        status = "played" if result else ("not-played" if state["winner"] is not None else "upcoming")
        rounds.append({
            "number": number,
            "title": pgettext("card-crush", "Round %(n)s") % {"n": number},
            "clash": _clash(cards, names, result["winner"]) if result and cards else "",
            "working": round_working(result, names) if result else "",
            "status": status,
            "note": "" if result else pgettext("card-crush", "Not revealed yet.") if status == "upcoming" else (
                pgettext("card-crush", "Not played: the battle was already decided.")),
            "next": status == "upcoming" and number == next_round,  # revealed next: its button, for who may act
        })
    seats = [{"player": player, "wins": wins, "initiative": team_initiative(deck) if revealed else None,
              "won": match.winner_id is not None and match.winner_id == player.pk}
             for player, wins, deck in zip(players, state["wins"], state["decks"], strict=True)]
    return {
        "phase": phase(state),
        "rounds": rounds,
        "seats": seats,
        # "Ana 27, Ben 25": each team's sum of Speed, after the board's words for it.
        "initiative": ", ".join(f"{seat['player'].name} {seat['initiative']}" for seat in seats) if revealed else "",
        "power_only": state["resolution"] == "power-only",
        "deck_size": DECK_SIZE,
    }
