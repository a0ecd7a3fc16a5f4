from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from tutor.accounts.permissions import learner_required, teacher_required

from .forms import ClassForm, JoinForm
from .selectors import classes_of_learner, classes_taught_by
from .services import ClassroomError, create_class, join_class


@teacher_required
def teacher_classes(request: HttpRequest) -> HttpResponse:
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
            return redirect("teacher_classes")
    classes = classes_taught_by(request.user)
    return render(request, "classroom/teacher_classes.html", {"form": form, "classes": classes})


@learner_required
def join(request: HttpRequest) -> HttpResponse:
    form = JoinForm(request.POST or request.GET or None)
    if request.method == "POST" and form.is_valid():
        try:
            school_class = join_class(learner=request.user, code=form.cleaned_data["code"])
        except ClassroomError as error:
            form.add_error("code", str(error))
        else:
            messages.success(request, _("You joined %(name)s.") % {"name": school_class.name})
            return redirect("my_classes")
    classes = classes_of_learner(request.user)
    return render(request, "classroom/join.html", {"form": form, "classes": classes})
