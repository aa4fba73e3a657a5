"""Evons in words: one log line per engine event, with its working, and a title per action."""

from django.utils.translation import pgettext, pgettext_lazy

from rules.evons.board import MAIN_ZONE
from rules.evons.pieces import BLOCK_CARD, COVERED
from rules.evons.turns import HAND_LIMIT

from ...matches.engine_messages import engine_word
from ..common import filled_in

REASONS = {
    "played": pgettext_lazy("evons", "played"),
    "revealed": pgettext_lazy("evons", "revealed"),
    "moved": pgettext_lazy("evons", "moved: reactivates"),
    "moved-and-flipped": pgettext_lazy("evons", "moved and flipped: reactivates"),
    "revived": pgettext_lazy("evons", "revived"),
}
WHY = {
    "conflict": pgettext_lazy("evons", "in a conflict"),
    "Shockwave": pgettext_lazy("evons", "by a Shockwave landing"),
    "Block": pgettext_lazy("evons", "by a Block arrow"),
    "Remove": pgettext_lazy("evons", "by Remove"),
    "Firestorm": pgettext_lazy("evons", "by Firestorm"),
    "unpaid": pgettext_lazy("evons", "its cost could not be paid"),
}
ENDINGS = {
    "board-full": filled_in(
        pgettext_lazy("evons", "All %(cells)s main-zone cells are full: the game ends at once."),
        cells=len(MAIN_ZONE),
    ),
    "passes": pgettext_lazy("evons", "Both players passed in a row: the game ends."),
    "agreed": pgettext_lazy("evons", "The table ended the game."),
}


# Left to the outcome box's whole working: bookkeeping of chains and turns (the board shows whose turn
# it is and the credits), and a play or a pass the step's title already says.
OUTCOME_FOLDED = frozenset({"played", "passed", "activation", "sequence_ended", "phase_done", "turn_ended",
                            "turn_started"})


def outcome_line(event: dict, names: list[str]) -> str:
    """The outcome box's line: a card revealed, conflicts, flips, abilities, moves, the score and the game's
    end; "" for what the box folds away."""
    return "" if event["type"] in OUTCOME_FOLDED else describe(event, names)


ENGINE_NAMES = frozenset({COVERED, BLOCK_CARD["name"]})
"""What the engine names a piece whose card it does not know or made itself (pieces.label): words of the game's."""


def _piece(name: str) -> str:
    """A piece as an event names it: its card's name, or the engine's word for it in the game's words."""
    return engine_word("evons", name) if name in ENGINE_NAMES else name


def describe(event: dict, names: list[str]) -> str:
    """One log line, with its working, for an engine event ("" for bookkeeping events)."""
    e = {**event, **({"name": _piece(event["name"])} if isinstance(event.get("name"), str) else {}),
         **({"names": [_piece(name) for name in event["names"]]} if isinstance(event.get("names"), list) else {})}
    match e["type"]:
        case "turn_started":
            return pgettext("evons", "Turn %(turn)s: %(name)s +%(gained)s credits (now %(credits)s), %(drew)s.") % {
                "turn": e["turn"],
                "name": names[e["seat"]],
                "gained": e["gained"],
                "credits": e["credits"],
                "drew": pgettext("evons", "draws 1") if e["drew"] else pgettext("evons", "no card left to draw"),
            }
        case "played":
            if e["covered"]:
                return pgettext("evons", "%(name)s plays a covered card on %(cell)s (paid when revealed).") % {
                    "name": names[e["seat"]],
                    "cell": e["cell"],
                }
            return pgettext("evons", 
                "%(name)s plays %(card)s face-up on %(cell)s, pays %(cost)s (%(credits)s left)."
            ) % {
                "name": names[e["seat"]],
                "card": e["name"],
                "cell": e["cell"],
                "cost": e["cost"],
                "credits": e["credits"],
            }
        case "revealed":
            return pgettext("evons", "%(cell)s revealed: %(name)s, pays %(cost)s (%(credits)s left).") % e
        case "unpaid":
            return (
                pgettext("evons", "%(cell)s revealed: %(name)s costs %(cost)s but only %(credits)s credits are left.")
                % e
            )
        case "activation":
            return pgettext("evons", "%(cell)s %(name)s activates (%(reason)s), chain depth %(depth)s.") % {
                **e,
                "reason": REASONS.get(e["reason"], e["reason"]),
            }
        case "ability":
            return pgettext("evons", "%(cell)s %(name)s uses %(ability)s (%(arrow)s arrow) on %(target)s.") % {
                **e,
                "ability": engine_word("evons", e["ability"]),
            }
        case "conflict":
            return pgettext("evons", 
                "%(c0)s %(n0)s %(a0)s/%(b0)s vs %(c1)s %(n1)s %(a1)s/%(b1)s at once: "
                "%(n0)s %(b0)s -> %(d0)s, %(n1)s %(b1)s -> %(d1)s"
            ) % {
                "c0": e["cells"][0],
                "c1": e["cells"][1],
                "n0": e["names"][0],
                "n1": e["names"][1],
                "a0": e["atk"][0],
                "a1": e["atk"][1],
                "b0": e["before"][0],
                "b1": e["before"][1],
                "d0": e["after"][0],
                "d1": e["after"][1],
            }
        case "destroyed":
            return pgettext("evons", "%(cell)s %(card)s is destroyed %(why)s: to %(name)s's graveyard.") % {
                "cell": e["cell"],
                "card": e["name"],
                "why": WHY.get(e["why"], e["why"]),
                "name": names[e["seat"]],
            }
        case "removed":
            return pgettext("evons", "%(cell)s %(card)s is pushed off the board: removed from the game.") % {
                "cell": e["cell"],
                "card": e["name"],
            }
        case "flipped":
            return pgettext("evons", "%(cell)s flipped to %(name)s.") % {"cell": e["cell"], "name": names[e["seat"]]}
        case "moved":
            return pgettext("evons", "%(name)s moves %(from)s -> %(to)s.") % e
        case "swapped":
            return pgettext("evons", "%(n0)s and %(n1)s swap: %(c0)s <-> %(c1)s.") % {
                "n0": e["names"][0],
                "n1": e["names"][1],
                "c0": e["cells"][0],
                "c1": e["cells"][1],
            }
        case "placed":
            what = (
                pgettext("evons", "a covered card (Growth)")
                if e["how"] == "growth"
                else pgettext("evons", "a Block card")
            )
            return pgettext("evons", "%(name)s puts %(what)s on %(cell)s.") % {
                "name": names[e["seat"]],
                "what": what,
                "cell": e["cell"],
            }
        case "revived":
            return (
                pgettext("evons", 
                    "%(name)s (cost %(cost)s) is revived onto %(cell)s; %(budget_left)s cost left to revive."
                )
                % e
            )
        case "burned":
            if "after" in e:
                return (
                    pgettext("evons", "Firestorm: %(cell)s %(name)s takes %(amount)s, DEF %(before)s -> %(after)s.") % e
                )
            return pgettext("evons", "Firestorm: %(cell)s %(name)s takes %(amount)s.") % e
        case "sequence_ended":
            if e["why"] == "destroyed":
                return pgettext("evons", "%(cell)s %(name)s was destroyed: its sequence ends.") % e
            return ""
        case "phase_done":
            return ""
        case "passed":
            return pgettext("evons", "%(name)s passes.") % {"name": names[e["seat"]]}
        case "discarded":
            return pgettext("evons", "%(name)s discards %(count)s down to %(limit)s cards.") % {
                "name": names[e["seat"]],
                "count": e["count"],
                "limit": HAND_LIMIT,
            }
        case "score":
            return pgettext("evons", "Score: %(a)s %(sa)s, %(b)s %(sb)s.") % {
                "a": names[0],
                "sa": e["scores"][0],
                "b": names[1],
                "sb": e["scores"][1],
            }
        case "turn_ended":
            return ""
        case "adjusted":
            changes = ", ".join(f"{key} {value}" for key, value in e["changes"].items())
            who = e["cell"] if "cell" in e else names[e["seat"]]
            return pgettext("evons", "Adjusted %(who)s: %(changes)s.") % {"who": who, "changes": changes}
        case "game_over":
            return pgettext("evons", "%(ending)s Final score: %(a)s %(sa)s, %(b)s %(sb)s.") % {
                "ending": ENDINGS[e["reason"]],
                "a": names[0],
                "sa": e["scores"][0],
                "b": names[1],
                "sb": e["scores"][1],
            }
    return e["type"]


def describe_action(action: dict, events: list[dict], names: list[str]) -> str:
    """What a player did, as the log's title for the step."""
    who = names[action["seat"]] if isinstance(action.get("seat"), int) and 0 <= action["seat"] < 2 else ""
    match action.get("type"):
        case "play":
            if action.get("covered"):
                return pgettext("evons", "%(name)s plays a covered card on %(cell)s") % {
                    "name": who,
                    "cell": action["cell"],
                }
            return pgettext("evons", "%(name)s plays %(card)s on %(cell)s") % {
                "name": who,
                "card": action["card"]["name"],
                "cell": action["cell"],
            }
        case "reveal":
            return pgettext("evons", "%(name)s reveals %(cell)s: %(card)s") % {
                "name": who,
                "cell": action["cell"],
                "card": action["card"]["name"],
            }
        case "pass":
            return pgettext("evons", "%(name)s passes") % {"name": who}
        case "next":
            return pgettext("evons", "%(name)s ends an Ability Phase") % {"name": who}
        case "conflict":
            return pgettext("evons", "%(name)s resolves the conflict with %(cell)s") % {
                "name": who,
                "cell": action["target"],
            }
        case "ability":
            return pgettext("evons", "%(name)s uses the %(arrow)s arrow on %(cell)s") % {
                "name": who,
                "arrow": action["arrow"],
                "cell": action["target"],
            }
        case "adjust":
            return pgettext("evons", "Manual adjustment")
        case "end_game":
            return pgettext("evons", "The table ends the game")
    return str(action.get("type", ""))

