from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeGuard
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import OperationalError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tutor.accounts.http import AuthedRequest
from tutor.accounts.permissions import learner_required
from tutor.core.context_processors import current_deck
from tutor.core.http import HtmxHttpRequest
from tutor.core.middleware import is_lock_error, no_lock_wait
from tutor.quizzes import selectors as quiz_selectors
from tutor.quizzes import services as quiz_services
from tutor.quizzes import showing
from tutor.quizzes.forms import AnswerForm
from tutor.quizzes.models import QuizQuestion, Skill
from tutor.quizzes.presenters import QuestionView, present

from . import questions as lesson_questions
from .models import Lesson
from .questions import BadToken, QuestionPlan, plan_for
from .render import render_body
from .rule_index import RULE_TITLES, SOURCE_TITLES, rule_sort_key
from .selectors import course, glossary_entries, lessons_by_rule
from .services import mark_read


def _language() -> str:
    return (get_language() or "de")[:2]


def overview(request: HtmxHttpRequest) -> HttpResponse:
    entries = course(_language(), request.user)
    read_count = sum(entry.read for entry in entries)
    return render(
        request,
        "lessons/overview.html",
        {"entries": entries, "read_count": read_count},
    )


# --- The questions at the end of a lesson (see questions.py for how they are chosen) ---


@dataclass
class Slot:
    """One question at the end of a lesson, as the template draws it."""

    kind: str
    number: int
    total: int
    question: QuizQuestion  # stored (learner) or unsaved (visitor, teacher)
    view: QuestionView
    answer_url: str
    another_url: str
    token: str = ""  # visitors only: names the question without revealing it
    saved: bool = False
    error: str = ""
    shown: str = ""  # learners only: when the form was drawn (tutor.quizzes.showing)

    @property
    def dom_id(self) -> str:
        return f"lesson-q-{self.kind}"


def _is_learner(request: HtmxHttpRequest) -> TypeGuard[AuthedRequest]:
    return request.user.is_authenticated and request.user.is_learner


def _lesson_and_plan(slug: str) -> tuple[Lesson, QuestionPlan]:
    lesson = Lesson.objects.only("slug").filter(slug=slug).first()
    if lesson is None:
        raise Http404("No such lesson")
    return lesson, plan_for(slug)


def _learner_slot(
    request: HtmxHttpRequest,
    slug: str,
    plan: QuestionPlan,
    question: QuizQuestion,
    error: str = "",
    shown: str = "",
) -> Slot:
    """``shown``: the form's note of when it was drawn, when an answer the form is drawn
    again for (refused) brought one; else an open question's form notes now."""
    args = [slug, question.quiz_id, question.position]
    if not shown and not question.answered:
        shown = showing.note(question.quiz_id, question.position, timezone.now())
    return Slot(
        kind=question.kind,
        number=plan.kinds.index(question.kind) + 1 if question.kind in plan.kinds else 1,
        total=len(plan.kinds),
        question=question,
        view=present(question, reveal=question.answered, deck=current_deck(request)),
        answer_url=reverse("lessons:answer_question", args=args),
        another_url=reverse("lessons:another_question", args=args),
        saved=True,
        error=error,
        shown=shown,
    )


def _visitor_slot(
    request: HtmxHttpRequest,
    slug: str,
    plan: QuestionPlan,
    token: str,
    choice: str | None = None,
) -> Slot:
    """The question a visitor's token names, stored nowhere; answered with ``choice``.
    Raises BadToken and InvalidChoice."""
    token_kind, nonce = lesson_questions.read_visitor_token(token, slug, plan)
    generated = lesson_questions.visitor_question(slug, token_kind, nonce, plan)
    question = quiz_services.unsaved_question(generated, choice)
    return Slot(
        kind=token_kind,
        number=plan.kinds.index(token_kind) + 1,
        total=len(plan.kinds),
        question=question,
        view=present(question, reveal=question.answered, deck=current_deck(request)),
        answer_url=reverse("lessons:try_answer", args=[slug]),
        another_url=reverse("lessons:try_another", args=[slug]),
        token=token,
    )


def _fresh_visitor_slot(request: HtmxHttpRequest, slug: str, plan: QuestionPlan, kind: str) -> Slot:
    token = lesson_questions.new_visitor_token(slug, kind)
    return _visitor_slot(request, slug, plan, token)


def _slots(
    request: HtmxHttpRequest, lesson: Lesson, plan: QuestionPlan, errors: dict[str, str]
) -> tuple[list[Slot], str]:
    """The lesson's questions for this user, and a message when a visitor's answer in the
    URL could not be read."""
    if _is_learner(request):
        slots = []
        for question in lesson_questions.learner_questions(request.user, lesson, plan):
            error = errors.get(question.kind, "")
            slots.append(_learner_slot(request, lesson.slug, plan, question, error))
        return slots, ""
    answered: dict[str, tuple[str, str]] = {}
    problem = ""
    if "answered" in request.GET:  # a visitor's answer, after the redirect without JS
        try:
            token, choice = lesson_questions.read_answered_token(request.GET["answered"])
            kind, _nonce = lesson_questions.read_visitor_token(token, lesson.slug, plan)
            answered[kind] = (token, choice)
        except BadToken:
            problem = _("This answer cannot be read any more. Here are new questions.")
    slots = []
    for kind in plan.kinds:
        if kind in answered:
            try:
                token, choice = answered[kind]
                slots.append(_visitor_slot(request, lesson.slug, plan, token, choice))
                continue
            except quiz_services.InvalidChoice:
                problem = _("That is not one of the answers. Here are new questions.")
        slots.append(_fresh_visitor_slot(request, lesson.slug, plan, kind))
    return slots, problem


def _practice_url(plan: QuestionPlan) -> str:
    url = reverse("quizzes:practice")
    return f"{url}?{urlencode([('skill', kind) for kind in plan.kinds])}" if plan.kinds else url


def _detail_context(
    request: HtmxHttpRequest, slug: str, errors: dict[str, str] | None = None
) -> tuple[dict[str, Any], int]:
    entries = course(_language(), request.user)
    index = next((i for i, e in enumerate(entries) if e.lesson.slug == slug), None)
    if index is None:
        raise Http404("No such lesson")
    entry = entries[index]
    plan = plan_for(entry.lesson.slug)
    questions_later = False
    try:
        # A learner's first visit makes their questions: a write the page can do without
        # while the database is locked (issue 22, item 6), so it never waits for one.
        with no_lock_wait():
            slots, problem = _slots(request, entry.lesson, plan, errors or {})
    except OperationalError as error:
        if not is_lock_error(error):
            raise
        slots, problem, questions_later = [], "", True
    context = {
        "entry": entry,
        "lesson": entry.lesson,
        "text": entry.text,
        "body": render_body(entry.text.body, request=request),
        "rules": [(rule, RULE_TITLES[rule]) for rule in entry.lesson.rules],
        "sources": [(code, SOURCE_TITLES[code]) for code in entry.lesson.sources],
        "previous": entries[index - 1] if index > 0 else None,
        "next": entries[index + 1] if index + 1 < len(entries) else None,
        "slots": slots,
        "check_problem": problem,
        "questions_later": questions_later,
        "practice_url": _practice_url(plan),
        "practice_skills": [Skill(kind).label for kind in plan.kinds],
    }
    return context, 400 if problem else 200


def detail(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    context, status = _detail_context(request, slug)
    return render(request, "lessons/detail.html", context, status=status)


def _slot_response(request: HtmxHttpRequest, slot: Slot, status: int = 200) -> HttpResponse:
    return render(request, "lessons/detail.html#lesson-question", {"slot": slot}, status=status)


def _refusal(
    request: HtmxHttpRequest, slug: str, dom_id: str, message: str, status: int
) -> HttpResponse:
    """A question that cannot be shown at all: htmx gets a card with the message in
    place of the question, a plain form the lesson page with the message."""
    if request.htmx:
        context = {"dom_id": dom_id, "message": message, "lesson_url": _lesson_url(slug)}
        return render(request, "lessons/detail.html#question-refused", context, status=status)
    context, _status = _detail_context(request, slug)
    context["check_problem"] = message
    return render(request, "lessons/detail.html", context, status=status)


def _lesson_url(slug: str, kind: str = "") -> str:
    url = reverse("lessons:detail", args=[slug])
    return f"{url}#lesson-q-{kind}" if kind else f"{url}#lesson-check"


@learner_required
@require_POST
def answer_question(request: AuthedRequest, slug: str, quiz_id: int, position: int) -> HttpResponse:
    """A learner's answer: stored once, counted toward mastery as in practice."""
    question = quiz_selectors.lesson_question_of(request.user, slug, quiz_id, position)
    _lesson, plan = _lesson_and_plan(slug)
    form = AnswerForm(request.POST)
    error, status = "", 200
    shown = showing.posted(request.POST, quiz_id, position, timezone.now())
    if not form.is_valid():
        error, status = _("Choose one of the answers."), 400
    else:
        try:
            quiz_services.answer(
                learner=request.user,
                question=question,
                choice=form.cleaned_data["choice"],
                shown_at=shown.at,
            )
        except quiz_services.AlreadyAnswered:
            question.refresh_from_db(
                fields=["answered_choice", "correct", "answered_at", "shown_at"]
            )
            error = _("You have answered this question already; your first answer counts.")
            status = 409
        except quiz_services.InvalidChoice:
            error = _("That is not one of the answers. Choose one of the answers shown.")
            status = 400
    if request.htmx:
        slot = _learner_slot(request, slug, plan, question, error, shown.note)
        return _slot_response(request, slot, status)
    if status == 400:
        context, _status = _detail_context(request, slug, errors={question.kind: error})
        return render(request, "lessons/detail.html", context, status=400)
    if error:
        messages.error(request, error)
    return redirect(_lesson_url(slug, question.kind))


@learner_required
@require_POST
def another_question(
    request: AuthedRequest, slug: str, quiz_id: int, position: int
) -> HttpResponse:
    question = quiz_selectors.lesson_question_of(request.user, slug, quiz_id, position)
    _lesson, plan = _lesson_and_plan(slug)
    try:
        new = lesson_questions.another_question(question, plan)
    except lesson_questions.NotAnswered:
        error = _("Answer this question first; then you get another one.")
        if request.htmx:
            slot = _learner_slot(request, slug, plan, question, error)
            return _slot_response(request, slot, 409)
        messages.error(request, error)
        return redirect(_lesson_url(slug, question.kind))
    except quiz_services.QuizError:
        message = _("This kind of question is no longer part of the lesson. Reload the lesson.")
        return _refusal(request, slug, f"lesson-q-{question.kind}", message, 409)
    if request.htmx:
        return _slot_response(request, _learner_slot(request, slug, plan, new))
    return redirect(_lesson_url(slug, new.kind))


def _visitor_kind(request: HtmxHttpRequest, plan: QuestionPlan) -> str:
    kind = request.POST.get("kind", "")
    return kind if kind in plan.kinds else ""


@require_POST
def try_answer(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """A visitor's or a teacher's answer: judged and explained, stored nowhere."""
    _lesson, plan = _lesson_and_plan(slug)
    kind = _visitor_kind(request, plan)
    if _is_learner(request):
        message = _("You are logged in: reload the lesson; your answers count there.")
        return _refusal(request, slug, f"lesson-q-{kind}", message, 403)
    token = request.POST.get("token", "")
    form = AnswerForm(request.POST)
    try:
        if not form.is_valid():
            slot = _visitor_slot(request, slug, plan, token)
            slot.error, status = _("Choose one of the answers."), 400
        else:
            choice = form.cleaned_data["choice"]
            try:
                slot = _visitor_slot(request, slug, plan, token, choice)
                status = 200
            except quiz_services.InvalidChoice:
                slot = _visitor_slot(request, slug, plan, token)
                slot.error = _("That is not one of the answers. Choose one of the answers shown.")
                status = 400
    except BadToken:
        message = _("This question cannot be read. Reload the lesson for new questions.")
        return _refusal(request, slug, f"lesson-q-{kind}", message, 400)
    if request.htmx:
        return _slot_response(request, slot, status)
    if status == 400:
        return _refusal(request, slug, slot.dom_id, slot.error, 400)
    answered = lesson_questions.answered_token(token, slot.question.answered_choice)
    url = reverse("lessons:detail", args=[slug])
    return redirect(f"{url}?{urlencode({'answered': answered})}#{slot.dom_id}")


@require_POST
def try_another(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    _lesson, plan = _lesson_and_plan(slug)
    kind = _visitor_kind(request, plan)
    if not kind:
        message = _("This question is not part of this lesson. Reload the lesson.")
        return _refusal(request, slug, "lesson-q-", message, 400)
    if not request.htmx:  # the lesson page draws new questions for visitors anyway
        return redirect(_lesson_url(slug, kind))
    return _slot_response(request, _fresh_visitor_slot(request, slug, plan, kind))


@login_required
@require_POST
def toggle_read(request: AuthedRequest, slug: str) -> HttpResponse:
    lesson = get_object_or_404(Lesson, slug=slug)
    read = request.POST.get("read") != "0"
    mark_read(user=request.user, lesson=lesson, read=read)
    if request.htmx:
        return render(
            request,
            "lessons/detail.html#read-state",
            {"lesson": lesson, "entry": {"read": read}},
        )
    return redirect("lessons:detail", slug=slug)


def rules(request: HtmxHttpRequest) -> HttpResponse:
    by_rule = lessons_by_rule(course(_language(), request.user))
    rows = [
        (rule, title, by_rule.get(rule, []))
        for rule, title in sorted(RULE_TITLES.items(), key=lambda kv: rule_sort_key(kv[0]))
    ]
    return render(request, "lessons/rules.html", {"rows": rows})


def glossary(request: HtmxHttpRequest) -> HttpResponse:
    """The site's words, one per concept, with their rules and lessons."""
    return render(request, "lessons/glossary.html", {"entries": glossary_entries(_language())})
