"""What the Card Crush board shows: per round the two cards and the result, once revealed."""

from rules.card_crush.battle import DECK_SIZE, phase, team_initiative

from ...models import Match
from .narration import round_working


def board(match: Match) -> dict:
    state = match.state
    players = match.players()
    names = [player.name for player in players]
    revealed = phase(state) != "lock-in"
    rounds = []
    for number in range(1, DECK_SIZE + 1):
        result = state["rounds"][number - 1] if number <= len(state["rounds"]) else None
        cards = [deck[number - 1] for deck in state["decks"]] if revealed else None
        rounds.append({
            "number": number,
            "cards": cards,
            # A played round's two cards as the board shows them: whose, and whether it won (read once, not per tag).
            "sides": [{"owner": name, "name": card["name"], "power": card["power"], "speed": card["speed"],
                       "said": card["affinity"], "affinity": card["affinity"].lower(), "won": result["winner"] == seat}
                      for seat, (card, name) in enumerate(zip(cards, names, strict=False))] if result and cards else [],
            "result": result,
            "working": round_working(result, names) if result else "",
            "status": "played" if result else ("not-played" if state["winner"] is not None else "upcoming"),
        })
    return {
        "phase": phase(state),
        "rounds": rounds,
        "seats": [
            {"player": player, "wins": wins, "initiative": team_initiative(deck) if revealed else None}
            for player, wins, deck in zip(players, state["wins"], state["decks"], strict=True)
        ],
        "next_round": len(state["rounds"]) + 1,
        "power_only": state["resolution"] == "power-only",
        "deck_size": DECK_SIZE,
    }
