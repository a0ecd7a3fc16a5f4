"""A locked or unreachable database gives a clear page, not a 500, and a locked SQLite
database does not take the workers with it.

Every service writes inside one transaction, so a request that fails here has
written nothing; the page says so and asks to try again in a moment. The page is
reached from every place a request can write:

- the view (``DatabaseUnavailableMiddleware.process_exception``);
- the session save after the view (``SessionMiddleware``, which replaces Django's);
- anything else that escapes as an uncaught error (``tutor.core.views.server_error``,
  the site's ``handler500``, in production).

SQLite has one writer at a time. A web request waits for the write lock at most
``JASS_SQLITE_REQUEST_BUSY_MS`` (management commands keep the longer wait of the
settings). Once a request has found the database locked, the *lock fuse* is on for
``LOCK_FUSE_SECONDS`` in every worker process of the server (a file beside the
database marks it): new connections wait only ``FUSED_BUSY_MS``, so further writes get
the 503 page at once instead of holding a worker each, and the workers stay free for
reads, which WAL lets run beside a writer. Writes a page can do without (the moment a
question was first shown, a deck preference) do not wait at all (``no_lock_wait``).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.sessions.middleware import SessionMiddleware as DjangoSessionMiddleware
from django.core.exceptions import DisallowedHost
from django.db import InterfaceError, OperationalError, connections, transaction
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.urls import Resolver404, resolve, reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext

if TYPE_CHECKING:
    from django_htmx.middleware import HtmxDetails

logger = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 5
DATABASE_ERRORS = (OperationalError, InterfaceError)
LOCK_FUSE_SECONDS = 10.0
FUSED_BUSY_MS = 100


# --- the lock fuse ------------------------------------------------------------------


def sqlite_fuse_path() -> Path | None:
    """The file beside the default SQLite database that marks the fuse for every worker
    process of the server; None for other databases and in-memory SQLite (tests)."""
    settings_dict = connections["default"].settings_dict
    name = str(settings_dict.get("NAME") or "")
    if not settings_dict["ENGINE"].endswith("sqlite3") or not name or "memory" in name:
        return None
    return Path(f"{name}-fuse")


class LockFuse:
    """Per server: "a request here found the database locked a moment ago".

    Each process remembers its own trip; the file ``path()`` (its modification time)
    carries a trip to the server's other worker processes, so that one 503 spares every
    worker the full wait, not only the one that tripped. Without a file (other
    databases, in-memory SQLite) the fuse is per process.
    """

    def __init__(self, path: Callable[[], Path | None] = sqlite_fuse_path) -> None:
        self._until = 0.0
        self._lock = threading.Lock()
        self._path = path

    def trip(self) -> None:
        with self._lock:
            self._until = time.monotonic() + LOCK_FUSE_SECONDS
        path = self._path()
        if path is not None:
            try:
                path.touch()
                os.utime(path)  # touch() keeps the old time when the file exists
            except OSError as error:  # a read-only folder: the fuse stays per process
                logger.info("could not mark the lock fuse in %s: %s", path, error)

    def reset(self) -> None:
        with self._lock:
            self._until = 0.0
        path = self._path()
        if path is not None:
            path.unlink(missing_ok=True)

    @property
    def on(self) -> bool:
        if time.monotonic() < self._until:
            return True
        path = self._path()
        if path is None:
            return False
        try:
            tripped_at = path.stat().st_mtime
        except OSError:
            return False
        return 0 <= time.time() - tripped_at < LOCK_FUSE_SECONDS


lock_fuse = LockFuse()
_in_request: ContextVar[bool] = ContextVar("jass_in_request", default=False)


def request_started(**kwargs: object) -> None:
    _in_request.set(True)
    # With persistent connections (CONN_MAX_AGE) a request may reuse the connection of
    # an earlier one: give it this request's wait, which the lock fuse may have changed.
    from django.db import connections

    for alias in connections:
        connection = connections[alias]
        if connection.vendor == "sqlite" and connection.connection is not None:
            set_busy_timeout(connection, request_busy_ms())


def request_finished(**kwargs: object) -> None:
    _in_request.set(False)


def request_busy_ms() -> int:
    """How long a web request's new SQLite connection waits for the write lock."""
    if lock_fuse.on:
        return FUSED_BUSY_MS
    return int(getattr(settings, "JASS_SQLITE_REQUEST_BUSY_MS", 5000))


# `connection` below is Django's BaseDatabaseWrapper with the site's own `jass_busy_ms`
# attribute on it, which the stubs cannot know; hence Any.


def set_busy_timeout(connection: Any, ms: int) -> None:
    """Set SQLite's busy timeout, skipping the statement when it is set already."""
    if getattr(connection, "jass_busy_ms", None) != ms:
        connection.connection.execute(f"PRAGMA busy_timeout = {ms:d}")
        connection.jass_busy_ms = ms


def tune_connection(sender: object, connection: Any, **kwargs: object) -> None:
    """``connection_created``: a web request's SQLite connection waits less for the lock."""
    if connection.vendor == "sqlite":
        connection.jass_busy_ms = None  # a new connection: init_command set the long wait
        if _in_request.get():
            set_busy_timeout(connection, request_busy_ms())


def is_lock_error(error: BaseException) -> bool:
    return isinstance(error, OperationalError) and "locked" in str(error).lower()


@contextmanager
def no_lock_wait(using: str = "default") -> Iterator[None]:
    """Inside, a SQLite write that finds the database locked fails at once (a lock
    error) instead of waiting the request's busy timeout; the wait is restored after.
    Other databases lock rows, not the database: nothing changes there."""
    connection = connections[using]
    if connection.vendor != "sqlite":
        yield
        return
    connection.ensure_connection()
    (before,) = connection.connection.execute("PRAGMA busy_timeout").fetchone()
    set_busy_timeout(connection, 0)
    try:
        yield
    finally:
        if connection.connection is not None:
            set_busy_timeout(connection, int(before))


def write_unless_locked(
    write: Callable[[], object], using: str = "default", *, one_statement: bool = False
) -> bool:
    """Run ``write`` in its own transaction (a savepoint inside another), unless the
    database is locked: then skip it at once and say so (False). For writes a page can
    do without, so that a page that otherwise only reads never waits for a lock (issue
    22, item 6): the moment a question was first shown, say.

    ``one_statement``: ``write`` is a single statement, which outside a transaction
    commits by itself, so it is not wrapped in BEGIN and COMMIT (two round trips fewer
    on PostgreSQL, issue 24); inside one it still gets its savepoint."""
    atomic = (
        nullcontext()
        if one_statement and not connections[using].in_atomic_block
        else transaction.atomic(using=using)
    )
    try:
        with no_lock_wait(using), atomic:
            write()
    except OperationalError as error:
        if not is_lock_error(error):
            raise
        logger.info("skipped a write while the database was locked: %s", error)
        return False
    return True


# --- work after the response ----------------------------------------------------------
#
# A job that must not make the response slower or faster in a way that tells something
# (a reset mail, sent only when the address has an account) runs once the response has
# gone to the client: when the server closes it. Outside a request it runs at once.

_after_response: ContextVar[list[Callable[[], object]] | None] = ContextVar(
    "jass_after_response", default=None
)


def after_response(job: Callable[[], object]) -> None:
    """Run ``job`` after this request's response is sent (not after an error page)."""
    jobs = _after_response.get()
    if jobs is None:
        job()
    else:
        jobs.append(job)


def _run_jobs(jobs: list[Callable[[], object]]) -> None:
    for job in jobs:
        try:
            job()
        except Exception:  # the response is gone: log, and go on with the others
            logger.exception("a job after the response failed")


class AfterResponseMiddleware:
    """First in MIDDLEWARE: collects the request's :func:`after_response` jobs and runs
    them when the server closes the final response (WSGI calls ``close()`` once the
    body is sent; Django's test client does the same)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        jobs: list[Callable[[], object]] = []
        token = _after_response.set(jobs)
        try:
            response = self.get_response(request)
        finally:
            _after_response.reset(token)
        if jobs and response.status_code < 500:
            close = response.close

            def close_then_run() -> None:
                try:
                    close()
                finally:
                    _run_jobs(jobs)

            # The server calls close() when the response is sent: the one hook after it.
            response.close = close_then_run  # type: ignore[method-assign]
        return response


# --- the page -----------------------------------------------------------------------


def _same_origin(request: HttpRequest, url: str) -> bool:
    try:
        host = request.get_host()
    except DisallowedHost:
        return False
    return bool(url) and url_has_allowed_host_and_scheme(
        url, allowed_hosts={host}, require_https=request.is_secure()
    )


def _methods(view: Callable[..., object] | None) -> set[str] | None:
    """The methods ``view`` answers: a class-based view's handlers, or what
    ``require_http_methods`` (``require_POST``, ...) lets through, found through every
    ``functools.wraps`` layer; None when nothing limits them."""
    view_class = getattr(view, "view_class", None)
    if view_class is not None:  # a class-based view: the methods it has a handler for
        return {m.upper() for m in view_class.http_method_names if hasattr(view_class, m)}
    while view is not None:
        for cell in getattr(view, "__closure__", None) or ():
            try:
                value = cell.cell_contents
            except ValueError:  # an empty cell
                continue
            if (
                isinstance(value, (list, tuple))
                and value
                and all(isinstance(m, str) and m.isupper() for m in value)
            ):
                return set(value)
        view = getattr(view, "__wrapped__", None)
    return None


def _page_for(url: str) -> str | None:
    """``url`` itself when a GET can open it; for a post-only URL, the page it belongs
    to (the question for an answer, the lesson for a lesson question); else None."""
    try:
        match = resolve(urlsplit(url).path)
    except Resolver404:
        return None
    methods = _methods(match.func)
    if methods is None or "GET" in methods:
        return url
    kwargs = match.kwargs
    if match.view_name == "quizzes:answer":
        return reverse("quizzes:question", args=[kwargs["quiz_id"], kwargs["position"]])
    if match.namespace == "lessons" and "slug" in kwargs:
        return reverse("lessons:detail", args=[kwargs["slug"]])
    return None


def retry_url(request: HttpRequest) -> str:
    """Where "Try again" leads: always a page a GET can open.

    For htmx, the page in the browser; a plain GET is tried again as it was; for a
    post, the page it was sent from (the Referer, when it is of this site), else the
    page the post belongs to (the question for an answer, the lesson for a lesson
    question), else the home page. A post-only URL is never the answer.
    """
    # Not an HtmxHttpRequest: an error can stop the request before HtmxMiddleware ran.
    htmx: HtmxDetails | None = getattr(request, "htmx", None)
    if htmx and htmx.current_url and _same_origin(request, htmx.current_url):
        return htmx.current_url
    if request.method in ("GET", "HEAD"):
        return request.get_full_path()
    referer = request.headers.get("Referer", "")
    for url in (referer if _same_origin(request, referer) else "", request.path):
        page = _page_for(url) if url else None
        if page:
            return page
    return reverse("home")


def database_unavailable(request: HttpRequest, error: BaseException) -> HttpResponse:
    """The 503 page (the message alone for htmx), with Retry-After."""
    if is_lock_error(error):
        lock_fuse.trip()
    logger.warning("database unavailable for %s %s: %s", request.method, request.path, error)
    htmx: HtmxDetails | None = getattr(request, "htmx", None)
    template = "errors/db_unavailable.html" + ("#message" if htmx else "")
    body: str
    try:
        body = render_to_string(template, {"retry_url": retry_url(request)}, request=request)
    except DATABASE_ERRORS:
        # The page itself needs the database (the session, the user): say it plainly.
        body = gettext("The database is unavailable. Nothing was saved. Please try again shortly.")
    response = HttpResponse(body, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


# --- the middleware -----------------------------------------------------------------


class DatabaseUnavailableMiddleware:
    """The view's database errors become the 503 page."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, DATABASE_ERRORS):
            return None
        return database_unavailable(request, exception)


class SessionMiddleware(DjangoSessionMiddleware):
    """Django's, except that a session save the database refuses (after the view, so
    outside ``process_exception``) also ends in the 503 page, without a cookie."""

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        try:
            return super().process_response(request, response)
        except DATABASE_ERRORS as error:
            return database_unavailable(request, error)
