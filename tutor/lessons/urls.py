from django.urls import path

from . import views

app_name = "lessons"

urlpatterns = [
    path("", views.overview, name="overview"),
    path("rules/", views.rules, name="rules"),
    path("<slug:slug>/", views.detail, name="detail"),
    path("<slug:slug>/read/", views.toggle_read, name="toggle_read"),
]
