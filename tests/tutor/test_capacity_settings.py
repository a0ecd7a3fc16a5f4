"""Issue 17: persistent database connections, and SQLite's lock wait still per request.

Each case runs in a fresh interpreter (``run_python``), as the settings are read once.
"""

from __future__ import annotations

import json

import pytest

from tests.tutor.test_hardening_site import LOCK_SCRIPT
from tests.tutor.test_setup import PRODUCTION, run_python

pytestmark = pytest.mark.django_db

SETTINGS_SCRIPT = r"""
import json
import django
django.setup()
from django.conf import settings
print(json.dumps({
    "conn_max_age": settings.DATABASES["default"]["CONN_MAX_AGE"],
    "engine": settings.DATABASES["default"]["ENGINE"],
    "session_engine": settings.SESSION_ENGINE,
    "session_store_is_db": issubclass(
        __import__(settings.SESSION_ENGINE, fromlist=["SessionStore"]).SessionStore,
        __import__("django.contrib.sessions.backends.db", fromlist=["SessionStore"]).SessionStore,
    ),
    "loaders": __import__("django.template", fromlist=["engines"]).engines["django"]
        .engine.loaders,
}))
"""


def settings_of(**env: str) -> dict:
    result = run_python(SETTINGS_SCRIPT, **PRODUCTION, **env)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_sqlite_and_postgresql_keep_their_connection_for_a_minute_by_default(tmp_path):
    sqlite = settings_of(DJANGO_SQLITE_PATH=str(tmp_path / "s.sqlite3"))
    postgres = settings_of(DATABASE_URL="postgres://jass@127.0.0.1:5432/jass")
    assert sqlite["engine"].endswith("sqlite3") and sqlite["conn_max_age"] == 60
    assert postgres["engine"].endswith("postgresql") and postgres["conn_max_age"] == 60


def test_the_connection_lifetime_can_be_set_and_zero_turns_persistence_off(tmp_path):
    sqlite = settings_of(DJANGO_SQLITE_PATH=str(tmp_path / "s.sqlite3"), DJANGO_CONN_MAX_AGE="0")
    postgres = settings_of(DATABASE_URL="postgres://jass@127.0.0.1/jass", DJANGO_CONN_MAX_AGE="300")
    assert sqlite["conn_max_age"] == 0
    assert postgres["conn_max_age"] == 300


def test_production_sessions_stay_in_the_database_and_templates_are_cached(tmp_path):
    """Sessions in the database: a logout ends the session on every worker and server
    (a per-process session cache or signed cookies would not). The site's store is
    Django's database backend with the user's id in a column (issue 22, item 2). The
    cached template loader is on in production without being configured."""
    found = settings_of(DJANGO_SQLITE_PATH=str(tmp_path / "s.sqlite3"))
    assert found["session_engine"] == "tutor.accounts.sessions"
    assert found["session_store_is_db"] is True
    # django-template-partials wraps Django's default loaders: the cached one inside.
    outer, inner = found["loaders"][0]
    assert outer == "template_partials.loader.Loader"
    assert inner[0][0] == "django.template.loaders.cached.Loader"


REUSE_SCRIPT = r"""
import json
import django
django.setup()
from django.core.management import call_command
from django.db import connection
from django.test import Client
from tutor.core.middleware import lock_fuse

call_command("migrate", verbosity=0)
client = Client()
out = []

def step():
    client.get("/weis/")
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA busy_timeout")
        out.append([id(connection.connection), cursor.fetchone()[0]])

step()
lock_fuse.trip()
step()
lock_fuse.reset()
step()
print(json.dumps(out))
"""


def test_a_reused_sqlite_connection_gets_each_requests_lock_wait(tmp_path):
    """The lock fuse shortens the wait of later requests; with a persistent connection
    there is no new connection to set it on, so every request sets it (once changed)."""
    result = run_python(
        REUSE_SCRIPT,
        DJANGO_SQLITE_PATH=str(tmp_path / "reuse.sqlite3"),
        JASS_SQLITE_REQUEST_BUSY_MS="2000",
        DJANGO_ALLOWED_HOSTS="testserver",
    )
    assert result.returncode == 0, result.stderr[-3000:]
    (first, wait_1), (second, wait_2), (third, wait_3) = json.loads(
        result.stdout.strip().splitlines()[-1]
    )
    assert first == second == third  # one connection for all three requests
    assert (wait_1, wait_2, wait_3) == (2000, 100, 2000)


def test_under_a_real_write_lock_a_persistent_connection_gives_up_as_quickly(tmp_path):
    """The write-lock case of test_hardening_site, but every request reuses the
    connection (as gunicorn does now): the first write waits the request's timeout and
    gets the 503 page, the next gives up at once, reads answer, writes work after."""
    reused = LOCK_SCRIPT.replace(
        "connections.close_all()  # as in production: a new connection for every request",
        "pass  # the connection of the previous request is reused",
    )
    assert reused != LOCK_SCRIPT
    result = run_python(
        reused,
        DJANGO_SQLITE_PATH=str(tmp_path / "lock.sqlite3"),
        JASS_SQLITE_REQUEST_BUSY_MS="2000",
    )
    assert result.returncode == 0, result.stderr[-3000:]
    out = json.loads(result.stdout.strip().splitlines()[-1])
    assert out["read"][0] == 200 and out["read"][1] < 1.5, out
    assert out["first write"][0] == 503 and 1.9 <= out["first write"][1] < 6, out
    assert out["second write"][0] == 503 and out["second write"][1] < 1.0, out
    assert out["write after"][0] == 302, out
