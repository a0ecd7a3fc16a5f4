import pytest
from django.core.cache import caches


@pytest.fixture(autouse=True)
def _empty_caches():
    """Each test starts with empty caches: ids repeat across tests' rolled-back databases."""
    for cache in caches.all(initialized_only=True):
        cache.clear()
    yield
