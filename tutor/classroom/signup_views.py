"""A learner signs up (``/accounts/signup/``), joining a class at once with its code.

It lives in the class app, not in accounts, because joining a class needs the class
app and accounts sits below it in the layer order (``pyproject.toml``); the account
itself is made by ``tutor.accounts.services.signup_learner``.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from .forms import LearnerSignupForm
from .services import signup_and_join


def signup(request: HttpRequest) -> HttpResponse:
    """A learner signs up, and joins a class at once when they have its code."""
    if request.user.is_authenticated:
        return redirect("home")
    form = LearnerSignupForm(
        request.POST or None, initial={"join_code": request.GET.get("code", "")}
    )
    if request.method == "POST" and form.is_valid():
        user = signup_and_join(
            username=form.cleaned_data["username"],
            password=form.cleaned_data["password1"],
            join_code=form.cleaned_data["join_code"],
        )
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome, %(name)s! Your account is ready.") % {"name": user})
        return redirect("home")
    return render(request, "accounts/signup.html", {"form": form})
