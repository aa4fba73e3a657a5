"""Card Crush in words: why each round went the way it did, for the board and the log."""

from django.utils.translation import gettext


def round_working(result: dict, names: list[str]) -> str:
    """Why the round went the way it did, in the words a player would use to check it."""
    w, l = result["winner"], 1 - result["winner"]
    cards, bonus, scores = result["cards"], result["bonus"], result["scores"]
    if result["decided_by"] == "score":
        if result["resolution"] == "power-only":
            return gettext("Power %(win)s beats %(lose)s.") % {"win": scores[w], "lose": scores[l]}
        edges = [
            gettext("%(mine)s over %(theirs)s +%(bonus)s") % {
                "mine": gettext(cards[s]["affinity"]), "theirs": gettext(cards[1 - s]["affinity"]), "bonus": bonus[s]}
            for s in (w, l) if bonus[s]
        ]
        sums = gettext("%(wp)s + %(wb)s = %(ws)s beats %(lp)s + %(lb)s = %(ls)s") % {
            "wp": cards[w]["power"], "wb": bonus[w], "ws": scores[w],
            "lp": cards[l]["power"], "lb": bonus[l], "ls": scores[l]}
        return "; ".join(edges) + (": " if edges else "") + sums + "."
    tied = gettext("Tied at %(score)s") % {"score": scores[w]}
    if result["decided_by"] == "speed":
        return gettext("%(tied)s; Speed %(win)s beats %(lose)s.") % {
            "tied": tied, "win": result["speeds"][w], "lose": result["speeds"][l]}
    tied += gettext(", Speed %(speed)s each") % {"speed": result["speeds"][w]}
    if result["decided_by"] == "initiative":
        return gettext("%(tied)s; Team Initiative %(win)s beats %(lose)s.") % {
            "tied": tied, "win": result["initiative"][w], "lose": result["initiative"][l]}
    return gettext("%(tied)s, Team Initiative %(init)s each; the coin flip from the match seed went to %(name)s.") % {
        "tied": tied, "init": result["initiative"][w], "name": names[w]}


def describe(event: dict, names: list[str]) -> str:
    """One line of the match log for an engine event ("" when the action's title says it all)."""
    match event["type"]:
        case "deck_locked":
            return ""
        case "decks_revealed":
            return gettext("Both decks revealed. Team Initiative: %(a)s %(ia)s, %(b)s %(ib)s.") % {
                "a": names[0], "ia": event["initiative"][0], "b": names[1], "ib": event["initiative"][1]}
        case "round":
            return gettext("%(name)s wins. %(working)s") % {
                "name": names[event["winner"]], "working": round_working(event, names)}
        case "battle_won":
            wins = event["wins"]
            return gettext("%(name)s wins the battle %(won)s-%(lost)s.") % {
                "name": names[event["winner"]], "won": wins[event["winner"]], "lost": wins[1 - event["winner"]]}
    return event["type"]


def describe_action(action: dict, events: list[dict], names: list[str]) -> str:
    """What a player did, as the log shows it (secret parts already removed by the engine)."""
    if action.get("type") == "lock_deck":
        if "cards" in action:
            deck = ", ".join(card["name"] for card in action["cards"])
            return gettext("%(name)s locks in: %(deck)s") % {"name": names[action["seat"]], "deck": deck}
        return gettext("%(name)s locks in a hidden deck") % {"name": names[action["seat"]]}
    rounds = [event["round"] for event in events if event["type"] == "round"]
    return gettext("Round %(round)s revealed") % {"round": rounds[0]} if rounds else action.get("type", "")
