from django.urls import path

from . import views

app_name = "table"

urlpatterns = [
    path("", views.start, name="start"),
    path("<id:round_id>/", views.round_page, name="round"),
    path("<id:round_id>/move/", views.move, name="move"),
    path("<id:round_id>/summary/", views.summary, name="summary"),
]
