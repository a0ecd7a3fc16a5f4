"""Sessions cached in Redis (issue 24): ``REDIS_URL`` switches the session store to
Django's ``cached_db`` over the site's table (tutor/accounts/cached_sessions.py).

Run against a real Redis at ``JASS_TEST_REDIS_URL`` (default redis://127.0.0.1:6379/15,
a database of its own, emptied around each test); skipped when none answers, unless
``JASS_REQUIRE_REDIS=1`` (CI), which makes a missing Redis a failure.
"""

from __future__ import annotations

import os

import pytest
from django.conf import settings
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings
from django.urls import reverse

from tests.factories import PASSWORD, LearnerFactory
from tutor.accounts.models import UserSession

pytestmark = pytest.mark.django_db

URL = os.environ.get("JASS_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


def _redis_answers(url: str) -> bool:
    try:
        import redis

        return bool(redis.Redis.from_url(url, socket_connect_timeout=1).ping())
    except Exception:  # noqa: BLE001 - any failure means: no Redis here
        return False


if not _redis_answers(URL):
    if os.environ.get("JASS_REQUIRE_REDIS") == "1":
        raise RuntimeError(f"JASS_REQUIRE_REDIS=1 but no Redis answers at {URL}")
    pytest.skip(f"no Redis at {URL}", allow_module_level=True)


def _with_sessions_in(location: str):
    cache = {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": location}
    return override_settings(
        CACHES={**settings.CACHES, "sessions": cache},
        SESSION_CACHE_ALIAS="sessions",
        SESSION_ENGINE="tutor.accounts.cached_sessions",
    )


@pytest.fixture(autouse=True)
def redis_sessions():
    with _with_sessions_in(URL):
        caches["sessions"].clear()
        yield caches["sessions"]
        caches["sessions"].clear()


def _logged_in(user) -> Client:
    client = Client()
    response = client.post(reverse("login"), {"username": user.username, "password": PASSWORD})
    assert response.status_code == 302, "the login form did not log in"
    return client


def _session_reads(queries) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if "accounts_session" in q["sql"]]


def test_a_login_writes_the_session_to_the_database_and_to_redis(redis_sessions):
    anna = LearnerFactory(username="anna")
    client = _logged_in(anna)
    key = client.session.session_key
    row = UserSession.objects.get(pk=key)
    assert row.user_id == anna.pk  # the privacy pages still find it by the index
    assert redis_sessions.get(f"django.contrib.sessions.cached_db{key}") is not None


def test_a_logged_in_page_reads_its_session_from_redis_not_the_database(redis_sessions):
    client = _logged_in(LearnerFactory(username="anna"))
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("dashboard")).status_code == 200
    assert _session_reads(queries) == []


def test_a_redis_restart_loses_no_session(redis_sessions):
    anna = LearnerFactory(username="anna")
    client = _logged_in(anna)
    redis_sessions.clear()  # Redis restarted empty
    with CaptureQueriesContext(connection) as queries:
        page = client.get(reverse("dashboard"))
    assert page.status_code == 200 and page.wsgi_request.user == anna
    assert _session_reads(queries)  # read from the database once, then cached again
    with CaptureQueriesContext(connection) as queries:
        client.get(reverse("dashboard"))
    assert _session_reads(queries) == []


def test_deleting_the_account_ends_its_sessions_in_redis_too(redis_sessions):
    anna = LearnerFactory(username="anna")
    client = _logged_in(anna)
    key = client.session.session_key
    anna.delete()  # tutor.classroom.privacy.forget_traces deletes through the store
    assert not UserSession.objects.filter(pk=key).exists()
    assert redis_sessions.get(f"django.contrib.sessions.cached_db{key}") is None
    assert client.get(reverse("dashboard")).status_code == 302  # to the login page


def test_a_logout_ends_the_session_for_every_worker(redis_sessions):
    client = _logged_in(LearnerFactory(username="anna"))
    key = client.session.session_key
    assert client.post(reverse("logout")).status_code == 302
    assert redis_sessions.get(f"django.contrib.sessions.cached_db{key}") is None
    assert not UserSession.objects.filter(pk=key).exists()


def test_the_login_throttle_works_the_same(redis_sessions):
    """django-axes counts failures in the database, not in the session: five wrong
    passwords lock the name out as without Redis."""
    LearnerFactory(username="anna")
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post(reverse("login"), {"username": "anna", "password": "wrong"})
    locked = client.post(reverse("login"), {"username": "anna", "password": PASSWORD})
    assert locked.status_code == 429


def test_with_redis_down_the_site_keeps_working_from_the_database():
    """A Redis that does not answer (a closed port): logins and pages still work, from
    the database alone (cached_db logs the cache's errors)."""
    with _with_sessions_in("redis://127.0.0.1:1/0"):
        anna = LearnerFactory(username="anna")
        client = _logged_in(anna)
        assert client.get(reverse("dashboard")).wsgi_request.user == anna
        assert UserSession.objects.filter(user_id=anna.pk).exists()


def test_a_cached_copy_lives_at_most_five_minutes(redis_sessions):
    """A session deleted while Redis was cut off can outlive its row only that long."""
    import redis

    from tutor.accounts.cached_sessions import CACHE_SECONDS

    client = _logged_in(LearnerFactory(username="anna"))
    key = redis_sessions.make_key(f"django.contrib.sessions.cached_db{client.session.session_key}")
    ttl = redis.Redis.from_url(URL).ttl(key)
    assert 0 < ttl <= CACHE_SECONDS == 300
