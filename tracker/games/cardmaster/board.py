"""What the Cardmaster board shows: both teams, every card's HP, gems, types and status,
whose possession it is, which cards still move, and each move's price and why it is unavailable."""

from django.utils.translation import gettext

from rules.cardmaster.damage import FACTOR_TEXT, attack_type
from rules.cardmaster.fighters import BOOSTABLE, alive, displayed_gems, max_hp, stat
from rules.cardmaster.gems import COSTS, can_afford
from rules.cardmaster.match import phase
from rules.cardmaster.mvp import WEIGHTS, mvps
from rules.cardmaster.numbers import round_half_up
from rules.cardmaster.typechart import TYPE_SYMBOLS

from ...models import Match
from ...services import head_action
from .forms import STATUS_LABELS
from .narration import DONE_LABELS, STAT_NAMES, describe, multiplier_text, type_label

STATUS_SYMBOLS = {"overcook": "♨", "undershock": "⇣", "brainlock": "⊘", "gridfreeze": "‖", "souldrift": "∿"}


def _types(card: dict, type_names: list[str]) -> list[str]:
    return [type_label(card["type1"], type_names[card["type1"] - 1]),
            type_label(card["type2"], type_names[card["type2"] - 1])]


def _status(card: dict) -> dict | None:
    status = card["status"]
    if status is None:
        return None
    if status["turns"] is None:
        left = gettext("until it falls")
    else:
        left = gettext("%(turns)s turns left") % {"turns": status["turns"]}
    return {"symbol": STATUS_SYMBOLS[status["name"]], "name": STATUS_LABELS[status["name"]], "left": left,
            "strength": f"{status['strength'] / 10:g}"}


def _gem_price(card: dict, team: dict, move: str) -> str:
    """Why a gem move cannot be paid for, or "" when it can."""
    if can_afford(card, team, move):
        return ""
    return gettext("Needs %(need)s shown: %(card)s shows %(shown)s, raided pool %(raided)s.") % {
        "need": COSTS[move] + 1, "card": card["name"], "shown": displayed_gems(card),
        "raided": team["raided"]}


def _moves(state: dict, card: dict, targets: list[dict]) -> list[dict]:
    """Every move button of a card that may still move: what it needs, and why it is unavailable."""
    team = state["teams"][card["seat"]]
    type_names = state["config"]["type_names"]
    locked = card["status"] and card["status"]["name"] == "brainlock"
    brainlock = gettext("Brainlocked: A1 only.") if locked else ""
    a3_types = gettext("better of %(a)s / %(b)s") % dict(zip("ab", _types(card, type_names)))
    rows = [
        ("a1", gettext("free · ATK × %(f)s · %(t)s") % {"f": FACTOR_TEXT["a1"], "t": _types(card, type_names)[0]}, ""),
        ("a2", gettext("2 gems · ATK × %(f)s · %(t)s") % {"f": FACTOR_TEXT["a2"], "t": _types(card, type_names)[1]},
         brainlock or _gem_price(card, team, "a2")),
        ("a3", gettext("3 gems · ATK × %(f)s · %(t)s") % {"f": FACTOR_TEXT["a3"], "t": a3_types},
         brainlock or _gem_price(card, team, "a3")),
        ("stack", gettext("+1 gem, uses the move"), brainlock),
    ]
    fallen = _revivable(state, card)
    revive_why = brainlock or _gem_price(card, team, "revive")
    if not revive_why and not fallen:
        revive_why = gettext("No fallen ally can be revived.")
    rows.append(("revive", gettext("4 gems · a fallen ally returns at 50% HP"), revive_why))
    shift_why = brainlock or ("" if team["reserve"] else gettext("No card in reserve."))
    rows.append(("shift", gettext("swap with a reserve card; it cannot move this possession"), shift_why))
    if not targets:
        rows = [row for row in rows if row[0] not in ("a1", "a2", "a3")]
    labels = {"a1": "A1", "a2": "A2", "a3": "A3", "stack": "STACK", "revive": "REVIVE", "shift": gettext("Shift")}
    return [{"value": value, "label": labels[value], "detail": detail, "why": why, "enabled": not why}
            for value, detail, why in rows]


def _revivable(state: dict, card: dict) -> list[dict]:
    team = state["teams"][card["seat"]]
    return [state["cards"][card_id] for card_id in team["fallen"]
            if state["config"]["risen_revivable"] or not state["cards"][card_id]["risen"]]


def _card(state: dict, card: dict, targets: list[dict]) -> dict:
    type_names = state["config"]["type_names"]
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
        "types": _types(card, type_names),
        "tier": card["tier"],
        "inflicts": STATUS_LABELS[card["inflicts"]],
        "stats": [(STAT_NAMES[name], stat(card, name), stat(card, name) - card["base"][name])
                  for name in ("spd", "def", "atk", "spc")],
        "status": _status(card),
        "risen": card["risen"],
        "in_possession": in_possession and active,
        "done": DONE_LABELS[done] if done else "",
        "can_move": can_move,
    }
    if can_move:
        view["moves"] = _moves(state, card, targets)
        view["targets"] = [{
            "id": target["id"], "name": target["name"], "hp": target["hp"],
            "odds": " · ".join(f"{m.upper()} ×{multiplier_text(str(attack_type(card, target, m)[1]))}"
                               for m in ("a1", "a2", "a3")),
        } for target in targets]
        view["rolls"] = card["inflicts"] != "none" and not (card["status"] and card["status"]["name"] == "brainlock")
        view["spc"] = None if card["spc_used"] else {
            "amount": round_half_up(card["base"]["spc"] / 10),
            "stats": [(name, STAT_NAMES[name]) for name in BOOSTABLE]}
        view["reserve"] = [state["cards"][card_id] for card_id in state["teams"][card["seat"]]["reserve"]]
        view["fallen"] = _revivable(state, card)
    return view


def _team(state: dict, seat: int, player) -> dict:
    team = state["teams"][seat]
    targets = [state["cards"][card_id] for card_id in state["teams"][1 - seat]["active"] if card_id]
    cards = state["cards"]
    active = [_card(state, cards[card_id], targets) for card_id in team["active"] if card_id]
    # Only the first card still to move shows its moves unfolded: the page stays short on a phone.
    ready = [view for view in active if view["can_move"]]
    if ready:
        ready[0]["open"] = True
    return {
        "seat": seat,
        "player": player,
        "raided": team["raided"],
        "has_possession": state["possession"] == seat and phase(state) == "play",
        "active": active,
        "reserve": [_card(state, cards[card_id], targets) for card_id in team["reserve"]],
        "fallen": [_card(state, cards[card_id], targets) for card_id in team["fallen"]],
    }


def board(match: Match) -> dict:
    state = match.state
    players = match.players()
    names = [player.name for player in players]
    current = phase(state)
    view = {"phase": current, "seats": [{"player": p, "locked": locked} for p, locked in zip(players, state["lineups"])],
            "size": state["config"]["size"]}
    if current == "lineup":
        return view
    action = head_action(match)
    events = action.events if action else []
    possession = state["possession"]
    handover = current == "play" and any(event["type"] == "possession" for event in events)
    view.update({
        "round": state["round"],
        "possession": players[possession] if current == "play" else None,
        "handover": players[possession] if handover else None,
        # The other team first (the targets), then the team holding the phone with its moves.
        "teams": [_team(state, seat, players[seat]) for seat in (1 - possession, possession)],
        "to_move": [state["cards"][card_id]["name"] for card_id in state["teams"][possession]["active"]
                    if card_id and card_id not in state["done"]],
        "last": [line for line in (describe(event, names) for event in events) if line],
        "rolls_open": state["config"]["who_rolls"] == "player",
        "type_wheel": [f"{symbol} {name}" for symbol, name in zip(TYPE_SYMBOLS, state["config"]["type_names"])],
        "weights": WEIGHTS,
        # What the correction forms offer: every card still standing, by team.
        "standing": [{"seat": seat, "player": players[seat],
                      "cards": [state["cards"][card_id] for card_id in alive(state, seat)]} for seat in (0, 1)],
    })
    if current == "finished":
        winner = state["winner"]
        view["winner"] = players[winner]
        view["mvps"] = mvps(state, winner)
    return view
