"""PostgreSQL prepares the statements a connection runs often (issue 24,
``JASS_PG_PREPARED_STATEMENTS``): on by default, off for a pooler that cannot keep
them, and really in effect (Django turns preparing off unless told)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from django.conf import settings
from django.db import connection

pytestmark = pytest.mark.django_db

_SHOW = "from django.conf import settings; import json; print(json.dumps(settings.DATABASES['default'].get('OPTIONS', {})))"


def _options(**env: str) -> dict:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("JASS_PG_")}
    environ.update(DJANGO_SETTINGS_MODULE="tutor.settings", **env)
    done = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {_SHOW}"],
        env=environ,
        capture_output=True,
        text=True,
        check=True,
        cwd=settings.BASE_DIR,
    )
    return json.loads(done.stdout)


def test_postgresql_binds_and_prepares_on_the_server_unless_turned_off():
    url = "postgres://jass@127.0.0.1:5432/jass"
    assert _options(DATABASE_URL=url) == {"server_side_binding": True, "prepare_threshold": 5}
    assert _options(DATABASE_URL=url, JASS_PG_PREPARED_STATEMENTS="0") == {}
    # SQLite keeps its own options.
    assert "server_side_binding" not in _options(DATABASE_URL="")


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL prepares here")
def test_a_statement_run_often_is_prepared_on_the_server():
    with connection.cursor() as cursor:
        for _ in range(6):
            cursor.execute("SELECT %s::int + 1", [41])
            assert cursor.fetchone() == (42,)
        cursor.execute("SELECT count(*) FROM pg_prepared_statements WHERE NOT from_sql")
        (prepared,) = cursor.fetchone()
    assert prepared >= 1
