from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .forms import DeckForm

DECK_SESSION_KEY = "deck"


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
