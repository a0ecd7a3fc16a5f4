from django.urls import path
from lti_tool.views import jwks

from . import views

app_name = "lti"

urlpatterns = [
    path("jwks/", jwks, name="jwks"),
    path("init/<uuid:registration_uuid>/", views.LoginInitView.as_view(), name="init"),
    path("launch/", views.LaunchView.as_view(), name="launch"),
]
