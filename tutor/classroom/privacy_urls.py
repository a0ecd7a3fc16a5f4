"""A learner's data: overview, downloads, deletion (``privacy`` namespace)."""

from django.urls import path

from . import privacy_views as views

app_name = "privacy"

urlpatterns = [
    path("", views.mine, name="mine"),
    path("learners/<id:learner_id>/", views.overview, name="learner"),
    path("learners/<id:learner_id>/export.json", views.export_json, name="export_json"),
    path("learners/<id:learner_id>/export.zip", views.export_zip, name="export_zip"),
    path("learners/<id:learner_id>/delete/", views.delete, name="delete"),
    path("deleted/", views.deleted, name="deleted"),
]
