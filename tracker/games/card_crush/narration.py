"""Card Crush in words: why each round went the way it did, for the board and the log."""

import re

from django.utils.translation import npgettext

from ...matches.engine_messages import engine_word
from ...matches.engine_messages import kept_pgettext as pgettext  # the same messages on every tap: kept

_TIE_FLIP = re.compile(r"card-crush round (\d+)")  # rules/card_crush/battle.py: a tied round's coin


def roll_reason(why: str) -> str:
    """A coin flip's reason in the reader's words: "who wins round 3" for the engine's "card-crush round 3"."""
    found = _TIE_FLIP.fullmatch(why)
    return pgettext("card-crush", "who wins round %(n)s") % {"n": found[1]} if found else why


def round_working(result: dict, names: list[str]) -> str:
    """Why the round went the way it did, in the words a player would use to check it."""
    won, lost = result["winner"], 1 - result["winner"]
    cards, bonus, scores = result["cards"], result["bonus"], result["scores"]
    edges = [
        pgettext("card-crush", "%(mine)s over %(theirs)s +%(bonus)s") % {
            "mine": engine_word("card-crush", cards[s]["affinity"]),
            "theirs": engine_word("card-crush", cards[1 - s]["affinity"]), "bonus": bonus[s]}
        for s in (won, lost) if bonus[s]
    ]
    sums = {"wp": cards[won]["power"], "wb": bonus[won], "ws": scores[won],
            "lp": cards[lost]["power"], "lb": bonus[lost], "ls": scores[lost]}
    if result["decided_by"] == "score":
        if result["resolution"] == "power-only":
            return pgettext("card-crush", "Power %(win)s beats %(lose)s.") % {"win": scores[won], "lose": scores[lost]}
        beats = pgettext("card-crush", "%(wp)s + %(wb)s = %(ws)s beats %(lp)s + %(lb)s = %(ls)s") % sums
        return "; ".join(edges) + (": " if edges else "") + beats + "."
    if edges:  # a tie the Affinity Bonus made: its working shows the bonus, so the tie checks by hand
        tied = (
            "; ".join(edges)
            + ": "
            + pgettext("card-crush", "%(wp)s + %(wb)s = %(ws)s ties %(lp)s + %(lb)s = %(ls)s") % sums
        )
    else:
        tied = pgettext("card-crush", "Tied at %(score)s") % {"score": scores[won]}
    if result["decided_by"] == "speed":
        return pgettext("card-crush", "%(tied)s; Speed %(win)s beats %(lose)s.") % {
            "tied": tied, "win": result["speeds"][won], "lose": result["speeds"][lost]}
    tied += pgettext("card-crush", ", Speed %(speed)s each") % {"speed": result["speeds"][won]}
    if result["decided_by"] == "initiative":
        return pgettext("card-crush", "%(tied)s; Team Initiative %(win)s beats %(lose)s.") % {
            "tied": tied, "win": result["initiative"][won], "lose": result["initiative"][lost]}
    return pgettext(
        "card-crush",
        "%(tied)s, Team Initiative %(init)s each; the coin flip from the match seed went to %(name)s.",
    ) % {"tied": tied, "init": result["initiative"][won], "name": names[won]}


def describe(event: dict, names: list[str]) -> str:
    """One line of the match log for an engine event ("" when the action's title says it all)."""
    match event["type"]:
        case "deck_locked":
            return ""
        case "decks_revealed":
            return pgettext("card-crush", "Both decks revealed. Team Initiative: %(a)s %(ia)s, %(b)s %(ib)s.") % {
                "a": names[0], "ia": event["initiative"][0], "b": names[1], "ib": event["initiative"][1]}
        case "round":
            return pgettext("card-crush", "%(name)s wins. %(working)s") % {
                "name": names[event["winner"]], "working": round_working(event, names)}
        case "battle_won":
            wins = event["wins"]
            return npgettext("card-crush", "%(name)s wins the battle %(won)s round to %(lost)s.",
                            "%(name)s wins the battle %(won)s rounds to %(lost)s.", wins[event["winner"]]) % {
                "name": names[event["winner"]], "won": wins[event["winner"]], "lost": wins[1 - event["winner"]]}
    return event["type"]


def describe_action(action: dict, events: list[dict], names: list[str]) -> str:
    """What a player did, as the log shows it (secret parts already removed by the engine)."""
    if action.get("type") == "lock_deck":
        if "cards" in action:
            deck = ", ".join(card["name"] for card in action["cards"])
            return pgettext("card-crush", "%(name)s locks in: %(deck)s") % {"name": names[action["seat"]], "deck": deck}
        return pgettext("card-crush", "%(name)s locks in a hidden deck") % {"name": names[action["seat"]]}
    rounds = [event["round"] for event in events if event["type"] == "round"]
    return (
        pgettext("card-crush", "Round %(round)s revealed") % {"round": rounds[0]}
        if rounds
        else action.get("type", "")
    )
