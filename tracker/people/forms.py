"""The forms of accounts and clubs."""

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import rules
from tracker.matches.forms import PlayerNameField


class SignUpForm(UserCreationForm):
    player_name = PlayerNameField(
        label=gettext_lazy("Your player name"), max_length=40,
        help_text=gettext_lazy("The name you play under. A name a club already entered for you is given to you by its "
                               "organiser once you have joined."),
    )
    # The player name first: refused, it stands at the top with its reason, and the passwords a refused form
    # empties come after it, on the way to the button.
    field_order = ["player_name", "username", "password1", "password2"]

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # The page opens on its first field: UserCreationForm focuses the user name, the second here, and a phone's
        # keyboard then typed the player name into it (a store owner's play-test).
        self.fields["username"].widget.attrs.pop("autofocus", None)
        self.fields["player_name"].widget.attrs["autofocus"] = True

    def clean_player_name(self):
        from tracker.models import Player

        name = self.cleaned_data["player_name"]

        existing = Player.named(name)
        if existing is not None and existing.user_id is not None:
            raise forms.ValidationError(_("That player name belongs to another account."))
        if existing is not None and existing.in_club_records():
            raise forms.ValidationError(_(
                "%(name)s already plays in a club's battles, entered by others, so the name is not taken by signing "
                "up: sign up with another name, join the club, and ask one of its organisers to give you %(name)s "
                "on the club's page.") % {"name": existing.name})
        return name


class ClubForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Club name"), max_length=60)


class NameClaimForm(forms.Form):
    """A card name the club claims in one game's catalog."""

    slug = forms.ChoiceField(label=gettext_lazy("Game"), choices=lambda: [(slug, game.name)
                                                                          for slug, game in rules.GAMES.items()])
    name = forms.CharField(label=gettext_lazy("Card name"), max_length=60)

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        if not name or "\x00" in name:
            raise forms.ValidationError(_("Type the card's name."))
        return name


class ClubSettingsForm(forms.Form):
    public_leaderboard = forms.BooleanField(label=gettext_lazy("Show the leaderboard to everyone"), required=False)
    public_tournaments = forms.BooleanField(label=gettext_lazy("Show the tournaments to everyone"), required=False)
