from django.urls import path
from lti_tool.views import jwks

from . import views

app_name = "lti"

urlpatterns = [
    path("jwks/", jwks, name="jwks"),
    # A slug, not Django's uuid converter: the site's routes take only bounded ids and
    # slugs (tests/tutor/test_hardening_site.py); the view checks the form.
    path("init/<slug:registration_uuid>/", views.LoginInitView.as_view(), name="init"),
    # For platforms that send their client ID with the initiation (Moodle does): the
    # address can be entered in the platform before the tool knows the platform.
    path("init/", views.LoginInitView.as_view(), name="init_by_client_id"),
    path("launch/", views.LaunchView.as_view(), name="launch"),
    path("deep-link/", views.deep_link, name="deep_link"),
]
