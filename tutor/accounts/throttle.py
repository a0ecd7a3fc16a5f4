"""Login throttling on top of django-axes: per name and address, and per address.

django-axes counts failed logins per (name, address) pair
(``AXES_LOCKOUT_PARAMETERS``): five wrong passwords for one name from one address lock
that pair. That alone lets a flood of *fresh* names through, each costing a full
Argon2 hash. :class:`AddressThrottlingHandler` adds a second, higher limit on all
failures from one address (``JASS_LOGIN_ADDRESS_FAILURE_LIMIT``), whatever the
names.

Why a handler and not an ``"ip_address"`` entry in ``AXES_LOCKOUT_PARAMETERS``: axes
compares every entry with the one ``AXES_FAILURE_LIMIT``, so the address would be
locked after five failures of a whole class behind one school address; and a right
password deletes the attempts of *every* entry, so an attacker with an account of
their own (sign-up is open) could clear the address count by logging in now and then.
Here the address has its own limit, and a success only clears its own name's
failures from that address.

Addresses: ``REMOTE_ADDR`` by default; behind ``JASS_PROXY_COUNT`` reverse proxies, the
address those proxies saw (from ``X-Forwarded-For``). IPv6 clients are counted per /64
network, the block one household or server usually gets, so that stepping through
one's own addresses does not reset the count.

Below the login part: a wrong current password on the password-change form counts as
a failed login (:func:`record_wrong_password`), and requests that send e-mail
(password reset, teacher sign-up) have counts of their own (:func:`allow`).
"""

from __future__ import annotations

import ipaddress
import unicodedata
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.crypto import salted_hmac

from .models import RateEvent, User


class AxesRequest(HttpRequest):
    """A login request as axes' handlers see it (an annotation, like
    ``tutor.core.http``): axes sets the address it counts, this module marks a request
    whose address reached its limit."""

    axes_ip_address: str | None
    jass_address_locked: bool


def client_address(request: HttpRequest) -> str | None:
    """The address a login is counted against (``AXES_CLIENT_IP_CALLABLE``).

    >>> from django.test import RequestFactory
    >>> client_address(RequestFactory().get("/", REMOTE_ADDR="2001:db8:1:2:aa:bb:cc:dd"))
    '2001:db8:1:2::'
    >>> client_address(RequestFactory().get("/", REMOTE_ADDR="192.0.2.7"))
    '192.0.2.7'
    >>> client_address(RequestFactory().get("/", REMOTE_ADDR="::ffff:192.0.2.7"))
    '192.0.2.7'
    """
    address = request.META.get("REMOTE_ADDR") or ""
    proxies = getattr(settings, "JASS_PROXY_COUNT", 0)
    if proxies > 0:
        # Each trusted proxy appends the address it saw; the ones further left were
        # written by the client and prove nothing.
        hops = [hop.strip() for hop in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        hops = [hop for hop in hops if hop]
        if len(hops) >= proxies:
            address = hops[-proxies]
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False).network_address)
    return str(ip)


def login_name(username: str) -> str:
    """The name a login is counted and recorded under: NFKC and case-folded.

    django-axes stores the name as it was typed, so failures typed as ``Chiara`` and
    ``CHIARA`` were records of chiara that her export and her deletion did not find.
    The site refuses names that differ only in case, so the folded name still names one
    account. Capped at axes' 255-character column (folding can lengthen a name).

    >>> login_name("CHIARA"), login_name("Jürg"), login_name("ＡＮＮＡ")
    ('chiara', 'jürg', 'anna')
    """
    return unicodedata.normalize("NFKC", username).casefold()[:255]


def axes_username(request: HttpRequest, credentials: dict[str, Any] | None = None) -> str | None:
    """``AXES_USERNAME_CALLABLE``: the typed name (as axes would take it), normalised by
    :func:`login_name`, for counting, locking, resetting and logging alike."""
    field = getattr(settings, "AXES_USERNAME_FORM_FIELD", "username")
    if credentials:
        typed = credentials.get(field)
    else:
        typed = getattr(request, "data", request.POST).get(field)
    return login_name(typed) if isinstance(typed, str) else typed


def _failures(**filters: object) -> int:
    return (
        AccessAttempt.objects.filter(**filters).aggregate(n=Sum("failures_since_start"))["n"] or 0
    )


class AddressThrottlingHandler(AxesDatabaseHandler):
    """axes' database handler with a second limit per address (see the module doc).

    axes asks ``get_failures`` both before a login (is it locked?) and after a failed
    one (does this failure lock?), and compares the answer with ``AXES_FAILURE_LIMIT``.
    This handler answers the pair's count, or at least that limit once the address
    has reached its own limit; it marks such a request so that the lockout page can
    say that the address, not the name, is paused.
    """

    def get_failures(self, request: AxesRequest, credentials: dict[str, Any] | None = None) -> int:
        pair = super().get_failures(request, credentials)
        address = request.axes_ip_address
        if address is None:
            return pair
        recent: dict[str, object] = {"ip_address": address}
        if settings.AXES_COOLOFF_TIME is not None:
            recent["attempt_time__gte"] = get_cool_off_threshold(request)
        if _failures(**recent) >= settings.JASS_LOGIN_ADDRESS_FAILURE_LIMIT:
            request.jass_address_locked = True
            return max(pair, get_failure_limit(request, credentials))
        return pair


def lockout_response(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponse:
    """The lockout page (``AXES_LOCKOUT_CALLABLE``), 429, for a name or an address."""
    if getattr(request, "jass_address_locked", False):
        template = "accounts/address_locked.html"
    else:
        template = settings.AXES_LOCKOUT_TEMPLATE
    context = {
        "failure_limit": settings.AXES_FAILURE_LIMIT,
        "address_limit": settings.JASS_LOGIN_ADDRESS_FAILURE_LIMIT,
        "minutes": int(settings.AXES_COOLOFF_TIME.total_seconds() // 60),
    }
    return render(request, template, context, status=settings.AXES_HTTP_RESPONSE_CODE)


# --- password changes: counted as failed logins ------------------------------------------
#
# A wrong current password on the change form is a password guess like a wrong login,
# so it goes to django-axes as one (the same signal the login sends): it counts
# towards the same (name, address) and address limits, is logged the same way, and a
# lock blocks both the form and the login. The lockout page comes from axes' middleware.


def _credentials(user: User) -> dict[str, str]:
    return {getattr(settings, "AXES_USERNAME_FORM_FIELD", "username"): user.get_username()}


def password_check_locked(request: HttpRequest, user: User) -> bool:
    """Whether ``user`` may not try a password from this address now."""
    return AxesProxyHandler.is_locked(request, _credentials(user))


def record_wrong_password(request: HttpRequest, user: User, sender: str) -> None:
    """Count a wrong current password as a failed login of ``user`` (logged by axes)."""
    user_login_failed.send(sender=sender, credentials=_credentials(user), request=request)


def forget_failures(username: str) -> None:
    """A new password was set (by a reset): earlier guesses of the old one no longer
    lock the name out."""
    AxesProxyHandler.reset_attempts(username=login_name(username))


# --- requests that send e-mail: counted in the database ---------------------------------
#
# A password-reset request and a teacher sign-up each send a mail to an address the
# requester chose, so a flood of them is a flood of mail to someone. They are not
# logins (they guess no password), so they have their own counts: per client address
# and per e-mail address, in a window (``JASS_MAIL_RATE_WINDOW``). A refused request
# writes nothing.


@dataclass(frozen=True)
class RateLimit:
    scope: str
    setting: str  # the settings name of the count
    window_setting: str = "JASS_MAIL_RATE_WINDOW"  # the settings name of the window

    @property
    def count(self) -> int:
        return int(getattr(settings, self.setting))

    @property
    def window(self) -> timedelta:
        window: timedelta = getattr(settings, self.window_setting)
        return window


RESET_PER_ADDRESS = RateLimit("reset-address", "JASS_PASSWORD_RESET_ADDRESS_LIMIT")
RESET_PER_EMAIL = RateLimit("reset-email", "JASS_PASSWORD_RESET_EMAIL_LIMIT")
SIGNUP_PER_ADDRESS = RateLimit("signup-address", "JASS_TEACHER_SIGNUP_ADDRESS_LIMIT")
# Not mail, but the same kind of count: data exports per requesting user (issue 22,
# item 2), so a loop of downloads cannot take the server's time from everybody else.
EXPORTS_PER_USER = RateLimit("export-user", "JASS_EXPORT_LIMIT", "JASS_EXPORT_WINDOW")


def _key(value: str) -> str:
    # Keyed hash: the table holds neither addresses nor e-mail addresses in clear.
    return salted_hmac("tutor.accounts.throttle", value.casefold(), algorithm="sha256").hexdigest()


def allow(limit: RateLimit, value: str) -> bool:
    """Count one request for ``value`` (an address, an e-mail address) and say whether
    it is within ``limit``; a refused request is not counted."""
    now = timezone.now()
    since = now - limit.window
    key = _key(value)
    if RateEvent.objects.filter(scope=limit.scope, key=key, created_at__gte=since).count() >= (
        limit.count
    ):
        return False
    RateEvent.objects.filter(scope=limit.scope, created_at__lt=since).delete()
    RateEvent.objects.create(scope=limit.scope, key=key, created_at=now)
    return True


def address_of(request: HttpRequest) -> str:
    """The client address as logins count it (per /64 for IPv6, behind proxies)."""
    return client_address(request) or "unknown"


def too_many_requests(request: HttpRequest) -> HttpResponse:
    """The 429 page for a refused request that would have sent e-mail."""
    minutes = int(settings.JASS_MAIL_RATE_WINDOW.total_seconds() // 60)
    response = render(request, "accounts/throttled.html", {"minutes": minutes}, status=429)
    response["Retry-After"] = str(minutes * 60)
    return response
