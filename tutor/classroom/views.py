from __future__ import annotations

import secrets

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tutor.accounts.http import AuthedRequest
from tutor.accounts.permissions import learner_required, teacher_required
from tutor.core.assignment_policy import Refusal, WorkRefused
from tutor.core.context_processors import current_deck
from tutor.quizzes.models import Quiz
from tutor.quizzes.services import QuizError

from . import assignments
from .forms import AssignmentForm, ClassForm, JoinForm, MoodleExportForm
from .models import Assignment, SchoolClass
from .moodle_export import MAX_SEED, ExportError, moodle_file
from .results.access import class_of_teacher
from .selectors import (
    classes_of_learner,
    classes_taught_by,
    members,
)
from .services import (
    ClassroomError,
    create_class,
    join_class,
    remove_learner,
    rotate_join_code,
)


@teacher_required
def teacher_classes(request: AuthedRequest) -> HttpResponse:
    form = ClassForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            school_class = create_class(teacher=request.user, name=form.cleaned_data["name"])
        except ClassroomError as error:
            form.add_error("name", str(error))
        else:
            messages.success(
                request,
                _("Class %(name)s created. Join code: %(code)s")
                % {"name": school_class.name, "code": school_class.join_code},
            )
            return redirect("classroom:class_detail", class_id=school_class.pk)
    classes = classes_taught_by(request.user)
    return render(request, "classroom/teacher_classes.html", {"form": form, "classes": classes})


@teacher_required
def class_detail(request: AuthedRequest, class_id: int) -> HttpResponse:
    school_class = class_of_teacher(request.user, class_id)
    join_url = request.build_absolute_uri(
        reverse("classroom:join_class") + "?" + urlencode({"code": school_class.join_code})
    )
    return render(
        request,
        "classroom/class_detail.html",
        {
            "school_class": school_class,
            "members": members(school_class),
            "assignments": school_class.assignments.order_by("-due_at", "-id"),
            "join_url": join_url,
        },
    )


@teacher_required
@require_POST
def rotate_code(request: AuthedRequest, class_id: int) -> HttpResponse:
    school_class = class_of_teacher(request.user, class_id)
    rotate_join_code(teacher=request.user, school_class=school_class)
    messages.success(
        request,
        _("New join code: %(code)s. The old code no longer works.")
        % {"code": school_class.join_code},
    )
    return redirect("classroom:class_detail", class_id=class_id)


@teacher_required
@require_POST
def remove_member(request: AuthedRequest, class_id: int, learner_id: int) -> HttpResponse:
    school_class = class_of_teacher(request.user, class_id)
    try:
        remove_learner(teacher=request.user, school_class=school_class, learner_id=learner_id)
    except ClassroomError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("The learner was removed from the class."))
    return redirect("classroom:class_detail", class_id=class_id)


def assignment_from_form(
    request: AuthedRequest, school_class: SchoolClass
) -> tuple[AssignmentForm, Assignment | None]:
    """The assignment form of ``request`` and the assignment a valid post set for
    ``school_class`` (None for a GET or a refused post, whose form holds the errors).
    The class page's form and a school platform's deep-linking picker."""
    form = AssignmentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            assignment = assignments.create_assignment(
                teacher=request.user, school_class=school_class, spec=form.spec()
            )
        except assignments.AssignmentError as error:
            form.add_error(None, str(error))
        else:
            return form, assignment
    return form, None


@teacher_required
def assignment_create(request: AuthedRequest, class_id: int) -> HttpResponse:
    school_class = class_of_teacher(request.user, class_id)
    form, assignment = assignment_from_form(request, school_class)
    if assignment is not None:
        messages.success(request, _("Assignment %(title)s set.") % {"title": assignment})
        return redirect("classroom:class_detail", class_id=class_id)
    return render(
        request, "classroom/assignment_form.html", {"form": form, "school_class": school_class}
    )


def join(request: HttpRequest) -> HttpResponse:
    """The join link: learners join; visitors are sent to sign up with the code filled in."""
    code = request.POST.get("code") or request.GET.get("code", "")
    if not request.user.is_authenticated:
        return redirect(reverse("signup") + "?" + urlencode({"code": code}))
    if not request.user.is_learner:
        raise PermissionDenied
    form = JoinForm(request.POST or request.GET or None)
    if request.method == "POST" and form.is_valid():
        try:
            school_class = join_class(learner=request.user, code=form.cleaned_data["code"])
        except ClassroomError as error:
            form.add_error("code", str(error))
        else:
            messages.success(request, _("You joined %(name)s.") % {"name": school_class.name})
            return redirect("classroom:my_classes")
    classes = classes_of_learner(request.user)
    return render(request, "classroom/join.html", {"form": form, "classes": classes})


@learner_required
@require_POST
def assignment_start(request: AuthedRequest, assignment_id: int) -> HttpResponse:
    assignment = get_object_or_404(
        Assignment, pk=assignment_id, school_class__memberships__learner=request.user
    )
    if assignment.is_live:  # answered with the class, on its own page
        return redirect("live:pupil", assignment_id=assignment.pk)
    try:
        if assignment.is_table:
            round_ = assignments.start_table_round(learner=request.user, assignment=assignment)
        else:
            quiz = assignments.start_or_resume(learner=request.user, assignment=assignment)
    except assignments.AssignmentError as error:
        messages.error(request, str(error))
        return redirect("dashboard")
    if assignment.is_table:
        return redirect("table:round", round_id=round_.pk)
    return redirect("quizzes:quiz", quiz_id=quiz.pk)


@learner_required
@require_POST
def assignment_submit(request: AuthedRequest, quiz_id: int) -> HttpResponse:
    quiz = get_object_or_404(Quiz, pk=quiz_id, learner=request.user, assignment__isnull=False)
    try:
        assignments.submit(learner=request.user, quiz=quiz)
    except (assignments.AssignmentError, QuizError) as error:
        messages.error(request, str(error))
        if isinstance(error, WorkRefused) and error.refusal is Refusal.NOT_MEMBER:
            # Removed from the class: its attempts are no longer theirs to open, so the
            # summary would be a 404; the dashboard says why instead.
            return redirect("dashboard")
    else:
        messages.success(request, _("Submitted. Your teacher can see your answers now."))
    return redirect("quizzes:summary", quiz_id=quiz.pk)


@login_required
def my_classes(request: AuthedRequest) -> HttpResponse:
    return join(request) if request.user.is_learner else redirect("classroom:teacher_classes")


@teacher_required
def moodle_export(request: AuthedRequest) -> HttpResponse:
    """Questions for Moodle's own quiz, as a Moodle XML download. A GET form: the page
    offers a new set number; submitting it downloads the set, and the same number with
    the same choices downloads the same file again."""
    if "seed" not in request.GET:
        form = MoodleExportForm(
            initial={
                "seed": secrets.randbelow(MAX_SEED + 1),
                "lang": (get_language() or "de")[:2],
                "deck": current_deck(request),
            }
        )
        return render(request, "classroom/moodle_export.html", {"form": form})
    form = MoodleExportForm(request.GET)
    if form.is_valid():
        try:
            exported = moodle_file(form.spec(), timezone.localdate())
        except ExportError as error:
            form.add_error(None, str(error))
        else:
            response = HttpResponse(exported.content, content_type="application/xml")
            response["Content-Disposition"] = f'attachment; filename="{exported.filename}"'
            return response
    return render(request, "classroom/moodle_export.html", {"form": form}, status=400)
