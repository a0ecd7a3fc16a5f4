"""Pupil accounts of a class (tutor/classroom/roster_views.py), under /classes/.

Included from tutor/urls.py beside tutor.classroom.urls, in its own namespace:
``path("classes/", include("tutor.classroom.roster_urls"))``.
"""

from django.urls import path

from . import roster_views as views

app_name = "roster"

urlpatterns = [
    path("<id:class_id>/pupils/", views.roster_page, name="roster"),
    path("<id:class_id>/pupils/reset/", views.reset_many, name="reset_many"),
    path(
        "<id:class_id>/pupils/<id:learner_id>/reset/",
        views.reset_one,
        name="reset_one",
    ),
    path("<id:class_id>/pupils/cards/", views.cards, name="cards"),
]
