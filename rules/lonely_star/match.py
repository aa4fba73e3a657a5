"""A Lonely Star match: two players, their zones, their units in play, turns, and the table's overrides.

State (plain JSON): `MatchState` in state.py, whose fields say what each key holds.

Actions (every one names the acting `seat`, except the table's overrides and a declared winner):
    play_unit   {"card": {name, hp, at, lk, rs, reach}}     a card from the hand enters play
    equip       {"unit", "accessory"}                      an accessory from the hand onto a unit
    attack      {"unit", "target"}                         the turn player's unit attacks an opposing unit
    act         {"unit", "how": "move" | "play"}           a unit moves or plays a card (Poison's cost)
    damage      {"source", "target", "amount", "ignore_resist"}      damage from a card effect
    inflict     {"target", "status", "ignore_resist", "break_accessory"}   a status from a card effect
    luck_roll   {"unit"}                                   a Luck roll for a card effect
    d6          {}                                         a plain D6 for whatever the table needs
    end_turn    {}                                         begin the end of the turn
    resist_roll {"unit", "status"}                         end-of-turn Resist: on success clear one status
    finish_turn {}                                         each player draws; the other player's turn begins
    declare_winner {"winner": seat}                        the table says who won
    define_status  {"name", "stat", "override": true}      a status the public rules do not list
    adjust      {"what": ..., "override": true}            manual changes for effects the engine lacks:
                  "counters": unit, counter ("damage" or a status), change (+/-)
                  "stat":     unit, stat, change (a modifier on top of the base)
                  "cards":    seat, source, target (zones), count
                  "leave":    unit, to (a zone): the unit leaves play with its accessories

Decisions where the rulebook is silent (the others sit in units, statuses, combat and rolls):
- Turns: Player 1 (seat 0) goes first; attacks, moves and ending the turn are for the
  player whose turn it is. Card effects (damage, statuses, Luck rolls) may come from
  either player at any time before the end of the turn, since cards can answer cards.
- Playing a unit or an accessory takes a card from the hand; with an empty hand it is
  refused (fix the counts with a manual move first), so the counts stay honest.
- End of turn: the rulebook's order is kept: first the Resist rolls ("once each", so a
  unit rolls at most once per end step; the status to clear is named with the roll),
  then each player draws one card, the turn player first. The rulebook says each player
  "may draw"; we draw for both, since an optional draw would make an empty deck harmless
  (a table that skips a draw moves the card back with a manual move).
- Acting: `act` records a unit moving or playing a card and pays Poison's cost; the
  card itself is tracked by its own action (a unit, an accessory) or a manual move.
- Starting counts: the rules publish no deck size or opening hand, so they are
  per-match options (deck after the opening hand: 40, hand: 5, both changeable).
- How a match ends: the rules publish no win condition. The table may always declare a
  winner. By default (`empty_deck: "loses"`) a player who must draw from an empty deck
  loses, as the milling rules (Luck over 6, Poison) only matter if a deck can run out;
  both at once is a draw. `empty_deck: "table"` leaves the end to the table alone and an
  empty deck just draws nothing.
"""

from ..dice import Dice
from ..engine import TABLE, Handler, Outcome, copied, seat_named
from ..errors import IllegalAction, gettext_noop
from ..options import Choice, WholeNumber, checked_config, defaults
from . import combat, statuses
from .rolls import check
from .state import MatchState
from .units import STAT_NAMES, STATS, find_unit, is_name, new_unit, settle_lethal, total, validate_card
from .zones import ZONES, move_cards

SEATS = 2
OPTIONS = {
    "who_rolls": Choice(("app", "players"), "app"),
    "deck": WholeNumber(0, 500, 40),
    "hand": WholeNumber(0, 50, 5),
    "lethal_to": Choice(("discard", "removed"), "discard"),
    "stat_floor": Choice(("zero", "none"), "zero"),
    "status_penalty": Choice(("flat", "per-counter"), "flat"),
    "counter_cap": WholeNumber(0, 20, 0),
    "empty_deck": Choice(("loses", "table"), "loses"),
}
DEFAULT_CONFIG = defaults(OPTIONS)
AMOUNT_MAX = 99
COUNT_MAX = 500


def new_match(config: dict, seed: str) -> MatchState:
    """Both players with their starting counts, no units in play, Player 1 to act."""
    options = checked_config("Lonely Star", OPTIONS, config)
    return {
        "options": options,
        "statuses": copied(statuses.BUILT_IN),
        "players": [
            {"deck": options["deck"], "hand": options["hand"], "discard": 0, "removed": 0}
            for _ in range(SEATS)
        ],
        "units": [],
        "next_unit": 1,
        "turn": 0,
        "turn_number": 1,
        "phase": "main",
        "resisted": [],
        "winner": None,
        "ended": None,
    }


# ------------------------------------------------------------------ reading an action's fields


def _seat(action: dict, key: str = "seat") -> int:
    seat = action.get(key)
    if type(seat) is not int or not 0 <= seat < SEATS:
        raise IllegalAction("seat", gettext_noop("There is no seat %(value)r in this match."), value=seat)
    return seat


def _number(action: dict, key: str, low: int, high: int) -> int:
    value = action.get(key)
    if type(value) is not int or not low <= value <= high:
        raise IllegalAction(
            "number",
            gettext_noop("%(field)s must be a whole number from %(low)s to %(high)s, not %(value)r."),
            field=key,
            low=low,
            high=high,
            value=value,
        )
    return value


def _flag(action: dict, key: str) -> bool:
    value = action.get(key, False)
    if not isinstance(value, bool):
        raise IllegalAction("flag", gettext_noop("%(field)s must be true or false."), field=key)
    return value


def _zone(action: dict, key: str) -> str:
    value = action.get(key)
    if value not in ZONES:
        raise IllegalAction(
            "zone",
            gettext_noop("%(value)r is not a zone; zones are deck, hand, discard and removed."),
            value=value,
        )
    return value


def _in_play(state: MatchState, action: dict, key: str) -> dict:
    """The unit the action names, which must be in play."""
    unit_id = action.get(key)
    unit = find_unit(state, unit_id) if type(unit_id) is int else None
    if unit is None:
        raise IllegalAction("not-in-play", gettext_noop("Unit %(unit)r is not in play."), unit=unit_id)
    return unit


def _own(state: MatchState, action: dict, key: str, seat: int) -> dict:
    """A unit in play that the acting seat controls."""
    unit = _in_play(state, action, key)
    if unit["seat"] != seat:
        raise IllegalAction(
            "not-yours", gettext_noop("%(unit)s is not controlled by %(seat)s."), unit=unit["name"], seat=seat
        )
    return unit


def _turn_player(state: MatchState, seat: int) -> None:
    if seat != state["turn"]:
        raise IllegalAction("not-your-turn", gettext_noop("It is not %(seat)s's turn."), seat=seat)


def _phase(state: MatchState, phase: str) -> None:
    if state["phase"] != phase:
        if phase == "main":
            raise IllegalAction(
                "turn-ending",
                gettext_noop("The turn is ending: only end-of-turn Resist rolls and the draw are left."),
            )
        raise IllegalAction("turn-not-ending", gettext_noop("End the turn first."))


def _take_from_hand(state: MatchState, seat: int) -> None:
    if state["players"][seat]["hand"] == 0:
        raise IllegalAction(
            "hand-empty",
            gettext_noop("%(seat)s's hand is empty; correct the hand count with a manual move first."),
            seat=seat,
        )
    state["players"][seat]["hand"] -= 1


# ------------------------------------------------------------------ the actions


def _play_unit(state: MatchState, action: dict, dice: Dice) -> list[dict]:
    seat = _seat(action)
    _phase(state, "main")
    card = validate_card(action.get("card"))
    _take_from_hand(state, seat)
    unit = new_unit(state["next_unit"], seat, card)
    state["next_unit"] += 1
    state["units"].append(unit)
    return [{"type": "unit_played", "seat": seat, "unit": unit["id"], "card": card}]


def _equip(state: MatchState, action: dict, dice: Dice) -> list[dict]:
    seat = _seat(action)
    _phase(state, "main")
    unit = _own(state, action, "unit", seat)
    name = action.get("accessory")
    if not is_name(name, statuses.NAME_MAX):
        raise IllegalAction(
            "accessory-name",
            gettext_noop("An accessory needs a name of 1 to %(most)s characters."),
            most=statuses.NAME_MAX,
        )
    name = " ".join(name.split())
    if name in unit["accessories"]:
        raise IllegalAction(
            "accessory-twice",
            gettext_noop("%(unit)s already has %(accessory)s equipped."),
            unit=unit["name"],
            accessory=name,
        )
    _take_from_hand(state, seat)
    unit["accessories"].append(name)
    return [{"type": "accessory_equipped", "unit": unit["id"], "name": unit["name"], "accessory": name}]


def _attack(state: MatchState, action: dict, dice: Dice) -> list[dict]:
    seat = _seat(action)
    _turn_player(state, seat)
    _phase(state, "main")
    attacker = _own(state, action, "unit", seat)
    target = _in_play(state, action, "target")
    if target["seat"] == seat:
        raise IllegalAction(
            "attack-own",
            gettext_noop("%(unit)s cannot attack %(target)s: both are yours."),
            unit=attacker["name"],
            target=target["name"],
        )
    events = [{"type": "attack", "unit": attacker["id"], "name": attacker["name"], "target": target["name"]}]
    combat.attack(state, attacker, target, dice, events)
    return events


def _act(state: MatchState, action: dict, dice: Dice) -> list[dict]:
    seat = _seat(action)
    _phase(state, "main")
    unit = _own(state, action, "unit", seat)
    how = action.get("how")
    if how not in ("move", "play"):
        raise IllegalAction(
            "act-how", gettext_noop("A unit acts by moving or playing a card, not %(how)r."), how=how
        )
    if how == "move":
        _turn_player(state, seat)
    events = [{"type": "acted", "unit": unit["id"], "name": unit["name"], "how": how}]
    statuses.pay_acting_costs(state, unit, attacking=False, events=events)
    return events


def _damage(state: MatchState, action: dict, dice: Dice) -> list[dict]:
    seat = _seat(action)
    _phase(state, "main")
    source = _own(state, action, "source", seat)
    target = _in_play(state, action, "target")
    amount = _number(action, "amount", 0, AMOUNT_MAX)
    ignore_resist = _flag(action, "ignore_resist")
    events = [
        {
            "type": "effect",
            "unit": source["id"],
            "name": source["name"],
            "target": target["name"],
            "amount": amount,
            "ignore_resist": ignore_resist,
        }
    ]
    combat.deal_damage(state, source, target, amount, ignore_resist, dice, events, "effect")
    return events


def _inflict(state: MatchState, action: dict, dice: Dice) -> list[dict]:
    _seat(action)
    _phase(state, "main")
    target = _in_play(state, action, "target")
    key = statuses.status_key(state, action.get("status"))
    ignore_resist = _flag(action, "ignore_resist")
    break_accessory = action.get("break_accessory")
    statuses.check_break_choice(target, key, break_accessory)
    events = [
        {
            "type": "inflict",
            "target": target["name"],
            "status": state["statuses"][key]["name"],
            "ignore_resist": ignore_resist,
        }
    ]
    statuses.inflict(state, target, key, ignore_resist, break_accessory, dice, events)
    return events


def _luck_roll(state: MatchState, action: dict, dice: Dice) -> list[dict]:
    seat = _seat(action)
    unit = _own(state, action, "unit", seat)
    result = check(dice, total(state, unit, "lk"), "luck", unit["name"])
    return [{"type": "luck_check", "unit": unit["id"], "name": unit["name"], **result}]


def _d6(state: MatchState, action: dict, dice: Dice) -> list[dict]:
    seat = _seat(action)
    return [{"type": "d6", "seat": seat, "roll": dice.roll(6, "plain D6")}]


def _end_turn(state: MatchState, action: dict, dice: Dice) -> list[dict]:
    seat = _seat(action)
    _turn_player(state, seat)
    _phase(state, "main")
    state["phase"], state["resisted"] = "end", []
    return [{"type": "turn_ending", "seat": seat}]


def _resist_roll(state: MatchState, action: dict, dice: Dice) -> list[dict]:
    seat = _seat(action)
    _turn_player(state, seat)
    _phase(state, "end")
    unit = _own(state, action, "unit", seat)
    if unit["id"] in state["resisted"]:
        raise IllegalAction(
            "resisted-once",
            gettext_noop("%(unit)s has already rolled Resist this end of turn."),
            unit=unit["name"],
        )
    key = statuses.status_key(state, action.get("status"))
    if not unit["statuses"].get(key):
        raise IllegalAction(
            "no-such-counter",
            gettext_noop("%(unit)s has no %(status)s counters to remove."),
            unit=unit["name"],
            status=state["statuses"][key]["name"],
        )
    state["resisted"].append(unit["id"])
    events: list[dict] = []
    statuses.end_of_turn_resist(state, unit, key, dice, events)
    return events


def _finish_turn(state: MatchState, action: dict, dice: Dice) -> list[dict]:
    seat = _seat(action)
    _turn_player(state, seat)
    _phase(state, "end")
    events: list[dict] = []
    decked = []
    for drawer in (seat, 1 - seat):
        if state["players"][drawer]["deck"]:
            move_cards(state, drawer, "deck", "hand", 1, events, "draw")
        else:
            decked.append(drawer)
            events.append({"type": "draw_missed", "seat": drawer})
    if decked and state["options"]["empty_deck"] == "loses":
        state["phase"] = "over"
        state["winner"] = None if len(decked) == SEATS else 1 - decked[0]
        state["ended"] = "deck-out"
        events.append({"type": "match_over", "winner": state["winner"], "ended": "deck-out"})
        return events
    state["turn"], state["phase"], state["resisted"] = 1 - seat, "main", []
    state["turn_number"] += 1
    events.append({"type": "turn_started", "seat": state["turn"], "turn": state["turn_number"]})
    return events


def _declare_winner(state: MatchState, action: dict, dice: Dice) -> list[dict]:
    winner = _seat(action, "winner")
    state["phase"], state["winner"], state["ended"] = "over", winner, "declared"
    return [{"type": "match_over", "winner": winner, "ended": "declared"}]


def _define_status(state: MatchState, action: dict, dice: Dice) -> list[dict]:
    _override(action)
    return statuses.define_status(state, action.get("name"), action.get("stat"))


def _override(action: dict) -> None:
    if action.get("override") is not True:
        raise IllegalAction(
            "override-flag", gettext_noop("A manual adjustment must be marked as an override for the log.")
        )


def _adjust(state: MatchState, action: dict, dice: Dice) -> list[dict]:
    _override(action)
    what = action.get("what")
    events: list[dict] = []
    if what == "cards":
        seat = _seat(action)
        source, target = _zone(action, "source"), _zone(action, "target")
        if source == target:
            raise IllegalAction("zone-same", gettext_noop("Cards must move to a different zone."))
        move_cards(state, seat, source, target, _number(action, "count", 1, COUNT_MAX), events, "override")
        return events
    unit = _in_play(state, action, "unit")
    if what == "counters":
        change = _number(action, "change", -AMOUNT_MAX, AMOUNT_MAX)
        counter = action.get("counter")
        if counter == "damage":
            key, have = "damage", unit["damage"]
        else:
            key = statuses.status_key(state, counter)
            have = unit["statuses"].get(key, 0)
        after = have + change
        if change == 0 or after < 0:
            raise IllegalAction(
                "counter-change",
                gettext_noop("%(unit)s has %(have)s damage counters; it cannot change by %(change)s.")
                if key == "damage" else
                gettext_noop("%(unit)s has %(have)s %(counter)s counters; it cannot change by %(change)s."),
                unit=unit["name"],
                have=have,
                counter=counter,
                change=change,
            )
        cap = statuses.counter_cap(state, key) if key != "damage" else None
        if cap is not None and after > cap:
            raise IllegalAction(
                "counter-cap",
                gettext_noop("%(status)s holds at most %(cap)s counters on a unit."),
                status=state["statuses"][key]["name"],
                cap=cap,
            )
        if key == "damage":
            unit["damage"] = after
        elif after:
            unit["statuses"][key] = after
        else:
            unit["statuses"].pop(key, None)
        events.append(
            {
                "type": "counters_set",
                "unit": unit["id"],
                "name": unit["name"],
                "counter": key if key == "damage" else state["statuses"][key]["name"],
                "before": have,
                "after": after,
            }
        )
    elif what == "stat":
        stat = action.get("stat")
        if stat not in STATS:
            raise IllegalAction(
                "stat-unknown",
                gettext_noop("A unit's stats are HP, AT, LK, RS and Reach, not %(stat)r."),
                stat=stat,
            )
        change = _number(action, "change", -AMOUNT_MAX, AMOUNT_MAX)
        if change == 0:
            raise IllegalAction(
                "stat-change", gettext_noop("A stat change must add or take away at least 1.")
            )
        unit["mods"][stat] += change
        events.append(
            {
                "type": "stat_changed",
                "unit": unit["id"],
                "name": unit["name"],
                "stat": STAT_NAMES[stat],
                "change": change,
                "total": total(state, unit, stat),
            }
        )
    elif what == "leave":
        to = _zone(action, "to")
        state["units"].remove(unit)
        state["players"][unit["seat"]][to] += 1 + len(unit["accessories"])
        events.append(
            {"type": "unit_left", "unit": unit["id"], "name": unit["name"], "seat": unit["seat"], "to": to}
        )
    else:
        raise IllegalAction(
            "adjust-unknown", gettext_noop("There is no manual adjustment %(what)r."), what=what
        )
    return events


ACTIONS: dict[str, Handler[MatchState]] = {
    "play_unit": _play_unit,
    "equip": _equip,
    "attack": _attack,
    "act": _act,
    "damage": _damage,
    "inflict": _inflict,
    "luck_roll": _luck_roll,
    "d6": _d6,
    "end_turn": _end_turn,
    "resist_roll": _resist_roll,
    "finish_turn": _finish_turn,
    "declare_winner": _declare_winner,
    "define_status": _define_status,
    "adjust": _adjust,
}


def apply(state: MatchState, action: dict, dice: Dice) -> tuple[MatchState, list[dict]]:
    """The match after `action`, and what happened; the given state is never changed."""
    kind = action.get("type") if isinstance(action, dict) else None
    if state["phase"] == "over":
        raise IllegalAction("match-over", gettext_noop("The match is over; no more actions can be taken."))
    if not isinstance(kind, str) or kind not in ACTIONS:
        raise IllegalAction("action-unknown", gettext_noop("Lonely Star has no action %(kind)r."), kind=kind)
    state = copied(state)
    events = ACTIONS[kind](state, action, dice)
    settle_lethal(state, events)
    return state, events


# ------------------------------------------------------------------ asking about the match


def legal_actions(state: MatchState) -> list[dict]:
    """Every kind of action allowed now, with its fixed parameters (units, targets, statuses)."""
    if state["phase"] == "over":
        return []
    turn = state["turn"]
    seats = range(SEATS)
    units = state["units"]
    table = [{"type": "declare_winner", "winner": seat} for seat in seats]
    table.append({"type": "define_status", "override": True})
    table += [{"type": "adjust", "override": True, "what": "cards", "seat": seat} for seat in seats]
    for unit in units:
        table += [
            {"type": "adjust", "override": True, "what": what, "unit": unit["id"]}
            for what in ("counters", "stat", "leave")
        ]
    rolls = [{"type": "d6", "seat": seat} for seat in seats]
    rolls += [{"type": "luck_roll", "seat": unit["seat"], "unit": unit["id"]} for unit in units]
    if state["phase"] == "end":
        resist = [
            {"type": "resist_roll", "seat": turn, "unit": unit["id"], "status": key}
            for unit in units
            if unit["seat"] == turn and unit["id"] not in state["resisted"]
            for key in unit["statuses"]
        ]
        return resist + [{"type": "finish_turn", "seat": turn}] + rolls + table
    actions = []
    for unit in units:
        payable = not (unit["statuses"].get("poison") and state["players"][unit["seat"]]["deck"] == 0)
        if unit["seat"] == turn and payable:
            actions += [
                {"type": "attack", "seat": turn, "unit": unit["id"], "target": other["id"]}
                for other in units
                if other["seat"] != turn
            ]
            actions.append({"type": "act", "seat": turn, "unit": unit["id"], "how": "move"})
        if payable:
            actions.append({"type": "act", "seat": unit["seat"], "unit": unit["id"], "how": "play"})
        actions += [
            {"type": "damage", "seat": unit["seat"], "source": unit["id"], "target": other["id"]}
            for other in units
        ]
        actions += [
            {"type": "inflict", "seat": seat, "target": unit["id"], "status": key}
            for seat in seats
            for key in state["statuses"]
        ]
        if state["players"][unit["seat"]]["hand"]:
            actions.append({"type": "equip", "seat": unit["seat"], "unit": unit["id"]})
    actions += [{"type": "play_unit", "seat": seat} for seat in seats if state["players"][seat]["hand"]]
    actions.append({"type": "end_turn", "seat": turn})
    return actions + rolls + table


def outcome(state: MatchState) -> Outcome | None:
    if state["phase"] != "over":
        return None
    if state["ended"] == "declared":
        return Outcome(winner=state["winner"], score=gettext_noop("by table call"))
    # Scores in words are marked for translation; the pages translate them (tracker/matches/numbers.py).
    decked_out = gettext_noop("by deck-out") if state["winner"] is not None else gettext_noop("both decked out")
    return Outcome(winner=state["winner"], score=decked_out)


def round_of(state: MatchState) -> int | None:
    """The turn under way, counted from the first player's first turn."""
    return state["turn_number"]


def public_action(state: MatchState, action: dict) -> dict:
    """Nothing in Lonely Star is secret from the table: every action is shown as it is."""
    return action


def authority(state: MatchState, action: dict) -> int | str:
    """Every turn action names its seat. A manual adjustment belongs to the side whose unit or
    cards it changes; a declared winner and a new table status are the table's."""
    if not isinstance(action, dict):
        return TABLE
    if action.get("type") == "adjust" and "unit" in action:
        unit_id = action.get("unit")
        unit = find_unit(state, unit_id) if type(unit_id) is int else None
        return unit["seat"] if unit else TABLE
    if action.get("type") in ("declare_winner", "define_status"):
        return TABLE
    return seat_named(state, action)
