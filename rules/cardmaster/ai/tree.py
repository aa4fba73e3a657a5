"""Hard's search: a Monte Carlo tree search over the engine itself, with chance nodes for the rolls.

The tree holds positions the engine made (`match.apply`, the same code as the human side) and
grows by one position per simulation:

- A decision node is a position and the side in possession. At the root its moves are every
  searched move (search.searched_moves), ordered by the one-move look with the rolls weighed
  exactly (search.Candidate). Below the root only the first active card still to move picks
  (in slot order): moves by different cards of one possession mostly commute, and a fixed order
  keeps the tree narrow enough to look into the other side's reply and the possession after.
- A chance node is an A2 or A3 whose rolls can go three ways (nothing lands, the status lands,
  it backfires: search.branches), each a child weighed by its exact probability. A simulation
  goes down the way whose visits lag its probability most, so the node's mean is the expectation
  over the rolls without sampling noise, and the search needs no dice of its own. A way's
  position is made when a simulation first goes down it.
- A new position is played on (`play_on`) to the start of the searching side's next possession,
  both sides moving with the cheap look below (the first card still to move, its most promising
  attack, STACK or REVIVE, the likeliest way of its rolls), and scored there by
  evaluation.win_chance. Every leaf is so scored at the same point of the possessions: scored where
  it stood, a leaf in the middle of a possession was judged by the race's guess of what the cards
  still to move will deal, and leaves at different points could not be compared (at 9v9 the tree
  was no better than the one-move search with playouts it replaced). That line of play is one
  guess, though, and where the cheap look plays badly it misjudges the leaf: a leaf's score is the
  mean of the two (`leaf_score`, as AlphaGo mixed its rollouts with its value network), which kept
  what the play-on won against hard-2026 and lost to greedy 1 match of 60 at 3v3 where the play-on
  alone lost 6 (whole twins: the same factions from both seats). A shallow tree (`deep` False, the
  normal level's) scores a new position where it stands.
- Selection is UCB1 on the win chance of the side choosing, with progressive widening: a node
  visited n times considers its first WIDTH + sqrt(n) moves, best-looking first. Below the root
  the order is a cheap look at the move (`_promise`: a knockout, the damage, a REVIVE, a STACK
  before a SPC or a Shift).
- The move played is the root's most visited; its value is that move's mean.

Shifting a card back in that this side shifted out earlier along the same line of play is never
searched (a Shift back right away is the loop players noticed); across real possessions the
same rule is kept by the caller (players.py, from the match's recent steps).

Everything is counted in simulations, never seconds, and nothing is random: the same position
always gets the same tree and the same move.
"""

from functools import partial
from math import log, sqrt

from .. import match
from ..gems import COSTS
from ..state import MatchState, possessor
from .evaluation import TYPE_FACTOR, Kept, win_chance
from .search import (
    QUICK_MOVES,
    Branch,
    Candidate,
    first_to_move,
    forcing,
    play_likeliest,
    roll_ways,
    searched_moves,
)
from .search import branches as branches  # the tests make positions with it here

EXPLORATION = 0.06
"""UCB1's constant, in win chance: moves within a few points of each other keep being compared."""
WIDTH = 2
"""Moves a node considers before any widening (the root considers ROOT_WIDTH)."""
ROOT_WIDTH = 6
PLAY_ON_PLIES = 8
"""A leaf's play-on stops after this many moves even if the possessions have not come round (two
possessions are at most six moves, fewer when a Gridfreeze skips some)."""
PLAY_ON_SHARE = 0.5
"""The play-on's weight in a leaf's score, the position's own estimate having the rest (`leaf_score`)."""
LINE_VISITS = 3
"""Visits a move needs before the expected line of play (Tree.line) goes through it."""


class Node:
    """A position in the tree: its moves in the order they are tried, and what the simulations found."""

    __slots__ = ("actions", "banned", "children", "state", "total", "visits")

    def __init__(self, state: MatchState, banned: frozenset = frozenset()) -> None:
        self.state = state
        self.banned = banned
        """Cards this side shifted out along the line of play that reached here (no Shift back)."""
        self.actions: list[dict] | None = None
        self.children: list = []
        self.visits = 0
        self.total = 0.0
        """The sum of the simulations' win chances, for the root's side."""

    def moves(self) -> list[dict]:
        if self.actions is None:
            self.actions = _moves(self.state, self.banned)
            self.children = [None] * len(self.actions)
        return self.actions


class Chance:
    """A move whose rolls can go several ways: one node per way, with its probability.

    A way's position is made when a simulation first goes down it (most of a chance node's less likely
    ways are never visited, and a position the engine makes costs a copy of the state): each way is
    [probability, its node or None while unmade, the rolls that force it (search.roll_ways)]."""

    __slots__ = ("action", "banned", "state", "total", "visits", "ways")

    def __init__(self, ways: list[list], state: MatchState | None = None, action: dict | None = None,
                 banned: frozenset = frozenset()) -> None:
        self.ways = ways
        self.state, self.action, self.banned = state, action, banned
        """What an unmade way is made from: the position before the move, the move, the Shifts banned."""
        self.visits = 0
        self.total = 0.0

    def next_way(self) -> Node:
        """The way whose visits lag its probability most (the likeliest first)."""
        way = min(self.ways, key=lambda way: (_visits(way[1]) + 1) / way[0])
        if way[1] is None:
            assert self.state is not None and self.action is not None
            way[1] = Node(match.apply(self.state, self.action, forcing(way[2]))[0], self.banned)
        return way[1]


def _visits(node: Node | None) -> int:
    return 0 if node is None else node.visits


def _promise(state: MatchState, action: dict) -> float:
    """A cheap guess of how good a move is, to order the moves below the root: a knockout first,
    then the share of its target's HP an attack takes (A2 and A3 a little less, for their gems),
    a REVIVE, a STACK, and SPC and Shift last."""
    kind = action["type"]
    if kind in ("a1", "a2", "a3"):
        return _attack_promise(kind, state["cards"][action["card"]], state["cards"][action["target"]])
    return _OTHER_PROMISE.get(kind, 0.0)


def _attack_promise(kind: str, card: dict, foe: dict) -> float:
    """`_promise` of an attack of `card` on `foe`."""
    factor = TYPE_FACTOR[card["type1"]][foe["type1"]][foe["type2"]]
    if kind == "a2":
        factor = TYPE_FACTOR[card["type2"]][foe["type1"]][foe["type2"]]
    elif kind == "a3":
        factor = max(factor, TYPE_FACTOR[card["type2"]][foe["type1"]][foe["type2"]])
    hit = card["base"]["atk"] * _POWER[kind] * factor
    hit *= (1000 - foe["base"]["def"]) / 1000
    if hit >= foe["hp"]:
        return 3.0 - _KNOCKOUT_COST[kind] + foe["gems"] * 0.1
    return hit / foe["hp"] - _HIT_COST[kind]


# _promise's weights, made once (it is called for every move of every play-on ply).
_POWER = {"a1": 0.33, "a2": 0.66, "a3": 0.99}
_KNOCKOUT_COST = {"a1": 0.0, "a2": 0.2, "a3": 0.3}
_HIT_COST = {"a1": 0.0, "a2": 0.1, "a3": 0.15}
_OTHER_PROMISE = {"revive": 1.5, "stack": 0.3, "spc": 0.05}


def _moves(state: MatchState, banned: frozenset) -> list[dict]:
    if state["winner"] is not None:
        return []
    mover = first_to_move(state)
    found = [action for action in (match.legal_actions(state, mover) if mover else []) if action["type"] != "deposit"
             and not (action["type"] == "shift" and action["reserve"] in banned)]
    return sorted(found, key=lambda action: -_promise(state, action))


def play_on(state: MatchState, seat: int, kept: Kept | None = None) -> float:
    """`seat`'s chance to win once the match is played on from `state` to the start of its next
    possession (or its end), both sides making the most promising move (`_promise`) of the first card
    still to move, every roll going its likeliest way."""
    other_moved = state["possession"] != seat
    line = None  # the line of play, made on one copy of the leaf (nobody keeps its positions)
    for _ply in range(PLAY_ON_PLIES):
        if state["winner"] is not None or (other_moved and state["possession"] == seat):
            break
        mover = first_to_move(state)
        chosen = _most_promising(state, mover) if mover else None
        if chosen is None:  # no attack, STACK or REVIVE (or nobody to move): as the engine lists the moves
            found = match.legal_actions(state, mover) if mover else []
            options = [action for action in found if action["type"] in QUICK_MOVES] or found  # else SPC or Shift
            chosen = max(options, key=partial(_promise, state))
        if line is None:
            state = line = match.own_copy(state)
        play_likeliest(line, chosen)
        other_moved = other_moved or state["possession"] != seat
    return win_chance(state, seat, kept=kept)


def _most_promising(state: MatchState, mover: str) -> dict | None:
    """What `max(quick moves, key=_promise)` picks among `mover`'s moves as match.legal_actions lists them
    (the first of equals), None when it has none of QUICK_MOVES: the same move, worked out without
    making every move's dict (the play-on asks this at every ply of every leaf)."""
    seat = possessor(state)
    team, cards = state["teams"][seat], state["cards"]
    card = cards[mover]
    theirs = [cards[card_id] for card_id in state["teams"][1 - seat]["active"] if card_id]
    best: tuple | None = None
    value = 0.0
    kinds: tuple[str, ...] = ("a1",)
    status = card["status"]
    budget = card["gems"] + team["raided"]
    if not (status and status["name"] == "brainlock"):
        kinds += tuple(move for move in ("a2", "a3") if budget >= COSTS[move])
    for kind in kinds:  # legal_actions's order: every A1, then every A2, then every A3
        for foe in theirs:
            promise = _attack_promise(kind, card, foe)
            if best is None or promise > value:
                best, value = (kind, foe["id"]), promise
    if status and status["name"] == "brainlock":
        return None if best is None else {"type": best[0], "card": mover, "target": best[1]}
    if best is None or _OTHER_PROMISE["stack"] > value:
        best, value = ("stack", None), _OTHER_PROMISE["stack"]
    if budget >= COSTS["revive"]:
        revivable = state["config"]["risen_revivable"]
        fallen = next((target for target in team["fallen"] if revivable or not cards[target]["risen"]), None)
        if fallen is not None and _OTHER_PROMISE["revive"] > value:
            best = ("revive", fallen)
    kind, target = best
    return {"type": "stack", "card": mover} if kind == "stack" else {"type": kind, "card": mover, "target": target}


def leaf_score(state: MatchState, seat: int, kept: Kept | None = None) -> float:
    """`seat`'s chance to win from a new leaf: the mean of the position's own estimate and its play-on's."""
    return PLAY_ON_SHARE * play_on(state, seat, kept) + (1 - PLAY_ON_SHARE) * win_chance(state, seat, kept=kept)


def _child(node: Node, action: dict, ways: list[Branch] | None = None) -> "Node | Chance":
    """The position (or the ways of the rolls) after `action`, made by the engine. A card shifted
    out stays banned from coming back along this line (card ids name their side, so one set serves
    both sides)."""
    banned = node.banned | {action["card"]} if action["type"] == "shift" else node.banned
    if ways:  # made already (the root's candidates)
        if len(ways) == 1:
            return Node(ways[0].state, banned)
        return Chance([[way.probability, Node(way.state, banned), None] for way in ways])
    # search.branches' ways in its order (most likely first, a stable sort), each made when first visited
    found = sorted(roll_ways(node.state, action), key=lambda way: -way[0])
    if len(found) == 1:
        return Node(match.apply(node.state, action, forcing(found[0][1]))[0], banned)
    return Chance([[probability, None, rolls] for probability, rolls in found], node.state, action, banned)


class Tree:
    """The search from one position, for `seat`, the side in possession."""

    def __init__(self, state: MatchState, seat: int, refused: set[tuple[str, str]] | frozenset = frozenset(),
                 deep: bool = True) -> None:
        """`refused`: Shifts not to search at the root, as (card leaving, card coming) pairs. `deep`: score
        each new position with its play-on to the side's next possession too (else as it stands)."""
        self.seat = seat
        self.score = leaf_score if deep else win_chance
        self.root = Node(state)
        actions = [action for action in searched_moves(state)
                   if (action.get("card"), action.get("reserve")) not in refused]
        # Candidates with every roll weighed exactly: the root's order, and its children ready made.
        self.candidates = sorted((Candidate(state, action, seat) for action in actions), key=lambda c: -c.shallow)
        self.root.actions = [candidate.action for candidate in self.candidates]
        self.root.children = [None] * len(self.candidates)
        self.simulations = 0
        self.kept: Kept = {}

    def run(self, simulations: int) -> None:
        for _ in range(simulations):
            self._simulate()
        self.simulations += simulations

    def _simulate(self) -> None:
        path: list = [self.root]
        node = self.root
        while True:
            state = node.state
            if state["winner"] is not None:
                value = 1.0 if state["winner"] == self.seat else 0.0
                break
            if node.visits == 0 and node is not self.root:
                value = self.score(state, self.seat, kept=self.kept)
                break
            actions = node.moves()
            if not actions:
                value = win_chance(state, self.seat, kept=self.kept)
                break
            index = self._select(node, state["possession"] == self.seat)
            child = node.children[index]
            if child is None:
                child = node.children[index] = self._make(node, index)
            if isinstance(child, Chance):
                path.append(child)
                child = child.next_way()
            path.append(child)
            node = child
        for visited in path:
            visited.visits += 1
            visited.total += value

    def _make(self, node: Node, index: int) -> "Node | Chance":
        if node is self.root:
            candidate = self.candidates[index]
            return _child(node, candidate.action, candidate.branches)
        return _child(node, node.actions[index])  # type: ignore[index]

    def _select(self, node: Node, ours: bool) -> int:
        width = ROOT_WIDTH if node is self.root else WIDTH
        considered = min(len(node.children), width + int(sqrt(node.visits)))
        best, best_score = 0, -1.0
        spread = EXPLORATION * sqrt(log(node.visits + 1))
        for index in range(considered):
            child = node.children[index]
            if child is None or child.visits == 0:
                return index
            mean = child.total / child.visits
            score = (mean if ours else 1 - mean) + spread / sqrt(child.visits)
            if score > best_score:
                best, best_score = index, score
        return best

    def line(self, action: dict) -> list[dict]:
        """The moves the search expects after `action` (one of the root's): from its position the
        most visited move at each position below, the most visited way of the rolls at a chance
        node, for as long as a move was tried LINE_VISITS times. What the reasons may promise
        (explain.reason_for)."""
        node = self.root.children[self.root.actions.index(action)]  # type: ignore[union-attr]
        found: list[dict] = []
        while node is not None:
            if isinstance(node, Chance):
                node = max(node.ways, key=lambda way: _visits(way[1]))[1]
                continue
            tried = [(child.visits, index) for index, child in enumerate(node.children) if child is not None]
            if not tried or max(tried)[0] < LINE_VISITS:
                break
            index = max(tried)[1]
            found.append(node.actions[index])
            node = node.children[index]
        return found

    def ranked(self) -> list[tuple[Candidate, int, float]]:
        """The root's moves, the one played first: (candidate, visits, value for `seat`). A move
        the tree never visited keeps its one-move value."""
        found = []
        for candidate, child in zip(self.candidates, self.root.children, strict=True):
            visits = child.visits if child is not None else 0
            value = child.total / visits if visits else candidate.shallow
            found.append((candidate, visits, value))
        return sorted(found, key=lambda entry: (-entry[1], -entry[2]))
