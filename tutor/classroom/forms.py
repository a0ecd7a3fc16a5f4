from __future__ import annotations

from datetime import timedelta
from typing import Any, cast

from django import forms
from django.conf import settings
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from tutor.accounts.forms import SignupForm
from tutor.accounts.validators import clean_display_name
from tutor.core.decks import Deck
from tutor.core.explain import preset_choices
from tutor.lessons.questions import plan_for
from tutor.lessons.selectors import course
from tutor.quizzes.models import Skill
from tutor.quizzes.services import MAX_QUESTIONS
from tutor.table.models import Focus

from .assignments import AssignmentSpec
from .models import MAX_TABLE_ROUNDS, Assignment, SchoolClass
from .moodle_export import MAX_EXPORT_QUESTIONS, MAX_SEED, MoodleExportSpec
from .services import normalise_join_code


class ClassForm(forms.Form):
    name = forms.CharField(label=_("Class name"), max_length=80)

    def clean_name(self) -> str:
        # No zero-width or blank-only names (tutor/accounts/validators.py).
        return clean_display_name(self.cleaned_data["name"])


class JoinForm(forms.Form):
    code = forms.CharField(label=_("Join code"), max_length=20)


def question_kinds_field() -> forms.MultipleChoiceField:
    """The question kinds to ask, as checkboxes (an assignment's, a live session's)."""
    return forms.MultipleChoiceField(
        label=_("Question kinds"),
        choices=Skill.choices,
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )


FIRST_YEAR, LAST_YEAR = 2000, 2100  # the assignment dates a form accepts


class DateTimeInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(format="%Y-%m-%dT%H:%M", **kwargs)


def lesson_field() -> forms.ChoiceField:
    """A lesson whose questions to ask (its choices set by :func:`set_lesson_choices`):
    an assignment's, a live session's, a Moodle export's."""
    return forms.ChoiceField(
        label=_("Questions of a lesson"),
        required=False,
        help_text=_(
            "Aimed at the rules that lesson teaches, in its rule sets; the question "
            "kinds and the rule set below are then not used."
        ),
    )


def set_lesson_choices(field: forms.Field) -> None:
    """The lessons with questions, by their titles in the request's language."""
    language = (get_language() or "de")[:2]
    cast(forms.ChoiceField, field).choices = [
        ("", _("none: the question kinds below")),
        *(
            (entry.lesson.slug, entry.text.title)
            for entry in course(language, None)
            if plan_for(entry.lesson.slug).kinds
        ),
    ]


class AssignmentForm(forms.Form):
    """A quiz or rounds at the table. The page shows both groups of fields (without
    JavaScript nothing can hide one); each says which activity it is for, and the
    fields of the activity not chosen are ignored."""

    QUIZ_FIELDS = ("lesson", "kinds", "question_count", "attempts_allowed", "explanations")
    TABLE_FIELDS = ("round_count", "focus")

    title = forms.CharField(label=_("Title"), max_length=120)
    activity = forms.ChoiceField(
        label=_("What the learners do"),
        # Live questions are started from the class page (tutor.live), not set here.
        choices=[
            (value, label)
            for value, label in Assignment.Activity.choices
            if value != Assignment.Activity.LIVE
        ],
        initial=Assignment.Activity.QUIZ,
        widget=forms.RadioSelect,
        # A post without it (a form from before table rounds) sets a quiz.
        required=False,
    )
    lesson = lesson_field()
    kinds = question_kinds_field()
    question_count = forms.IntegerField(
        label=_("Number of questions"),
        min_value=1,
        max_value=MAX_QUESTIONS,
        initial=6,
        required=False,
    )
    round_count = forms.IntegerField(
        label=_("Number of rounds"),
        min_value=1,
        max_value=MAX_TABLE_ROUNDS,
        initial=3,
        required=False,
    )
    focus = forms.ChoiceField(
        label=_("What the rounds practise"),
        choices=Focus.choices,
        widget=forms.RadioSelect,
        required=False,
    )
    rules_preset = forms.ChoiceField(
        label=_("Rule set"),
        initial="default",
        help_text=_("The rules your class plays; every question and answer follows them."),
    )
    opens_at = forms.DateTimeField(label=_("Opens"), widget=DateTimeInput())
    due_at = forms.DateTimeField(label=_("Due"), widget=DateTimeInput())
    attempts_allowed = forms.IntegerField(
        label=_("Attempts allowed"), min_value=1, max_value=10, initial=1, required=False
    )
    same_questions = forms.TypedChoiceField(
        label=_("Questions and deals"),
        choices=[("1", _("the same for everybody")), ("0", _("a variant per learner"))],
        coerce=lambda v: v == "1",
        initial="1",
        widget=forms.RadioSelect,
        help_text=_(
            "A quiz: the same questions. Rounds at the table: the same deal in round 1, "
            "the same in round 2, and so on."
        ),
    )
    explanations = forms.ChoiceField(
        label=_("Learners see the explanations"),
        choices=Assignment.Explanations.choices,
        initial=Assignment.Explanations.IMMEDIATELY,
        widget=forms.RadioSelect,
        required=False,
    )
    late_policy = forms.ChoiceField(
        label=_("After the due date"),
        choices=Assignment.LatePolicy.choices,
        initial=Assignment.LatePolicy.REFUSE,
        widget=forms.RadioSelect,
    )
    tools_allowed = forms.BooleanField(
        label=_("Learners may use the Weis tool while they work on it"),
        required=False,
        help_text=_(
            "Off: while a learner has this assignment open, the Weis tool shows a notice "
            "instead of results."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # `fields` holds Field; this one is a ChoiceField.
        cast(forms.ChoiceField, self.fields["rules_preset"]).choices = preset_choices()
        set_lesson_choices(self.fields["lesson"])
        # Formatted here, in the request's language (a lazy text formatted at import
        # time would be fixed in the language of the import).
        self.fields["round_count"].help_text = _(
            "1 to %(max)s rounds, played one after the other."
        ) % {"max": MAX_TABLE_ROUNDS}
        now = timezone.localtime().replace(second=0, microsecond=0)
        self.fields["opens_at"].initial = now
        self.fields["due_at"].initial = now + timedelta(days=7)

    @property
    def quiz_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.QUIZ_FIELDS]

    @property
    def table_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.TABLE_FIELDS]

    def clean_title(self) -> str:
        # No zero-width or blank-only titles (tutor/accounts/validators.py).
        return clean_display_name(self.cleaned_data["title"])

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data  # what Form.clean() returns (its stub allows None)
        # Dates near year 1 or 9999 cannot be stored (OverflowError in the time zone
        # conversion); no class needs anything outside these years.
        for name in ("opens_at", "due_at"):
            value = data.get(name)
            if value and not FIRST_YEAR <= value.year <= LAST_YEAR:
                self.add_error(
                    name,
                    _("Choose a date between the years %(first)s and %(last)s.")
                    % {"first": FIRST_YEAR, "last": LAST_YEAR},
                )
        opens, due = data.get("opens_at"), data.get("due_at")
        if opens and due and due <= opens:
            self.add_error("due_at", _("The due date must come after the opening date."))
        if "activity" in self.errors:
            return data
        data["activity"] = data.get("activity") or Assignment.Activity.QUIZ
        if data["activity"] == Assignment.Activity.TABLE:
            self._clean_table(data)
        else:
            self._clean_quiz(data)
        return data

    def _clean_quiz(self, data: dict[str, Any]) -> None:
        # The fields of the table are ignored: their errors would only confuse.
        for name in self.TABLE_FIELDS:
            self.errors.pop(name, None)
        if not data.get("lesson") and not data.get("kinds") and "kinds" not in self.errors:
            self.add_error("kinds", _("Choose at least one question kind, or a lesson."))
        if data.get("question_count") is None and "question_count" not in self.errors:
            self.add_error("question_count", _("A quiz needs a number of questions."))
        if data.get("attempts_allowed") is None and "attempts_allowed" not in self.errors:
            data["attempts_allowed"] = 1
        if not data.get("explanations"):
            data["explanations"] = Assignment.Explanations.IMMEDIATELY

    def _clean_table(self, data: dict[str, Any]) -> None:
        for name in self.QUIZ_FIELDS:
            self.errors.pop(name, None)
        if data.get("round_count") is None and "round_count" not in self.errors:
            self.add_error("round_count", _("Rounds at the table need a number of rounds."))
        if not data.get("focus") and "focus" not in self.errors:
            self.add_error("focus", _("Choose what the rounds practise."))

    def spec(self) -> AssignmentSpec:
        d = self.cleaned_data
        if d["activity"] == Assignment.Activity.TABLE:
            return AssignmentSpec(
                title=d["title"],
                kinds=(),
                question_count=0,
                rules_preset=d["rules_preset"],
                opens_at=d["opens_at"],
                due_at=d["due_at"],
                same_questions=d["same_questions"],
                late_policy=d["late_policy"],
                activity=Assignment.Activity.TABLE,
                round_count=d["round_count"],
                focus=d["focus"],
                tools_allowed=d["tools_allowed"],
            )
        return AssignmentSpec(
            title=d["title"],
            kinds=d["kinds"],
            question_count=d["question_count"],
            rules_preset=d["rules_preset"],
            opens_at=d["opens_at"],
            due_at=d["due_at"],
            attempts_allowed=d["attempts_allowed"],
            same_questions=d["same_questions"],
            explanations=d["explanations"],
            late_policy=d["late_policy"],
            tools_allowed=d["tools_allowed"],
            lesson=d.get("lesson") or "",
        )


class LearnerSignupForm(SignupForm):
    """A learner's sign-up, optionally with the join code of their class."""

    join_code = forms.CharField(
        label=_("Class join code (optional)"),
        required=False,
        max_length=20,
        help_text=_("Your teacher gives you this code. You can also join a class later."),
    )

    def clean_join_code(self) -> str:
        code: str = self.cleaned_data.get("join_code", "")
        if code and not SchoolClass.objects.filter(join_code=normalise_join_code(code)).exists():
            raise forms.ValidationError(
                _("No class has this join code. Check it with your teacher.")
            )
        return code


class MoodleExportForm(forms.Form):
    """Questions for Moodle's own quiz: question kinds under a rule set, or a lesson's
    questions; how many, in which language and deck, and the set number (the seed) that
    makes the same file again. Sent by GET: nothing is stored."""

    lesson = lesson_field()
    kinds = question_kinds_field()
    rules_preset = forms.ChoiceField(label=_("Rule set"), initial="default")
    question_count = forms.IntegerField(
        label=_("Number of questions"),
        min_value=1,
        max_value=MAX_EXPORT_QUESTIONS,
        initial=20,
    )
    lang = forms.ChoiceField(label=_("Language of the questions"), choices=settings.LANGUAGES)
    deck = forms.ChoiceField(label=_("Deck"), choices=Deck.choices)
    seed = forms.IntegerField(
        label=_("Set number"),
        min_value=0,
        max_value=MAX_SEED,
        help_text=_(
            "The same number with the same choices gives the same questions again; "
            "keep it to download the same set later."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["rules_preset"]).choices = preset_choices()
        set_lesson_choices(self.fields["lesson"])

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not data.get("lesson") and not data.get("kinds") and "kinds" not in self.errors:
            self.add_error("kinds", _("Choose at least one question kind, or a lesson."))
        return data

    def spec(self) -> MoodleExportSpec:
        d = self.cleaned_data
        return MoodleExportSpec(
            kinds=tuple(d["kinds"]),
            rules_preset=d["rules_preset"],
            question_count=d["question_count"],
            lang=d["lang"],
            deck=d["deck"],
            seed=d["seed"],
            lesson=d["lesson"],
        )
