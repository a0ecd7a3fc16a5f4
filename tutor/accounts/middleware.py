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

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import Resolver404, resolve, reverse
from django.utils.http import urlencode
from django_htmx.http import HttpResponseClientRedirect

OPEN_WITH_ONE_TIME_PASSWORD = frozenset({"first_password", "logout", "set_language", "set_deck"})


class AccountStateMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if (
            user is not None
            and user.is_authenticated
            and user.must_set_password
            and not self._open(request)
        ):
            return self._to_first_password(request)
        return self.get_response(request)

    @staticmethod
    def _open(request: HttpRequest) -> bool:
        try:
            return resolve(request.path_info).url_name in OPEN_WITH_ONE_TIME_PASSWORD
        except Resolver404:
            return False

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
