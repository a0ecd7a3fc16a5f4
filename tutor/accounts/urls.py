from django.contrib.auth import views as auth_views
from django.urls import path

from . import views

# Tokens are <slug:...>: every other converter in a path is a bounded id (tests check).
urlpatterns = [
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("deck/", views.set_deck, name="set_deck"),
    path("password/", views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("password/first/", views.first_password, name="first_password"),
    path("password/reset/", views.PasswordResetView.as_view(), name="password_reset"),
    path(
        "password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "password/reset/<slug:uidb64>/<slug:token>/",
        views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("teacher/signup/", views.teacher_signup, name="teacher_signup"),
    path("teacher/signup/sent/", views.teacher_signup_sent, name="teacher_signup_sent"),
    path("teacher/verify/<slug:uidb64>/<slug:token>/", views.verify_email, name="verify_email"),
    path("teacher/waiting/", views.teacher_pending, name="teacher_pending"),
]
