"""LOGOS in words: the working of a round, one sentence per engine event, and a title per action.

The board shows these lines under the round and the match log shows them under
each action, so a player can check every number.
"""

from django.utils.translation import pgettext, pgettext_lazy

from rules.logos.cards import COLOUR_CLASS, PANEL_COLOURS
from rules.logos.effects import BERSERK_BELOW, MIN_SLOTS
from tracker.matches.engine_messages import engine_word_lazy
from tracker.matches.numbers import grouped

# The colours as the engine names them (its refusals too: rules.errors.Word), in the game's words.
COLOUR_LABELS = {colour: engine_word_lazy("logos", colour) for colour in PANEL_COLOURS}
EFFECT_LABELS = {
    "add-card-slot": pgettext_lazy("logos", "Add Card Slot"),
    "remove-card-slot": pgettext_lazy("logos", "Remove Card Slot"),
    "regeneration": pgettext_lazy("logos", "Regeneration"),
    "shuffle-hand": pgettext_lazy("logos", "Shuffle Hand"),
    "destroy-combo": pgettext_lazy("logos", "Destroy Combo"),
    "destroy-backup": pgettext_lazy("logos", "Destroy Backup"),
    "neutralize": pgettext_lazy("logos", "Neutralize"),
    "maximize": pgettext_lazy("logos", "Maximize"),
    "minimize": pgettext_lazy("logos", "Minimize"),
    "swap-values": pgettext_lazy("logos", "Swap Values"),
    "double-combo": pgettext_lazy("logos", "Double Combo"),
    "mimmick": pgettext_lazy("logos", "Mimmick"),
    "berserk": pgettext_lazy("logos", "Berserk"),
    "color-change": pgettext_lazy("logos", "Color Change"),
}


def number(value: int) -> str:
    """LOGOS values run to six digits: grouped as the page's language does (100,000; 100.000 in German)."""
    return grouped(value)


def colour_name(colour: str) -> str:
    """"red (MATTER)": the colour and its class, so nothing rests on colour alone."""
    return pgettext("logos", "%(colour)s (%(cls)s)") % {"colour": COLOUR_LABELS[colour], "cls": COLOUR_CLASS[colour]}


def card_summary(card: dict) -> str:
    return pgettext("logos", "%(name)s (%(cls)s, ATTACK %(a)s / DEFENSE %(d)s / SPEED %(s)s)") % {
        "name": card["name"], "cls": card["class"], "a": number(card["attack"]),
        "d": number(card["defense"]), "s": card["speed"]}


def _revealed(event, names):
    plays = []
    for seat, card in enumerate(event["cards"]):
        if card is None:
            plays.append(pgettext("logos", "%(name)s has no playable card") % {"name": names[seat]})
        else:
            plays.append(
                pgettext("logos", "%(name)s plays %(card)s")
                % {"name": names[seat], "card": card_summary(card)}
            )
    line = pgettext("logos", "Round %(round)s revealed: %(plays)s.") % {
        "round": event["round"],
        "plays": "; ".join(plays),
    }
    for seat, backup in enumerate(event["backups"]):
        if backup:
            line += " " + pgettext("logos", "%(name)s sends %(card)s to the backup slot.") % {
                "name": names[seat], "card": card_summary(backup)}
    return line


def _direction(event, names):
    colours, speeds, attacker = event["colours"], event["speeds"], event["attacker"]
    by = event["by"]
    if by == "no-cards":
        return pgettext("logos", "Neither player has a card: no battle this round.")
    if by == "defenceless":
        sentence = pgettext("logos", "%(defender)s has no card, so %(attacker)s attacks.") % {
            "defender": names[1 - attacker], "attacker": names[attacker]}
    elif by == "deadlock":
        sentence = pgettext("logos", "Both cards are %(colour)s with SPEED %(speed)s: Deadlock.") % {
            "colour": colour_name(colours[0]), "speed": speeds[0]}
        if event["stage"] == "reveal":
            sentence += " " + pgettext("logos", "The round ends at once: no effects, no battle.")
        else:
            sentence += " " + pgettext("logos", "A fight now ends the round with no battle.")
    elif by == "speed":
        sentence = pgettext(
            "logos",
            "Both cards are %(colour)s: SPEED %(fast)s beats %(slow)s, so %(attacker)s attacks "
            "and %(defender)s defends.",
        ) % {
            "colour": colour_name(colours[0]),
            "fast": speeds[attacker],
            "slow": speeds[1 - attacker],
            "attacker": names[attacker],
            "defender": names[1 - attacker],
        }
    else:
        sentence = pgettext("logos", "%(win)s beats %(lose)s: %(attacker)s attacks and %(defender)s defends.") % {
            "win": colour_name(colours[attacker]), "lose": colour_name(colours[1 - attacker]),
            "attacker": names[attacker], "defender": names[1 - attacker]}
    prefix = {
        "reveal": pgettext("logos", "Direction:"),
        "after-effects": pgettext("logos", "Direction after the effects:"),
        "after-backup": pgettext("logos", "Direction after the backup call:"),
    }[event["stage"]]
    if event.get("changed"):
        sentence += " " + pgettext("logos", "(The direction has changed.)")
    return f"{prefix} {sentence}"


def _values(pair):
    return f"{number(pair[0])} / {number(pair[1])}"


def _effect_result(event, names):
    """What the effect did, after the part that says whose effect it was."""
    target = names[event["target"]]
    outcome, name = event["outcome"], event["effect"]
    plain = {
        "already-fired": pgettext("logos", "already fired this round (a permanent effect fires once)."),
        "blocked": pgettext("logos", "blocked: %(target)s is shielded by Neutralize.") % {"target": target},
        "nothing-to-copy": pgettext("logos", "nothing to copy in the same field of the opposite card."),
        "no-card": pgettext("logos", "%(target)s has no card in battle: no effect.") % {"target": target},
    }
    if outcome in plain:
        return plain[outcome]
    if outcome == "copies":
        return pgettext("logos", "copies %(effect)s:") % {"effect": EFFECT_LABELS[event["copied"]]}
    if name in ("add-card-slot", "remove-card-slot"):
        if outcome == "no-change":
            return pgettext("logos", "%(target)s keeps %(slots)s card slot (never fewer than %(least)s).") % {
                "target": target, "slots": event["before"], "least": MIN_SLOTS}
        return pgettext("logos", "%(target)s's card slots %(before)s → %(after)s.") % {
            "target": target, "before": event["before"], "after": event["after"]}
    if name == "regeneration":
        line = pgettext("logos", "heals %(target)s by ATTACK + DEFENSE = %(amount)s: %(before)s → %(after)s HP.") % {
            "target": target, "amount": number(event["amount"]), "before": number(event["before"]),
            "after": number(event["after"])}
        if event["capped"]:
            line += " " + pgettext("logos", "(Healing stops at the starting HP.)")
        return line
    if name == "shuffle-hand":
        return pgettext("logos", "%(target)s, put your hand away and draw a new one.") % {"target": target}
    if name == "destroy-combo":
        if outcome == "no-change":
            return pgettext("logos", "%(target)s's combo counter is already empty.") % {"target": target}
        return pgettext("logos", "%(target)s's combo counter (%(was)s) is emptied.") % {
            "target": target, "was": " · ".join(str(COLOUR_LABELS[c]) for c in event["before"])}
    if name == "destroy-backup":
        if outcome == "no-change":
            return pgettext("logos", "%(target)s's backup slot is empty: nothing to destroy.") % {"target": target}
        return pgettext("logos", "%(card)s in %(target)s's backup slot is destroyed.") % {
            "card": event["card"], "target": target}
    if name == "neutralize":
        line = pgettext("logos", "%(target)s is shielded: every later effect on them this round is blocked.") % {
            "target": target}
        if event["cancelled"]:
            line += " " + pgettext("logos", "Their active temporary effects are cancelled.")
        return line
    if name == "double-combo":
        return pgettext("logos", "%(target)s's combo counter gets two panels at the end of the round.") % {
            "target": target
        }
    if name == "color-change":
        if outcome == "no-change":
            return pgettext("logos", "%(target)s's card is %(colour)s, not %(from)s: no change.") % {
                "target": target, "colour": colour_name(event["before"]), "from": colour_name(event["from"])}
        return pgettext("logos", "%(target)s's card turns from %(from)s to %(to)s.") % {
            "target": target, "from": colour_name(event["before"]), "to": colour_name(event["after"])}
    if name == "berserk" and "after" not in event:
        return pgettext("logos", "%(target)s has %(hp)s HP, not under %(limit)s: no effect.") % {
            "target": target, "hp": number(event["hp"]), "limit": number(BERSERK_BELOW)}
    return pgettext("logos", "%(target)s's card ATTACK / DEFENSE %(before)s → %(after)s.") % {
        "target": target, "before": _values(event["before"]), "after": _values(event["after"])}


def _effect(event, names):
    field = pgettext("logos", "left field") if event["side"] == "left_effect" else pgettext("logos", "right field")
    label = EFFECT_LABELS[event["effect"]]
    if event["via"] == "mimmick":
        who = pgettext("logos", "↳ the copied %(effect)s") % {"effect": label}
    else:
        who = pgettext("logos", "%(owner)s's %(effect)s (%(field)s, on %(target)s)") % {
            "owner": names[event["seat"]], "effect": label, "field": field, "target": names[event["target"]]}
    return f"{who}: {_effect_result(event, names)}"


def _strike(event, names):
    values = {
        "attacker": names[event["attacker"]], "defender": names[event["defender"]],
        "attack": number(event["attack"]), "defense": number(event["defense"]),
        "damage": number(event["damage"]), "before": number(event["before"]), "after": number(event["after"]),
    }
    if event["counter"]:
        lead = pgettext("logos", "Same colour and no damage, so %(attacker)s strikes back:") % values
    elif event["defenceless"]:
        lead = pgettext("logos", "%(attacker)s attacks %(defender)s, who has no DEFENSE:") % values
    else:
        lead = pgettext("logos", "%(attacker)s attacks:") % values
    if event["damage"]:
        sums = pgettext("logos", "ATTACK %(attack)s − DEFENSE %(defense)s = %(damage)s damage; %(defender)s "
                       "%(before)s → %(after)s HP.") % values
    else:
        sums = pgettext("logos", "ATTACK %(attack)s − DEFENSE %(defense)s: no damage.") % values
    return f"{lead} {sums}"


def _combo(event, names):
    return pgettext("logos", "%(name)s's combo counter: %(added)s in → %(counter)s.") % {
        "name": names[event["seat"]],
        "added": " + ".join(str(COLOUR_LABELS[c]) for c in event["added"]),
        "counter": " · ".join(str(COLOUR_LABELS[c]) for c in event["counter"]),
    }


def _duel_over(event, names):
    winner = event["winner"]
    if event["ended_by"] == "knock-out":
        return pgettext("logos", "%(loser)s is at 0 HP: %(winner)s wins the duel.") % {
            "loser": names[1 - winner], "winner": names[winner]}
    if winner is None:
        return pgettext("logos", "The duel ends in a draw.")
    return pgettext("logos", "%(winner)s wins the duel; it is recorded as a draw for %(loser)s.") % {
        "winner": names[winner], "loser": names[1 - winner]}


def line(event: dict, names: list[str]) -> str:
    """One step of the working ("" for events whose action title says it all)."""
    match event["type"]:
        case "committed":
            return ""
        case "revealed":
            return _revealed(event, names)
        case "defenceless":
            return pgettext(
                "logos",
                "%(name)s has no playable card: %(name)s empties every card slot and is defenceless "
                "this round.",
            ) % {"name": names[event["seat"]]}
        case "direction":
            return _direction(event, names)
        case "effect":
            return _effect(event, names)
        case "backup_called":
            return pgettext("logos", "%(name)s calls %(card)s from the backup slot to replace %(replaced)s; "
                           "the effects are processed again.") % {
                "name": names[event["seat"]], "card": card_summary(event["card"]), "replaced": event["replaced"]}
        case "strike":
            return _strike(event, names)
        case "no_battle":
            return pgettext("logos", "Deadlock: the round ends with no battle.")
        case "combo":
            return _combo(event, names)
        case "round_over":
            return pgettext("logos", "Round %(round)s is over. Refill your empty card slots for the next one.") % {
                "round": event["round"]}
        case "resigned":
            return pgettext("logos", "%(name)s resigns.") % {"name": names[event["seat"]]}
        case "duel_over":
            return _duel_over(event, names)
        case "hp_set":
            return pgettext("logos", "Manual correction: %(name)s's HP %(before)s → %(after)s.") % {
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
        return pgettext("logos", "Round %(round)s: %(name)s commits in secret") % {"round": round_number, "name": name}
    if kind == "commit":
        title = pgettext("logos", "Round %(round)s: %(name)s commits %(card)s") % {
            "round": round_number, "name": name, "card": action["card"]["name"]}
        if action.get("backup"):
            title += pgettext("logos", " and sends %(card)s to the backup slot") % {"card": action["backup"]["name"]}
        return title
    if kind == "defenceless":
        return pgettext("logos", "Round %(round)s: %(name)s has no playable card") % {
            "round": round_number,
            "name": name,
        }
    if kind == "call_backup":
        return pgettext("logos", "%(name)s calls the backup card") % {"name": name}
    if kind == "fight":
        return pgettext("logos", "Fight")
    if kind == "resign":
        return pgettext("logos", "%(name)s resigns") % {"name": name}
    if kind == "set_hp":
        return pgettext("logos", "%(name)s's HP set by hand") % {"name": name}
    return str(kind)
