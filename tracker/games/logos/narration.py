"""LOGOS in words: the working of a round, one sentence per engine event, and a title per action.

The board shows these lines under the round and the match log shows them under
each action, so a player can check every number.
"""

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from rules.logos.cards import COLOUR_CLASS
from rules.logos.effects import BERSERK_BELOW, MIN_SLOTS
from tracker.matches.numbers import grouped

COLOUR_LABELS = {
    "red": _("red"), "green": _("green"), "blue": _("blue"), "white": _("white"), "purple": _("purple"),
    "grey": _("grey"),
}
EFFECT_LABELS = {
    "add-card-slot": _("Add Card Slot"),
    "remove-card-slot": _("Remove Card Slot"),
    "regeneration": _("Regeneration"),
    "shuffle-hand": _("Shuffle Hand"),
    "destroy-combo": _("Destroy Combo"),
    "destroy-backup": _("Destroy Backup"),
    "neutralize": _("Neutralize"),
    "maximize": _("Maximize"),
    "minimize": _("Minimize"),
    "swap-values": _("Swap Values"),
    "double-combo": _("Double Combo"),
    "mimmick": _("Mimmick"),
    "berserk": _("Berserk"),
    "color-change": _("Color Change"),
}


def number(value: int) -> str:
    """LOGOS values run to six digits: grouped as the page's language does (100,000; 100.000 in German)."""
    return grouped(value)


def colour_name(colour: str) -> str:
    """"red (MATTER)": the colour and its class, so nothing rests on colour alone."""
    return gettext("%(colour)s (%(cls)s)") % {"colour": COLOUR_LABELS[colour], "cls": COLOUR_CLASS[colour]}


def card_summary(card: dict) -> str:
    return gettext("%(name)s (%(cls)s, ATTACK %(a)s / DEFENSE %(d)s / SPEED %(s)s)") % {
        "name": card["name"], "cls": card["class"], "a": number(card["attack"]),
        "d": number(card["defense"]), "s": card["speed"]}


def _revealed(event, names):
    plays = []
    for seat, card in enumerate(event["cards"]):
        if card is None:
            plays.append(gettext("%(name)s has no playable card") % {"name": names[seat]})
        else:
            plays.append(gettext("%(name)s plays %(card)s") % {"name": names[seat], "card": card_summary(card)})
    line = gettext("Round %(round)s revealed: %(plays)s.") % {"round": event["round"], "plays": "; ".join(plays)}
    for seat, backup in enumerate(event["backups"]):
        if backup:
            line += " " + gettext("%(name)s sends %(card)s to the backup slot.") % {
                "name": names[seat], "card": card_summary(backup)}
    return line


def _direction(event, names):
    colours, speeds, attacker = event["colours"], event["speeds"], event["attacker"]
    by = event["by"]
    if by == "no-cards":
        return gettext("Neither player has a card: no battle this round.")
    if by == "defenceless":
        sentence = gettext("%(defender)s has no card, so %(attacker)s attacks.") % {
            "defender": names[1 - attacker], "attacker": names[attacker]}
    elif by == "deadlock":
        sentence = gettext("Both cards are %(colour)s with SPEED %(speed)s: Deadlock.") % {
            "colour": colour_name(colours[0]), "speed": speeds[0]}
        if event["stage"] == "reveal":
            sentence += " " + gettext("The round ends at once: no effects, no battle.")
        else:
            sentence += " " + gettext("A fight now ends the round with no battle.")
    elif by == "speed":
        sentence = gettext("Both cards are %(colour)s: SPEED %(fast)s beats %(slow)s, so %(attacker)s attacks "
                           "and %(defender)s defends.") % {
            "colour": colour_name(colours[0]), "fast": speeds[attacker], "slow": speeds[1 - attacker],
            "attacker": names[attacker], "defender": names[1 - attacker]}
    else:
        sentence = gettext("%(win)s beats %(lose)s: %(attacker)s attacks and %(defender)s defends.") % {
            "win": colour_name(colours[attacker]), "lose": colour_name(colours[1 - attacker]),
            "attacker": names[attacker], "defender": names[1 - attacker]}
    prefix = {
        "reveal": gettext("Direction:"),
        "after-effects": gettext("Direction after the effects:"),
        "after-backup": gettext("Direction after the backup call:"),
    }[event["stage"]]
    if event.get("changed"):
        sentence += " " + gettext("(The direction has changed.)")
    return f"{prefix} {sentence}"


def _values(pair):
    return f"{number(pair[0])} / {number(pair[1])}"


def _effect_result(event, names):
    """What the effect did, after the part that says whose effect it was."""
    target = names[event["target"]]
    outcome, name = event["outcome"], event["effect"]
    plain = {
        "already-fired": gettext("already fired this round (a permanent effect fires once)."),
        "blocked": gettext("blocked: %(target)s is shielded by Neutralize.") % {"target": target},
        "nothing-to-copy": gettext("nothing to copy in the same field of the opposite card."),
        "no-card": gettext("%(target)s has no card in battle: no effect.") % {"target": target},
    }
    if outcome in plain:
        return plain[outcome]
    if outcome == "copies":
        return gettext("copies %(effect)s:") % {"effect": EFFECT_LABELS[event["copied"]]}
    if name in ("add-card-slot", "remove-card-slot"):
        if outcome == "no-change":
            return gettext("%(target)s keeps %(slots)s card slot (never fewer than %(least)s).") % {
                "target": target, "slots": event["before"], "least": MIN_SLOTS}
        return gettext("%(target)s's card slots %(before)s → %(after)s.") % {
            "target": target, "before": event["before"], "after": event["after"]}
    if name == "regeneration":
        line = gettext("heals %(target)s by ATTACK + DEFENSE = %(amount)s: %(before)s → %(after)s HP.") % {
            "target": target, "amount": number(event["amount"]), "before": number(event["before"]),
            "after": number(event["after"])}
        if event["capped"]:
            line += " " + gettext("(Healing stops at the starting HP.)")
        return line
    if name == "shuffle-hand":
        return gettext("%(target)s, put your hand away and draw a new one.") % {"target": target}
    if name == "destroy-combo":
        if outcome == "no-change":
            return gettext("%(target)s's combo counter is already empty.") % {"target": target}
        return gettext("%(target)s's combo counter (%(was)s) is emptied.") % {
            "target": target, "was": " · ".join(str(COLOUR_LABELS[c]) for c in event["before"])}
    if name == "destroy-backup":
        if outcome == "no-change":
            return gettext("%(target)s's backup slot is empty: nothing to destroy.") % {"target": target}
        return gettext("%(card)s in %(target)s's backup slot is destroyed.") % {
            "card": event["card"], "target": target}
    if name == "neutralize":
        line = gettext("%(target)s is shielded: every later effect on them this round is blocked.") % {
            "target": target}
        if event["cancelled"]:
            line += " " + gettext("Their active temporary effects are cancelled.")
        return line
    if name == "double-combo":
        return gettext("%(target)s's combo counter gets two panels at the end of the round.") % {"target": target}
    if name == "color-change":
        if outcome == "no-change":
            return gettext("%(target)s's card is %(colour)s, not %(from)s: no change.") % {
                "target": target, "colour": colour_name(event["before"]), "from": colour_name(event["from"])}
        return gettext("%(target)s's card turns from %(from)s to %(to)s.") % {
            "target": target, "from": colour_name(event["before"]), "to": colour_name(event["after"])}
    if name == "berserk" and "after" not in event:
        return gettext("%(target)s has %(hp)s HP, not under %(limit)s: no effect.") % {
            "target": target, "hp": number(event["hp"]), "limit": number(BERSERK_BELOW)}
    return gettext("%(target)s's card ATTACK / DEFENSE %(before)s → %(after)s.") % {
        "target": target, "before": _values(event["before"]), "after": _values(event["after"])}


def _effect(event, names):
    field = gettext("left field") if event["side"] == "left_effect" else gettext("right field")
    label = EFFECT_LABELS[event["effect"]]
    if event["via"] == "mimmick":
        who = gettext("↳ the copied %(effect)s") % {"effect": label}
    else:
        who = gettext("%(owner)s's %(effect)s (%(field)s, on %(target)s)") % {
            "owner": names[event["seat"]], "effect": label, "field": field, "target": names[event["target"]]}
    return f"{who}: {_effect_result(event, names)}"


def _strike(event, names):
    values = {
        "attacker": names[event["attacker"]], "defender": names[event["defender"]],
        "attack": number(event["attack"]), "defense": number(event["defense"]),
        "damage": number(event["damage"]), "before": number(event["before"]), "after": number(event["after"]),
    }
    if event["counter"]:
        lead = gettext("Same colour and no damage, so %(attacker)s strikes back:") % values
    elif event["defenceless"]:
        lead = gettext("%(attacker)s attacks %(defender)s, who has no DEFENSE:") % values
    else:
        lead = gettext("%(attacker)s attacks:") % values
    if event["damage"]:
        sums = gettext("ATTACK %(attack)s − DEFENSE %(defense)s = %(damage)s damage; %(defender)s "
                       "%(before)s → %(after)s HP.") % values
    else:
        sums = gettext("ATTACK %(attack)s − DEFENSE %(defense)s: no damage.") % values
    return f"{lead} {sums}"


def _combo(event, names):
    return gettext("%(name)s's combo counter: %(added)s in → %(counter)s.") % {
        "name": names[event["seat"]],
        "added": " + ".join(str(COLOUR_LABELS[c]) for c in event["added"]),
        "counter": " · ".join(str(COLOUR_LABELS[c]) for c in event["counter"]),
    }


def _duel_over(event, names):
    winner = event["winner"]
    if event["ended_by"] == "knock-out":
        return gettext("%(loser)s is at 0 HP: %(winner)s wins the duel.") % {
            "loser": names[1 - winner], "winner": names[winner]}
    if winner is None:
        return gettext("The duel ends in a draw.")
    return gettext("%(winner)s wins the duel; it is recorded as a draw for %(loser)s.") % {
        "winner": names[winner], "loser": names[1 - winner]}


def line(event: dict, names: list[str]) -> str:
    """One step of the working ("" for events whose action title says it all)."""
    match event["type"]:
        case "committed":
            return ""
        case "revealed":
            return _revealed(event, names)
        case "defenceless":
            return gettext("%(name)s has no playable card: %(name)s empties every card slot and is defenceless "
                           "this round.") % {"name": names[event["seat"]]}
        case "direction":
            return _direction(event, names)
        case "effect":
            return _effect(event, names)
        case "backup_called":
            return gettext("%(name)s calls %(card)s from the backup slot to replace %(replaced)s; "
                           "the effects are processed again.") % {
                "name": names[event["seat"]], "card": card_summary(event["card"]), "replaced": event["replaced"]}
        case "strike":
            return _strike(event, names)
        case "no_battle":
            return gettext("Deadlock: the round ends with no battle.")
        case "combo":
            return _combo(event, names)
        case "round_over":
            return gettext("Round %(round)s is over. Refill your empty card slots for the next one.") % {
                "round": event["round"]}
        case "resigned":
            return gettext("%(name)s resigns.") % {"name": names[event["seat"]]}
        case "duel_over":
            return _duel_over(event, names)
        case "hp_set":
            return gettext("Manual correction: %(name)s's HP %(before)s → %(after)s.") % {
                "name": names[event["seat"]], "before": number(event["before"]), "after": number(event["after"])}
    return event["type"]


def describe(event: dict, names: list[str]) -> str:
    """One line of the match log for an engine event ("" when the action's title says it all)."""
    return line(event, names)


# Left to the outcome box's whole working: the revealed cards' stats (the board shows the cards), the
# effects (their result shows in the direction and the strike) and the combo counters (on the board).
OUTCOME_FOLDED = frozenset({"revealed", "effect", "combo"})


def outcome_line(event: dict, names: list[str]) -> str:
    """The outcome box's line: who attacks and why, the damage and HP left, a Deadlock, a round's or the
    duel's end; "" for what the box folds away."""
    return "" if event["type"] in OUTCOME_FOLDED else line(event, names)


def describe_action(action: dict, events: list[dict], names: list[str]) -> str:
    """What a player did, as the log shows it (a commit stays hidden until its round is revealed)."""
    kind = action.get("type")
    name = names[action["seat"]] if action.get("seat") in (0, 1) else ""
    round_number = action.get("round")
    if action.get("hidden"):
        return gettext("Round %(round)s: %(name)s commits in secret") % {"round": round_number, "name": name}
    if kind == "commit":
        title = gettext("Round %(round)s: %(name)s commits %(card)s") % {
            "round": round_number, "name": name, "card": action["card"]["name"]}
        if action.get("backup"):
            title += gettext(" and sends %(card)s to the backup slot") % {"card": action["backup"]["name"]}
        return title
    if kind == "defenceless":
        return gettext("Round %(round)s: %(name)s has no playable card") % {"round": round_number, "name": name}
    if kind == "call_backup":
        return gettext("%(name)s calls the backup card") % {"name": name}
    if kind == "fight":
        return gettext("Fight")
    if kind == "resign":
        return gettext("%(name)s resigns") % {"name": name}
    if kind == "set_hp":
        return gettext("%(name)s's HP set by hand") % {"name": name}
    return str(kind)
