"""Teachers' results pages and their CSV downloads.

Thin views: every object comes through :mod:`tutor.classroom.results`, which looks
it up together with its teacher, so another teacher's ids are a 404.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import Http404, HttpResponse
from django.shortcuts import render

from tutor.accounts.http import AuthedRequest
from tutor.accounts.permissions import teacher_required
from tutor.core.context_processors import current_deck

from . import csv_export
from . import results as selectors
from .models import Assignment

# Sentences about an assignment from apps above this one, which it may not import (the
# layers in pyproject.toml): tutor.lti says how its scores reached the school platform.
ASSIGNMENT_NOTES: list[Callable[[Assignment], list[str]]] = []


@teacher_required
def assignment_results(request: AuthedRequest, assignment_id: int) -> HttpResponse:
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
            "kind_figure": selectors.kind_bars_figure(results) if results else None,
            "table": table,
            "assignment": assignment,
            "school_class": school_class,
            "notes": [note for notes in ASSIGNMENT_NOTES for note in notes(assignment)],
        },
    )


@teacher_required
def assignment_results_csv(request: AuthedRequest, assignment_id: int) -> HttpResponse:
    assignment = selectors.assignment_of_teacher(request.user, assignment_id)
    if assignment.is_table:
        return csv_export.table_results_csv(
            assignment, selectors.table_results(assignment.school_class, [assignment])
        )
    return csv_export.assignment_results_csv(selectors.assignment_results(assignment))


@teacher_required
def assignment_items_csv(request: AuthedRequest, assignment_id: int) -> HttpResponse:
    assignment = selectors.assignment_of_teacher(request.user, assignment_id)
    if assignment.is_table:
        raise Http404("Rounds at the table have no item analysis")
    results = selectors.assignment_results(assignment, deck=current_deck(request))
    return csv_export.item_analysis_csv(results, base_url=request.build_absolute_uri("/"))


@teacher_required
def class_mastery(request: AuthedRequest, class_id: int) -> HttpResponse:
    school_class = selectors.class_of_teacher(request.user, class_id)
    # An unknown ?sort= falls back to the order by name (mastery_sort), never an error.
    grid = selectors.mastery_grid(school_class, sort=request.GET.get("sort", ""))
    heat, scale = selectors.mastery_figures(grid)
    return render(
        request,
        "classroom/results/class_mastery.html",
        {
            "grid": grid,
            "heat_figure": heat,
            "scale_figure": scale,
            "table": selectors.class_table_results(school_class),
            "school_class": school_class,
        },
    )


@teacher_required
def class_mastery_csv(request: AuthedRequest, class_id: int) -> HttpResponse:
    school_class = selectors.class_of_teacher(request.user, class_id)
    return csv_export.mastery_csv(selectors.mastery_grid(school_class))


@teacher_required
def learner_history(request: AuthedRequest, class_id: int, learner_id: int) -> HttpResponse:
    school_class, learner = selectors.learner_in_class(request.user, class_id, learner_id)
    history = selectors.learner_history(school_class, learner)
    return render(
        request,
        "classroom/results/learner_history.html",
        {
            "history": history,
            "progress": history.progress,
            "figures": (
                selectors.progress_figures(history.progress, school_class=school_class)
                if history.progress
                else None
            ),
            "school_class": school_class,
            "learner": learner,
        },
    )
