"""The request of a view that only a logged-in user reaches.

Behind ``login_required``, ``learner_required`` or ``teacher_required`` the user is
never ``AnonymousUser``, but ``HttpRequest.user`` says ``User | AnonymousUser``; a view
annotated with ``AuthedRequest`` gets ``request.user`` as the site's ``User`` (the
pattern django-stubs documents for authenticated requests). The role is not in the
type: a teacher-only view still gets a ``User``.
"""

from __future__ import annotations

from tutor.accounts.models import User
from tutor.core.http import HtmxHttpRequest


class AuthedRequest(HtmxHttpRequest):
    user: User  # narrows HttpRequest's `User | AnonymousUser` (see the module docstring)
