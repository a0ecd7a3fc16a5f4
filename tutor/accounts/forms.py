from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from .models import Deck, User
from .validators import validate_new_username


class SignupForm(UserCreationForm):
    """A learner's own account (the class app adds the join code)."""

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["username"].help_text = _(
            "Letters, digits and . - _ (not at the start or end); at most 150 characters."
        )

    def clean_username(self) -> str | None:
        """Django's checks (NFKC, no name differing only in case), then ours: the
        character profile and no look-alike of an existing name (validators.py)."""
        username = super().clean_username()
        if username:
            existing = User.objects.values_list("username", flat=True).iterator()
            validate_new_username(username, existing)
        return username


class DeckForm(forms.Form):
    deck = forms.ChoiceField(label=_("Deck"), choices=Deck.choices)
    next = forms.CharField(required=False, max_length=2000)
