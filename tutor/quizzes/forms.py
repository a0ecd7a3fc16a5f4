from __future__ import annotations

from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from tutor.core.explain import preset_choices

from .models import Skill
from .services import MAX_QUESTIONS, PRACTICE_LENGTH


class PracticeForm(forms.Form):
    skills = forms.MultipleChoiceField(
        label=_("Skills"),
        choices=Skill.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Leave empty and the site picks your weakest and most overdue skills."),
    )
    count = forms.IntegerField(
        label=_("Questions"), min_value=1, max_value=MAX_QUESTIONS, initial=PRACTICE_LENGTH
    )
    rules = forms.ChoiceField(label=_("Rule set"), initial="default")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # `fields` holds Field; this one is the ChoiceField declared above.
        cast(forms.ChoiceField, self.fields["rules"]).choices = preset_choices()


class AnswerForm(forms.Form):
    """Only the key of a choice; whether it is one of the question's keys is the
    service's check, so a tampered value gets the same clear refusal everywhere."""

    choice = forms.CharField(max_length=8)
