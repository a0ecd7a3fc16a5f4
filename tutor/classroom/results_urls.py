"""Results URLs. No ``app_name``: included inside the ``classroom`` namespace."""

from django.urls import path

from . import results_views as views

urlpatterns = [
    path(
        "assignments/<id:assignment_id>/results/",
        views.assignment_results,
        name="assignment_results",
    ),
    path(
        "assignments/<id:assignment_id>/results.csv",
        views.assignment_results_csv,
        name="assignment_results_csv",
    ),
    path(
        "assignments/<id:assignment_id>/items.csv",
        views.assignment_items_csv,
        name="assignment_items_csv",
    ),
    path("<id:class_id>/mastery/", views.class_mastery, name="class_mastery"),
    path("<id:class_id>/mastery.csv", views.class_mastery_csv, name="class_mastery_csv"),
    path(
        "<id:class_id>/learners/<id:learner_id>/",
        views.learner_history,
        name="learner_history",
    ),
]
