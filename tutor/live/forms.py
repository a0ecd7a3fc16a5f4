from __future__ import annotations

from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from teaching.generators.positions import ASKS, asks_for
from tutor.classroom.forms import lesson_field, question_kinds_field, set_lesson_choices
from tutor.core.explain import preset_choices
from tutor.table.models import Focus

from .services import (
    MAX_LIVE_QUESTIONS,
    NO_JASSTAFEL_IN_UNDENUFE,
    TIMER_SECONDS,
    Action,
    LiveSpec,
)


def _timer_label(seconds: int) -> str:
    return str(_("no timer")) if not seconds else str(_("%(n)s seconds")) % {"n": seconds}


class StartForm(forms.Form):
    """Question kinds under a rule set, or the questions of one lesson."""

    lesson = lesson_field()
    focus = forms.ChoiceField(
        label=_("Or: positions at a table of the trainer"),
        required=False,
        choices=[("", _("none")), *Focus.choices],
        help_text=_(
            "Rounds of the table trainer in the rule set below, stopped where a player "
            "decides; the question kinds below are then not used."
        ),
    )
    asks = forms.MultipleChoiceField(
        label=_("Ask at each round"),
        required=False,
        choices=[
            ("announce", _("Does the announcement count? (the first trick)")),
            ("play", _("Which of these cards may the player play? (tricks 2 to 8)")),
            ("jasstafel", _("What does the team write for the round? (the Jasstafel)")),
        ],
        initial=list(ASKS),
        widget=forms.CheckboxSelectMultiple,
    )
    kinds = question_kinds_field()
    question_count = forms.IntegerField(
        label=_("Number of questions"), min_value=1, max_value=MAX_LIVE_QUESTIONS, initial=5
    )
    rules_preset = forms.ChoiceField(label=_("Rule set"), initial="default")
    timer_seconds = forms.TypedChoiceField(
        label=_("Timer per question"),
        coerce=int,
        initial=0,
        help_text=_("Answers are taken until the time is up; you show the answer yourself."),
    )
    leaderboard = forms.BooleanField(
        label=_("Show a leaderboard (first names only)"),
        required=False,
        help_text=_("Off by default: the class sees how it answered, not who."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["rules_preset"]).choices = preset_choices()
        cast(forms.ChoiceField, self.fields["timer_seconds"]).choices = [
            (s, _timer_label(s)) for s in TIMER_SECONDS
        ]
        set_lesson_choices(self.fields["lesson"])

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("lesson") and data.get("focus"):
            self.add_error(
                "focus", _("Choose the questions of a lesson or positions at the table, not both.")
            )
        elif data.get("focus") and not data.get("asks"):
            self.add_error("asks", _("Choose at least one moment to ask about."))
        elif data.get("focus") and set(data["asks"]) - set(asks_for(data["focus"])):
            self.add_error("asks", NO_JASSTAFEL_IN_UNDENUFE)
        elif not data.get("lesson") and not data.get("focus") and not data.get("kinds"):
            self.add_error("kinds", _("Choose at least one question kind, or a lesson."))
        return data

    def spec(self) -> LiveSpec:
        data = self.cleaned_data
        return LiveSpec(
            kinds=data["kinds"],
            question_count=data["question_count"],
            rules_preset=data["rules_preset"],
            timer_seconds=data["timer_seconds"],
            leaderboard=data["leaderboard"],
            lesson=data["lesson"],
            focus=data["focus"],
            asks=tuple(data["asks"]),
        )


class ControlForm(forms.Form):
    action = forms.ChoiceField(choices=[(a, a) for a in Action.ALL])
    version = forms.IntegerField(min_value=0, max_value=2**31 - 1)


class AnswerForm(forms.Form):
    position = forms.IntegerField(min_value=0, max_value=MAX_LIVE_QUESTIONS)
    choice = forms.CharField(max_length=8)


class CodeForm(forms.Form):
    code = forms.CharField(label=_("Code from the projector"), max_length=20)
