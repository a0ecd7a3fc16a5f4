from django.urls import path

from . import views

urlpatterns = [
    path("", views.teacher_classes, name="teacher_classes"),
    path("mine/", views.join, name="my_classes"),
    path("join/", views.join, name="join_class"),
]
