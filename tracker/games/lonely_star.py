"""Lonely Star pages: the unit catalog, the match options, the board's forms and the log lines.

Everything in Lonely Star is played open on the table, so there is no secret entry:
`seats_to_enter` is always empty and the entry page only says so.

Dice: each form that may roll has a `roll` field. With the match default "the app
rolls", a blank field lets the app roll and a number is a real die a player rolled.
With "players roll", the field must be filled unless "Let the app roll this one" is
ticked. Whether an action needs a die at all is found by trying it on a copy of the
state (a Luck or Resist of 6 or more needs none), so the form never asks for nothing.
"""

from django import forms
from django.core.exceptions import ValidationError
from django.template.defaultfilters import floatformat
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from rules import Dice, RuleError
from rules.lonely_star import GAME, STAT_NAMES, STATS, validate_card
from rules.lonely_star.rolls import SIDES, is_certain
from rules.lonely_star.statuses import effect_reach
from rules.lonely_star.units import NAME_MAX, STAT_MAX, status_penalty, total
from rules.lonely_star.zones import ZONES

from ..models import Card, Match
from ..services import applied_actions, entered_rolls, head_action, live_actions
from .common import EngineCardForm

SLUG = "lonely-star"
BOARD_TEMPLATE = "games/lonely-star/board.html"
ENTRY_TEMPLATE = "games/lonely-star/entry.html"
NEW_MATCH_NOUN = _("match")

# Invented demo units (the game's card list is not public): name, HP, AT, LK, RS, reach.
DEMO_CARDS = [
    {"name": name, "hp": hp, "at": at, "lk": lk, "rs": rs, "reach": reach}
    for name, hp, at, lk, rs, reach in [
        ("Comet Wanderer", 5, 3, 8, 1, 2),
        ("Nebula Warden", 8, 2, 2, 3, 1),
        ("Ember Drifter", 4, 4, 3, 0, 1),
        ("Quiet Moon", 6, 2, 4, 2, 3),
        ("Dust Knight", 7, 3, 2, 2, 1),
        ("Void Spark", 3, 5, 6, 0, 2),
        ("Orbit Keeper", 9, 1, 1, 4, 1),
        ("Lonely Star", 6, 4, 7, 2, 2),
    ]
]

ZONE_NAMES = {"deck": _("Deck"), "hand": _("Hand"), "discard": _("Discard pile"), "removed": _("Removed")}
ACTIONS = (
    "play_unit",
    "equip",
    "attack",
    "act",
    "damage",
    "inflict",
    "luck_roll",
    "d6",
    "end_turn",
    "resist_roll",
    "finish_turn",
    "declare_winner",
    "define_status",
    "adjust",
)
ADJUSTMENTS = ("counters", "stat", "cards", "leave")


# ------------------------------------------------------------------ catalog and options


class CardForm(EngineCardForm):
    """A Lonely Star unit card: its name, its gems and its reach."""

    name = forms.CharField(label=_("Name"), max_length=NAME_MAX)
    hp = forms.IntegerField(label=_("Health (HP)"), min_value=1, max_value=STAT_MAX)
    at = forms.IntegerField(label=_("Attack (AT)"), min_value=0, max_value=STAT_MAX)
    lk = forms.IntegerField(label=_("Luck (LK)"), min_value=0, max_value=STAT_MAX)
    rs = forms.IntegerField(label=_("Resist (RS)"), min_value=0, max_value=STAT_MAX)
    reach = forms.IntegerField(label=_("Reach"), min_value=0, max_value=STAT_MAX)

    validate_card = staticmethod(validate_card)


def card_stats(card: dict) -> dict:
    return {stat: card[stat] for stat in STATS}


class ConfigForm(forms.Form):
    who_rolls = forms.ChoiceField(
        label=_("Who rolls the dice, unless changed for a roll"),
        choices=[
            ("app", _("The app rolls (type a real die to use it instead)")),
            ("players", _("Players roll real dice and tap them in")),
        ],
        initial="app",
        widget=forms.RadioSelect,
    )
    deck = forms.IntegerField(
        label=_("Cards in each deck after the opening hand"), min_value=0, max_value=500, initial=40
    )
    hand = forms.IntegerField(label=_("Cards in each opening hand"), min_value=0, max_value=50, initial=5)
    empty_deck = forms.ChoiceField(
        label=_("How the match ends"),
        choices=[
            ("loses", _("A player who must draw from an empty deck loses (or the table declares)")),
            ("table", _("Only when the table declares a winner")),
        ],
        initial="loses",
        widget=forms.RadioSelect,
    )
    lethal_to = forms.ChoiceField(
        label=_("Where a unit goes after lethal damage"),
        choices=[
            ("discard", _("Discard pile, with its accessories")),
            ("removed", _("Removed from the game")),
        ],
        initial="discard",
        widget=forms.RadioSelect,
    )
    status_penalty = forms.ChoiceField(
        label=_("How much a status lowers its stat"),
        choices=[
            ("flat", _("1 while the unit has any counter of it (status page)")),
            ("per-counter", _("1 for each counter")),
        ],
        initial="flat",
        widget=forms.RadioSelect,
    )
    counter_cap = forms.IntegerField(
        label=_("Most Burn, Hex or Blind counters on a unit (0 = no limit; Poison is always 1)"),
        min_value=0,
        max_value=20,
        initial=0,
    )
    stat_floor = forms.ChoiceField(
        label=_("Can a total stat fall below 0?"),
        choices=[("zero", _("No, it stops at 0")), ("none", _("Yes"))],
        initial="zero",
        widget=forms.RadioSelect,
    )


# ------------------------------------------------------------------ no secret entry


NO_ENTRY = _("Lonely Star has nothing secret to enter; everything is played on the board.")


class NoEntryForm(forms.Form):
    """Lonely Star is played open: any secret entry sent here is refused."""

    def clean(self):
        raise ValidationError(NO_ENTRY)


def entry_form(match: Match, data=None, seat: int | None = None) -> NoEntryForm:
    return NoEntryForm(data)


def entry_action(form: NoEntryForm, seat: int) -> dict:
    raise ValidationError(NO_ENTRY)


def seats_to_enter(match: Match) -> list[int]:
    return []


# ------------------------------------------------------------------ board forms -> actions


def _whole(post, field: str, label: str, low: int, high: int) -> int:
    raw = (post.get(field) or "").strip()
    try:
        value = int(raw)
    except ValueError:
        raise ValidationError(_("%(label)s must be a whole number.") % {"label": label}) from None
    if not low <= value <= high:
        raise ValidationError(
            _("%(label)s must be from %(low)s to %(high)s.") % {"label": label, "low": low, "high": high}
        )
    return value


def _unit_id(post, field: str) -> int:
    return _whole(post, field, gettext("The unit"), 0, 10**9)


def _seat_of(match: Match, post, unit_field: str) -> int:
    """The acting seat: as posted, else the controller of the unit the form names."""
    if post.get("seat", "").strip():
        return _whole(post, "seat", gettext("The player"), 0, GAME.seats - 1)
    unit_id = _unit_id(post, unit_field)
    unit = next((u for u in match.state["units"] if u["id"] == unit_id), None)
    if unit is None:
        raise ValidationError(_("That unit is not in play."))
    return unit["seat"]


def _text(post, field: str, label: str, most: int) -> str:
    value = " ".join((post.get(field) or "").split())
    if not value or len(value) > most or not value.isprintable():
        raise ValidationError(_("%(label)s needs 1 to %(most)s characters.") % {"label": label, "most": most})
    return value


def _choice(post, field: str, label: str, allowed) -> str:
    value = post.get(field, "")
    if value not in allowed:
        raise ValidationError(_("Choose the %(label)s.") % {"label": label})
    return value


def _entered_card(match: Match, post) -> dict:
    """A unit card from the catalog by name, or typed in on the spot with all its stats."""
    typed = {stat: (post.get(stat) or "").strip() for stat in STATS}
    name = _text(post, "name", gettext("The unit's name"), NAME_MAX)
    if not any(typed.values()):
        card = None if "\x00" in name else Card.objects.filter(slug=SLUG, name__iexact=name).first()
        if card is None:
            raise ValidationError(
                _("No unit called “%(name)s” in the catalog: type its HP, AT, LK, RS and reach.")
                % {"name": name}
            )
        return card.as_rules_card()
    card = {"name": name}
    for stat in STATS:
        card[stat] = _whole(post, stat, STAT_NAMES[stat], 0, STAT_MAX)
    return card


def _action(match: Match, post) -> dict:
    kind = post.get("action", "")
    if kind not in ACTIONS:
        raise ValidationError(_("Lonely Star has no action “%(kind)s”.") % {"kind": kind[:40]})
    match kind:
        case "play_unit":
            return {
                "type": kind,
                "seat": _whole(post, "seat", gettext("The player"), 0, 1),
                "card": _entered_card(match, post),
            }
        case "equip":
            return {
                "type": kind,
                "seat": _seat_of(match, post, "unit"),
                "unit": _unit_id(post, "unit"),
                "accessory": _text(post, "accessory", gettext("The accessory"), 30),
            }
        case "attack":
            return {
                "type": kind,
                "seat": _seat_of(match, post, "unit"),
                "unit": _unit_id(post, "unit"),
                "target": _unit_id(post, "target"),
            }
        case "act":
            return {
                "type": kind,
                "seat": _seat_of(match, post, "unit"),
                "unit": _unit_id(post, "unit"),
                "how": _choice(post, "how", gettext("way to act"), ("move", "play")),
            }
        case "damage":
            return {
                "type": kind,
                "seat": _seat_of(match, post, "source"),
                "source": _unit_id(post, "source"),
                "target": _unit_id(post, "target"),
                "amount": _whole(post, "amount", gettext("The damage"), 0, 99),
                "ignore_resist": bool(post.get("ignore_resist")),
            }
        case "inflict":
            action = {
                "type": kind,
                "seat": _whole(post, "seat", gettext("The player"), 0, 1),
                "target": _unit_id(post, "target"),
                "status": post.get("status", ""),
                "ignore_resist": bool(post.get("ignore_resist")),
            }
            if post.get("break_accessory"):
                action["break_accessory"] = post["break_accessory"]
            return action
        case "luck_roll":
            return {"type": kind, "seat": _seat_of(match, post, "unit"), "unit": _unit_id(post, "unit")}
        case "d6" | "end_turn" | "finish_turn":
            return {"type": kind, "seat": _whole(post, "seat", gettext("The player"), 0, 1)}
        case "resist_roll":
            return {
                "type": kind,
                "seat": _seat_of(match, post, "unit"),
                "unit": _unit_id(post, "unit"),
                "status": post.get("status", ""),
            }
        case "declare_winner":
            return {"type": kind, "winner": _whole(post, "winner", gettext("The winner"), 0, 1)}
        case "define_status":
            return {
                "type": kind,
                "override": True,
                "name": _text(post, "name", gettext("The status"), 30),
                "stat": _choice(post, "stat", gettext("stat"), STATS),
            }
    return _adjustment(post)


def _adjustment(post) -> dict:
    what = _choice(post, "what", gettext("adjustment"), ADJUSTMENTS)
    action = {"type": "adjust", "override": True, "what": what}
    if what == "cards":
        return {
            **action,
            "seat": _whole(post, "seat", gettext("The player"), 0, 1),
            "source": _choice(post, "source", gettext("zone to take cards from"), ZONES),
            "target": _choice(post, "target", gettext("zone to put them in"), ZONES),
            "count": _whole(post, "count", gettext("The number of cards"), 1, 500),
        }
    action["unit"] = _unit_id(post, "unit")
    if what == "leave":
        return {**action, "to": _choice(post, "to", gettext("zone"), ZONES)}
    change = _whole(post, "change", gettext("The change"), -99, 99)
    if what == "stat":
        return {**action, "stat": _choice(post, "stat", gettext("stat"), STATS), "change": change}
    return {**action, "counter": post.get("counter", ""), "change": change}


def _dice_needed(match: Match, action: dict) -> int | None:
    """How many dice the action would roll now (0 when every check is certain), tried on a copy.

    None when the engine refuses the action: the real attempt then says why.
    """
    dice = Dice(match.seed, match.head + 1)
    try:
        GAME.apply(match.state, action, dice)
    except RuleError:
        return None
    return len(dice.rolls)


def table_action(match: Match, post) -> dict:
    """The action a board form asks for, with its dice checked against the match's roll setting."""
    action = _action(match, post)
    entered = [value.strip() for value in post.getlist("roll") if value.strip()]
    for value in entered:
        if not value.isdigit() or not 1 <= int(value) <= 6:
            message = _("A D6 shows 1 to 6; “%(value)s” is not a roll.")
            raise ValidationError(message % {"value": value[:20]})
    app_rolls = bool(post.get("app_rolls"))
    if entered and app_rolls:
        raise ValidationError(_("You typed a die and also ticked “Let the app roll”; choose one."))
    players_roll = match.state["options"]["who_rolls"] == "players"
    if not (entered or (players_roll and not app_rolls)):
        return action
    needed = _dice_needed(match, action)
    if needed is not None and len(entered) > needed:
        raise ValidationError(
            _(
                "No die is needed here (a total of 6 or more always succeeds, 0 never does, "
                "or the effect ignores Resist); clear the die field."
            )
        )
    if needed and not entered:
        raise ValidationError(
            _("In this match players roll: type the die you rolled, or tick “Let the app roll this one”.")
        )
    return action


# ------------------------------------------------------------------ the board


def _unit_view(state: dict, unit: dict) -> dict:
    stats = []
    for stat in STATS:
        value = total(state, unit, stat)
        stats.append(
            {
                "key": stat,
                "name": STAT_NAMES[stat],
                "base": unit["base"][stat],
                "total": value,
                "mod": unit["mods"][stat],
                "penalty": status_penalty(state, unit, stat),
                "changed": value != unit["base"][stat],
            }
        )
    luck, resist = total(state, unit, "lk"), total(state, unit, "rs")
    return {
        **unit,
        "id_str": str(unit["id"]),
        "stats": stats,
        "totals": {s["key"]: s["total"] for s in stats},
        "statuses_shown": [
            {
                "key": key,
                "name": state["statuses"][key]["name"],
                "count": count,
                "stat": STAT_NAMES[state["statuses"][key]["stat"]],
            }
            for key, count in unit["statuses"].items()
        ],
        "crit_certain": is_certain(luck),
        "resist_certain": is_certain(resist),
        "effect_reach": effect_reach(state, unit) if unit["statuses"].get("blind") else None,
        "poisoned": bool(unit["statuses"].get("poison")),
        "hexed": bool(unit["statuses"].get("hex")),
        "resisted": unit["id"] in state["resisted"],
    }


def _last_step(match: Match, names: list[str]) -> dict | None:
    """The step just taken with all its working, so the table sees at once what the dice did."""
    action = head_action(match)
    if action is None:
        return None
    rolls = [
        (
            gettext("a die rolled at the table") if roll["by"] == "player" else gettext("the app's die"),
            roll["value"],
        )
        for roll in action.rolls
    ]
    return {
        "seq": action.seq,
        "what": describe_action(action.payload, action.events, names),
        "lines": [line for line in (describe(event, names) for event in action.events) if line],
        "rolls": [gettext("⚄ %(who)s: %(value)s") % {"who": who, "value": value} for who, value in rolls],
        "override": bool(action.payload.get("override")),
    }


def board(match: Match) -> dict:
    state = match.state
    players = match.players()
    units = [_unit_view(state, unit) for unit in state["units"]]
    seats = []
    for seat, player in enumerate(players):
        seats.append(
            {
                "seat": seat,
                "player": player,
                "zones": [
                    {"key": zone, "name": ZONE_NAMES[zone], "count": state["players"][seat][zone]}
                    for zone in ZONES
                ],
                "units": [unit for unit in units if unit["seat"] == seat],
                "is_turn": seat == state["turn"],
            }
        )
    turn = state["turn"]
    return {
        "state": state,
        "seats": seats,
        "units": units,
        "turn_player": players[turn],
        "turn": turn,
        "opponent_units": [unit for unit in units if unit["seat"] != turn],
        "statuses": [
            {"key": key, **status, "stat_name": STAT_NAMES[status["stat"]]}
            for key, status in state["statuses"].items()
        ],
        "players_roll": state["options"]["who_rolls"] == "players",
        "stats": [(stat, STAT_NAMES[stat]) for stat in STATS],
        "zones": [(zone, ZONE_NAMES[zone]) for zone in ZONES],
        "accessories": sorted({name for unit in units for name in unit["accessories"]}),
        "end_step": state["phase"] == "end",
        "over": state["phase"] == "over",
        "catalog": Card.objects.filter(slug=SLUG),
        "last_step": _last_step(match, [player.name for player in players]),
    }


# ------------------------------------------------------------------ the log


def _check_line(event: dict) -> str:
    """A crit, Resist or Luck check as the log and the board explain it."""
    kind = {"crit": gettext("Crit roll"), "resist": gettext("Resist roll"), "luck": gettext("Luck roll")}[
        event["kind"]
    ]
    stat = gettext("Luck") if event["kind"] in ("crit", "luck") else gettext("Resist")
    params = {
        "kind": kind,
        "name": event["name"],
        "stat": stat,
        "total": event["total"],
        "roll": event["roll"],
    }
    if event["certain"] and event["success"]:
        return (
            gettext("%(kind)s for %(name)s: %(stat)s %(total)s is 6 or more, so it always succeeds (no die).")
            % params
        )
    if event["certain"]:
        return gettext("%(kind)s for %(name)s: %(stat)s %(total)s, so it cannot succeed (no die).") % params
    if event["success"]:
        return gettext("%(kind)s for %(name)s: %(roll)s against %(stat)s %(total)s: success.") % params
    return gettext("%(kind)s for %(name)s: %(roll)s against %(stat)s %(total)s: failed.") % params


WHY_MOVED = {
    "luck-mill": _("Luck over 6 mills"),
    "poison-again": _("Poisoned again"),
    "poison-cost": _("Poison's cost to act"),
    "hex-again": _("Hexed again"),
    "hex-cost": _("Hex's cost to attack"),
    "draw": _("Draw"),
    "override": _("Manual move"),
}
WHY_DAMAGE = {
    "attack": _("attack"),
    "effect": _("card effect"),
    "burn-again": _("Burned again"),
    "hex-again": _("Hexed again, too few discard cards"),
    "hex-cost": _("Hex's cost, empty discard pile"),
    "poison-again": _("Poisoned again, fewer than 2 cards in the deck"),
}


def describe(event: dict, names: list[str]) -> str:
    """One log line per engine event."""
    e = event
    match e["type"]:
        case "crit_check" | "resist_check" | "luck_check":
            line = _check_line(e)
            if e["type"] == "resist_check" and e.get("end_of_turn") is None:
                line += " " + (
                    gettext("%(status)s resisted.") if e["success"] else gettext("%(status)s applies.")
                ) % {"status": e["status"]}
            return line
        case "damage_calculated":
            if e["ignore_resist"]:
                return gettext("%(amount)s damage ignoring Resist: %(dealt)s dealt to %(target)s.") % e
            if e["crit"]:
                return gettext("Critical Damage: Resist is ignored, %(dealt)s dealt to %(target)s.") % e
            if e["resist"]:
                return gettext("%(amount)s damage - Resist %(resist)s = %(dealt)s dealt to %(target)s.") % e
            return gettext("%(amount)s damage dealt to %(target)s.") % {**e, "amount": e["dealt"]}
        case "damage_placed":
            return gettext("%(name)s: %(amount)s damage counter(s) (%(why)s), %(damage)s of %(hp)s HP.") % {
                **e,
                "why": WHY_DAMAGE[e["why"]],
            }
        case "lethal":
            return gettext(
                "%(name)s takes lethal damage (%(damage)s counters, HP %(hp)s) and goes to %(to)s."
            ) % {**e, "to": ZONE_NAMES[e["to"]]}
        case "cards_moved":
            params = {
                **e,
                "why": WHY_MOVED[e["why"]],
                "player": names[e["seat"]],
                "source": ZONE_NAMES[e["source"]],
                "target": ZONE_NAMES[e["target"]],
            }
            line = gettext("%(why)s: %(moved)s card(s) from %(player)s's %(source)s to %(target)s.") % params
            if e["moved"] < e["asked"]:
                line += " " + gettext("%(asked)s were asked for; only %(moved)s were there.") % params
            return line
        case "status_placed":
            return gettext("%(name)s gets a %(status)s counter (%(counters)s now).") % e
        case "status_capped":
            return gettext("%(name)s already holds the most %(status)s counters (%(cap)s).") % e
        case "status_removed":
            return gettext("%(name)s removes all %(counters)s %(status)s counter(s).") % e
        case "accessory_broken":
            return gettext("Burned again: %(accessory)s on %(name)s breaks and goes to the discard pile.") % e
        case "accessory_spared":
            return gettext("Burned again: the inflicting player breaks none of %(name)s's accessories.") % e
        case "attack_stopped":
            return gettext("%(name)s fell paying Hex's cost and never attacks.") % e
        case "draw_missed":
            return gettext("%(player)s must draw from an empty deck.") % {"player": names[e["seat"]]}
        case "turn_started":
            return gettext("Turn %(turn)s: %(player)s.") % {"turn": e["turn"], "player": names[e["seat"]]}
        case "match_over":
            if e["winner"] is None:
                return gettext("Both players must draw from an empty deck: a draw.")
            return gettext("%(player)s wins.") % {"player": names[e["winner"]]}
        case "d6":
            return gettext("The D6 shows %(roll)s.") % e
        case "counters_set":
            return gettext("%(name)s: %(counter)s counters %(before)s → %(after)s.") % e
        case "stat_changed":
            return gettext("%(name)s: %(stat)s %(change)+d, total now %(total)s.") % e
        case "unit_left":
            return gettext("%(name)s leaves play to %(to)s.") % {**e, "to": ZONE_NAMES[e["to"]]}
    return ""


def describe_action(action: dict, events: list[dict], names: list[str]) -> str:
    """The log title of an action."""
    seat = action.get("seat")
    player = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else ""
    first = events[0] if events else {}
    match action.get("type"):
        case "play_unit":
            c = action["card"]
            return gettext(
                "%(player)s plays %(name)s (HP %(hp)s, AT %(at)s, LK %(lk)s, RS %(rs)s, reach %(reach)s)"
            ) % {"player": player, **c}
        case "equip":
            return gettext("%(player)s equips %(accessory)s to %(name)s") % {"player": player, **first}
        case "attack":
            return gettext("%(name)s attacks %(target)s") % first
        case "act":
            verb = gettext("moves") if action["how"] == "move" else gettext("plays a card")
            return gettext("%(name)s %(verb)s") % {"name": first["name"], "verb": verb}
        case "damage":
            return gettext("Card effect from %(name)s: %(amount)s damage to %(target)s") % first
        case "inflict":
            return gettext("%(player)s inflicts %(status)s on %(target)s%(ignoring)s") % {
                "player": player,
                **first,
                "ignoring": gettext(", ignoring Resist") if first["ignore_resist"] else "",
            }
        case "luck_roll":
            return gettext("Luck roll for %(name)s: %(result)s") % {
                "name": first["name"],
                "result": gettext("success") if first["success"] else gettext("failed"),
            }
        case "d6":
            return gettext("%(player)s rolls a D6: %(roll)s") % {"player": player, "roll": first["roll"]}
        case "end_turn":
            return gettext("%(player)s ends the turn") % {"player": player}
        case "resist_roll":
            return gettext("End of turn: Resist roll for %(name)s against %(status)s") % first
        case "finish_turn":
            return gettext("Each player draws")
        case "declare_winner":
            return gettext("The table declares %(player)s the winner") % {"player": names[action["winner"]]}
        case "define_status":
            return gettext("Table status added: %(name)s lowers %(stat)s") % first
        case "adjust":
            return gettext("Manual adjustment")
    return str(action.get("type", ""))


# ------------------------------------------------------------------ statistics

CHECK_TITLES = {
    "crit": _("Crits rolled, against the number expected"),
    "resist": _("Resist rolls passed, against the number expected"),
    "luck": _("Luck rolls passed, against the number expected"),
}


def figures(matches) -> list[tuple[str, list[tuple[str, str]]]]:
    """Each player's dice against the odds: crits, Resist and Luck rolls, and how many should have passed.

    A rolled check against total T passes with chance T/6, so the number expected is the
    sum of T/6 over the rolls. Only checks where a die was rolled count: a total of 6 or
    more (or 0 or less) decides the check without one, and counting those as rolls would
    hide the dice's luck behind certainties. A check belongs to the player controlling the
    unit that rolls it (the attacker for a crit, the unit taking a status for Resist).
    """
    tallies: dict[str, dict[int, dict]] = {kind: {} for kind in CHECK_TITLES}
    applied = applied_actions(matches)
    for match in matches:
        players = {seat.position: seat.player for seat in match.seats.all()}
        controller: dict[int, int] = {}
        for action in applied[match.pk]:
            for event in action.events:
                if event["type"] == "unit_played":  # units enter play only this way
                    controller[event["unit"]] = event["seat"]
                elif event["type"] in ("crit_check", "resist_check", "luck_check") and not event["certain"]:
                    player = players[controller[event["unit"]]]
                    tally = tallies[event["kind"]].setdefault(
                        player.pk, {"name": player.name, "rolls": 0, "passed": 0, "sixths": 0}
                    )
                    tally["rolls"] += 1
                    tally["passed"] += event["success"]
                    tally["sixths"] += event["total"]  # the chance of passing, in sixths
    return [(str(title), _check_rows(tallies[kind])) for kind, title in CHECK_TITLES.items()]


def _check_rows(tallies: dict[int, dict]) -> list[tuple[str, str]]:
    rows = []
    for tally in sorted(tallies.values(), key=lambda t: t["name"].casefold()):
        rolls = tally["rolls"]
        expected = floatformat(tally["sixths"] / SIDES, 1)  # rounds half up, in the locale's format
        rows.append(
            (
                tally["name"],
                ngettext(
                    "%(passed)s of %(rolls)s roll, %(expected)s expected",
                    "%(passed)s of %(rolls)s rolls, %(expected)s expected",
                    rolls,
                )
                % {"passed": tally["passed"], "rolls": rolls, "expected": expected},
            )
        )
    return rows


def _health_left(state: dict) -> list[int]:
    """Per seat, the HP its units in play have left: total HP less damage counters (lethal ones have gone)."""
    left = [0] * len(state["players"])
    for unit in state["units"]:
        left[unit["seat"]] += total(state, unit, "hp") - unit["damage"]
    return left


def progress(match: Match) -> tuple[str, dict[str, list[int]]]:
    """The HP left on each player's units at the start and after every turn, for the match's chart.

    Lonely Star has no life total: a player is as strong as the units they hold in play.
    The stored state is only the latest, so the log is re-run from the seed (every die as
    it fell) to read the board at each turn's end. A match the table ends in mid-turn gets
    one last point for where it stopped.
    """
    game = match.game
    names = [player.name for player in match.players()]
    series: dict[str, list[int]] = {name: [] for name in names}

    def mark(state: dict) -> None:
        for name, left in zip(names, _health_left(state)):
            series[name].append(left)

    state = game.new_match(match.config, match.seed)
    mark(state)
    changed_since_mark = False
    for action in live_actions(match)[: match.head]:
        dice = Dice(match.seed, action.seq, entered_rolls(action))
        state, _events = game.apply(state, action.payload, dice)
        kind = action.payload.get("type")
        if kind == "finish_turn":
            mark(state)
            changed_since_mark = False
        elif kind != "declare_winner":
            changed_since_mark = True
    if state["phase"] == "over" and changed_since_mark:
        mark(state)
    return str(_("HP left on each player's units after each turn")), series
