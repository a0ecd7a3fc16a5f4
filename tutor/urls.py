from django.contrib import admin
from django.urls import include, path, register_converter

from tutor.classroom import dashboard_views, signup_views
from tutor.core.converters import IdConverter

# Every number in a path is <id:...>: bounded to what a database id can be (a 404 past it).
# Registered before the includes below build their routes.
register_converter(IdConverter, "id")

urlpatterns = [
    path("", include("tutor.core.urls")),
    # Sign-up lives in the class app: a learner may join a class with it.
    path("accounts/signup/", signup_views.signup, name="signup"),
    path("accounts/", include("tutor.accounts.urls")),
    path("classes/", include("tutor.classroom.urls")),
    path("classes/", include("tutor.classroom.roster_urls")),
    path("lessons/", include("tutor.lessons.urls")),
    path("weis/", include("tutor.weistool.urls")),
    path("practice/", include("tutor.quizzes.urls")),
    path("table/", include("tutor.table.urls")),
    path("live/", include("tutor.live.urls")),
    path("lti/", include("tutor.lti.urls")),
    path("dashboard/", dashboard_views.dashboard, name="dashboard"),
    path("privacy/", include("tutor.classroom.privacy_urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]

# A database error that escapes the middleware still ends in the 503 page (production).
handler500 = "tutor.core.views.server_error"
