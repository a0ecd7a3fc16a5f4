import os

import pytest
from django.core.cache import caches
from django.core.cache.backends.db import DatabaseCache

from tutor.core.kept import KeptStates

# Fixtures that give a test the database (pytest-django's, and what builds on them).
DATABASE_FIXTURES = frozenset(
    {"db", "transactional_db", "django_db_reset_sequences", "django_db_serialized_rollback"}
    | {"live_server"}
)


def uses_database(item: pytest.Item) -> bool:
    """Whether a collected test touches the database (a django_db mark or fixture)."""
    fixtures = set(getattr(item, "fixturenames", ()))
    return item.get_closest_marker("django_db") is not None or bool(fixtures & DATABASE_FIXTURES)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """``JASS_DATABASE_TESTS_ONLY=1`` keeps only the tests that touch the database.

    CI's second pass (PostgreSQL, `.ci/run`) sets it: the rules engine, the generators,
    the stem checker and the other tests without a database run the same whatever
    ``DATABASE_URL`` says, so running them twice checks nothing more.
    """
    if os.environ.get("JASS_DATABASE_TESTS_ONLY") != "1":
        return
    kept = [item for item in items if uses_database(item)]
    dropped = [item for item in items if not uses_database(item)]
    items[:] = kept
    config.hook.pytest_deselected(items=dropped)


@pytest.fixture(autouse=True)
def _empty_caches():
    """Each test starts with empty caches: ids repeat across tests' rolled-back databases.

    A database cache (the LTI launches' ``lti`` cache without Redis) is a table: it is
    emptied by the test database's rollback, and clearing it here would touch the
    database from tests that have none."""
    for cache in caches.all(initialized_only=True):
        if isinstance(cache, DatabaseCache):
            continue
        cache.clear()
    for kept in KeptStates.every:
        kept.clear()
    yield
