from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .forms import DeckForm, SignupForm
from .services import signup_learner

DECK_SESSION_KEY = "deck"


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignupForm(request.POST or None, initial={"join_code": request.GET.get("code", "")})
    if request.method == "POST" and form.is_valid():
        user = signup_learner(
            username=form.cleaned_data["username"],
            password=form.cleaned_data["password1"],
            join_code=form.cleaned_data["join_code"],
        )
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome, %(name)s! Your account is ready.") % {"name": user})
        return redirect("home")
    return render(request, "accounts/signup.html", {"form": form})


def _safe_next(request: HttpRequest, target: str) -> str:
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return "/"


@require_POST
def set_deck(request: HttpRequest) -> HttpResponse:
    """Remember the deck on the account, or in the session for visitors."""
    form = DeckForm(request.POST)
    if not form.is_valid():
        return HttpResponseBadRequest(_("Unknown deck. Choose the Swiss-German or French deck."))
    deck = form.cleaned_data["deck"]
    request.session[DECK_SESSION_KEY] = deck
    if request.user.is_authenticated:
        request.user.deck = deck
        request.user.save(update_fields=["deck"])
    return redirect(_safe_next(request, form.cleaned_data["next"]))
