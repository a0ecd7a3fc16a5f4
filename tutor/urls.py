from django.contrib import admin
from django.urls import include, path

from tutor.classroom import views as classroom_views

urlpatterns = [
    path("", include("tutor.core.urls")),
    path("accounts/", include("tutor.accounts.urls")),
    path("classes/", include("tutor.classroom.urls")),
    path("lessons/", include("tutor.lessons.urls")),
    path("weis/", include("tutor.weistool.urls")),
    path("practice/", include("tutor.quizzes.urls")),
    path("dashboard/", classroom_views.dashboard, name="dashboard"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
