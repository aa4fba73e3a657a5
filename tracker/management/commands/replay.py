"""Re-run an exported match file: prints the outcome, or the first step that fails and why.

    python manage.py replay tablekeeper-card-crush-12.json
Exit status 0 when the whole file replays and agrees, 1 when it does not. Nothing is stored.
"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tracker import exchange


class Command(BaseCommand):
    help = "Re-run an exported match file through the rules and check every step and die."

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)

    def handle(self, *args, file: Path, **options):
        try:
            raw = file.read_bytes()
        except OSError as error:
            raise CommandError(f"cannot read {file}: {error.strerror}") from error
        try:
            data = exchange.parse(raw)
            replayed = exchange.replay(data)
        except exchange.MatchFileError as error:
            raise CommandError(f"refused: {error}") from error
        steps = len(replayed.states)
        name = replayed.game.name
        if replayed.outcome is None:
            self.stdout.write(f"OK: {name}, {steps} steps replayed; the match is still in progress.")
        else:
            players = data["players"]
            winner = players[replayed.outcome.winner] if replayed.outcome.winner is not None else "nobody (draw)"
            self.stdout.write(f"OK: {name}, {steps} steps replayed; {winner} won {replayed.outcome.score}.")
