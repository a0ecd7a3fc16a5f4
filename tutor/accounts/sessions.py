"""The site's session store: Django's database sessions with the user's id in a column.

``SESSION_ENGINE = "tutor.accounts.sessions"``. Each save writes the id of the logged-in
user (or null) beside the encoded data (:class:`tutor.accounts.models.UserSession`), so
the privacy pages and account deletion find one person's sessions by an index instead
of decoding the whole table (issue 22, item 2). Every logged-in request reads its row
with a query compiled once (tutor.core.prepared, issue 24), and with it the user's row:
:mod:`tutor.accounts.authentication` takes the user from there instead of asking the
database again. The expiry is checked on the row, as Django's query checked it.
Everything else is Django's ``db`` backend.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.utils import timezone

from tutor.core.prepared import PreparedQuery

if TYPE_CHECKING:
    from .models import User, UserSession

    # django-stubs makes the store generic in its model; Django's class is not
    # subscriptable at run time, so only the type checker sees the parameter.
    _Store = DatabaseSessionStore[UserSession]
else:
    _Store = DatabaseSessionStore


def user_id_of(data: dict[str, Any]) -> int | None:
    """The logged-in user's id in decoded session data, or None.

    >>> user_id_of({"_auth_user_id": "7"}), user_id_of({"deck": "french"})
    (7, None)
    """
    value = data.get(SESSION_KEY)
    try:
        return int(value) if value is not None else None
    except (TypeError, ValueError):
        return None


def _model() -> type[UserSession]:
    # Imported here: Django imports the session engine before the apps are ready.
    from .models import UserSession

    return UserSession


_ROW = PreparedQuery(
    lambda session_key: _model().objects.select_related("user").filter(session_key=session_key),
    session_key=str,
)


class SessionStore(_Store):
    #: The user's row as read with the session's (None: no row read, or nobody logged
    #: in, or the user is gone). Only :func:`row_user` reads it.
    _row_user: User | None = None

    def row_user(self, user_id: object) -> User | None:
        """The user read with this session's row when it is the user ``user_id`` (the id
        the session's data names), else None: then the caller asks the database."""
        user = self._row_user
        if user is None or str(user.pk) != str(user_id):
            return None
        return user

    @classmethod
    def get_model_class(cls) -> type[UserSession]:
        return _model()

    def _get_session_from_db(self) -> UserSession | None:
        """The session's row while it has not expired; else None, and the key is
        dropped (a new one is made on saving), as Django's store does."""
        key = self.session_key
        row = _ROW.one(session_key=key) if isinstance(key, str) else None
        if row is None or row.expire_date <= timezone.now():
            self._session_key = None
            return None
        self._row_user = row.user
        return row

    def create_model_instance(self, data: dict[str, Any]) -> UserSession:
        session = super().create_model_instance(data)
        session.user_id = user_id_of(data)
        return session
