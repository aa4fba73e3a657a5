"""Forms shared by every game: who plays, which step, which filter."""

import re

from django import forms
from django.utils.translation import gettext_lazy as _

import rules
from tracker.matches import names
from tracker.matches.services import Seq
from tracker.models import Player


class PlayerNameField(forms.CharField):
    """A typed player's name, kept as names.player_name keeps it, refused when it would pass for another name:
    every form that takes a player's name uses it (a form that did not took "Оlga" with a Cyrillic О)."""

    def clean(self, value):
        value = super().clean(value)
        if value and (refusal := names.player_name_refusal(value)):  # on the name as kept: its length too
            raise forms.ValidationError(refusal)
        return names.player_name(value) if value else value


class PlayersForm(forms.Form):
    """The players of a new match, by name; new names become new players; and the club it is played in."""

    def __init__(self, *args, seats: int, clubs=None, **kwargs):
        super().__init__(*args, **kwargs)
        for seat in range(seats):
            self.fields[f"player_{seat}"] = PlayerNameField(
                label=_("Player %(number)s") % {"number": seat + 1},
                max_length=40,
                widget=forms.TextInput(attrs={"list": "players", "autocomplete": "off"}),
            )
        if clubs is not None and clubs.exists():
            self.fields["club"] = forms.ModelChoiceField(
                label=_("Play it in a club"), queryset=clubs, required=False,
                # Short enough for a 360 px select; the help below says the rest.
                empty_label=_("No club (private)"),
                widget=forms.Select(attrs={"aria-describedby": "id_club_help"}),
                help_text=_("Without a club, only you and the phones you invite see the match. In a club, its members "
                            "can watch it, and it counts in the club's statistics and ratings."))

    def clean(self):
        data = super().clean()
        typed = [data[f] for f in self.fields if f.startswith("player_") and data.get(f, "").strip()]
        seats = [f for f in self.fields if f.startswith("player_")]
        if len(typed) == len(seats) and len({names.look(n) for n in typed}) < len(typed):  # "ΑΝΑ" is Ana
            raise forms.ValidationError(_("Each seat needs a different player."))
        data["names"] = typed
        return data


class SeqField(forms.CharField):
    """The board a page's form was drawn on, as `Match.board_mark` writes it ("5-7"), or a bare step ("5"): a
    services.Seq."""

    SHAPE = re.compile(r"([0-9]{1,9})(?:-([0-9]{1,9}))?")

    @classmethod
    def read(cls, text: str) -> Seq | None:
        """The Seq `text` spells, or None for any other shape."""
        found = cls.SHAPE.fullmatch(text)
        return None if found is None else Seq(int(found[1]), int(found[2]) if found[2] is not None else None)

    def to_python(self, value):
        value = super().to_python(value)
        if value in self.empty_values:
            return None
        seq = self.read(value)
        if seq is None:
            raise forms.ValidationError(forms.IntegerField.default_error_messages["invalid"], code="invalid")
        return seq


class StepForm(forms.Form):
    """A move along the log: to `step`, made against the match at step `seq`."""

    step = forms.IntegerField(min_value=0)
    seq = SeqField()


class SeqForm(forms.Form):
    """The step a page was showing when its form was sent, and the line that led there (SeqField)."""

    seq = SeqField()

    @classmethod
    def sent(cls, data) -> Seq | None:
        """The `seq` a form sent, as `SeqForm(data)` cleans it, or None where the form would be invalid: without the
        form's making (an action asks this first, and Django's form machinery was some 50 µs of it)."""
        value = data.get("seq")
        if not isinstance(value, str):
            return None if value is None else SeqForm(data).cleaned_seq()
        return SeqField.read(value.strip())

    def cleaned_seq(self) -> Seq | None:
        return self.cleaned_data["seq"] if self.is_valid() else None


class MatchFilterForm(forms.Form):
    """Filters of the match list; the players and clubs offered are only those the viewer may see."""

    def __init__(self, *args, players, clubs, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = players
        if clubs.query.is_empty():
            del self.fields["club"]  # a phone without an account is in no club: nothing to choose
        else:
            self.fields["club"].queryset = clubs

    game = forms.ChoiceField(
        label=_("Game"), required=False,
        choices=lambda: [("", _("All games"))] + [(slug, g.name) for slug, g in rules.GAMES.items()],
    )
    player = forms.ModelChoiceField(
        label=_("Player"), required=False, queryset=Player.objects.none(), empty_label=_("All players"),
    )
    club = forms.ModelChoiceField(label=_("Club"), required=False, queryset=Player.objects.none(),
                                  empty_label=_("Any club or none"))
