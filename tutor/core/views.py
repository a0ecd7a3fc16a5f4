from __future__ import annotations

import sys

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views import defaults

from .middleware import DATABASE_ERRORS, database_unavailable


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "core/home.html")


def health(request: HttpRequest) -> HttpResponse:
    """A trivial endpoint: liveness checks and the benchmark's baseline."""
    return HttpResponse("ok", content_type="text/plain")


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: a database error that escaped everything else (a middleware's
    write, say) still gets the clear 503 page; anything else is Django's 500."""
    error = sys.exc_info()[1]
    if isinstance(error, DATABASE_ERRORS):
        return database_unavailable(request, error)
    return defaults.server_error(request)
