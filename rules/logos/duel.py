"""A LOGOS duel: two players, secret commits each round, a reveal, effects, one battle.

A round has two phases (the game's public guide):
1. Commit: each player refills their empty card slots from their deck (at the table),
   may send one eligible card to their backup slot, and commits one card in secret,
   or declares that they have no playable card and are defenceless.
2. Battle: both cards are revealed, effects fire (defender first), the direction is
   found; then a player may call their backup card, and the table fights (or a
   player resigns). The fight ends the round.

State (plain JSON): `Duel` below, whose fields say what each key holds.

Actions:
    {"type": "commit", "seat": s, "round": n, "card": card, "backup": card or None}   secret
    {"type": "defenceless", "seat": s, "round": n}    no playable card; secret like a commit
    {"type": "call_backup", "seat": s}
    {"type": "fight"}
    {"type": "resign", "seat": s}
    {"type": "set_hp", "seat": s, "hp": n, "override": true}   a manual correction

Decisions where the rulebook and guide are silent (what they say, what we chose):
- Deadlock: "the round is instantly ended ... and no battle occurs". At the reveal no
  effect fires and nobody may call a backup. A Deadlock that appears later (after a
  Color Change or a backup call) leaves the battle phase open, and fighting then
  ends the round with no damage.
- What a Deadlock adds to the combo counters: the book adds a colour "after every
  battle" and a Deadlock has none, so by default nothing. Tables that count a
  Deadlock as a battle can set the option `deadlock_combo` (each card's colour).
- Defenceless (the guide's state whose name the copy lost): the player's slots are
  emptied (a prompt at the table), their opponent attacks whatever the classes, the
  opponent's effects still fire (those aimed at the missing card do nothing), and
  the damage is the full ATTACK: there is no DEFENSE to subtract. A defenceless
  player adds nothing to their combo counter and cannot call a backup card, which
  "replaces a card in battle" and there is none. Both defenceless: no battle.
- Counter-attack: only when the first attack deals no damage and both cards have the
  same current colour; one strike back, never a second.
- Backup slot: one card. Sending a card there is part of the secret commit and is
  revealed with the round's cards; a second card while the slot is full is refused.
  It may be called in the round it was stored, and at most once per round per player
  (the slot is then empty).
- Resignation: allowed in the battle phase, as the guide says. The resigning player
  gets a draw; by default their opponent gets the win (`resignation` "opponent-wins"),
  or, as a per-match option, the match is a draw for both ("draw").
- Healing above the starting HP: Regeneration "heals the targeted player", and the
  guide gives 100,000 as the start, not as a ceiling. We stop at the starting HP by
  default, since "heal" suggests restoring what was lost; `heal_above_start` lets a
  table that reads it otherwise go beyond.
- The outcome's score: the HP left ("100,000-0") after a knock-out, "by resignation"
  or "draw" after a resignation.
- Starting HP (`starting_hp`, 100,000 by the guide) and card slots (`card_slots`, 3:
  the number the rulebook's Add/Remove Card Slot examples use) are per-match options.
- The match ends at once when a player's HP reaches 0 (after a strike, or after a
  manual correction); HP never goes below 0.
"""

from typing import TypedDict

from ..dice import Dice
from ..engine import TABLE, Handler, Outcome, copied, seat_named
from ..errors import IllegalAction, gettext_noop
from ..options import Choice, WholeNumber, YesNo, checked_config, defaults
from . import effects
from .cards import backup_eligible, colour_of, validate_card
from .combo import check_playable, pushed

SEATS = 2
HP_MAX = 10_000_000
SLOTS_MAX = 10
RESIGNATIONS = ("opponent-wins", "draw")
NUMBER_MESSAGE = gettext_noop("%(option)s must be a whole number from %(low)s to %(high)s, not %(value)r.")
OPTIONS = {
    "starting_hp": WholeNumber(1, HP_MAX, 100_000, rule="config-starting_hp", message=NUMBER_MESSAGE),
    "card_slots": WholeNumber(1, SLOTS_MAX, 3, rule="config-card_slots", message=NUMBER_MESSAGE),
    "heal_above_start": YesNo(False, rule="config-heal_above_start"),
    "deadlock_combo": YesNo(False, rule="config-deadlock_combo"),
    "resignation": Choice(RESIGNATIONS, "opponent-wins", rule="config-resignation",
                          message=gettext_noop("A resignation gives the opponent %(allowed)s, not %(value)r.")),
}
DEFAULT_CONFIG = defaults(OPTIONS)


# ---------------------------------------------------------------- set-up


class Duel(TypedDict):
    """A duel's state: plain JSON, typed so that mypy finds a wrong key before a test runs."""

    config: dict
    """The match options (DEFAULT_CONFIG filled in)."""
    hp: list[int]
    """Hit Points per seat."""
    slots: list[int]
    """Card slots per seat."""
    combo: list[list[str]]
    """Combo counter per seat, newest colour first (at most 3)."""
    backup: list[dict | None]
    """The card in each seat's backup slot, or None."""
    round: int
    """The number of the round being played."""
    phase: str
    """"commit", "battle" or "finished"."""
    commits: list[dict | None]
    """This round's secret entries per seat: None until made, then
    {"card": card or None (defenceless), "backup": card or None}."""
    table: dict | None
    """During the battle phase: the cards in battle and their current values."""
    working: list[dict]
    """Every step of the current round so far, as events."""
    rounds: list[dict]
    """Finished rounds: {"round", "cards" (as they ended in battle), "hp" (after it), "working"}."""
    winner: int | None
    """The winning seat once the duel is over (None: a draw, or not over)."""
    ended_by: str | None
    """"knock-out" or "resignation" once over."""
    resigned: int | None
    """The seat that resigned, if one did."""


def new_match(config: dict, seed: str) -> Duel:
    """A duel before round 1: full HP, empty combo counters and backup slots."""
    config = checked_config("LOGOS", OPTIONS, config)
    return {
        "config": config,
        "hp": [config["starting_hp"]] * SEATS,
        "slots": [config["card_slots"]] * SEATS,
        "combo": [[], []],
        "backup": [None, None],
        "round": 1,
        "phase": "commit",
        "commits": [None, None],
        "table": None,
        "working": [],
        "rounds": [],
        "winner": None,
        "ended_by": None,
        "resigned": None,
    }


# ---------------------------------------------------------------- questions


def legal_actions(state: Duel) -> list[dict]:
    phase = state["phase"]
    if phase == "finished":
        return []
    corrections = [{"type": "set_hp", "seat": seat, "override": True} for seat in range(SEATS)]
    if phase == "commit":
        waiting = [seat for seat in range(SEATS) if state["commits"][seat] is None]
        return [
            {"type": kind, "seat": seat, "round": state["round"]}
            for seat in waiting
            for kind in ("commit", "defenceless")
        ] + corrections
    table = effects.in_battle(state)
    calls = [
        {"type": "call_backup", "seat": seat}
        for seat in range(SEATS)
        if state["backup"][seat] is not None and table["cards"][seat] is not None
    ]
    return calls + [{"type": "fight"}] + [{"type": "resign", "seat": seat} for seat in range(SEATS)] + corrections


def outcome(state: Duel) -> Outcome | None:
    if state["phase"] != "finished":
        return None
    winner = state["winner"]
    if state["ended_by"] == "resignation":
        return Outcome(winner=winner, score=gettext_noop("by resignation") if winner is not None else gettext_noop("draw"))
    assert winner is not None  # a knock-out always has a winner (_end_round)
    hp = state["hp"]
    return Outcome(winner=winner, score=f"{hp[winner]:,}-{hp[1 - winner]:,}")


def round_of(state: Duel) -> int | None:
    """The round under way: its commits and its fight are played in it."""
    return state["round"]


def public_action(state: Duel, action: dict) -> dict:
    """A commit (or a declared defenceless round) stays hidden until its round is revealed.

    Decided here (the rulebook is silent): a duel that ends before its round's cards are turned over (a
    player's HP set to 0 by hand in the commit phase) leaves that round's commits face down for good, as at
    the table; else the other player could end the duel to see a card the play never showed."""
    if action.get("type") not in ("commit", "defenceless"):
        return action
    round_number = action.get("round")
    revealed = isinstance(round_number, int) and (
        round_number < state["round"]
        or (round_number == state["round"] and (
            state["phase"] == "battle" or any(filed["round"] == round_number for filed in state["rounds"]))))
    if revealed:
        return action
    return {"type": "commit", "seat": action.get("seat"), "round": round_number, "hidden": True}


# ---------------------------------------------------------------- apply


def apply(state: Duel, action: dict, dice: Dice) -> tuple[Duel, list[dict]]:
    """The duel after `action`, and what happened; the given state is never changed.

    LOGOS has no chance, so `dice` is never rolled.
    """
    kind = action.get("type") if isinstance(action, dict) and isinstance(action.get("type"), str) else None
    if state["phase"] == "finished":
        raise IllegalAction("match-over", gettext_noop("The duel is over; no more actions can be taken."))
    if kind not in ACTIONS:
        raise IllegalAction("action-unknown", gettext_noop("LOGOS has no action %(kind)r."), kind=kind)
    state = copied(state)
    return state, ACTIONS[kind](state, action, dice)


def _seat(action: dict) -> int:
    seat = action.get("seat")
    if type(seat) is not int or not 0 <= seat < SEATS:
        raise IllegalAction("seat", gettext_noop("There is no seat %(value)r in this duel."), value=seat)
    return seat


def _in_phase(state: Duel, phase: str) -> None:
    if state["phase"] == phase:
        return
    if phase == "commit":
        raise IllegalAction(
            "not-commit-phase",
            gettext_noop("Round %(round)s's cards are already revealed; finish its battle first."),
            round=state["round"],
        )
    raise IllegalAction(
        "not-battle-phase",
        gettext_noop("Round %(round)s's cards are not revealed yet: both players must commit first."),
        round=state["round"],
    )


# ---------------------------------------------------------------- phase 1: commit


def _commit(state: Duel, action: dict, dice: Dice) -> list[dict]:
    _in_phase(state, "commit")
    seat = _seat(action)
    if action.get("round") != state["round"]:
        raise IllegalAction(
            "wrong-round",
            gettext_noop("This entry was made for round %(given)r, but round %(round)s is being played."),
            given=action.get("round"),
            round=state["round"],
        )
    if state["commits"][seat] is not None:
        raise IllegalAction(
            "already-committed", gettext_noop("%(seat)s has already committed a card this round."), seat=seat
        )
    if action["type"] == "defenceless":
        state["commits"][seat] = {"card": None, "backup": None}
    else:
        card = validate_card(action.get("card"))
        check_playable(card, state["combo"][seat], seat)
        backup = action.get("backup")
        if backup is not None:
            backup = _storable_backup(state, seat, validate_card(backup))
        state["commits"][seat] = {"card": card, "backup": backup}
    events = [{"type": "committed", "seat": seat}]
    if all(entry is not None for entry in state["commits"]):
        events += _record(state, _reveal(state))
    return events


def _storable_backup(state: Duel, seat: int, card: dict) -> dict:
    if not backup_eligible(card):
        raise IllegalAction(
            "backup-ineligible",
            gettext_noop("%(card)s cannot go to the backup slot: it needs SPEED over 99 (it has %(speed)s) "
                         "and no combo requirement."),
            card=card["name"],
            speed=card["speed"],
        )
    held = state["backup"][seat]
    if held is not None:
        raise IllegalAction(
            "backup-full",
            gettext_noop("%(seat)s's backup slot already holds %(card)s; it takes one card."),
            seat=seat,
            card=held["name"],
        )
    return card


# ---------------------------------------------------------------- phase 2: reveal, effects, battle


def _in_battle(card: dict | None) -> dict | None:
    return {**card, "colour": colour_of(card["class"])} if card else None


def _reveal(state: Duel) -> list[dict]:
    commits = [entry for entry in state["commits"] if entry is not None]  # both: the second commit reveals
    cards = [entry["card"] for entry in commits]
    events = [{
        "type": "revealed",
        "round": state["round"],
        "cards": cards,
        "backups": [entry["backup"] for entry in commits],
    }]
    for seat, entry in enumerate(commits):
        if entry["backup"] is not None:
            state["backup"][seat] = entry["backup"]
        if entry["card"] is None:
            events.append({"type": "defenceless", "seat": seat})
    state["commits"] = [None, None]
    state["table"] = table = {
        "cards": [_in_battle(card) for card in cards],
        "new": [True, True],
        "shield": [False, False],
    }
    effects.reset_values(table)
    found = effects.current_direction(table)
    events.append(_direction_step(table, found, "reveal"))
    if found["by"] in ("deadlock", "no-cards"):
        events += _end_round(state, battle=False, deadlock=found["by"] == "deadlock")
        return events
    events += effects.process(state)
    events.append(_direction_step(table, effects.current_direction(table), "after-effects", found))
    state["phase"] = "battle"
    return events


def _direction_step(table: dict, found: dict, stage: str, before: dict | None = None) -> dict:
    step = {
        "type": "direction",
        "stage": stage,
        **found,
        "colours": [v["colour"] if v else None for v in table["values"]],
        "speeds": [card["speed"] if card else None for card in table["cards"]],
    }
    if before is not None:
        step["changed"] = before["attacker"] != found["attacker"]
    return step


def _call_backup(state: Duel, action: dict, dice: Dice) -> list[dict]:
    _in_phase(state, "battle")
    seat = _seat(action)
    table = effects.in_battle(state)
    card = state["backup"][seat]
    if card is None:
        raise IllegalAction("no-backup", gettext_noop("%(seat)s has no card in the backup slot."), seat=seat)
    if table["cards"][seat] is None:
        raise IllegalAction(
            "backup-needs-card",
            gettext_noop("%(seat)s is defenceless this round: a backup card replaces a card in battle, "
                         "and there is none."),
            seat=seat,
        )
    before = effects.current_direction(table)
    events = [{"type": "backup_called", "seat": seat, "card": card, "replaced": table["cards"][seat]["name"]}]
    state["backup"][seat] = None
    table["cards"][seat] = _in_battle(card)
    table["new"][seat] = True
    events += effects.process(state)
    events.append(_direction_step(table, effects.current_direction(table), "after-backup", before))
    return _record(state, events)


def _fight(state: Duel, action: dict, dice: Dice) -> list[dict]:
    _in_phase(state, "battle")
    table = effects.in_battle(state)
    found = effects.current_direction(table)
    if found["by"] == "deadlock":
        events = [{"type": "no_battle", "why": "deadlock"}]
        return _record(state, events + _end_round(state, battle=False, deadlock=True))
    attacker = found["attacker"]
    defender = 1 - attacker
    events = [_strike(state, attacker, defender, counter=False)]
    values = table["values"]
    same_colour = values[defender] is not None and values[attacker]["colour"] == values[defender]["colour"]
    if events[0]["damage"] == 0 and same_colour:
        events.append(_strike(state, defender, attacker, counter=True))
    events += _end_round(state, battle=True)
    return _record(state, events)


def _strike(state: Duel, attacker: int, defender: int, counter: bool) -> dict:
    values = effects.in_battle(state)["values"]
    attack = values[attacker]["attack"]
    defense = values[defender]["defense"] if values[defender] else 0
    damage = max(0, attack - defense)
    before = state["hp"][defender]
    state["hp"][defender] = max(0, before - damage)
    return {
        "type": "strike",
        "attacker": attacker,
        "defender": defender,
        "counter": counter,
        "defenceless": values[defender] is None,
        "attack": attack,
        "defense": defense,
        "damage": damage,
        "before": before,
        "after": state["hp"][defender],
    }


def _end_round(state: Duel, battle: bool, deadlock: bool = False) -> list[dict]:
    """Colours into the combo counters, the knock-out if any, then the next round's commit phase."""
    table = effects.in_battle(state)
    events = []
    if battle or (deadlock and state["config"]["deadlock_combo"]):
        for seat in range(SEATS):
            values = table["values"][seat]
            if values is None:
                continue
            added = [values["colour"]] * (2 if table["double_combo"][seat] else 1)
            state["combo"][seat] = pushed(state["combo"][seat], added)
            events.append({"type": "combo", "seat": seat, "added": added, "counter": list(state["combo"][seat])})
    knocked_out = [seat for seat in range(SEATS) if state["hp"][seat] == 0]
    if knocked_out:
        events.append(_finish(state, winner=1 - knocked_out[0], ended_by="knock-out"))
        return events
    events.append({"type": "round_over", "round": state["round"]})
    state["phase"] = "commit"
    return events


def _finish(state: Duel, winner: int | None, ended_by: str) -> dict:
    state["phase"] = "finished"
    state["winner"] = winner
    state["ended_by"] = ended_by
    return {"type": "duel_over", "winner": winner, "ended_by": ended_by, "hp": list(state["hp"])}


def _record(state: Duel, events: list[dict]) -> list[dict]:
    """Keep the round's working; when the round is over, file it with its cards and start the next."""
    state["working"] += copied(events)
    if state["phase"] == "battle":
        return events
    table = effects.in_battle(state)
    state["rounds"].append({
        "round": state["round"],
        "cards": [_printed(card) for card in table["cards"]],
        "hp": list(state["hp"]),
        "working": state["working"],
    })
    state["working"] = []
    state["table"] = None
    if state["phase"] == "commit":
        state["round"] += 1
    return events


def _printed(card: dict | None) -> dict | None:
    return {key: value for key, value in card.items() if key != "colour"} if card else None


def _resign(state: Duel, action: dict, dice: Dice) -> list[dict]:
    _in_phase(state, "battle")
    seat = _seat(action)
    state["resigned"] = seat
    winner = 1 - seat if state["config"]["resignation"] == "opponent-wins" else None
    events = [{"type": "resigned", "seat": seat}, _finish(state, winner, "resignation")]
    return _record(state, events)


def _set_hp(state: Duel, action: dict, dice: Dice) -> list[dict]:
    seat = _seat(action)
    if action.get("override") is not True:
        raise IllegalAction(
            "override-only", gettext_noop("Setting HP by hand is a manual override and must be marked as one.")
        )
    hp = action.get("hp")
    if isinstance(hp, bool) or not isinstance(hp, int) or not 0 <= hp <= HP_MAX:
        raise IllegalAction(
            "hp-range", gettext_noop("HP must be a whole number from 0 to %(high)s, not %(value)r."),
            high=f"{HP_MAX:,}", value=hp,
        )
    events = [{"type": "hp_set", "seat": seat, "before": state["hp"][seat], "after": hp}]
    state["hp"][seat] = hp
    if hp == 0:
        events.append(_finish(state, winner=1 - seat, ended_by="knock-out"))
        if state["table"] is not None:
            return _record(state, events)
    elif state["phase"] == "battle":
        state["working"] += copied(events)
    return events


ACTIONS: dict[str, Handler[Duel]] = {
    "commit": _commit,
    "defenceless": _commit,
    "call_backup": _call_backup,
    "fight": _fight,
    "resign": _resign,
    "set_hp": _set_hp,
}


def authority(state: Duel, action: dict) -> int | str:
    """Commits, backups, resignations and a seat's HP correction belong to that seat. The fight
    is the table's: pressing it ends the other side's chance to call a backup card."""
    if isinstance(action, dict) and action.get("type") == "fight":
        return TABLE
    return seat_named(state, action)
