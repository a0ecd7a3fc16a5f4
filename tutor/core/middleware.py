"""A locked or unreachable database gives a clear page, not a 500.

Every service writes inside one transaction, so a request that fails here has
written nothing; the page says so and asks to try again in a moment.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

logger = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 5


class DatabaseUnavailableMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, (OperationalError, InterfaceError)):
            return None
        logger.warning(
            "database unavailable for %s %s: %s", request.method, request.path, exception
        )
        htmx = getattr(request, "htmx", False)
        template = "errors/db_unavailable.html" + ("#message" if htmx else "")
        context = {"retry_url": htmx.current_url if htmx else request.get_full_path()}
        try:
            body = render_to_string(template, context, request=request)
        except (OperationalError, InterfaceError):
            # The page itself needs the database (the session, the user): say it plainly.
            body = "The database is unavailable. Nothing was saved. Please try again shortly."
        response = HttpResponse(body, status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
