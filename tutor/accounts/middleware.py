"""What an account in a special state may see.

- An account with a one-time password (a login card, a teacher's reset) is sent to the
  page that sets its own password from every page until that is done: the teacher
  saw the one-time password, so nothing the pupil does should happen under it. Only
  that page, logging out and the language and deck switches stay open.
- A teacher who signed up and waits for an administrator's approval is neither a
  learner nor a teacher; where a page refuses them for that, they see the page that
  says they are waiting instead of a bare 403.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.http import urlencode
from django_htmx.http import HttpResponseClientRedirect

View = Callable[..., HttpResponse]

OPEN_WITH_ONE_TIME_PASSWORD = frozenset({"first_password", "logout", "set_language", "set_deck"})


def without_account_state(view: View) -> View:
    """Mark a view that answers without reading the session or the user (a live page's
    poll, which says only "moved or not"): the middleware below leaves it alone, so
    that the request costs no session or user query. Such a view must show nothing
    and change nothing."""
    setattr(view, "without_account_state", True)  # noqa: B010 - a marker for process_view
    return view


class AccountStateMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self,
        request: HttpRequest,
        view_func: Callable[..., HttpResponse],
        view_args: tuple[Any, ...],
        view_kwargs: dict[str, Any],
    ) -> HttpResponse | None:
        # At the view, not before: the URL is resolved once by Django's handler, and
        # a view marked with without_account_state is known.
        if getattr(view_func, "without_account_state", False):
            return None
        user = getattr(request, "user", None)
        if (
            user is not None
            and user.is_authenticated
            and user.must_set_password
            and not self._open(request)
        ):
            return self._to_first_password(request)
        return None

    @staticmethod
    def _open(request: HttpRequest) -> bool:
        match = request.resolver_match
        return match is not None and match.url_name in OPEN_WITH_ONE_TIME_PASSWORD

    @staticmethod
    def _to_first_password(request: HttpRequest) -> HttpResponse:
        target = reverse("first_password")
        if request.method == "GET" and not getattr(request, "htmx", False):
            target += "?" + urlencode({"next": request.get_full_path()})
            return redirect(target)
        if getattr(request, "htmx", False):
            return HttpResponseClientRedirect(target)
        return redirect(target)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        user = getattr(request, "user", None)
        if (
            isinstance(exception, PermissionDenied)
            and user is not None
            and user.is_authenticated
            and user.is_pending_teacher
        ):
            return redirect("teacher_pending")
        return None
