"""Forms shared by every game: who plays, which step, which filter."""

from django import forms
from django.utils.translation import gettext_lazy as _

import rules

from .models import Player


class PlayersForm(forms.Form):
    """The players of a new match, by name; new names become new players; and the club it is played in."""

    def __init__(self, *args, seats: int, clubs=None, **kwargs):
        super().__init__(*args, **kwargs)
        for seat in range(seats):
            self.fields[f"player_{seat}"] = forms.CharField(
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
        names = [" ".join(data[f].split()) for f in self.fields if f.startswith("player_") and data.get(f, "").strip()]
        seats = [f for f in self.fields if f.startswith("player_")]
        if len(names) == len(seats) and len({n.casefold() for n in names}) < len(names):
            raise forms.ValidationError(_("Each seat needs a different player."))
        data["names"] = names
        return data


class StepForm(forms.Form):
    """A move along the log: to `step`, made against the match at step `seq`."""

    step = forms.IntegerField(min_value=0)
    seq = forms.IntegerField(min_value=0)


class SeqForm(forms.Form):
    """The step a page was showing when its form was sent."""

    seq = forms.IntegerField(min_value=0)


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
        label=_("Player"), required=False, queryset=Player.objects.none(), empty_label=_("All players")
    )
    club = forms.ModelChoiceField(label=_("Club"), required=False, queryset=Player.objects.none(),
                                  empty_label=_("Any club or none"))
