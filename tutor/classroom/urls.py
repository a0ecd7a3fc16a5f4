from django.urls import include, path

from . import views

app_name = "classroom"

urlpatterns = [
    path("", views.teacher_classes, name="teacher_classes"),
    path("mine/", views.my_classes, name="my_classes"),
    path("join/", views.join, name="join_class"),
    path("moodle/", views.moodle_export, name="moodle_export"),
    path("<id:class_id>/", views.class_detail, name="class_detail"),
    path("<id:class_id>/code/", views.rotate_code, name="rotate_code"),
    path(
        "<id:class_id>/learners/<id:learner_id>/remove/",
        views.remove_member,
        name="remove_member",
    ),
    path("<id:class_id>/assignments/new/", views.assignment_create, name="assignment_create"),
    path("assignments/<id:assignment_id>/start/", views.assignment_start, name="assignment_start"),
    path("attempts/<id:quiz_id>/submit/", views.assignment_submit, name="assignment_submit"),
    path("", include("tutor.classroom.results_urls")),
]
