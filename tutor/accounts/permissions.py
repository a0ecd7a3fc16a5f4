"""Role checks for views. Object-level checks live in each app's selectors."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse

from tutor.accounts.http import AuthedRequest
from tutor.accounts.models import Role

View = Callable[..., HttpResponse]


def role_required(role: Role) -> Callable[[View], View]:
    def decorator(view: View) -> View:
        @login_required
        @wraps(view)
        def wrapped(request: AuthedRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            # login_required above has already sent an anonymous visitor to the login page.
            if request.user.role != role:
                raise PermissionDenied
            return view(request, *args, **kwargs)

        return wrapped

    return decorator


teacher_required = role_required(Role.TEACHER)
learner_required = role_required(Role.LEARNER)
