from django.urls import path

from . import views

app_name = "weistool"

urlpatterns = [path("", views.weis_tool, name="tool")]
