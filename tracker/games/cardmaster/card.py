"""A Cardmaster card as the board draws it (templates/games/cardmaster/card.html): its face, and the moves of a card
whose possession it is, each drawn here where the template drew them tag by tag.

A Cardmaster A1 draws four cards, and that was three quarters of its time (docs/performance.md): some 200 tags for
a card that moves (its targets, its move buttons, its stats twice), each 2 to 6 µs in Django. Here they are written
out line for line as the template wrote them, its whitespace too, so the page is the same to the byte; the messages
are the template's, in the same catalogue, each looked up once a process and language. Names and words are escaped
as the template escaped them; a message's own text is not, as the template's translations were not. Each message
is asked outside the f-strings: makemessages (xgettext) does not look inside one.
"""

from collections.abc import Mapping
from typing import Any

from django import template
from django.utils.html import conditional_escape as esc
from django.utils.safestring import SafeString

from tracker.games.board_forms import DrawnForm
from tracker.matches.engine_messages import kept_pgettext as pgettext  # the same words on every tap: kept
from tracker.templatetags.board_forms import field_error, invalid, typed, value


def _put(said: str, **values: Any) -> str:
    """A message with `values` put in, escaped, as `{% blocktranslate with … %}` put them in."""
    return said % {name: esc(given) for name, given in values.items()}


def _facts(card: Mapping) -> str:
    """The facts' fold: types and tier in its summary, with each stat changed since the lineup; inside, every stat
    and what the card's A2 and A3 inflict."""
    changed = "".join((f" · {esc(name)} {esc(number)}{' ↑' if change > 0 else ' ↓'}" if change else "") + "\n      "
                      for name, number, change in card["stats"])
    last = len(card["stats"]) - 1
    every = "".join(f"\n      {esc(name)} {esc(number)}{' ↑' if change > 0 else ' ↓' if change < 0 else ''}"
                    f"{' · ' if index < last else ''}\n    "
                    for index, (name, number, change) in enumerate(card["stats"]))
    first, second = card["types"]
    tier = _put(pgettext("cardmaster", "tier %(tier)s"), tier=card["tier"])
    inflicts = _put(pgettext("cardmaster", "A2/A3: %(status)s"), status=card["inflicts"])
    return (f'  <details class="cm-facts">\n'
            f"    <summary>{esc(first)} / {esc(second)} · {tier}\n"
            f"      {changed}</summary>\n"
            f'    <p class="cm-stats small">{every} · {inflicts}</p>\n'
            f"  </details>")


def face(card: Mapping) -> SafeString:
    """What every card shows, from its header to its facts: name, whether it moved, HP, gems, status and stats."""
    risen = ""
    if card["risen"]:
        word = pgettext("cardmaster", "Risen")
        risen = f' <span class="tag">✝ {word}</span>'
    ready = ""
    if card["in_possession"]:
        done = "● " + pgettext("cardmaster", "can move") if card["can_move"] else f"✓ {esc(card['done'])}"
        ready = f'\n    <span class="cm-ready">{done}</span>\n    '
    status = ""
    if card["status"]:
        symbol, name, strength, left = (esc(card["status"][key]) for key in ("symbol", "name", "strength", "left"))
        status = f'\n  <p class="cm-status">{symbol} <strong>{name}</strong> {strength}% · {left}</p>\n  '
    hp, most = esc(card["hp"]), esc(card["max_hp"])
    said_hp = _put(pgettext("cardmaster", "HP %(hp)s of %(max)s"), hp=hp, max=most)
    line = _put(pgettext("cardmaster", "HP %(hp)s/%(max)s"), hp=hp, max=most)
    gems = _put(pgettext("cardmaster", "◆ %(n)s shown (1 + %(s)s stacked)"), n=card["gems"], s=card["stack"])
    return SafeString(
        f'  <header class="cm-card-head">\n'
        f'    <h3 id="card-{esc(card["id"])}-name">{esc(card["name"])}{risen}</h3>\n'
        f"    {ready}\n"
        f"  </header>\n"
        f"  \n"
        f'  <meter class="cm-hp" min="0" max="{most}" value="{hp}" low="{esc(card["hp_low"])}" '
        f'high="{esc(card["hp_high"])}" optimum="{most}"\n'
        f'    aria-label="{said_hp}">{hp}/{most}</meter>\n'
        f'  <p class="cm-line">{line} ·\n'
        f'    <span class="cm-gems">{gems}</span></p>\n'
        f"  {status}\n"
        f"  \n"
        + _facts(card))


def _targets(context: template.Context, card: Mapping, sent: DrawnForm) -> str:
    """The attacks' targets, each with its HP and the multipliers: the first checked, or the one the player sent."""
    picked = typed(sent, "target")
    labels = []
    for index, target in enumerate(card["targets"]):
        checked = ("\n        checked" if picked == target["id"] else "") if picked else (" checked" if index == 0 else "")
        # `invalid` for each radio, as the template asked it: the first control of a refused field takes the focus.
        labels.append(
            f'\n      <label><input type="radio" name="target"{invalid(sent, "target")}\n'
            f'          value="{esc(target["id"])}"{checked}> <span>{esc(target["name"])} '
            f'<span class="small">HP&nbsp;{esc(target["hp"])}</span>\n'
            f'        <span class="small muted cm-odds">{esc(target["odds"])}</span></span></label>\n      ')
    legend = pgettext("cardmaster", "Target")
    return (f'\n    <fieldset class="cm-targets">\n'
            f"      \n"
            f"      <legend>{legend}</legend>\n"
            f'      {"".join(labels)}\n'
            f'      {field_error(context, sent, "target")}\n'
            f"    </fieldset>\n    ")


def _rolls(card: Mapping, sent: DrawnForm, rolls_open: bool) -> str:
    """The fields for real dice, the backfire roll and the status roll: folded unless the table rolls its own."""
    opened = " open" if rolls_open or typed(sent, "roll") or typed(sent, "roll.1") else ""
    card_id = esc(card["id"])
    number = 'type="number" name="roll" min="1" max="100" inputmode="numeric"'
    summary = pgettext("cardmaster", "Rolled real dice? Enter d100 rolls (blank: the app rolls)")
    backfire = pgettext("cardmaster", "Backfire roll (1–100)")
    backfires = _put(pgettext("cardmaster", "Backfires on %(on)s."), on=card["backfire_on"])
    status = pgettext("cardmaster", "Status roll (1–100)")
    when = pgettext("cardmaster", "Only when there was no backfire: the status lands on the range under A2 or A3.")
    return (f'\n    <details class="cm-rolls"{opened}>\n'
            f"      <summary>{summary}</summary>\n"
            f"      <label>{backfire} <input {number}\n"
            f'        aria-describedby="backfire-{card_id}"{value(sent, "roll")}></label>\n'
            f'      <p class="small" id="backfire-{card_id}">{backfires}</p>\n'
            f"      <label>{status} <input {number}\n"
            f'       {value(sent, "roll.1")}></label>\n'
            f'      <p class="small">{when}</p>\n'
            f"    </details>\n    ")


def _select(context: template.Context, sent: DrawnForm, field: str, label: str, options: list[str]) -> str:
    """A move's own choice (whom to revive, whom to shift in, which stat to boost): a select with its label."""
    return (f'\n      <label class="cm-pick">{label} <select name="{field}"{invalid(sent, field)}>\n        '
            f'{"".join(options)}</select></label>{field_error(context, sent, field)}\n      ')


def _pick(context: template.Context, card: Mapping, move: Mapping, sent: DrawnForm) -> str:
    """The select a REVIVE or Shift button sends with it, when the move can be made."""
    if move["value"] == "revive" and move["enabled"]:
        chosen = typed(sent, "ally")
        return _select(context, sent, "ally", pgettext("cardmaster", "Revive whom"), [
            f'<option value="{esc(ally["id"])}"{" selected" if chosen == ally["id"] else ""}>{esc(ally["name"])}'
            f"</option>\n        " for ally in card["fallen"]])
    if move["value"] == "shift" and move["enabled"]:
        chosen = typed(sent, "reserve")
        return _select(context, sent, "reserve", pgettext("cardmaster", "Shift in"), [
            f'<option value="{esc(bench["id"])}"{"\n          selected" if chosen == bench["id"] else ""}>'
            f'{esc(bench["name"])} (◆ {esc(bench["shown"])})</option>' for bench in card["reserve"]])
    return ""


def _move(context: template.Context, card: Mapping, move: Mapping, sent: DrawnForm) -> str:
    """One move's button with its price, the odds of its dice, and why it cannot be made (then it is disabled)."""
    card_id, move_id = esc(card["id"]), esc(move["value"])
    disabled = "" if move["enabled"] else f' disabled\n        aria-describedby="why-{card_id}-{move_id}"'
    risk = f'<p class="cm-risk small"><span aria-hidden="true">⚄</span> {esc(move["risk"])}</p>' if move["risk"] else ""
    why = "" if move["enabled"] else (f'<p class="cm-why small" id="why-{card_id}-{move_id}">'
                                      f'<span aria-hidden="true">✗</span> {esc(move["why"])}</p>')
    return (f"\n      {_pick(context, card, move, sent)}\n"
            f'      <button class="button cm-move" type="submit" name="action" value="{move_id}"{disabled}>\n'
            f'        <strong>{esc(move["label"])}</strong> <span class="small">{esc(move["detail"])}</span></button>\n'
            f"      {risk}\n      {why}\n      ")


def _spc(context: template.Context, card: Mapping, sent: DrawnForm) -> str:
    """SPC, a card's one boost, with the stat it goes to; else why it cannot be had."""
    spc = card["spc"]
    if not spc["stats"]:
        return f'\n      <p class="cm-why small"><span aria-hidden="true">✗</span> {esc(spc["why"])}</p>\n      '
    chosen = typed(sent, "stat")
    options = [f'<option value="{esc(stat)}"{" selected" if chosen == stat else ""}>{esc(label)}</option>\n        '
               for stat, label in spc["stats"]]
    boost = _put(pgettext("cardmaster", "SPC boost (+%(n)s, once) to"), n=spc["amount"])
    permanent = pgettext("cardmaster", "permanent boost, uses the move")
    return (_select(context, sent, "stat", boost, options)
            + f'<button class="button cm-move" type="submit" name="action"\n'
            f'        value="spc"><strong>SPC</strong> '
            f'<span class="small">{permanent}</span></button>\n      ')


def moves(context: template.Context, card: Mapping, sent: DrawnForm, rolls_open: bool, raided: int) -> SafeString:
    """Inside a card's form, for the player whose possession it is: the fold of its moves if it may still move
    (targets, dice, a button a move, SPC), and the button that deposits a raided gem on it where it may. In the
    template's order, which is the order of the error slots and of the focus after a refusal."""
    box = ""
    if card["can_move"]:
        opened = " open" if card.get("open") or sent else ""
        named = _put(pgettext("cardmaster", "Moves for %(name)s"), name=card["name"])
        targets = _targets(context, card, sent) if card["targets"] else ""
        rolls = _rolls(card, sent, rolls_open) if card["rolls"] else ""
        buttons = "".join(_move(context, card, move, sent) for move in card["moves"])
        box = (f'\n    <details class="cm-movebox"{opened}>\n'
               f"    <summary>{named}</summary>\n"
               f"    {targets}\n"
               f"    {rolls}\n"
               f'    <div class="cm-buttons">\n'
               f"      {buttons}\n"
               f"      {_spc(context, card, sent)}\n"
               f"    </div>\n"
               f"    </details>\n    ")
    deposit = ""
    if card["deposit"]:
        said = _put(pgettext("cardmaster", "Deposit 1 raided gem here (%(n)s in the pool, no move used)"), n=raided)
        deposit = (f'\n    <button class="button cm-deposit" type="submit" name="action"\n'
                   f'      value="deposit"><span aria-hidden="true">◆</span>\n'
                   f"      {said}</button>\n    ")
    return SafeString(f"{box}\n    {deposit}")
