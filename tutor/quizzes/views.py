from __future__ import annotations

from functools import partial

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template import engines
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from rules_core import RuleSet
from tutor.accounts.http import AuthedRequest
from tutor.accounts.permissions import learner_required
from tutor.core.context_processors import current_deck

from . import selectors, services, showing
from .forms import AnswerForm, PracticeForm
from .models import QuizQuestion, Skill
from .presenters import LazyView, present


@learner_required
def practice(request: AuthedRequest) -> HttpResponse:
    # ?skill=stoeck&skill=target ticks those skills (a lesson links to practise its own).
    chosen = [skill for skill in request.GET.getlist("skill") if skill in Skill.values]
    form = PracticeForm(request.POST or None, initial={"skills": chosen} if chosen else None)
    if request.method == "POST" and form.is_valid():
        count = form.cleaned_data["count"]
        chosen = form.cleaned_data["skills"]
        kinds = (
            [chosen[i % len(chosen)] for i in range(count)]
            if chosen
            else selectors.suggested_skills(request.user, count)
        )
        quiz = services.create_quiz(
            learner=request.user, kinds=kinds, rules=RuleSet.preset(form.cleaned_data["rules"])
        )
        return redirect("quizzes:quiz", quiz_id=quiz.pk)
    rows = selectors.skill_rows(request.user)
    return render(request, "quizzes/practice.html", {"form": form, "rows": rows})


@learner_required
def quiz(request: AuthedRequest, quiz_id: int) -> HttpResponse:
    """Resume where the learner stopped: the first unanswered question, or the summary.

    From htmx («Next question» swaps the card in place): the summary is a page of its
    own, so htmx is told to go there (HX-Redirect) instead of following a redirect into
    the card."""
    quiz = selectors.quiz_of(request.user, quiz_id)
    position = selectors.next_open_position(quiz.pk)
    if position is None:
        if request.htmx:
            response = HttpResponse(status=204)
            response["HX-Redirect"] = reverse("quizzes:summary", args=[quiz.pk])
            return response
        return redirect("quizzes:summary", quiz_id=quiz.pk)
    return redirect("quizzes:question", quiz_id=quiz.pk, position=position)


_UNKNOWN = object()


def _question_context(
    request: HttpRequest,
    question: QuizQuestion,
    next_open: int | None | object = _UNKNOWN,
    shown: str = "",
    **extra: object,
) -> dict[str, object]:
    """What the card draws; ``next_open``: the quiz's first open question, when the
    caller knows it already (an answer just stored); ``shown``: the form's note of when
    the question was shown (tutor.quizzes.showing), when an answer the form is drawn
    again for (refused) brought one, else a note of now."""
    quiz = question.quiz
    total = selectors.question_count(quiz)
    visible = services.explanations_visible(quiz)
    revealed = question.answered and visible
    deck = current_deck(request)
    if next_open is _UNKNOWN:
        # Only an answered question's card shows «Next question».
        next_open = selectors.next_open_position(quiz.pk) if question.answered else None
    if not shown and not question.answered:
        shown = showing.note(quiz.pk, question.position, timezone.now())
    return {
        "quiz": quiz,
        "question": question,
        "recorded": question.answered and not visible,
        "revealed": revealed,
        "deck": deck,
        # Lazy: the template asks for it only where a fragment is not cached yet.
        "view": LazyView(partial(present, question, reveal=revealed, deck=deck)),
        "total": total,
        "number": question.position + 1,
        "is_last": question.position + 1 >= total,
        # «Next question» goes straight to it (the resume would redirect there).
        "next_open": next_open,
        "shown": shown,
        **extra,
    }


# The card, which every question and answer draws: Jinja2 (tutor/core/jinja.py); the
# page around it is a Django template.
CARD_TEMPLATE = "quizzes/card.jinja"


def _card_html(request: HttpRequest, context: dict[str, object], part: str) -> SafeString:
    """The card (``part``: see the template) drawn from ``_question_context``."""
    template = engines["jinja2"].get_template(CARD_TEMPLATE)
    html = template.render({**context, "part": part}, request)
    return mark_safe(html)  # noqa: S308 - Jinja2 escaped every value (autoescape)


def _page(request: HttpRequest, context: dict[str, object], status: int = 200) -> HttpResponse:
    context["card_html"] = _card_html(request, context, "page")
    return render(request, "quizzes/question.html", context, status=status)


@learner_required
def question(request: AuthedRequest, quiz_id: int, position: int) -> HttpResponse:
    """The question's page; for htmx («Next question» from the card before) the card
    alone, without the page around it, and the address bar and title follow."""
    question = selectors.question_of(request.user, quiz_id, position)
    assignment = question.quiz.assignment
    if assignment is not None and assignment.is_live:
        # Live in class, a question is shown when the teacher asks it (tutor.live).
        target = reverse("live:pupil", args=[assignment.pk])
        if request.htmx:
            response = HttpResponse(status=204)
            response["HX-Redirect"] = target
            return response
        return redirect(target)
    # Nothing is written: the form notes when it was drawn (tutor.quizzes.showing).
    context = _question_context(request, question)
    if request.htmx:
        response = HttpResponse(_card_html(request, context, "next-card"))
        response["HX-Push-Url"] = request.path  # the question's, after the quiz's redirect
        return response
    return _page(request, context)


def refused_answer(error: services.QuizError) -> tuple[str, int]:
    """What a learner reads when an answer is refused, and the response's status (the
    quiz card's and the live phone's)."""
    if isinstance(error, services.AlreadyAnswered):
        return _("You have answered this question already; your first answer counts."), 409
    if isinstance(error, services.InvalidChoice):
        return _("That is not one of the answers. Choose one of the answers shown."), 400
    return str(error), 409


@learner_required
@require_POST
def answer(request: AuthedRequest, quiz_id: int, position: int) -> HttpResponse:
    question, read = selectors.question_to_answer(request.user, quiz_id, position)
    form = AnswerForm(request.POST)
    status = 200
    error = ""
    next_open: int | None | object = _UNKNOWN
    # The form's note of when it was drawn, outside AnswerForm: a refused answer draws
    # the form again with it.
    shown = showing.posted(request.POST, quiz_id, position, timezone.now())
    if not form.is_valid():
        error, status = _("Choose one of the answers."), 400
    else:
        try:
            outcome = services.answer(
                learner=request.user,
                question=question,
                choice=form.cleaned_data["choice"],
                read=read,
                shown_at=shown.at,
            )
            next_open = outcome.next_open
        except (services.AlreadyAnswered, services.InvalidChoice, services.AttemptClosed) as no:
            if isinstance(no, services.AlreadyAnswered):
                question.refresh_from_db(
                    fields=["answered_choice", "correct", "answered_at", "shown_at"]
                )
            error, status = refused_answer(no)
    if request.htmx:
        context = _question_context(request, question, next_open, shown.note, error=error)
        # What the answer changes, not the question above it (drawn again, it cost a
        # worker that had not shown this question a third of the answer: issue 24).
        return HttpResponse(_card_html(request, context, "answer"), status=status)
    if error:
        messages.error(request, error)
        if status == 400:
            context = _question_context(request, question, shown=shown.note, error=error)
            return _page(request, context, status)
    return redirect("quizzes:question", quiz_id=quiz_id, position=position)


@learner_required
def summary(request: AuthedRequest, quiz_id: int) -> HttpResponse:
    quiz = selectors.quiz_of(request.user, quiz_id)
    questions = list(quiz.questions.all())
    services.note_complete(quiz, questions)
    right = sum(1 for q in questions if q.correct)
    visible = services.explanations_visible(quiz)
    return render(
        request,
        "quizzes/summary.html",
        {
            "quiz": quiz,
            "visible": visible,
            "questions": [
                (q, present(q, reveal=q.answered and visible, deck=current_deck(request)))
                for q in questions
            ],
            "right": right,
            "answered": sum(1 for q in questions if q.answered),
            "rows": selectors.skill_rows(request.user),
        },
    )
