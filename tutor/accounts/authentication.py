"""``request.user`` from the session's own query (issue 24).

Django's ``AuthenticationMiddleware`` asks the database for the user on every logged-in
request, right after the session store asked for the session. The site's store reads
the user's row in the same query (:mod:`tutor.accounts.sessions`), so this middleware
takes it from there: one statement less per request, which on PostgreSQL is a round
trip and a plan.

Everything else is Django's :func:`django.contrib.auth.get_user`, step for step: the
user counts only when the session names Django's ``ModelBackend`` (the only backend
that logs anybody in here; axes' backend only refuses) and the user may log in
(``is_active``); the session's hash must match the user's password hash (or one made
with a fallback secret, and then the session is moved to the current one), else the
session is flushed and the request is anonymous. For every other case (no row read,
another backend, the sessions in Redis) it calls Django's function unchanged.
``tests/tutor/test_authentication.py`` checks both paths the same ways.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib import auth
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.middleware import AuthenticationMiddleware as DjangoMiddleware
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from django.utils.crypto import constant_time_compare
from django.utils.functional import SimpleLazyObject

if TYPE_CHECKING:
    from django.contrib.auth.base_user import AbstractBaseUser

    from .models import User

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


def user_of(request: HttpRequest) -> AbstractBaseUser | AnonymousUser:
    """The request's user, as :func:`django.contrib.auth.get_user` finds it, taking
    the user's row from the session's query when the store read it."""
    session: Any = request.session
    data_user_id = session.get(auth.SESSION_KEY)
    backend_path = session.get(auth.BACKEND_SESSION_KEY)
    row_user = getattr(session, "row_user", None)
    user: User | None = row_user(data_user_id) if row_user and data_user_id is not None else None
    if (
        user is None
        or backend_path != MODEL_BACKEND
        or backend_path not in settings.AUTHENTICATION_BACKENDS
    ):
        return auth.get_user(request)
    if not ModelBackend().user_can_authenticate(user):
        return AnonymousUser()
    session_hash = session.get(auth.HASH_SESSION_KEY)
    current = user.get_session_auth_hash()
    if session_hash and constant_time_compare(session_hash, current):
        return user
    if session_hash and any(
        constant_time_compare(session_hash, fallback)
        for fallback in user.get_session_auth_fallback_hash()
    ):
        session.cycle_key()
        session[auth.HASH_SESSION_KEY] = current
        return user
    session.flush()
    return AnonymousUser()


def _cached_user(request: HttpRequest) -> AbstractBaseUser | AnonymousUser:
    if not hasattr(request, "_cached_user"):
        request._cached_user = user_of(request)  # type: ignore[attr-defined]
    user: AbstractBaseUser | AnonymousUser = request._cached_user  # type: ignore[attr-defined]
    return user


class AuthenticationMiddleware(DjangoMiddleware):
    """Django's middleware with ``request.user`` from :func:`user_of`."""

    def process_request(self, request: HttpRequest) -> None:
        super().process_request(request)
        request.user = SimpleLazyObject(lambda: _cached_user(request))  # type: ignore[assignment]
