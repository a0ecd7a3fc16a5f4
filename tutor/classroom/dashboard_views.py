"""The learner's overview (``/dashboard/``): what is due, mastery per skill, progress.

It lives in the class app because it reads every app below it (quizzes for
mastery, the class's assignments, the table's rounds): the layer order
(``pyproject.toml``) puts classroom above them. It only reads; released answers
count in memory (``tutor.quizzes.selectors.skill_states``), so the order in which it
asks for skills and progress does not matter.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render

from tutor.accounts.http import AuthedRequest
from tutor.accounts.permissions import learner_required
from tutor.quizzes.selectors import skill_rows, suggested_skills

from .results import learner_progress, progress_figures
from .selectors import classes_of_learner, learner_assignments, running_live_sessions


@learner_required
def dashboard(request: AuthedRequest) -> HttpResponse:
    rows = skill_rows(request.user)
    due = learner_assignments(request.user)
    progress = learner_progress(request.user)
    return render(
        request,
        "classroom/dashboard.html",
        {
            "rows": rows,
            "progress": progress,
            "figures": progress_figures(progress),
            "due": [row for row in due if row.status in {"open", "in_progress", "submitted"}],
            "upcoming": [row for row in due if row.status == "upcoming"],
            "finished": [row for row in due if row.status in {"done", "missed"}],
            "suggested": suggested_skills(request.user, 3),
            "classes": classes_of_learner(request.user),
            "live_sessions": running_live_sessions(request.user),
        },
    )
