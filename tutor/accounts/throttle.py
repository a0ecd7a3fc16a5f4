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
"""

from __future__ import annotations

import ipaddress

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


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

    def get_failures(self, request: HttpRequest, credentials: dict | None = None) -> int:
        pair = super().get_failures(request, credentials)
        address = request.axes_ip_address
        if address is None:
            return pair
        recent = {"ip_address": address}
        if settings.AXES_COOLOFF_TIME is not None:
            recent["attempt_time__gte"] = get_cool_off_threshold(request)
        if _failures(**recent) >= settings.JASS_LOGIN_ADDRESS_FAILURE_LIMIT:
            request.jass_address_locked = True
            return max(pair, get_failure_limit(request, credentials))
        return pair


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials=None
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
