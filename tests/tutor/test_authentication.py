"""``request.user`` from the session's query (tutor.accounts.authentication, issue 24):
one statement less per logged-in request, and the same user as Django's ``get_user``
in every case, the refusals included."""

from collections.abc import Callable
from importlib import import_module

import pytest
from django.conf import settings
from django.contrib import auth
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test import Client, RequestFactory, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import LearnerFactory
from tutor.accounts.authentication import user_of
from tutor.accounts.models import User, UserSession

pytestmark = pytest.mark.django_db

OLD_SECRET = "the-secret-before-the-rotation-" + "x" * 30
Store = import_module(settings.SESSION_ENGINE).SessionStore


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def page(client: Client) -> int:
    """A logged-in page's status: 200 for the user, 302 to the login for anybody else."""
    return client.get(reverse("password_change")).status_code


def test_a_logged_in_request_reads_its_user_with_its_session():
    client = logged_in(LearnerFactory())
    with CaptureQueriesContext(connection) as queries:
        assert page(client) == 200
    user_reads = [q["sql"] for q in queries if '"accounts_user"' in q["sql"]]
    assert len(user_reads) == 1, user_reads
    assert 'FROM "accounts_session" LEFT OUTER JOIN "accounts_user"' in user_reads[0]


def test_a_password_changed_elsewhere_ends_the_other_sessions():
    user = LearnerFactory()
    other, kept = logged_in(user), logged_in(user)
    user.set_password("another-long-password-2026")
    user.save()
    assert page(other) == 302
    assert page(kept) == 302
    assert not UserSession.objects.filter(session_key=other.session.session_key).exists()


def test_an_inactive_or_deleted_user_is_anonymous():
    inactive, deleted = LearnerFactory(), LearnerFactory()
    inactive_client, deleted_client = logged_in(inactive), logged_in(deleted)
    User.objects.filter(pk=inactive.pk).update(is_active=False)
    # Deleted in SQL, as if by another server: the session row is still there.
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM accounts_user WHERE id = %s", [deleted.pk])
    assert page(inactive_client) == 302
    assert page(deleted_client) == 302


def test_a_session_of_a_rotated_secret_is_moved_to_the_current_one():
    user = LearnerFactory()
    with override_settings(SECRET_KEY=OLD_SECRET):
        client = logged_in(user)
    key = client.session.session_key
    with override_settings(SECRET_KEY_FALLBACKS=[OLD_SECRET]):
        assert page(client) == 200
    assert client.session.session_key != key  # cycled, as Django does
    assert page(client) == 200  # now hashed with the current secret
    with override_settings(SECRET_KEY=OLD_SECRET, SECRET_KEY_FALLBACKS=[]):
        assert page(client) == 302


# -- the same answer as Django's get_user, case by case ---------------------------------


def _session(user: User, **changes: object) -> str:
    store = Store()
    store[auth.SESSION_KEY] = str(user.pk)
    store[auth.BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[auth.HASH_SESSION_KEY] = user.get_session_auth_hash()
    for key, value in changes.items():
        if value is None:
            del store[key]
        else:
            store[key] = value
    store.create()
    return str(store.session_key)


def _ask(how: Callable[..., object], key: str) -> tuple[object, bool, bool]:
    request = RequestFactory().get("/")
    request.session = Store(session_key=key)
    request.session.load()  # as the session middleware's first access does
    user = how(request)
    still_there = UserSession.objects.filter(session_key=key).exists()
    return (
        user.pk if not isinstance(user, AnonymousUser) else None,
        request.session.session_key == key,
        still_there,
    )


CASES = {
    "logged in": lambda u: _session(u),
    "no hash": lambda u: _session(u, **{auth.HASH_SESSION_KEY: None}),
    "a wrong hash": lambda u: _session(u, **{auth.HASH_SESSION_KEY: "0" * 64}),
    "another backend": lambda u: _session(u, **{auth.BACKEND_SESSION_KEY: "x.Backend"}),
    "nobody": lambda u: _session(u, **{auth.SESSION_KEY: None}),
    "another user's id": lambda u: _session(u, **{auth.SESSION_KEY: str(LearnerFactory().pk)}),
}


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("state", ["active", "inactive"])
def test_the_user_is_the_one_djangos_get_user_finds(case, state):
    user = LearnerFactory(is_active=state == "active")
    ours, django = _ask(user_of, CASES[case](user)), _ask(auth.get_user, CASES[case](user))
    assert ours == django


def test_a_session_of_a_fallback_secret_is_treated_as_django_treats_it():
    user = LearnerFactory()
    with override_settings(SECRET_KEY=OLD_SECRET):
        keys = [_session(user), _session(user)]
    with override_settings(SECRET_KEY_FALLBACKS=[OLD_SECRET]):
        ours, django = _ask(user_of, keys[0]), _ask(auth.get_user, keys[1])
    # Logged in, under a new key; the old key's row is gone.
    assert ours == django == (user.pk, False, False)
