"""Calls from this site to a school platform's services (the member list, grades):
pylti1p3's connector, every call with a timeout, and what such a call may raise."""

from __future__ import annotations

from typing import Any

import requests
from lti_tool.models import LtiRegistration
from pylti1p3.exception import LtiException
from pylti1p3.service_connector import ServiceConnector

#: What a call to a platform may raise (it did not answer, or answered nonsense);
#: anything else is a bug here and is raised.
PLATFORM_ERRORS = (LtiException, requests.RequestException, ValueError, KeyError, TypeError)


class _TimeoutSession(requests.Session):
    # pylti1p3 calls requests without a timeout.
    def __init__(self, timeout: float) -> None:
        super().__init__()
        self.timeout = timeout

    def request(self, *args: Any, **kwargs: Any) -> requests.Response:
        kwargs.setdefault("timeout", self.timeout)
        return super().request(*args, **kwargs)


def connector(registration: LtiRegistration, *, timeout: float) -> ServiceConnector:
    """pylti1p3's connector to ``registration``'s platform. It signs the token request
    with the tool's newest key and names it (``kid``, as the tool's JWKS does: platforms
    such as Moodle look the key up by it); every call waits ``timeout`` seconds at most."""
    return ServiceConnector(
        registration.to_registration(), requests_session=_TimeoutSession(timeout)
    )
