from django.urls import path

from . import views

app_name = "live"

urlpatterns = [
    path("join/", views.join, name="join"),
    path("class/<id:class_id>/new/", views.start, name="start"),
    path("<id:assignment_id>/", views.pupil, name="pupil"),
    path("<id:assignment_id>/poll/", views.poll, name="poll"),
    path("<id:assignment_id>/enter/", views.enter, name="enter"),
    path("<id:assignment_id>/answer/", views.answer, name="answer"),
    path("<id:assignment_id>/projector/", views.projector, name="projector"),
    path("<id:assignment_id>/control/", views.control, name="control"),
    path("<id:assignment_id>/summary/", views.summary, name="summary"),
]
