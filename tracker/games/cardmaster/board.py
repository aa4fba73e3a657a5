"""What the Cardmaster board shows: both teams, every card's HP, gems, types and status,
whose possession it is, which cards still move, and each move's price and why it is unavailable.

Which moves a card may make, with which targets, and why not, is the engine's answer
(rules/cardmaster/preview.py); this module only puts it in words.
"""

from django.utils.translation import npgettext, pgettext, pgettext_lazy

from rules.cardmaster import gems as gem_rules
from rules.cardmaster import moves as move_rules
from rules.cardmaster import preview
from rules.cardmaster.ai import ai_seat, faction_power, hints_allowed
from rules.cardmaster.damage import FACTOR_TEXT, attack_type
from rules.cardmaster.fighters import alive, displayed_gems, max_hp, stat
from rules.cardmaster.gems import MOVE_LABELS
from rules.cardmaster.match import ACTIVE_SLOTS, phase
from rules.cardmaster.moves import ATTACKS, spc_boost
from rules.cardmaster.mvp import WEIGHTS, mvps
from rules.cardmaster.numbers import percent_text
from rules.cardmaster.overrides import COUNTER_MAX
from rules.cardmaster.statuses import backfire_chance, proc_chance, top_face
from rules.cardmaster.typechart import TYPE_SYMBOLS
from tracker.matches.numbers import decimal
from tracker.matches.services import explain, head_action

from ...models import Match
from ..common import dice_needed
from .forms import STATUS_LABELS
from .narration import DONE_LABELS, STAT_NAMES, describe, multiplier_text, type_label
from .showdown import ai_to_move, recent_steps

LEVEL_LABELS = {
    "easy": pgettext_lazy("cardmaster", "easy"),
    "normal": pgettext_lazy("cardmaster", "normal"),
    "hard": pgettext_lazy("cardmaster", "hard"),
}
STATUS_SYMBOLS = {"overcook": "♨", "undershock": "⇣", "brainlock": "⊘", "gridfreeze": "‖", "souldrift": "∿"}


def _types(card: dict, type_names: list[str]) -> list[str]:
    return [type_label(card["type1"], type_names[card["type1"] - 1]),
            type_label(card["type2"], type_names[card["type2"] - 1])]


def _status(card: dict) -> dict | None:
    status = card["status"]
    if status is None:
        return None
    if status["turns"] is None:
        left = pgettext("cardmaster", "until it falls")
    else:
        left = npgettext("cardmaster", "%(turns)s turn left", "%(turns)s turns left", status["turns"]) % {
            "turns": status["turns"]
        }
    return {"symbol": STATUS_SYMBOLS[status["name"]], "name": STATUS_LABELS[status["name"]], "left": left,
            "strength": decimal(percent_text(status["strength"]))}


def _why(error, players) -> str:
    """Why a move cannot be made, from the engine's refusal; a gem shortfall in the board's own short words."""
    if error.rule == "gems-short":
        return (
            pgettext("cardmaster", "Needs %(shown)s shown: %(card)s shows %(has)s, raided pool %(raided)s.")
            % error.params
        )
    return explain(error, players)


def _on_d100(chance: int) -> str:
    """The d100 faces a chance in tenths of a percent lands on (at most the chance): 55 -> "1–5 (5.5%)"."""
    return pgettext("cardmaster", "1–%(top)s (%(percent)s%%)") % {
        "top": top_face(chance),
        "percent": decimal(percent_text(chance)),
    }


def _risks(card: dict) -> dict[str, str]:
    """For A2 and A3, what the d100 rolls must show, known before the move so real dice can be rolled:
    the backfire roll first, then (no backfire) the status roll. Empty for a card that inflicts nothing."""
    if card["inflicts"] == "none":
        return {}
    backfire, status = _on_d100(backfire_chance(card["tier"], stat(card, "spc"))), STATUS_LABELS[card["inflicts"]]
    return {
        move: pgettext("cardmaster", "d100: backfire on %(backfire)s; if not, %(status)s on %(proc)s")
        % {"backfire": backfire, "status": status, "proc": _on_d100(proc_chance(move, card["tier"]))}
        for move in ("a2", "a3")
    }


def _moves(match: Match, card: dict) -> dict[str, dict]:
    """Every move of a card that may still move, by move: its button, what it costs and needs, the legal
    actions it offers (one per choice), and why it is unavailable."""
    types = _types(card, match.state["config"]["type_names"])
    details = {
        "a1": pgettext("cardmaster", "ATK × %(f)s · %(t)s")
        % {"f": decimal(FACTOR_TEXT["a1"]), "t": types[0]},
        "a2": pgettext("cardmaster", "ATK × %(f)s · %(t)s")
        % {"f": decimal(FACTOR_TEXT["a2"]), "t": types[1]},
        "a3": pgettext("cardmaster", "ATK × %(f)s · better of %(a)s / %(b)s")
        % {"f": decimal(FACTOR_TEXT["a3"]), "a": types[0], "b": types[1]},
        "stack": npgettext(
            "cardmaster", "+%(n)s gem, uses the move", "+%(n)s gems, uses the move", gem_rules.STACK_GAIN
        )
        % {"n": gem_rules.STACK_GAIN},
        "spc": pgettext("cardmaster", "permanent boost, uses the move"),
        "revive": pgettext("cardmaster", "a fallen ally returns at %(percent)s%% HP")
        % {"percent": decimal(percent_text(move_rules.REVIVE_HP))},
        "shift": pgettext("cardmaster", "swap with a reserve card; it cannot move this possession"),
    }
    rows = {}
    risks = _risks(card)
    for option in preview.moves(match.state, card["id"]):
        move, cost, refused = option["move"], option["cost"], option["refusal"]
        price = npgettext("cardmaster", "%(n)s gem", "%(n)s gems", cost) % {"n": cost} if cost else (
            pgettext("cardmaster", "free") if move in ATTACKS else "")
        rows[move] = {"value": move, "label": pgettext("cardmaster", "Shift") if move == "shift" else MOVE_LABELS[move],
                      "detail": " · ".join(part for part in (price, details[move]) if part),
                      "why": _why(refused, match.players()) if refused else "", "enabled": not refused,
                      "risk": risks.get(move, ""),
                      "actions": option["actions"], "nobody": refused is not None and refused.rule.endswith("-nothing")}
    return rows


def _card(match: Match, card: dict) -> dict:
    state = match.state
    cards = state["cards"]
    in_possession = state["possession"] == card["seat"] and phase(state) == "play"
    active = card["id"] in state["teams"][card["seat"]]["active"]
    done = state["done"].get(card["id"]) if in_possession else None
    can_move = in_possession and active and done is None
    view = {
        "id": card["id"],
        "seat": card["seat"],
        "name": card["name"],
        "hp": card["hp"],
        "max_hp": max_hp(card),
        # The HP meter turns amber below half and red below a quarter.
        "hp_low": max_hp(card) // 4,
        "hp_high": max_hp(card) // 2,
        "gems": displayed_gems(card),
        "stack": card["gems"],
        "types": _types(card, state["config"]["type_names"]),
        "tier": card["tier"],
        "inflicts": STATUS_LABELS[card["inflicts"]],
        "stats": [(STAT_NAMES[name], stat(card, name), stat(card, name) - card["base"][name])
                  for name in ("spd", "def", "atk", "spc")],
        "status": _status(card),
        "risen": card["risen"],
        "in_possession": in_possession and active,
        "done": DONE_LABELS[done] if done else "",
        "can_move": can_move,
        "deposit": in_possession and active and bool(preview.deposits(state, card["id"])),
        "ai": card["seat"] == ai_seat(state["config"]),
    }
    if not can_move:
        return view
    moves = _moves(match, card)
    spc = moves.pop("spc")
    # Attacks are offered only when there is someone to attack; the rest show why they are greyed out.
    # Each row as its button shows it (the engine's actions stay here): a card's kept part (regions.py) is
    # compared by what it shows, and the less it holds the cheaper that is.
    # With every card active (3 a side) there is never a reserve to Shift with: the board says so once.
    no_reserve = state["config"]["size"] <= ACTIVE_SLOTS
    view["moves"] = [{key: value for key, value in row.items() if key != "actions"}
                     for move, row in moves.items()
                     if not (move in ATTACKS and row["nobody"]) and not (move == "shift" and no_reserve)]
    view["targets"] = [{
        "id": target["id"], "name": target["name"], "hp": target["hp"],
        "odds": " · ".join(f"{m.upper()} ×{multiplier_text(str(attack_type(card, target, m)[1]))}" for m in ATTACKS),
    } for target in (cards[action["target"]] for action in moves["a1"]["actions"])]
    # Roll fields only where the engine would roll: an A2 or A3 tried on a copy asks for dice.
    view["rolls"] = any(
        dice_needed(match, moves[move]["actions"][0]) for move in ("a2", "a3") if moves[move]["actions"]
    )
    view["backfire_on"] = _on_d100(backfire_chance(card["tier"], stat(card, "spc")))
    view["spc"] = {"amount": spc_boost(card), "why": spc["why"],
                   "stats": [(action["stat"], STAT_NAMES[action["stat"]]) for action in spc["actions"]]}
    view["reserve"] = [{"id": bench["id"], "name": bench["name"], "shown": displayed_gems(bench)}
                       for bench in (cards[action["reserve"]] for action in moves["shift"]["actions"])]
    view["fallen"] = [{"id": ally["id"], "name": ally["name"]}
                      for ally in (cards[action["target"]] for action in moves["revive"]["actions"])]
    return view


def _team(match: Match, seat: int, player) -> dict:
    state = match.state
    team, cards = state["teams"][seat], state["cards"]
    active = [_card(match, cards[card_id]) for card_id in team["active"] if card_id]
    # Only the first card still to move shows its moves unfolded, and it comes first: the page stays
    # short on a phone, and each move of a possession is tapped at the same place on the screen.
    ready = [view for view in active if view["can_move"]]
    if ready:
        ready[0]["open"] = True
        active.remove(ready[0])
        active.insert(0, ready[0])
    return {
        "seat": seat,
        "player": player,
        "raided": team["raided"],
        "has_possession": state["possession"] == seat and phase(state) == "play",
        "active": active,
        "reserve": [_card(match, cards[card_id]) for card_id in team["reserve"]],
        "fallen": [_card(match, cards[card_id]) for card_id in team["fallen"]],
    }


def _showdown(match: Match, names: list[str]) -> dict:
    """A Showdown's part of the board: who the AI is, its faction shown openly once locked, whether
    it is to move, and everything since the player last acted; hints where the table allows them."""
    state = match.state
    seat = ai_seat(state["config"])
    view: dict = {"hints": hints_allowed(state["config"]) and phase(state) == "play"}
    if seat is None:
        return view
    faction = [state["cards"][card_id] for card_id in state["cards"] if state["cards"][card_id]["seat"] == seat]
    view["showdown"] = {
        "ai": match.players()[seat], "level": LEVEL_LABELS[state["config"]["showdown"]["level"]],
        "faction": [card["name"] for card in faction],
        "power": faction_power([card["base"] for card in faction]) if faction else None,
        "to_move": ai_to_move(match),
        "steps": recent_steps(match, names),
    }
    view["hints"] = view["hints"] and not view["showdown"]["to_move"]
    return view


def board(match: Match) -> dict:
    state = match.state
    players = match.players()
    names = [player.name for player in players]
    current = phase(state)
    view = {"phase": current, "size": state["config"]["size"], "active_slots": ACTIVE_SLOTS, "counter_max": COUNTER_MAX,
            **_showdown(match, names)}
    if current == "lineup":
        return view
    action = head_action(match)
    events = action.events if action else []
    possession = state["possession"]
    handover = current == "play" and any(event["type"] == "possession" for event in events)
    view.update(
        {
            "round": state["round"],
            "possession": players[possession] if current == "play" else None,
            "handover": players[possession] if handover else None,
            # The team holding the phone first, its card to move on top: a possession is read and tapped
            # without scrolling past the other team (whose HP the targets repeat beside each attack).
            "teams": [_team(match, seat, players[seat]) for seat in (possession, 1 - possession)],
            "to_move": [
                state["cards"][card_id]["name"]
                for card_id in state["teams"][possession]["active"]
                if card_id and card_id not in state["done"]
            ],
            "last": [line for line in (describe(event, names) for event in events) if line],
            "rolls_open": state["config"]["who_rolls"] == "player",
            "type_wheel": [
                f"{symbol} {name}"
                for symbol, name in zip(TYPE_SYMBOLS, state["config"]["type_names"], strict=True)
            ],
            "weights": WEIGHTS,
            # What the correction forms offer: every card still standing, by team.
            "standing": [
                {
                    "seat": seat,
                    "player": players[seat],
                    "cards": [state["cards"][card_id] for card_id in alive(state, seat)],
                }
                for seat in (0, 1)
            ],
        }
    )
    if current == "finished":
        winner = state["winner"]
        view["winner"] = players[winner]
        view["mvps"] = mvps(state, winner)
    return view
