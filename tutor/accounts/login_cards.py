"""Login cards: what a pupil needs on paper to log in the first time.

The QR code is drawn here, on the server, as inline SVG (segno, pure Python): no
image request, no third party, and it prints sharp at any size. It holds the login
URL with the user name filled in (``?u=``), so a pupil with a tablet scans it and
types only the one-time password.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode, urlsplit

import segno
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from .services import LinkBuilder


@dataclass(frozen=True)
class LoginCard:
    name: str
    username: str
    password: str
    login_url: str  # with the user name filled in, for the QR code
    host: str  # what a pupil types: the host, then the login page's path
    path: str

    @property
    def site(self) -> str:
        return self.host + self.path

    @property
    def qr_svg(self) -> SafeString:
        return qr_svg(self.login_url)


def login_card(link: LinkBuilder, *, name: str, username: str, password: str) -> LoginCard:
    login = reverse("login")
    url = link(login + "?" + urlencode({"u": username}))
    parts = urlsplit(url)
    return LoginCard(
        name=name,
        username=username,
        password=password,
        login_url=url,
        host=parts.netloc,
        path=login,
    )


def qr_svg(url: str) -> SafeString:
    """The QR code of ``url`` as an inline ``<svg>`` (sized by CSS, class ``qr``).

    It is hidden from screen readers: the card prints the address beside it.

    >>> svg = qr_svg("https://jass.example.ch/accounts/login/?u=anna.m")
    >>> svg.startswith('<svg aria-hidden="true" focusable="false" viewBox="0 0 41 41" class="qr">')
    True
    """
    code = segno.make(url, error="m", micro=False)
    svg = code.svg_inline(scale=1, border=4, omitsize=True, svgclass="qr", lineclass=None)
    # segno writes only the code's path; the values are ours, so the markup is safe.
    return mark_safe(svg.replace("<svg ", '<svg aria-hidden="true" focusable="false" ', 1))  # noqa: S308
