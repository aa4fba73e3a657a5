"""Card Crush pages: the catalog card form, the secret deck entry and the battle board."""

from collections import Counter

from django import forms
from django.utils.translation import gettext, gettext_lazy as _

from rules import IllegalAction
from rules.errors import gettext_noop
from rules.card_crush import AFFINITIES, RARITIES
from rules.card_crush.battle import DECK_SIZE, phase
from rules.card_crush.cards import LEVEL_MAX, NAME_MAX, STAT_MAX, validate_card

from ..models import Card, Match
from .common import EngineCardForm, card_stats, catalog_cards  # noqa: F401  (card_stats is part of the adapter)

SLUG = "card-crush"
BOARD_TEMPLATE = "games/card-crush/board.html"
ENTRY_TEMPLATE = "games/card-crush/entry.html"
NEW_MATCH_NOUN = _("battle")

# Invented demo cards (the game's real card list is not public): 3 per affinity.
DEMO_CARDS = [
    {"name": name, "power": power, "speed": speed, "affinity": affinity, "rarity": rarity, "level": level}
    for name, power, speed, affinity, rarity, level in [
        ("Gale Sprite", 4, 9, "Air", "Common", 1), ("Sky Lancer", 7, 6, "Air", "Rare", 1),
        ("Tempest Roc", 9, 7, "Air", "Epic", 2),
        ("Stone Golem", 8, 2, "Earth", "Common", 1), ("Canyon Brute", 6, 4, "Earth", "Rare", 1),
        ("Mountain Titan", 10, 3, "Earth", "Legendary", 1),
        ("Volt Imp", 5, 9, "Lightning", "Common", 1), ("Storm Caller", 7, 8, "Lightning", "Rare", 1),
        ("Thunder Drake", 9, 6, "Lightning", "Epic", 1),
        ("Tide Runner", 6, 8, "Water", "Common", 1), ("Reef Guardian", 7, 4, "Water", "Rare", 1),
        ("Leviathan", 10, 2, "Water", "Legendary", 1),
        ("Ember Fox", 7, 5, "Fire", "Common", 1), ("Flame Knight", 8, 5, "Fire", "Rare", 1),
        ("Phoenix", 9, 8, "Fire", "Legendary", 1),
        ("Frost Wisp", 4, 7, "Ice", "Common", 1), ("Glacier Bear", 8, 3, "Ice", "Rare", 1),
        ("Winter Queen", 9, 6, "Ice", "Epic", 1),
        ("Thorn Sprout", 5, 5, "Nature", "Common", 1), ("Grove Warden", 7, 5, "Nature", "Rare", 2),
        ("Ancient Oak", 9, 1, "Nature", "Epic", 1),
        ("Dawn Acolyte", 5, 6, "Light", "Common", 1), ("Sun Paladin", 8, 6, "Light", "Rare", 1),
        ("Radiant Seraph", 10, 7, "Light", "Legendary", 1),
        ("Shade Rat", 3, 10, "Shadow", "Common", 1), ("Night Stalker", 7, 7, "Shadow", "Rare", 1),
        ("Void Lord", 10, 5, "Shadow", "Legendary", 1),
    ]
]


class CardForm(EngineCardForm):
    """A Card Crush card for the catalog: the engine has the last word on its stats."""

    name = forms.CharField(label=_("Name"), max_length=NAME_MAX)
    power = forms.IntegerField(label=_("Power"), min_value=0, max_value=STAT_MAX)
    speed = forms.IntegerField(label=_("Speed"), min_value=0, max_value=STAT_MAX)
    affinity = forms.ChoiceField(label=_("Affinity"), choices=[(a, _(a)) for a in AFFINITIES])
    rarity = forms.ChoiceField(label=_("Rarity"), choices=[(r, _(r)) for r in RARITIES], initial="Common")
    level = forms.IntegerField(label=_("Level"), min_value=1, max_value=LEVEL_MAX, initial=1)

    validate_card = staticmethod(validate_card)


class ConfigForm(forms.Form):
    resolution = forms.ChoiceField(
        label=_("How rounds are decided"),
        choices=[
            ("battle-score", _("Battle Score: Power + Affinity Bonus (rulebook)")),
            ("power-only", _("Power only, no Affinity Bonus (older rule pages)")),
        ],
        initial="battle-score",
        widget=forms.RadioSelect,
    )


class DeckForm(forms.Form):
    """Five catalog cards in round order, typed or picked from the catalog list."""

    def __init__(self, *args, catalog: dict[str, Card], collections: dict[int, dict] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.catalog = catalog
        # Decks from a collection (tracker/competition): the cards at the levels their owner upgraded them to.
        self.collections = collections or {}
        if self.collections:
            self.fields["source"] = forms.ChoiceField(
                label=_("Play the cards"), widget=forms.RadioSelect, initial="catalog",
                choices=[("catalog", _("As printed in the catalog"))]
                + [(f"seat-{seat}", entry["label"]) for seat, entry in self.collections.items()],
            )
            self.order_fields(["source"])
        for position in range(1, DECK_SIZE + 1):
            self.fields[f"card_{position}"] = forms.CharField(
                label=_("Round %(round)s card") % {"round": position},
                max_length=NAME_MAX,
                widget=forms.TextInput(attrs={"list": "catalog", "autocomplete": "off"}),
            )

    def clean(self):
        data = super().clean()
        cards = catalog_cards(self, [f"card_{position}" for position in range(1, DECK_SIZE + 1)],
                              _("%(name)s is already in this deck; a deck holds 5 different cards."))
        data["cards"] = cards
        data["source_seat"] = None
        if data.get("source", "catalog") != "catalog" and len(cards) == DECK_SIZE:
            data["source_seat"] = int(data["source"].removeprefix("seat-"))
            owned = self.collections[data["source_seat"]]
            for position, card in enumerate(cards, start=1):
                if card["name"].casefold() not in owned["cards"]:
                    self.add_error(f"card_{position}", _("%(owner)s's collection has no %(name)s.")
                                   % {"owner": owned["owner"], "name": card["name"]})
            data["cards"] = [owned["cards"].get(card["name"].casefold(), card) for card in cards]
        return data


def catalog(match: Match) -> dict[str, Card]:
    return {card.name.casefold(): card for card in Card.objects.filter(slug=SLUG)}


def entry_form(match: Match, data=None, seat: int | None = None) -> DeckForm:
    from ..competition.collection import seat_collections

    return DeckForm(data, catalog=catalog(match), collections=seat_collections(match, seat))


def entry_action(form: DeckForm, seat: int) -> dict:
    if form.cleaned_data.get("source_seat") not in (None, seat):
        raise IllegalAction("deck-own-collection", gettext_noop("%(seat)s can play only their own collection."),
                            seat=seat)
    return {"type": "lock_deck", "seat": seat, "cards": form.cleaned_data["cards"]}


def seats_to_enter(match: Match) -> list[int]:
    """Seats whose secret entry is still awaited."""
    if phase(match.state) != "lock-in":
        return []
    return [seat for seat, deck in enumerate(match.state["decks"]) if deck is None]


def own_secret(match: Match, seat: int) -> list[str] | None:
    """A seated phone's own locked deck, shown only to that phone before the reveal."""
    deck = match.state["decks"][seat] if seat < len(match.state["decks"]) else None
    return [card["name"] for card in deck] if deck else None


def table_action(match: Match, post) -> dict:
    """The open (non-secret) action a button on the board asks for."""
    return {"type": post.get("action", "")}


def board(match: Match) -> dict:
    """What the board shows: per round the two cards and the result, once revealed."""
    state = match.state
    players = match.players()
    names = [player.name for player in players]
    revealed = phase(state) != "lock-in"
    rounds = []
    for number in range(1, DECK_SIZE + 1):
        result = state["rounds"][number - 1] if number <= len(state["rounds"]) else None
        rounds.append({
            "number": number,
            "cards": [deck[number - 1] for deck in state["decks"]] if revealed else None,
            "result": result,
            "working": round_working(result, names) if result else "",
            "status": "played" if result else ("not-played" if state["winner"] is not None else "upcoming"),
        })
    return {
        "phase": phase(state),
        "rounds": rounds,
        "seats": [
            {"player": player, "wins": wins, "locked": deck is not None,
             "initiative": sum(c["speed"] for c in deck) if revealed else None}
            for player, wins, deck in zip(players, state["wins"], state["decks"])
        ],
        "next_round": len(state["rounds"]) + 1,
        "power_only": state["resolution"] == "power-only",
    }


def round_working(result: dict, names: list[str]) -> str:
    """Why the round went the way it did, in the words a player would use to check it."""
    w, l = result["winner"], 1 - result["winner"]
    cards, bonus, scores = result["cards"], result["bonus"], result["scores"]
    if result["decided_by"] == "score":
        if result["resolution"] == "power-only":
            return gettext("Power %(win)s beats %(lose)s.") % {"win": scores[w], "lose": scores[l]}
        edges = [
            gettext("%(mine)s over %(theirs)s +%(bonus)s") % {
                "mine": gettext(cards[s]["affinity"]), "theirs": gettext(cards[1 - s]["affinity"]), "bonus": bonus[s]}
            for s in (w, l) if bonus[s]
        ]
        sums = gettext("%(wp)s + %(wb)s = %(ws)s beats %(lp)s + %(lb)s = %(ls)s") % {
            "wp": cards[w]["power"], "wb": bonus[w], "ws": scores[w],
            "lp": cards[l]["power"], "lb": bonus[l], "ls": scores[l]}
        return "; ".join(edges) + (": " if edges else "") + sums + "."
    tied = gettext("Tied at %(score)s") % {"score": scores[w]}
    if result["decided_by"] == "speed":
        return gettext("%(tied)s; Speed %(win)s beats %(lose)s.") % {
            "tied": tied, "win": result["speeds"][w], "lose": result["speeds"][l]}
    tied += gettext(", Speed %(speed)s each") % {"speed": result["speeds"][w]}
    if result["decided_by"] == "initiative":
        return gettext("%(tied)s; Team Initiative %(win)s beats %(lose)s.") % {
            "tied": tied, "win": result["initiative"][w], "lose": result["initiative"][l]}
    return gettext("%(tied)s, Team Initiative %(init)s each; the coin flip from the match seed went to %(name)s.") % {
        "tied": tied, "init": result["initiative"][w], "name": names[w]}


def describe(event: dict, names: list[str]) -> str:
    """One line of the match log for an engine event ("" when the action's title says it all)."""
    match event["type"]:
        case "deck_locked":
            return ""
        case "decks_revealed":
            return gettext("Both decks revealed. Team Initiative: %(a)s %(ia)s, %(b)s %(ib)s.") % {
                "a": names[0], "ia": event["initiative"][0], "b": names[1], "ib": event["initiative"][1]}
        case "round":
            return gettext("%(name)s wins. %(working)s") % {
                "name": names[event["winner"]], "working": round_working(event, names)}
        case "battle_won":
            wins = event["wins"]
            return gettext("%(name)s wins the battle %(won)s-%(lost)s.") % {
                "name": names[event["winner"]], "won": wins[event["winner"]], "lost": wins[1 - event["winner"]]}
    return event["type"]


def describe_action(action: dict, events: list[dict], names: list[str]) -> str:
    """What a player did, as the log shows it (secret parts already removed by the engine)."""
    if action.get("type") == "lock_deck":
        if "cards" in action:
            deck = ", ".join(card["name"] for card in action["cards"])
            return gettext("%(name)s locks in: %(deck)s") % {"name": names[action["seat"]], "deck": deck}
        return gettext("%(name)s locks in a hidden deck") % {"name": names[action["seat"]]}
    rounds = [event["round"] for event in events if event["type"] == "round"]
    return gettext("Round %(round)s revealed") % {"round": rounds[0]} if rounds else action.get("type", "")


def cards_played(match: Match, seat: int) -> list[str]:
    """The names of the cards a seat used in a match, for "most played" statistics."""
    deck = match.state["decks"][seat]
    return [card["name"] for card in deck] if deck else []


def figures(matches) -> list[tuple[str, list[tuple[str, int]]]]:
    """What Card Crush players ask of their history: which affinities win rounds, and how."""
    by_affinity, decided_by = Counter(), Counter()
    labels = {"score": _("Battle Score or Power"), "speed": _("Speed tiebreak"),
              "initiative": _("Team Initiative tiebreak"), "coin": _("Coin flip")}
    for match in matches:
        for result in match.state["rounds"]:
            by_affinity[gettext(result["cards"][result["winner"]]["affinity"])] += 1
            decided_by[str(labels[result["decided_by"]])] += 1
    return [
        (str(_("Rounds won, by the winning card's affinity")), by_affinity.most_common()),
        (str(_("How rounds were decided")), decided_by.most_common()),
    ]


def progress(match: Match) -> tuple[str, dict[str, list[int]]]:
    """Round wins of each player after each round, for the match's chart."""
    names = [player.name for player in match.players()]
    totals, series = [0, 0], {name: [0] for name in names}
    for result in match.state["rounds"]:
        totals[result["winner"]] += 1
        for name, total in zip(names, totals):
            series[name].append(total)
    return str(_("Round wins after each round")), series
