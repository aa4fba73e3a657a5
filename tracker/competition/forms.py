"""Forms of the competition pages. Each change carries what it was made against (round, level, copies)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from rules.card_crush.cards import NAME_MAX
from rules.card_crush.collection import MAX_COPIES

from ..matches import names
from ..matches.forms import PlayerNameField
from .tournaments import ENTRANTS_MOST

PLAYER_NAME_MAX = names.PLAYER_NAME_MAX


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Tournament name"), max_length=80)
    entrants = forms.CharField(
        label=_("Entrants, one name per line"), widget=forms.Textarea(attrs={"rows": 5}), required=False,
        max_length=4000,
    )

    def clean_entrants(self) -> list[str]:
        listed, seen = [], set()
        for number, line in enumerate(self.cleaned_data["entrants"].splitlines(), start=1):
            name = names.player_name(line)  # "Qu\u200bin" is Quin, the organiser who pairs and plays
            if not name:
                continue
            if refusal := names.player_name_refusal(name):
                # Which of the list's names: "this one has 41" said none (a German ß kept as SS made one too long).
                raise forms.ValidationError(_("Line %(line)s: %(refusal)s") % {"line": number, "refusal": refusal})
            if names.look(name) in seen:  # "ΑΝΑ" (Greek capitals) is Ana
                raise forms.ValidationError(_("%(name)s is listed twice.") % {"name": name})
            seen.add(names.look(name))
            listed.append(name)
        if len(listed) > ENTRANTS_MOST:
            raise forms.ValidationError(_("A tournament has at most %(most)s entrants; this list has %(n)s.")
                                        % {"most": ENTRANTS_MOST, "n": len(listed)})
        return listed


class RoundForm(forms.Form):
    """Any tournament change: the round the page showed, so a stale or doubled form is refused."""

    round = forms.IntegerField(min_value=0, max_value=1000)


class EntrantForm(RoundForm):
    name = PlayerNameField(label=_("Add an entrant"), max_length=PLAYER_NAME_MAX,
                           widget=forms.TextInput(attrs={"list": "players", "autocomplete": "off"}))


class DropForm(RoundForm):
    entrant = forms.IntegerField(min_value=1)


class VoidForm(forms.Form):
    reason = forms.CharField(label=_("Why is the result voided?"), max_length=200)


class RatedForm(forms.Form):
    rated = forms.TypedChoiceField(choices=[("1", _("Rated")), ("0", _("Unrated"))], coerce=lambda v: v == "1")


class CopiesForm(forms.Form):
    card = forms.CharField(label=_("Card"), max_length=NAME_MAX,
                           widget=forms.TextInput(attrs={"list": "catalog", "autocomplete": "off"}))
    count = forms.IntegerField(label=_("Copies to add"), initial=1, min_value=1, max_value=MAX_COPIES,
                               error_messages={"min_value": _("Add at least 1 copy; a count cannot be zero or negative.")})


class UpgradeForm(forms.Form):
    level = forms.IntegerField(min_value=1, max_value=1000)
    copies = forms.IntegerField(min_value=1, max_value=MAX_COPIES)
