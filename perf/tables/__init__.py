"""Table scripts for the load test: each plays one whole match of its game over HTTP.

A script is `play(phone, table, number)`: it starts a match on the game's "New match" page,
then plays it to its end through the forms the pages render, as a phone at the table would
(see common.py for the steps and the doubled and stale submissions every match tries).
"""

from . import card_crush, cardmaster, evons, logos, lonely_star

# Game slug -> a function playing one whole match over HTTP; tables take the games in turn.
TABLE_SCRIPTS = {
    "card-crush": card_crush.play,
    "logos": logos.play,
    "cardmaster": cardmaster.play,
    "lonely-star": lonely_star.play,
    "evons": evons.play,
}
