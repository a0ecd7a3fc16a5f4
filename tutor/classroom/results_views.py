"""Teachers' results pages and their CSV downloads.

Thin views: every object comes through :mod:`tutor.classroom.results`, which looks
it up together with its teacher, so another teacher's ids are a 404.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tutor.accounts.permissions import teacher_required
from tutor.core.context_processors import current_deck

from . import csv_export
from . import results as selectors


@teacher_required
def assignment_results(request: HttpRequest, assignment_id: int) -> HttpResponse:
    assignment = selectors.assignment_of_teacher(request.user, assignment_id)
    school_class = assignment.school_class
    if assignment.is_table:
        results = None
        table = selectors.table_results(school_class, [assignment])
    else:
        results = selectors.assignment_results(assignment, deck=current_deck(request))
        table = None
    return render(
        request,
        "classroom/results/assignment_results.html",
        {
            "results": results,
            "table": table,
            "assignment": assignment,
            "school_class": school_class,
        },
    )


@teacher_required
def assignment_results_csv(request: HttpRequest, assignment_id: int) -> HttpResponse:
    assignment = selectors.assignment_of_teacher(request.user, assignment_id)
    if assignment.is_table:
        return csv_export.table_results_csv(
            assignment, selectors.table_results(assignment.school_class, [assignment])
        )
    return csv_export.assignment_results_csv(selectors.assignment_results(assignment))


@teacher_required
def class_mastery(request: HttpRequest, class_id: int) -> HttpResponse:
    school_class = selectors.class_of_teacher(request.user, class_id)
    grid = selectors.mastery_grid(school_class)
    return render(
        request,
        "classroom/results/class_mastery.html",
        {
            "grid": grid,
            "table": selectors.class_table_results(school_class),
            "school_class": school_class,
        },
    )


@teacher_required
def class_mastery_csv(request: HttpRequest, class_id: int) -> HttpResponse:
    school_class = selectors.class_of_teacher(request.user, class_id)
    return csv_export.mastery_csv(selectors.mastery_grid(school_class))


@teacher_required
def learner_history(request: HttpRequest, class_id: int, learner_id: int) -> HttpResponse:
    school_class, learner = selectors.learner_in_class(request.user, class_id, learner_id)
    history = selectors.learner_history(school_class, learner)
    return render(
        request,
        "classroom/results/learner_history.html",
        {"history": history, "school_class": school_class, "learner": learner},
    )
