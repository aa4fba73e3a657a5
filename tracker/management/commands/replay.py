"""Re-run an exported match file: prints the outcome, or the first step that fails and why.

    python manage.py replay tablekeeper-card-crush-12.json
Exit status 0 when the whole file replays and agrees, 1 when it does not. Nothing is stored.
"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from tracker.games import pages_for
from tracker.review import exchange


class Command(BaseCommand):
    help = "Re-run an exported match file through the rules and check every step and die."

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)

    def handle(self, *args, file: Path, **options):
        try:
            raw = file.read_bytes()
        except OSError as error:
            raise CommandError(_("cannot read %(file)s: %(why)s") % {"file": file, "why": error.strerror}) from error
        try:
            data = exchange.parse(raw)
            replayed = exchange.replay(data)
        except exchange.MatchFileError as error:
            raise CommandError(_("refused: %(why)s") % {"why": error}) from error
        self.stdout.write(outcome_line(replayed, data["players"]))


def outcome_line(replayed: exchange.Replayed, players: list[str]) -> str:
    done = {"game": replayed.game.name, "steps": len(replayed.states)}
    outcome = replayed.outcome
    if outcome is None:
        return _("OK: %(game)s, %(steps)s steps replayed; the match is still in progress.") % done
    # In the game's words, as the pages say it: "3 rounds to 2", not "3-2".
    score = pages_for(replayed.game.slug).shown_score(outcome.score)
    if outcome.winner is None:
        return _("OK: %(game)s, %(steps)s steps replayed; a draw, %(score)s.") % {**done, "score": score}
    return _("OK: %(game)s, %(steps)s steps replayed; %(winner)s won %(score)s.") % {
        **done, "winner": players[outcome.winner], "score": score}
