"""The session store with a cache in front (``SESSION_ENGINE`` when ``REDIS_URL`` is
set): Django's ``cached_db`` backend over the site's own session table.

A request reads its session from Redis and falls back to the database (and refills
the cache) on a miss; a save writes the database first, then Redis, so a Redis
restart loses nothing (issue 24). Each row still carries the user's id
(:mod:`tutor.accounts.sessions`), so the privacy pages find one person's sessions by
an index, and deleting a session through the store (logout, account deletion) removes
it from both places.

The cache is only ever a copy: while Redis does not answer, every read, write and
deletion goes to the database alone and the cache's error is logged (Django's
``cached_db`` already does so for a save; here also for the refill after a miss, for
``exists`` and for a deletion). A copy lives at most :data:`CACHE_SECONDS`, which also
bounds the one thing an unreachable Redis can do: a session deleted while Redis was
cut off (not restarted) may be read from its old copy until that expires.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from django.contrib.sessions.backends.cached_db import SessionStore as CachedDatabaseStore
from django.core.cache.backends.base import BaseCache

from .sessions import SessionStore as UserSessionStore

if TYPE_CHECKING:  # the session engine is imported before the apps are ready
    from .models import UserSession

logger = logging.getLogger("django.contrib.sessions")

CACHE_SECONDS = 300


class SessionStore(CachedDatabaseStore, UserSessionStore):
    """``cached_db`` reading and writing through :class:`UserSessionStore`'s model,
    with the cache best-effort (see the module)."""

    def load(self) -> dict[str, Any]:
        try:
            data = self._copies().get(self.cache_key)
        except Exception:  # noqa: BLE001 - an unreachable cache is a miss
            logger.exception("Error reading the session cache (%s)", self._copies())
            data = None
        if data is not None:
            loaded: dict[str, Any] = data
            return loaded
        row = self._row()
        if row is None:
            return {}
        decoded: dict[str, Any] = self.decode(row.session_data)
        self._cache_copy(decoded, self.get_expiry_age(expiry=row.expire_date))
        return decoded

    def exists(self, session_key: str | None) -> bool:
        if not session_key:
            return False
        try:
            if (self.cache_key_prefix + session_key) in self._copies():
                return True
        except Exception:  # noqa: BLE001
            logger.exception("Error reading the session cache (%s)", self._copies())
        return bool(UserSessionStore.exists(self, session_key))

    def save(self, must_create: bool = False) -> None:
        UserSessionStore.save(self, must_create)
        self._cache_copy(self._data(), self.get_expiry_age())

    def delete(self, session_key: str | None = None) -> None:
        UserSessionStore.delete(self, session_key)
        key = session_key if session_key is not None else self.session_key
        if key is None:
            return
        try:
            self._copies().delete(self.cache_key_prefix + key)
        except Exception:  # noqa: BLE001
            logger.exception("Error deleting from the session cache (%s)", self._copies())

    # Django's private parts, which django-stubs does not declare.
    def _copies(self) -> BaseCache:
        cache: BaseCache = self._cache  # type: ignore[attr-defined]
        return cache

    def _row(self) -> UserSession | None:
        row: UserSession | None = self._get_session_from_db()
        return row

    def _data(self) -> dict[str, Any]:
        data: dict[str, Any] = self._session  # type: ignore[attr-defined]
        return data

    def _cache_copy(self, data: dict[str, Any], expiry_age: int) -> None:
        try:
            self._copies().set(self.cache_key, data, min(expiry_age, CACHE_SECONDS))
        except Exception:  # noqa: BLE001
            logger.exception("Error saving to the session cache (%s)", self._copies())
