"""Each game's web side: its forms, templates and page context.

The engine in rules/ decides; the adapter here turns form posts into actions and
states into what a page shows. `pages_for(slug)` finds a game's adapter. An adapter
is a module with:

    BOARD_TEMPLATE      template included in the match page (has `match`, `board`, `players`)
    ENTRY_TEMPLATE      the secret-entry page (hot-seat) for one seat
    NEW_MATCH_NOUN      "battle", "duel", ... for "New <game> <noun>"
    DEMO_CARDS          the demo catalog: a list of cards as the engine validates them
    CardForm            catalog card form (prefix "new"); cleaned_data is the engine's card
    ConfigForm          per-match options (prefix "config"); cleaned_data is the engine's config
    card_stats(card)    what the catalog stores beside the name
    board(match)        the context the board template needs
    seats_to_enter(match)        seats whose secret entry is awaited now
    entry_form(match, data, seat)   the secret-entry form of a seat; entry_action(form, seat) -> action
    table_action(match, post)    an open action from a board form (raise ValidationError if malformed)
    describe(event, names)       one log line for an engine event ("" to skip it)
    describe_action(action, events, names)   the log title of an action

The board template gets `read_only` (a spectator, or the replay page) and must then show
no action forms or hot-seat links; `viewer` says who is looking (role, seat), and
`entry_links` gives, per seat awaiting a secret entry, the URL this phone should use
("" when another phone holds that seat). Optional hooks: own_secret(match, seat) (a
seated phone's own hidden entry), cards_played(match, seat), figures(matches) and
progress(match) (statistics and charts).

Board forms post to `match_act` with `seq`, the action fields, and optional `roll`
fields for dice rolled by hand. An action payload with `"override": true` is shown
as a manual override in the log.
"""

from types import ModuleType

from . import card_crush, cardmaster, evons, logos, lonely_star

ADAPTERS: dict[str, ModuleType] = {
    "card-crush": card_crush, "cardmaster": cardmaster, "lonely-star": lonely_star, "logos": logos,
    "evons": evons,
}


def pages_for(slug: str) -> ModuleType:
    return ADAPTERS[slug]
