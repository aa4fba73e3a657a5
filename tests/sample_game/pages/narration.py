"""High Card Duel in words."""

from django.utils.translation import pgettext


def describe(event: dict, names: list[str]) -> str:
    if event["type"] == "round":
        values = [card["value"] for card in event["cards"]]
        if event["winner"] is None:
            return pgettext("high-card-duel", "%(a)s ties %(b)s: nobody wins the round.") % {
                "a": values[0],
                "b": values[1],
            }
        won = event["winner"]
        return pgettext("high-card-duel", "%(name)s wins: %(win)s beats %(lose)s.") % {
            "name": names[won], "win": values[won], "lose": values[1 - won]}
    if event["type"] == "duel_won":
        return pgettext("high-card-duel", "%(name)s wins the duel.") % {"name": names[event["seat"]]}
    return ""


def describe_action(action: dict, events: list[dict], names: list[str]) -> str:
    if action.get("type") == "pick":
        if "card" in action:
            return pgettext("high-card-duel", "%(name)s picks %(card)s") % {
                "name": names[action["seat"]],
                "card": action["card"]["name"],
            }
        return pgettext("high-card-duel", "%(name)s picks a hidden card") % {"name": names[action["seat"]]}
    return pgettext("high-card-duel", "Reveal")
