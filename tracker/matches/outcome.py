"""What the outcome box (templates/tracker/outcome.html) says of the step just taken.

The box is where the player looks right after a tap (held at the bottom of the screen), while the
board's own account of the last step may be scrolled away: so it tells the step itself, short, in
every game, even what the board also shows. It holds the step's title, a line when the step ended
the match ("Match over: Ben wins 3 rounds to 2", with what the numbers count), and the step's key
working: each game's `outcome_line` picks and shortens it (tracker/games/base.py):

- Card Crush: every line: the decks revealed with the team initiative, each round's winner with
  its working (affinity bonus, power, the tiebreak), the battle won.
- Lonely Star: every line: crit, luck and resist rolls against the stat, damage dealt after
  Resist, HP left, statuses placed or removed, cards milled or drawn, the winner.
- Cardmaster: an attack's damage, type multiplier, HP left and its backfire and status rolls
  (its formula folds away); falls, raids, statuses, gems stacked, possession and rounds. In a
  Showdown the AI's answer comes first, a line per move, marked by its possessions (GamePages.reply).
- LOGOS: who attacks and why (class, SPEED, Deadlock), the damage and HP left, the end of a
  round or of the duel; the revealed cards' stats, effects and combo counters fold away.
- Evons: a card revealed, conflicts, flips, abilities, moves, the score and the game's end; the
  play's cost (its title names card and cell), chain activations and turn bookkeeping fold away.

At most SHOWN lines stand open, and only as many as the box's rows hold on a 360x740 phone (`box_rows`,
counted as `rows` counts them, the title, the messages and the fold's summary too), so nothing in it is read
by scrolling inside it; except that a consequence the player must act on (each game's `consequences`: lethal
damage, a card leaving play, a mill, a raid, a status landing or wearing off, a flip, the match's end) always
stands open: the fold keeps only the arithmetic. The log's other lines for the step (a game's folded ones, an
attack's formula) are under "The whole working", and in the log; an answer's moves the box could not hold open
lead that fold, numbered on from the open ones, and its summary counts them apart ("4 more moves, 2 more lines").

A long name (a player's, a card's) is cut short in what the box shows open (`short_names`): two 40-letter names
and a 60-letter card took a 360-px box's third for the title alone, and its lines were read by scrolling inside the
box. The fold, the log and the board write every name whole.
"""

import unicodedata

from django.utils.translation import gettext, ngettext

from tracker.models import Match

SHOWN = 3
"""Lines of working the box shows open; the rest fold."""
REPLY_SHOWN = 3
"""Moves of an answer the app played (a Showdown AI's) the box shows open, below the answer's heading; the rest
fold. The box may take nearly half the screen for an answer (cardmaster.css): at two, the move a player most
often acts on, the AI's attack after its shifts, was folded."""
REPLY_ROWS = 4
"""Rows of a 360-px box an answer's open moves may take: a move longer than LINE_CHARS takes two (an answer over two
possessions names each move's, "Possession 1: Moon Wyrm: A1 on Tidecaller"), so such an answer shows two moves open.
Three of those ran past the box, the third read in part (tests/browser/test_cardmaster_layout.py)."""
LINE_CHARS = 36
"""About the characters one row of the box holds on a 360-px phone."""
ROW_CHARS = 30
"""About the characters one row of the box's lines holds there (a 275-px line of 0.9rem text)."""
TITLE_CHARS = 25
"""The same for its title: in bold, after its ✓."""
FOLD_ROWS = 2
"""The fold's summary: a 44-px tap, two rows."""
NAME_MOST = 22
"""The longest name the box writes whole: a longer one is cut to its first words (or letters) and "…"."""
NAME_KEPT = 18
"""About the letters a cut name keeps: its first words within NAME_KEPT + 2, or its first NAME_KEPT letters."""


def rows(text: str, width: int = ROW_CHARS) -> int:
    """The rows `text` takes in the box, about: its words wrapped as the phone wraps them, a word longer than a row
    (a 40-letter name) broken where it meets the row's end (app.css: overflow-wrap)."""
    taken, row = 1, 0
    for word in text.split():
        if row and row + 1 + len(word) > width:
            taken, row = taken + 1, 0
        row += (1 if row else 0) + len(word)
        while row > width:
            taken, row = taken + 1, row - width
    return taken


def short_names(names) -> dict[str, str]:
    """Each of `names` longer than NAME_MOST, cut short for the box: "Ancient Thundering…" for "Ancient Thundering
    Leviathan of the Shattered Northern Deeps". Two names never come out alike: each is kept longer until they
    differ (two players whose names start with the same 20 letters)."""
    long = sorted({name for name in names if len(name) > NAME_MOST})
    cut = {name: _cut_at(name) for name in long}
    while clash := [name for name in long if sum(_prefix(other, cut[other]) == _prefix(name, cut[name])
                                                  for other in long) > 1]:
        for name in clash:
            cut[name] = _next_letter(name, cut[name] + 1)
    return {name: _prefix(name, at) + "…" for name, at in cut.items() if at < len(name)}


def _cut_at(name: str) -> int:
    """After the last whole word within NAME_KEPT + 2 letters, or after NAME_KEPT letters when that is a short one."""
    head = name[:NAME_KEPT + 3]
    words = head.rsplit(" ", 1)[0].rstrip() if " " in head else ""
    return _next_letter(name, len(words) if len(words) >= NAME_KEPT // 2 else NAME_KEPT)


def _next_letter(name: str, at: int) -> int:
    """`at`, moved on past combining marks: a cut never parts a letter from its accent."""
    while at < len(name) and unicodedata.combining(name[at]):
        at += 1
    return at


def _prefix(name: str, at: int) -> str:
    return name[:at].rstrip(" ,.:;-")


def in_box(text: str, short: dict[str, str]) -> str:
    """`text` with each long name cut short (short_names), the longest first: a name inside a longer one is that
    one's. A sentence ending on a cut name ends on its "…"."""
    for name in sorted(short, key=len, reverse=True):
        text = text.replace(name, short[name])
    return text.replace("….", "…")  # a sentence ending on a cut name: its stop is the ellipsis


def _strings(value) -> list[str]:
    """Every string in an event or a shown action, its names among them."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        value = list(value.values())
    return [text for item in value for text in _strings(item)] if isinstance(value, list) else []


def _fitting(moves: list, most: int) -> int:
    """How many of an answer's first moves stand open: at most `most`, within REPLY_ROWS, and at least one."""
    rows = shown = 0
    for move in moves[:most]:
        rows += 1 if len(str(move)) <= LINE_CHARS else 2
        if shown and rows > REPLY_ROWS:
            break
        shown += 1
    return shown


def step_said(match: Match, entry: dict, title: str | None = None, taken: int = 0) -> dict:
    """The outcome box's account of one log entry (tracker.review.views.log_entries): `title` (the log's unless
    given), `ended` (the match's end, when this step ended it), `lines` shown and `folded` lines. `taken`: the rows
    the box's messages take above them."""
    from tracker.games import pages_for  # the games' pages build on this package: asked for when drawn

    pages = pages_for(match.slug)
    names = [player.name for player in match.players()]
    said = [(event["type"] in pages.consequences, pages.outcome_line(event, names) or (
        pages.describe(event, names) if event["type"] in pages.consequences else "")) for event in entry["action"].events]
    # What the player must act on always stands open; the other key lines fill the box up to SHOWN, as its rows allow.
    # When the app answered the step (a Showdown AI), its moves are what the player has not seen yet: they come first.
    room = max(SHOWN - sum(1 for must, line in said if must and line), 1)
    # The names to cut short: the players' and those in the step as the table sees it (its events and its action
    # as shown, which its title is written from), never an entry still hidden.
    short = short_names([*names, *_strings(entry["action"].events), *_strings(entry["shown"])])
    title, ended = in_box(entry["what"] if title is None else title, short), in_box(match_end(match), short)
    wholes = [line for _must, line in said]  # as the log writes them: what the fold leaves out
    said = [(must, in_box(line, short)) for must, line in said]
    # The rows left for the key lines: the title (with "(log entry n)"), the match's end, what must stand open, and
    # the fold's summary are counted first.
    left = (pages.box_rows - taken - rows(f"{title} (log entry 00)", TITLE_CHARS) - (rows(ended) if ended else 0)
            - FOLD_ROWS - sum(rows(line) for must, line in said if must and line))
    answer = pages.reply(match, entry["action"].seq, names)
    reply, rest = None, []
    if answer is not None:
        heading, moves = answer
        open_ = _fitting(moves, min(room, REPLY_SHOWN))
        # The moves that do not fit lead the fold, numbered on from the open ones.
        rest = moves[open_:]
        reply = {"heading": in_box(heading, short), "lines": [in_box(str(move), short) for move in moves[:open_]],
                 "rest": rest, "start": open_ + 1}
        room = 0
    consequence = set(to_act_on(match, entry))
    # With the fold's summary counted, unless every line fits open without it (the summary takes two rows).
    shown, opened = _open(said, wholes, room, left + FOLD_ROWS)
    folded = [line for line in entry["lines"] if line not in opened and line not in consequence]
    if folded or rest:
        shown, opened = _open(said, wholes, room, left)
        folded = [line for line in entry["lines"] if line not in opened and line not in consequence]
    return {"title": title, "ended": ended, "lines": shown, "reply": reply, "folded": folded,
            "more": _fold_said(len(rest), len(folded)) if rest or folded else ""}


def _open(said: list[tuple[bool, str]], wholes: list[str], room: int, left: int) -> tuple[list[str], set[str]]:
    """The lines standing open, as the box writes them, and as the log does: each one a player must act on, and the
    others in turn while at most `room` of them fill at most `left` rows."""
    shown, opened = [], set()
    for (must, line), whole in zip(said, wholes, strict=True):
        if line and (must or (room > 0 and rows(line) <= left)):
            shown.append(line)
            opened.add(whole)
            room -= not must
            left -= 0 if must else rows(line)
    return shown, opened


def _fold_said(moves: int, lines: int) -> str:
    """The fold's summary, "The whole working (1 more move, 3 more lines)": an answer's heading counts its moves,
    so the moves the box could not hold open are counted apart (a player read "3 moves" above two and looked for
    the third)."""
    more_moves = ngettext("%(n)s more move", "%(n)s more moves", moves) % {"n": moves}
    more_lines = ngettext("%(n)s more line", "%(n)s more lines", lines) % {"n": lines}
    if moves and lines:
        more = gettext("%(moves)s, %(lines)s") % {"moves": more_moves, "lines": more_lines}
    else:
        more = more_moves if moves else more_lines
    return gettext("The whole working (%(more)s)") % {"more": more}


def to_act_on(match: Match, entry: dict) -> list[str]:
    """The log's lines of what the step did that the players must act on at the table (each game's `consequences`:
    a card falls or is flipped, gems are raided, the match ends): open in the tapping phone's box, and told the
    other phones with the news of the step (news.py)."""
    from tracker.games import pages_for  # the games' pages build on this package: asked for when drawn

    pages, names = pages_for(match.slug), [player.name for player in match.players()]
    return [line for event in entry["action"].events if event["type"] in pages.consequences
            and (line := pages.describe(event, names))]


def match_end(match: Match) -> str:
    """ "Match over: Ben wins 3 rounds to 2", once the step just taken (or a Showdown AI's answer to it)
    ended the match: nothing is applied to a finished match, so the step did."""
    if not match.finished:
        return ""
    if match.winner is None:
        said = gettext("Match over: a draw, %(score)s.") % {"score": match.shown_score}
    else:
        said = gettext("Match over: %(name)s wins %(score)s.") % {"name": match.winner.name, "score": match.shown_score}
    if match.corrected:
        said += " " + gettext("Decided with manual corrections: statistics list it apart.")
    return said
