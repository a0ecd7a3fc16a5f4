"""``python -m bench.inprocess --db postgres`` counts what the request's PostgreSQL
backend spent beside this process's CPU (issue 24: a statement saved shows there)."""

from __future__ import annotations

import itertools

import pytest
from django.db import connection

from bench import inprocess


def test_a_request_costs_its_own_cpu_plus_what_the_backend_spent_meanwhile(monkeypatch):
    backend_seconds = itertools.count(start=1.0, step=0.004)  # 4 ms per reading
    monkeypatch.setattr(inprocess, "_backend_cpu", lambda: next(backend_seconds))
    assert inprocess._cpu_ms(lambda i: None, 0) >= 4.0
    monkeypatch.setattr(inprocess, "_backend_cpu", inprocess._no_backend)
    assert inprocess._cpu_ms(lambda i: None, 0) < 4.0


@pytest.mark.django_db
@pytest.mark.skipif(connection.vendor != "postgresql", reason="a PostgreSQL backend's CPU")
def test_the_backend_cpu_grows_with_the_work_the_backend_does():
    before = inprocess._postgres_backend_cpu()
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM generate_series(1, 2000000)")
        assert cursor.fetchone() == (2000000,)
    spent = inprocess._postgres_backend_cpu() - before
    assert 0.005 < spent < 30
