"""Settings sanity and the demo data command."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from tutor.accounts.models import User
from tutor.classroom.models import Membership, SchoolClass

ROOT = Path(__file__).resolve().parents[2]


def run_python(code: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "tutor.settings", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    code = f"import sys; from django.core.management import execute_from_command_line as e; e(['manage.py', *{list(args)!r}])"
    return run_python(code, **env)


PRODUCTION = {
    "DJANGO_DEBUG": "0",
    "DJANGO_SECRET_KEY": "a-long-random-production-secret-for-the-deploy-check-0123456789abcdef",
    "DJANGO_ALLOWED_HOSTS": "jass.example.ch",
}


def test_deploy_check_is_clean_in_production():
    result = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key():
    result = manage("check", DJANGO_DEBUG="0")
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr


def test_production_uses_manifest_static_storage_and_development_does_not():
    code = "from django.conf import settings; print(settings.STORAGES['staticfiles']['BACKEND'])"
    prod = run_python("import django; django.setup(); " + code, **PRODUCTION)
    dev = run_python("import django; django.setup(); " + code)
    assert "CompressedManifest" in prod.stdout, prod.stderr
    assert dev.stdout.strip() == "django.contrib.staticfiles.storage.StaticFilesStorage"


def test_database_url_selects_postgresql():
    code = "import django; django.setup(); from django.conf import settings; d = settings.DATABASES['default']; print(d['ENGINE'], d['NAME'], d['HOST'])"
    result = run_python(code, DATABASE_URL="postgres://postgres@127.0.0.1:5432/test")
    assert result.stdout.split() == ["django.db.backends.postgresql", "test", "127.0.0.1"]


def test_sqlite_runs_in_wal_mode_with_busy_timeout(tmp_path):
    code = (
        "import django; django.setup(); from django.db import connection; c = connection.cursor();"
        "print(c.execute('PRAGMA journal_mode').fetchone()[0], c.execute('PRAGMA busy_timeout').fetchone()[0])"
    )
    result = run_python(code, DJANGO_SQLITE_PATH=str(tmp_path / "t.sqlite3"))
    assert result.stdout.split() == ["wal", "20000"], result.stderr


def test_invalid_boolean_setting_is_a_clear_error():
    result = manage("check", DJANGO_DEBUG="maybe")
    assert result.returncode != 0 and "DJANGO_DEBUG must be a boolean" in result.stderr


@pytest.mark.django_db
def test_load_demo_is_idempotent():
    call_command("load_demo", stdout=open(os.devnull, "w"))  # noqa: SIM115
    first = (
        list(User.objects.order_by("username").values_list("username", "role", "password")),
        list(SchoolClass.objects.values_list("name", "join_code", "teacher__username")),
        Membership.objects.count(),
    )
    call_command("load_demo", stdout=open(os.devnull, "w"))  # noqa: SIM115
    second = (
        list(User.objects.order_by("username").values_list("username", "role", "password")),
        list(SchoolClass.objects.values_list("name", "join_code", "teacher__username")),
        Membership.objects.count(),
    )
    assert first == second
    assert first[2] == 4 and len(first[0]) == 5
