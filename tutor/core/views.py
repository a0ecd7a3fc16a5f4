from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "core/home.html")


def health(request: HttpRequest) -> HttpResponse:
    """A trivial endpoint: liveness checks and the benchmark's baseline."""
    return HttpResponse("ok", content_type="text/plain")
