"""Typed requests for views (the pattern of django-htmx's example project).

``HttpRequest`` does not know the attributes middleware adds. The classes here are for
annotations only: Django still passes its own ``HttpRequest``; what a view declares is
what the middleware in ``settings.MIDDLEWARE`` guarantees.
"""

from __future__ import annotations

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """A request that went through ``django_htmx.middleware.HtmxMiddleware``."""

    htmx: HtmxDetails
